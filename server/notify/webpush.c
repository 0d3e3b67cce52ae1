/* SPDX-License-Identifier: MIT */
/*
 * webpush.c - Web Push cryptography on OpenSSL 3's EVP interfaces: the
 * VAPID key file and the ES256 token of RFC 8292, and the message
 * encryption of RFC 8291 (ECDH on P-256, HKDF-SHA-256, AES-128-GCM in the
 * aes128gcm coding of RFC 8188). It composes libcrypto's primitives as the
 * RFCs say and implements none of its own. It never opens a socket and
 * never reads a clock: the caller sends the request and passes the time.
 */
#include "webpush.h"
#include "webpush_tests.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <sodium.h>

#define B64 sodium_base64_VARIANT_URLSAFE_NO_PADDING
#define AUTH_LEN 16
#define SECRET_LEN 32
#define CEK_LEN 16
#define NONCE_LEN 12
#define TAG_LEN 16
#define RECORD_SIZE 4096
#define SIG_LEN 64
#define CURVE "prime256v1"

const char *notify_strerror(int err)
{
    switch (err) {
    case 0:
        return "success";
#define XX(name, value, msg)                                                                       \
    case NOTIFY_E_##name:                                                                          \
        return msg;
        NOTIFY_ERR_MAP(XX)
#undef XX
    }
    return "unknown error";
}

/* ---- Encodings and keys ---- */

/* Writes the base64url (no padding) of `bin` into `out`, which has room for
 * sodium_base64_ENCODED_LEN(n, B64) bytes. */
static void b64url(const unsigned char *bin, size_t n, char *out)
{
    sodium_bin2base64(out, sodium_base64_ENCODED_LEN(n, B64), bin, n, B64);
}

/* Decodes the base64url text `s` (trailing '=' tolerated) into exactly
 * `want` bytes of `out`. Returns 0, or -1 when it is not base64url or not
 * that long. */
static int b64url_exact(const char *s, unsigned char *out, size_t want)
{
    unsigned char buf[NOTIFY_POINT_LEN + 1];
    size_t n;

    if (s == NULL || want >= sizeof(buf) ||
        sodium_base642bin(buf, sizeof(buf), s, strlen(s), "=", &n, NULL, B64) != 0 || n != want) {
        return -1;
    }
    memcpy(out, buf, want);
    return 0;
}

/* The P-256 key made of the uncompressed point `pub` and, when `priv` is
 * not NULL, the private scalar `priv` (big-endian). The point must lie on
 * the curve and, with a private key, be its public half. New key, or NULL. */
static EVP_PKEY *p256_key(const unsigned char pub[NOTIFY_POINT_LEN], const unsigned char *priv)
{
    EVP_PKEY *key = NULL;

    if (pub[0] != POINT_CONVERSION_UNCOMPRESSED) {
        return NULL;
    }
    OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
    BIGNUM *d = priv != NULL ? BN_secure_new() : NULL;
    OSSL_PARAM *params = NULL;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
    if (bld == NULL || ctx == NULL || (priv != NULL && d == NULL) ||
        !OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, CURVE, 0) ||
        !OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, pub, NOTIFY_POINT_LEN)) {
        goto done;
    }
    if (priv != NULL && (BN_bin2bn(priv, NOTIFY_PRIV_LEN, d) == NULL ||
                         !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_PRIV_KEY, d))) {
        goto done;
    }
    params = OSSL_PARAM_BLD_to_param(bld);
    int selection = priv != NULL ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY;
    if (params == NULL || EVP_PKEY_fromdata_init(ctx) <= 0 ||
        EVP_PKEY_fromdata(ctx, &key, selection, params) <= 0) {
        goto done;
    }
    EVP_PKEY_CTX *check = EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL);
    bool ok = check != NULL && EVP_PKEY_public_check(check) > 0 &&
              (priv == NULL || EVP_PKEY_pairwise_check(check) > 0);
    EVP_PKEY_CTX_free(check);
    if (!ok) {
        EVP_PKEY_free(key);
        key = NULL;
    }
