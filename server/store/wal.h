/* SPDX-License-Identifier: MIT */
/*
 * wal.h - the write-ahead file of the journals: DATA_DIR/rooms/journal.wal.
 *
 * A write job appends the records it takes, framed with their room and
 * journal offset, to this one file and flushes it with a single
 * fdatasync(); it appends them to the room journals too, without flushing
 * them, at once or some jobs later (journal.h). A machine that stops
 * before the journals reach the disk is mended at the next start: every
 * frame of the file is written again at its place in its journal.
 *
 * The file has a header (its generation) and frames from WAL_DATA on. When
 * the frames would pass the file's size, the job flushes the journals
 * themselves (syncfs of their file system), and a checkpoint starts the
 * next generation: the header says it, and frames are written from
 * WAL_DATA again over the old ones, which the generation in each frame
 * tells apart. During the first lap the file is filled with zeros a
 * megabyte ahead of the frames, so that a flush writes the frames' blocks
 * and, but once a megabyte, nothing of the file system's metadata.
 *
 * A frame: a 32-byte head (magic, generation, payload length, CRC-32C of
 * head and payload, the journal offset, the room code, its kind), then the
 * payload. Reading stops at the first frame that is torn, of another
 * generation, or fails its checksum.
 *
 * Nothing here runs on the event loop: wal_recover() runs once at open,
 * the others only inside a write job, on one thread at a time.
 */
#ifndef CONCLAVE_STORE_WAL_H
#define CONCLAVE_STORE_WAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "proto.h"

#define WAL_NAME "journal.wal"
#define WAL_DATA 4096u                /* first frame's offset */
#define WAL_HEAD 32u                  /* bytes of a frame's head */
#define WAL_DEFAULT_BYTES (16u << 20) /* the file's size after its first lap */
#define WAL_FRAME_SIZE(len) (WAL_HEAD + (size_t)(len))

enum wal_kind {
    WAL_WRITE = 'W',  /* payload bytes go at `off` in the room's journal */
    WAL_FORGET = 'F', /* the room's journal is removed */
};

struct wal {
    int fd;
    uint32_t gen;    /* generation of the frames being written */
    uint64_t off;    /* where the next frame goes */
    uint64_t size;   /* frames wrap to WAL_DATA rather than pass this */
    uint64_t zeroed; /* the file's bytes written so far, zeros or frames */
};

/* Opens (creating) the file in `rooms_dir`, writes every frame of its
 * current generation back into the journals of `rooms_dir`, makes them
 * durable and starts a new generation. `size` 0 means WAL_DEFAULT_BYTES.
 * Returns 0, or a negative errno (the journals are then as they were
 * found); *ret_frames tells how many frames were written back. */
int wal_recover(struct wal *w, const char *rooms_dir, uint64_t size, uint64_t *ret_frames);

/* Writes one frame into `out` (room for WAL_FRAME_SIZE(len) bytes). */
void wal_frame(char *out, uint32_t gen, enum wal_kind kind, const char *code, uint64_t off,
               const char *data, size_t len);

/* True when `len` more bytes of frames fit before w->size, their blocks
 * written (with zeros, in the first lap). When the disk has no room for
 * them, the file's lap is cut to what it holds and the answer is false. */
bool wal_room(struct wal *w, size_t len);

/* Appends `len` bytes of frames (made with w->gen) at w->off, which
 * wal_room() found room for, and, with `flush`, flushes the file with
 * fdatasync(); w->off moves past them only on success. Returns 0 or an
 * errno. */
int wal_append(struct wal *w, const char *frames, size_t len, bool flush);

/* Starts the next generation, once the journals are durable by other
 * means: the header is rewritten and flushed, and frames start again at
 * WAL_DATA. Returns 0 or an errno. */
int wal_checkpoint(struct wal *w);

/* Closes the file. */
void wal_close(struct wal *w);

#endif
