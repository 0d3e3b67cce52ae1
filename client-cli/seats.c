/* SPDX-License-Identifier: MIT */
/*
 * seats.c - `conclave games` and `conclave wait`: the seats saved on this
 * machine (session.json), on whatever servers they are, each looked at
 * from outside. A look is a spectator's: it sends no token, so the
 * player's own connection keeps its seat, and it sees what any watcher
 * sees (whose turn it is, the clocks, the result), which is all it needs.
 */
#include "client.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lang.h"

/* How long a look waits for a server's answers, and how long `wait` waits
 * before it looks again at a seat whose server went away (ms). */
#define LOOK_MS 10000
#define RETRY_MS 5000

/* One saved seat, and what was last seen of it. */
struct look {
    const json_t *saved; /* its entry of session.json (borrowed) */
    struct cli_conn conn;
    bool open; /* conn is watching the room */
    struct cli_view v;
    const char *state; /* "your turn", "waiting", "in the lobby", "over", "gone", "unreachable" */
    uint64_t retry_at; /* `wait`: when to look again at a seat that could not be watched */
};

static uint64_t mono_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static const char *saved_str(const struct look *l, const char *key)
{
    const char *s = json_string_value(json_object_get(l->saved, key));

    return s ? s : "";
}

static int saved_seat(const struct look *l)
{
    return (int)json_integer_value(json_object_get(l->saved, "seat"));
}

/* What the view says of our seat. */
static void judge(struct look *l)
{
    const char *status = json_string_value(json_object_get(l->v.room_ev, "status"));
    size_t i;
    json_t *a;

    if (l->v.result || (l->v.view && !json_is_null(json_object_get(l->v.view, "result"))) ||
        (status && strcmp(status, "ended") == 0)) {
        l->state = N_("over");
        return;
    }
    if (status && strcmp(status, "lobby") == 0) {
        l->state = N_("in the lobby");
        return;
    }
    l->state = N_("waiting");
    json_array_foreach(json_object_get(l->v.view, "active"), i, a) {
        if (json_integer_value(a) == saved_seat(l)) {
            l->state = N_("your turn");
        }
    }
}

static void on_event(void *arg, json_t *ev)
{
    struct look *l = arg;

    if (cli_view_event(&l->v, ev) >= 0) {
        judge(l);
    }
}

static void unwatch(struct look *l)
{
    if (l->open) {
        cli_conn_close(&l->conn);
        l->open = false;
    }
}

/* Connects, says hello and spectates the seat's room; then reads until its
 * view (or, before the start, its room event) is in. 0, or -1 with
 * l->state saying why. */
static int watch(struct look *l, const char *name)
{
    json_t *r;
    long id;

    cli_view_fini(&l->v);
    memset(&l->v, 0, sizeof(l->v));
    l->v.seat = -1;
    l->state = N_("unreachable");
    if (cli_conn_open(&l->conn, saved_str(l, "server")) != 0) {
        return -1;
    }
    l->open = true;
    id = cli_conn_request(&l->conn, "hello",
                          json_pack("{s:i, s:s}", "proto", PROTO_VERSION, "name",
                                    *saved_str(l, "name") ? saved_str(l, "name") : name));
    r = id < 0 ? NULL : cli_conn_wait_reply(&l->conn, id, NULL, NULL);
    if (!r || !json_is_true(json_object_get(r, "ok"))) {
        json_decref(r);
        unwatch(l);
        return -1;
    }
    json_decref(r);
    id = cli_conn_request(&l->conn, "spectate", json_pack("{s:s}", "room", saved_str(l, "room")));
    r = id < 0 ? NULL : cli_conn_wait_reply(&l->conn, id, on_event, l);
    if (!r || !json_is_true(json_object_get(r, "ok"))) {
        const char *code = json_string_value(json_object_get(json_object_get(r, "error"), "code"));
        l->state = code && strcmp(code, "room_not_found") == 0 ? N_("gone") : N_("unreachable");
        json_decref(r);
        unwatch(l);
        return -1;
    }
    json_decref(r);
    for (uint64_t end = mono_ms() + LOOK_MS; !l->v.view && mono_ms() < end;) {
        const char *status = json_string_value(json_object_get(l->v.room_ev, "status"));
        json_t *m = NULL;
        if (status && strcmp(status, "lobby") == 0) {
            break; /* no view before the start */
        }
        if (cli_conn_read(&l->conn, (int)(end - mono_ms()), &m) <= 0) {
            break;
        }
        on_event(l, m);
        json_decref(m);
    }
    judge(l);
    return 0;
}

/* "Ann's turn" style: the names of the seats that may act. */
static void whose(const struct look *l, char *out, size_t n)
{
    const json_t *seats = json_object_get(l->v.room_ev, "seats");
    size_t i, len = 0;
    json_t *a;

    out[0] = '\0';
    json_array_foreach(json_object_get(l->v.view, "active"), i, a) {
        const char *name = json_string_value(
            json_object_get(json_array_get(seats, (size_t)json_integer_value(a)), "name"));
        len += (size_t)snprintf(out + len, len < n ? n - len : 0, "%s%s", len ? ", " : "",
                                name ? name : "?");
    }
}

