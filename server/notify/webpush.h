/* SPDX-License-Identifier: MIT */
/*
 * webpush.h - the cryptography of Web Push, with no networking: the
 * server's VAPID key pair (RFC 8292) kept in a PEM file, the Authorization
 * header that identifies the server to a push service, and the encryption
 * of a message for one subscription (RFC 8291 with the aes128gcm content
 * coding of RFC 8188). Sending the request is the caller's business.
 */
#ifndef CONCLAVE_NOTIFY_WEBPUSH_H
#define CONCLAVE_NOTIFY_WEBPUSH_H

#include <stddef.h>

/* The largest body notify_webpush_encrypt() writes: the 4096 octets every
 * push service must accept (RFC 8291 section 4). */
#define NOTIFY_BODY_MAX 4096

/* The aes128gcm header of a Web Push body: salt (16), record size (4),
 * key id length (1) and the sender's public key as the key id (65). */
#define NOTIFY_HEADER_LEN (16 + 4 + 1 + 65)

/* What one record adds to the plaintext: the 0x02 padding delimiter and
 * the 16-byte AES-GCM tag. */
#define NOTIFY_RECORD_OVERHEAD (1 + 16)

/* The longest plaintext that fits in NOTIFY_BODY_MAX as one record:
 * 4096 - 86 - 17 = 3993 bytes. */
#define NOTIFY_PAYLOAD_MAX (NOTIFY_BODY_MAX - NOTIFY_HEADER_LEN - NOTIFY_RECORD_OVERHEAD)

/* The error codes, all negative: name, value, message. */
#define NOTIFY_ERR_MAP(XX)                                                                         \
    XX(ARG, -1, "invalid argument")                                                                \
    XX(NOMEM, -2, "out of memory")                                                                 \
    XX(KEY, -3, "p256dh is not an uncompressed P-256 point on the curve")                          \
    XX(AUTH, -4, "auth secret is not 16 bytes of base64url")                                       \
    XX(TOOBIG, -5, "payload longer than NOTIFY_PAYLOAD_MAX")                                       \
    XX(SPACE, -6, "output buffer too small")                                                       \
    XX(URL, -7, "endpoint is not an http or https URL")                                            \
    XX(CRYPTO, -8, "cryptographic operation failed")

enum notify_err {
#define XX(name, value, msg) NOTIFY_E_##name = (value),
    NOTIFY_ERR_MAP(XX)
#undef XX
};

/* The message of a NOTIFY_E_* code (0 gives "success"); a static string,
 * "unknown error" for any other value. */
const char *notify_strerror(int err);

/* ---- VAPID ---- */

struct notify_vapid;

/* Loads the P-256 key pair from the PEM file at `path`, or, when there is
 * no such file, makes a new one and writes it there (mode 0600, through a
 * temporary file in the same directory, fsync'ed, then renamed). Returns a
 * new key that the caller frees with notify_vapid_free(); NULL on failure,
 * with a message in `err` (errlen bytes, always terminated when errlen > 0). */
struct notify_vapid *notify_vapid_open(const char *path, char *err, size_t errlen);

/* Frees `v`; NULL is fine. */
void notify_vapid_free(struct notify_vapid *v);

/* The public key as base64url without padding of its 65-byte uncompressed
 * point: a browser's applicationServerKey. Borrowed from `v`. */
const char *notify_vapid_public_key(const struct notify_vapid *v);

/* Writes the origin of `endpoint` (scheme://host[:port], scheme and host in
 * lower case, the scheme's default port left out) into `out` (len bytes,
 * terminated): the "aud" of a VAPID token. Returns 0, NOTIFY_E_URL when
 * `endpoint` is not an http or https URL with a host, NOTIFY_E_SPACE when
 * `out` is too small. */
int notify_webpush_audience(const char *endpoint, char *out, size_t len);

/* Makes the Authorization header value for a push to `endpoint` (RFC 8292):
 * "vapid t=<JWT>, k=<public key>", the JWT signed with ES256 and claiming
 * aud (the endpoint's origin), exp (`exp`, seconds since the epoch; RFC
 * 8292 wants it at most 24 hours ahead, the caller reads the clock) and
 * sub (`subject`, a "mailto:" or "https:" URI). On success *ret_header is
 * a malloc'ed string the caller frees and 0 is returned; otherwise
 * NOTIFY_E_ARG, NOTIFY_E_URL, NOTIFY_E_NOMEM or NOTIFY_E_CRYPTO, and
 * *ret_header is untouched. */
int notify_vapid_authorization(struct notify_vapid *v, const char *endpoint, const char *subject,
                               long long exp, char **ret_header);

/* ---- Message encryption ---- */

/* Encrypts `pt` (len bytes) for the subscription whose keys are `p256dh`
 * (base64url of a 65-byte uncompressed P-256 point) and `auth` (base64url
 * of a 16-byte secret), with a fresh ephemeral key and a random salt, as
 * one aes128gcm record of record size 4096. `out` has room for *outlen
 * bytes (NOTIFY_BODY_MAX is always enough); on success *outlen is the
 * body's length and 0 is returned. Errors: NOTIFY_E_KEY, NOTIFY_E_AUTH,
 * NOTIFY_E_TOOBIG (len > NOTIFY_PAYLOAD_MAX), NOTIFY_E_SPACE,
 * NOTIFY_E_ARG, NOTIFY_E_NOMEM, NOTIFY_E_CRYPTO; *outlen is then untouched
 * and `out` holds nothing useful. */
int notify_webpush_encrypt(const char *p256dh, const char *auth, const unsigned char *pt,
                           size_t len, unsigned char *out, size_t *outlen);

#endif
