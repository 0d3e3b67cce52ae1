/* SPDX-License-Identifier: MIT */
/*
 * client.h - the pieces of the `conclave` client: a line connection to the
 * server, the view tracker (state + diffs, checked against the hash), the
 * saved resume token, the interactive and scripted modes, and replay.
 * The client renders views and sends intentions; the server decides.
 */
#ifndef CONCLAVE_CLIENT_H
#define CONCLAVE_CLIENT_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "proto.h"

#define CLI_SERVER_MAX 300 /* "HOST:PORT", or "wss://HOST:PORT" */

struct cli_wss;

struct cli_conn {
    int fd;              /* the socket, for poll() */
    struct cli_wss *wss; /* over WebSocket with TLS (wss.c); NULL: TCP */
    struct proto_framer framer;
    long next_id;
    long idle_timeout_s; /* the server's, from its hello reply (0: not told) */
};

/* Connects to "HOST:PORT" (TCP) or "wss://HOST:PORT" (WebSocket with
 * TLS). Over TCP to another machine than the one connecting (its address
 * not the one connected from), it warns once that nothing is encrypted.
 * Returns 0 or -1 with a message on stderr. */
int cli_conn_open(struct cli_conn *c, const char *server);

/* Writes bytes of protocol lines as they come (a line may be split across
 * calls). 0 or -1. */
int cli_conn_write_raw(struct cli_conn *c, const char *bytes, size_t len);

/* ---- wss.c ---- */

/* What TLS connections trust besides the system's authorities and the
 * known servers: `ca_file` (PEM, NULL: none), and for `hostport` the
 * certificate whose SHA-256 is `pin` ("SHA256:<hex>", NULL: none), which
 * must then match. Borrowed; set before the first connection. */
void cli_wss_trust(const char *ca_file, const char *hostport, const char *pin);

/* "SHA256:<64 hex>" (the prefix and colons optional) into `fp`. 0 or -1. */
int cli_fingerprint_parse(const char *text, unsigned char fp[32]);

/* Over TLS, the join link of `room` on this server with the certificate
 * the connection checked: CODE@HOST:PORT#sha256=HEX. 0, or -1 over TCP. */
int cli_conn_link(const struct cli_conn *c, const char *room, char *out, size_t outlen);

/* The connection's halves of cli_conn_open/close/send/read over TLS. */
int cli_wss_open(struct cli_conn *c, const char *host, int port, const char *hostport);
void cli_wss_close(struct cli_conn *c);
int cli_wss_send(struct cli_conn *c, const char *line, size_t len);
int cli_wss_send_raw(struct cli_conn *c, const char *bytes, size_t len);
/* Waits up to timeout_ms for the socket and feeds what came into the
 * framer: 1 (the socket was ready), 0 (time ran out) or -1 (closed). */
int cli_wss_fill(struct cli_conn *c, int timeout_ms);

/* The path of `file` in the client's state directory ($XDG_STATE_HOME/
 * conclave, default ~/.local/state/conclave), made (mode 0700) with
 * `create`. 0 or -1. */
int cli_state_path(char *out, size_t outlen, const char *file, bool create);

/* Closes the socket and frees the framer. */
void cli_conn_close(struct cli_conn *c);

/* Sends `msg` (borrowed) as one line. 0 or -1. */
int cli_conn_send(struct cli_conn *c, const json_t *msg);

/* Sends a request {"id": n, "op": op, ...fields}; steals `fields` (may be
 * NULL). Returns the id used, or -1. */
long cli_conn_request(struct cli_conn *c, const char *op, json_t *fields);

/* Reads the next message, waiting at most timeout_ms (-1: forever). Returns
 * 1 with a new reference in *ret, 0 on timeout, -1 when the connection is
 * closed or sends something that is not a JSON object. */
int cli_conn_read(struct cli_conn *c, int timeout_ms, json_t **ret);

/* Waits for the reply to request `id`, handing every event that arrives
 * first to `on_event` (may be NULL). New reference, or NULL on close. */
json_t *cli_conn_wait_reply(struct cli_conn *c, long id, void (*on_event)(void *, json_t *),
                            void *arg);

/* The seat view as the server streams it. */
struct cli_view {
    json_t *view;
    long rev;
    int seat;
    char room[PROTO_ROOM_CODE_LEN + 1];
    char game[32];
    json_t *room_ev; /* last room event */
    json_t *result;  /* set once ended */
};

/* Applies a state or diff event to `v`. Returns 1 when the view changed,
 * 0 when the event is not about the view, -1 when the client lost track
 * (hash mismatch, missing base, bad patch): the caller sends sync. */
int cli_view_event(struct cli_view *v, const json_t *ev);

void cli_view_fini(struct cli_view *v);

/* Replaces, in every string of `v` (in place), each control character
 * (C0, DEL, C1) by a space: what a peer wrote never reaches a terminal
 * raw. */
void cli_clean(json_t *v);

/* ---- Choices (choices.c) ---- */

/* `action` of `game` as a short phrase ("cast SPIN-1 on Tc clockwise"). */
void cli_action_phrase(const json_t *action, const char *game, char *buf, size_t len);

/* Prints a `legal` list grouped by kind, numbered from #1 over the whole
 * list; a long list summarises its big kinds. With `only`, every entry of
 * that kind (type) alone. */
void cli_choices_print(const json_t *legal, const char *game, const char *only);

/* The seats this user may resume, in $XDG_STATE_HOME/conclave/session.json
 * (default ~/.local/state/conclave; mode 0600): an array, newest first, of
 * {"server","room","seat","name","token"}, one per (server, room, seat),
 * so that players sharing a machine keep their own. Load never fails (an
 * empty array when there is none). */
json_t *cli_sessions_load(void);
int cli_session_save(const char *server, const char *room, int seat, const char *name,
                     const char *token);
int cli_session_forget(const char *server, const char *room, int seat);

/* Interactive play on an open, hello'd connection; `first` is the reply of
 * the create/join/spectate/resume that started it (borrowed), and `early`
 * the events that came before that reply (an array, borrowed). With
 * `start_bots` it first starts the game with bots in the empty seats. When
 * the connection drops it reconnects (hello as `name`) and resumes the seat
 * with `token`, or watches again as a spectator. Returns the exit status. */
int cli_repl(struct cli_conn *c, const json_t *first, const json_t *early, const char *server,
             const char *name, const char *token, bool start_bots);

/* Scripted mode: stdin lines go to the server as they are, server lines go
 * to stdout. `first` is the reply of the command that started it
 * (borrowed; NULL when there was none): with it, the seat a rematch moves
 * to is saved on `server` under `name`, as main() saves the command's.
 * Returns the exit status. */
int cli_script(struct cli_conn *c, const char *server, const char *name, const json_t *first);

/* `conclave games`: every saved seat, on whatever server, with whose turn
 * it is (looked at as a spectator: no token is sent). `as_json`: a JSON
 * object a line. Returns the exit status. */
int cli_games(const char *name, bool as_json);

/* `conclave wait [CODE]`: blocks until it is the turn of one of the saved
 * seats (those of room CODE), and prints it: 0; 3 when every game waited
 * for is over or gone; 1 when there is nothing to wait for. */
int cli_wait(const char *name, const char *code, bool as_json);

/* Writes a finished game's `record` (borrowed) to `path` for `conclave
 * replay`, and says so on stdout (or that it could not). 0 or -1. */
int cli_record_save(const json_t *record, const char *path);

/* Replays a game record file through the rules engines. */
int cli_replay(const char *path);

#endif
