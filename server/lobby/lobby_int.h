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
     * started); you_len 0: none yet. Kept at about its size. */
    char *you_text;
    size_t you_len;
    size_t you_cap;
    /* The diffs kept for a resume: a ring of LOBBY_DIFF_KEEP lines by rev,
     * made when the first is kept (NULL before), within a byte bound. */
    struct diff_line *hist;
    size_t hist_bytes; /* of the lines in hist */
    /* Where its notices go, as its notify events leave it (notice.c):
     * {"webhook"?, "push"?: [{"auth","endpoint","p256dh"}]}; NULL: none. */
    json_t *notice;
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
    int section;     /* index into game->sections; -1: the seed commitment, -2: the clock */
    char *text;      /* the value's canonical text, kept at about its size */
    size_t len;
    size_t cap;
    /* A section of items (its write_item): where each of its `nitems`
     * items ends in `text` (room for `item_cap`); nitems 0 for any other
     * part, or one of more than LOBBY_ITEMS_MAX items. */
    uint32_t *item_end;
    uint32_t nitems, item_cap;
    uint32_t seq; /* a log section's seq() when its text was written */
    /* A section of items with fields (game_section.nfields): where each
     * field's value ends in `text`, field f of item i at
     * field_end[i * nfields + f] (room for `field_cap`); NULL otherwise. */
    uint32_t *field_end;
    uint32_t field_cap;
};

/* The items of a section (game_section.write_item) a room keeps the ends
 * of: one bit each in a change mask. */
#define LOBBY_ITEMS_MAX 32

/* The public part's hash state is kept before LOBBY_HASH_MARKS parts,
 * those where a room's changes most often begin: a change rehashes from
 * the nearest mark before its first part. */
#define LOBBY_HASH_MARKS 2

/* The bytes of a `state` line beyond the view's parts: its head, keys and
 * hash. */
#define LOBBY_STATE_ENVELOPE 192

/* The public view of a room, kept member by member, so that an action
 * rebuilds, diffs and serialises only what it changed, once for everyone. */
struct room_view {
    bool valid; /* the parts hold the view at room->rev */
    size_t nparts;
    struct view_part *parts; /* sorted by key bytes */
    size_t bytes;            /* of the parts' texts */
    /* BLAKE2b states: hash[m] (m < LOBBY_HASH_MARKS) the state over "{"
     * and the parts before part mark[m] (none while mark[m] is 0 or
     * !marked[m]), hash[LOBBY_HASH_MARKS] the state over the whole public
     * part without its closing brace, from which each recipient's hash
     * continues. An action rehashes only from the nearest mark before its
     * first changed part; first[k] counts (halved when one saturates) the
     * actions whose first changed part was k, and a mark moves to a part
     * that has been first more often than the part it marks. Raw bytes,
     * copied into an aligned crypto_generichash_state before use. */
    unsigned char (*hash)[LOBBY_HASH_STATE];
    uint8_t *first; /* nparts counts */
    uint16_t mark[LOBBY_HASH_MARKS];
    bool marked[LOBBY_HASH_MARKS];
};

/* ---- Turn clocks (clock.c) ---- */

enum clock_kind { CLOCK_NONE, CLOCK_FISCHER, CLOCK_BANK, CLOCK_CORRESPONDENCE };

/* What a timeout does, as the room's rules ask (the clock's "timeout"). */
enum clock_policy { CLOCK_ON_TIMEOUT_BOT, CLOCK_ON_TIMEOUT_LOSE, CLOCK_ON_TIMEOUT_SKIP };

/* What a timeout did, in its record ("do"): the policy's, or where the
 * game could not, the bot's (a player who is not there) or nothing (one
 * who is: it plays on untimed). */
enum timeout_deed { TIMEOUT_PLAYS_ON, TIMEOUT_BOT, TIMEOUT_LOSE, TIMEOUT_SKIP };

/* Lag compensation, in the manner of Lichess's lag tracker: a move is
 * forgiven up to LOBBY_LAG_MOVE_MS of its time, drawn from the seat's
 * quota, which starts at LOBBY_LAG_QUOTA_MS and regains LOBBY_LAG_GAIN_MS
 * with every move, up to where it started. */
#define LOBBY_LAG_MOVE_MS 500
#define LOBBY_LAG_QUOTA_MS 2000
#define LOBBY_LAG_GAIN_MS 100

/* A clocked room that stays awake has its running clocks written to its
 * journal this often (ms), so that a crash gives back at most this much
 * time (a restart pauses the clocks: the server's clock is monotonic). */
