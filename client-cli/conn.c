/* SPDX-License-Identifier: MIT */
/*
 * conn.c - the client's connection: a blocking TCP socket read through the
 * protocol framer, and the view tracker that applies state and diff events
 * and checks each against the server's hash. Also the saved resume token.
 */
#include "client.h"

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lang.h"

/* ---- Connection ---- */

/* Warns, once, of plain TCP to another machine: the local and the peer
 * address of the socket differ (a server on this machine is reached from
 * its own address; a second loopback address stands for another host). */
static void plain_warn(int fd, const char *server)
{
    static bool warned;
    struct sockaddr_storage me, peer;
    socklen_t ml = sizeof(me), pl = sizeof(peer);
    bool same;

    if (warned || getsockname(fd, (struct sockaddr *)&me, &ml) != 0 ||
        getpeername(fd, (struct sockaddr *)&peer, &pl) != 0) {
        return;
    }
    if (me.ss_family == AF_INET && peer.ss_family == AF_INET) {
        same = ((struct sockaddr_in *)&me)->sin_addr.s_addr ==
               ((struct sockaddr_in *)&peer)->sin_addr.s_addr;
    } else if (me.ss_family == AF_INET6 && peer.ss_family == AF_INET6) {
        same = memcmp(&((struct sockaddr_in6 *)&me)->sin6_addr,
                      &((struct sockaddr_in6 *)&peer)->sin6_addr, sizeof(struct in6_addr)) == 0;
    } else {
        same = false;
    }
    if (!same) {
        warned = true;
        fprintf(stderr,
                _("conclave: warning: %s is another machine, reached over plain TCP: your seat's "
                  "token, name and chat cross the network unencrypted. Play over TLS with "
                  "--server wss://HOST:PORT (its conclaved serves --http with a certificate, "
                  "or --tls-self-signed).\n"),
                server);
    }
}

/* "HOST:PORT" (HOST may be [v6]) into host and port text. 0 or -1 with a
 * message on stderr. */
static int hostport_split(const char *server, char host[256], const char **port)
{
    const char *colon = strrchr(server, ':');
    size_t hl;

    if (!colon || colon == server || !colon[1]) {
        fprintf(stderr, _("conclave: server must be HOST:PORT or wss://HOST:PORT, not %s\n"),
                server);
        return -1;
    }
    hl = (size_t)(colon - server);
    if (server[0] == '[' && hl >= 2 && server[hl - 1] == ']') {
        server++;
        hl -= 2;
    }
    if (hl >= 256) {
        fprintf(stderr, _("conclave: host name too long\n"));
        return -1;
    }
    memcpy(host, server, hl);
    host[hl] = '\0';
    *port = colon + 1;
    return 0;
}

int cli_conn_open(struct cli_conn *c, const char *server)
{
    char host[256];
    const char *port;
    struct addrinfo hints, *res = NULL, *ai;
    const char *orig = server;
    int rc;

    memset(c, 0, sizeof(*c));
    c->fd = -1;
    if (strncmp(server, "wss://", 6) == 0) {
        char hostport[CLI_SERVER_MAX];
        char *end;
        long p;
        snprintf(hostport, sizeof(hostport), "%s", server + 6);
        hostport[strcspn(hostport, "/")] = '\0';
        if (hostport_split(hostport, host, &port) != 0) {
            return -1;
        }
        p = strtol(port, &end, 10);
        if (*end || p < 1 || p > 65535) {
            fprintf(stderr, _("conclave: no port in %s\n"), server);
            return -1;
        }
        proto_framer_init(&c->framer, PROTO_OUT_LINE_MAX + 1);
        c->next_id = 1;
        if (cli_wss_open(c, host, (int)p, hostport) != 0) {
            proto_framer_fini(&c->framer);
            return -1;
        }
        return 0;
    }
    if (hostport_split(server, host, &port) != 0) {
        return -1;
    }
    memset(&hints, 0, sizeof(hints));
    hints.ai_socktype = SOCK_STREAM;
    rc = getaddrinfo(host, port, &hints, &res);
    if (rc != 0) {
        fprintf(stderr, "conclave: %s: %s\n", host, gai_strerror(rc));
        return -1;
    }
    for (ai = res; ai; ai = ai->ai_next) {
        c->fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
        if (c->fd < 0) {
            continue;
        }
        if (connect(c->fd, ai->ai_addr, ai->ai_addrlen) == 0) {
            break;
        }
        close(c->fd);
        c->fd = -1;
    }
    freeaddrinfo(res);
    if (c->fd < 0) {
        fprintf(stderr, _("conclave: cannot connect to %s: %s\n"), orig, strerror(errno));
        return -1;
    }
    plain_warn(c->fd, orig);
    proto_framer_init(&c->framer, PROTO_OUT_LINE_MAX + 1);
    c->next_id = 1;
    return 0;
}

