/* SPDX-License-Identifier: MIT */
/*
 * lwstls.c - the server's own TLS client contexts (see lwstls.h).
 */
#include "lwstls.h"

#include <openssl/err.h>
#include <openssl/ssl.h>

#include "log.h"

void *lwstls_client_new(const char *ca_file)
{
    SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
    char why[256] = "";

    if (ctx && SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION) == 1 &&
        (ca_file ? SSL_CTX_load_verify_locations(ctx, ca_file, NULL)
                 : SSL_CTX_set_default_verify_paths(ctx)) == 1) {
        return ctx;
    }
    ERR_error_string_n(ERR_get_error(), why, sizeof(why));
    char q[LOG_QUOTE_MAX], w[LOG_QUOTE_MAX];
    log_event(LOG_ERROR, "tls_client_failed", "ca_file=%s reason=%s",
              log_quote(q, sizeof(q), ca_file ? ca_file : "system"), log_quote(w, sizeof(w), why));
    SSL_CTX_free(ctx);
    return NULL;
}

void lwstls_client_free(void *ctx)
{
    SSL_CTX_free(ctx);
}
