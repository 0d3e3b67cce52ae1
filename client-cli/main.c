/* SPDX-License-Identifier: MIT */
/*
 * main.c - `conclave`, the reference client: create, join, spectate or
 * resume a room and play it from the terminal, list public rooms and
 * finished games, fetch and replay a record, or (--json) pass NDJSON
 * between stdin/stdout and the server.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "client.h"
#include "game.h"
#include "lang.h"

static const char usage[] =
    N_("usage: conclave [--server HOST:PORT] [--name NAME] [--json] COMMAND\n"
       "\n"
       "Commands:\n"
       "  create GAME [--seats N] [--bots] [--bot-level LEVEL] [--public] [--clock CLOCK]\n"
       "              [--timeout bot|lose|skip] [--option KEY=VALUE]...\n"
       "                      open a room (you take seat 0 and host it); --bots starts\n"
       "                      at once with bots in the empty seats; --bot-level sets the\n"
       "                      room's bot level (random, easy, normal, hard; the server's\n"
       "                      default is normal), also for a bot that keeps a seat\n"
       "                      --clock gives the room turn clocks: fischer:10m+5s (base\n"
       "                      and increment), bank:30s/5m (free time per move, then a\n"
       "                      bank), correspondence:1d/3d (time per move, up to a bank);\n"
       "                      units s, m, h, d; --timeout says what running out of time\n"
       "                      does: bot (a bot plays the seat of a player who is not\n"
       "                      there; the default), lose (two seats) or skip (the turn)\n"
       "  join CODE [--seat N]   take a seat in a friend's room; CODE may be a link,\n"
       "                      CODE@HOST:PORT#sha256=HEX (a server over TLS, its certificate)\n"
       "  spectate CODE       watch a room\n"
       "  resume              go back to your last seat (token kept in\n"
       "                      $XDG_STATE_HOME/conclave/session.json)\n"
       "  list                public rooms waiting for players, and public games that\n"
       "                      finished lately\n"
       "  info                the games this server offers, with their options\n"
       "  games               every seat saved here, on every server, and whose turn it is\n"
       "  wait [CODE]         wait until it is your turn at a saved seat (of room CODE)\n"
       "                      and print it: exit 0, or 3 once every game is over\n"
       "  record CODE [FILE]  a finished game's record, from anywhere: saved to FILE (for\n"
       "                      `conclave replay FILE`), or printed\n"
       "  replay RECORD.json  check a finished game's record with the rules engine\n"
       "\n"
       "Options:\n"
       "  --server HOST:PORT  default $CONCLAVE_SERVER or 127.0.0.1:7717; wss://HOST:PORT\n"
       "                      plays over WebSocket with TLS (the server's --http with a\n"
       "                      certificate): a certificate that no authority vouches for is\n"
       "                      trusted on first use and must stay the same (kept in\n"
       "                      $XDG_STATE_HOME/conclave/known_servers.json)\n"
       "  --pin SHA256:HEX    trust the wss:// server's certificate with this SHA-256 (the\n"
       "                      one conclaved prints at start), and only it\n"
       "  --ca FILE           trust certificates signed by the authority in FILE (PEM) too\n"
       "  --name NAME         default $CONCLAVE_NAME or $USER\n"
       "  (CONCLAVE_BELL=0 turns off the bell that rings when it becomes your turn;\n"
       "  NO_COLOR turns off colours)\n"
       "  --lang en|zh-CN     the language of what conclave writes (default $CONCLAVE_LANG,\n"
       "                      else the terminal's locale: $LC_ALL, $LC_MESSAGES, $LANG)\n"
       "  --json              scripted mode: after the command (or straight away when\n"
       "                      there is none, without hello), stdin lines go to the server\n"
       "                      and server lines to stdout\n"
       "\n"
       "Example: conclave create stones --seats 2, share the code it prints,\n"
       "         your friend runs: conclave join K7QF2M\n");

struct args {
    const char *server;
    const char *name;
    bool json;
    const char *cmd;
    const char *arg;
    const char *file; /* record CODE FILE */
    const char *pin;  /* --pin, or a link's #sha256= */
    const char *ca;   /* --ca */
    char link_code[PROTO_ROOM_CODE_LEN + 8];
    char link_server[CLI_SERVER_MAX];
    char link_pin[80];
    int seats;
    int seat;
    bool bots;
    bool is_public;
    bool name_given;   /* --name (or $CONCLAVE_NAME) rather than the default */
    bool server_given; /* --server (or $CONCLAVE_SERVER) */
    json_t *options;
    json_t *early; /* events that came before the command's reply */
};