done:
    EVP_PKEY_CTX_free(ctx);
    OSSL_PARAM_free(params);
    BN_clear_free(d);
    OSSL_PARAM_BLD_free(bld);
    ERR_clear_error();
    return key;
}

/* Writes the uncompressed public point of the P-256 key `key` into `out`.
 * Returns 0 or -1. */
static int p256_point(EVP_PKEY *key, unsigned char out[NOTIFY_POINT_LEN])
{
    size_t n = 0;

    if (!EVP_PKEY_set_utf8_string_param(key, OSSL_PKEY_PARAM_EC_POINT_CONVERSION_FORMAT,
                                        OSSL_PKEY_EC_POINT_CONVERSION_FORMAT_UNCOMPRESSED) ||
        !EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_PUB_KEY, out, NOTIFY_POINT_LEN, &n) ||
        n != NOTIFY_POINT_LEN || out[0] != POINT_CONVERSION_UNCOMPRESSED) {
        ERR_clear_error();
        return -1;
    }
    return 0;
}

/* Whether `key` is an elliptic-curve key on P-256. */
static bool is_p256(const EVP_PKEY *key)
{
    char group[32];
    size_t n = 0;

    bool ok =
        EVP_PKEY_is_a(key, "EC") &&
        EVP_PKEY_get_utf8_string_param(key, OSSL_PKEY_PARAM_GROUP_NAME, group, sizeof(group), &n) &&
        strcmp(group, CURVE) == 0;
    ERR_clear_error();
    return ok;
}

/* ---- Message encryption (RFC 8291, RFC 8188) ---- */

/* HKDF-SHA-256 (RFC 5869), extract then expand: `outlen` bytes into `out`.
 * Returns 0 or -1. */
static int hkdf(const unsigned char *salt, size_t saltlen, const unsigned char *ikm, size_t ikmlen,
                const void *info, size_t infolen, unsigned char *out, size_t outlen)
{
    EVP_KDF *kdf = EVP_KDF_fetch(NULL, "HKDF", NULL);
    EVP_KDF_CTX *ctx = kdf != NULL ? EVP_KDF_CTX_new(kdf) : NULL;
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, (char *)"SHA256", 0),
        OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, (void *)salt, saltlen),
        OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, (void *)ikm, ikmlen),
        OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, (void *)info, infolen),
        OSSL_PARAM_construct_end(),
    };
    int rc = ctx != NULL && EVP_KDF_derive(ctx, out, outlen, params) > 0 ? 0 : -1;
    EVP_KDF_CTX_free(ctx);
    EVP_KDF_free(kdf);
    return rc;
}

/* The ECDH shared secret of `priv` and `peer` into `out`. Returns 0 or -1. */
static int ecdh(EVP_PKEY *priv, EVP_PKEY *peer, unsigned char out[SECRET_LEN])
{
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(NULL, priv, NULL);
    size_t n = SECRET_LEN;

    int rc = ctx != NULL && EVP_PKEY_derive_init(ctx) > 0 &&
                     EVP_PKEY_derive_set_peer(ctx, peer) > 0 && EVP_PKEY_derive(ctx, out, &n) > 0 &&
                     n == SECRET_LEN
                 ? 0
                 : -1;
    EVP_PKEY_CTX_free(ctx);
    return rc;
}

/* AES-128-GCM of `pt` (len bytes) followed by the last-record delimiter
 * 0x02, under `cek` and `nonce`, no associated data: len + 1 bytes of
 * ciphertext then the 16-byte tag into `out`. Returns 0 or -1. */
static int seal_record(const unsigned char cek[CEK_LEN], const unsigned char nonce[NONCE_LEN],
                       const unsigned char *pt, size_t len, unsigned char *out)
{
    static const unsigned char delim = 0x02;
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int n = 0;
    int m = 0;
    int f = 0;

    int rc = ctx != NULL && EVP_EncryptInit_ex2(ctx, EVP_aes_128_gcm(), cek, nonce, NULL) > 0 &&
                     EVP_EncryptUpdate(ctx, out, &n, pt, (int)len) > 0 &&
                     EVP_EncryptUpdate(ctx, out + n, &m, &delim, 1) > 0 &&
                     EVP_EncryptFinal_ex(ctx, out + n + m, &f) > 0 &&
                     (size_t)(n + m + f) == len + 1 &&
                     EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, TAG_LEN, out + len + 1) > 0
                 ? 0
                 : -1;
    EVP_CIPHER_CTX_free(ctx);
    return rc;
}

