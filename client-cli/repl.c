/* SPDX-License-Identifier: MIT */
/*
 * repl.c - interactive play and the scripted mode.
 *
 * Interactive: shows the room and the game through the game's renderer,
 * turns typed commands into requests, prints refusals as the server words
 * them. It keeps the seat's view by applying diffs and asks for a sync when
 * a hash disagrees. Scripted: lines pass through unchanged both ways.
 *
 * The screen scrolls. On a terminal, the line being typed is edited with
 * libedit (history, arrows, ^R) and stays at the bottom: what arrives from
 * the server is printed above it and the prompt and the half-typed line
 * are drawn again after. The board is drawn once per batch of diffs that
 * changed it, then the last chat lines below it, so a redraw never pushes
 * the conversation out of sight.
 */
#include "client.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <editline/readline.h>
#include <sodium.h>

#include "game.h"
#include "lang.h"
#include "render.h"

#define PENDING_MAX 64
#define CHAT_KEEP 5 /* chat lines shown again under each drawn board */
#define PROMPT "> "

struct repl {
    struct cli_conn *conn;
    struct cli_view v;
    struct render_style st;
    const char *server;
    json_t *legal;       /* last listed legal actions */
    long legal_rev;      /* the rev they were listed at */
    char legal_only[32]; /* `legal KIND`: the kind to list in full */
    struct {
        long id;
        char op[16];
    } pending[PENDING_MAX];
    bool quit;
    int status;
    const char *name; /* ours, for the hello of a reconnect */
    char token[64];   /* the seat's resume token ("" for a spectator) */
    bool spectator;
    bool lost;                 /* a send failed: the connection is gone */
    bool your_turn;            /* our seat was active in the last view drawn */
    bool bell;                 /* ring the terminal bell when it becomes our turn */
    uint64_t sent_ms;          /* when we last sent the server anything */
    uint64_t keepalive_ms;     /* ping after sending nothing for this long */
    bool dirty;                /* the view changed since the board was drawn */
    uint64_t clock_at;         /* when the view's clock times were taken (our clock) */
    char chat[CHAT_KEEP][640]; /* the last chat lines, oldest first */
    int nchat;
    bool edit;         /* a terminal: libedit edits the typed line */
    bool prompt_shown; /* the prompt and the typed line are on screen */
    bool fresh;        /* a line was just finished: the editor starts anew */
    char *typed;       /* lines libedit finished, waiting for their turn */
    size_t ntyped;
    bool typed_eof;
    bool leave_asked; /* the last command was a `leave` waiting to be confirmed */
    bool moved;       /* a rematch moved us: its room's first event says who hosts */
};

/* The server closes a connection it has heard nothing from for its idle
 * timeout (120 s by default), whatever it sends itself: the client pings
 * when it has sent nothing for this long, however busy the room is. */
#define KEEPALIVE_MS 30000

static uint64_t now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static const char general_help[] =
    N_("Commands:\n"
       "  help                 this list (and the game's commands)\n"
       "  legal                list what you may do now, numbered, by kind\n"
       "  legal KIND           every choice of one kind (a long list summarises them)\n"
       "  #N                   do the N-th action of the last `legal` list\n"
       "  act {JSON}           send an action object as it is\n"
       "  undo                 take back your last move (while nobody else has moved, and\n"
       "                       when it drew or showed nothing hidden)\n"
       "  say TEXT             chat to the room\n"
       "  card NAME            what a card does (e.g. card SPIN, card A07, card O3)\n"
       "  start [bots [LEVEL...]]  (host) start the game; `bots` fills empty seats with\n"
       "                       bots at the room's level, `bots hard` at that level,\n"
       "                       `bots easy hard` one level per empty seat in order\n"
       "                       (levels: random, easy, normal, hard)\n"
       "  who                  show the room and its seats\n"
       "  view                 draw the game again\n"
       "  raw                  print your view as JSON\n"
       "  sync                 ask the server for a fresh view\n"
       "  record [CODE] FILE   (after the end) save the game's record, or that of room CODE\n"
       "                       (a finished game), for `conclave replay FILE`\n"
       "  rematch              (after the end) play again: the first to ask opens a new room,\n"
       "                       with the seats moved round by one, and hosts it; the others\n"
       "                       say `rematch` to take their seats there\n"
       "  rematch no           decline the rematch offered (your seat there is given up)\n"
       "  notify [URL|off]     where you are told of your turn, a mention and the end while\n"
       "                       you are away: a webhook URL (an ntfy topic, a Discord or\n"
       "                       Matrix hook), off for none; alone, what you have\n"
       "  lang [en|zh-CN]      the language of what you read here; alone, the one in use\n"
       "  leave                leave the room (at a terminal, during a game: asked twice)\n"
       "  quit                 disconnect (your seat waits for `conclave resume`)\n");

static void track(struct repl *r, long id, const char *op)
{
    for (int i = 0; i < PENDING_MAX; i++) {
        if (r->pending[i].id == 0) {
            r->pending[i].id = id;
            snprintf(r->pending[i].op, sizeof(r->pending[i].op), "%s", op);
            return;
        }
    }
}

/* True while a request of ours awaits its reply (other than a ping). */
static bool busy(const struct repl *r)
{
    for (int i = 0; i < PENDING_MAX; i++) {
        if (r->pending[i].id != 0 && strcmp(r->pending[i].op, "ping") != 0) {
            return true;
        }
    }
    return false;
}

static long send_req(struct repl *r, const char *op, json_t *fields)
{
    long id = cli_conn_request(r->conn, op, fields);

    if (id < 0) {
        r->lost = true; /* the loop reconnects */
        return -1;
    }
    track(r, id, op);
    r->sent_ms = now_ms();
    return id;
}

/* The "bots" of a start from what follows `start` (" bots easy hard"):
 * false without bots, true for the room's level, a level for every empty
 * seat, or one level per empty seat in seat order (an array with null for
 * the seats taken). NULL, after saying why, when the words do not fit. */
