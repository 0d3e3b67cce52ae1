/* SPDX-License-Identifier: MIT */
/*
 * proto.h - the wire protocol library shared by the server, the CLI and the
 * tests: NDJSON framing, the request/reply/event envelope, the error code
 * table, RFC 6902 diff and apply, canonical serialisation with its BLAKE2b
 * view hash, and room codes.
 *
 * It knows nothing of sockets, event loops or games. Functions that allocate
 * return -ENOMEM (or NULL) on failure and never abort.
 */
#ifndef CONCLAVE_PROTO_H
#define CONCLAVE_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <jansson.h>

#define PROTO_VERSION 1
#define PROTO_LINE_MAX_DEFAULT 65536
#define PROTO_OUT_LINE_MAX (4u * 1024u * 1024u)
#define PROTO_ID_MAX 64
#define PROTO_NAME_MAX_CHARS 32
#define PROTO_CHAT_MAX_CHARS 500
#define PROTO_ROOM_CODE_LEN 6
#define PROTO_HASH_HEX_LEN 64

/* ---- Error codes (PROTOCOL.md section 8) ---- */

#define PROTO_ERR_MAP(XX)                                                                          \
    XX(BAD_JSON, "bad_json", "the line is not valid JSON")                                         \
    XX(BAD_REQUEST, "bad_request", "the request is not an object with an op")                      \
    XX(UNKNOWN_OP, "unknown_op", "no such op")                                                     \
    XX(HELLO_REQUIRED, "hello_required", "send hello first")                                       \
    XX(PROTO_UNSUPPORTED, "proto_unsupported", "this server speaks protocol 1")                    \
    XX(BAD_NAME, "bad_name", "a name is 1 to 32 characters, no control characters")                \
    XX(FRAME_TOO_LARGE, "frame_too_large", "the line is longer than the server accepts")           \
    XX(RATE_LIMITED, "rate_limited", "too many requests; slow down")                               \
    XX(ROOM_NOT_FOUND, "room_not_found", "no such room")                                           \
    XX(ROOM_FULL, "room_full", "every seat of the room is taken")                                  \
    XX(SEAT_TAKEN, "seat_taken", "that seat is taken")                                             \
    XX(ALREADY_STARTED, "already_started", "the game has started; spectate instead")               \
    XX(NOT_HOST, "not_host", "only the host may do that")                                          \
    XX(NOT_ENOUGH_PLAYERS, "not_enough_players", "every seat must be filled (or start with bots)") \
    XX(NOT_IN_ROOM, "not_in_room", "join a room first")                                            \
    XX(NOT_IN_GAME, "not_in_game", "only seated players may act")                                  \
    XX(NOT_YOUR_TURN, "not_your_turn", "it is not your turn")                                      \
    XX(ILLEGAL_ACTION, "illegal_action", "the rules do not allow that")                            \
    XX(BAD_ACTION, "bad_action", "the action is malformed")                                        \
    XX(STALE, "stale", "your view is out of date; the room has moved on")                          \
    XX(GAME_OVER, "game_over", "the game is over")                                                 \
    XX(GAME_NOT_OVER, "game_not_over", "the record is available once the game has ended")          \
    XX(BAD_TOKEN, "bad_token", "that token does not open any seat")                                \
    XX(UNKNOWN_GAME, "unknown_game", "no such game")                                               \
    XX(BAD_OPTION, "bad_option", "an option or the seat count is not valid")                       \
    XX(SERVER_BUSY, "server_busy", "the server is at capacity; try again later")                   \
    XX(ROOM_ELSEWHERE, "room_elsewhere", "the room is on another server of the fleet")             \
    XX(INTERNAL, "internal", "internal server error")

enum proto_err {
    PROTO_OK = 0,
#define XX(sym, name, msg) PROTO_ERR_##sym,
    PROTO_ERR_MAP(XX)
#undef XX
        PROTO_ERR__COUNT
};

/* Wire name of `code` ("room_full"); "internal" for out-of-range values. */
const char *proto_err_name(enum proto_err code);

/* Default English message of `code`. */
const char *proto_err_message(enum proto_err code);

/* Code for a wire name; PROTO_OK when unknown. */
enum proto_err proto_err_from_name(const char *name);

/* ---- NDJSON framer ---- */