/* The body for the receiver's point `ua_pub` and secret `auth`, from the
 * sender's key `as_key` and `salt`: RFC 8291 section 3.4 for the input
 * keying material, RFC 8188 section 2 for the record. */
static int encrypt_body(const unsigned char ua_pub[NOTIFY_POINT_LEN], EVP_PKEY *ua_key,
                        const unsigned char auth[AUTH_LEN],
                        const unsigned char salt[NOTIFY_SALT_LEN], EVP_PKEY *as_key,
                        const unsigned char *pt, size_t len, unsigned char *out)
{
    static const char key_label[] = "WebPush: info";
    static const char cek_info[] = "Content-Encoding: aes128gcm";
    static const char nonce_info[] = "Content-Encoding: nonce";
    unsigned char as_pub[NOTIFY_POINT_LEN];
    unsigned char secret[SECRET_LEN];
    unsigned char key_info[sizeof(key_label) + 2 * NOTIFY_POINT_LEN];
    unsigned char ikm[SECRET_LEN];
    unsigned char cek[CEK_LEN];
    unsigned char nonce[NONCE_LEN];
    int rc = NOTIFY_E_CRYPTO;

    /* key_info = "WebPush: info" || 0x00 || ua_public || as_public;
     * IKM = HKDF(auth_secret, ecdh_secret, key_info, 32). */
    memcpy(key_info, key_label, sizeof(key_label));
    memcpy(key_info + sizeof(key_label), ua_pub, NOTIFY_POINT_LEN);
    if (p256_point(as_key, as_pub) != 0 || ecdh(as_key, ua_key, secret) != 0) {
        goto done;
    }
    memcpy(key_info + sizeof(key_label) + NOTIFY_POINT_LEN, as_pub, NOTIFY_POINT_LEN);
    if (hkdf(auth, AUTH_LEN, secret, sizeof(secret), key_info, sizeof(key_info), ikm,
             sizeof(ikm)) != 0 ||
        hkdf(salt, NOTIFY_SALT_LEN, ikm, sizeof(ikm), cek_info, sizeof(cek_info), cek,
             sizeof(cek)) != 0 ||
        hkdf(salt, NOTIFY_SALT_LEN, ikm, sizeof(ikm), nonce_info, sizeof(nonce_info), nonce,
             sizeof(nonce)) != 0) {
        goto done;
    }
    /* The header: salt, rs (uint32, network order), idlen, keyid. The one
     * record's sequence number is 0, so its nonce is NONCE itself. */
    memcpy(out, salt, NOTIFY_SALT_LEN);
    out[16] = (unsigned char)(RECORD_SIZE >> 24);
    out[17] = (unsigned char)(RECORD_SIZE >> 16);
    out[18] = (unsigned char)(RECORD_SIZE >> 8);
    out[19] = (unsigned char)RECORD_SIZE;
    out[20] = NOTIFY_POINT_LEN;
    memcpy(out + 21, as_pub, NOTIFY_POINT_LEN);
    if (seal_record(cek, nonce, pt, len, out + NOTIFY_HEADER_LEN) == 0) {
        rc = 0;
    }
done:
    OPENSSL_cleanse(secret, sizeof(secret));
    OPENSSL_cleanse(ikm, sizeof(ikm));
    OPENSSL_cleanse(cek, sizeof(cek));
    OPENSSL_cleanse(nonce, sizeof(nonce));
    ERR_clear_error();
    return rc;
}

/* Checks the arguments common to both entries and decodes the
 * subscription's keys. On success *ret_ua is a new key. */