static json_t *start_bots(const struct repl *r, const char *rest)
{
    char words[8][16];
    int n = 0, off = 0, used;

    if (strncmp(rest, " bots", 5) != 0) {
        return json_false();
    }
    rest += 5;
    while (n < 8 && sscanf(rest + off, "%15s%n", words[n], &used) == 1) {
        off += used;
        n++;
    }
    if (n == 0) {
        return json_true();
    }
    if (n == 1) {
        return json_string(words[0]);
    }
    const json_t *seats = json_object_get(r->v.room_ev, "seats");
    json_t *a = json_array();
    int k = 0;
    size_t i;
    const json_t *s;
    json_array_foreach(seats, i, s) {
        bool empty = strcmp(json_string_value(json_object_get(s, "kind")), "empty") == 0;
        json_array_append_new(a, empty && k < n ? json_string(words[k]) : json_null());
        k += empty;
    }
    if (k != n) {
        printf(_("%d empty seat%s: give one level for all, or one per empty seat\n"), k,
               k == 1 ? "" : "s");
        json_decref(a);
        return NULL;
    }
    return a;
}

/* A word the server sends as an id (a room's status, a seat's kind, a
 * bot level, a clock type) in the reader's language; another id as it
 * is. */
static const char *server_word(const char *id)
{
    static const char *const words[] = {
        N_("lobby"),   N_("playing"), N_("ended"),          N_("empty"),  N_("human"),
        N_("bot"),     N_("random"),  N_("easy"),           N_("normal"), N_("hard"),
        N_("fischer"), N_("bank"),    N_("correspondence"),
    };

    const char *w = CLI_TR_AMONG(id, words);
    return w ? w : id ? id : "?";
}

static void draw_room(struct repl *r)
{
    const json_t *ev = r->v.room_ev;
    size_t i;
    json_t *s;

    if (!ev) {
        return;
    }
    printf(_("Room %s  game %s  %s  host seat %lld  spectators %lld\n"),
           json_string_value(json_object_get(ev, "room")),
           json_string_value(json_object_get(ev, "game")),
           server_word(json_string_value(json_object_get(ev, "status"))),
           (long long)json_integer_value(json_object_get(ev, "host")),
           (long long)json_integer_value(json_object_get(ev, "spectators")));
    json_array_foreach(json_object_get(ev, "seats"), i, s) {
        const char *kind = json_string_value(json_object_get(s, "kind"));
        const char *level = json_string_value(json_object_get(s, "level"));
        bool conn = json_is_true(json_object_get(s, "connected"));
        char what[64], name_col[160], what_col[96];
        snprintf(what, sizeof(what), "%s%s%s%s", server_word(kind), level ? _(" (") : "",
                 level ? server_word(level) : "", level ? _(")") : "");
        /* Columns by their width on the screen: a name may be Chinese. */
        printf(
            _("  seat %zu: %s %s %s%s\n"), i,
            cli_pad(name_col, sizeof(name_col), json_string_value(json_object_get(s, "name")), 20),
            cli_pad(what_col, sizeof(what_col), what, 13),
            strcmp(kind, "empty") == 0 || level ? "" : (conn ? _("connected") : _("away")),
            (int)i == r->v.seat ? _("  <- you") : "");
    }
}