#define LOBBY_CLOCK_CHECKPOINT_MS (10 * 60 * 1000)

/* A room's clock rules: each seat starts with base; a move is free for
 * delay (a time bank's time per move), then costs the seat's time; a turn
 * ended adds inc, up to cap (0: no cap). */
struct clock_rules {
    uint8_t kind;   /* enum clock_kind; CLOCK_NONE: no clock */
    uint8_t policy; /* enum clock_policy */
    int64_t base_ms, inc_ms, delay_ms, cap_ms;
};

struct room_clock {
    struct clock_rules rules;
    int64_t left[GAME_MAX_SEATS]; /* each seat's time at `since` (ms) */
    int64_t used[GAME_MAX_SEATS]; /* of its free time, this turn */
    int64_t lag[GAME_MAX_SEATS];  /* its lag compensation quota */
    unsigned running;             /* the seats whose clock runs */
    unsigned flagged;             /* the seats whose time ran out */
    uint64_t since;               /* when the running clocks were last charged (loop ms) */
    uint64_t not_before;          /* a clock event the journal refused is tried again then */
};

extern const char *const lobby__clock_kinds[];
extern const char *const lobby__clock_policies[]; /* by enum clock_policy */
extern const char *const lobby__timeout_deeds[];  /* by enum timeout_deed */

/* The bit of a change mask that names the view's "clock" (the games'
 * sections take bits 0 to 61, GAME_CHANGED_YOU bit 63). */
#define LOBBY_CHANGED_CLOCK (UINT64_C(1) << 62)

/* The "clock" option of a create: rules, or CLOCK_NONE without one. 0, or
 * -1 with a message. */
int lobby__clock_parse(const json_t *j, struct clock_rules *r, char *msg);

/* The rules as the option gives them (NULL for none). New reference. */
json_t *lobby__clock_rules_json(const struct clock_rules *r);

/* Every seat's clock at the rules' start; the `active` seats' run. */
void lobby__clock_start(struct room_clock *c, int nseats, unsigned active, uint64_t now);

/* The time to charge at `now`: since the last charge, when a clock runs. */
int64_t lobby__clock_elapsed(const struct room_clock *c, uint64_t now);

/* Charges every running clock `ms`; seat `mover` (-1: none) moved. */
void lobby__clock_charge(struct room_clock *c, int64_t ms, int mover);

/* After the event: `mover`'s increment when its turn is over, and the
 * clocks of the `active` seats (less the flagged) run from `now`. */
void lobby__clock_settle(struct room_clock *c, int mover, unsigned active, uint64_t now);

/* Seat `seat`'s time ran out: its clock stops at 0, and runs no more. */
void lobby__clock_flag(struct room_clock *c, int seat);

/* When the first running clock runs out (UINT64_MAX: none runs), and
 * whose. */
uint64_t lobby__clock_due(const struct room_clock *c, int *ret_seat);

/* The view's "clock": each seat's time at the last charge. */
void lobby__clock_write(struct game_text *w, const struct room_clock *c, int nseats);

/* The room's part that outbox.c owns: what it sends waits behind its
 * journal records until they are durable. */
struct room_outbox {
    uint64_t jseq; /* sequence number of this room's last journal record */
    /* Its place in the lobby's list of rooms whose queue holds lines
     * (wait_prev NULL: not in it), so that lobby_durable() visits those
     * only. */
    struct room *wait_next, **wait_prev;
    struct outitem *items;
    size_t head, len, cap;
    size_t bytes;         /* of lines held back for the journal */
    bool stalled;         /* over the outbox bound: actions are refused */
    bool journal_failing; /* its journal cannot be written: lines wait, actions are refused */
};

/* The room's part that room.c owns: who is in it, and who made it. */
struct room_members {
    uint64_t creator;      /* the id of the peer that created it (0: restored) */
    char creator_addr[48]; /* and its address */
    struct lobby_peer **specs;
    size_t nspecs, capspecs;
    uint64_t idle_since; /* when the last human left, 0 while someone is here */
};

/* The room's part that commit.c owns: its bots' next move. */
struct room_bots {
    struct bot_job *thinking; /* a bot's search under way, or NULL */
    uint64_t due;             /* 0: no bot move pending */
};

/* ---- Undo (undo.c) ---- */

#define LOBBY_UNDO_MAX 8 /* a seat's last moves that may come back, at most */

/* Why nothing can be taken back (for the refusal's words). */
enum undo_why { UNDO_WHY_NOTHING, UNDO_WHY_OTHERS, UNDO_WHY_HIDDEN, UNDO_WHY_GAME };