static void print_look(const struct look *l, bool as_json)
{
    char turn[200];

    whose(l, turn, sizeof(turn));
    if (as_json) {
        json_t *o = json_pack("{s:s, s:s, s:i, s:s, s:s, s:s}", "server", saved_str(l, "server"),
                              "room", saved_str(l, "room"), "seat", saved_seat(l), "name",
                              saved_str(l, "name"), "state", l->state, "game", l->v.game);
        if (o && l->v.view) {
            json_object_set(o, "active", json_object_get(l->v.view, "active"));
            json_object_set_new(o, "rev", json_integer(l->v.rev));
        }
        char *s = o ? json_dumps(o, JSON_COMPACT) : NULL;
        if (s) {
            puts(s);
        }
        free(s);
        json_decref(o);
        return;
    }
    printf(_("%-21s %s  %-10s seat %d (%s)  %s"), saved_str(l, "server"), saved_str(l, "room"),
           l->v.game[0] ? l->v.game : "-", saved_seat(l), saved_str(l, "name"), _(l->state));
    if (strcmp(l->state, "waiting") == 0 && turn[0]) {
        printf(_(": %s to play"), turn);
    }
    printf("\n");
}

/* The saved seats to look at: all, or those of room `code`. */
static json_t *chosen(const char *code)
{
    json_t *all = cli_sessions_load(), *out = json_array();
    size_t i;
    json_t *s;

    json_array_foreach(all, i, s) {
        const char *room = json_string_value(json_object_get(s, "room"));
        if (!code || (room && strcmp(room, code) == 0)) {
            json_array_append(out, s);
        }
    }
    json_decref(all);
    return out;
}

int cli_games(const char *name, bool as_json)
{
    json_t *saved = chosen(NULL);
    size_t i, n = json_array_size(saved);
    int yours = 0;

    if (n == 0 && !as_json) {
        printf(_("no saved seats: a seat is saved when you create or join a room\n"));
    }
    for (i = 0; i < n; i++) {
        struct look l = {.saved = json_array_get(saved, i)};
        (void)watch(&l, name);
        unwatch(&l);
        print_look(&l, as_json);
        yours += strcmp(l.state, "your turn") == 0;
        cli_view_fini(&l.v);
    }
    if (n > 0 && !as_json) {
        printf(_("%d of %zu seat%s: your turn\n"), yours, n, n == 1 ? "" : "s");
    }
    json_decref(saved);
    return 0;
}

int cli_wait(const char *name, const char *code, bool as_json)
{
    json_t *saved = chosen(code);
    size_t n = json_array_size(saved);
    struct look *ls = calloc(n ? n : 1, sizeof(*ls));
    int status = -1;

    if (!ls || n == 0) {
        fprintf(stderr, "conclave: %s\n",
                ls ? (code ? _("no saved seat in that room") : _("no saved seats to wait for"))
                   : _("out of memory"));
        free(ls);
        json_decref(saved);
        return 1;
    }
    for (size_t i = 0; i < n; i++) {
        ls[i].saved = json_array_get(saved, i);
    }
    while (status < 0) {
        struct pollfd pfd[64];
        size_t watched = 0, over = 0;
        uint64_t now = mono_ms(), next = now + 60000;
        for (size_t i = 0; i < n && status < 0; i++) {
            struct look *l = &ls[i];
            if (!l->open && l->state &&
                (strcmp(l->state, "over") == 0 || strcmp(l->state, "gone") == 0)) {
                over++;
                continue;
            }
            if (!l->open && now >= l->retry_at && watch(l, name) != 0) {
                l->retry_at = now + RETRY_MS;
            }
            if (l->state && strcmp(l->state, "your turn") == 0) {
                print_look(l, as_json);
                status = 0;
            } else if (l->state &&
                       (strcmp(l->state, "over") == 0 || strcmp(l->state, "gone") == 0)) {
                unwatch(l);
                over++;
                continue;
            }
            if (!l->open && l->retry_at > now && l->retry_at < next) {
                next = l->retry_at;
            }
        }
        if (status >= 0) {
            break;
        }
        if (over == n) {
            fprintf(stderr, _("conclave: every game waited for is over or gone\n"));
            status = 3;
            break;
        }
        for (size_t i = 0; i < n && watched < 64; i++) {
            if (ls[i].open) {
                pfd[watched++] = (struct pollfd){.fd = ls[i].conn.fd, .events = POLLIN};
            }
        }
        int wait_ms = (int)(next > now ? next - now : 0);
        if (watched == 0) {
            usleep((useconds_t)wait_ms * 1000);
            continue;
        }
        (void)poll(pfd, watched, wait_ms);
        for (size_t i = 0, k = 0; i < n; i++) {
            struct look *l = &ls[i];
            json_t *m = NULL;
            if (!l->open) {
                continue;
            }
            if (!(pfd[k++].revents & (POLLIN | POLLHUP | POLLERR))) {
                continue;
            }
            /* Every message already in; a closed connection is watched again later. */
            int rc;
            while ((rc = cli_conn_read(&l->conn, 0, &m)) > 0) {
                on_event(l, m);
                json_decref(m);
            }
            if (rc < 0) {
                unwatch(l);
                l->state = N_("unreachable");
                l->retry_at = mono_ms() + RETRY_MS;
            }
        }
    }
    for (size_t i = 0; i < n; i++) {
        unwatch(&ls[i]);
        cli_view_fini(&ls[i].v);
    }
    free(ls);
    json_decref(saved);
    return status;
}