/* "1:02:03", "4:05" or "0:09" for `ms` (rounded down to the second). */
static void clock_text(char *out, size_t n, long long ms)
{
    long long s = ms > 0 ? ms / 1000 : 0;

    if (s >= 86400) {
        snprintf(out, n, "%lldd %02lld:%02lld:%02lld", s / 86400, s / 3600 % 24, s / 60 % 60,
                 s % 60);
    } else if (s >= 3600) {
        snprintf(out, n, "%lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
    } else {
        snprintf(out, n, "%lld:%02lld", s / 60, s % 60);
    }
}

/* A clocked room's clocks, as they stand now: each seat's time, its own
 * turn's free time in a time bank, "running" or "out of time". */
static void draw_clocks(const struct repl *r, const json_t *view)
{
    const json_t *clock = json_object_get(view, "clock");
    const json_t *names = json_object_get(r->v.room_ev, "seats");
    uint64_t since = now_ms() - r->clock_at;
    size_t i;
    json_t *s;

    if (!json_is_object(clock)) {
        return;
    }
    const char *policy = json_string_value(json_object_get(clock, "timeout"));
    printf(_("clock (%s%s%s):"), server_word(json_string_value(json_object_get(clock, "type"))),
           policy && strcmp(policy, "bot") != 0 ? _(", out of time: ") : "",
           policy && strcmp(policy, "lose") == 0   ? _("loses")
           : policy && strcmp(policy, "skip") == 0 ? _("skipped")
                                                   : "");
    json_array_foreach(json_object_get(clock, "seats"), i, s) {
        long long left = json_integer_value(json_object_get(s, "left"));
        long long free_ms = json_integer_value(json_object_get(s, "free"));
        bool running = json_is_true(json_object_get(s, "running"));
        const char *name = json_string_value(json_object_get(json_array_get(names, i), "name"));
        char t[32], f[32];
        if (running) {
            long long spent = (long long)since;
            long long from_free = spent < free_ms ? spent : free_ms;
            free_ms -= from_free;
            left -= spent - from_free;
        }
        clock_text(t, sizeof(t), left);
        clock_text(f, sizeof(f), free_ms);
        printf("%s %s %s%s%s%s", i ? " |" : "", name && *name ? name : "?", t,
               running && free_ms > 0 ? " (+" : "", running && free_ms > 0 ? f : "",
               json_is_true(json_object_get(s, "flag")) ? _(" out of time")
               : running ? (free_ms > 0 ? _(") running") : _(" running"))
                         : "");
    }
    printf("\n");
}

static void draw_view(struct repl *r)
{
    const struct render_ops *ro = render_find(r->v.game);

    if (!r->v.view) {
        return;
    }
    /* The kept view stays as sent (its hash checks the next diff); what
     * is drawn is a cleaned copy. */
    json_t *view = json_deep_copy(r->v.view);
    if (!view) {
        return;
    }
    cli_clean(view);
    printf(_("\n---- %s  rev %ld ----\n"), r->v.game, r->v.rev);
    if (ro) {
        ro->draw(stdout, view, r->v.seat, &r->st);
        draw_clocks(r, view);
    } else {
        char *s = json_dumps(view, JSON_INDENT(2) | JSON_SORT_KEYS);
        if (s) {
            puts(s);
        }
        free(s);
    }
    json_decref(view);
    fflush(stdout);
}

/* Keeps a chat line to show again under the next boards. */
static void chat_keep(struct repl *r, const char *line)
{
    if (r->nchat == CHAT_KEEP) {
        memmove(r->chat[0], r->chat[1], sizeof(r->chat[0]) * (CHAT_KEEP - 1));
        r->nchat--;
    }
    snprintf(r->chat[r->nchat++], sizeof(r->chat[0]), "%s", line);
}

static void turn_cue(struct repl *r);

/* Draws the board when the view changed since it was last drawn, with
 * the last chat lines under it and the turn cue. */
static void draw_if_changed(struct repl *r)
{
    if (!r->dirty) {
        return;
    }
    r->dirty = false;
    draw_view(r);
    if (r->nchat > 0) {
        printf(_("-- chat --\n"));
        for (int i = 0; i < r->nchat; i++) {
            printf("%s\n", r->chat[i]);
        }
    }
    turn_cue(r);
}

/* A clear cue (and the bell, unless turned off) when it becomes our turn. */
static void turn_cue(struct repl *r)
{
    const json_t *active = json_object_get(r->v.view, "active");
    bool mine = false;
    size_t i;
    json_t *a;

    json_array_foreach(active, i, a) {
        mine |= r->v.seat >= 0 && json_integer_value(a) == r->v.seat;
    }
    if (mine && !r->your_turn) {
        printf(_(">>> Your turn. Type `legal` for your choices.%s\n"), r->bell ? "\a" : "");
    }
    r->your_turn = mine;
}

/* What a result says of how the game ended and what its scores count
 * (ids of the games' results): as they are in English, in words in
 * another language; an id it does not know as it is. */
static const char *result_word(const char *id)
{
    static const struct {
        const char *id, *words;
    } ids[] = {
        /* Sorcerer & Stones */
        {"points", N_("the points")},
        {"artifacts crafted", N_("the artifacts crafted")},
        {"artifacts completed by the team", N_("the artifacts the team completed")},
        {"runes", N_("a player owns all five rune types")},
        {"artifacts", N_("the artifact supply is empty")},
        {"qi", N_("the Qi supply is empty")},
        {"frozen", N_("the position is frozen")},
        {"novice", N_("a fourth artifact was crafted")},
        {"cards", N_("no magic card is left")},
        {"forfeit", N_("a player forfeited")},
        /* Sorcerers */
        {"destroy_morgana", N_("Morgana was destroyed")},
        {"prime_merlinian_succession", N_("the Prime Merlinian succession")},
        {"rising_spell", N_("the rising spell")},
        {"army_of_sorcerers", N_("an army of sorcerers")},
        {"simultaneous", N_("both sides won at once")},
        {"turn_limit", N_("the turn limit")},
        /* Element */
        {"surrounded", N_("a Sage was surrounded")},
        {"bag_empty", N_("the bag ran empty")},
        {"round_limit", N_("the round limit")},
    };

    for (size_t i = 0; id && cli_lang_get() != CLI_LANG_EN && i < sizeof(ids) / sizeof(ids[0]);
         i++) {
        if (strcmp(id, ids[i].id) == 0) {
            return _(ids[i].words);
        }
    }
    return id;
}

/* "matches" when the revealed seed hashes to the commitment the view
 * showed from the start, so the game's randomness was fixed before it
 * began. */
static const char *seed_check(const json_t *view, const json_t *result)
{
    const char *hex = json_string_value(json_object_get(result, "seed"));
    const char *commit = json_string_value(json_object_get(view, "seed_commit"));
    unsigned char seed[64], h[crypto_generichash_BYTES];
    char got[2 * sizeof(h) + 1];
    size_t n;

    if (!hex || !commit ||
        sodium_hex2bin(seed, sizeof(seed), hex, strlen(hex), NULL, &n, NULL) != 0) {
        return _("cannot be checked (no seed or commitment)");
    }
    crypto_generichash(h, sizeof(h), seed, n, NULL, 0);
    sodium_bin2hex(got, sizeof(got), h, sizeof(h));
    return strcmp(got, commit) == 0 ? _("matches the commitment shown from the start")
                                    : _("DOES NOT MATCH the commitment shown at the start");
}

/* The end screen: who won, by name, the scores, why it ended, the game's
 * own breakdown, the seed check and how to keep the record. */
static void draw_end(struct repl *r, const json_t *result)
{
    const json_t *seats = json_object_get(r->v.room_ev, "seats");
    const json_t *winners = json_object_get(result, "winners");
    const json_t *scores = json_object_get(result, "scores");
    const char *names[GAME_MAX_SEATS];
    int nseats = (int)json_array_size(seats);
    const struct render_ops *ro = render_find(r->v.game);
    json_t *w;
    size_t i;

    nseats = nseats > GAME_MAX_SEATS ? GAME_MAX_SEATS : nseats;
    for (int k = 0; k < nseats; k++) {
        const char *n =
            json_string_value(json_object_get(json_array_get(seats, (size_t)k), "name"));
        names[k] = n && *n ? n : "?";
    }
    printf(_("\n==== Game over ====\n"));
    if (json_array_size(winners) == 0) {
        printf(_("Nobody wins.\n"));
    } else {
        printf("%s ", json_array_size(winners) > 1 ? _("Winners:") : _("Winner:"));
        json_array_foreach(winners, i, w) {
            int seat = (int)json_integer_value(w);
            printf("%s%s%s", i ? ", " : "", seat >= 0 && seat < nseats ? names[seat] : "?",
                   seat == r->v.seat ? _(" (you)") : "");
        }
        printf("\n");
    }
    if (json_array_size(scores) > 0) {
        const char *scoring = json_string_value(json_object_get(result, "scoring"));
        printf(_("Scores%s%s%s:"), scoring ? _(" (") : "", scoring ? result_word(scoring) : "",
               scoring ? _(")") : "");
        for (int k = 0; k < nseats && (size_t)k < json_array_size(scores); k++) {
            printf("%s %s %lld", k ? "," : "", names[k],
                   (long long)json_integer_value(json_array_get(scores, (size_t)k)));
        }
        printf("\n");
    }
    if (json_string_value(json_object_get(result, "reason"))) {
        printf(_("Why it ended: %s\n"),
               result_word(json_string_value(json_object_get(result, "reason"))));
    }
    if (ro && ro->end) {
        ro->end(stdout, result, names, nseats);
    }
    printf(_("The seed %s.\n"), seed_check(r->v.view, result));
    printf(_("Type `record FILE` to keep the record (then `conclave replay FILE` checks it)%s.\n"),
           r->spectator ? "" : _(", or `rematch` to play again"));
}

/* The seat a rematch reply (borrowed) gives, saved for `conclave resume`
 * on `server` under `name` in place of the finished game's seat
 * `old_seat` of `old_room`, which the reply's "from" names: the new seat
 * replaces it. */
static void rematch_save(const char *server, const char *name, const json_t *reply,
                         const char *old_room, int old_seat)
{
    const char *room = json_string_value(json_object_get(reply, "room"));
    const char *token = json_string_value(json_object_get(reply, "token"));
    const char *from = json_string_value(json_object_get(reply, "from"));

    if (!room || !token || !from) {
        return;
    }
    if (cli_session_save(server, room, (int)json_integer_value(json_object_get(reply, "seat")),
                         name, token) != 0) {
        fprintf(stderr, _("conclave: could not save the resume token\n"));
    }
    if (old_room && strcmp(old_room, from) == 0) {
        (void)cli_session_forget(server, old_room, old_seat);
    }
}

/* The answer to our `rematch`: with a seat, we are in the new room's
 * lobby now, with a new token; without, we declined and stay. */
static void rematch_moved(struct repl *r, const json_t *reply)
{
    const char *room = json_string_value(json_object_get(reply, "room"));
    const char *game = json_string_value(json_object_get(reply, "game"));
    const char *token = json_string_value(json_object_get(reply, "token"));
    char from[PROTO_ROOM_CODE_LEN + 1];

    if (!room || !token) {
        printf(_("you declined the rematch; your seat there is free for anyone with its code\n"));
        return;
    }
    rematch_save(r->server, r->name, reply, r->v.room, r->v.seat);
    snprintf(from, sizeof(from), "%s", r->v.room);
    /* The finished game's view goes; the new room's event follows. */
    cli_view_fini(&r->v);
    r->v.seat = (int)json_integer_value(json_object_get(reply, "seat"));
    snprintf(r->v.room, sizeof(r->v.room), "%s", room);
    snprintf(r->v.game, sizeof(r->v.game), "%s", game ? game : "");
    snprintf(r->token, sizeof(r->token), "%s", token);
    json_decref(r->legal);
    r->legal = NULL;
    r->your_turn = false;
    r->dirty = false;
    r->moved = true;
    printf(_("Now in room %s as seat %d, the rematch of %s.\n"), r->v.room, r->v.seat, from);
}

/* The rematch event in words: who offered it, each player's answer and,
 * while ours is awaited, how to give it. */
static void rematch_print(const struct repl *r, const json_t *ev)
{
    const char *old = json_string_value(json_object_get(ev, "room"));
    bool here = !r->spectator && old && strcmp(old, r->v.room) == 0;
    long long to = -1;
    size_t i;
    json_t *s;

    printf(_("Rematch in room %s, offered by %s:"),
           json_string_value(json_object_get(ev, "rematch")),
           json_string_value(json_object_get(ev, "by")));
    json_array_foreach(json_object_get(ev, "seats"), i, s) {
        const char *answer = json_string_value(json_object_get(s, "answer"));
        bool mine = here && json_integer_value(json_object_get(s, "seat")) == r->v.seat;
        bool waits = answer && strcmp(answer, "waiting") == 0;
        printf("%s %s%s %s", i ? "," : "", json_string_value(json_object_get(s, "name")),
               mine ? _(" (you)") : "",
               !answer                      ? "?"
               : strcmp(answer, "yes") == 0 ? _("accepted")
               : strcmp(answer, "no") == 0  ? _("declined")
               : strcmp(answer, "bot") == 0 ? _("is a bot")
               : waits                      ? _("has not answered")
                                            : answer);
        if (mine && waits) {
            to = json_integer_value(json_object_get(s, "to"));
        }
    }
    printf("\n");
    if (to >= 0) {
        printf(
            _("Type `rematch` to take your seat there (seat %lld), or `rematch no` to decline.\n"),
            to);
    }
}

static void on_reply(struct repl *r, json_t *msg)
{
    long id = (long)json_integer_value(json_object_get(msg, "re"));
    char op[16] = "";

    for (int i = 0; i < PENDING_MAX; i++) {
        if (r->pending[i].id == id) {
            snprintf(op, sizeof(op), "%s", r->pending[i].op);
            r->pending[i].id = 0;
        }
    }
    if (!json_is_true(json_object_get(msg, "ok"))) {
        json_t *e = json_object_get(msg, "error");
        printf(_("refused (%s): %s\n"), json_string_value(json_object_get(e, "code")),
               json_string_value(json_object_get(e, "message")));
        return;
    }
    if (strcmp(op, "legal") == 0) {
        json_decref(r->legal);
        r->legal = json_incref(json_object_get(msg, "actions"));
        r->legal_rev = (long)json_integer_value(json_object_get(msg, "rev"));
        cli_choices_print(r->legal, r->v.game, r->legal_only[0] ? r->legal_only : NULL);
        r->legal_only[0] = '\0';
    } else if (strcmp(op, "record") == 0) {
        /* Handled by the command that asked for it. */
    } else if (strcmp(op, "rematch") == 0) {
        rematch_moved(r, msg);
    } else if (strcmp(op, "leave") == 0) {
        printf(_("you left the room\n"));
        r->quit = true;
    } else if (strcmp(op, "notify") == 0) {
        const json_t *n = json_object_get(msg, "notify");
        const char *hook = json_string_value(json_object_get(n, "webhook"));
        long long push = json_integer_value(json_object_get(n, "push"));
        if (!hook && !push) {
            printf(_("notices: none\n"));
        } else {
            printf(_("notices: %s%s%s%lld browser%s\n"), hook ? _("webhook ") : "",
                   hook ? hook : "", hook ? ", " : "", push, push == 1 ? "" : "s");
        }
    }
}

static char record_path[1024];

static void on_message(struct repl *r, json_t *msg)
{
    const char *ev = json_string_value(json_object_get(msg, "ev"));

    if (json_object_get(msg, "re")) {
        long id = (long)json_integer_value(json_object_get(msg, "re"));
        bool is_record = false;
        for (int i = 0; i < PENDING_MAX; i++) {
            is_record |= r->pending[i].id == id && strcmp(r->pending[i].op, "record") == 0;
        }
        if (is_record && json_is_true(json_object_get(msg, "ok")) && record_path[0]) {
            (void)cli_record_save(json_object_get(msg, "record"), record_path);
        }
        cli_clean(msg);
        on_reply(r, msg);
        return;
    }
    if (!ev) {
        return;
    }
    int rc = cli_view_event(&r->v, msg);
    if (rc < 0) {
        printf(_("(view out of step; asking for a fresh one)\n"));
        send_req(r, "sync", NULL);
        return;
    }
    /* Shown from here on: cleaned (the kept view was taken above). */
    cli_clean(msg);
    ev = json_string_value(json_object_get(msg, "ev"));
    if (strcmp(ev, "room") == 0) {
        cli_clean(r->v.room_ev);
        draw_room(r);
        if (r->moved) {
            r->moved = false;
            printf("%s\n", json_integer_value(json_object_get(msg, "host")) == r->v.seat
                               ? _("You host it: type `start` when everyone is in (`start bots` "
                                   "gives the empty seats to bots).")
                               : _("Its host starts it when everyone is in."));
        }
    } else if (strcmp(ev, "state") == 0 || strcmp(ev, "diff") == 0) {
        /* Drawn once the batch of events that arrived together is in. A
         * diff's clock times are as of now; a state says how old its are. */
        uint64_t age = (uint64_t)json_integer_value(json_object_get(msg, "clock_ms"));
        r->clock_at = now_ms() - age;
        r->dirty = true;
    } else if (strcmp(ev, "chat") == 0) {
        char chat[640];
        snprintf(chat, sizeof(chat), "[%s] %s", json_string_value(json_object_get(msg, "name")),
                 json_string_value(json_object_get(msg, "text")));
        printf("%s\n", chat);
        chat_keep(r, chat);
    } else if (strcmp(ev, "undo") == 0) {
        printf(_("%s took back a move\n"), json_string_value(json_object_get(msg, "name")));
    } else if (strcmp(ev, "rematch") == 0) {
        rematch_print(r, msg);
    } else if (strcmp(ev, "timeout") == 0) {
        const char *deed = json_string_value(json_object_get(msg, "do"));
        printf(_("%s ran out of time: %s\n"), json_string_value(json_object_get(msg, "name")),
               !deed                       ? "?"
               : strcmp(deed, "bot") == 0  ? _("a bot plays the seat")
               : strcmp(deed, "lose") == 0 ? _("the seat loses")
               : strcmp(deed, "skip") == 0 ? _("the turn is skipped")
                                           : _("plays on without a clock"));
    } else if (strcmp(ev, "ended") == 0) {
        draw_if_changed(r);
        draw_end(r, json_object_get(msg, "result"));
    } else if (strcmp(ev, "replaced") == 0) {
        printf(_("this seat was taken over by another connection\n"));
        r->quit = true;
    } else if (strcmp(ev, "error") == 0) {
        json_t *e = json_object_get(msg, "error");
        printf(_("server: %s: %s\n"), json_string_value(json_object_get(e, "code")),
               json_string_value(json_object_get(e, "message")));
    }
    fflush(stdout);
}

static void send_action(struct repl *r, json_t *action)
{
    json_t *f = json_pack("{s:o}", "action", action);

    if (f && r->v.view) {
        json_object_set_new(f, "rev", json_integer(r->v.rev));
    }
    send_req(r, "act", f);
}

static const char *const command_words[] = {"help",    "legal",  "act",  "undo",  "say",  "card",
                                            "start",   "who",    "view", "raw",   "sync", "record",
                                            "rematch", "notify", "lang", "leave", "quit"};

/* Edit distance of a and b (short words). */
static size_t distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    size_t row[32];

    if (la >= 31 || lb >= 31) {
        return 99;
    }
    for (size_t j = 0; j <= lb; j++) {
        row[j] = j;
    }
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t best = diag + (a[i - 1] != b[j - 1]);
            best = up + 1 < best ? up + 1 : best;
            best = row[j - 1] + 1 < best ? row[j - 1] + 1 : best;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

/* The nearest of the game's command words (each line of its help starts
 * with one, others follow a "| ") to `word`, if closer than `*best_d`. */
static const char *nearest_game_word(const char *help, const char *word, size_t *best_d, char *buf,
                                     size_t buflen)
{
    const char *best = NULL;

    for (const char *p = help; p && *p;) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        for (size_t i = 0; i < len; i++) {
            bool starts = (i == 0 && p[0] != ' ') || (i >= 2 && p[i - 2] == '|' && p[i - 1] == ' ');
            size_t n = strcspn(p + i, " \n");
            char w[32];
            if (!starts || n == 0 || n >= sizeof(w)) {
                continue;
            }
            snprintf(w, sizeof(w), "%.*s", (int)n, p + i);
            size_t d = distance(word, w);
            if (d < *best_d) {
                *best_d = d;
                snprintf(buf, buflen, "%s", w);
                best = buf;
            }
        }
        p = eol ? eol + 1 : NULL;
    }
    return best;
}