/* The positions before each of one seat's last actions, while they may
 * come back (made as they are pushed; none while empty). */
struct undo_delta; /* undo.c */

struct room_undo {
    int seat; /* whose; -1: none */
    int n;
    uint8_t why; /* enum undo_why, when n is 0 */
    /* Each position as the bytes that turn the one after it back into it
     * (undo.c), the newest last. */
    struct undo_delta *states[LOBBY_UNDO_MAX];
};

/* ---- Rematch (rematch.c) ---- */

/* A player's answer to a rematch, as the finished room's records give it. */
enum rematch_answer { REMATCH_WAITING, REMATCH_YES, REMATCH_NO, REMATCH_BOT };

/* The rematch offered in a finished room. */
struct room_rematch {
    char code[PROTO_ROOM_CODE_LEN + 1]; /* the new room's; "" while none is offered */
    int8_t by;                          /* the seat that offered it */
    uint8_t answer[GAME_MAX_SEATS];     /* enum rematch_answer, by seat */
};

extern const char *const lobby__rematch_answers[]; /* by enum rematch_answer */

/* The seat a seat of a finished game takes in its rematch: one round on,
 * so that another player sits first. */
#define LOBBY_REMATCH_SEAT(seat, nseats) (((seat) + (nseats)-1) % (nseats))

/* A room: what its events make (event.c: the game, its seats, its state,
 * rev and status) and the parts the other files own. */
struct room {
    struct room *next;
    struct lobby *lobby;
    char code[PROTO_ROOM_CODE_LEN + 1];
    uint64_t serial; /* the lobby's count of rooms when it was made */
    /* event.c */
    const struct game_ops *game;
    json_t *options; /* game options (without "public" and "bot_level") */
    bool is_public;
    enum bot_level bot_level; /* of the bots that fill or keep seats */
    int nseats;
    struct seat seats[GAME_MAX_SEATS];
    int host; /* seat of the host, -1 when nobody */
    enum room_status status;
    void *state; /* the game, state_size bytes; an action is tried on the lobby's spare */
    uint8_t seed[GAME_SEED_BYTES];
    char seed_commit[PROTO_HASH_HEX_LEN + 1];
    int64_t rev;
    uint64_t ended_at;
    struct room_clock clock;
    bool undo_on;          /* the room's option "undo" */
    struct room_undo undo; /* undo.c */
    struct room_rematch rematch;
    /* the others' */
    struct {
        unsigned told;       /* seats told it is their turn, until they are back */
        unsigned mentioned;  /* seats told of a mention, until they are back */
    } notices;               /* notice.c */
    struct room_outbox out;  /* outbox.c */
    struct room_members who; /* room.c */
    struct room_bots bots;   /* commit.c */
    struct room_view view;   /* views.c */
};

/* An entry of a lobby_keys index (keys.c). */
struct lobby_key {
    uint8_t key[32];
    bool used;
    int8_t seat;                        /* a token's seat */
    char code[PROTO_ROOM_CODE_LEN + 1]; /* a token's room */
    uint32_t count;                     /* a creator's open rooms */
};

struct lobby_keys {
    struct lobby_key *slots;
    size_t cap, n;
};

/* A room asleep (sleep.c): what is kept of it in memory. */
struct sleeper {
    struct sleeper *next, **prev;
    char code[PROTO_ROOM_CODE_LEN + 1];
    uint8_t status; /* enum room_status: playing or ended */
    uint8_t nseats;
    uint8_t has_token; /* bit per seat */
    uint8_t kinds[GAME_MAX_SEATS];
    const struct game_ops *game;
    uint64_t creator;
    char creator_addr[48];
    uint64_t idle_since, ended_at;
    uint64_t clock_since;     /* the room's clock.since: time asleep counts */
    uint64_t clock_due;       /* its first clock to run out (UINT64_MAX: none runs) */
    unsigned told, mentioned; /* its notices' seats already told (notices.told, .mentioned) */
    uint8_t token_hash[][32]; /* nseats of them, to take out of the index */
};

/* Finished games kept rebuilt for their reviews (review.c). */
#define LOBBY_REVIEW_KEEP 4
struct review_aside;

/* A public game that finished here, for `list` (review.c). */
#define LOBBY_ENDED_LIST 20
struct ended_game {
    char code[PROTO_ROOM_CODE_LEN + 1]; /* "": none */
    const struct game_ops *game;
    uint64_t ended_at;
    uint8_t nseats;
    char names[GAME_MAX_SEATS][GAME_NAME_MAX];
};

