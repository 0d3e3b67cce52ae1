/* SPDX-License-Identifier: MIT */
/*
 * main.c - conclaved: options and config file, signals, start and stop.
 *
 * Reads the command line (and an optional `key = value` config file, which
 * the command line overrides), starts the listener, prints the line
 * "listening on HOST:PORT" on stdout (with --http, "http on URL" after it,
 * and with TLS "certificate SHA256:HEX" after that), and runs the loop
 * until SIGINT or SIGTERM, after which it stops accepting, lets writes
 * finish and exits 0.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>
#include <uv.h>

#include "agones.h"
#include "allocator.h"
#include "notifier.h"
#include "bot.h"
#include "lobby.h"
#include "log.h"
#include "metrics.h"
#include "net.h"
#include "selfsigned.h"
#include "web.h"
#include "journal.h"
#include "session.h"

#define NOTIFY_ALLOW_MAX 16

struct options {
    struct net_config net;
    struct web_config web;
    bool http;            /* web.host and web.port are set */
    bool tls_self_signed; /* web.tls_cert and web.tls_key are the data directory's */
    struct sess_config sess;
    struct lobby_config lobby;
    struct store_config store;
    unsigned bot_threads; /* searches at once */
    bool agones;          /* an Agones game server: speak to the SDK sidecar */
    struct agones_config agones_cfg;
    struct allocator_config alloc_cfg; /* url empty: no lookups in a fleet */
    uint64_t drain_ms;                 /* with --agones, how long SIGTERM waits for games to end */
    char data_dir[PATH_MAX];
    int log_level;
    /* Notices to players who are not there (webhooks, Web Push). */
    bool notify_off;
    char notify_allow[NOTIFY_ALLOW_MAX][256]; /* the only hosts they go to; none: any public */
    unsigned nallow;
    char notify_ca[PATH_MAX];
    char notify_contact[256];
    char public_url[512]; /* the page's address in a notice; default: --http's */
};

static const char usage[] =
    "usage: conclaved [--listen HOST:PORT] [--data-dir DIR] [--config FILE] [options]\n"
    "\n"
    "Serves Conclave game rooms over protocol v1 (NDJSON over TCP).\n"
    "\n"
    "  --listen HOST:PORT       address to listen on (default 127.0.0.1:7717; port 0 = any)\n"
    "  --data-dir DIR           directory for the server's files (default ./conclave-data)\n"
    "  --config FILE            read `key = value` settings (see docs/operations.md)\n"
    "  --http HOST:PORT         also serve the browser client and WebSocket (port 0 = any)\n"
    "  --tls-cert FILE          with --tls-key: serve HTTPS and WSS with this PEM certificate\n"
    "  --tls-key FILE           the certificate's PEM private key\n"
    "  --tls-self-signed        with --http: serve HTTPS and WSS with a key and a self-signed\n"
    "                           certificate the server makes in the data directory\n"
    "                           (tls-key.pem, tls-cert.pem; valid 825 days, made anew at a\n"
    "                           start within 30 days of its end); stdout then says its\n"
    "                           fingerprint, as with --tls-cert\n"
    "  --allow-origin ORIGIN    a page origin besides this server's own that may open\n"
    "                           WebSockets (e.g. https://games.example.org; repeatable)\n"
    "  --web-dir DIR            serve the page's files from DIR instead of the embedded ones\n"
    "  --fsync always|batch|never  when the journal is flushed to disk (default always)\n"
    "  --fsync-delay MS         longest wait of a record for its batch, with --fsync batch\n"
    "                           (default 2)\n"
    "  --write-jobs auto|pool   where journal writes and flushes run: auto, on the event\n"
    "                           loop while they average at most 1 ms, else on the thread\n"
    "                           pool; pool, always on the thread pool (default auto)\n"
    "  --wal-size BYTES         size of the write-ahead file journal.wal; when it is full,\n"
    "                           every room's journal is flushed and it starts again\n"
    "                           (default 16777216)\n"
    "  --bot-delay MS           pause before a bot moves (default 300)\n"
    "  --bot-max-level LEVEL    the strongest bot level offered: random, easy, normal or\n"
    "                           hard (default hard)\n"
    "  --bot-threads N          bot searches run at once, on the thread pool (default 2)\n"
    "  --agones                 run as an Agones game server: Ready, Health, the rooms\n"
    "                           Counter and List through the SDK sidecar's REST API\n"
    "                           (127.0.0.1:$AGONES_SDK_HTTP_PORT, default 9358); SIGTERM\n"
    "                           then drains: no new rooms, running games go on\n"
    "  --agones-health MS       how often Health is sent (default 2000)\n"
    "  --agones-allocator URL   look up rooms this server does not hold through the Agones\n"
    "                           allocator service (https://HOST:PORT): join, spectate and\n"
    "                           resume then answer room_elsewhere with the server holding it\n"
    "  --agones-allocator-cert FILE  the client certificate (PEM) the allocator requires\n"
    "  --agones-allocator-key FILE   its private key (PEM)\n"
    "  --agones-allocator-ca FILE    the CA of the allocator's certificate (PEM)\n"
    "  --agones-namespace NS    the fleet's namespace (default default)\n"
    "  --agones-fleet NAME      the fleet's name (default conclave)\n"
    "  --drain-timeout S        with --agones, the longest SIGTERM waits for running\n"
    "                           games to end (default 600)\n"
    "  --max-connections N      connections in all (default 1024)\n"
    "  --max-per-address N      connections per client address (default 64)\n"
    "  --max-rooms N            rooms held at once (default 1000)\n"
    "  --max-rooms-per-connection N  open rooms one connection may have created (default 4)\n"
    "  --max-rooms-per-address N     open rooms one client address may have created (default "
    "32)\n"
    "  --connect-rate N         new connections per second per client address (default 20;\n"
    "                           bursts of twice that)\n"
    "  --review-rate BYTES      bytes of records a second one client address may send to\n"
    "                           POST /review (default 2097152; bursts of twice that)\n"
    "  --max-spectators N       spectators per room (default 64)\n"
    "  --room-backlog BYTES     lines a room may hold back for its journal before it\n"
    "                           refuses actions (default 4194304)\n"
    "  --max-line BYTES         longest request line (default 65536)\n"
    "  --write-queue BYTES      unsent bytes per connection before it is cut off (default "
    "8388608)\n"
    "  --idle-timeout S         close connections silent this long (default 120)\n"
    "  --hello-timeout S        close connections that send no hello this long (default 10)\n"
    "  --rate N                 requests per second per connection (default 50)\n"
    "  --rate-burst N           burst allowance (default 100)\n"
    "  --lobby-ttl S            drop a lobby nobody is connected to after S (default 600)\n"
    "  --ended-ttl S            keep a finished game's record (on disk) for S (default 7776000,\n"
    "                           90 days)\n"
    "  --abandoned-ttl S        drop a running game no human is connected to after S (default\n"
    "                           0: never)\n"
    "  --sleep-after S          a started or finished room nobody is in sleeps on disk after S\n"
    "                           (default 300)\n"
    "  --notify on|off          send notices (\"your turn\", the end, a mention) to a\n"
    "                           seat's webhook and Web Push subscriptions (default on)\n"
    "  --notify-allow HOST      send notices to this host only (repeatable); without it,\n"
    "                           to any host whose addresses are all public\n"
    "  --notify-ca FILE         the certificates (PEM) notices trust instead of the system's\n"
    "  --notify-contact URI     the operator's mailto: or https: address, given to push\n"
    "                           services (default: --public-url when https)\n"
    "  --public-url URL         the page's public address, which notices link to (default:\n"
    "                           the --http address)\n"
    "  --verbose                log debug lines\n"
    "  --help                   this text\n"
    "  --version                print the version\n";

