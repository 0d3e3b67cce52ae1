/* SPDX-License-Identifier: MIT */
/*
 * wal.c - the journals' write-ahead file; see wal.h.
 */
#define _GNU_SOURCE /* syncfs */
#include "wal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"
#include "record.h"

#define WAL_MAGIC UINT32_C(0x46574c43) /* "CLWF" */
static const char header_magic[8] = {'C', 'N', 'C', 'L', 'W', 'A', 'L', '1'};

/* The head of a frame as it lies in the file (host byte order: the file
 * never leaves the machine that wrote it). */
struct frame_head {
    uint32_t magic;
    uint32_t gen;
    uint32_t len;
    uint32_t sum;
    uint64_t off;
    char code[PROTO_ROOM_CODE_LEN];
    uint8_t kind;
    uint8_t pad;
};

_Static_assert(sizeof(struct frame_head) == WAL_HEAD, "frame head is 32 bytes");
_Static_assert(PROTO_ROOM_CODE_LEN == 6, "frame head holds a 6-byte code");

/* ---- CRC-32C (Castagnoli) ---- */

/* Filled by wal_recover(), which runs before any frame is made. */
static uint32_t crc_table[256];

/* A byte at a time through the table: every machine. */
static uint32_t crc_add_table(uint32_t crc, const void *p, size_t n)
{
    const unsigned char *b = p;

    for (size_t i = 0; i < n; i++) {
        crc = crc_table[(crc ^ b[i]) & 0xff] ^ (crc >> 8);
    }
    return crc;
}

#if defined(__x86_64__) && !defined(CONCLAVE_CRC_PORTABLE)
#include <nmmintrin.h>

/* Eight bytes at a time with SSE4.2's crc32 instruction, which computes
 * the same Castagnoli CRC as the table. */
__attribute__((target("sse4.2"))) static uint32_t crc_add_sse42(uint32_t crc, const void *p,
                                                                size_t n)
{
    const unsigned char *b = p;
    uint64_t c = crc;

    for (; n >= 8; b += 8, n -= 8) {
        uint64_t w;
        memcpy(&w, b, 8);
        c = _mm_crc32_u64(c, w);
    }
    for (; n > 0; b++, n--) {
        c = _mm_crc32_u8((uint32_t)c, *b);
    }
    return (uint32_t)c;
}
#endif

static uint32_t (*crc_add)(uint32_t crc, const void *p, size_t n) = crc_add_table;

static void crc_init(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++) {
            c = c & 1 ? (c >> 1) ^ UINT32_C(0x82f63b78) : c >> 1;
        }
        crc_table[i] = c;
    }
#if defined(__x86_64__) && !defined(CONCLAVE_CRC_PORTABLE)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("sse4.2")) {
        crc_add = crc_add_sse42;
    }
#endif
}

static uint32_t frame_sum(const struct frame_head *h, const char *data)
{
    struct frame_head z = *h;

    z.sum = 0;
    return ~crc_add(crc_add(~UINT32_C(0), &z, sizeof(z)), data, h->len);
}

/* ---- Whole reads and writes at an offset ---- */

static int pwrite_all(int fd, const void *buf, size_t len, uint64_t off)
{
    const char *p = buf;

    while (len > 0) {
        ssize_t w = pwrite(fd, p, len, (off_t)off);
        if (w < 0 && errno == EINTR) {
            continue;
        }
        if (w <= 0) {
            return w < 0 ? errno : EIO;
        }
        p += w;
        len -= (size_t)w;
        off += (uint64_t)w;
    }
    return 0;
}

static int datasync(int fd)
{
    return fdatasync(fd) == 0 ? 0 : errno ? errno : EIO;
}

void wal_frame(char *out, uint32_t gen, enum wal_kind kind, const char *code, uint64_t off,
               const char *data, size_t len)
{
    struct frame_head h;

    memset(&h, 0, sizeof(h));
    h.magic = WAL_MAGIC;
    h.gen = gen;
    h.len = (uint32_t)len;
    h.off = off;
    memcpy(h.code, code, PROTO_ROOM_CODE_LEN);
    h.kind = (uint8_t)kind;
    h.sum = frame_sum(&h, data);
    memcpy(out, &h, sizeof(h));
    if (len) {
        memcpy(out + sizeof(h), data, len);
    }
}

