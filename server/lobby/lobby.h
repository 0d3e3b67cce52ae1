/* SPDX-License-Identifier: MIT */
/*
 * lobby.h - rooms, seats, hosts, tokens, spectators, bots and room expiry.
 *
 * The lobby owns every room and the game state inside it. It reaches the
 * people in a room only through `struct lobby_peer`, which the session layer
 * embeds in each connection's session: the lobby never touches sockets or
 * the event loop, and is handed the time by its callers.
 */
#ifndef CONCLAVE_LOBBY_H
#define CONCLAVE_LOBBY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "bot.h"
#include "game.h"
#include "proto.h"

#define LOBBY_DIFF_KEEP 16 /* diffs kept per seat for resume, at most */
/* Bytes of diffs a room keeps for resume, its seats sharing them equally,
 * and no seat more than its view's size: a resume from further back gets
 * the whole view instead. Nothing else a room keeps grows with its game. */
#define LOBBY_RESUME_BYTES 8192
#define LOBBY_TOKEN_BYTES 32

struct room;
struct lobby;

/* One member of a room as the lobby sees it. Embedded in a session; the
 * lobby writes `room`, `seat` and `spectator` as membership changes. */
struct lobby_peer {
    uint64_t id;
    char name[GAME_NAME_MAX];
    char addr[48];     /* the client's address, as the transport tells it */
    struct room *room; /* NULL when in no room */
    int seat;          /* seat index, or -1 */
    bool spectator;
    /* Sends one serialised line (ending in '\n'); the peer copies it. */
    void (*send)(struct lobby_peer *peer, const char *line, size_t len);
    /* Asks the transport to close this peer's connection after pending
     * writes. The peer stays valid until lobby_peer_gone() is called. */
    void (*close)(struct lobby_peer *peer);
    /* The lobby's own (zero at first): how many lines for this peer wait
     * in `held_room`'s queue for its journal. While any do, every other
     * line for the peer queues behind them, so that it gets its replies
     * in the order of its requests whatever room they come from. */
    struct room *held_room;
    size_t held;
};

/* Limits and times (milliseconds) the lobby enforces, and the games it
 * offers. */
struct lobby_config {
    const struct game_ops *const *games; /* NULL-terminated; borrowed */
    unsigned max_rooms;
    unsigned max_rooms_per_conn; /* open rooms one connection may have created */
    unsigned max_rooms_per_addr; /* open rooms one client address may have created */
    unsigned max_spectators;     /* per room */
    size_t outbox_max;           /* bytes a room may hold back for its journal */
    size_t resume_bytes;         /* diffs a room keeps for resume; 0: LOBBY_RESUME_BYTES */
    uint64_t lobby_ttl_ms;       /* a lobby nobody is connected to is dropped after this */
    uint64_t ended_ttl_ms;       /* a finished room is dropped after this */
    uint64_t abandoned_ttl_ms;   /* a running game with no human connected; 0: never */
    uint64_t sleep_after_ms; /* a started room nobody is in sleeps on disk after this; 0: never */
    uint64_t bot_delay_ms;   /* pause before a bot acts */
    enum bot_level bot_level_max; /* the strongest level this server runs */
};

enum room_status {
    ROOM_LOBBY,
    ROOM_PLAYING,
    ROOM_ENDED,
};

enum seat_kind {
    SEAT_EMPTY,
    SEAT_HUMAN,
    SEAT_BOT,
};

/* Where the lobby writes its journal. `append` takes one record (a
 * compact JSON line without newline, copied) for room `code`; it returns 0
 * and sets *ret_seq to the record's sequence number, or a negative errno
 * when the record could not be taken (nothing was appended then). The
 * store later reports, through lobby_durable(), the highest sequence number
 * that is durable under its policy. `forget` removes a dropped room's
 * journal. Without a store every record counts as durable at once. */