static int parse_option(json_t *options, const char *kv)
{
    const char *eq = strchr(kv, '=');
    char key[64];
    json_error_t err;
    json_t *val;

    if (!eq || eq == kv || (size_t)(eq - kv) >= sizeof(key)) {
        fprintf(stderr, _("conclave: --option takes KEY=VALUE\n"));
        return -1;
    }
    memcpy(key, kv, (size_t)(eq - kv));
    key[eq - kv] = '\0';
    /* Numbers, booleans and JSON values as such; anything else a string. */
    val = json_loads(eq + 1, JSON_DECODE_ANY, &err);
    if (!val) {
        val = json_string(eq + 1);
    }
    return json_object_set_new(options, key, val);
}

/* A whole number from `min` to `max` for option `opt`, or -1 after
 * saying what was wrong. */
static int parse_count(const char *opt, const char *s, long min, long max, int *ret)
{
    char *end;
    long v;

    errno = 0;
    v = s && *s ? strtol(s, &end, 10) : 0;
    if (!s || !*s || errno || *end || v < min || v > max) {
        fprintf(stderr, _("conclave: %s takes a whole number from %ld to %ld, not \"%s\"\n"), opt,
                min, max, s ? s : "");
        return -1;
    }
    *ret = (int)v;
    return 0;
}

/* A duration "90", "90s", "10m", "2h" or "3d" in seconds, or -1. */
static long long duration_s(const char *s, const char **end)
{
    char *e;
    long long v = strtoll(s, &e, 10);
    long long unit = 1;

    if (e == s || v < 0 || s[0] == '-' || s[0] == '+') {
        return -1;
    }
    switch (*e) {
    case 's':
        e++;
        break;
    case 'm':
        unit = 60;
        e++;
        break;
    case 'h':
        unit = 3600;
        e++;
        break;
    case 'd':
        unit = 86400;
        e++;
        break;
    default:
        break;
    }
    *end = e;
    return v > 366LL * 86400 ? -1 : v * unit;
}

/* The room option "clock" of `--clock SPEC`, or NULL after saying why. */
static json_t *clock_spec(const char *spec)
{
    static const struct {
        const char *type, *first, *second;
        char sep;
    } kinds[] = {
        {"fischer", "base", "increment", '+'},
        {"bank", "move", "bank", '/'},
        {"correspondence", "per_move", "bank", '/'},
    };
    const char *colon = strchr(spec, ':');

    for (size_t k = 0; colon && k < sizeof(kinds) / sizeof(kinds[0]); k++) {
        if (strlen(kinds[k].type) != (size_t)(colon - spec) ||
            strncmp(spec, kinds[k].type, (size_t)(colon - spec)) != 0) {
            continue;
        }
        const char *p = colon + 1;
        long long a = duration_s(p, &p), b = 0;
        if (a >= 0 && *p == kinds[k].sep) {
            b = duration_s(p + 1, &p);
        }
        if (a < 0 || b < 0 || *p != '\0') {
            break;
        }
        json_t *o = json_pack("{s:s, s:I}", "type", kinds[k].type, kinds[k].first, (json_int_t)a);
        if (o && b > 0) {
            json_object_set_new(o, kinds[k].second, json_integer(b));
        }
        return o;
    }
    fprintf(stderr,
            _("conclave: --clock takes fischer:BASE+INCREMENT, bank:MOVE/BANK or "
              "correspondence:PER_MOVE/BANK (units s, m, h, d), not \"%s\"\n"),
            spec);
    return NULL;
}

/* A join link, CODE@HOST:PORT (plain TCP) or CODE@HOST:PORT#sha256=HEX
 * (TLS, that certificate), or CODE@wss://HOST:PORT[#sha256=HEX]: the
 * room, its server and the certificate's pin. 0 or -1 with a message. */