/* Splits a byte stream into lines. Feed it bytes in any chunking; take whole
 * lines out. CR before LF is dropped; empty (or all-whitespace) lines are
 * skipped. The framer owns its buffer. */
struct proto_framer {
    char *buf;
    size_t len; /* bytes held */
    size_t cap;
    size_t start; /* first unconsumed byte */
    size_t scan;  /* bytes from start already known to hold no LF */
    size_t max_line;
    bool overflow; /* a line exceeded max_line: the stream is unusable */
};

/* Initialises an empty framer with a line limit in bytes (without the LF). */
void proto_framer_init(struct proto_framer *f, size_t max_line);

/* Frees the framer's buffer. Accepts a zeroed or already finished framer. */
void proto_framer_fini(struct proto_framer *f);

/* Appends `n` bytes. Returns 0, -ENOMEM, or -E2BIG when the pending partial
 * line already exceeds the limit (the framer is then in overflow state). */
int proto_framer_feed(struct proto_framer *f, const char *data, size_t n);

/* Takes the next whole line. Returns >0 and sets *ret_line / *ret_len (the
 * line without CR/LF, NUL-terminated, valid until the next feed or next call)
 * when a line is ready; 0 when more bytes are needed; -E2BIG when a line is
 * longer than the limit (the framer stays in overflow state). */
int proto_framer_next(struct proto_framer *f, const char **ret_line, size_t *ret_len);

/* ---- Envelope ---- */

/* A decoded request. `msg` holds the whole object (owned); `op` and `id`
 * borrow from it. */
struct proto_request {
    json_t *msg;
    const char *op;
    json_t *id; /* NULL when absent */
};

/* Parses one line into a request. Returns PROTO_OK, PROTO_ERR_BAD_JSON (not
 * JSON, or not UTF-8, or nested deeper than the limit) or
 * PROTO_ERR_BAD_REQUEST (not an object, no string op, bad id), or
 * PROTO_ERR_INTERNAL when out of memory. errbuf (may be NULL) gets a short
 * reason. On error
 * req->id is still set when the line carried a usable id (owned by req->msg,
 * which the caller frees with proto_request_fini). */
enum proto_err proto_request_parse(const char *line, size_t len, struct proto_request *req,
                                   char *errbuf, size_t errlen);

/* Releases the request's object. Accepts a zeroed request. */
void proto_request_fini(struct proto_request *req);

/* New reference: {"re": id?, "ok": true}. `id` borrowed, may be NULL. */
json_t *proto_reply_ok(const json_t *id);

/* New reference: {"re": id?, "ok": false, "error": {"code", "message"}}.
 * message NULL means the code's default message. Newlines are replaced. */
json_t *proto_reply_error(const json_t *id, enum proto_err code, const char *message);

/* New reference: {"ev": ev}. */
json_t *proto_event_new(const char *ev);

/* New reference: {"ev":"error","error":{"code","message"}}. */
json_t *proto_event_error(enum proto_err code, const char *message);

/* Serialises `msg` as one line ending in "\n" (compact, UTF-8, integers).
 * Returns a malloc'ed, NUL-terminated buffer and sets *ret_len (the LF
 * included, the NUL not), or NULL with errno ENOMEM,
 * E2BIG (the line would exceed PROTO_OUT_LINE_MAX bytes with its LF) or
 * EINVAL (`msg` holds a real number). */
char *proto_line_dump(const json_t *msg, size_t *ret_len);

/* Checks a display name: 1..32 Unicode characters after trimming spaces, no
 * control characters, valid UTF-8. Writes the trimmed name (NUL-terminated)
 * to out (outlen >= 129). Returns 0 or -1. */
int proto_name_check(const char *name, char *out, size_t outlen);

/* Copies `in` (n bytes) to `out` (room for n + 1 bytes), NUL-terminated,
 * with every control character (C0, DEL and C1, newlines among them)
 * replaced by a space and every byte that is not valid UTF-8 by '?'.
 * Returns the length written (never more than n). */
size_t proto_clean_text(const char *in, size_t n, char *out);

/* Number of Unicode code points in a valid UTF-8 string. */
size_t proto_utf8_len(const char *s);

/* ---- Text being built ---- */