static void options_default(struct options *o)
{
    memset(o, 0, sizeof(*o));
    snprintf(o->net.host, sizeof(o->net.host), "127.0.0.1");
    o->net.port = 7717;
    o->net.max_line = PROTO_LINE_MAX_DEFAULT;
    o->net.write_queue_max = 8u * 1024u * 1024u;
    o->net.max_conns = 1024;
    o->net.max_conns_per_addr = 64;
    o->net.idle_ms = 120000;
    o->net.hello_ms = 10000;
    o->sess.rate_per_sec = 50;
    o->sess.rate_burst = 100;
    o->sess.abuse_limit = 200;
    o->lobby.games = game_registry;
    o->lobby.max_rooms = 1000;
    o->lobby.max_rooms_per_conn = 4;
    o->lobby.max_rooms_per_addr = 32;
    o->net.connect_rate = 20;
    o->web.review_rate = 2u * 1024u * 1024u;
    o->lobby.max_spectators = 64;
    o->lobby.outbox_max = 4u * 1024u * 1024u;
    o->lobby.lobby_ttl_ms = 600000;
    o->lobby.ended_ttl_ms = UINT64_C(7776000000); /* 90 days */
    o->lobby.abandoned_ttl_ms = 0;                /* never */
    o->lobby.sleep_after_ms = 300000;
    o->lobby.bot_delay_ms = 300;
    o->lobby.bot_level_max = BOT_HARD;
    o->bot_threads = 2;
    snprintf(o->agones_cfg.host, sizeof(o->agones_cfg.host), "127.0.0.1");
    o->agones_cfg.port = 9358;
    o->agones_cfg.health_ms = 2000;
    snprintf(o->alloc_cfg.ns, sizeof(o->alloc_cfg.ns), "default");
    snprintf(o->alloc_cfg.fleet, sizeof(o->alloc_cfg.fleet), "conclave");
    snprintf(o->alloc_cfg.game_port, sizeof(o->alloc_cfg.game_port), "game");
    snprintf(o->alloc_cfg.http_port, sizeof(o->alloc_cfg.http_port), "http");
    o->alloc_cfg.timeout_ms = 5000;
    o->drain_ms = 600000;
    snprintf(o->data_dir, sizeof(o->data_dir), "conclave-data");
    o->store.fsync = STORE_FSYNC_ALWAYS;
    o->store.batch_ms = 2;
    o->log_level = 1;
}

static int parse_u64(const char *s, uint64_t max, uint64_t *ret)
{
    char *end;
    unsigned long long v;

    if (!s || !*s || *s == '-') {
        return -1;
    }
    errno = 0;
    v = strtoull(s, &end, 10);
    if (errno || *end || v > max) {
        return -1;
    }
    *ret = v;
    return 0;
}

static int parse_host_port(const char *s, char *out_host, size_t hostcap, int *out_port)
{
    const char *colon = strrchr(s, ':');
    uint64_t port;
    size_t hostlen;
    const char *host = s;

    if (!colon || parse_u64(colon + 1, 65535, &port) != 0) {
        return -1;
    }
    hostlen = (size_t)(colon - s);
    if (hostlen >= 2 && s[0] == '[' && s[hostlen - 1] == ']') {
        host = s + 1;
        hostlen -= 2;
    }
    if (hostlen == 0 || hostlen >= hostcap) {
        return -1;
    }
    memcpy(out_host, host, hostlen);
    out_host[hostlen] = '\0';
    *out_port = (int)port;
    return 0;
}

/* Copies a path option's value. 0, or -EINVAL with what it takes in `why`. */
static int set_path(char *dst, size_t cap, const char *val, char *why, size_t whylen)
{
    if (!*val || strlen(val) >= cap) {
        snprintf(why, whylen, "a path of 1 to %zu bytes", cap - 1);
        return -EINVAL;
    }
    snprintf(dst, cap, "%s", val);
    return 0;
}

/* A Kubernetes object name: lower case letters, digits, '-' and '.'. */
static int set_k8s_name(char *dst, size_t cap, const char *val, char *why, size_t whylen)
{
    size_t n = strspn(val, "abcdefghijklmnopqrstuvwxyz0123456789-.");

    if (!*val || val[n] != '\0' || n >= cap) {
        snprintf(why, whylen,
                 "a Kubernetes name of at most %zu lower case letters, digits, "
                 "'-' and '.'",
                 cap - 1);
        return -EINVAL;
    }
    snprintf(dst, cap, "%s", val);
    return 0;
}

/* Sets option `key` (its long name without the dashes) from `val`. 0;
 * -ENOENT for a key that is no option; -EINVAL for a value it does not
 * take, with what it takes in `why`. */
