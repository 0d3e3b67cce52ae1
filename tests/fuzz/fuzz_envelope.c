/* SPDX-License-Identifier: MIT */
/*
 * fuzz_envelope.c - fuzz target for the request envelope and the JSON tools
 * of the protocol library (protocol/envelope.c, jsonpatch.c, canonical.c,
 * roomcode.c). The input is split on LF; each line is parsed as a request
 * and answered with a reply or an error that is dumped as a wire line. A
 * parsed message is also dumped, put in canonical form and hashed, diffed
 * against an empty object both ways, and each of its arrays is applied to it
 * as a patch; every string key and value goes through the name and room
 * code checks. What must hold aborts when it does not: a dumped line ends in
 * its only LF and parses back equal, the canonical form parses back equal,
 * the hash exists exactly when the canonical form does, a diff applied to
 * its source gives its target, and accepted names and codes are well formed.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Reports the check that failed and aborts, which is how a fuzzer sees it. */
static _Noreturn void fail(const char *what)
{
    fprintf(stderr, "fuzz_envelope: check failed: %s\n", what);
    abort();
}

/* Aborts unless `line` (len bytes with its LF) is one wire line that parses
 * back to a value equal to `msg`. Frees `line`. */
static void check_line(char *line, size_t len, const json_t *msg)
{
    if (line == NULL) {
        return;
    }
    if (len == 0 || line[len - 1] != '\n' || memchr(line, '\n', len - 1) != NULL ||
        line[len] != '\0') {
        fail("a dumped line is not one LF-terminated line");
    }
    json_t *back = json_loadb(line, len, JSON_DECODE_ANY, NULL);
    if (back == NULL || !json_equal(back, msg)) {
        fail("a dumped line does not parse back equal");
    }
    json_decref(back);
    free(line);
}

/* Checks one string through the display-name and room-code parsers. */
static void check_string(const char *s)
{
    char name[129];
    if (proto_name_check(s, name, sizeof(name)) == 0) {
        size_t n = strlen(name);
        size_t chars = proto_utf8_len(name);
        if (n == 0 || name[0] == ' ' || name[n - 1] == ' ' || chars < 1 ||
            chars > PROTO_NAME_MAX_CHARS || strstr(s, name) == NULL) {
            fail("an accepted name is not trimmed or not 1 to 32 characters");
        }
        char again[129];
        if (proto_name_check(name, again, sizeof(again)) != 0 || strcmp(name, again) != 0) {
            fail("an accepted name is not accepted again unchanged");
        }
    }
    char code[PROTO_ROOM_CODE_LEN + 1];
    if (proto_room_code_parse(s, code) == 0) {
        if (strlen(code) != PROTO_ROOM_CODE_LEN ||
            strspn(code, "0123456789ABCDEFGHJKMNPQRSTVWXYZ") != PROTO_ROOM_CODE_LEN) {
            fail("an accepted room code is not 6 Crockford characters");
        }
        char again[PROTO_ROOM_CODE_LEN + 1];
        if (proto_room_code_parse(code, again) != 0 || strcmp(code, again) != 0) {
            fail("a normalised room code is not accepted again unchanged");
        }
    }
    (void)proto_err_from_name(s);
}

/* Runs check_string on every key and string value under `v`. The parser
 * bounds the nesting, so the recursion is bounded too. */
static void walk_strings(const json_t *v)
{
    if (json_is_string(v)) {
        check_string(json_string_value(v));
    } else if (json_is_object(v)) {
        const char *key;
        json_t *member;
        json_object_foreach((json_t *)v, key, member) {
            check_string(key);
            walk_strings(member);
        }
    } else if (json_is_array(v)) {
        size_t i;
        json_t *member;
        json_array_foreach(v, i, member) {
            walk_strings(member);
        }
    }
}

/* Aborts unless applying diff(a, b) to a copy of `a` gives `b`. */
static void check_diff(const json_t *a, const json_t *b)
{
    json_t *patch = proto_patch_diff(a, b);
    if (patch == NULL) {
        return;
    }
    if (!json_is_array(patch)) {
        fail("a diff is not an array");
    }
    json_t *doc = json_deep_copy(a);
    if (doc == NULL) {
        json_decref(patch);
        return;
    }
    int rc = proto_patch_apply(&doc, patch);
    if (rc != -ENOMEM && (rc != 0 || !json_equal(doc, b))) {
        fail("apply(diff(a, b)) to a does not give b");
    }
    json_decref(doc);
    json_decref(patch);
}