/* A growable NUL-terminated buffer for lines and canonical forms. An add
 * that fails records why in `err` (-ENOMEM, or -EINVAL for a value with no
 * canonical form) and every later add does nothing, so a writer checks
 * once, at the end. Zero-initialised means empty. */
struct proto_text {
    char *data;
    size_t len;
    size_t cap;
    int err;
};

void proto_text_add(struct proto_text *t, const void *s, size_t n);
void proto_text_str(struct proto_text *t, const char *s);
void proto_text_int(struct proto_text *t, long long v);

/* Appends `s` (n bytes) as a JSON string in the canonical form. */
void proto_text_string(struct proto_text *t, const char *s, size_t n);

/* Appends the canonical form of `v`. */
void proto_text_canonical(struct proto_text *t, const json_t *v);

/* Makes room for n more bytes at once, so that adds up to that many do
 * not grow the buffer step by step. An empty text gets a buffer of exactly
 * what it needs (len + n + 1 bytes), which a line of known length can keep
 * as it is. Sets `err` on ENOMEM, as an add does. */
void proto_text_reserve(struct proto_text *t, size_t n);

/* Hands the bytes over (NUL-terminated, *ret_len set) and empties `t`;
 * NULL (and `t` freed) when an add failed or the text is longer than
 * `max` bytes. */
char *proto_text_take(struct proto_text *t, size_t max, size_t *ret_len);

/* Empties `t` for another text and keeps its buffer. */
void proto_text_reset(struct proto_text *t);

void proto_text_free(struct proto_text *t);

/* ---- RFC 6902 ---- */

/* Writes the ops that turn member `key` of a document from `a` into `b`
 * (each the canonical text of one value, alen and blen bytes), their paths
 * under "/key" (the root when `key` is NULL). `a` NULL: the member is
 * added; `b` NULL: it is removed. Objects are diffed key by key (add /
 * remove / replace); arrays as a window that slid (removes at the head,
 * adds at the tail), or else item by item between the items both keep at
 * their head and at their tail, with add / remove where one has more;
 * other changes are replace. Each op is a canonical JSON object; ops are
 * separated by commas, and a comma goes before the first one when `out` is
 * not empty. Returns 0, -ENOMEM, or -EINVAL when `a` or `b` is not one
 * value as the canonical form writes it (and then `out` is left as it
 * was): strings terminated, brackets matched, one value. */
int proto_patch_diff_text(struct proto_text *out, const char *key, const char *a, size_t alen,
                          const char *b, size_t blen);

/* proto_patch_diff_text for item `index` of the array `key`: the paths are
 * under "/key/index". */
int proto_patch_diff_item(struct proto_text *out, const char *key, int index, const char *a,
                          size_t alen, const char *b, size_t blen);

/* proto_patch_diff_text for member `member` of item `index` of the array
 * `key`: the paths are under "/key/index/member". */
int proto_patch_diff_field(struct proto_text *out, const char *key, int index, const char *member,
                           const char *a, size_t alen, const char *b, size_t blen);

/* One op at "/key/index", with no diff: `add` of the value `v` (the
 * canonical text of one value, n bytes, which the caller vouches for) when
 * `v` is set, else `remove`; for an item the caller knows to be new, or
 * gone (a log's). A comma goes before it as in proto_patch_diff_text.
 * Returns 0 or -ENOMEM; test builds (CONCLAVE_CHECKED) also index `v` and
 * return -EINVAL, writing nothing, when it is not one value. */
int proto_patch_item_op(struct proto_text *out, const char *key, int index, const char *v,
                        size_t n);

/* New reference: the JSON Patch (array) turning `a` into `b`, the ops of
 * proto_patch_diff_text between their canonical forms. An empty array when
 * equal; NULL on ENOMEM or when either holds a real. */
json_t *proto_patch_diff(const json_t *a, const json_t *b);

/* Applies `patch` to `*doc` in place (it may replace the root). Supports
 * add, remove, replace, move, copy and test. Returns 0, -EINVAL for an
 * invalid patch or failed test (the document may be partly changed), or
 * -ENOMEM. */
int proto_patch_apply(json_t **doc, const json_t *patch);

/* ---- Canonical form and view hash (PROTOCOL.md section 5) ---- */