static int option_set(struct options *o, const char *key, const char *val, char *why, size_t whylen)
{
    uint64_t v;

    if (strcmp(key, "listen") == 0) {
        snprintf(why, whylen, "HOST:PORT, with a port from 0 to 65535");
        return parse_host_port(val, o->net.host, sizeof(o->net.host), &o->net.port) == 0 ? 0
                                                                                         : -EINVAL;
    }
    if (strcmp(key, "http") == 0) {
        snprintf(why, whylen, "HOST:PORT, with a port from 0 to 65535");
        if (parse_host_port(val, o->web.host, sizeof(o->web.host), &o->web.port) != 0) {
            return -EINVAL;
        }
        o->http = true;
        return 0;
    }
    /* Paths and names taken as they are (the allocator's URL is checked
     * when its client starts). */
    static const struct {
        const char *key;
        size_t offset, cap;
    } text[] = {
        {"web-dir", offsetof(struct options, web.web_dir), sizeof(o->web.web_dir)},
        {"tls-cert", offsetof(struct options, web.tls_cert), sizeof(o->web.tls_cert)},
        {"tls-key", offsetof(struct options, web.tls_key), sizeof(o->web.tls_key)},
        {"agones-allocator", offsetof(struct options, alloc_cfg.url), sizeof(o->alloc_cfg.url)},
        {"agones-allocator-cert", offsetof(struct options, alloc_cfg.cert),
         sizeof(o->alloc_cfg.cert)},
        {"agones-allocator-key", offsetof(struct options, alloc_cfg.key), sizeof(o->alloc_cfg.key)},
        {"agones-allocator-ca", offsetof(struct options, alloc_cfg.ca), sizeof(o->alloc_cfg.ca)},
        {"notify-ca", offsetof(struct options, notify_ca), sizeof(o->notify_ca)},
    };
    for (size_t i = 0; i < sizeof(text) / sizeof(text[0]); i++) {
        if (strcmp(key, text[i].key) == 0) {
            return set_path((char *)o + text[i].offset, text[i].cap, val, why, whylen);
        }
    }
    if (strcmp(key, "agones-namespace") == 0) {
        return set_k8s_name(o->alloc_cfg.ns, sizeof(o->alloc_cfg.ns), val, why, whylen);
    }
    if (strcmp(key, "agones-fleet") == 0) {
        return set_k8s_name(o->alloc_cfg.fleet, sizeof(o->alloc_cfg.fleet), val, why, whylen);
    }
    if (strcmp(key, "allow-origin") == 0) {
        size_t n = strlen(val);
        if ((strncmp(val, "http://", 7) != 0 && strncmp(val, "https://", 8) != 0) ||
            n >= sizeof(o->web.origins[0]) || val[n - 1] == '/') {
            snprintf(why, whylen, "an origin such as https://games.example.org (no path)");
            return -EINVAL;
        }
        if (o->web.norigins >= WEB_ORIGINS_MAX) {
            snprintf(why, whylen, "at most %d origins", WEB_ORIGINS_MAX);
            return -EINVAL;
        }
        snprintf(o->web.origins[o->web.norigins++], sizeof(o->web.origins[0]), "%s", val);
        return 0;
    }
    if (strcmp(key, "notify") == 0) {
        if (strcmp(val, "on") != 0 && strcmp(val, "off") != 0) {
            snprintf(why, whylen, "on or off");
            return -EINVAL;
        }
        o->notify_off = strcmp(val, "off") == 0;
        return 0;
    }
    if (strcmp(key, "notify-allow") == 0) {
        size_t n = strspn(val, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-.");
        if (!*val || val[n] != '\0' || n >= sizeof(o->notify_allow[0]) ||
            o->nallow >= NOTIFY_ALLOW_MAX) {
            snprintf(why, whylen, "a host name (at most %d of them)", NOTIFY_ALLOW_MAX);
            return -EINVAL;
        }
        snprintf(o->notify_allow[o->nallow++], sizeof(o->notify_allow[0]), "%s", val);
        return 0;
    }
    if (strcmp(key, "notify-contact") == 0) {
        if ((strncmp(val, "mailto:", 7) != 0 && strncmp(val, "https://", 8) != 0) ||
            strlen(val) >= sizeof(o->notify_contact)) {
            snprintf(why, whylen, "a mailto: or https: address");
            return -EINVAL;
        }
        snprintf(o->notify_contact, sizeof(o->notify_contact), "%s", val);
        return 0;
    }
    if (strcmp(key, "public-url") == 0) {
        if ((strncmp(val, "http://", 7) != 0 && strncmp(val, "https://", 8) != 0) ||
            strlen(val) + 2 >= sizeof(o->public_url) || strpbrk(val, "#?\" \t")) {
            snprintf(why, whylen, "the page's http:// or https:// address");
            return -EINVAL;
        }
        snprintf(o->public_url, sizeof(o->public_url), "%s%s", val,
                 val[strlen(val) - 1] == '/' ? "" : "/");
        return 0;
    }
    if (strcmp(key, "data-dir") == 0) {
        if (!*val || strlen(val) >= sizeof(o->data_dir)) {
            snprintf(why, whylen, "a directory of at most %zu bytes", sizeof(o->data_dir) - 1);
            return -EINVAL;
        }
        snprintf(o->data_dir, sizeof(o->data_dir), "%s", val);
        return 0;
    }
    if (strcmp(key, "fsync") == 0) {
        int p = store_fsync_parse(val);
        if (p < 0) {
            snprintf(why, whylen, "always, batch or never");
            return -EINVAL;
        }
        o->store.fsync = (enum store_fsync)p;
        return 0;
    }
    if (strcmp(key, "write-jobs") == 0) {
        if (strcmp(val, "auto") != 0 && strcmp(val, "pool") != 0) {
            snprintf(why, whylen, "auto or pool");
            return -EINVAL;
        }
        o->store.pool_only = strcmp(val, "pool") == 0;
        return 0;
    }
    if (strcmp(key, "bot-max-level") == 0) {
        int l = bot_level_parse(val);
        if (l < 0) {
            snprintf(why, whylen, "random, easy, normal or hard");
            return -EINVAL;
        }
        o->lobby.bot_level_max = (enum bot_level)l;
        return 0;
    }
    if (strcmp(key, "verbose") == 0) {
        o->log_level = 0;
        return 0;
    }
    if (strcmp(key, "agones") == 0 || strcmp(key, "tls-self-signed") == 0) {
        if (strcmp(val, "true") != 0 && strcmp(val, "false") != 0) {
            snprintf(why, whylen, "true or false");
            return -EINVAL;
        }
        *(strcmp(key, "agones") == 0 ? &o->agones : &o->tls_self_signed) = strcmp(val, "true") == 0;
        return 0;
    }
    static const struct {
        const char *key;
        uint64_t min, max, scale;
        int kind; /* 0 u64, 1 unsigned, 2 size_t, 3 double */
        size_t offset;
    } num[] = {
        {"bot-delay", 0, 3600000, 1, 0, offsetof(struct options, lobby.bot_delay_ms)},
        {"bot-threads", 1, 64, 1, 1, offsetof(struct options, bot_threads)},
        {"agones-health", 100, 600000, 1, 0, offsetof(struct options, agones_cfg.health_ms)},
        {"drain-timeout", 0, 86400, 1000, 0, offsetof(struct options, drain_ms)},
        {"fsync-delay", 0, 1000, 1, 0, offsetof(struct options, store.batch_ms)},
        {"wal-size", 65536, 1u << 30, 1, 0, offsetof(struct options, store.wal_bytes)},
        {"max-connections", 1, 1000000, 1, 1, offsetof(struct options, net.max_conns)},
        {"max-per-address", 1, 1000000, 1, 1, offsetof(struct options, net.max_conns_per_addr)},
        {"max-rooms", 1, 10000000, 1, 1, offsetof(struct options, lobby.max_rooms)},
        {"max-rooms-per-connection", 1, 10000000, 1, 1,
         offsetof(struct options, lobby.max_rooms_per_conn)},
        {"max-rooms-per-address", 1, 10000000, 1, 1,
         offsetof(struct options, lobby.max_rooms_per_addr)},
        {"connect-rate", 1, 1000000, 1, 1, offsetof(struct options, net.connect_rate)},
        {"review-rate", 1, 1u << 30, 1, 2, offsetof(struct options, web.review_rate)},
        {"max-spectators", 0, 1000000, 1, 1, offsetof(struct options, lobby.max_spectators)},
        {"room-backlog", 65536, 1u << 30, 1, 2, offsetof(struct options, lobby.outbox_max)},
        {"max-line", 256, 16777216, 1, 2, offsetof(struct options, net.max_line)},
        {"write-queue", 65536, 1u << 30, 1, 2, offsetof(struct options, net.write_queue_max)},
        {"idle-timeout", 1, 86400, 1000, 0, offsetof(struct options, net.idle_ms)},
        {"hello-timeout", 1, 3600, 1000, 0, offsetof(struct options, net.hello_ms)},
        {"rate", 1, 1000000, 1, 3, offsetof(struct options, sess.rate_per_sec)},
        {"rate-burst", 1, 1000000, 1, 3, offsetof(struct options, sess.rate_burst)},
        {"lobby-ttl", 1, 31536000, 1000, 0, offsetof(struct options, lobby.lobby_ttl_ms)},
        {"ended-ttl", 1, 31536000, 1000, 0, offsetof(struct options, lobby.ended_ttl_ms)},
        {"abandoned-ttl", 0, 31536000, 1000, 0, offsetof(struct options, lobby.abandoned_ttl_ms)},
        {"sleep-after", 1, 31536000, 1000, 0, offsetof(struct options, lobby.sleep_after_ms)},
    };
    for (size_t i = 0; i < sizeof(num) / sizeof(num[0]); i++) {
        if (strcmp(key, num[i].key) != 0) {
            continue;
        }
        if (parse_u64(val, num[i].max, &v) != 0 || v < num[i].min) {
            snprintf(why, whylen, "a whole number from %llu to %llu",
                     (unsigned long long)num[i].min, (unsigned long long)num[i].max);
            return -EINVAL;
        }
        char *field = (char *)o + num[i].offset;
        switch (num[i].kind) {
        case 0: {
            uint64_t x = v * num[i].scale;
            memcpy(field, &x, sizeof(x));
            break;
        }
        case 1: {
            unsigned x = (unsigned)v;
            memcpy(field, &x, sizeof(x));
            break;
        }
        case 2: {
            size_t x = (size_t)v;
            memcpy(field, &x, sizeof(x));
            break;
        }
        default: {
            double x = (double)v;
            memcpy(field, &x, sizeof(x));
            break;
        }
        }
        return 0;
    }
    return -ENOENT;
}

/* True when `key` names an option (whatever its value). */
static bool option_known(const struct options *o, const char *key)
{
    struct options scratch = *o;
    char why[128];

    return option_set(&scratch, key, "", why, sizeof(why)) != -ENOENT;
}

/* Reads `key = value` lines; '#' starts a comment. Keys are the long
 * option names without dashes in front ("max-rooms = 50"); '_' may stand
 * for '-'. */
static int config_load(struct options *o, const char *path)
{
    FILE *f = fopen(path, "r");
    char line[1024];
    int lineno = 0;

    if (!f) {
        fprintf(stderr, "conclaved: cannot read config %s: %s\n", path, strerror(errno));
        return -1;
    }
    while (fgets(line, sizeof(line), f)) {
        char *p = line, *eq, *key, *val, *end;
        lineno++;
        if ((end = strchr(p, '#'))) {
            *end = '\0';
        }
        while (*p == ' ' || *p == '\t') {
            p++;
        }
        end = p + strlen(p);
        while (end > p &&
               (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' ' || end[-1] == '\t')) {
            *--end = '\0';
        }
        if (!*p) {
            continue;
        }
        eq = strchr(p, '=');
        if (!eq) {
            fprintf(stderr, "conclaved: %s:%d: expected key = value\n", path, lineno);
            fclose(f);
            return -1;
        }
        *eq = '\0';
        key = p;
        val = eq + 1;
        for (end = eq; end > key && (end[-1] == ' ' || end[-1] == '\t'); end--) {
            end[-1] = '\0';
        }
        while (*val == ' ' || *val == '\t') {
            val++;
        }
        for (char *k = key; *k; k++) {
            if (*k == '_') {
                *k = '-';
            }
        }
        char why[128] = "";
        int rc = option_set(o, key, val, why, sizeof(why));
        if (rc == -ENOENT) {
            fprintf(stderr, "conclaved: %s:%d: unknown setting %s\n", path, lineno, key);
        } else if (rc != 0) {
            fprintf(stderr, "conclaved: %s:%d: %s takes %s, not \"%s\"\n", path, lineno, key, why,
                    val);
        }
        if (rc != 0) {
            fclose(f);
            return -1;
        }
    }
    fclose(f);
    return 0;
}

static int parse_args(struct options *o, int argc, char **argv)
{
    /* The config file is read first so that the command line overrides it. */
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--config") == 0) {
            if (i + 1 >= argc || strncmp(argv[i + 1], "--", 2) == 0) {
                fprintf(stderr, "conclaved: --config needs a value\n");
                return -1;
            }
            if (config_load(o, argv[i + 1]) != 0) {
                return -1;
            }
        }
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage, stdout);
            exit(0);
        }
        if (strcmp(a, "--version") == 0) {
            printf("conclaved %s (protocol %d)\n", CONCLAVE_VERSION, PROTO_VERSION);
            exit(0);
        }
        if (strncmp(a, "--", 2) != 0) {
            fprintf(stderr, "conclaved: unexpected argument %s\n", a);
            return -1;
        }
        if (strcmp(a, "--verbose") == 0) {
            o->log_level = 0;
            continue;
        }
        if (strcmp(a, "--agones") == 0) {
            o->agones = true;
            continue;
        }
        if (strcmp(a, "--tls-self-signed") == 0) {
            o->tls_self_signed = true;
            continue;
        }
        if (strcmp(a, "--config") != 0 && !option_known(o, a + 2)) {
            fprintf(stderr, "conclaved: unknown option %s\n", a);
            return -1;
        }
        if (i + 1 >= argc || strncmp(argv[i + 1], "--", 2) == 0) {
            fprintf(stderr, "conclaved: %s needs a value\n", a);
            return -1;
        }
        const char *val = argv[++i];
        if (strcmp(a, "--config") == 0) {
            continue;
        }
        char why[128] = "";
        if (option_set(o, a + 2, val, why, sizeof(why)) != 0) {
            fprintf(stderr, "conclaved: %s takes %s, not \"%s\"\n", a, why, val);
            return -1;
        }
    }
    return 0;
}