static int open_subscription(const char *p256dh, const char *auth, const unsigned char *pt,
                             size_t len, const unsigned char *out, const size_t *outlen,
                             unsigned char ua_pub[NOTIFY_POINT_LEN],
                             unsigned char auth_bytes[AUTH_LEN], EVP_PKEY **ret_ua)
{
    if (p256dh == NULL || auth == NULL || (pt == NULL && len > 0) || out == NULL ||
        outlen == NULL) {
        return NOTIFY_E_ARG;
    }
    if (len > NOTIFY_PAYLOAD_MAX) {
        return NOTIFY_E_TOOBIG;
    }
    if (*outlen < NOTIFY_HEADER_LEN + len + NOTIFY_RECORD_OVERHEAD) {
        return NOTIFY_E_SPACE;
    }
    if (b64url_exact(p256dh, ua_pub, NOTIFY_POINT_LEN) != 0) {
        return NOTIFY_E_KEY;
    }
    if (b64url_exact(auth, auth_bytes, AUTH_LEN) != 0) {
        return NOTIFY_E_AUTH;
    }
    EVP_PKEY *ua = p256_key(ua_pub, NULL);
    if (ua == NULL) {
        return NOTIFY_E_KEY;
    }
    *ret_ua = ua;
    return 0;
}

/* Both entries: `as_key` is the sender's key (NULL: a fresh one) and
 * `salt` the salt (NULL: a random one). */
static int encrypt_for(const char *p256dh, const char *auth, const unsigned char *salt,
                       EVP_PKEY *as_key, const unsigned char *pt, size_t len, unsigned char *out,
                       size_t *outlen)
{
    unsigned char ua_pub[NOTIFY_POINT_LEN];
    unsigned char auth_bytes[AUTH_LEN];
    unsigned char fresh_salt[NOTIFY_SALT_LEN];
    EVP_PKEY *ua = NULL;
    EVP_PKEY *eph = NULL;

    int rc = open_subscription(p256dh, auth, pt, len, out, outlen, ua_pub, auth_bytes, &ua);
    if (rc != 0) {
        return rc;
    }
    rc = NOTIFY_E_CRYPTO;
    if (as_key == NULL) {
        eph = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
        if (eph == NULL) {
            goto done;
        }
        as_key = eph;
    }
    if (salt == NULL) {
        if (RAND_bytes(fresh_salt, sizeof(fresh_salt)) <= 0) {
            goto done;
        }
        salt = fresh_salt;
    }
    rc = encrypt_body(ua_pub, ua, auth_bytes, salt, as_key, pt, len, out);
    if (rc == 0) {
        *outlen = NOTIFY_HEADER_LEN + len + NOTIFY_RECORD_OVERHEAD;
    }
done:
    OPENSSL_cleanse(auth_bytes, sizeof(auth_bytes));
    EVP_PKEY_free(eph);
    EVP_PKEY_free(ua);
    ERR_clear_error();
    return rc;
}

/* The contract is in webpush.h. */
int notify_webpush_encrypt(const char *p256dh, const char *auth, const unsigned char *pt,
                           size_t len, unsigned char *out, size_t *outlen)
{
    return encrypt_for(p256dh, auth, NULL, NULL, pt, len, out, outlen);
}

/* The contract is in webpush_tests.h. */
int notify__webpush_encrypt_with(const char *p256dh, const char *auth,
                                 const unsigned char salt[NOTIFY_SALT_LEN],
                                 const unsigned char as_priv[NOTIFY_PRIV_LEN],
                                 const unsigned char as_pub[NOTIFY_POINT_LEN],
                                 const unsigned char *pt, size_t len, unsigned char *out,
                                 size_t *outlen)
{
    if (salt == NULL || as_priv == NULL || as_pub == NULL) {
        return NOTIFY_E_ARG;
    }
    EVP_PKEY *as_key = p256_key(as_pub, as_priv);
    if (as_key == NULL) {
        return NOTIFY_E_ARG;
    }
    int rc = encrypt_for(p256dh, auth, salt, as_key, pt, len, out, outlen);
    EVP_PKEY_free(as_key);
    return rc;
}

/* ---- VAPID (RFC 8292) ---- */