/* Canonical serialisation: keys sorted by their UTF-8 bytes, no whitespace,
 * raw UTF-8 with only '"' and '\\' escaped, integers. Malloc'ed and
 * NUL-terminated, *ret_len set; NULL on ENOMEM or a non-integer number
 * (errno ENOMEM or EINVAL). */
char *proto_canonical(const json_t *v, size_t *ret_len);

/* Lowercase hex BLAKE2b-256 of the canonical form of `v` into out[65].
 * Returns 0, -ENOMEM, or -EINVAL when `v` holds a non-integer number. */
int proto_view_hash(const json_t *v, char out[PROTO_HASH_HEX_LEN + 1]);

/* Lowercase hex BLAKE2b-256 of `len` bytes of canonical text into out[65]:
 * the view hash of the value that text writes. */
void proto_text_hash(const char *text, size_t len, char out[PROTO_HASH_HEX_LEN + 1]);

/* Lowercase hex of `n` bytes into out (2n+1 bytes). */
void proto_hex(const uint8_t *bytes, size_t n, char *out);

/* Room for the decimal digits of any uint64_t. */
#define PROTO_DEC_MAX 20

/* Writes the decimal digits of v so that they end at buf + PROTO_DEC_MAX
 * and returns where they start, their count in *n (no NUL). */
char *proto_dec(char buf[PROTO_DEC_MAX], uint64_t v, size_t *n);

/* proto_dec() for a signed v, its '-' included: ends at buf + 1 +
 * PROTO_DEC_MAX. */
char *proto_dec_signed(char buf[1 + PROTO_DEC_MAX], long long v, size_t *n);

/* Copies n bytes to o and returns the byte after them: for a line written
 * piece by piece into room measured beforehand. */
static inline char *proto_put(char *o, const void *s, size_t n)
{
    memcpy(o, s, n);
    return o + n;
}

/* ---- Room codes ---- */

/* Encodes 30 random bits (low bits of `bits`) as 6 Crockford base32
 * characters into out[7]. */
void proto_room_code_encode(uint32_t bits, char out[PROTO_ROOM_CODE_LEN + 1]);

/* Normalises a typed code: case-insensitive, '-' and spaces ignored, and the
 * Crockford confusables I/L -> 1, O -> 0. Writes 6 upper-case characters to
 * out[7]. Returns 0, or -1 when it is not a valid code (U or other symbols,
 * wrong length). */
int proto_room_code_parse(const char *typed, char out[PROTO_ROOM_CODE_LEN + 1]);

/* The layout of an open-addressing table (probe.c): slots of `size`
 * bytes, a power of two of them, at most half full, linear probing from an
 * entry's home. A zeroed slot is free. */
struct proto_probe {
    size_t size;
    size_t (*home)(const void *slot); /* the hash of a used slot's key */
    bool (*used)(const void *slot);
};

/* Moves every entry of `*slots` (`*cap` of them) into a zeroed table of
 * `new_cap` slots, which takes its place. 0, or -ENOMEM (nothing changed). */
int proto_probe_grow(const struct proto_probe *p, void **slots, size_t *cap, size_t new_cap);

/* The first free slot from `home` on (the table is never full). */
size_t proto_probe_free_slot(const struct proto_probe *p, const void *slots, size_t cap,
                             size_t home);

/* Empties slot `i`, moving back the entries after it that may fill it. */
void proto_probe_del(const struct proto_probe *p, void *slots, size_t cap, size_t i);

/* An index from room codes (at most 6 characters) to non-NULL pointers;
 * zero-initialised it is empty. Lookups, insertions and deletions take
 * constant time on average whatever the number of codes. */
struct proto_code_slot {
    char code[PROTO_ROOM_CODE_LEN + 1];
    void *val; /* NULL: a free slot */
};

struct proto_code_map {
    struct proto_code_slot *slots;
    size_t cap, n;
};

/* The pointer filed under `code`, or NULL. */
void *proto_code_map_get(const struct proto_code_map *m, const char *code);

/* Files `val` (not NULL) under `code`, replacing what was there. 0, or
 * -ENOMEM (nothing changed) or -EINVAL. */
int proto_code_map_put(struct proto_code_map *m, const char *code, void *val);

/* Removes `code`, if present. Never fails. */
void proto_code_map_del(struct proto_code_map *m, const char *code);

/* Frees the table; the map is empty again. */
void proto_code_map_free(struct proto_code_map *m);

#endif