void cli_conn_close(struct cli_conn *c)
{
    if (c->wss) {
        cli_wss_close(c);
    } else if (c->fd >= 0) {
        close(c->fd);
        c->fd = -1;
    }
    proto_framer_fini(&c->framer);
}

static int write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR) {
            continue;
        }
        if (w <= 0) {
            return -1;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

int cli_conn_send(struct cli_conn *c, const json_t *msg)
{
    size_t len;
    char *line = proto_line_dump(msg, &len);
    int rc;

    if (!line) {
        return -1;
    }
    rc = c->wss ? cli_wss_send(c, line, len) : write_all(c->fd, line, len);
    free(line);
    return rc;
}

int cli_conn_write_raw(struct cli_conn *c, const char *bytes, size_t len)
{
    return c->wss ? cli_wss_send_raw(c, bytes, len) : write_all(c->fd, bytes, len);
}

long cli_conn_request(struct cli_conn *c, const char *op, json_t *fields)
{
    json_t *msg = fields ? fields : json_object();
    long id = c->next_id++;
    int rc;

    if (!msg) {
        return -1;
    }
    json_object_set_new(msg, "id", json_integer(id));
    json_object_set_new(msg, "op", json_string(op));
    rc = cli_conn_send(c, msg);
    json_decref(msg);
    return rc == 0 ? id : -1;
}

int cli_conn_read(struct cli_conn *c, int timeout_ms, json_t **ret)
{
    int ended = 0; /* over TLS: 1 the time ran out, -1 the connection closed */

    for (;;) {
        const char *line;
        size_t len;
        int rc = proto_framer_next(&c->framer, &line, &len);

        if (rc > 0) {
            json_error_t err;
            json_t *msg = json_loadb(line, len, 0, &err);
            if (!json_is_object(msg)) {
                json_decref(msg);
                return -1;
            }
            *ret = msg;
            return 1;
        }
        if (rc < 0) {
            return -1;
        }
        if (c->wss) {
            /* What TLS decrypts goes into the framer; the lines it holds
             * are taken before a close or a time-out is told. */
            if (ended) {
                return ended > 0 ? 0 : -1;
            }
            rc = cli_wss_fill(c, timeout_ms);
            ended = rc < 0 ? -1 : rc == 0 ? 1 : 0;
            continue;
        }
        struct pollfd pfd = {.fd = c->fd, .events = POLLIN};
        int pr = poll(&pfd, 1, timeout_ms);
        if (pr < 0 && errno == EINTR) {
            continue;
        }
        if (pr == 0) {
            return 0;
        }
        char buf[65536];
        ssize_t n = recv(c->fd, buf, sizeof(buf), 0);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0 || proto_framer_feed(&c->framer, buf, (size_t)n) != 0) {
            return -1;
        }
    }
}

json_t *cli_conn_wait_reply(struct cli_conn *c, long id, void (*on_event)(void *, json_t *),
                            void *arg)
{
    for (;;) {
        json_t *msg = NULL;
        if (cli_conn_read(c, -1, &msg) <= 0) {
            return NULL;
        }
        json_t *re = json_object_get(msg, "re");
        if (json_is_integer(re) && json_integer_value(re) == id) {
            return msg;
        }
        if (on_event && json_object_get(msg, "ev")) {
            on_event(arg, msg);
        }
        json_decref(msg);
    }
}

/* ---- View tracker ---- */

static bool hash_matches(const json_t *view, const json_t *ev)
{
    char hash[PROTO_HASH_HEX_LEN + 1];
    const char *want = json_string_value(json_object_get(ev, "hash"));

    if (!want) {
        return true;
    }
    return proto_view_hash(view, hash) == 0 && strcmp(hash, want) == 0;
}

int cli_view_event(struct cli_view *v, const json_t *ev)
{
    const char *kind = json_string_value(json_object_get(ev, "ev"));

    if (!kind) {
        return 0;
    }
    if (strcmp(kind, "room") == 0) {
        json_decref(v->room_ev);
        v->room_ev = json_deep_copy(ev);
        const char *g = json_string_value(json_object_get(ev, "game"));
        const char *r = json_string_value(json_object_get(ev, "room"));
        if (g) {
            snprintf(v->game, sizeof(v->game), "%s", g);
        }
        if (r) {
            snprintf(v->room, sizeof(v->room), "%s", r);
        }
        return 1;
    }
    if (strcmp(kind, "ended") == 0) {
        json_decref(v->result);
        v->result = json_incref(json_object_get(ev, "result"));
        return 1;
    }
    if (strcmp(kind, "state") == 0) {
        json_t *view = json_object_get(ev, "view");
        if (!json_is_object(view)) {
            return -1;
        }
        json_decref(v->view);
        v->view = json_deep_copy(view);
        v->rev = (long)json_integer_value(json_object_get(ev, "rev"));
        if (json_is_integer(json_object_get(ev, "seat"))) {
            v->seat = (int)json_integer_value(json_object_get(ev, "seat"));
        }
        return hash_matches(v->view, ev) ? 1 : -1;
    }
    if (strcmp(kind, "diff") == 0) {
        long rev = (long)json_integer_value(json_object_get(ev, "rev"));
        if (!v->view || rev != v->rev + 1) {
            return -1;
        }
        if (proto_patch_apply(&v->view, json_object_get(ev, "patch")) != 0) {
            return -1;
        }
        v->rev = rev;
        return hash_matches(v->view, ev) ? 1 : -1;
    }
    return 0;
}

