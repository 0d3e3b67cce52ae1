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
    enum bot_level level; /* a bot's level */
    char name[GAME_NAME_MAX];
    bool has_token;
    uint8_t token_hash[32];
    struct lobby_peer *peer; /* bound connection, or NULL */
    /* The canonical text of the last published "you" (humans, once
     * started); you_len 0: none yet. The buffer is kept and reused. */
    char *you_text;
    size_t you_len;
    size_t you_cap;
    json_t *legal;    /* legal actions at legal_rev, or NULL */
    char *legal_text; /* their serialised array, built when first asked */
    size_t legal_len;
    int64_t legal_rev;
    struct diff_line hist[LOBBY_DIFF_KEEP];
};

/* A line that waits for the journal before it may go out. */
struct outitem {
    uint64_t seq;            /* journal record it waits for */
    struct lobby_peer *peer; /* NULL once the peer has gone */
    char *line;
    size_t len;
};

#define LOBBY_HASH_STATE 384 /* bytes of a crypto_generichash_state */

/* One top-level member of the public view, as last published. */
struct view_part {
    const char *key; /* borrowed from the game, or "seed_commit" */
    int section;     /* index into game->sections; -1: the seed commitment */
    char *text;      /* the value's canonical text; the buffer is reused */
    size_t len;
    size_t cap;
};

/* The public view of a room, kept member by member, so that an action
 * rebuilds, diffs and serialises only what it changed, once for everyone. */
struct room_view {
    bool valid; /* the parts hold the view at room->rev */
    size_t nparts;
    struct view_part *parts; /* sorted by key bytes */
    /* BLAKE2b states: hash[i] is the state over "{" and parts 0..i-1,
     * hash[nparts] the state over the whole public part without its closing
     * brace, from which each recipient's hash continues. An action rehashes
     * only from its first changed part on. Raw bytes, copied into an
     * aligned crypto_generichash_state before use. */
    unsigned char (*hash)[LOBBY_HASH_STATE];
};

struct room {
    struct room *next;
    struct lobby *lobby;
    uint64_t jseq; /* sequence number of this room's last journal record */
    /* Its place in the lobby's list of rooms whose queue holds lines
     * (wait_prev NULL: not in it), so that lobby_durable() visits those
     * only. */
    struct room *wait_next, **wait_prev;
    struct outitem *out;
    size_t out_head, out_len, out_cap;
    size_t out_bytes;     /* bytes of lines held back for the journal */
    bool stalled;         /* over the outbox bound: actions are refused */
    bool journal_failing; /* its journal cannot be written: lines wait, actions are refused */
    char code[PROTO_ROOM_CODE_LEN + 1];
    uint64_t creator;      /* the id of the peer that created it (0: restored) */
    char creator_addr[48]; /* and its address */
    const struct game_ops *game;
    json_t *options; /* game options (without "public" and "bot_level") */
    bool is_public;
    enum bot_level bot_level; /* of the bots that fill or keep seats */
    uint64_t serial;          /* the lobby's count of rooms when it was made */
    struct bot_job *thinking; /* a bot's search under way, or NULL */
    int nseats;
    struct seat seats[GAME_MAX_SEATS];
    int host; /* seat of the host, -1 when nobody */
    enum room_status status;
    void *state;   /* the game, state_size bytes */
    void *scratch; /* where an action is tried; the previous state after a commit */
    uint8_t seed[GAME_SEED_BYTES];
    char seed_commit[PROTO_HASH_HEX_LEN + 1];
    int64_t rev;
    struct room_view view;
    struct lobby_peer **specs;
    size_t nspecs, capspecs;
    json_t *actions;     /* the record: [{"seat", "action"}] */
    uint64_t idle_since; /* when the last human left, 0 while someone is here */
    uint64_t ended_at;
    uint64_t bot_due; /* 0: no bot move pending */
};

struct lobby {
    struct lobby_config cfg;
    struct room *rooms;
    unsigned nrooms;
    struct proto_code_map index; /* every room of `rooms`, by code */
    struct room *waiting;        /* rooms whose queue holds lines */
    struct lobby_store store;
    bool has_store;
    struct lobby_bots bots;
    bool has_bots;
    uint64_t serials; /* rooms made */
    uint64_t actions[LOBBY_STATS_GAMES];
    uint64_t bot_moves[BOT_NLEVELS];
    uint64_t restored;
    bool draining;     /* no new rooms: the server is going away */
    uint64_t durable;  /* highest journal sequence number on disk */
    bool restoring;    /* replaying journals: no journal writes, no sends */
    uint64_t next_due; /* no room has work before this (it may be early) */
    /* Where views are written before they are compared with what was
     * published; its buffer changes places with the part's it replaces. */
    struct game_text scratch;
};

extern const char *const lobby__status_names[];
extern const char *const lobby__kind_names[];

/* ---- outbox.c: everything a room sends, and its journal ---- */

/* Sends one line to `peer` now, or queues it behind the room's journal
 * records that are not durable yet. NULL peer: nothing. */
void lobby__out(struct room *room, struct lobby_peer *peer, const char *line, size_t len);

/* Forgets the lines queued for `peer` (its connection is going away). */
void lobby__scrub(struct lobby_peer *peer);

/* Empties `room`'s queue (the room is being freed): a peer that is still
 * owed lines there is closed, to resume with a full state. */