struct lobby_store {
    int (*append)(void *ctx, const char *code, const char *line, size_t len, uint64_t *ret_seq);
    void (*forget)(void *ctx, const char *code);
    /* Every record of room `code` appended so far, in order (a new array
     * in *ret_records), or a negative errno: the room's record is read
     * from its journal, never kept in memory. */
    int (*read)(void *ctx, const char *code, json_t **ret_records);
    /* Room `code` sleeps: its journal's file may be closed until the next
     * append or read. May be NULL. */
    void (*release)(void *ctx, const char *code);
    void *ctx;
};

/* Where the lobby's bots search: `think` takes a job (bot.h) and hands it
 * back later, on the lobby's thread, through lobby_bot_done(). Without it
 * a search runs at once, inside the call that needs it. */
struct lobby_bots {
    void (*think)(void *ctx, struct bot_job *job);
    void *ctx;
};

/* ---- Lobby ---- */

/* New lobby with `cfg` (copied). NULL on ENOMEM. */
struct lobby *lobby_new(const struct lobby_config *cfg);

/* Attaches a place to search (copied). */
void lobby_set_bots(struct lobby *lobby, const struct lobby_bots *bots);

/* A job handed to `think` is back: its answer is played when it still
 * applies (the same room at the same rev, the seat still a bot that may
 * act); the job is freed. */
void lobby_bot_done(struct lobby *lobby, struct bot_job *job, uint64_t now);

/* Attaches a journal (copied). From then on, replies and events that
 * follow a journaled change wait until that change is durable. */
void lobby_set_store(struct lobby *lobby, const struct lobby_store *store);

/* Everything up to sequence number `seq` is durable: sends what waited for
 * it, room by room, in order. */
void lobby_durable(struct lobby *lobby, uint64_t seq);

/* Room `code`'s journal cannot be written (`failing`), or can again: while
 * it cannot, the room's lines wait whatever lobby_durable() says, and it
 * refuses actions with server_busy. */
void lobby_journal_failing(struct lobby *lobby, const char *code, bool failing);

/* Rebuilds one room from its journal records (an array of record objects,
 * borrowed) by committing each one's event, as in play. `age_ms` is how
 * long ago the journal was last written: a finished game older than
 * ended_ttl_ms is not kept. Returns 0 (restored), 1 (finished and expired:
 * nothing kept, the journal may go) or -1 with a reason in `err`
 * (GAME_MSG_MAX bytes) when the records do not make a room; nothing is
 * kept then. */
int lobby_restore(struct lobby *lobby, const json_t *records, uint64_t now, uint64_t age_ms,
                  char *err);

/* Frees every room. Peers still bound are detached (not notified). */
void lobby_free(struct lobby *lobby);

/* Number of rooms held. */
unsigned lobby_room_count(const struct lobby *lobby);

#define LOBBY_STATS_GAMES 16

/* The lobby now and since the start, for /metrics. Games are counted in
 * the order of lobby_config.games (the first LOBBY_STATS_GAMES). */
struct lobby_stats {
    unsigned ngames;
    const char *game_ids[LOBBY_STATS_GAMES];
    uint64_t rooms[LOBBY_STATS_GAMES][3]; /* held now, by game and enum room_status */
    uint64_t seats_connected;             /* players' seats with a connection now */
    uint64_t spectators;                  /* watching now */
    uint64_t actions[LOBBY_STATS_GAMES];  /* actions accepted, players' and bots', by game */
    uint64_t bot_moves[BOT_NLEVELS];      /* of which bots', by level */
    uint64_t bots_thinking;               /* bot searches under way now */
    uint64_t restored;                    /* rooms rebuilt from their journals */
    uint64_t sleeping;                    /* rooms asleep now (counted in `rooms` too) */
    uint64_t woken;                       /* rooms woken from their journals */
};

void lobby_stats(const struct lobby *lobby, struct lobby_stats *ret);

/* Writes the codes of the rooms held (at most `max`) into `codes`; returns
 * how many rooms are held. */
size_t lobby_room_codes(const struct lobby *lobby, char (*codes)[PROTO_ROOM_CODE_LEN + 1],
                        size_t max);