/* True when `word` is a command, general or of the game. */
static bool known_word(const char *help, const char *word)
{
    size_t d = 1;
    char buf[32];

    for (size_t i = 0; i < sizeof(command_words) / sizeof(command_words[0]); i++) {
        if (strcmp(word, command_words[i]) == 0) {
            return true;
        }
    }
    return nearest_game_word(help, word, &d, buf, sizeof(buf)) != NULL;
}

/* Names the word that was not understood, and the nearest command. */
static void unknown_command(const char *help, const char *word)
{
    const char *best = NULL;
    size_t best_d = 3; /* suggest only what is close */
    char buf[32];

    for (size_t i = 0; i < sizeof(command_words) / sizeof(command_words[0]); i++) {
        size_t d = distance(word, command_words[i]);
        if (d < best_d) {
            best_d = d;
            best = command_words[i];
        }
    }
    const char *g = nearest_game_word(help, word, &best_d, buf, sizeof(buf));
    best = g ? g : best;
    if (best) {
        printf(_("unknown command \"%s\"; did you mean `%s`? (type `help`)\n"), word, best);
    } else {
        printf(_("unknown command \"%s\" (type `help`)\n"), word);
    }
}

static void command(struct repl *r, char *line)
{
    char *p = line;
    char *end = line + strlen(line);

    while (*p == ' ' || *p == '\t') {
        p++;
    }
    while (end > p && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' ')) {
        *--end = '\0';
    }
    if (!*p) {
        return;
    }
    bool leave_asked = r->leave_asked;
    r->leave_asked = false;
    if (strcmp(p, "help") == 0) {
        const struct render_ops *ro = render_find(r->v.game);
        fputs(_(general_help), stdout);
        if (ro) {
            printf(_("\n%s commands:\n%s"), r->v.game, _(ro->help));
        }
    } else if (strcmp(p, "legal") == 0) {
        send_req(r, "legal", NULL);
    } else if (strncmp(p, "legal ", 6) == 0) {
        snprintf(r->legal_only, sizeof(r->legal_only), "%s", p + 6);
        send_req(r, "legal", NULL);
    } else if (p[0] == '#') {
        long n = strtol(p + 1, NULL, 10);
        json_t *a = json_array_get(r->legal, (size_t)(n - 1));
        if (n < 1 || !a) {
            printf(_("no action #%s in the last list; type `legal`\n"), p + 1);
            return;
        }
        if (r->legal_rev != r->v.rev) {
            /* The game moved on since the list: its numbers mean nothing
             * now, and nothing is sent. */
            printf(_("that list is out of date; here is the new one\n"));
            send_req(r, "legal", NULL);
            return;
        }
        send_action(r, json_deep_copy(a));
    } else if (strncmp(p, "act ", 4) == 0) {
        json_error_t err;
        json_t *a = json_loads(p + 4, 0, &err);
        if (!json_is_object(a)) {
            printf(_("act takes a JSON object: %s\n"), err.text);
            json_decref(a);
            return;
        }
        send_action(r, a);
    } else if (strncmp(p, "say ", 4) == 0) {
        send_req(r, "chat", json_pack("{s:s}", "text", p + 4));
    } else if (strcmp(p, "start") == 0 || strncmp(p, "start bots", 10) == 0) {
        json_t *bots = start_bots(r, p + 5);
        if (bots) {
            send_req(r, "start", json_pack("{s:o}", "bots", bots));
        }
    } else if (strncmp(p, "card ", 5) == 0) {
        const struct render_ops *ro = render_find(r->v.game);
        if (!ro || !ro->card) {
            printf(_("this client has no card texts for %s\n"), r->v.game);
        } else if (ro->card(stdout, p + 5) != 0) {
            printf(_("no card \"%s\" in %s\n"), p + 5, r->v.game);
        }
    } else if (strcmp(p, "who") == 0) {
        draw_room(r);
    } else if (strcmp(p, "view") == 0) {
        draw_view(r);
    } else if (strcmp(p, "raw") == 0) {
        char *s = r->v.view ? json_dumps(r->v.view, JSON_INDENT(2) | JSON_SORT_KEYS) : NULL;
        puts(s ? s : _("(no view yet)"));
        free(s);
    } else if (strcmp(p, "sync") == 0) {
        send_req(r, "sync", NULL);
    } else if (strncmp(p, "record ", 7) == 0) {
        /* `record FILE`, or `record CODE FILE`: a finished game's from
         * anywhere (the one a rematch came from, say). */
        const char *file = p + 7;
        size_t n = strcspn(file, " ");
        char word[16], code[PROTO_ROOM_CODE_LEN + 1];
        json_t *f = NULL;
        if (file[n] == ' ' && n < sizeof(word)) {
            snprintf(word, sizeof(word), "%.*s", (int)n, file);
            if (proto_room_code_parse(word, code) == 0) {
                f = json_pack("{s:s}", "room", code);
                file += n + strspn(file + n, " ");
            }
        }
        snprintf(record_path, sizeof(record_path), "%s", file);
        send_req(r, "record", f);
    } else if (strcmp(p, "rematch") == 0) {
        send_req(r, "rematch", NULL);
    } else if (strcmp(p, "rematch no") == 0) {
        send_req(r, "rematch", json_pack("{s:b}", "accept", 0));
    } else if (strcmp(p, "undo") == 0) {
        send_req(r, "undo", NULL);
    } else if (strcmp(p, "notify") == 0) {
        send_req(r, "notify", NULL);
    } else if (strcmp(p, "notify off") == 0) {
        send_req(r, "notify", json_pack("{s:b}", "off", 1));
    } else if (strncmp(p, "notify ", 7) == 0) {
        send_req(r, "notify", json_pack("{s:s}", "webhook", p + 7));
    } else if (strcmp(p, "lang") == 0) {
        printf(_("language: %s (`lang en` or `lang zh-CN` changes it)\n"),
               cli_lang_name(cli_lang_get()));
    } else if (strncmp(p, "lang ", 5) == 0) {
        enum cli_lang lang;
        if (cli_lang_parse(p + 5 + strspn(p + 5, " "), &lang) != 0) {
            printf(_("lang takes en or zh-CN, not \"%s\"\n"), p + 5);
            return;
        }
        cli_lang_set(lang);
        printf(_("language: %s\n"), cli_lang_name(lang));
        /* The board again, in the new language, at once. */
        r->dirty = r->v.view != NULL;
        draw_if_changed(r);
    } else if (strcmp(p, "leave") == 0) {
        /* A person at a terminal who types `leave` in the middle of a game
         * may have meant a game's own word: ask once. Scripts are not
         * asked. */
        if (r->edit && !leave_asked && !r->spectator && r->v.seat >= 0 && r->v.view &&
            !r->v.result) {
            r->leave_asked = true;
            printf(_("you hold a seat in a game under way; type `leave` again to leave the room "
                     "(a bot takes your seat)\n"));
            return;
        }
        send_req(r, "leave", NULL);
    } else if (strcmp(p, "quit") == 0 || strcmp(p, "exit") == 0) {
        r->quit = true;
    } else {
        const struct render_ops *ro = render_find(r->v.game);
        char err[256] = "";
        json_t *a = NULL;
        char word[32];
        size_t n = strcspn(p, " \t");
        snprintf(word, sizeof(word), "%.*s", (int)(n < sizeof(word) - 1 ? n : sizeof(word) - 1), p);
        if (!known_word(ro ? ro->help : NULL, word)) {
            unknown_command(ro ? ro->help : NULL, word);
            return;
        }
        if (!ro || ro->parse(p, r->v.view, r->v.seat, &a, err, sizeof(err)) != 0) {
            printf(_("%s (type `help`)\n"), err[0] ? err : _("that command does not fit here"));
            return;
        }
        send_action(r, a);
    }
    fflush(stdout);
}