/* Applies every array found among the members of `msg` to a copy of it as
 * a patch; any outcome but a crash or a leak is acceptable. */
static void apply_arrays(const json_t *msg)
{
    const char *key;
    json_t *member;
    json_object_foreach((json_t *)msg, key, member) {
        if (json_is_array(member)) {
            json_t *doc = json_deep_copy(msg);
            if (doc != NULL) {
                (void)proto_patch_apply(&doc, member);
                json_decref(doc);
            }
        }
    }
}

/* Runs the JSON tools on a parsed message. */
static void check_message(const json_t *msg)
{
    size_t len = 0;
    char *msg_line = proto_line_dump(msg, &len);
    check_line(msg_line, len, msg);

    errno = 0;
    char *canon = proto_canonical(msg, &len);
    char hash[PROTO_HASH_HEX_LEN + 1];
    int hrc = proto_view_hash(msg, hash);
    if (canon != NULL) {
        json_t *back = json_loadb(canon, len, JSON_DECODE_ANY, NULL);
        if (back == NULL || !json_equal(back, msg) || canon[len] != '\0') {
            fail("the canonical form does not parse back equal");
        }
        json_decref(back);
        if (hrc != 0 && hrc != -ENOMEM) {
            fail("the view hash failed where the canonical form succeeded");
        }
        free(canon);
    } else if (errno == EINVAL && hrc != -EINVAL) {
        fail("the view hash succeeded where the canonical form refused a real");
    }
    if (hrc == 0 && strspn(hash, "0123456789abcdef") != PROTO_HASH_HEX_LEN) {
        fail("the view hash is not 64 lowercase hex digits");
    }

    json_t *empty = json_object();
    if (empty != NULL) {
        check_diff(msg, empty);
        check_diff(empty, msg);
        json_decref(empty);
    }
    json_t *same = proto_patch_diff(msg, msg);
    if (same != NULL && json_array_size(same) != 0) {
        fail("the diff of a message with itself is not empty");
    }
    json_decref(same);
    apply_arrays(msg);
    walk_strings(msg);
}

/* Parses one line and answers it as the server would. */
static void run_line(const char *line, size_t n)
{
    struct proto_request req;
    char errbuf[128];
    memset(&req, 0, sizeof(req));
    enum proto_err code = proto_request_parse(line, n, &req, errbuf, sizeof(errbuf));
    if (code == PROTO_OK && (req.msg == NULL || req.op == NULL || !json_is_object(req.msg))) {
        fail("an accepted request lacks its object or op");
    }
    json_t *reply;
    if (code == PROTO_OK) {
        reply = proto_reply_ok(req.id);
    } else {
        reply = proto_reply_error(req.id, code, errbuf);
    }
    size_t len = 0;
    if (reply != NULL) {
        char *reply_line = proto_line_dump(reply, &len);
        check_line(reply_line, len, reply);
        json_decref(reply);
    }
    if (req.msg != NULL) {
        if (req.op != NULL) {
            /* A message chosen by the sender, echoed as an error text. */
            reply = proto_reply_error(req.id, PROTO_ERR_UNKNOWN_OP, req.op);
            if (reply != NULL) {
                const char *text =
                    json_string_value(json_object_get(json_object_get(reply, "error"), "message"));
                if (text == NULL || strchr(text, '\n') != NULL || strchr(text, '\r') != NULL) {
                    fail("an error message echoes a newline");
                }
                char *reply_line = proto_line_dump(reply, &len);
                check_line(reply_line, len, reply);
                json_decref(reply);
            }
        }
        check_message(req.msg);
    }
    proto_request_fini(&req);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *p = (const char *)data;
    size_t left = size;
    while (left > 0) {
        const char *lf = memchr(p, '\n', left);
        size_t n = lf != NULL ? (size_t)(lf - p) : left;
        run_line(p, n);
        if (lf == NULL) {
            break;
        }
        left -= n + 1;
        p += n + 1;
    }
    return 0;
}