struct lobby {
    struct lobby_config cfg;
    struct room *rooms;
    unsigned nrooms;
    struct sleeper *sleepers; /* rooms asleep */
    unsigned nsleeping;
    struct proto_code_map sleeping; /* every sleeper, by code */
    uint64_t sleep_due;             /* no sleeper expires before this */
    uint64_t woken;                 /* rooms woken from their journals */
    struct proto_code_map index;    /* every room of `rooms`, by code */
    struct lobby_keys tokens;       /* every seat's token hash: its room and seat */
    struct lobby_keys creators;     /* open rooms made, by connection and by address */
    struct room *waiting;           /* rooms whose queue holds lines */
    struct lobby_store store;
    bool has_store;
    struct lobby_bots bots;
    bool has_bots;
    struct lobby_notifier notifier;
    bool has_notifier;
    char *push_key, *public_url; /* the notifier's, copied */
    uint64_t serials;            /* rooms made */
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
    /* Where an action is tried (event.c): a state block for each game of
     * cfg.games, in its order, made at the first try. A commit takes it
     * as the room's state and leaves the state it replaced in its place,
     * readable as the position before until the next try: the block a try
     * writes is always one the last commit read, never a room's cold copy. */
    void **spare;
    struct proto_text undo_runs; /* an undo position's runs as they are found (undo.c) */
    struct proto_text reply;     /* where a long reply (`legal`) is written */
    struct proto_text patch;     /* an action's public ops, shared by its diff lines (views.c) */
    struct proto_text own;       /* a seat's own ops in its diff line (views.c) */
    uint32_t item_at[LOBBY_ITEMS_MAX]; /* where the items part_write() wrote end (views.c) */
    uint32_t nitem_at;                 /* how many: 0 for a part without items */
    /* Where their fields' values end, for a section with fields. */
    uint32_t field_at[LOBBY_ITEMS_MAX * GAME_FIELDS_MAX];
    struct ended_game ended[LOBBY_ENDED_LIST];       /* the latest to end, in no order */
    struct review_aside *reviews[LOBBY_REVIEW_KEEP]; /* finished games rebuilt (review.c) */
    uint64_t reviews_used;
};

/* ---- event.c: the room's events and the one path that commits them ---- */

/* What the tail (lobby__commit_tail()) does after an event. */
#define EV_ANNOUNCE 1u /* the room event to every member */
#define EV_PUBLISH 2u  /* the views' diffs of the parts changed */
#define EV_ENDED 4u    /* the game is over: the `ended` event */
#define EV_BOTS 8u     /* a bot may have to move */

/* Every change of a room: X(NAME, name, flags). `name` is the record's
 * "t" and the prefix of the event's functions in event.c (name_encode,
 * name_decode, name_check, name_discard, name_apply); `flags` what its
 * commit asks of the tail (an apply may add more). An event is one line
 * here, its functions and its test. */
#define ROOM_EVENT_MAP(X)                                                                          \
    X(CREATE, create, 0)                                                                           \
    X(SEAT, seat, EV_ANNOUNCE | EV_BOTS)                                                           \
    X(HOST, host, EV_ANNOUNCE)                                                                     \
    X(LEAVE, leave, EV_ANNOUNCE)                                                                   \
    X(START, start, EV_ANNOUNCE | EV_PUBLISH | EV_BOTS)                                            \
    X(ACT, act, EV_PUBLISH | EV_BOTS)                                                              \
    X(END, end, 0)                                                                                 \
    X(TIMEOUT, timeout, EV_ANNOUNCE | EV_PUBLISH | EV_BOTS)                                        \
    X(CLOCK, clock, EV_PUBLISH)                                                                    \
    X(NOTIFY, notify, 0)                                                                           \
    X(UNDO, undo, EV_PUBLISH | EV_BOTS)                                                            \
    X(REMATCH, rematch, 0)

enum room_ev {
#define X(NAME, name, flags) ROOM_EV_##NAME,
    ROOM_EVENT_MAP(X)
#undef X
};

/* A seat as a seat event leaves it. */
struct seat_change {
    enum seat_kind kind;
    enum bot_level level;
    char name[GAME_NAME_MAX];
    bool has_token;
    uint8_t token_hash[32];
};

/* A seat a bot takes at the start: an empty one ("Bot 1", ...) or a
 * human's whose player has gone (its name and token kept). */
struct start_fill {
    int seat;
    enum bot_level level;
    char name[GAME_NAME_MAX];
};

