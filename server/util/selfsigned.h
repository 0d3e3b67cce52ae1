/* SPDX-License-Identifier: MIT */
/*
 * selfsigned.h - the key and self-signed certificate that `--tls-self-signed`
 * keeps in the data directory, and the SHA-256 fingerprint of a PEM
 * certificate, on OpenSSL 3's EVP and X509 interfaces. It neither logs
 * nor listens and reads no clock: the caller passes the time, says what
 * happened, and hands the two paths to the HTTPS listener.
 */
#ifndef CONCLAVE_SELFSIGNED_H
#define CONCLAVE_SELFSIGNED_H

#include <limits.h>
#include <stddef.h>
#include <time.h>

/* The two files, in the data directory. They belong to this module: what
 * it cannot keep, it replaces. */
#define SELFSIGNED_KEY_FILE "tls-key.pem"
#define SELFSIGNED_CERT_FILE "tls-cert.pem"

/* A certificate is valid from an hour before it is made (a client whose
 * clock is a little behind still takes it) for 825 days, the longest
 * Apple's systems accept for a TLS server certificate even when a user
 * trusts it. It is replaced at a start that finds it within 30 days of
 * its end. */
#define SELFSIGNED_DAYS 825
#define SELFSIGNED_BACKDATE_S 3600
#define SELFSIGNED_RENEW_DAYS 30

/* A fingerprint: 64 lowercase hex digits and the NUL. */
#define SELFSIGNED_SHA256_LEN 65

enum selfsigned_outcome {
    SELFSIGNED_KEPT,    /* both files were there and fit to serve */
    SELFSIGNED_MADE,    /* neither was there: made */
    SELFSIGNED_RENEWED, /* replaced, for `reason` */
};

struct selfsigned_result {
    enum selfsigned_outcome outcome;
    const char *reason;                     /* RENEWED: why, a static sentence */
    char old_sha256[SELFSIGNED_SHA256_LEN]; /* RENEWED: the replaced certificate's;
                                               "" when there was none to read */
    char sha256[SELFSIGNED_SHA256_LEN];     /* the certificate's, as it now is */
    char cert[PATH_MAX];                    /* DIR/tls-cert.pem */
    char key[PATH_MAX];                     /* DIR/tls-key.pem */
};

/* Makes sure that the existing directory `dir` holds an EC P-256 key
 * (tls-key.pem, PKCS#8 PEM, mode 0600) and a self-signed X.509 v3
 * certificate for it (tls-cert.pem) that is still valid 30 days after
 * `now`. The certificate names CN=conclave; its subjectAltName holds
 * DNS:localhost, IP:127.0.0.1, IP:::1 and `host` (the HTTP listener's
 * address; NULL or "" for none) when it is another address, or a name,
 * and not the wildcard 0.0.0.0 or ::. It is CA:FALSE, for
 * digitalSignature and serverAuth, with a random 159-bit serial number.
 *
 * Files that are there are kept unless one is missing or unreadable as
 * PEM, the certificate ends within 30 days of `now`, or the key is not
 * the certificate's; then both are made anew (the fingerprint changes).
 * Each new file is written to a temporary file beside it, flushed, then
 * renamed over it, so no start ever finds half a file; a start that
 * stops between the two renames leaves a key that does not match, which
 * the next start replaces.
 *
 * Returns 0 and fills *ret, or -1 with a sentence in `why` (a file that
 * exists but cannot be opened, a directory that cannot be written, a
 * path too long); *ret is written only on success. */
int selfsigned_ensure(const char *dir, const char *host, time_t now, struct selfsigned_result *ret,
                      char *why, size_t whylen);

/* Writes into `ret_sha256` the lowercase hex SHA-256 of the DER encoding
 * of the first certificate of the PEM file `path` (the leaf a TLS server
 * presents). Returns 0, or -1 with a sentence in `why`. */
int selfsigned_fingerprint(const char *path, char ret_sha256[SELFSIGNED_SHA256_LEN], char *why,
                           size_t whylen);

#endif