static int data_dir_ready(const char *dir)
{
    struct stat st;

    if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
        fprintf(stderr, "conclaved: cannot create data directory %s: %s\n", dir, strerror(errno));
        return -1;
    }
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "conclaved: %s is not a directory\n", dir);
        return -1;
    }
    return 0;
}

/* With --tls-self-signed: makes or keeps the data directory's key and
 * certificate (selfsigned.h), logs what it made and why, and points
 * o->web's TLS paths at them. 0, or -1 after saying why on stderr. */
static int self_signed_ready(struct options *o)
{
    struct selfsigned_result r;
    char why[PATH_MAX + 128] = "";
    char q[LOG_QUOTE_MAX], w[LOG_QUOTE_MAX];

    if (selfsigned_ensure(o->data_dir, o->web.host, time(NULL), &r, why, sizeof(why)) != 0) {
        fprintf(stderr, "conclaved: --tls-self-signed: %s\n", why);
        return -1;
    }
    if (r.outcome == SELFSIGNED_MADE) {
        log_event(LOG_INFO, "tls_self_signed_made", "cert=%s sha256=%s days=%d",
                  log_quote(q, sizeof(q), r.cert), r.sha256, SELFSIGNED_DAYS);
    } else if (r.outcome == SELFSIGNED_RENEWED) {
        log_event(LOG_WARN, "tls_self_signed_renewed", "cert=%s reason=%s old_sha256=%s sha256=%s",
                  log_quote(q, sizeof(q), r.cert), log_quote(w, sizeof(w), r.reason),
                  r.old_sha256[0] ? r.old_sha256 : "none", r.sha256);
    }
    memcpy(o->web.tls_cert, r.cert, sizeof(o->web.tls_cert));
    memcpy(o->web.tls_key, r.key, sizeof(o->web.tls_key));
    return 0;
}

/* ---- The journal and the lobby ----
 * The store knows nothing of rooms: these two hooks hand its reports to
 * the lobby, and the lobby's journal table points at the store's append
 * and forget. */

struct runtime {
    uv_signal_t sigint, sigterm;
    struct net_server *srv;
    struct web_server *web;
    struct store *store;
    struct bot_pool *bots;
    struct lobby *lobby;
    struct sess_hub *hub;
    uv_loop_t *loop;
    bool stopping;
    /* With --agones: the sidecar's client, the timer that tells it the
     * rooms held, and the drain after SIGTERM. */
    struct agones *agones;
    struct allocator *alloc;   /* with --agones-allocator */
    struct notifier *notifier; /* without --notify off */
    struct sess_finder finder;
    uv_timer_t fleet;
    uint64_t drain_ms;
    uint64_t drain_until; /* 0: not draining */
};

/* The store's hooks, with the runtime as their context. */
static void journal_durable(void *ctx, uint64_t seq)
{
    struct runtime *rt = ctx;

    lobby_durable(rt->lobby, seq);
    if (rt->srv) {
        net_due_poke(rt->srv); /* a room whose lines have left may sleep */
    }
}

static void journal_failing(void *ctx, const char *code, bool failing)
{
    struct runtime *rt = ctx;

    lobby_journal_failing(rt->lobby, code, failing);
    if (rt->srv) {
        net_due_poke(rt->srv); /* a room caught up may sleep */
    }
}

static int journal_restore(void *ctx, const json_t *records, uint64_t now, uint64_t age_ms,
                           char *err, size_t errlen)
{
    char msg[GAME_MSG_MAX] = "";
    int rc = lobby_restore(((struct runtime *)ctx)->lobby, records, now, age_ms, msg);

    if (rc < 0) {
        snprintf(err, errlen, "%s", msg);
    }
    return rc;
}

_Static_assert(AGONES_CODE_LEN == PROTO_ROOM_CODE_LEN, "room codes");

/* ---- /metrics ----
 * Gathered from each module's own counters when asked; nothing is counted
 * twice or kept here. */

static const char *const status_names[] = {"lobby", "playing", "ended"};

/* Resident memory from /proc/self/statm; 0 when it cannot be read. */
static double resident_bytes(void)
{
    unsigned long size = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");

    if (!f) {
        return 0;
    }
    if (fscanf(f, "%lu %lu", &size, &resident) != 2) {
        resident = 0;
    }
    fclose(f);
    return (double)resident * (double)sysconf(_SC_PAGESIZE);
}