struct room_event {
    enum room_ev type;
    int index; /* the seat it concerns: seat, host (-1: nobody), leave, act */
    union {
        struct {
            const struct game_ops *game;
            const json_t *options; /* borrowed */
            json_t *options_copy;  /* the room's own, made by the check */
            bool is_public;
            bool undo_off;
            enum bot_level bot_level;
            int nseats;
            uint8_t seed[GAME_SEED_BYTES];
            struct clock_rules clock;
        } create;
        struct seat_change seat;
        struct {
            int nfill;
            struct start_fill fill[GAME_MAX_SEATS];
            void *state; /* the game built by the check */
        } start;
        struct {
            const json_t *action; /* borrowed */
        } act;
        struct {
            char code[PROTO_ROOM_CODE_LEN + 1]; /* the new room */
            uint8_t answer;                     /* REMATCH_YES or REMATCH_NO */
        } rematch;
        struct {
            const json_t *rec; /* the targets, as a record holds them (borrowed) */
            json_t *targets;   /* the seat's own, made by the check */
        } notify;
    };
    int64_t ms;   /* act, timeout, clock: the time the clocks are charged */
    uint8_t deed; /* timeout: enum timeout_deed */
};

/* What the events committed by one request (or bot move, or restore) ask
 * of the members, done once by lobby__commit_tail(). */
struct room_commit {
    uint64_t now;
    char *msg;        /* GAME_MSG_MAX bytes, for a refusal */
    unsigned flags;   /* EV_* */
    uint64_t changed; /* the views' parts changed (a game change mask) */
    /* The items (of the sections with a write_item), and the seats'
     * "you", that no event of this commit changed, as the game's
     * parts_changed() says; 0 when an event that named such a part did
     * not say (event.c). */
    unsigned items_same, you_same;
    /* For each item not in items_same, of the game's section with fields:
     * the fields that may differ (all ones when not known). */
    uint32_t fields[LOBBY_ITEMS_MAX];
};

/* The one commit of every event: its check, its record appended to the
 * journal (not while restoring), its apply. PROTO_OK, or an error with a
 * message in c->msg and the room exactly as it was: refused by the check,
 * or `internal` when the record was not taken. */
int lobby__event_commit(struct room *room, struct room_event *ev, struct room_commit *c);

/* The room's game is over: it ends (applies of act, timeout and end). */
void lobby__room_end(struct room *room, struct room_commit *c);

/* What a timeout of `seat` does where the room's policy is a bot's, or
 * the game cannot do what the policy asks: a bot plays a seat whose
 * player is not there; one who is plays on. */
enum timeout_deed lobby__timeout_fallback(const struct room *room, int seat);

/* Reads a journal record into `ev` (zeroed first; it may borrow from
 * `rec`). 0, or -1 with a reason in `err` (GAME_MSG_MAX bytes). */
int lobby__event_decode(struct room *room, const json_t *rec, struct room_event *ev, char *err);

/* The `room` event: membership, presence, host, status, to everyone. */
void lobby__room_announce(struct room *room);

/* After the caller's reply: the room event (before the views, after the
 * `ended` event when the game ended), the views' diffs, the `ended`
 * event, the bots; then c is ready for more. Nothing while restoring. */
void lobby__commit_tail(struct room *room, struct room_commit *c);

extern const char *const lobby__status_names[];
extern const char *const lobby__kind_names[];

/* ---- outbox.c: everything a room sends, and its journal ---- */

/* Sends one line to `peer` now, or queues it behind the room's journal
 * records that are not durable yet. NULL peer: nothing. */
void lobby__out(struct room *room, struct lobby_peer *peer, const char *line, size_t len);

/* Notes the room's journal record `seq`: what the room sends from now on
 * waits for it, and the room waits in the lobby's list until it is
 * durable. */
void lobby__out_record(struct room *room, uint64_t seq);

/* Sends what no longer waits for the journal: true when nothing waits any
 * more (no line queued, every record durable). */
bool lobby__flush(struct room *room);

/* Notes whether the room's journal fails; true when that ends and nothing
 * waits any more. */
bool lobby__journal_failing(struct room *room, bool failing);

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
 * reply of every action, with "undo": true when the peer's seat may take
 * its last action back. Closes the peer when it cannot be built. */
void lobby__reply_rev(struct room *room, struct lobby_peer *peer, const json_t *id, int64_t rev);

/* Appends a request's id (any JSON value) as text. */
void lobby__id_add(struct proto_text *t, const json_t *id);

/* Sends one line, or one message (borrowed), to every member. */
void lobby__broadcast_line(struct room *room, const char *line, size_t len);
void lobby__broadcast(struct room *room, const json_t *msg);

/* ---- room.c: what other operations share with create and join ---- */

/* Takes `peer` out of its room. `gone` is a lost connection rather than a
 * `leave`: in the lobby a seat then stays reserved for resume. */
