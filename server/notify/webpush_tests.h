/* SPDX-License-Identifier: MIT */
/*
 * webpush_tests.h - for tests only: the message encryption of webpush.h
 * with the salt and the sender's key pair given instead of drawn, so that
 * a test can reproduce RFC 8291 Appendix A byte for byte. The server never
 * includes this header: a fixed salt or key would break the encryption.
 */
#ifndef CONCLAVE_NOTIFY_WEBPUSH_TESTS_H
#define CONCLAVE_NOTIFY_WEBPUSH_TESTS_H

#include <stddef.h>

#include "webpush.h"

#define NOTIFY_SALT_LEN 16
#define NOTIFY_PRIV_LEN 32
#define NOTIFY_POINT_LEN 65

/* As notify_webpush_encrypt(), with `salt` as the salt and the sender's
 * key pair given as its private scalar `as_priv` (big-endian) and public
 * point `as_pub` (uncompressed). NOTIFY_E_ARG when the two do not make a
 * P-256 key pair. */
int notify__webpush_encrypt_with(const char *p256dh, const char *auth,
                                 const unsigned char salt[NOTIFY_SALT_LEN],
                                 const unsigned char as_priv[NOTIFY_PRIV_LEN],
                                 const unsigned char as_pub[NOTIFY_POINT_LEN],
                                 const unsigned char *pt, size_t len, unsigned char *out,
                                 size_t *outlen);

#endif