static void metrics_store(struct metrics_text *t, const struct store_stats *ss)
{
    double bounds[STORE_JOB_BUCKETS - 1];

    metrics_family(t, "conclave_journal_records_total", "counter",
                   "Journal records appended (room changes and accepted actions).");
    metrics_sample(t, "conclave_journal_records_total", NULL, (double)ss->records);
    metrics_family(t, "conclave_journal_refused_records_total", "counter",
                   "Journal records the store could not take (the change was refused).");
    metrics_sample(t, "conclave_journal_refused_records_total", NULL, (double)ss->refused);
    metrics_family(t, "conclave_journal_fsyncs_total", "counter", "Flushes to disk.");
    metrics_sample(t, "conclave_journal_fsyncs_total", NULL, (double)ss->fsyncs);
    metrics_family(t, "conclave_journal_checkpoints_total", "counter",
                   "Journals flushed themselves, the write-ahead file started again.");
    metrics_sample(t, "conclave_journal_checkpoints_total", NULL, (double)ss->checkpoints);
    metrics_family(t, "conclave_journal_loop_jobs_total", "counter",
                   "Write jobs run on the event loop itself (the others ran on the thread "
                   "pool).");
    metrics_sample(t, "conclave_journal_loop_jobs_total", NULL, (double)ss->loop_jobs);
    metrics_family(t, "conclave_journal_write_failures_total", "counter",
                   "Failed journal writes and flushes (retried).");
    metrics_sample(t, "conclave_journal_write_failures_total", NULL, (double)ss->failures);
    metrics_family(t, "conclave_journal_pending_records", "gauge",
                   "Records appended and not yet durable.");
    metrics_sample(t, "conclave_journal_pending_records", NULL, (double)ss->pending_records);
    metrics_family(t, "conclave_journal_lag_bytes", "gauge",
                   "Bytes of durable records held in memory, in the write-ahead file and not "
                   "yet in their rooms' journals.");
    metrics_sample(t, "conclave_journal_lag_bytes", NULL, (double)ss->lag_bytes);
    for (int k = 0; k < STORE_JOB_BUCKETS - 1; k++) {
        bounds[k] = (double)(UINT64_C(1) << k) / 1e6;
    }
    metrics_family(t, "conclave_journal_flush_seconds", "histogram",
                   "Time of each journal write job, from its start on the loop to its report "
                   "back (writes and flush).");
    metrics_histogram(t, "conclave_journal_flush_seconds", NULL, bounds, ss->job_us,
                      STORE_JOB_BUCKETS - 1, (double)ss->job_us_sum / 1e6);
    for (int k = 0; k < STORE_JOB_BUCKETS - 1; k++) {
        bounds[k] = (double)(UINT64_C(1) << k) - 1;
    }
    metrics_family(t, "conclave_journal_records_per_flush", "histogram",
                   "Records each journal write job took.");
    metrics_histogram(t, "conclave_journal_records_per_flush", NULL, bounds, ss->job_records,
                      STORE_JOB_BUCKETS - 1, (double)ss->job_records_sum);
}

static void metrics_lobby(struct metrics_text *t, const struct lobby *lobby)
{
    struct lobby_stats ls;

    lobby_stats(lobby, &ls);
    metrics_family(t, "conclave_rooms", "gauge", "Rooms held, by game and status.");
    for (unsigned g = 0; g < ls.ngames; g++) {
        for (int st = 0; st < 3; st++) {
            const struct metrics_label l[] = {
                {"game", ls.game_ids[g]}, {"status", status_names[st]}, {NULL, NULL}};
            metrics_sample(t, "conclave_rooms", l, (double)ls.rooms[g][st]);
        }
    }
    metrics_family(t, "conclave_seats_connected", "gauge",
                   "Players' seats with a connection, in every room.");
    metrics_sample(t, "conclave_seats_connected", NULL, (double)ls.seats_connected);
    metrics_family(t, "conclave_spectators", "gauge", "Spectators, in every room.");
    metrics_sample(t, "conclave_spectators", NULL, (double)ls.spectators);
    metrics_family(t, "conclave_actions_accepted_total", "counter",
                   "Actions accepted (players' and bots'), by game.");
    for (unsigned g = 0; g < ls.ngames; g++) {
        const struct metrics_label l[] = {{"game", ls.game_ids[g]}, {NULL, NULL}};
        metrics_sample(t, "conclave_actions_accepted_total", l, (double)ls.actions[g]);
    }
    metrics_family(t, "conclave_bot_actions_total", "counter",
                   "Actions accepted from bots, by level.");
    for (int l = 0; l < BOT_NLEVELS; l++) {
        const struct metrics_label lab[] = {{"level", bot_level_names[l]}, {NULL, NULL}};
        metrics_sample(t, "conclave_bot_actions_total", lab, (double)ls.bot_moves[l]);
    }
    metrics_family(t, "conclave_bot_searches", "gauge", "Bot searches under way.");
    metrics_sample(t, "conclave_bot_searches", NULL, (double)ls.bots_thinking);
    metrics_family(t, "conclave_rooms_restored_total", "counter",
                   "Rooms rebuilt from their journals when the server started.");
    metrics_sample(t, "conclave_rooms_restored_total", NULL, (double)ls.restored);
    metrics_family(t, "conclave_rooms_sleeping", "gauge",
                   "Rooms asleep on disk (counted in conclave_rooms too).");
    metrics_sample(t, "conclave_rooms_sleeping", NULL, (double)ls.sleeping);
    metrics_family(t, "conclave_rooms_woken_total", "counter",
                   "Rooms woken from their journals by a spectate or a resume.");
    metrics_sample(t, "conclave_rooms_woken_total", NULL, (double)ls.woken);
}

/* A family with one sample per transport. */
static void by_transport(struct metrics_text *t, const char *name, const char *type,
                         const char *help, const uint64_t v[NET_NTRANSPORTS])
{
    metrics_family(t, name, type, help);
    for (int k = 0; k < NET_NTRANSPORTS; k++) {
        const struct metrics_label l[] = {{"transport", net_transport_names[k]}, {NULL, NULL}};
        metrics_sample(t, name, l, (double)v[k]);
    }
}

static void metrics_net(struct metrics_text *t, struct net_server *srv, const struct sess_hub *hub)
{
    struct net_stats ns = net_server_stats(srv);
    const struct sess_stats *ss = &hub->stats;

    by_transport(t, "conclave_connections", "gauge", "Client connections open, by transport.",
                 ns.open);
    by_transport(t, "conclave_connections_accepted_total", "counter",
                 "Client connections the limits admitted, by transport.", ns.accepted);
    by_transport(t, "conclave_connections_refused_total", "counter",
                 "Client connections the limits turned away, by transport.", ns.refused);
    by_transport(t, "conclave_received_bytes_total", "counter",
                 "Protocol bytes received from clients, by transport.", ns.bytes_in);
    by_transport(t, "conclave_sent_bytes_total", "counter",
                 "Protocol bytes sent to clients, by transport.", ns.bytes_out);
    metrics_family(t, "conclave_requests_total", "counter", "Request lines handled.");
    metrics_sample(t, "conclave_requests_total", NULL, (double)ss->requests);
    metrics_family(t, "conclave_requests_refused_total", "counter",
                   "Requests answered with an error, by error code.");
    for (int c = 1; c < PROTO_ERR__COUNT; c++) {
        if (ss->refused[c]) {
            const struct metrics_label l[] = {{"code", proto_err_name(c)}, {NULL, NULL}};
            metrics_sample(t, "conclave_requests_refused_total", l, (double)ss->refused[c]);
        }
    }
    metrics_family(t, "conclave_rate_limited_total", "counter",
                   "Requests refused for going over a connection's request rate.");
    metrics_sample(t, "conclave_rate_limited_total", NULL, (double)ss->rate_limited);
    metrics_family(t, "conclave_act_requests_total", "counter",
                   "`act` requests, by result: ok, or the error code of the refusal.");
    {
        const struct metrics_label l[] = {{"result", "ok"}, {NULL, NULL}};
        metrics_sample(t, "conclave_act_requests_total", l, (double)ss->acts);
    }
    for (int c = 1; c < PROTO_ERR__COUNT; c++) {
        if (ss->act_refused[c]) {
            const struct metrics_label l[] = {{"result", proto_err_name(c)}, {NULL, NULL}};
            metrics_sample(t, "conclave_act_requests_total", l, (double)ss->act_refused[c]);
        }
    }
}