void lobby__peer_detach(struct lobby *lobby, struct lobby_peer *peer, bool gone, uint64_t now);

/* Claims seat `seat` (empty, or held by nobody) for a human named `name`
 * with a fresh token (into `token`, 48 bytes), voiding any older one: a
 * seat event. PROTO_OK, or the commit's error with the seat as it was. */
int lobby__seat_claim(struct room *room, int seat, const char *name, char *token,
                      struct room_commit *c);

/* Seats `peer` at the seat it claimed (with `token`, wiped here), replies
 * as a join does (with "from": `from` when set), and tells the room. */
void lobby__seat_take(struct room *room, int seat, struct lobby_peer *peer, const json_t *id,
                      char *token, const char *from, struct room_commit *c);

/* Whether `peer` may open a new room now: PROTO_OK (a full server may have
 * dropped an idle room to make space), or server_busy with the reason. */
int lobby__room_may_open(struct lobby *lobby, const struct lobby_peer *peer, char *msg);

/* A fresh room code that the lobby does not hold. */
void lobby__room_code_pick(struct lobby *lobby, char code[PROTO_ROOM_CODE_LEN + 1]);

/* Makes room `code` by create event `ev` (its seed drawn here), counted as
 * `peer`'s: PROTO_OK with *ret_room, or an error with nothing kept. */
int lobby__room_open(struct lobby *lobby, const struct lobby_peer *peer, const char *code,
                     struct room_event *ev, struct room_commit *c, struct room **ret_room);

/* ---- rematch.c ---- */

/* Sends the `rematch` event of the room's offer to `peer` (NULL: to every
 * member). Nothing when none is offered. */
void lobby__rematch_tell(struct room *room, struct lobby_peer *peer);

/* ---- review.c ---- */

/* Notes a public game that has just ended, for `list`. */
void lobby__ended_note(struct room *room);

/* Frees the games kept rebuilt for reviews. */
void lobby__reviews_free(struct lobby *lobby);

/* Room `code` is dropped: its rebuilt game, if kept, goes. */
void lobby__review_forget(struct lobby *lobby, const char *code);

/* `list`'s "ended": the public games that ended here and are still held,
 * newest first. New reference, NULL on ENOMEM. */
json_t *lobby__ended_json(struct lobby *lobby, uint64_t now);

/* ---- rooms.c: the room as data, under everything else ---- */

/* When the room is dropped: a lobby nobody is in after --lobby-ttl (at
 * once when every seat is empty), a finished game after --ended-ttl, a
 * running one nobody is in after --abandoned-ttl (never without). */
uint64_t lobby__room_expiry(const struct lobby *lobby, const struct room *room);

/* The earliest time the room has work: a bot move, its sleep or its
 * expiry (not while lines wait in its queue: they go out first, and their
 * going makes the room due again). */
uint64_t lobby__room_due(const struct lobby *lobby, const struct room *room);

/* When `room` may go to sleep: UINT64_MAX while it is not quiet (someone
 * in it, a bot due, lines or records waiting for the journal); the store's
 * word that they are durable makes it due again. */
uint64_t lobby__sleep_time(const struct room *room);

/* Notes whether anyone is connected, for expiry and sleep. */
void lobby__room_touch(struct room *room, uint64_t now);

/* Arms the bot timer when a bot may act now. */
void lobby__schedule_bots(struct lobby *lobby, struct room *room, uint64_t now);

/* Lowers the lobby's next due time to the room's, when that is earlier:
 * called wherever a room's bot move, sleep or expiry may have moved
 * closer. */
void lobby__note_due(struct room *room);

struct room *lobby__room_find(struct lobby *lobby, const char *code);

/* Takes `room` out of the lobby's list and index (it is not freed). */
void lobby__room_unlink(struct lobby *lobby, struct room *room);

/* A new room named `code` in the lobby's list, in the lobby state, with
 * nothing else yet: its create event makes it. NULL on ENOMEM. */
struct room *lobby__room_new(struct lobby *lobby, const char *code);

/* The level of a bot the room picks itself: its bot_level, within what
 * the lobby runs. */
enum bot_level lobby__room_level(const struct room *room);

/* Frees a room already out of the lobby's list. Accepts NULL. */
void lobby__room_free(struct room *room);

/* Maps a game's refusal to its wire code. */
int lobby__game_status_to_proto(int status);

/* The room and seat (*ret_seat) token hash `hash` opens, awake or asleep,
 * or NULL. The room's seat is still to be checked against it: a room whose
 * wake-up failed may have left a stale entry. */