void lobby__unqueue(struct room *room);

/* Sends `msg` (borrowed) to `peer`: through the room's queue when `room`
 * is set, directly otherwise. NULL `msg` (or one that cannot be
 * serialised) closes the peer: it would otherwise wait forever. */
void lobby__send_json(struct room *room, struct lobby_peer *peer, const json_t *msg);

/* Sends {"re": id, "ok": true, ...fields}; steals `fields`. NULL fields
 * mean a failed allocation: the peer is closed instead of half answered. */
void lobby__reply_ok(struct room *room, struct lobby_peer *peer, const json_t *id, json_t *fields);

/* Sends {"re": id, "ok": true}. */
void lobby__reply_bare(struct room *room, struct lobby_peer *peer, const json_t *id);

/* Sends {"re": id, "ok": true, "rev": rev}, written without a tree: the
 * reply of every action. Closes the peer when it cannot be built. */
void lobby__reply_rev(struct room *room, struct lobby_peer *peer, const json_t *id, int64_t rev);

/* Appends a request's id (any JSON value) as text. */
void lobby__id_add(struct proto_text *t, const json_t *id);

/* Sends one line, or one message (borrowed), to every member. */
void lobby__broadcast_line(struct room *room, const char *line, size_t len);
void lobby__broadcast(struct room *room, const json_t *msg);

/* Appends record `rec` (stolen; NULL counts as ENOMEM) to the room's
 * journal; what the room sends afterwards waits until it is durable.
 * Returns 0, or a negative errno when the record was not taken (-EDOM:
 * it holds a real number, which the wire never carries). Restoring or
 * without a store: 0. */
int lobby__journal(struct room *room, json_t *rec);

/* Appends one record already written as a compact JSON object (`len`
 * bytes, no newline). 0 or a negative errno. */
int lobby__journal_text(struct room *room, const char *line, size_t len);
int lobby__journal_seat(struct room *room, int seat);
int lobby__journal_host(struct room *room);

/* ---- room.c: rooms ---- */

struct room *lobby__room_find(struct lobby *lobby, const char *code);

/* A new room in the lobby's list, in the lobby state. Steals `options`
 * (freed on failure too). NULL on ENOMEM. */
/* Takes `room` out of the lobby's list and index (it is not freed). */
void lobby__room_unlink(struct lobby *lobby, struct room *room);

struct room *lobby__room_new(struct lobby *lobby, const char *code, const struct game_ops *game,
                             json_t *options, bool is_public, int nseats,
                             const uint8_t seed[GAME_SEED_BYTES]);

/* Builds the game from the seats as they are and moves the room to playing
 * at rev 1. GAME_OK or the game's refusal. */
int lobby__room_begin(struct room *room, struct game_error *gerr);

/* Frees a room already out of the lobby's list. Accepts NULL. */
void lobby__room_free(struct room *room);

/* The `room` event: membership, presence, host, status, to everyone. */
void lobby__room_announce(struct room *room);

/* Maps a game's refusal to its wire code. */
int lobby__game_status_to_proto(int status);

/* Frees a seat's published view, diff history and legal list. */
void lobby__seat_forget(struct seat *s);

/* ---- views.c: the view cache ---- */

/* Drops the room's published public view (it is rebuilt when next needed). */
void lobby__views_reset(struct room *room);

/* Builds the whole public view of the current state, and every human
 * seat's "you" that is missing. 0 or -ENOMEM (the cache is then reset). */
int lobby__views_build(struct room *room);

/* After a commit to room->rev: the diff of every recipient, from the parts
 * `changed` names (a game_ops change mask), sent and kept for resume. Where
 * a diff cannot be made the recipient gets a full state, or, out of memory,
 * its connection is closed so that it resumes. */
void lobby__views_publish(struct room *room, uint64_t changed);

/* The canonical text of the public "result" of the current state, the
 * seed in it (*ret_len set), built when the cache is not; NULL while the
 * game runs or when it cannot be built. Borrowed until the next publish. */
const char *lobby__views_result(struct room *room, size_t *ret_len);

/* Sends a full `state` event to one member (its seat's view, or the public
 * view to a spectator). Closes the peer when the view cannot be built. */
void lobby__views_send_state(struct room *room, struct lobby_peer *peer);

/* ---- commit.c: actions, legal lists, bots ---- */

/* The one path of every accepted action, whoever makes it (a player, a bot):
 * try on the scratch copy, journal, then commit, reply (to `peer` with
 * `id` when `peer` is set) and publish. On any failure the room is exactly
 * as before and nothing was acknowledged; returns PROTO_OK or an error code
 * with a message in `msg`. */
int lobby__commit(struct lobby *lobby, struct room *room, int seat, const json_t *action,
                  struct lobby_peer *peer, const json_t *id, uint64_t now, char *msg);

/* Runs the due bot move of a room. */
void lobby__bot_move(struct lobby *lobby, struct room *room, uint64_t now);

/* Notes whether anyone is connected, for expiry. */
void lobby__room_touch(struct room *room, uint64_t now);

/* Arms the bot timer when a bot may act now. */
void lobby__schedule_bots(struct lobby *lobby, struct room *room, uint64_t now);

/* Lowers the lobby's next due time to the room's, when that is earlier:
 * called wherever a room's bot move or expiry may have moved closer. */
void lobby__note_due(struct room *room);

#endif