/* With --agones-allocator: the lookups of rooms in the fleet. */
static void metrics_fleet(struct metrics_text *t, const struct allocator *alloc)
{
    static const char *const answers[] = {"elsewhere", "nowhere", "failed"};
    struct allocator_stats as;

    allocator_stats(alloc, &as);
    metrics_family(t, "conclave_fleet_lookups_total", "counter",
                   "Rooms looked for in the fleet, by answer: held by another server, by "
                   "none, or the allocator could not be asked.");
    for (int k = 0; k < 3; k++) {
        const struct metrics_label l[] = {{"answer", answers[k]}, {NULL, NULL}};
        metrics_sample(t, "conclave_fleet_lookups_total", l, (double)as.answers[k]);
    }
    metrics_family(t, "conclave_fleet_lookups", "gauge", "Lookups in the fleet under way.");
    metrics_sample(t, "conclave_fleet_lookups", NULL, (double)as.pending);
}

/* Without --notify off: the notices sent, by target and outcome. */
static void metrics_notices(struct metrics_text *t, const struct notifier *n)
{
    struct notifier_stats ns;

    notifier_stats(n, &ns);
    metrics_family(t, "conclave_notices_total", "counter",
                   "Notices to players who are not there, by target: webhooks and Web Push "
                   "messages asked.");
    const struct metrics_label hook[] = {{"to", "webhook"}, {NULL, NULL}};
    const struct metrics_label push[] = {{"to", "push"}, {NULL, NULL}};
    metrics_sample(t, "conclave_notices_total", hook, (double)ns.webhooks);
    metrics_sample(t, "conclave_notices_total", push, (double)ns.pushes);
    metrics_family(t, "conclave_notices_delivered_total", "counter",
                   "Notices by outcome: answered 2xx, or failed (answered otherwise, or not at "
                   "all).");
    const struct metrics_label ok[] = {{"outcome", "delivered"}, {NULL, NULL}};
    const struct metrics_label failed[] = {{"outcome", "failed"}, {NULL, NULL}};
    metrics_sample(t, "conclave_notices_delivered_total", ok, (double)ns.delivered);
    metrics_sample(t, "conclave_notices_delivered_total", failed, (double)ns.failed);
    metrics_family(t, "conclave_push_gone_total", "counter",
                   "Web Push subscriptions dropped because their push service said they are "
                   "gone.");
    metrics_sample(t, "conclave_push_gone_total", NULL, (double)ns.gone);
}

/* The lobby's, the transports' and the store's counters, and the
 * process's memory, in the Prometheus text format. */
static int metrics_write(void *ctx, char **ret_text, size_t *ret_len)
{
    struct runtime *rt = ctx;
    struct metrics_text t = {0};
    struct store_stats ss = store_stats(rt->store);

    metrics_net(&t, rt->srv, rt->hub);
    metrics_lobby(&t, rt->lobby);
    if (rt->alloc) {
        metrics_fleet(&t, rt->alloc);
    }
    if (rt->notifier) {
        metrics_notices(&t, rt->notifier);
    }
    metrics_store(&t, &ss);
    metrics_family(&t, "process_resident_memory_bytes", "gauge", "Resident memory size in bytes.");
    metrics_sample(&t, "process_resident_memory_bytes", NULL, resident_bytes());
    if (t.err || !t.data) {
        metrics_text_free(&t);
        return -1;
    }
    *ret_text = t.data;
    *ret_len = t.len;
    return 0;
}

/* ---- The bots' searches and the lobby ----
 * The lobby hands a search to the pool; its answer comes back here, on the
 * loop, and goes to the lobby, which plays it if it still applies. */

static void bots_think(void *ctx, struct bot_job *job)
{
    bot_pool_submit(((struct runtime *)ctx)->bots, job);
}

static void bots_done(void *ud, struct bot_job *job)
{
    struct runtime *rt = ud;

    if (rt->stopping) {
        /* Stopping: nothing more is played; the seat moves after restart. */
        json_decref(job->action);
        job->action = NULL;
    }
    lobby_bot_done(rt->lobby, job, uv_now(rt->loop));
    if (!rt->stopping) {
        net_due_poke(rt->srv);
    }
}

/* ---- Notices ---- */

/* A push service said a subscription is gone: the seat forgets it. */
static void push_gone(void *arg, const char *room, int seat, const char *endpoint)
{
    struct runtime *rt = arg;

    lobby_push_gone(rt->lobby, room, seat, endpoint, uv_now(rt->loop));
    net_due_poke(rt->srv);
}

/* The notices' client and VAPID key (in the data directory); the lobby
 * then takes seats' targets. A server that cannot start them runs
 * without notices, and says why. */
static void notices_start(struct runtime *rt, struct options *o, const char *web_url)
{
    const char *allow[NOTIFY_ALLOW_MAX + 1] = {NULL};
    char key_path[PATH_MAX + 16], contact[600], err[256] = "";

    for (unsigned i = 0; i < o->nallow; i++) {
        allow[i] = o->notify_allow[i];
    }
    if (!o->public_url[0] && web_url[0]) {
        snprintf(o->public_url, sizeof(o->public_url), "%s%s", web_url,
                 web_url[strlen(web_url) - 1] == '/' ? "" : "/");
    }
    snprintf(key_path, sizeof(key_path), "%s/vapid.pem", o->data_dir);
    snprintf(contact, sizeof(contact), "%s",
             o->notify_contact[0]                         ? o->notify_contact
             : strncmp(o->public_url, "https://", 8) == 0 ? o->public_url
                                                          : "mailto:operator@localhost");
    struct notifier_config nc = {
        .loop = rt->loop,
        .key_path = key_path,
        .allow = o->nallow ? allow : NULL,
        .ca_file = o->notify_ca[0] ? o->notify_ca : NULL,
        .contact = contact,
    };
    rt->notifier = notifier_new(&nc, push_gone, rt, err, sizeof(err));
    if (!rt->notifier) {
        char q[LOG_QUOTE_MAX];
        log_event(LOG_WARN, "notices_off", "cause=%s", log_quote(q, sizeof(q), err));
        return;
    }
    struct lobby_notifier ln = {
        .check = notifier_check,
        .send = notifier_send,
        .push_key = notifier_push_key(rt->notifier),
        .public_url = o->public_url,
        .ctx = rt->notifier,
    };
    lobby_set_notifier(rt->lobby, &ln);
}

/* ---- Rooms held elsewhere in the fleet (--agones-allocator) ---- */

static void alloc_done(void *arg, enum allocator_answer answer, const char *server, const char *web)
{
    struct sess *s = arg;
    struct runtime *rt = s->finder->ctx;

    sess_found(s,
               answer == ALLOCATOR_FOUND       ? SESS_FOUND_ELSEWHERE
               : answer == ALLOCATOR_NOT_FOUND ? SESS_FOUND_NOWHERE
                                               : SESS_FOUND_UNKNOWN,
               server, web);
    /* The lines that waited may have made work for later. */
    net_due_poke(rt->srv);
}

static void *alloc_find(void *ctx, const char *code, struct sess *s)
{
    struct runtime *rt = ctx;

    return allocator_find(rt->alloc, code, alloc_done, s);
}

static void alloc_cancel(void *ctx, void *handle)
{
    (void)ctx;
    allocator_cancel(handle);
}

static void agones_told(void *ud)
{
    struct runtime *rt = ud;

    agones_close(rt->agones);
}

/* Stops everything: connections (after their pending writes), bots, the
 * journal (its last records flushed), and with --agones tells the sidecar
 * the server is going away. */
static void stop_all(struct runtime *rt)
{
    rt->stopping = true;
    bot_pool_stop_all(rt->bots);
    uv_close((uv_handle_t *)&rt->sigint, NULL);
    uv_close((uv_handle_t *)&rt->sigterm, NULL);
    net_server_stop(rt->srv, 1500);
    if (rt->web) {
        web_server_stop(rt->web, 1500);
    }
    store_stop(rt->store);
    allocator_close(rt->alloc);
    if (rt->notifier) {
        notifier_close(rt->notifier, NULL, NULL);
    }
    if (rt->agones) {
        uv_close((uv_handle_t *)&rt->fleet, NULL);
        agones_shutdown(rt->agones, agones_told, rt);
    }
}

