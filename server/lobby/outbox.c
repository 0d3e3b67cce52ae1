/* SPDX-License-Identifier: MIT */
/*
 * outbox.c - everything a room sends goes through here. While a journal
 * record of the room is not yet durable, the lines that follow it wait in
 * the room's queue, in order, tagged with the record they follow;
 * lobby_durable() releases them: the post office, and nothing else. Never
 * touches a socket: peers carry their own send and close.
 */
#include "lobby_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"

/* The lobby's list of rooms whose queue holds lines or whose last records
 * are not durable yet: lobby_durable() walks it instead of every room. */
static void wait_list_add(struct room *room)
{
    struct lobby *lobby = room->lobby;

    if (room->out.wait_prev) {
        return;
    }
    room->out.wait_next = lobby->waiting;
    if (lobby->waiting) {
        lobby->waiting->out.wait_prev = &room->out.wait_next;
    }
    lobby->waiting = room;
    room->out.wait_prev = &lobby->waiting;
}

static void wait_list_remove(struct room *room)
{
    if (!room->out.wait_prev) {
        return;
    }
    *room->out.wait_prev = room->out.wait_next;
    if (room->out.wait_next) {
        room->out.wait_next->out.wait_prev = room->out.wait_prev;
    }
    room->out.wait_next = NULL;
    room->out.wait_prev = NULL;
}

static bool out_push(struct room *room, struct lobby_peer *peer, const char *line, size_t len)
{
    if (room->out.len == room->out.cap) {
        if (room->out.head > 0) {
            memmove(room->out.items, room->out.items + room->out.head,
                    (room->out.len - room->out.head) * sizeof(*room->out.items));
            room->out.len -= room->out.head;
            room->out.head = 0;
        }
        if (room->out.len == room->out.cap) {
            size_t cap = room->out.cap ? room->out.cap * 2 : 16;
            struct outitem *n = realloc(room->out.items, cap * sizeof(*n));
            if (!n) {
                return false;
            }
            room->out.items = n;
            room->out.cap = cap;
        }
    }
    char *copy = malloc(len);
    if (!copy) {
        return false;
    }
    memcpy(copy, line, len);
    room->out.items[room->out.len++] = (struct outitem){room->out.jseq, peer, copy, len};
    room->out.bytes += len;
    wait_list_add(room);
    return true;
}

void lobby__out(struct room *room, struct lobby_peer *peer, const char *line, size_t len)
{
    if (!peer || (room && room->lobby->restoring)) {
        return;
    }
    if (peer->held > 0) {
        /* Lines for this peer wait in a room's queue: this one goes
         * behind them, whatever room (if any) it comes from. */
        room = peer->held_room;
    }
    if (!room || (room->out.head == room->out.len && room->out.jseq <= room->lobby->durable &&
                  !room->out.journal_failing)) {
        peer->send(peer, line, len);
        return;
    }
    if (room->out.bytes + len > 2 * room->lobby->cfg.outbox_max) {
        /* The journal has been stuck for long: rather than hold lines
         * without limit, the peer is closed and resumes once it is back. */
        peer->close(peer);
        return;
    }
    if (!out_push(room, peer, line, len)) {
        /* Out of memory: the peer would miss a line and lose track; close
         * it so that it resumes with a full state. */
        peer->close(peer);
        return;
    }
    peer->held_room = room;
    peer->held++;
}

void lobby_peer_send(struct lobby_peer *peer, const char *line, size_t len)
{
    lobby__out(NULL, peer, line, len);
}

/* One queued line has left (sent or dropped): the peer's hold shrinks. */
static void unhold(struct lobby_peer *peer)
{
    if (peer && --peer->held == 0) {
        peer->held_room = NULL;
    }
}

void lobby__out_record(struct room *room, uint64_t seq)
{
    if (seq > room->out.jseq) {
        room->out.jseq = seq;
    }
    if (room->out.jseq > room->lobby->durable) {
        wait_list_add(room);
    }
}

bool lobby__flush(struct room *room)
{
    while (!room->out.journal_failing && room->out.head < room->out.len &&
           room->out.items[room->out.head].seq <= room->lobby->durable) {
        struct outitem *it = &room->out.items[room->out.head++];
        if (it->peer) {
            unhold(it->peer);
            it->peer->send(it->peer, it->line, it->len);
        }
        room->out.bytes -= it->len;
        free(it->line);
    }
    if (room->out.head == room->out.len) {
        /* Drained: the queue's memory goes back until it is needed. */
        free(room->out.items);
        room->out.items = NULL;
        room->out.head = room->out.len = room->out.cap = 0;
        if (room->out.jseq <= room->lobby->durable) {
            wait_list_remove(room);
            return true;
        }
    }
    return false;
}

void lobby__scrub(struct lobby_peer *peer)
{
    struct room *room = peer->held_room;

    for (size_t i = room ? room->out.head : 0; room && i < room->out.len; i++) {
        if (room->out.items[i].peer == peer) {
            room->out.items[i].peer = NULL;
        }
    }
    peer->held = 0;
    peer->held_room = NULL;
}

void lobby__unqueue(struct room *room)
{
    for (size_t i = room->out.head; i < room->out.len; i++) {
        struct lobby_peer *peer = room->out.items[i].peer;
        if (peer) {
            /* It would miss lines it is owed: it resumes instead. */
            lobby__scrub(peer);
            peer->close(peer);
        }
        free(room->out.items[i].line);
    }
    room->out.head = room->out.len = 0;
    room->out.bytes = 0;
    wait_list_remove(room);
}