static int link_parse(struct args *a)
{
    const char *at = strchr(a->arg, '@');
    const char *hash = strstr(at, "#sha256=");
    size_t cl = (size_t)(at - a->arg);
    size_t sl = hash ? (size_t)(hash - at - 1) : strlen(at + 1);
    bool tls = hash || strncmp(at + 1, "wss://", 6) == 0;
    unsigned char fp[32];

    if (cl >= sizeof(a->link_code) || sl == 0 || sl + 6 >= sizeof(a->link_server) ||
        (hash &&
         (strlen(hash + 8) >= sizeof(a->link_pin) || cli_fingerprint_parse(hash + 8, fp) != 0))) {
        fprintf(stderr,
                _("conclave: a join link is CODE@HOST:PORT, with #sha256=<64 hex digits> for a "
                  "server over TLS, not %s\n"),
                a->arg);
        return -1;
    }
    memcpy(a->link_code, a->arg, cl);
    a->link_code[cl] = '\0';
    snprintf(a->link_server, sizeof(a->link_server), "%s%.*s",
             tls && strncmp(at + 1, "wss://", 6) != 0 ? "wss://" : "", (int)sl, at + 1);
    if (hash) {
        snprintf(a->link_pin, sizeof(a->link_pin), "SHA256:%s", hash + 8);
        a->pin = a->link_pin;
    }
    a->arg = a->link_code;
    a->server = a->link_server;
    a->server_given = true;
    return 0;
}

static int parse_args(struct args *a, int argc, char **argv)
{
    const char *timeout = NULL;

    memset(a, 0, sizeof(*a));
    a->server = getenv("CONCLAVE_SERVER") ? getenv("CONCLAVE_SERVER") : "127.0.0.1:7717";
    a->server_given = getenv("CONCLAVE_SERVER") != NULL;
    a->name = getenv("CONCLAVE_NAME") ? getenv("CONCLAVE_NAME")
                                      : (getenv("USER") ? getenv("USER") : "player");
    a->name_given = getenv("CONCLAVE_NAME") != NULL;
    a->seat = -1;
    a->options = json_object();
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(s, "--help") == 0 || strcmp(s, "-h") == 0) {
            fputs(_(usage), stdout);
            exit(0);
        } else if (strcmp(s, "--json") == 0) {
            a->json = true;
        } else if (strcmp(s, "--bots") == 0) {
            a->bots = true;
        } else if (strcmp(s, "--public") == 0) {
            a->is_public = true;
        } else if ((strcmp(s, "--server") == 0 || strcmp(s, "--name") == 0 ||
                    strcmp(s, "--seats") == 0 || strcmp(s, "--seat") == 0 ||
                    strcmp(s, "--option") == 0 || strcmp(s, "--bot-level") == 0 ||
                    strcmp(s, "--clock") == 0 || strcmp(s, "--timeout") == 0 ||
                    strcmp(s, "--pin") == 0 || strcmp(s, "--ca") == 0 ||
                    strcmp(s, "--lang") == 0) &&
                   (!next || strncmp(next, "--", 2) == 0)) {
            fprintf(stderr, _("conclave: %s needs a value\n"), s);
            return -1;
        } else if (strcmp(s, "--bot-level") == 0) {
            json_object_set_new(a->options, "bot_level", json_string(argv[++i]));
        } else if (strcmp(s, "--clock") == 0) {
            json_t *clock = clock_spec(argv[++i]);
            if (!clock) {
                return -1;
            }
            json_object_set_new(a->options, "clock", clock);
        } else if (strcmp(s, "--timeout") == 0) {
            timeout = argv[++i];
        } else if (strcmp(s, "--lang") == 0) {
            i++; /* chosen before the arguments are read: see main() */
        } else if (strcmp(s, "--pin") == 0) {
            a->pin = argv[++i];
        } else if (strcmp(s, "--ca") == 0) {
            a->ca = argv[++i];
        } else if (strcmp(s, "--server") == 0) {
            a->server = argv[++i];
            a->server_given = true;
        } else if (strcmp(s, "--name") == 0) {
            a->name = argv[++i];
            a->name_given = true;
        } else if (strcmp(s, "--seats") == 0) {
            if (parse_count(s, argv[++i], 1, GAME_MAX_SEATS, &a->seats) != 0) {
                return -1;
            }
        } else if (strcmp(s, "--seat") == 0) {
            if (parse_count(s, argv[++i], 0, GAME_MAX_SEATS - 1, &a->seat) != 0) {
                return -1;
            }
        } else if (strcmp(s, "--option") == 0) {
            if (parse_option(a->options, argv[++i]) != 0) {
                return -1;
            }
        } else if (s[0] == '-') {
            fprintf(stderr, _("conclave: unknown option %s\n"), s);
            return -1;
        } else if (!a->cmd) {
            a->cmd = s;
        } else if (!a->arg) {
            a->arg = s;
        } else if (!a->file && strcmp(a->cmd, "record") == 0) {
            a->file = s;
        } else {
            fprintf(stderr, _("conclave: unexpected argument %s\n"), s);
            return -1;
        }
    }
    if (a->arg && a->cmd && (strcmp(a->cmd, "join") == 0 || strcmp(a->cmd, "spectate") == 0) &&
        strchr(a->arg, '@') && link_parse(a) != 0) {
        return -1;
    }
    if (a->pin && strncmp(a->server, "wss://", 6) != 0) {
        fprintf(stderr, _("conclave: a pin is for a server over TLS, --server wss://HOST:PORT\n"));
        return -1;
    }
    if (timeout) {
        /* The server checks the policy; it is a member of the clock. */
        json_t *clock = json_object_get(a->options, "clock");
        if (!clock) {
            fprintf(stderr, _("conclave: --timeout is for a room with a --clock\n"));
            return -1;
        }
        json_object_set_new(clock, "timeout", json_string(timeout));
    }
    return 0;
}