void cli_clean(json_t *v)
{
    size_t i;
    const char *key;
    json_t *item;

    if (json_is_string(v)) {
        size_t n = json_string_length(v);
        char *out = malloc(n + 1);
        if (out) {
            size_t len = proto_clean_text(json_string_value(v), n, out);
            /* Only a string that needed it is replaced. */
            if (len != n || memcmp(out, json_string_value(v), n) != 0) {
                json_string_setn_nocheck(v, out, len);
            }
            free(out);
        }
    } else if (json_is_array(v)) {
        json_array_foreach(v, i, item) {
            cli_clean(item);
        }
    } else if (json_is_object(v)) {
        json_object_foreach(v, key, item) {
            cli_clean(item);
        }
    }
}

void cli_view_fini(struct cli_view *v)
{
    json_decref(v->view);
    json_decref(v->room_ev);
    json_decref(v->result);
    memset(v, 0, sizeof(*v));
}

/* ---- Saved token ---- */

/* How many sessions the file keeps (the most recent). */
#define SESSIONS_MAX 32

json_t *cli_sessions_load(void)
{
    char path[4200];
    json_error_t err;
    json_t *f, *list;

    if (cli_state_path(path, sizeof(path), "session.json", false) != 0 ||
        !(f = json_load_file(path, 0, &err))) {
        return json_array();
    }
    list = json_incref(json_object_get(f, "sessions"));
    if (!json_is_array(list)) {
        /* An older file held one session as the object itself. */
        json_decref(list);
        list = json_array();
        if (json_is_string(json_object_get(f, "token"))) {
            json_array_append(list, f);
        }
    }
    json_decref(f);
    return list;
}

static bool same_seat(const json_t *s, const char *server, const char *room, int seat)
{
    const char *sv = json_string_value(json_object_get(s, "server"));
    const char *rm = json_string_value(json_object_get(s, "room"));

    return sv && rm && strcmp(sv, server) == 0 && strcmp(rm, room) == 0 &&
           json_integer_value(json_object_get(s, "seat")) == seat;
}

/* Writes `list` as the sessions file (owner-only). */
static int sessions_store(json_t *list)
{
    char path[4200], tmp[4300];
    json_t *f;
    int rc;

    if (cli_state_path(path, sizeof(path), "session.json", true) != 0) {
        return -1;
    }
    snprintf(tmp, sizeof(tmp), "%s.new", path);
    f = json_pack("{s:O}", "sessions", list);
    rc = f ? json_dump_file(f, tmp, JSON_INDENT(1)) : -1;
    json_decref(f);
    if (rc == 0 && (chmod(tmp, 0600) != 0 || rename(tmp, path) != 0)) {
        rc = -1;
    }
    return rc;
}

int cli_session_save(const char *server, const char *room, int seat, const char *name,
                     const char *token)
{
    json_t *list = cli_sessions_load();
    json_t *entry = json_pack("{s:s, s:s, s:i, s:s, s:s}", "server", server, "room", room, "seat",
                              seat, "name", name, "token", token);
    int rc = -1;

    if (list && entry) {
        /* One entry per (server, room, seat): the newest first. */
        for (size_t i = json_array_size(list); i > 0; i--) {
            if (same_seat(json_array_get(list, i - 1), server, room, seat)) {
                json_array_remove(list, i - 1);
            }
        }
        json_array_insert(list, 0, entry);
        while (json_array_size(list) > SESSIONS_MAX) {
            json_array_remove(list, json_array_size(list) - 1);
        }
        rc = sessions_store(list);
    }
    json_decref(entry);
    json_decref(list);
    return rc;
}

int cli_session_forget(const char *server, const char *room, int seat)
{
    json_t *list = cli_sessions_load();
    int rc;

    for (size_t i = json_array_size(list); i > 0; i--) {
        if (same_seat(json_array_get(list, i - 1), server, room, seat)) {
            json_array_remove(list, i - 1);
        }
    }
    rc = sessions_store(list);
    json_decref(list);
    return rc;
}