/* Every half second with --agones: the rooms held go to the sidecar and,
 * while draining, the server stops once no game runs or the drain is over. */
static void on_fleet(uv_timer_t *t)
{
    struct runtime *rt = t->data;
    char(*codes)[PROTO_ROOM_CODE_LEN + 1] = NULL;
    size_t n = lobby_room_codes(rt->lobby, NULL, 0);

    if (n == 0 || (codes = calloc(n, sizeof(*codes)))) {
        lobby_room_codes(rt->lobby, codes, n);
        agones_rooms(rt->agones, (const char(*)[AGONES_CODE_LEN + 1]) codes, n);
        free(codes);
    }
    if (rt->drain_until) {
        struct lobby_stats ls;
        uint64_t playing = 0;
        lobby_stats(rt->lobby, &ls);
        for (unsigned g = 0; g < ls.ngames; g++) {
            playing += ls.rooms[g][ROOM_PLAYING];
        }
        if (playing == 0 || uv_now(rt->loop) >= rt->drain_until) {
            log_event(LOG_INFO, "drained", "games_running=%llu", (unsigned long long)playing);
            stop_all(rt);
        }
    }
}

static void on_signal(uv_signal_t *sig, int signum)
{
    struct runtime *rt = sig->data;

    if (rt->stopping) {
        return;
    }
    if (rt->agones && signum == SIGTERM && !rt->drain_until) {
        /* Agones asks a game server to go with SIGTERM: no new rooms, and
         * the games under way go on until they end or the drain is over.
         * A second signal stops at once. */
        log_event(LOG_INFO, "draining", "signal=%d timeout_s=%llu", signum,
                  (unsigned long long)(rt->drain_ms / 1000));
        lobby_set_draining(rt->lobby, true);
        rt->drain_until = uv_now(rt->loop) + rt->drain_ms + 1;
        on_fleet(&rt->fleet);
        return;
    }
    log_event(LOG_INFO, "stopping", "signal=%d", signum);
    stop_all(rt);
}

/* Descriptors the server needs besides one per connection and the
 * journals it keeps open (STORE_MAX_OPEN, and one a write job opens
 * beyond them): the listener, the loop's own, the log, a journal being
 * read, the thread pool's. */
#define FD_MARGIN 64

/* Raises the soft limit on open files to the hard one, and checks that a
 * connection for every one allowed and the journals fit in it. 0, or -1
 * after saying what does not fit. */
static int fd_limit_ready(const struct options *o)
{
    struct rlimit rl;
    uint64_t journals = o->lobby.max_rooms < STORE_MAX_OPEN ? o->lobby.max_rooms : STORE_MAX_OPEN;
    uint64_t need = (uint64_t)o->net.max_conns + journals + 1 + FD_MARGIN;

    if (getrlimit(RLIMIT_NOFILE, &rl) != 0) {
        fprintf(stderr, "conclaved: cannot read the open-file limit: %s\n", strerror(errno));
        return -1;
    }
    if (rl.rlim_cur < rl.rlim_max) {
        rlim_t was = rl.rlim_cur;
        rl.rlim_cur = rl.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &rl) != 0) {
            rl.rlim_cur = was;
        }
    }
    if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < need) {
        fprintf(stderr,
                "conclaved: %llu connections + %llu journals kept open + %d for the "
                "server need %llu open files, and this process may open %llu (ulimit -n; "
                "hard limit %llu): lower --max-connections, or raise the "
                "limit\n",
                (unsigned long long)o->net.max_conns, (unsigned long long)journals + 1, FD_MARGIN,
                (unsigned long long)need, (unsigned long long)rl.rlim_cur,
                (unsigned long long)rl.rlim_max);
        return -1;
    }
    return 0;
}

static void on_probe_closed(uv_handle_t *h)
{
    free(h);
}

/* Why HOST:PORT cannot be listened on, found by trying it: 0 when it can
 * be (the failure lay elsewhere), else a libuv error code. libwebsockets
 * reports a failed listen without its cause; this names it. */
static int listen_probe(uv_loop_t *loop, const char *host, int port)
{
    struct sockaddr_storage ss;
    uv_tcp_t *t = malloc(sizeof(*t));
    int rc;

    if (!t) {
        return UV_ENOMEM;
    }
    if (uv_ip4_addr(host, port, (struct sockaddr_in *)&ss) != 0 &&
        uv_ip6_addr(host, port, (struct sockaddr_in6 *)&ss) != 0) {
        free(t);
        return UV_EINVAL;
    }
    uv_tcp_init(loop, t);
    rc = uv_tcp_bind(t, (struct sockaddr *)&ss, 0);
    if (rc == 0) {
        rc = uv_listen((uv_stream_t *)t, 1, NULL);
    }
    uv_close((uv_handle_t *)t, on_probe_closed);
    return rc;
}

/* Says that conclaved cannot `what` HOST:PORT, why (`rc`, a libuv error
 * code, 0 when unknown), and, for a port that is taken, which option (and
 * which `make run` variable) picks another. */
static void listen_failed(const char *what, const char *host, int port, int rc, const char *option,
                          const char *make_var)
{
    bool v6 = strchr(host, ':') != NULL;

    fprintf(stderr, "conclaved: cannot %s %s%s%s:%d", what, v6 ? "[" : "", host, v6 ? "]" : "",
            port);
    if (rc != 0) {
        fprintf(stderr, ": %s", uv_strerror(rc));
    }
    if (rc == UV_EADDRINUSE) {
        fprintf(stderr,
                "\n  another program (another conclaved?) listens there: pick another port "
                "with %s HOST:PORT (make run %s=HOST:PORT), or stop that program",
                option, make_var);
    } else if (rc == UV_EACCES) {
        fprintf(stderr,
                "\n  ports below 1024 need root: pick another with %s HOST:PORT "
                "(make run %s=HOST:PORT)",
                option, make_var);
    } else if (rc == UV_EADDRNOTAVAIL) {
        fprintf(stderr,
                "\n  no interface of this machine has that address: pick another with %s "
                "HOST:PORT (make run %s=HOST:PORT)",
                option, make_var);
    }
    fputc('\n', stderr);
}