/* Sends `msg` (borrowed) to `peer`: through the room's queue when `room`
 * is set, directly otherwise. */
void lobby__send_json(struct room *room, struct lobby_peer *peer, const json_t *msg)
{
    size_t len;
    char *line;

    if (!peer) {
        return;
    }
    line = msg ? proto_line_dump(msg, &len) : NULL;
    if (!line) {
        /* The peer would wait for a line it never gets: close it, so that
         * it reconnects and asks again. */
        peer->close(peer);
        return;
    }
    lobby__out(room, peer, line, len);
    free(line);
}

/* Sends the success reply {"re": id, "ok": true, ...fields}; steals
 * `fields`, where NULL is a failed allocation upstream (the peer is then
 * closed, never sent half a reply). With `room` set it waits for the room's
 * journal. */
void lobby__reply_ok(struct room *room, struct lobby_peer *peer, const json_t *id, json_t *fields)
{
    json_t *r = fields ? proto_reply_ok(id) : NULL;

    if (r && json_object_update(r, fields) != 0) {
        json_decref(r);
        r = NULL;
    }
    lobby__send_json(room, peer, r);
    json_decref(r);
    json_decref(fields);
}

void lobby__id_add(struct proto_text *t, const json_t *id)
{
    char *re;

    if (json_is_integer(id) || json_is_string(id)) {
        proto_text_canonical(t, id);
    } else if ((re = json_dumps(id, JSON_COMPACT | JSON_ENCODE_ANY))) {
        proto_text_str(t, re);
        free(re);
    } else {
        t->err = -ENOMEM;
    }
}

/* Writes "ok":true,"rev":rev, with "undo":true when `undo`, and the
 * closing brace and newline at `o` (at most REV_TAIL_MAX bytes); their
 * length. */
#define REV_TAIL_MAX 64
static size_t rev_tail(char *o, int64_t rev, bool undo)
{
    static const char ok[] = "\"ok\":true,\"rev\":";
    static const char undo_true[] = ",\"undo\":true";
    char num[PROTO_DEC_MAX];
    size_t nd;
    const char *d = proto_dec(num, rev < 0 ? 0 : (uint64_t)rev, &nd);
    char *start = o;

    o = proto_put(o, ok, sizeof(ok) - 1);
    o = proto_put(o, d, nd);
    if (undo) {
        o = proto_put(o, undo_true, sizeof(undo_true) - 1);
    }
    o = proto_put(o, "}\n", 2);
    return (size_t)(o - start);
}

void lobby__reply_rev(struct room *room, struct lobby_peer *peer, const json_t *id, int64_t rev)
{
    /* {"re":id, and the tail: on the stack when the id is an integer or
     * absent (every client this server knows), else through a text. */
    char line[8 + 1 + PROTO_DEC_MAX + REV_TAIL_MAX];
    struct proto_text t = {0};
    size_t n;
    char *text;
    bool undo;

    if (!peer) {
        return;
    }
    /* The seat may take its last action back (`undo`). */
    undo = room->undo.n > 0 && room->undo.seat == peer->seat;
    if (!id || json_is_integer(id)) {
        char *o = proto_put(line, "{\"re\":", id ? 6 : 1);
        if (id) {
            char num[1 + PROTO_DEC_MAX];
            size_t nd;
            const char *d = proto_dec_signed(num, (long long)json_integer_value(id), &nd);
            o = proto_put(o, d, nd);
            *o++ = ',';
        }
        o += rev_tail(o, rev, undo);
        lobby__out(room, peer, line, (size_t)(o - line));
        return;
    }
    proto_text_str(&t, "{\"re\":");
    lobby__id_add(&t, id);
    proto_text_add(&t, ",", 1);
    proto_text_add(&t, line, rev_tail(line, rev, undo));
    text = proto_text_take(&t, PROTO_OUT_LINE_MAX, &n);
    if (!text) {
        peer->close(peer);
        return;
    }
    lobby__out(room, peer, text, n);
    free(text);
}

/* Sends {"re": id, "ok": true}. */
void lobby__reply_bare(struct room *room, struct lobby_peer *peer, const json_t *id)
{
    lobby__reply_ok(room, peer, id, json_object());
}

void lobby__broadcast_line(struct room *room, const char *line, size_t len)
{
    for (int i = 0; i < room->nseats; i++) {
        lobby__out(room, room->seats[i].peer, line, len);
    }
    for (size_t i = 0; i < room->who.nspecs; i++) {
        lobby__out(room, room->who.specs[i], line, len);
    }
}

/* ---- Journal ---- */

void lobby__broadcast(struct room *room, const json_t *msg)
{
    size_t len;
    char *line = msg ? proto_line_dump(msg, &len) : NULL;

    if (line) {
        lobby__broadcast_line(room, line, len);
        free(line);
    }
}

/* ---- Durability ---- */

void lobby_set_store(struct lobby *lobby, const struct lobby_store *store)
{
    lobby->store = *store;
    lobby->has_store = true;
}

bool lobby__journal_failing(struct room *room, bool failing)
{
    if (room->out.journal_failing == failing) {
        return false;
    }
    room->out.journal_failing = failing;
    if (failing) {
        log_event(LOG_WARN, "room_journal_failing", "room=%s", room->code);
        return false;
    }
    log_event(LOG_INFO, "room_journal_ok", "room=%s", room->code);
    return lobby__flush(room);
}