/* Whether the lobby holds room `code` (normalised, as proto_room_code_parse()
 * gives it). */
bool lobby_holds(struct lobby *lobby, const char *code);

/* A draining lobby creates no rooms (server_busy); the others go on. */
void lobby_set_draining(struct lobby *lobby, bool draining);

/* Runs what is due at `now`: bot moves and room expiry. Returns the absolute
 * time of the next due item, or UINT64_MAX when nothing is scheduled. */
uint64_t lobby_run_due(struct lobby *lobby, uint64_t now);

/* No room has due work before the returned time (UINT64_MAX: none). It
 * is kept up to date as rooms change, so asking costs nothing; it may be
 * early, never late. */
uint64_t lobby_next_due(const struct lobby *lobby);

/* The hello game list of the games the lobby offers. New reference, NULL
 * on ENOMEM. */
json_t *lobby_games_json(const struct lobby *lobby);

/* The bot levels the lobby runs, weakest first (hello lists them). New
 * reference, NULL on ENOMEM. */
json_t *lobby_bot_levels_json(const struct lobby *lobby);

/* ---- Operations on behalf of a peer ---- */

/* One request as an operation sees it. */
struct lobby_req {
    const json_t *args; /* the request object, borrowed */
    const json_t *id;   /* its "id", borrowed, NULL when absent */
    uint64_t now;       /* milliseconds, for expiry and bots */
    char *msg;          /* GAME_MSG_MAX bytes for an error message */
};

/* What an operation needs of its peer, checked once by lobby_check() before
 * it runs: the operations themselves never repeat these checks. */
enum lobby_need {
    LOBBY_NEED_ROOM = 1 << 0,    /* in a room: else not_in_room */
    LOBBY_NEED_SEAT = 1 << 1,    /* seated, not spectating: else not_in_game */
    LOBBY_NEED_STARTED = 1 << 2, /* the game has started: else not_in_game */
    LOBBY_NEED_TURN = 1 << 3,    /* not over (game_over), the seat is active (not_your_turn) */
};

/* Checks `need` (enum lobby_need bits) for `peer`. PROTO_OK, or the error
 * code with a message in `msg` (GAME_MSG_MAX bytes). */
int lobby_check(const struct lobby_peer *peer, unsigned need, char *msg);

/* An operation. Returns PROTO_OK or an error code with a message in
 * req->msg (empty means the code's default message). On success the
 * operation itself sends the reply (carrying req->id) to the peer, before
 * any event it causes, and through the room's journal gate; on failure
 * nothing has been sent or changed and the caller replies with the error. */
typedef int (*lobby_op_fn)(struct lobby *lobby, struct lobby_peer *peer,
                           const struct lobby_req *req);

int lobby_create(struct lobby *lobby, struct lobby_peer *peer, const struct lobby_req *req);
int lobby_join(struct lobby *lobby, struct lobby_peer *peer, const struct lobby_req *req);
int lobby_spectate(struct lobby *lobby, struct lobby_peer *peer, const struct lobby_req *req);
int lobby_resume(struct lobby *lobby, struct lobby_peer *peer, const struct lobby_req *req);
int lobby_list(struct lobby *lobby, struct lobby_peer *peer, const struct lobby_req *req);
/* A finished game at any rev, by room code or from a record. */
int lobby_review(struct lobby *lobby, struct lobby_peer *peer, const struct lobby_req *req);
/* The review of a game's record given as JSON text (`body`, `len`) at
 * `rev` (-1: its last), for a transport that carries more than a line:
 * *ret_text (free()) is a whole answer, {"ok":true,"review":{...}} or
 * {"ok":false,"error":{...}}, ending in a line end (NULL on ENOMEM).
 * Returns PROTO_OK or the error's code. */
int lobby_review_text(struct lobby *lobby, const char *body, size_t len, int64_t rev, uint64_t now,
                      char **ret_text, size_t *ret_len);