/* ---- The screen ---- */

/* The interactive session libedit's line callback reports to (it takes no
 * argument); there is one per process. */
static struct repl *edit_repl;

/* libedit finished a line (NULL: end of input): it is kept for the loop,
 * which runs typed lines one at a time. */
static void on_typed(char *line)
{
    struct repl *r = edit_repl;
    size_t n;
    char *more;

    r->prompt_shown = false; /* libedit went to a new line */
    r->fresh = true;
    if (!line) {
        r->typed_eof = true;
        return;
    }
    if (line[0]) {
        add_history(line);
    }
    n = strlen(line);
    more = realloc(r->typed, r->ntyped + n + 1);
    if (more) {
        r->typed = more;
        memcpy(r->typed + r->ntyped, line, n);
        r->typed[r->ntyped + n] = '\n';
        r->ntyped += n + 1;
    }
    free(line);
}

/* Before printing: the prompt line is cleared, to be drawn again below
 * what is printed. */
static void screen_out(struct repl *r)
{
    if (r->edit && r->prompt_shown) {
        fputs("\r\033[K", stdout);
        r->prompt_shown = false;
    }
}

/* Before waiting: the board if it changed, then the prompt and what was
 * being typed. */
static void screen_settle(struct repl *r)
{
    if (r->dirty) {
        screen_out(r);
        draw_if_changed(r);
    }
    fflush(stdout);
    if (r->edit && r->fresh && !r->typed_eof) {
        /* Installed again, the editor forgets the finished line and draws
         * an empty prompt (drawn again as it is, it would show the old
         * line). */
        rl_callback_handler_remove();
        rl_callback_handler_install(PROMPT, on_typed);
        r->fresh = false;
        r->prompt_shown = true;
    } else if (r->edit && !r->prompt_shown) {
        rl_forced_update_display();
        r->prompt_shown = true;
    }
}

