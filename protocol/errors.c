/* SPDX-License-Identifier: MIT */
/*
 * errors.c - the wire error code table: names and default messages, all
 * generated from PROTO_ERR_MAP in proto.h so that PROTOCOL.md section 8 and
 * the code cannot drift apart. It holds constant data only and must never
 * allocate, log or hold state.
 */
#include <string.h>

#include "proto.h"

struct err_entry {
    const char *name;
    const char *message;
};

static const struct err_entry err_table[PROTO_ERR__COUNT] = {[PROTO_OK] = {"ok", "success"},
#define XX(sym, name, msg) [PROTO_ERR_##sym] = {name, msg},
                                                             PROTO_ERR_MAP(XX)
#undef XX
};

/* Wire name of `code`; "internal" for PROTO_OK and out-of-range values, so
 * that a wrong code never reaches the wire as something else. */
const char *proto_err_name(enum proto_err code)
{
    if ((int)code <= (int)PROTO_OK || (int)code >= (int)PROTO_ERR__COUNT) {
        return err_table[PROTO_ERR_INTERNAL].name;
    }
    return err_table[code].name;
}

/* Default English message of `code`; the internal error's message for
 * PROTO_OK and out-of-range values. */
const char *proto_err_message(enum proto_err code)
{
    if ((int)code <= (int)PROTO_OK || (int)code >= (int)PROTO_ERR__COUNT) {
        return err_table[PROTO_ERR_INTERNAL].message;
    }
    return err_table[code].message;
}

/* Code for a wire name; PROTO_OK when unknown or NULL. */
enum proto_err proto_err_from_name(const char *name)
{
    if (name == NULL) {
        return PROTO_OK;
    }
    for (int i = (int)PROTO_OK + 1; i < (int)PROTO_ERR__COUNT; i++) {
        if (strcmp(err_table[i].name, name) == 0) {
            return (enum proto_err)i;
        }
    }
    return PROTO_OK;
}