struct notify_vapid {
    EVP_PKEY *key;
    char pub[sodium_base64_ENCODED_LEN(NOTIFY_POINT_LEN, B64)];
};

/* Formats a message into `err` (errlen bytes) when the caller gave room. */
static void say(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void say(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;

    if (err == NULL || errlen == 0) {
        return;
    }
    va_start(ap, fmt);
    (void)vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* Refuses to prompt for a passphrase: an encrypted key file is refused. */
static int no_passphrase(char *buf, int size, int rwflag, void *u)
{
    return -1;
}

/* Reads the private key of the PEM file `f`; NULL with a message. */
static EVP_PKEY *read_key(FILE *f, const char *path, char *err, size_t errlen)
{
    EVP_PKEY *key = PEM_read_PrivateKey(f, NULL, no_passphrase, NULL);
    ERR_clear_error();
    if (key == NULL) {
        say(err, errlen, "%s: not a PEM private key (unencrypted PKCS#8 or SEC1 expected)", path);
        return NULL;
    }
    if (!is_p256(key)) {
        say(err, errlen, "%s: not a P-256 (prime256v1) key, which VAPID requires", path);
        EVP_PKEY_free(key);
        return NULL;
    }
    return key;
}

/* Writes all `len` bytes of `buf` to `fd`. Returns 0 or -1 (errno set). */
static int write_all(int fd, const char *buf, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, buf, len);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return -1;
        }
        buf += n;
        len -= (size_t)n;
    }
    return 0;
}

/* Flushes the directory that holds `path`, so that a rename into it
 * survives a power cut. Returns 0 or -1 (errno set). */
static int sync_dir(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash == NULL ? strdup(".") : strndup(path, slash == path ? 1 : slash - path);

    if (dir == NULL) {
        return -1;
    }
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    free(dir);
    if (fd < 0) {
        return -1;
    }
    int rc = fsync(fd);
    int saved = errno;
    (void)close(fd);
    errno = saved;
    return rc;
}

/* Writes the PEM (PKCS#8) of `key` to `path` through a temporary file in
 * the same directory: mode 0600, fsync, rename. Returns 0, or -1 with a
 * message. */
static int write_key(EVP_PKEY *key, const char *path, char *err, size_t errlen)
{
    BIO *mem = BIO_new(BIO_s_mem());
    char *pem = NULL;
    size_t tmplen = strlen(path) + sizeof(".XXXXXX");
    char *tmp = malloc(tmplen);
    int rc = -1;

    if (mem == NULL || tmp == NULL ||
        !PEM_write_bio_PrivateKey(mem, key, NULL, NULL, 0, NULL, NULL)) {
        say(err, errlen, "%s: cannot encode the new key", path);
        goto done;
    }
    long pemlen = BIO_get_mem_data(mem, &pem);
    (void)snprintf(tmp, tmplen, "%s.XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        say(err, errlen, "%s: cannot create a temporary file: %s", path, strerror(errno));
        goto done;
    }
    if (fchmod(fd, S_IRUSR | S_IWUSR) != 0 || write_all(fd, pem, (size_t)pemlen) != 0 ||
        fsync(fd) != 0) {
        say(err, errlen, "%s: cannot write the new key: %s", tmp, strerror(errno));
        (void)close(fd);
        goto fail_tmp;
    }
    if (close(fd) != 0 || rename(tmp, path) != 0) {
        say(err, errlen, "%s: cannot install the new key: %s", path, strerror(errno));
        goto fail_tmp;
    }
    if (sync_dir(path) != 0) {
        say(err, errlen, "%s: cannot sync its directory: %s", path, strerror(errno));
        goto done;
    }
    rc = 0;
    goto done;
fail_tmp:
    (void)unlink(tmp);
done:
    free(tmp);
    BIO_free(mem);
    ERR_clear_error();
    return rc;
}

/* The contract is in webpush.h. */
struct notify_vapid *notify_vapid_open(const char *path, char *err, size_t errlen)
{
    unsigned char point[NOTIFY_POINT_LEN];
    EVP_PKEY *key = NULL;

