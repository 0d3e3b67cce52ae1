/* SPDX-License-Identifier: MIT */
/*
 * lwstls.h - a TLS client context of the server's own for a libwebsockets
 * context (its `provided_client_ssl_ctx`). libwebsockets 4.1 files the
 * client contexts it makes under an OpenSSL ex-data index that every new
 * context with TLS draws again, so that a process of several contexts
 * (the web server, the notices' client, the allocator's) loses all but
 * the last one's at their destruction. A context given its client context
 * leaves it to its owner, who frees it after the lws context is gone.
 */
#ifndef CONCLAVE_LWSTLS_H
#define CONCLAVE_LWSTLS_H

/* A client context that verifies peers against `ca_file` (PEM; NULL: the
 * system's certificates), as the type libwebsockets takes (SSL_CTX *).
 * NULL when it cannot be made (logged). */
void *lwstls_client_new(const char *ca_file);

/* Frees it (NULL is fine), once no lws context uses it. */
void lwstls_client_free(void *ctx);

#endif