const char *lobby__token_find(const struct lobby *lobby, const uint8_t hash[32], int *ret_seat);

/* Makes sure a token can be filed without allocating (a seat event's
 * check). 0 or -ENOMEM. */
int lobby__token_reserve(struct lobby *lobby);

/* Files seat `seat` of room `code` under its token hash (reserved). */
void lobby__token_set(struct lobby *lobby, const uint8_t hash[32], const char *code, int seat);

/* Removes the entry of `hash` if it is room `code`'s. */
void lobby__token_drop(struct lobby *lobby, const uint8_t hash[32], const char *code);

/* Open rooms (not ended) that connection `id`, and address `addr`, made. */
unsigned lobby__created_by_conn(const struct lobby *lobby, uint64_t id);
unsigned lobby__created_by_addr(const struct lobby *lobby, const char *addr);

/* Connection `id` is gone: its count goes (it makes no more rooms). */
void lobby__creator_gone(struct lobby *lobby, uint64_t id);

/* Counts `room` as made by `peer` and open. 0 or -ENOMEM (not counted). */
int lobby__creator_set(struct room *room, const struct lobby_peer *peer);

/* The room is no longer open (it ended, or it is dropped): it stops
 * counting against its creator. Once; nothing for a restored room. */
void lobby__creator_release(struct lobby *lobby, uint64_t *creator, const char *addr);

/* Drops a room for good: out of the list and the indexes, its tokens and
 * its creator's count, then freed; `forget`: its journal removed too. */
void lobby__room_drop(struct lobby *lobby, struct room *room, bool forget);

/* ---- keys.c: an index keyed by 32-byte digests ---- */

struct lobby_key *lobby__keys_get(const struct lobby_keys *m, const uint8_t key[32]);
/* The entry of `key`, made (zeroed but for the key) when missing; NULL on
 * ENOMEM. */
struct lobby_key *lobby__keys_put(struct lobby_keys *m, const uint8_t key[32]);
/* Room for `more` entries without allocating. 0 or -ENOMEM. */
int lobby__keys_reserve(struct lobby_keys *m, size_t more);
void lobby__keys_del(struct lobby_keys *m, struct lobby_key *k);
void lobby__keys_free(struct lobby_keys *m);

/* ---- undo.c ---- */

/* Empties the room's undo stack; `why` says why nothing comes back. */
void lobby__undo_clear(struct room *room, enum undo_why why);

/* After seat `seat`'s action took `before` to room->state (`changed`:
 * the game's change mask between the two; `you_same`: the seats whose
 * "you" the game says is equal): the position before it is kept when the
 * action may come back, else the stack goes. */
void lobby__undo_after_act(struct room *room, const void *before, int seat, uint64_t changed,
                           unsigned you_same);

/* Whether `seat` may take back its last action now: PROTO_OK, or an error
 * with the reason in words. */
int lobby__undo_can(const struct room *room, int seat, char *msg);

/* Turns room->state back into the position before the last action kept
 * (the stack's top, taken). Allocates nothing: it cannot fail. */
void lobby__undo_pop(struct room *room);

/* ---- notice.c: notices to players who are not there ---- */

#define LOBBY_PUSH_MAX 4   /* Web Push subscriptions a seat keeps */
#define LOBBY_URL_MAX 1024 /* bytes of a target's URL */

/* The seat's targets go (its player left, the seat changed hands). */
void lobby__notice_forget(struct room *room, int seat);

/* The seat's player is back: it may be told again. */
void lobby__notice_back(struct room *room, int seat);

/* After a commit: a seat whose turn it is and whose player is not there
 * is told (once), and every such seat when the game ends. */
void lobby__notices_after(struct room *room, const struct room_commit *c);

/* Chat line `text` of seat `from` (-1: a spectator) named `name`: the
 * seats it mentions ("@Name") that are not there are told. */
void lobby__notices_chat(struct room *room, int from, const char *name, const char *text);

/* ---- sleep.c: rooms that sleep on disk ---- */

/* Puts `room` to sleep: a sleeper takes its place, the room is freed.
 * Out of memory, it stays awake. */
void lobby__room_sleep(struct lobby *lobby, struct room *room);

struct sleeper *lobby__sleeper_find(struct lobby *lobby, const char *code);

/* When a sleeper's room is dropped: a finished game --ended-ttl after its
 * end, a running one --abandoned-ttl after its last player left (never
 * without one). */
uint64_t lobby__sleeper_expiry(const struct lobby *lobby, const struct sleeper *z);