/* Zeros written ahead of the frames, a chunk at a time, during the file's
 * first lap: a flush then finds the frame's blocks allocated and the size
 * set, and has no metadata to commit. */
#define WAL_ZERO_CHUNK (1u << 20)

static int zero_ahead(struct wal *w, uint64_t end)
{
    static const char zeros[64 * 1024];
    uint64_t to = (end + WAL_ZERO_CHUNK - 1) / WAL_ZERO_CHUNK * WAL_ZERO_CHUNK;

    if (to > w->size) {
        to = w->size;
    }
    while (w->zeroed < to) {
        size_t n = to - w->zeroed < sizeof(zeros) ? (size_t)(to - w->zeroed) : sizeof(zeros);
        int err = pwrite_all(w->fd, zeros, n, w->zeroed);
        if (err) {
            return err;
        }
        w->zeroed += n;
    }
    return 0;
}

bool wal_room(struct wal *w, size_t len)
{
    if (w->off + len > w->size) {
        return false;
    }
    if (w->off + len > w->zeroed && zero_ahead(w, w->off + len) != 0) {
        /* No room on the disk for more of the file: its lap ends where it
         * does now (until the next start). */
        w->size = w->zeroed;
        return false;
    }
    return true;
}

int wal_append(struct wal *w, const char *frames, size_t len, bool flush)
{
    int err = pwrite_all(w->fd, frames, len, w->off);

    if (!err && flush) {
        err = datasync(w->fd);
    }
    if (!err) {
        w->off += len;
    }
    return err;
}

int wal_checkpoint(struct wal *w)
{
    char head[16];
    uint32_t gen = w->gen + 1;

    memcpy(head, header_magic, 8);
    memcpy(head + 8, &gen, 4);
    uint32_t sum = ~crc_add(~UINT32_C(0), head, 12);
    memcpy(head + 12, &sum, 4);
    int err = pwrite_all(w->fd, head, sizeof(head), 0);
    if (!err) {
        err = datasync(w->fd);
    }
    if (!err) {
        w->gen = gen;
        w->off = WAL_DATA;
    }
    return err;
}

void wal_close(struct wal *w)
{
    if (w->fd >= 0) {
        close(w->fd);
        w->fd = -1;
    }
}

/* ---- Recovery ---- */

/* The generation in the file's header; 0 when it has none (a new file,
 * or one whose header is torn: then no frame is trusted). */
static uint32_t read_gen(int fd)
{
    char head[16];
    uint32_t gen, sum;

    if (pread(fd, head, sizeof(head), 0) != (ssize_t)sizeof(head) ||
        memcmp(head, header_magic, 8) != 0) {
        return 0;
    }
    memcpy(&gen, head + 8, 4);
    memcpy(&sum, head + 12, 4);
    return sum == ~crc_add(~UINT32_C(0), head, 12) ? gen : 0;
}

/* Writes one frame back into its journal. `jfd`/`jcode` keep the last
 * journal opened, since a room's frames tend to follow one another. */
static int replay_frame(const char *rooms_dir, const struct frame_head *h, const char *data,
                        int *jfd, char *jcode)
{
    char path[PATH_MAX];
    char code[PROTO_ROOM_CODE_LEN + 1];

    memcpy(code, h->code, PROTO_ROOM_CODE_LEN);
    code[PROTO_ROOM_CODE_LEN] = '\0';
    if (!store_is_code(code)) {
        return EINVAL;
    }
    if (store_journal_path(rooms_dir, code, path, sizeof(path)) != 0) {
        return ENAMETOOLONG;
    }
    if (*jfd >= 0 && (h->kind == WAL_FORGET || strcmp(jcode, code) != 0)) {
        close(*jfd);
        *jfd = -1;
    }
    if (h->kind == WAL_FORGET) {
        return unlink(path) == 0 || errno == ENOENT ? 0 : errno;
    }
    if (*jfd < 0) {
        *jfd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
        if (*jfd < 0) {
            return errno;
        }
        memcpy(jcode, code, sizeof(code));
    }
    return pwrite_all(*jfd, data, h->len, h->off);
}