/* The connection dropped: connects again with growing pauses and takes
 * the seat back (or watches again), asking for what was missed. 0 once
 * back, -1 after giving up. */
static int reconnect(struct repl *r)
{
    static const unsigned pause_ms[] = {500, 1000, 2000, 4000, 8000, 15000, 30000, 30000, 30000};

    printf(_("Connection lost; reconnecting...\n"));
    fflush(stdout);
    for (size_t k = 0; k < sizeof(pause_ms) / sizeof(pause_ms[0]); k++) {
        struct timespec ts = {pause_ms[k] / 1000, (long)(pause_ms[k] % 1000) * 1000000L};
        json_t *reply = NULL;
        long id;
        nanosleep(&ts, NULL);
        cli_conn_close(r->conn);
        if (cli_conn_open(r->conn, r->server) != 0) {
            continue;
        }
        id = cli_conn_request(r->conn, "hello",
                              json_pack("{s:i, s:s}", "proto", PROTO_VERSION, "name", r->name));
        reply = id < 0 ? NULL : cli_conn_wait_reply(r->conn, id, NULL, NULL);
        if (!json_is_true(json_object_get(reply, "ok"))) {
            json_decref(reply);
            continue;
        }
        json_decref(reply);
        if (r->spectator) {
            id = cli_conn_request(r->conn, "spectate", json_pack("{s:s}", "room", r->v.room));
        } else {
            /* With our rev, the server sends the diffs we missed. */
            id = cli_conn_request(
                r->conn, "resume",
                r->v.view ? json_pack("{s:s, s:I}", "token", r->token, "rev", (json_int_t)r->v.rev)
                          : json_pack("{s:s}", "token", r->token));
        }
        reply = id < 0 ? NULL : cli_conn_wait_reply(r->conn, id, NULL, NULL);
        if (json_is_true(json_object_get(reply, "ok"))) {
            json_decref(reply);
            memset(r->pending, 0, sizeof(r->pending));
            r->sent_ms = now_ms();
            printf(_("Back in room %s; what you missed follows.\n"), r->v.room);
            fflush(stdout);
            return 0;
        }
        if (reply) {
            /* The server answered and said no (the room is gone): retrying
             * will not change that. */
            json_t *e = json_object_get(reply, "error");
            printf(_("cannot go back to room %s: %s\n"), r->v.room,
                   json_string_value(json_object_get(e, "message")));
            json_decref(reply);
            return -1;
        }
    }
    printf(_("gave up reconnecting to %s\n"), r->server);
    return -1;
}