static void print_error(const json_t *reply)
{
    json_t *e = json_object_get(reply, "error");

    fprintf(stderr, "conclave: %s: %s\n", json_string_value(json_object_get(e, "code")),
            json_string_value(json_object_get(e, "message")));
}

static void print_line(const json_t *m)
{
    char *s = json_dumps(m, JSON_COMPACT);

    if (s) {
        puts(s);
    }
    free(s);
}

/* Events that arrive while a reply is awaited: printed at once in --json
 * mode, kept for the interactive client otherwise. */
static void early_event(void *arg, json_t *ev)
{
    struct args *a = arg;

    if (a->json) {
        print_line(ev);
    } else {
        json_array_append(a->early, ev);
    }
}

/* Sends a request and waits for its reply. New reference or NULL. */
static json_t *roundtrip(struct cli_conn *c, struct args *a, const char *op, json_t *fields)
{
    long id = cli_conn_request(c, op, fields);

    if (id < 0) {
        return NULL;
    }
    return cli_conn_wait_reply(c, id, early_event, a);
}

static int run_games(struct cli_conn *c, const struct args *a, json_t *hello)
{
    size_t i;
    json_t *g;

    if (a->json) {
        print_line(hello);
        return 0;
    }
    json_array_foreach(json_object_get(hello, "games"), i, g) {
        char *opts = json_dumps(json_object_get(g, "options"), JSON_COMPACT);
        printf(_("%-10s %-28s %lld-%lld players  options %s\n"),
               json_string_value(json_object_get(g, "id")),
               json_string_value(json_object_get(g, "title")),
               (long long)json_integer_value(json_object_get(g, "min_players")),
               (long long)json_integer_value(json_object_get(g, "max_players")), opts ? opts : "");
        free(opts);
    }
    const json_t *levels = json_object_get(hello, "bot_levels");
    if (json_array_size(levels) > 0) {
        printf(_("bot levels:"));
        json_array_foreach(levels, i, g) {
            printf(" %s", json_string_value(g));
        }
        printf(_("  (create --bot-level LEVEL, or `start bots LEVEL...`)\n"));
    }
    (void)c;
    return 0;
}

/* `s` seconds as "42 s", "5 min", "3 h" or "12 days". */
static void ago_text(char *out, size_t n, long long s)
{
    static const struct {
        long long unit;
        const char *name;
    } units[] = {{86400, N_("days")}, {3600, N_("h")}, {60, N_("min")}, {1, N_("s")}};
    size_t k = 0;

    while (k < 3 && s < units[k].unit) {
        k++;
    }
    snprintf(out, n, "%lld %s", s / units[k].unit, _(units[k].name));
}