/* When a sleeper has work: its expiry, or a clock running out (it wakes). */
uint64_t lobby__sleeper_due(const struct lobby *lobby, const struct sleeper *z);

/* Frees a sleeper: woken (forget false: its room holds its tokens now), or
 * dropped for good (forget: its tokens, its creator's count and its
 * journal go too). */
void lobby__sleeper_drop(struct lobby *lobby, struct sleeper *z, bool forget);

/* Wakes a sleeper's room from its journal (the sleeper is freed): the
 * room, or NULL with a message when its journal cannot be read back. */
struct room *lobby__room_wake(struct lobby *lobby, struct sleeper *z, uint64_t now, char *msg);

/* The room of `code`, woken when it sleeps; NULL with *ret_err and a
 * message (room_not_found, or internal when it cannot be woken). */
struct room *lobby__room_get(struct lobby *lobby, const char *code, uint64_t now, char *msg,
                             int *ret_err);

/* A sleeper whose clock ran out and whose journal could not be read back
 * is tried again this much later (ms). */
#define LOBBY_WAKE_RETRY_MS 5000

/* Drops the sleepers whose time has come, and wakes those whose clock
 * runs out (before the rooms' own due work, which times them out). */
void lobby__sleepers_run_due(struct lobby *lobby, uint64_t now);

/* ---- restore.c ---- */

/* Decodes and commits every record of `records` into `room` (the lobby
 * restoring). 0, or -1 with the reason in `err`. */
int lobby__replay(struct room *room, const json_t *records, uint64_t now, char *err);

/* Decodes and commits record `i` (0: it must be the create) into `room`.
 * 0, or -1 with the reason, naming the record, in c->msg. */
int lobby__replay_one(struct room *room, const json_t *rec, size_t i, struct room_commit *c);

/* Whether the record's event moves the room's rev on (start, act,
 * timeout, clock, undo). */
bool lobby__record_publishes(const json_t *rec);

/* ---- views.c: the view cache ---- */

/* Frees a seat's published view, diff history and legal list. */
void lobby__seat_forget(struct seat *s);

/* Drops the room's published public view (it is rebuilt when next needed). */
void lobby__views_reset(struct room *room);

/* Builds the whole public view of the current state, and every human
 * seat's "you" that is missing. 0 or -ENOMEM (the cache is then reset). */
int lobby__views_build(struct room *room);

/* After a commit to room->rev: the diff of every recipient, from the parts
 * c->changed names (a game_ops change mask), sent and kept for resume; of
 * a section of items, only the items not in c->items_same, and only the
 * "you" of seats not in c->you_same, are written and diffed again. Where
 * a diff cannot be made the recipient gets a full state, or, out of memory,
 * its connection is closed so that it resumes. */
void lobby__views_publish(struct room *room, const struct room_commit *c);

/* The canonical text of the public "result" of the current state, the
 * seed in it (*ret_len set), built when the cache is not; NULL while the
 * game runs or when it cannot be built. Borrowed until the next publish. */
const char *lobby__views_result(struct room *room, size_t *ret_len);

/* Writes the review of the room's current position into `t`:
 * "view":{public},"hash":..,"hands":[each seat's you],"hashes":[each
 * seat's whole view's hash]. 0 or -ENOMEM. */
int lobby__views_review(struct room *room, struct proto_text *t);

/* Sends seat `seat`'s kept diffs after rev `from` (>= 0) to `peer`: true,
 * or false when they are not all kept (nothing sent). */
bool lobby__views_resend(struct room *room, struct lobby_peer *peer, int seat, int64_t from);

/* Sends a full `state` event to one member (its seat's view, or the public
 * view to a spectator). Closes the peer when the view cannot be built. */
void lobby__views_send_state(struct room *room, struct lobby_peer *peer, uint64_t now);

/* ---- commit.c: actions, legal lists, bots ---- */

/* The one path of every accepted action, whoever makes it (a player, a bot):
 * try on the scratch copy, journal, then commit, reply (to `peer` with
 * `id` when `peer` is set) and publish. On any failure the room is exactly
 * as before and nothing was acknowledged; returns PROTO_OK or an error code
 * with a message in `msg`. */
int lobby__commit(struct lobby *lobby, struct room *room, int seat, const json_t *action,
                  struct lobby_peer *peer, const json_t *id, uint64_t now, char *msg);

/* Commits what a room's clocks are due for at `now`: a timeout, or the
 * running clocks' checkpoint. */
void lobby__clock_run(struct room *room, uint64_t now);

/* Runs the due bot move of a room. */
void lobby__bot_move(struct lobby *lobby, struct room *room, uint64_t now);

#endif