int cli_repl(struct cli_conn *c, const json_t *first, const json_t *early, const char *server,
             const char *name, const char *token, bool start_bots)
{
    struct repl r;
    char line[4096];
    size_t have = 0;
    bool stdin_eof = false;

    memset(&r, 0, sizeof(r));
    r.conn = c;
    r.name = name;
    snprintf(r.token, sizeof(r.token), "%s", token ? token : "");
    /* A quarter of the server's idle timeout, at most KEEPALIVE_MS. */
    r.keepalive_ms = KEEPALIVE_MS;
    if (c->idle_timeout_s > 0 && (uint64_t)c->idle_timeout_s * 250 < r.keepalive_ms) {
        r.keepalive_ms = (uint64_t)c->idle_timeout_s * 250;
    }
    r.sent_ms = now_ms();
    r.server = server;
    r.st.colour = isatty(STDOUT_FILENO) && !getenv("NO_COLOR");
    /* The bell: on a terminal, unless CONCLAVE_BELL=0. */
    r.bell = isatty(STDOUT_FILENO) &&
             !(getenv("CONCLAVE_BELL") && strcmp(getenv("CONCLAVE_BELL"), "0") == 0);
    /* Line editing on a terminal; piped commands are read as they come. */
    r.edit = isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
    if (r.edit) {
        edit_repl = &r;
        rl_callback_handler_install(PROMPT, on_typed);
        r.prompt_shown = true;
    }
    r.v.seat = (int)json_integer_value(json_object_get(first, "seat"));
    const char *room = json_string_value(json_object_get(first, "room"));
    const char *game = json_string_value(json_object_get(first, "game"));
    snprintf(r.v.room, sizeof(r.v.room), "%s", room ? room : "");
    snprintf(r.v.game, sizeof(r.v.game), "%s", game ? game : "");
    r.spectator = r.v.seat < 0;
    if (r.spectator) {
        printf(_("Watching room %s. Type `help` for commands.\n"), r.v.room);
    } else {
        char link[CLI_SERVER_MAX + 100];
        printf(_("In room %s as seat %d. Share the code; type `help` for commands.\n"), r.v.room,
               r.v.seat);
        if (cli_conn_link(c, r.v.room, link, sizeof(link)) == 0) {
            printf(_("Friends join over TLS, this certificate alone, with: conclave join %s\n"),
                   link);
        }
    }
    fflush(stdout);
    /* What the server sent before the reply (the room, the view). */
    for (size_t i = 0; i < json_array_size(early); i++) {
        json_t *m = json_deep_copy(json_array_get(early, i));
        if (m) {
            on_message(&r, m);
            json_decref(m);
        }
    }
    if (start_bots) {
        send_req(&r, "start", json_pack("{s:b}", "bots", 1));
    }

    while (!r.quit) {
        json_t *msg = NULL;
        int rc;

        /* Drain what the framer already holds before waiting. */
        while ((rc = cli_conn_read(c, 0, &msg)) == 1) {
            screen_out(&r);
            on_message(&r, msg);
            json_decref(msg);
            msg = NULL;
        }
        fflush(stdout);
        if (rc < 0 || r.lost) {
            screen_out(&r);
            printf(_("the server closed the connection\n"));
            r.lost = false;
            if ((r.token[0] || r.spectator) && reconnect(&r) == 0) {
                continue;
            }
            r.status = 1;
            break;
        }
        if (r.quit) {
            break;
        }
        /* One typed line at a time, each once the answers to the last one
         * are in: piped commands then run in order, as typed ones do. */
        if (r.ntyped > 0 && have + r.ntyped < sizeof(line) - 1) {
            memcpy(line + have, r.typed, r.ntyped);
            have += r.ntyped;
            r.ntyped = 0;
        }
        stdin_eof |= r.typed_eof && r.ntyped == 0;
        char *nl = memchr(line, '\n', have);
        if (nl && !busy(&r)) {
            *nl = '\0';
            screen_out(&r);
            command(&r, line);
            have -= (size_t)(nl + 1 - line);
            memmove(line, nl + 1, have);
            continue;
        }
        if (stdin_eof && have == 0 && !busy(&r)) {
            break;
        }
        /* While a line waits its turn, libedit still edits the next one. */
        struct pollfd pfd[2] = {
            {.fd = (stdin_eof || (nl && !r.edit)) ? -1 : STDIN_FILENO, .events = POLLIN},
            {.fd = c->fd, .events = POLLIN}};
        uint64_t now = now_ms();
        if (now - r.sent_ms >= r.keepalive_ms) {
            /* Nothing sent for a while: keep the connection alive, even
             * while diffs keep arriving. */
            send_req(&r, "ping", NULL);
            continue;
        }
        screen_settle(&r);
        int pr = poll(pfd, 2, (int)(r.sent_ms + r.keepalive_ms - now));
        if (pr < 0) {
            if (errno == EINTR) {
                continue;
            }
            break;
        }
        if (r.edit && (pfd[0].revents & (POLLHUP | POLLERR | POLLNVAL))) {
            /* The terminal is gone (a closed window, a dropped ssh): what
             * was typed has ended; the seat waits for a resume. */
            stdin_eof = true;
            r.typed_eof = true;
            continue;
        }
        if (pfd[0].revents && r.edit) {
            rl_callback_read_char();
        } else if (pfd[0].revents) {
            ssize_t n = read(STDIN_FILENO, line + have, sizeof(line) - 1 - have);
            if (n <= 0) {
                stdin_eof = true;
                if (have > 0 && !memchr(line, '\n', have)) {
                    line[have++] = '\n';
                }
                continue;
            }
            have += (size_t)n;
            if (have == sizeof(line) - 1 && !memchr(line, '\n', have)) {
                printf(_("line too long\n"));
                have = 0;
            }
        }
    }
    if (r.edit) {
        screen_out(&r);
        rl_callback_handler_remove();
        edit_repl = NULL;
    }
    fflush(stdout);
    free(r.typed);
    json_decref(r.legal);
    cli_view_fini(&r.v);
    return r.status;
}

