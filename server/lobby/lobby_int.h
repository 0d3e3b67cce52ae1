/* SPDX-License-Identifier: MIT */
/*
 * lobby_int.h - what the lobby's files share and nobody else sees: the
 * room, seat and lobby structs, and the lobby__ functions that cross
 * between room.c (rooms and operations), outbox.c (sending through the
 * journal's gate) and restore.c (rebuilding rooms from journals).
 */
#ifndef CONCLAVE_LOBBY_INT_H
#define CONCLAVE_LOBBY_INT_H

#include <stdbool.h>

#include "lobby.h"

struct diff_line {
    int64_t rev;
    char *line;
    size_t len;
};

struct seat {
    enum seat_kind kind;
    char name[GAME_NAME_MAX];
    bool has_token;
    uint8_t token_hash[32];
    struct lobby_peer *peer; /* bound connection, or NULL */
    json_t *view;            /* last view of this seat (humans, once started) */
    struct diff_line hist[LOBBY_DIFF_KEEP];
};

/* A line that waits for the journal before it may go out. */
struct outitem {
    uint64_t seq;             /* journal record it waits for */
    struct lobby_peer *peer;  /* NULL once the peer has gone */
    char *line;
    size_t len;
};

struct room {
    struct room *next;
    struct lobby *lobby;
    uint64_t jseq; /* sequence number of this room's last journal record */
    struct outitem *out;
    size_t out_head, out_len, out_cap;
    char code[PROTO_ROOM_CODE_LEN + 1];
    const struct game_ops *game;
    json_t *options; /* game options (without "public") */
    bool is_public;
    int nseats;
    struct seat seats[GAME_MAX_SEATS];
    int host; /* seat of the host, -1 when nobody */
    enum room_status status;
    void *state;
    uint8_t seed[GAME_SEED_BYTES];
    char seed_commit[PROTO_HASH_HEX_LEN + 1];
    int64_t rev;
    json_t *spec_view; /* last public view, while spectators watch */
    struct lobby_peer **specs;
    size_t nspecs, capspecs;
    json_t *actions; /* the record: [{"seat", "action"}] */
    uint64_t idle_since; /* when the last human left, 0 while someone is here */
    uint64_t ended_at;
    uint64_t bot_due; /* 0: no bot move pending */
};

struct lobby {
    struct lobby_config cfg;
    struct room *rooms;
    unsigned nrooms;
    struct lobby_store store;
    bool has_store;
    uint64_t durable; /* highest journal sequence number on disk */
    bool restoring;   /* replaying journals: no journal writes, no sends */
    uint64_t next_due; /* no room has work before this (it may be early) */
};

extern const char *const lobby__status_names[];
extern const char *const lobby__kind_names[];

/* ---- outbox.c: everything a room sends, and its journal ---- */

/* Sends one line to `peer` now, or queues it behind the room's journal
 * records that are not durable yet. NULL peer: nothing. */
void lobby__out(struct room *room, struct lobby_peer *peer, const char *line, size_t len);

/* Forgets `peer` in the room's queue (it is going away). */
void lobby__scrub(struct room *room, const struct lobby_peer *peer);

/* Sends `msg` (borrowed) to `peer`: through the room's queue when `room`
 * is set, directly otherwise. */
void lobby__send_json(struct room *room, struct lobby_peer *peer, const json_t *msg);

/* Sends {"re": id, "ok": true, ...fields}; steals `fields` (may be NULL). */
void lobby__reply_ok(struct room *room, struct lobby_peer *peer, const json_t *id, json_t *fields);

/* Sends one line, or one message (borrowed), to every member. */
void lobby__broadcast_line(struct room *room, const char *line, size_t len);
void lobby__broadcast(struct room *room, const json_t *msg);

/* Appends record `rec` (stolen) to the room's journal; what the room sends
 * afterwards waits until it is durable. */
void lobby__journal(struct room *room, json_t *rec);
void lobby__journal_seat(struct room *room, int seat);
void lobby__journal_host(struct room *room);

/* ---- room.c: rooms ---- */

struct room *lobby__room_find(struct lobby *lobby, const char *code);

/* A new room in the lobby's list, in the lobby state. Steals `options`
 * (freed on failure too). NULL on ENOMEM. */
struct room *lobby__room_new(struct lobby *lobby, const char *code, const struct game_ops *game,
                             json_t *options, bool is_public, int nseats,
                             const uint8_t seed[GAME_SEED_BYTES]);

/* Builds the game from the seats as they are and moves the room to playing
 * at rev 1. GAME_OK or the game's refusal. */
int lobby__room_begin(struct room *room, struct game_error *gerr);

/* Frees a room already out of the lobby's list. Accepts NULL. */
void lobby__room_free(struct room *room);

/* The view of `seat` (-1 spectator) with the seed commitment (and the seed
 * once over). New reference or NULL. */
json_t *lobby__room_view(const struct room *room, int seat);

/* Notes whether anyone is connected, for expiry. */
void lobby__room_touch(struct room *room, uint64_t now);

/* Arms the bot timer when a bot may act now. */
void lobby__schedule_bots(struct lobby *lobby, struct room *room, uint64_t now);

/* Lowers the lobby's next due time to the room's, when that is earlier:
 * called wherever a room's bot move or expiry may have moved closer. */
void lobby__note_due(struct room *room);

#endif