int main(int argc, char **argv)
{
    struct options opt;
    struct runtime rt;
    struct lobby *lobby;
    struct sess_hub hub;
    uv_loop_t loop;
    char bound[300];
    int rc;

    options_default(&opt);
    if (parse_args(&opt, argc, argv) != 0) {
        fputs(usage, stderr);
        return 2;
    }
    log_set_level(opt.log_level);
    if (sodium_init() < 0) {
        fprintf(stderr, "conclaved: libsodium failed to initialise\n");
        return 1;
    }
    if (opt.tls_self_signed && (opt.web.tls_cert[0] || opt.web.tls_key[0])) {
        fprintf(stderr, "conclaved: --tls-self-signed makes its own certificate: give it or "
                        "--tls-cert and --tls-key, not both\n");
        return 2;
    }
    if (opt.tls_self_signed && !opt.http) {
        fprintf(stderr, "conclaved: --tls-self-signed needs --http HOST:PORT\n");
        return 2;
    }
    if (opt.http && (opt.web.tls_cert[0] != '\0') != (opt.web.tls_key[0] != '\0')) {
        fprintf(stderr, "conclaved: --tls-cert and --tls-key go together\n");
        return 2;
    }
    if (!opt.http && (opt.web.tls_cert[0] || opt.web.web_dir[0] || opt.web.norigins)) {
        fprintf(stderr, "conclaved: --tls-cert, --tls-key, --web-dir and --allow-origin need "
                        "--http HOST:PORT\n");
        return 2;
    }
    if (fd_limit_ready(&opt) != 0 || data_dir_ready(opt.data_dir) != 0 ||
        (opt.tls_self_signed && self_signed_ready(&opt) != 0)) {
        return 1;
    }
    signal(SIGPIPE, SIG_IGN);
    lobby = lobby_new(&opt.lobby);
    if (!lobby || uv_loop_init(&loop) != 0) {
        fprintf(stderr, "conclaved: out of memory\n");
        lobby_free(lobby);
        return 1;
    }
    memset(&rt, 0, sizeof(rt));
    rt.lobby = lobby;
    snprintf(opt.store.dir, sizeof(opt.store.dir), "%s", opt.data_dir);
    const struct store_hooks hooks = {
        .durable = journal_durable,
        .restore = journal_restore,
        .failing = journal_failing,
        .ctx = &rt,
    };
    rc = store_open(&loop, &opt.store, &hooks, &rt.store);
    if (rc != 0) {
        fprintf(stderr, "conclaved: cannot open the journal in %s: %s\n", opt.data_dir,
                strerror(-rc));
        lobby_free(lobby);
        uv_loop_close(&loop);
        return 1;
    }
    {
        const struct lobby_store ops = {
            .append = store_append,
            .forget = store_forget,
            .read = store_read,
            .release = store_release,
            .ctx = rt.store,
        };
        lobby_set_store(lobby, &ops);
        int n = store_load(rt.store, uv_now(&loop));
        if (n > 0) {
            char q[LOG_QUOTE_MAX];
            log_event(LOG_INFO, "rooms_restored", "rooms=%d data_dir=%s", n,
                      log_quote(q, sizeof(q), opt.data_dir));
        }
    }
    rt.loop = &loop;
    rt.bots = bot_pool_new(&loop, opt.bot_threads, bots_done, &rt);
    if (!rt.bots) {
        fprintf(stderr, "conclaved: out of memory\n");
        store_stop(rt.store);
        uv_run(&loop, UV_RUN_DEFAULT);
        store_free(rt.store);
        lobby_free(lobby);
        uv_loop_close(&loop);
        return 1;
    }
    lobby_set_bots(lobby, &(const struct lobby_bots){.think = bots_think, .ctx = &rt});
    opt.sess.idle_ms = opt.net.idle_ms;
    sess_hub_init(&hub, lobby, &opt.sess);
    rt.hub = &hub;
    opt.web.metrics = metrics_write;
    opt.web.metrics_ctx = &rt;
    rc = net_server_start(&loop, &opt.net, &hub, &rt.srv, bound, sizeof(bound));
    if (rc != 0) {
        listen_failed("listen on", opt.net.host, opt.net.port, rc, "--listen", "LISTEN");
        store_stop(rt.store);
        uv_run(&loop, UV_RUN_DEFAULT);
        bot_pool_free(rt.bots);
        store_free(rt.store);
        lobby_free(lobby);
        uv_loop_close(&loop);
        return 1;
    }
    char url[400] = "";
    if (opt.http && web_server_start(&loop, &opt.web, rt.srv, &rt.web, url, sizeof(url)) != 0) {
        /* The loop must not run again (web.h): leave at once. Nothing has
         * been accepted yet, and the journals are as they were read. */
        rc = listen_probe(&loop, opt.web.host, opt.web.port);
        listen_failed("serve HTTP on", opt.web.host, opt.web.port, rc, "--http", "HTTP");
        if (rc == 0 && opt.web.tls_cert[0]) {
            fprintf(stderr, "  the port is free: check that --tls-cert and --tls-key are a PEM "
                            "certificate and its key (the log says what failed)\n");
        }
        fflush(NULL);
        _exit(1);
    }
    /* The leaf the listener presents, as the first certificate of its
     * file: libwebsockets has just loaded that file. */
    char sha256[SELFSIGNED_SHA256_LEN] = "";
    if (rt.web && opt.web.tls_cert[0]) {
        char why[PATH_MAX + 128] = "";
        if (selfsigned_fingerprint(opt.web.tls_cert, sha256, why, sizeof(why)) != 0) {
            fprintf(stderr, "conclaved: %s\n", why);
            fflush(NULL);
            _exit(1);
        }
    }
    if (!opt.notify_off) {
        notices_start(&rt, &opt, url);
    }
    /* The allocator's client is made last: libwebsockets keeps the client
     * TLS context it makes only for the last context to set up TLS (the
     * others are given their own: lwstls.h). */
    if (opt.alloc_cfg.url[0]) {
        char err[256] = "";
        const char *self = getenv("HOSTNAME");
        snprintf(opt.alloc_cfg.self, sizeof(opt.alloc_cfg.self), "%s", self ? self : "");
        rt.alloc = allocator_new(&loop, &opt.alloc_cfg, err);
        if (!rt.alloc) {
            fprintf(stderr, "conclaved: --agones-allocator: %s\n", err);
            fflush(NULL);
            _exit(1);
        }
        rt.finder = (struct sess_finder){.find = alloc_find, .cancel = alloc_cancel, .ctx = &rt};
        sess_hub_set_finder(&hub, &rt.finder);
    }
    uv_signal_init(&loop, &rt.sigint);
    uv_signal_init(&loop, &rt.sigterm);
    rt.sigint.data = &rt;
    rt.sigterm.data = &rt;
    uv_signal_start(&rt.sigint, on_signal, SIGINT);
    uv_signal_start(&rt.sigterm, on_signal, SIGTERM);

    if (opt.agones) {
        const char *port = getenv("AGONES_SDK_HTTP_PORT");
        if (port && atoi(port) > 0 && atoi(port) < 65536) {
            opt.agones_cfg.port = atoi(port);
        }
        rt.drain_ms = opt.drain_ms;
        rt.agones = agones_new(&loop, &opt.agones_cfg);
        if (rt.agones) {
            uv_timer_init(&loop, &rt.fleet);
            rt.fleet.data = &rt;
            uv_timer_start(&rt.fleet, on_fleet, 500, 500);
            agones_ready(rt.agones);
        }
    }
    if (opt.lobby.abandoned_ttl_ms) {
        /* Running games nobody is connected to are dropped, records and
         * all: operators who set it are told at every start. */
        log_event(LOG_WARN, "abandoned_games_dropped", "after_s=%llu",
                  (unsigned long long)(opt.lobby.abandoned_ttl_ms / 1000));
    }
    printf("listening on %s\n", bound);
    if (rt.web) {
        printf("http on %s\n", url);
        log_event(LOG_INFO, "http_listening", "url=%s", url);
    }
    if (sha256[0]) {
        char q[LOG_QUOTE_MAX];
        printf("certificate SHA256:%s\n", sha256);
        log_event(LOG_INFO, "tls_certificate", "sha256=%s cert=%s", sha256,
                  log_quote(q, sizeof(q), opt.web.tls_cert));
    }
    fflush(stdout);
    {
        char q[LOG_QUOTE_MAX];
        log_event(LOG_INFO, "listening", "version=%s addr=%s data_dir=%s", CONCLAVE_VERSION, bound,
                  log_quote(q, sizeof(q), opt.data_dir));
    }

    uv_run(&loop, UV_RUN_DEFAULT);

    struct store_stats ss = store_stats(rt.store);
    log_event(LOG_INFO, "journal_summary",
              "records=%llu writes=%llu fsyncs=%llu failed_writes=%llu refused=%llu "
              "job_ms_p50=%.3f job_ms_p99=%.3f checkpoints=%llu loop_jobs=%llu",
              (unsigned long long)ss.records, (unsigned long long)ss.writes,
              (unsigned long long)ss.fsyncs, (unsigned long long)ss.failures,
              (unsigned long long)ss.refused, (double)store_job_quantile_us(&ss, 0.5) / 1000,
              (double)store_job_quantile_us(&ss, 0.99) / 1000, (unsigned long long)ss.checkpoints,
              (unsigned long long)ss.loop_jobs);
    web_server_free(rt.web);
    agones_free(rt.agones);
    allocator_free(rt.alloc);
    notifier_free(rt.notifier);
    net_server_free(rt.srv);
    bot_pool_free(rt.bots);
    store_free(rt.store);
    lobby_free(lobby);
    rc = uv_loop_close(&loop);
    log_event(LOG_INFO, "stopped", "status=%d", rc == 0 ? 0 : 1);
    return rc == 0 ? 0 : 1;
}