    if (err != NULL && errlen > 0) {
        err[0] = '\0';
    }
    if (path == NULL || path[0] == '\0') {
        say(err, errlen, "no VAPID key file given");
        return NULL;
    }
    FILE *f = fopen(path, "r");
    if (f != NULL) {
        key = read_key(f, path, err, errlen);
        (void)fclose(f);
    } else if (errno == ENOENT) {
        key = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
        if (key == NULL) {
            say(err, errlen, "%s: cannot generate a P-256 key", path);
        } else if (write_key(key, path, err, errlen) != 0) {
            EVP_PKEY_free(key);
            key = NULL;
        }
    } else {
        say(err, errlen, "%s: cannot read: %s", path, strerror(errno));
    }
    if (key == NULL) {
        ERR_clear_error();
        return NULL;
    }
    struct notify_vapid *v = calloc(1, sizeof(*v));
    if (v == NULL || p256_point(key, point) != 0) {
        say(err, errlen, "%s: %s", path, v == NULL ? "out of memory" : "no usable public key");
        free(v);
        EVP_PKEY_free(key);
        return NULL;
    }
    v->key = key;
    b64url(point, sizeof(point), v->pub);
    return v;
}

/* The contract is in webpush.h. */
void notify_vapid_free(struct notify_vapid *v)
{
    if (v == NULL) {
        return;
    }
    EVP_PKEY_free(v->key);
    free(v);
}

/* The contract is in webpush.h. */
const char *notify_vapid_public_key(const struct notify_vapid *v)
{
    return v->pub;
}

/* The contract is in webpush.h. */
int notify_webpush_audience(const char *endpoint, char *out, size_t len)
{
    const char *scheme;
    unsigned long dflt;

    if (endpoint == NULL || out == NULL) {
        return NOTIFY_E_ARG;
    }
    if (strncasecmp(endpoint, "https://", 8) == 0) {
        scheme = "https";
        dflt = 443;
    } else if (strncasecmp(endpoint, "http://", 7) == 0) {
        scheme = "http";
        dflt = 80;
    } else {
        return NOTIFY_E_URL;
    }
    const char *host = endpoint + strlen(scheme) + 3;
    size_t alen = strcspn(host, "/?#");
    for (size_t i = 0; i < alen; i++) {
        unsigned char c = (unsigned char)host[i];
        if (c <= ' ' || c >= 0x7f || c == '@' || c == '\\') {
            return NOTIFY_E_URL;
        }
    }
    /* The port follows the last ':' that is not inside an IPv6 literal. */
    const char *rb = host[0] == '[' ? memchr(host, ']', alen) : host;
    if (rb == NULL) {
        return NOTIFY_E_URL;
    }
    const char *colon = NULL;
    for (const char *p = rb; p < host + alen; p++) {
        if (*p == ':') {
            colon = p;
        }
    }
    size_t hlen = colon != NULL ? (size_t)(colon - host) : alen;
    unsigned long port = dflt;
    if (colon != NULL) {
        size_t plen = alen - hlen - 1;
        if (plen == 0 || plen > 5 || strspn(colon + 1, "0123456789") < plen) {
            return NOTIFY_E_URL;
        }
        port = strtoul(colon + 1, NULL, 10);
        if (port == 0 || port > 65535) {
            return NOTIFY_E_URL;
        }
    }
    if (hlen == 0 || (host[0] == '[' && rb != host + hlen - 1)) {
        return NOTIFY_E_URL;
    }
    char portstr[8] = "";
    if (port != dflt) {
        (void)snprintf(portstr, sizeof(portstr), ":%lu", port);
    }
    size_t need = strlen(scheme) + 3 + hlen + strlen(portstr) + 1;
    if (need > len) {
        return NOTIFY_E_SPACE;
    }
    char *o = out + sprintf(out, "%s://", scheme);
    for (size_t i = 0; i < hlen; i++) {
        *o++ = (char)((host[i] >= 'A' && host[i] <= 'Z') ? host[i] - 'A' + 'a' : host[i]);
    }
    strcpy(o, portstr);
    return 0;
}