static int run_list(struct cli_conn *c, struct args *a)
{
    json_t *r = roundtrip(c, a, "list", NULL);
    size_t i;
    json_t *room;

    if (r && a->json) {
        print_line(r);
        json_decref(r);
        return 0;
    }
    if (!r || !json_is_true(json_object_get(r, "ok"))) {
        if (r) {
            print_error(r);
        }
        json_decref(r);
        return 1;
    }
    cli_clean(r); /* names are other people's */
    if (json_array_size(json_object_get(r, "rooms")) == 0) {
        printf(_("no public rooms are waiting\n"));
    }
    json_array_foreach(json_object_get(r, "rooms"), i, room) {
        printf(_("%s  %-10s %lld/%lld seats  host %s\n"),
               json_string_value(json_object_get(room, "room")),
               json_string_value(json_object_get(room, "game")),
               (long long)json_integer_value(json_object_get(room, "taken")),
               (long long)json_integer_value(json_object_get(room, "seats")),
               json_string_value(json_object_get(room, "host")));
    }
    const json_t *ended = json_object_get(r, "ended");
    if (json_array_size(ended) > 0) {
        printf(_("finished lately (`conclave record CODE FILE` keeps one's record):\n"));
    }
    json_array_foreach(ended, i, room) {
        char names[512], ago[32];
        size_t len = 0, k;
        json_t *name;
        names[0] = '\0';
        json_array_foreach(json_object_get(room, "seats"), k, name) {
            len += (size_t)snprintf(names + len, len < sizeof(names) ? sizeof(names) - len : 0,
                                    "%s%s", k ? ", " : "", json_string_value(name));
        }
        ago_text(ago, sizeof(ago), json_integer_value(json_object_get(room, "ago")));
        printf(_("%s  %-10s %s  ended %s ago\n"), json_string_value(json_object_get(room, "room")),
               json_string_value(json_object_get(room, "game")), names, ago);
    }
    json_decref(r);
    return 0;
}

/* True when session `s` fits what the user said: `resume CODE`,
 * --server, --name. */
static bool session_fits(const json_t *s, const struct args *a)
{
    const char *server = json_string_value(json_object_get(s, "server"));
    const char *room = json_string_value(json_object_get(s, "room"));
    const char *name = json_string_value(json_object_get(s, "name"));
    char code[PROTO_ROOM_CODE_LEN + 1];

    if (!server || !room || !json_is_string(json_object_get(s, "token"))) {
        return false;
    }
    if (a->arg && (proto_room_code_parse(a->arg, code) != 0 || strcmp(code, room) != 0)) {
        return false;
    }
    return (!a->server_given || strcmp(server, a->server) == 0) &&
           (!a->name_given || (name && strcmp(name, a->name) == 0));
}

static void session_print(size_t n, const json_t *s)
{
    printf(_("  %zu) room %s, seat %lld, as %s, on %s\n"), n,
           json_string_value(json_object_get(s, "room")),
           (long long)json_integer_value(json_object_get(s, "seat")),
           json_string_value(json_object_get(s, "name"))
               ? json_string_value(json_object_get(s, "name"))
               : "?",
           json_string_value(json_object_get(s, "server")));
}

/* The saved seat to resume (new reference), asking which when several fit
 * and stdin is a terminal; NULL after saying why not. */
static json_t *session_choose(const struct args *a)
{
    json_t *all = cli_sessions_load();
    json_t *fit = json_array();
    json_t *s, *pick = NULL;
    size_t i;

    json_array_foreach(all, i, s) {
        if (session_fits(s, a)) {
            json_array_append(fit, s);
        }
    }
    json_decref(all);
    if (json_array_size(fit) == 0) {
        fprintf(stderr, _("conclave: no saved seat to resume%s\n"),
                a->arg || a->name_given || a->server_given ? _(" that fits what you asked") : "");
    } else if (json_array_size(fit) == 1) {
        pick = json_incref(json_array_get(fit, 0));
    } else if (!isatty(STDIN_FILENO)) {
        fprintf(stderr, _("conclave: several saved seats fit; say which with `conclave resume "
                          "CODE` (or --name NAME):\n"));
        fflush(stderr);
        json_array_foreach(fit, i, s) {
            session_print(i + 1, s);
        }
    } else {
        char line[64];
        long k = 0;
        printf(_("Several saved seats:\n"));
        json_array_foreach(fit, i, s) {
            session_print(i + 1, s);
        }
        printf(_("Resume which (1-%zu)? "), json_array_size(fit));
        fflush(stdout);
        if (fgets(line, sizeof(line), stdin)) {
            k = strtol(line, NULL, 10);
        }
        if (k >= 1 && (size_t)k <= json_array_size(fit)) {
            pick = json_incref(json_array_get(fit, (size_t)k - 1));
        } else {
            fprintf(stderr, _("conclave: no such choice\n"));
        }
    }
    json_decref(fit);
    return pick;
}