/* Prints a server line in the scripted mode; a rematch's reply moves the
 * seat kept in `room` and `seat` (saved for `conclave resume` when
 * `server` is known). */
static void script_out(json_t *msg, const char *server, const char *name, char *room, int *seat)
{
    char *s = json_dumps(msg, JSON_COMPACT);

    if (s) {
        puts(s);
    }
    free(s);
    const char *moved = json_string_value(json_object_get(msg, "room"));
    if (server && moved && json_is_true(json_object_get(msg, "ok")) &&
        json_is_string(json_object_get(msg, "from"))) {
        rematch_save(server, name, msg, room, *seat);
        snprintf(room, PROTO_ROOM_CODE_LEN + 1, "%s", moved);
        *seat = (int)json_integer_value(json_object_get(msg, "seat"));
    }
}

int cli_script(struct cli_conn *c, const char *server, const char *name, const json_t *first)
{
    char buf[65536];
    bool stdin_open = true;
    char room[PROTO_ROOM_CODE_LEN + 1];
    int seat = (int)json_integer_value(json_object_get(first, "seat"));

    snprintf(room, sizeof(room), "%s",
             json_string_value(json_object_get(first, "room"))
                 ? json_string_value(json_object_get(first, "room"))
                 : "");
    server = first ? server : NULL;

    for (;;) {
        struct pollfd pfd[2] = {{.fd = stdin_open ? STDIN_FILENO : -1, .events = POLLIN},
                                {.fd = c->fd, .events = POLLIN}};
        json_t *msg = NULL;
        int rc;

        while ((rc = cli_conn_read(c, 0, &msg)) == 1) {
            script_out(msg, server, name, room, &seat);
            json_decref(msg);
            msg = NULL;
        }
        fflush(stdout);
        if (rc < 0) {
            return 0;
        }
        /* After stdin ends, print what the server still sends until it has
         * been quiet for a second. */
        int pr = poll(pfd, 2, stdin_open ? -1 : 1000);
        if (pr < 0 && errno == EINTR) {
            continue;
        }
        if (pr <= 0) {
            return 0;
        }
        if (pfd[0].revents) {
            ssize_t n = read(STDIN_FILENO, buf, sizeof(buf));
            if (n <= 0) {
                stdin_open = false;
                continue;
            }
            if (cli_conn_write_raw(c, buf, (size_t)n) != 0) {
                return 1;
            }
        }
        if (pfd[1].revents) {
            /* Data is read by cli_conn_read at the top of the loop. */
            rc = cli_conn_read(c, 0, &msg);
            if (rc < 0) {
                return 0;
            }
            if (rc == 1) {
                script_out(msg, server, name, room, &seat);
                json_decref(msg);
            }
        }
    }
}