/* Writes every frame of generation w->gen back; see wal_recover(). */
static int replay(struct wal *w, const char *rooms_dir, uint64_t *ret_frames)
{
    struct stat sb;
    int jfd = -1, err = 0;
    char jcode[PROTO_ROOM_CODE_LEN + 1] = "";
    char *data = NULL;
    size_t cap = 0;
    uint64_t pos = WAL_DATA, frames = 0;

    if (fstat(w->fd, &sb) != 0) {
        return errno;
    }
    while (!err && pos + WAL_HEAD <= (uint64_t)sb.st_size) {
        struct frame_head h;
        if (pread(w->fd, &h, sizeof(h), (off_t)pos) != (ssize_t)sizeof(h) || h.magic != WAL_MAGIC ||
            h.gen != w->gen || (h.kind != WAL_WRITE && h.kind != WAL_FORGET) ||
            pos + WAL_HEAD + h.len > (uint64_t)sb.st_size) {
            break;
        }
        if (h.len > cap) {
            char *n = realloc(data, h.len);
            if (!n) {
                err = ENOMEM;
                break;
            }
            data = n;
            cap = h.len;
        }
        if (h.len && pread(w->fd, data, h.len, (off_t)(pos + WAL_HEAD)) != (ssize_t)h.len) {
            break;
        }
        if (h.sum != frame_sum(&h, data)) {
            break;
        }
        err = replay_frame(rooms_dir, &h, data, &jfd, jcode);
        frames++;
        pos += WAL_HEAD + h.len;
    }
    if (jfd >= 0) {
        close(jfd);
    }
    free(data);
    *ret_frames = frames;
    return err;
}

int wal_recover(struct wal *w, const char *rooms_dir, uint64_t size, uint64_t *ret_frames)
{
    char q[LOG_QUOTE_MAX];
    char path[PATH_MAX];
    int err;

    crc_init();
    *ret_frames = 0;
    w->size = size ? size : WAL_DEFAULT_BYTES;
    if (w->size < WAL_DATA + WAL_HEAD) {
        w->size = WAL_DATA + WAL_HEAD;
    }
    if (snprintf(path, sizeof(path), "%s/%s", rooms_dir, WAL_NAME) >= (int)sizeof(path)) {
        return -ENAMETOOLONG;
    }
    w->fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (w->fd < 0) {
        return -errno;
    }
    w->gen = read_gen(w->fd);
    struct stat sb;
    w->zeroed = fstat(w->fd, &sb) == 0 ? (uint64_t)sb.st_size : 0;
    if (w->zeroed < WAL_DATA) {
        w->zeroed = WAL_DATA; /* never over the header */
    }
    uint64_t frames = 0;
    err = w->gen ? replay(w, rooms_dir, &frames) : 0;
    if (err) {
        log_event(LOG_ERROR, "journal_wal_replay_failed", "frames=%llu error=%s",
                  (unsigned long long)frames, log_quote(q, sizeof(q), strerror(err)));
        wal_close(w);
        return -err;
    }
    /* The frames are in the journals (or were already): make those
     * durable before a new generation lets the frames be overwritten. A
     * new file has its directory entry made durable instead. */
    if (frames > 0 && syncfs(w->fd) != 0) {
        err = errno;
    } else if (w->gen == 0) {
        int dfd = open(rooms_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        err = dfd < 0 || fsync(dfd) != 0 ? errno : 0;
        if (dfd >= 0) {
            close(dfd);
        }
    }
    if (err) {
        wal_close(w);
        return -err;
    }
    err = wal_checkpoint(w);
    if (err) {
        wal_close(w);
        return -err;
    }
    if (frames > 0) {
        log_event(LOG_INFO, "journal_wal_replayed", "frames=%llu", (unsigned long long)frames);
    }
    *ret_frames = frames;
    return 0;
}