/* Sends `op` (its `fields` are taken) and, while the answer is
 * room_elsewhere, connects to the server it names and asks again there,
 * at most a few times: a fleet of servers looks like one to the player.
 * a->server then names the server that answered (kept in `moved_to`).
 * *status is -1 when a connection failed (the reason is printed). */
static json_t *follow_rooms(struct cli_conn *c, struct args *a, const char *op, json_t *fields,
                            const json_t *saved, char moved_to[CLI_SERVER_MAX], int *status)
{
    json_t *reply = NULL;

    for (int hops = 0;; hops++) {
        json_incref(fields);
        reply = roundtrip(c, a, op, fields);
        const json_t *err = json_object_get(reply, "error");
        const char *code = json_string_value(json_object_get(err, "code"));
        bool tls = strncmp(a->server, "wss://", 6) == 0;
        /* Over TLS, the other server's web listener, over TLS too. */
        const char *there = json_string_value(json_object_get(err, tls ? "web" : "server"));
        if (!code || strcmp(code, "room_elsewhere") != 0 || !there || hops >= 3 ||
            strlen(there) + 6 >= CLI_SERVER_MAX) {
            break;
        }
        if (!a->json) {
            fprintf(stderr, _("conclave: the room is on %s; going there\n"), there);
        }
        if (saved) {
            /* The seat is kept under the server that holds it. */
            (void)cli_session_forget(a->server, json_string_value(json_object_get(saved, "room")),
                                     (int)json_integer_value(json_object_get(saved, "seat")));
        }
        snprintf(moved_to, CLI_SERVER_MAX, "%s%s", tls ? "wss://" : "", there);
        a->server = moved_to;
        json_decref(reply);
        reply = NULL;
        cli_conn_close(c);
        if (cli_conn_open(c, a->server) != 0) {
            *status = -1;
            break;
        }
        reply = roundtrip(c, a, "hello",
                          json_pack("{s:i, s:s}", "proto", PROTO_VERSION, "name", a->name));
        if (!reply || !json_is_true(json_object_get(reply, "ok"))) {
            if (reply) {
                print_error(reply);
            } else {
                fprintf(stderr, _("conclave: no answer from %s\n"), a->server);
            }
            *status = -1;
            break;
        }
        c->idle_timeout_s = (long)json_integer_value(json_object_get(reply, "idle_timeout"));
        json_decref(reply);
        reply = NULL;
    }
    json_decref(fields);
    if (*status == -1) {
        json_decref(reply);
        return NULL;
    }
    return reply;
}

/* `conclave record CODE [FILE]`: the record of the finished game in room
 * `a->arg`, from outside it, saved to a->file or printed. */
static int run_record(struct cli_conn *c, struct args *a, char moved_to[CLI_SERVER_MAX])
{
    int status = 0;
    json_t *r =
        follow_rooms(c, a, "record", json_pack("{s:s}", "room", a->arg), NULL, moved_to, &status);

    if (!r || status != 0) {
        return 1;
    }
    if (a->json) {
        print_line(r);
    } else if (!json_is_true(json_object_get(r, "ok"))) {
        print_error(r);
    } else if (a->file) {
        status = cli_record_save(json_object_get(r, "record"), a->file) == 0 ? 0 : 1;
    } else {
        char *s = json_dumps(json_object_get(r, "record"), JSON_INDENT(1));
        if (s) {
            puts(s);
        }
        free(s);
    }
    if (!json_is_true(json_object_get(r, "ok"))) {
        status = 1;
    }
    json_decref(r);
    return status;
}