/* A finished game's record: the peer's room's, or the one "room" names. */
int lobby_record(struct lobby *lobby, struct lobby_peer *peer, const struct lobby_req *req);
/* These need ROOM. */
int lobby_start(struct lobby *lobby, struct lobby_peer *peer, const struct lobby_req *req);
int lobby_leave(struct lobby *lobby, struct lobby_peer *peer, const struct lobby_req *req);
int lobby_chat(struct lobby *lobby, struct lobby_peer *peer, const struct lobby_req *req);
int lobby_sync(struct lobby *lobby, struct lobby_peer *peer, const struct lobby_req *req);
/* Needs ROOM | SEAT: the finished game played again, or declined. */
int lobby_rematch(struct lobby *lobby, struct lobby_peer *peer, const struct lobby_req *req);
/* Needs ROOM | SEAT: where the seat's notices go. */
int lobby_notify(struct lobby *lobby, struct lobby_peer *peer, const struct lobby_req *req);
/* Needs ROOM | SEAT | STARTED. */
int lobby_legal(struct lobby *lobby, struct lobby_peer *peer, const struct lobby_req *req);
/* Needs ROOM | SEAT | STARTED | TURN. Validates and applies an action for
 * the peer's seat through the room's one commit path. */
int lobby_act(struct lobby *lobby, struct lobby_peer *peer, const struct lobby_req *req);
/* Needs ROOM | SEAT | STARTED: takes back the seat's last action, when
 * nothing hidden was drawn or shown by it and nobody else acted since. */
int lobby_undo(struct lobby *lobby, struct lobby_peer *peer, const struct lobby_req *req);

/* The peer's connection is gone: leaves its room as a disconnect (a seated
 * player keeps the seat for resume). Safe to call for a peer in no room. */
void lobby_peer_gone(struct lobby *lobby, struct lobby_peer *peer, uint64_t now);

/* Sends a line (copied) to `peer` outside any room (a reply of the
 * session's own): at once, or behind the lines it is still owed. */
void lobby_peer_send(struct lobby_peer *peer, const char *line, size_t len);

/* ---- Notices (notice.c) ---- */

/* A Web Push subscription, as a page's PushSubscription gives it. */
struct lobby_push_sub {
    const char *endpoint, *p256dh, *auth;
};

/* Where one notice goes: a seat's webhook and its subscriptions. */
struct lobby_notice_to {
    const char *room;
    int seat;
    const char *webhook; /* NULL: none */
    size_t npush;
    const struct lobby_push_sub *push;
};

/* The server's outbound notices. Without them (lobby_set_notifier() never
 * called) the `notify` op is refused and nobody is told anything. */
struct lobby_notifier {
    /* A target a seat asks for (push: a subscription's endpoint): 0, or
     * -1 with a message in `msg` (GAME_MSG_MAX bytes). */
    int (*check)(void *ctx, const char *url, bool push, char *msg);
    /* Sends `body`, a JSON object's text, to `to`'s targets. */
    void (*send)(void *ctx, const struct lobby_notice_to *to, const char *body, size_t len);
    const char *push_key;   /* the VAPID public key (base64url); NULL: no Web Push */
    const char *public_url; /* the page's address, which a notice links to */
    void *ctx;
};

/* Attaches the notices (copied, strings too). */
void lobby_set_notifier(struct lobby *lobby, const struct lobby_notifier *n);

/* hello's "notify": {"webhook": true, "push": key}; NULL without notices.
 * New reference. */
json_t *lobby_notifier_json(const struct lobby *lobby);

/* The push service says subscription `endpoint` of seat `seat` in room
 * `code` is gone (404, 410): the seat's targets lose it. */
void lobby_push_gone(struct lobby *lobby, const char *code, int seat, const char *endpoint,
                     uint64_t now);

/* ---- Tokens (token.c) ---- */

/* Fills `out` (44 bytes) with a fresh base64url token and `hash` with its
 * stored form. */
void lobby_token_new(char out[48], uint8_t hash[32]);

/* Hashes a presented token into `hash`; -1 when it is not a well-formed
 * token. */
int lobby_token_hash(const char *token, uint8_t hash[32]);

#endif