/* ES256 (RFC 7518 section 3.4) of `msg`: the JOSE signature, r and s as
 * 32 big-endian bytes each, into `sig`. Returns 0 or -1. */
static int es256(EVP_PKEY *key, const char *msg, size_t len, unsigned char sig[SIG_LEN])
{
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    unsigned char der[80];
    size_t dlen = sizeof(der);
    ECDSA_SIG *ec = NULL;
    int rc = -1;

    if (md == NULL || EVP_DigestSignInit_ex(md, NULL, "SHA256", NULL, NULL, key, NULL) <= 0 ||
        EVP_DigestSign(md, der, &dlen, (const unsigned char *)msg, len) <= 0) {
        goto done;
    }
    const unsigned char *p = der;
    ec = d2i_ECDSA_SIG(NULL, &p, (long)dlen);
    if (ec != NULL && BN_bn2binpad(ECDSA_SIG_get0_r(ec), sig, SIG_LEN / 2) == SIG_LEN / 2 &&
        BN_bn2binpad(ECDSA_SIG_get0_s(ec), sig + SIG_LEN / 2, SIG_LEN / 2) == SIG_LEN / 2) {
        rc = 0;
    }
done:
    ECDSA_SIG_free(ec);
    EVP_MD_CTX_free(md);
    ERR_clear_error();
    return rc;
}

/* The base64url of `s` (n bytes) in a new string, or NULL. */
static char *b64url_new(const void *s, size_t n)
{
    char *out = malloc(sodium_base64_ENCODED_LEN(n, B64));

    if (out != NULL) {
        b64url(s, n, out);
    }
    return out;
}

/* The contract is in webpush.h. */
int notify_vapid_authorization(struct notify_vapid *v, const char *endpoint, const char *subject,
                               long long exp, char **ret_header)
{
    static const char jose[] = "{\"typ\":\"JWT\",\"alg\":\"ES256\"}";
    char aud[512];
    unsigned char sig[SIG_LEN];
    char sig64[sodium_base64_ENCODED_LEN(SIG_LEN, B64)];

    if (v == NULL || endpoint == NULL || subject == NULL || ret_header == NULL || exp <= 0 ||
        (strncmp(subject, "mailto:", 7) != 0 && strncmp(subject, "https:", 6) != 0)) {
        return NOTIFY_E_ARG;
    }
    int rc = notify_webpush_audience(endpoint, aud, sizeof(aud));
    if (rc != 0) {
        return rc == NOTIFY_E_SPACE ? NOTIFY_E_URL : rc;
    }
    json_t *claims =
        json_pack("{s:s, s:I, s:s}", "aud", aud, "exp", (json_int_t)exp, "sub", subject);
    if (claims == NULL) {
        return NOTIFY_E_ARG; /* `subject` is not UTF-8 (or memory ran out) */
    }
    char *body = json_dumps(claims, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(claims);
    char *h64 = b64url_new(jose, sizeof(jose) - 1);
    char *c64 = body != NULL ? b64url_new(body, strlen(body)) : NULL;
    char *header = NULL;
    rc = NOTIFY_E_NOMEM;
    if (h64 == NULL || c64 == NULL) {
        goto done;
    }
    /* "vapid t=" header "." claims "." signature ", k=" key */
    size_t need = 8 + strlen(h64) + 1 + strlen(c64) + 1 + sizeof(sig64) + 4 + strlen(v->pub);
    header = malloc(need);
    if (header == NULL) {
        goto done;
    }
    int start = snprintf(header, need, "vapid t=%s.%s", h64, c64);
    if (es256(v->key, header + 8, (size_t)start - 8, sig) != 0) {
        rc = NOTIFY_E_CRYPTO;
        free(header);
        goto done;
    }
    b64url(sig, sizeof(sig), sig64);
    (void)snprintf(header + start, need - (size_t)start, ".%s, k=%s", sig64, v->pub);
    *ret_header = header;
    rc = 0;
done:
    free(c64);
    free(h64);
    free(body);
    return rc;
}