int main(int argc, char **argv)
{
    struct args a;
    struct cli_conn c;
    json_t *reply = NULL, *fields = NULL;
    const char *op = NULL;
    int status = 1;
    char moved_to[CLI_SERVER_MAX];
    const char *lang = NULL;

    /* The language first, so that every message (usage included) is in
     * it: --lang, else $CONCLAVE_LANG, else the locale. */
    for (int i = 1; i + 1 < argc; i++) {
        if (strcmp(argv[i], "--lang") == 0) {
            lang = argv[i + 1];
        }
    }
    if (cli_lang_init(lang) != 0) {
        fprintf(stderr, _("conclave: --lang takes en or zh-CN, not \"%s\"\n"), lang);
        return 2;
    }
    if (parse_args(&a, argc, argv) != 0) {
        fputs(_(usage), stderr);
        json_decref(a.options);
        return 2;
    }
    if (sodium_init() < 0) {
        return 1;
    }
    if (a.cmd && strcmp(a.cmd, "replay") == 0) {
        json_decref(a.options);
        if (!a.arg) {
            fprintf(stderr, _("conclave: replay needs a record file (saved with `record FILE` at "
                              "the end of a game, or `conclave record CODE FILE`)\n\n"));
            fputs(_(usage), stderr);
            return 2;
        }
        return cli_replay(a.arg);
    }
    if (a.cmd && (strcmp(a.cmd, "games") == 0 || strcmp(a.cmd, "wait") == 0)) {
        char code[PROTO_ROOM_CODE_LEN + 1];
        json_decref(a.options);
        if (a.arg && (strcmp(a.cmd, "games") == 0 || proto_room_code_parse(a.arg, code) != 0)) {
            fprintf(stderr, _("conclave: %s takes %s, not \"%s\"\n"), a.cmd,
                    strcmp(a.cmd, "games") == 0 ? _("no argument") : _("a room code"), a.arg);
            return 2;
        }
        return strcmp(a.cmd, "games") == 0 ? cli_games(a.name, a.json)
                                           : cli_wait(a.name, a.arg ? code : NULL, a.json);
    }
    static const char *const commands[] = {"create", "join", "spectate", "resume",
                                           "list",   "info", "record",   "replay"};
    bool known = !a.cmd;
    for (size_t i = 0; a.cmd && i < sizeof(commands) / sizeof(commands[0]); i++) {
        known |= strcmp(a.cmd, commands[i]) == 0;
    }
    if (!known) {
        fprintf(stderr, _("conclave: unknown command \"%s\"\n\n"), a.cmd);
        fputs(_(usage), stderr);
        json_decref(a.options);
        return 2;
    }
    if (a.cmd && (strcmp(a.cmd, "join") == 0 || strcmp(a.cmd, "spectate") == 0 ||
                  strcmp(a.cmd, "record") == 0)) {
        char code[PROTO_ROOM_CODE_LEN + 1];
        if (!a.arg) {
            fprintf(stderr, _("conclave: %s needs a room code, e.g. conclave %s K7QF2M\n\n"), a.cmd,
                    a.cmd);
            fputs(_(usage), stderr);
            json_decref(a.options);
            return 2;
        }
        if (proto_room_code_parse(a.arg, code) != 0) {
            fprintf(stderr,
                    _("conclave: \"%s\" is not a room code: a code has six characters, letters "
                      "and digits, like K7QF2M\n"),
                    a.arg);
            json_decref(a.options);
            return 2;
        }
    }
    if (a.cmd && strcmp(a.cmd, "create") == 0 && !a.arg) {
        fprintf(stderr, _("conclave: create needs a game, e.g. conclave create stones (`conclave "
                          "info` lists them)\n\n"));
        fputs(_(usage), stderr);
        json_decref(a.options);
        return 2;
    }
    json_t *saved = NULL;
    if (a.cmd && strcmp(a.cmd, "resume") == 0) {
        saved = session_choose(&a);
        if (!saved) {
            json_decref(a.options);
            return 1;
        }
        /* The seat's server and name: a resume is the same player. */
        a.server = json_string_value(json_object_get(saved, "server"));
        if (json_string_value(json_object_get(saved, "name"))) {
            a.name = json_string_value(json_object_get(saved, "name"));
        }
    }
    a.early = json_array();
    cli_wss_trust(a.ca, strncmp(a.server, "wss://", 6) == 0 ? a.server + 6 : NULL, a.pin);
    if (cli_conn_open(&c, a.server) != 0) {
        json_decref(saved);
        json_decref(a.options);
        json_decref(a.early);
        return 1;
    }
    if (a.json && !a.cmd) {
        status = cli_script(&c, NULL, NULL, NULL);
        goto out;
    }
    reply =
        roundtrip(&c, &a, "hello", json_pack("{s:i, s:s}", "proto", PROTO_VERSION, "name", a.name));
    if (!reply || !json_is_true(json_object_get(reply, "ok"))) {
        if (reply) {
            print_error(reply);
        } else {
            fprintf(stderr, _("conclave: no answer from %s\n"), a.server);
        }
        goto out;
    }
    c.idle_timeout_s = (long)json_integer_value(json_object_get(reply, "idle_timeout"));
    if (!a.cmd || strcmp(a.cmd, "info") == 0) {
        status = a.cmd ? run_games(&c, &a, reply) : (fputs(_(usage), stderr), 2);
        goto out;
    }
    json_decref(reply);
    reply = NULL;
    if (strcmp(a.cmd, "list") == 0) {
        status = run_list(&c, &a);
        goto out;
    } else if (strcmp(a.cmd, "record") == 0) {
        status = run_record(&c, &a, moved_to);
        goto out;
    } else if (strcmp(a.cmd, "create") == 0 && a.arg) {
        op = "create";
        if (a.is_public) {
            json_object_set_new(a.options, "public", json_true());
        }
        fields = json_pack("{s:s, s:O}", "game", a.arg, "options", a.options);
        if (fields && a.seats > 0) {
            json_object_set_new(fields, "seats", json_integer(a.seats));
        }
    } else if ((strcmp(a.cmd, "join") == 0 || strcmp(a.cmd, "spectate") == 0) && a.arg) {
        op = a.cmd;
        fields = json_pack("{s:s}", "room", a.arg);
        if (fields && a.seat >= 0 && strcmp(a.cmd, "join") == 0) {
            json_object_set_new(fields, "seat", json_integer(a.seat));
        }
    } else if (strcmp(a.cmd, "resume") == 0) {
        op = "resume";
        /* The room too: another server of a fleet can then say where it is. */
        fields = json_pack("{s:O}", "token", json_object_get(saved, "token"));
        if (fields && json_is_string(json_object_get(saved, "room"))) {
            json_object_set(fields, "room", json_object_get(saved, "room"));
        }
    } else {
        fprintf(stderr, _("conclave: unknown command \"%s\"\n\n"), a.cmd);
        fputs(_(usage), stderr);
        status = 2;
        goto out;
    }
    reply = follow_rooms(&c, &a, op, fields, saved, moved_to, &status);
    fields = NULL;
    if (status == -1) {
        status = 1;
        goto out;
    }
    if (a.json && reply) {
        /* Scripted: the reply as it came, then everything passes through. */
        print_line(reply);
    }
    if (!reply || !json_is_true(json_object_get(reply, "ok"))) {
        if (reply && !a.json) {
            print_error(reply);
        }
        const char *code =
            json_string_value(json_object_get(json_object_get(reply, "error"), "code"));
        if (!a.json && code && strcmp(code, "already_started") == 0 && strcmp(op, "join") == 0) {
            fprintf(stderr,
                    _("conclave: watch it with: conclave spectate %s (a finished game's "
                      "record: conclave record %s FILE)\n"),
                    a.arg, a.arg);
        }
        if (saved && code && strcmp(code, "bad_token") == 0) {
            /* The room is gone (or the seat was given up): forget it. */
            (void)cli_session_forget(a.server, json_string_value(json_object_get(saved, "room")),
                                     (int)json_integer_value(json_object_get(saved, "seat")));
        }
        goto out;
    }
    const char *token = json_string_value(json_object_get(reply, "token"));
    const char *room = json_string_value(json_object_get(reply, "room"));
    if (saved && !token) {
        token = json_string_value(json_object_get(saved, "token"));
    }
    if (token && room) {
        if (cli_session_save(a.server, room,
                             (int)json_integer_value(json_object_get(reply, "seat")), a.name,
                             token) != 0) {
            fprintf(stderr, _("conclave: could not save the resume token\n"));
        }
    }
    if (a.json) {
        status = cli_script(&c, a.server, a.name, reply);
        goto out;
    }
    status =
        cli_repl(&c, reply, a.early, a.server, a.name, token, a.bots && strcmp(op, "create") == 0);
out:
    json_decref(reply);
    json_decref(saved);
    json_decref(a.options);
    json_decref(a.early);
    cli_conn_close(&c);
    return status;
}
