/* SPDX-License-Identifier: MIT */
/*
 * test_webpush.c - Web Push's cryptography: RFC 8291 Appendix A byte for
 * byte, random encryptions read back by a receiver written here on EVP
 * (the user agent's side of RFC 8291 section 3.4 and RFC 8188), the VAPID
 * token checked claim by claim and by its ES256 signature, the key file's
 * creation, mode and reload, and the refusals.
 */
#include "ck_run.h"
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <sodium.h>

#include "webpush.h"
#include "webpush_tests.h"

#define B64 sodium_base64_VARIANT_URLSAFE_NO_PADDING

/* ---- RFC 8291 Appendix A ---- */

static const char rfc_plaintext[] = "When I grow up, I want to be a watermelon";
static const char rfc_as_private[] = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw";
static const char rfc_as_public[] = "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWA"
                                    "mS6TlzAC8wEqKK6PBru3jl7A8";
static const char rfc_ua_private[] = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94";
static const char rfc_ua_public[] = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bj"
                                    "yPjs7Vd8pZGH6SRpkNtoIAiw4";
static const char rfc_salt[] = "DGv6ra1nlYgDCS1FRnbzlw";
static const char rfc_auth[] = "BTBZMqHH6r4Tts7J_aSIgg";
static const char rfc_body[] = "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27ml"
                               "mlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPT"
                               "pK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN";

/* ---- Helpers ---- */

/* Decodes base64url `s` into `out` (cap bytes); returns the length. */
static size_t unb64(const char *s, unsigned char *out, size_t cap)
{
    size_t n = 0;

    ck_assert_int_eq(sodium_base642bin(out, cap, s, strlen(s), NULL, &n, NULL, B64), 0);
    return n;
}

/* The base64url of `bin`, malloc'ed. */
static char *b64(const unsigned char *bin, size_t n)
{
    size_t cap = sodium_base64_ENCODED_LEN(n, B64);
    char *s = malloc(cap);

    ck_assert_ptr_nonnull(s);
    sodium_bin2base64(s, cap, bin, n, B64);
    return s;
}

/* A P-256 key from its uncompressed point and, optionally, its scalar. */
static EVP_PKEY *p256(const unsigned char *pub, size_t publen, const unsigned char *priv)
{
    OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
    BIGNUM *d = priv != NULL ? BN_bin2bn(priv, 32, NULL) : NULL;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
    EVP_PKEY *key = NULL;

    ck_assert(OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0));
    ck_assert(OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, pub, publen));
    if (d != NULL) {
        ck_assert(OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_PRIV_KEY, d));
    }
    OSSL_PARAM *params = OSSL_PARAM_BLD_to_param(bld);
    ck_assert_int_gt(EVP_PKEY_fromdata_init(ctx), 0);
    ck_assert_int_gt(
        EVP_PKEY_fromdata(ctx, &key, d != NULL ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, params),
        0);
    OSSL_PARAM_free(params);
    EVP_PKEY_CTX_free(ctx);
    BN_free(d);
    OSSL_PARAM_BLD_free(bld);
    return key;
}

/* The uncompressed point of `key`. */
static void point_of(EVP_PKEY *key, unsigned char out[65])
{
    size_t n = 0;

    ck_assert(EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_PUB_KEY, out, 65, &n));
    ck_assert_uint_eq(n, 65);
}

/* HKDF-SHA-256 through the EVP_PKEY interface (the library uses EVP_KDF). */
static void hkdf(const unsigned char *salt, size_t saltlen, const unsigned char *ikm, size_t ikmlen,
                 const void *info, size_t infolen, unsigned char *out, size_t len)
{
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_id(EVP_PKEY_HKDF, NULL);

    ck_assert_int_gt(EVP_PKEY_derive_init(ctx), 0);
    ck_assert_int_gt(EVP_PKEY_CTX_set_hkdf_md(ctx, EVP_sha256()), 0);
    ck_assert_int_gt(EVP_PKEY_CTX_set1_hkdf_salt(ctx, salt, (int)saltlen), 0);
    ck_assert_int_gt(EVP_PKEY_CTX_set1_hkdf_key(ctx, ikm, (int)ikmlen), 0);
    ck_assert_int_gt(EVP_PKEY_CTX_add1_hkdf_info(ctx, info, (int)infolen), 0);
    ck_assert_int_gt(EVP_PKEY_derive(ctx, out, &len), 0);
    EVP_PKEY_CTX_free(ctx);
}

/* The user agent's side: decrypts `body` for the receiver `ua` (key pair)
 * with secret `auth`. Returns the plaintext's length into `pt`, or -1 when
 * the body does not decrypt (a bad tag, a bad header, no delimiter). */
static long ua_decrypt(const unsigned char *body, size_t len, EVP_PKEY *ua,
                       const unsigned char auth[16], unsigned char *pt)
{
    unsigned char ua_pub[65];
    unsigned char secret[32];
    unsigned char info[14 + 130];
    unsigned char ikm[32];
    unsigned char cek[16];
    unsigned char nonce[12];
    size_t slen = sizeof(secret);

    if (len < 86 + 17) {
        return -1;
    }
    uint32_t rs =
        (uint32_t)body[16] << 24 | (uint32_t)body[17] << 16 | (uint32_t)body[18] << 8 | body[19];
    ck_assert_uint_eq(rs, 4096);
    ck_assert_uint_eq(body[20], 65);
    ck_assert_uint_le(len - 86, rs);
    EVP_PKEY *as = p256(body + 21, 65, NULL);
    EVP_PKEY_CTX *dctx = EVP_PKEY_CTX_new_from_pkey(NULL, ua, NULL);
    ck_assert_int_gt(EVP_PKEY_derive_init(dctx), 0);
    ck_assert_int_gt(EVP_PKEY_derive_set_peer(dctx, as), 0);
    ck_assert_int_gt(EVP_PKEY_derive(dctx, secret, &slen), 0);
    EVP_PKEY_CTX_free(dctx);
    EVP_PKEY_free(as);

    point_of(ua, ua_pub);
    memcpy(info, "WebPush: info", 14);
    memcpy(info + 14, ua_pub, 65);
    memcpy(info + 79, body + 21, 65);
    hkdf(auth, 16, secret, 32, info, sizeof(info), ikm, 32);
    hkdf(body, 16, ikm, 32, "Content-Encoding: aes128gcm", 28, cek, 16);
    hkdf(body, 16, ikm, 32, "Content-Encoding: nonce", 24, nonce, 12);

    size_t clen = len - 86 - 16;
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    int n = 0;
    int f = 0;
    ck_assert_int_gt(EVP_DecryptInit_ex2(c, EVP_aes_128_gcm(), cek, nonce, NULL), 0);
    ck_assert_int_gt(EVP_DecryptUpdate(c, pt, &n, body + 86, (int)clen), 0);
    ck_assert_int_gt(EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_TAG, 16, (void *)(body + 86 + clen)),
                     0);
    int ok = EVP_DecryptFinal_ex(c, pt + n, &f);
    EVP_CIPHER_CTX_free(c);
    if (ok <= 0 || (size_t)(n + f) != clen) {
        return -1;
    }
    /* RFC 8188 section 2: padding is zeros after the delimiter; the last
     * record's delimiter is 0x02. */
    long end = (long)clen - 1;
    while (end >= 0 && pt[end] == 0) {
        end--;
    }
    if (end < 0 || pt[end] != 2) {
        return -1;
    }
    return end;
}

/* A fresh receiver: a key pair and its subscription keys as base64url. */
struct ua {
    EVP_PKEY *key;
    unsigned char auth[16];
    char *p256dh;
    char *auth64;
};

static void ua_new(struct ua *u)
{
    unsigned char pub[65];

    u->key = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
    ck_assert_ptr_nonnull(u->key);
    point_of(u->key, pub);
    ck_assert_int_gt(RAND_bytes(u->auth, sizeof(u->auth)), 0);
    u->p256dh = b64(pub, sizeof(pub));
    u->auth64 = b64(u->auth, sizeof(u->auth));
}

static void ua_free(struct ua *u)
{
    EVP_PKEY_free(u->key);
    free(u->p256dh);
    free(u->auth64);
}

/* Each test's fixture: a fresh empty directory and a key file path inside
 * it, removed with all it holds after the test, failed or not. */
static struct {
    char dir[64];
    char path[96];
} kd;

static void keydir_new(void)
{
    strcpy(kd.dir, "/tmp/test_webpush.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(kd.dir));
    (void)snprintf(kd.path, sizeof(kd.path), "%s/vapid.pem", kd.dir);
}

/* How many entries `dir` holds, besides . and .. */
static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;

    ck_assert_ptr_nonnull(d);
    for (struct dirent *e = readdir(d); e != NULL; e = readdir(d)) {
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
            n++;
        }
    }
    closedir(d);
    return n;
}

static void keydir_free(void)
{
    DIR *d = opendir(kd.dir);
    char p[512];

    ck_assert_ptr_nonnull(d);
    for (struct dirent *e = readdir(d); e != NULL; e = readdir(d)) {
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
            (void)snprintf(p, sizeof(p), "%s/%s", kd.dir, e->d_name);
            ck_assert_int_eq(unlink(p), 0);
        }
    }
    closedir(d);
    ck_assert_int_eq(rmdir(kd.dir), 0);
}

static void write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "w");

    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(data, 1, len, f), len);
    ck_assert_int_eq(fclose(f), 0);
}

/* ---- Message encryption ---- */

START_TEST(rfc8291_appendix_a)
{
    unsigned char salt[16];
    unsigned char priv[32];
    unsigned char pub[65];
    unsigned char want[NOTIFY_BODY_MAX];
    unsigned char out[NOTIFY_BODY_MAX];
    size_t outlen = sizeof(out);

    ck_assert_uint_eq(unb64(rfc_salt, salt, sizeof(salt)), 16);
    ck_assert_uint_eq(unb64(rfc_as_private, priv, sizeof(priv)), 32);
    ck_assert_uint_eq(unb64(rfc_as_public, pub, sizeof(pub)), 65);
    size_t wantlen = unb64(rfc_body, want, sizeof(want));
    ck_assert_int_eq(notify__webpush_encrypt_with(rfc_ua_public, rfc_auth, salt, priv, pub,
                                                  (const unsigned char *)rfc_plaintext,
                                                  strlen(rfc_plaintext), out, &outlen),
                     0);
    ck_assert_uint_eq(outlen, wantlen);
    ck_assert_mem_eq(out, want, wantlen);
}
END_TEST

/* The RFC's receiver: its key pair, and its secret into `auth`. */
static EVP_PKEY *rfc_receiver(unsigned char auth[16])
{
    unsigned char priv[32];
    unsigned char pub[65];

    ck_assert_uint_eq(unb64(rfc_ua_private, priv, sizeof(priv)), 32);
    ck_assert_uint_eq(unb64(rfc_ua_public, pub, sizeof(pub)), 65);
    ck_assert_uint_eq(unb64(rfc_auth, auth, 16), 16);
    return p256(pub, sizeof(pub), priv);
}

/* Checks that the RFC's receiver reads `body` as the RFC's plaintext. */
static void assert_watermelon(const unsigned char *body, size_t len)
{
    unsigned char auth[16];
    unsigned char pt[NOTIFY_BODY_MAX];
    EVP_PKEY *ua = rfc_receiver(auth);

    long n = ua_decrypt(body, len, ua, auth, pt);
    ck_assert_int_eq(n, (long)strlen(rfc_plaintext));
    ck_assert_mem_eq(pt, rfc_plaintext, (size_t)n);
    EVP_PKEY_free(ua);
}

START_TEST(rfc8291_body_decrypts_here)
{
    /* The receiver of this file reads the RFC's own body, so a round trip
     * through it checks the library against the RFC, not against itself. */
    unsigned char auth[16];
    unsigned char body[NOTIFY_BODY_MAX];
    unsigned char pt[NOTIFY_BODY_MAX];

    size_t len = unb64(rfc_body, body, sizeof(body));
    assert_watermelon(body, len);
    EVP_PKEY *ua = rfc_receiver(auth);
    body[len - 1] ^= 1; /* the tag */
    ck_assert_int_eq(ua_decrypt(body, len, ua, auth, pt), -1);
    EVP_PKEY_free(ua);
}
END_TEST

START_TEST(random_encryption_round_trips)
{
    struct ua u;
    unsigned char msg[NOTIFY_PAYLOAD_MAX];
    unsigned char out[NOTIFY_BODY_MAX];
    unsigned char again[NOTIFY_BODY_MAX];
    unsigned char pt[NOTIFY_BODY_MAX];
    const size_t sizes[] = {0, 1, 41, 1000, NOTIFY_PAYLOAD_MAX};

    ua_new(&u);
    ck_assert_int_gt(RAND_bytes(msg, sizeof(msg)), 0);
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        size_t outlen = sizeof(out);
        size_t againlen = sizeof(again);
        ck_assert_int_eq(notify_webpush_encrypt(u.p256dh, u.auth64, msg, sizes[i], out, &outlen),
                         0);
        ck_assert_uint_eq(outlen, NOTIFY_HEADER_LEN + sizes[i] + NOTIFY_RECORD_OVERHEAD);
        ck_assert_uint_le(outlen, NOTIFY_BODY_MAX);
        long n = ua_decrypt(out, outlen, u.key, u.auth, pt);
        ck_assert_int_eq(n, (long)sizes[i]);
        ck_assert_mem_eq(pt, msg, sizes[i]);

        /* A second encryption has its own salt and key. */
        ck_assert_int_eq(
            notify_webpush_encrypt(u.p256dh, u.auth64, msg, sizes[i], again, &againlen), 0);
        ck_assert_uint_eq(againlen, outlen);
        ck_assert(memcmp(again, out, 16) != 0);
        ck_assert(memcmp(again + 21, out + 21, 65) != 0);

        out[NOTIFY_HEADER_LEN] ^= 0x80;
        ck_assert_int_eq(ua_decrypt(out, outlen, u.key, u.auth, pt), -1);
    }
    ck_assert_uint_eq(NOTIFY_HEADER_LEN + NOTIFY_PAYLOAD_MAX + NOTIFY_RECORD_OVERHEAD,
                      NOTIFY_BODY_MAX);
    ua_free(&u);
}
END_TEST

START_TEST(random_encryption_for_the_rfc_receiver)
{
    unsigned char out[NOTIFY_BODY_MAX];
    size_t outlen = sizeof(out);

    ck_assert_int_eq(notify_webpush_encrypt(rfc_ua_public, rfc_auth,
                                            (const unsigned char *)rfc_plaintext,
                                            strlen(rfc_plaintext), out, &outlen),
                     0);
    assert_watermelon(out, outlen);
}
END_TEST

START_TEST(bad_subscription_keys_are_refused)
{
    unsigned char pub[66];
    unsigned char out[NOTIFY_BODY_MAX];
    const unsigned char msg[] = "hi";
    size_t outlen = sizeof(out);

    ck_assert_uint_eq(unb64(rfc_ua_public, pub, 65), 65);
    char *short_key = b64(pub, 64);
    pub[65] = 0;
    char *long_key = b64(pub, 66);
    pub[0] = 0x02; /* compressed form, 33 bytes */
    char *compressed = b64(pub, 33);
    pub[0] = 0x04;
    pub[64] ^= 1; /* y no longer matches x */
    char *off_curve = b64(pub, 65);
    const char *bad_keys[] = {short_key, long_key, compressed, off_curve, "", "not base64!"};
    for (size_t i = 0; i < sizeof(bad_keys) / sizeof(bad_keys[0]); i++) {
        ck_assert_int_eq(notify_webpush_encrypt(bad_keys[i], rfc_auth, msg, 2, out, &outlen),
                         NOTIFY_E_KEY);
        ck_assert_uint_eq(outlen, sizeof(out));
    }
    const char *bad_auth[] = {"BTBZMqHH6r4Tts7J_aSI", "BTBZMqHH6r4Tts7J_aSIggAA", "", "!!"};
    for (size_t i = 0; i < sizeof(bad_auth) / sizeof(bad_auth[0]); i++) {
        ck_assert_int_eq(notify_webpush_encrypt(rfc_ua_public, bad_auth[i], msg, 2, out, &outlen),
                         NOTIFY_E_AUTH);
    }
    ck_assert_int_eq(notify_webpush_encrypt(NULL, rfc_auth, msg, 2, out, &outlen), NOTIFY_E_ARG);
    ck_assert_int_eq(notify_webpush_encrypt(rfc_ua_public, rfc_auth, msg, 2, out, NULL),
                     NOTIFY_E_ARG);
    ck_assert_uint_eq(outlen, sizeof(out));
    free(short_key);
    free(long_key);
    free(compressed);
    free(off_curve);
}
END_TEST

START_TEST(too_long_plaintext_is_refused)
{
    static unsigned char msg[NOTIFY_PAYLOAD_MAX + 1];
    unsigned char out[NOTIFY_BODY_MAX];
    size_t outlen = sizeof(out);

    ck_assert_int_eq(
        notify_webpush_encrypt(rfc_ua_public, rfc_auth, msg, sizeof(msg), out, &outlen),
        NOTIFY_E_TOOBIG);
    ck_assert_uint_eq(outlen, sizeof(out));
    ck_assert_int_eq(
        notify_webpush_encrypt(rfc_ua_public, rfc_auth, msg, sizeof(msg) - 1, out, &outlen), 0);
    ck_assert_uint_eq(outlen, NOTIFY_BODY_MAX);
    /* A buffer one byte short of the body. */
    outlen = NOTIFY_HEADER_LEN + 10 + NOTIFY_RECORD_OVERHEAD - 1;
    ck_assert_int_eq(notify_webpush_encrypt(rfc_ua_public, rfc_auth, msg, 10, out, &outlen),
                     NOTIFY_E_SPACE);
}
END_TEST

START_TEST(mismatched_sender_pair_is_refused)
{
    unsigned char salt[16] = {0};
    unsigned char priv[32];
    unsigned char pub[65];
    unsigned char out[NOTIFY_BODY_MAX];
    size_t outlen = sizeof(out);

    ck_assert_uint_eq(unb64(rfc_ua_private, priv, sizeof(priv)), 32);
    ck_assert_uint_eq(unb64(rfc_as_public, pub, sizeof(pub)), 65);
    ck_assert_int_eq(notify__webpush_encrypt_with(rfc_ua_public, rfc_auth, salt, priv, pub,
                                                  (const unsigned char *)"x", 1, out, &outlen),
                     NOTIFY_E_ARG);
}
END_TEST

/* ---- VAPID ---- */

START_TEST(key_file_is_created_then_reloaded)
{
    char err[256];
    struct stat st;
    unsigned char pub[66];

    struct notify_vapid *v = notify_vapid_open(kd.path, err, sizeof(err));
    ck_assert_msg(v != NULL, "%s", err);
    ck_assert_int_eq(stat(kd.path, &st), 0);
    ck_assert_uint_eq(st.st_mode & 0777, 0600);
    ck_assert_int_eq(entries(kd.dir), 1); /* no temporary file left */
    const char *key = notify_vapid_public_key(v);
    ck_assert_uint_eq(strlen(key), 87);
    ck_assert_uint_eq(unb64(key, pub, sizeof(pub)), 65);
    ck_assert_uint_eq(pub[0], 0x04);

    struct notify_vapid *again = notify_vapid_open(kd.path, err, sizeof(err));
    ck_assert_msg(again != NULL, "%s", err);
    ck_assert_str_eq(notify_vapid_public_key(again), key);
    notify_vapid_free(again);

    /* The file is a PEM private key that OpenSSL reads as P-256. */
    FILE *f = fopen(kd.path, "r");
    EVP_PKEY *pk = PEM_read_PrivateKey(f, NULL, NULL, NULL);
    fclose(f);
    ck_assert_ptr_nonnull(pk);
    unsigned char point[65];
    point_of(pk, point);
    ck_assert_mem_eq(point, pub, 65);
    EVP_PKEY_free(pk);

    /* Another file gets another key. */
    char other[128];
    (void)snprintf(other, sizeof(other), "%s/other.pem", kd.dir);
    struct notify_vapid *w = notify_vapid_open(other, err, sizeof(err));
    ck_assert_msg(w != NULL, "%s", err);
    ck_assert_str_ne(notify_vapid_public_key(w), key);
    notify_vapid_free(w);
    notify_vapid_free(v);
    notify_vapid_free(NULL);
}
END_TEST

START_TEST(bad_key_files_are_refused)
{
    char err[256];

    write_file(kd.path, "-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----\n", 64);
    err[0] = '\0';
    ck_assert_ptr_null(notify_vapid_open(kd.path, err, sizeof(err)));
    ck_assert_ptr_nonnull(strstr(err, kd.path));
    ck_assert_ptr_nonnull(strstr(err, "not a PEM private key"));

    write_file(kd.path, "", 0);
    err[0] = '\0';
    ck_assert_ptr_null(notify_vapid_open(kd.path, err, sizeof(err)));
    ck_assert_ptr_nonnull(strstr(err, "not a PEM private key"));

    /* A P-384 key is a good key, but not VAPID's curve. */
    EVP_PKEY *p384 = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-384");
    FILE *f = fopen(kd.path, "w");
    ck_assert(PEM_write_PrivateKey(f, p384, NULL, NULL, 0, NULL, NULL));
    fclose(f);
    EVP_PKEY_free(p384);
    err[0] = '\0';
    ck_assert_ptr_null(notify_vapid_open(kd.path, err, sizeof(err)));
    ck_assert_ptr_nonnull(strstr(err, "not a P-256"));

    /* A file that cannot be read is not replaced by a new key. */
    if (geteuid() != 0) {
        ck_assert_int_eq(chmod(kd.path, 0), 0);
        err[0] = '\0';
        ck_assert_ptr_null(notify_vapid_open(kd.path, err, sizeof(err)));
        ck_assert_ptr_nonnull(strstr(err, "cannot read"));
        ck_assert_int_eq(chmod(kd.path, 0600), 0);
    }

    /* No directory to create the file in. */
    char nodir[128];
    (void)snprintf(nodir, sizeof(nodir), "%s/missing/vapid.pem", kd.dir);
    err[0] = '\0';
    ck_assert_ptr_null(notify_vapid_open(nodir, err, sizeof(err)));
    ck_assert_ptr_nonnull(strstr(err, nodir));
    ck_assert_int_eq(entries(kd.dir), 1);

    ck_assert_ptr_null(notify_vapid_open("", err, sizeof(err)));
    ck_assert_str_ne(err, "");
}
END_TEST

/* The base64url segment [s, s + n) decoded into a new string. */
static char *segment(const char *s, size_t n, size_t *ret_len)
{
    unsigned char *out = malloc(n + 1);

    ck_assert_ptr_nonnull(out);
    ck_assert_int_eq(sodium_base642bin(out, n, s, n, NULL, ret_len, NULL, B64), 0);
    out[*ret_len] = '\0';
    return (char *)out;
}

/* Verifies the JOSE signature `sig` (r||s) of `msg` with the public point
 * `pub`, turned into DER as libcrypto wants it. */
static bool es256_verifies(const unsigned char pub[65], const char *msg, size_t len,
                           const unsigned char sig[64])
{
    ECDSA_SIG *es = ECDSA_SIG_new();
    unsigned char *der = NULL;

    ck_assert(ECDSA_SIG_set0(es, BN_bin2bn(sig, 32, NULL), BN_bin2bn(sig + 32, 32, NULL)));
    int dlen = i2d_ECDSA_SIG(es, &der);
    ck_assert_int_gt(dlen, 0);
    EVP_PKEY *key = p256(pub, 65, NULL);
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    ck_assert_int_gt(EVP_DigestVerifyInit(md, NULL, EVP_sha256(), NULL, key), 0);
    int ok = EVP_DigestVerify(md, der, (size_t)dlen, (const unsigned char *)msg, len);
    EVP_MD_CTX_free(md);
    EVP_PKEY_free(key);
    OPENSSL_free(der);
    ECDSA_SIG_free(es);
    return ok == 1;
}

START_TEST(vapid_token_claims_and_signature)
{
    char err[256];
    char *header = NULL;
    unsigned char pub[66];

    struct notify_vapid *v = notify_vapid_open(kd.path, err, sizeof(err));
    ck_assert_msg(v != NULL, "%s", err);
    ck_assert_int_eq(notify_vapid_authorization(v, "https://Push.Example.NET:443/wpush/v2/abc?x=1",
                                                "mailto:admin@example.org", 1700000000LL, &header),
                     0);

    ck_assert_int_eq(strncmp(header, "vapid t=", 8), 0);
    const char *jwt = header + 8;
    const char *k_at = strstr(jwt, ", k=");
    ck_assert_ptr_nonnull(k_at);
    ck_assert_str_eq(k_at + 4, notify_vapid_public_key(v));
    ck_assert_uint_eq(unb64(k_at + 4, pub, sizeof(pub)), 65);

    const char *dot1 = strchr(jwt, '.');
    ck_assert_ptr_nonnull(dot1);
    const char *dot2 = strchr(dot1 + 1, '.');
    ck_assert_ptr_nonnull(dot2);
    ck_assert(dot2 < k_at);
    ck_assert_ptr_null(memchr(dot2 + 1, '.', (size_t)(k_at - dot2 - 1)));

    size_t n;
    char *jose = segment(jwt, (size_t)(dot1 - jwt), &n);
    json_t *h = json_loads(jose, 0, NULL);
    ck_assert_ptr_nonnull(h);
    ck_assert_uint_eq(json_object_size(h), 2);
    ck_assert_str_eq(json_string_value(json_object_get(h, "typ")), "JWT");
    ck_assert_str_eq(json_string_value(json_object_get(h, "alg")), "ES256");
    json_decref(h);
    free(jose);

    char *body = segment(dot1 + 1, (size_t)(dot2 - dot1 - 1), &n);
    json_t *c = json_loads(body, 0, NULL);
    ck_assert_ptr_nonnull(c);
    ck_assert_uint_eq(json_object_size(c), 3);
    ck_assert_str_eq(json_string_value(json_object_get(c, "aud")), "https://push.example.net");
    ck_assert(json_is_integer(json_object_get(c, "exp")));
    ck_assert_int_eq(json_integer_value(json_object_get(c, "exp")), 1700000000LL);
    ck_assert_str_eq(json_string_value(json_object_get(c, "sub")), "mailto:admin@example.org");
    json_decref(c);
    free(body);

    char *sig = segment(dot2 + 1, (size_t)(k_at - dot2 - 1), &n);
    ck_assert_uint_eq(n, 64);
    size_t signed_len = (size_t)(dot2 - jwt);
    ck_assert(es256_verifies(pub, jwt, signed_len, (unsigned char *)sig));
    /* The signature covers the claims: one changed byte fails. */
    char *forged = strndup(jwt, signed_len);
    forged[signed_len - 1] = forged[signed_len - 1] == 'A' ? 'B' : 'A';
    ck_assert(!es256_verifies(pub, forged, signed_len, (unsigned char *)sig));
    free(forged);
    free(sig);
    free(header);
    notify_vapid_free(v);
}
END_TEST

START_TEST(vapid_token_refusals)
{
    char err[256];
    char *header = NULL;

    struct notify_vapid *v = notify_vapid_open(kd.path, err, sizeof(err));
    ck_assert_msg(v != NULL, "%s", err);
    static const struct {
        bool key;
        const char *endpoint;
        const char *subject;
        long long exp;
        int rc;
    } bad[] = {
        {true, "ftp://push.example.net/x", "mailto:a@b.c", 1, NOTIFY_E_URL},
        {true, "https://push.example.net/x", "admin", 1, NOTIFY_E_ARG},
        {true, "https://push.example.net/x", "mailto:a@b.c", 0, NOTIFY_E_ARG},
        {true, "https://push.example.net/x", "mailto:\xff", 1, NOTIFY_E_ARG},
        {false, "https://push.example.net/x", "mailto:a@b.c", 1, NOTIFY_E_ARG},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        ck_assert_int_eq(notify_vapid_authorization(bad[i].key ? v : NULL, bad[i].endpoint,
                                                    bad[i].subject, bad[i].exp, &header),
                         bad[i].rc);
    }
    ck_assert_ptr_null(header);
    notify_vapid_free(v);
}
END_TEST

START_TEST(audience_is_the_origin)
{
    static const struct {
        const char *endpoint;
        const char *aud;
    } ok[] = {
        {"https://fcm.googleapis.com/fcm/send/abc:def", "https://fcm.googleapis.com"},
        {"https://updates.push.services.mozilla.com/wpush/v2/gAAA",
         "https://updates.push.services.mozilla.com"},
        {"HTTPS://Web.Push.Apple.COM/QGx", "https://web.push.apple.com"},
        {"https://push.example.net:8443/x", "https://push.example.net:8443"},
        {"https://push.example.net:443/x", "https://push.example.net"},
        {"http://localhost:8080/push?id=1", "http://localhost:8080"},
        {"http://localhost:80", "http://localhost"},
        {"https://[::1]:9443/p", "https://[::1]:9443"},
        {"https://[::1]/p", "https://[::1]"},
        {"https://host#frag", "https://host"},
    };
    static const char *const bad[] = {
        "ftp://host/x",    "https://",           "https:///path",    "https://user@host/",
        "https://host:/x", "https://host:99999", "https://host:0/x", "https://ho st/",
        "https://[::1/x",  "https://[::1]x/",    "host/path",        "https://host:8a/",
    };
    char out[128];

    for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
        ck_assert_int_eq(notify_webpush_audience(ok[i].endpoint, out, sizeof(out)), 0);
        ck_assert_str_eq(out, ok[i].aud);
    }
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        ck_assert_msg(notify_webpush_audience(bad[i], out, sizeof(out)) == NOTIFY_E_URL, "%s",
                      bad[i]);
    }
    /* Exactly large enough, then one byte short. */
    ck_assert_int_eq(notify_webpush_audience("https://abc/x", out, 12), 0);
    ck_assert_str_eq(out, "https://abc");
    ck_assert_int_eq(notify_webpush_audience("https://abc/x", out, 11), NOTIFY_E_SPACE);
}
END_TEST

START_TEST(every_error_has_a_message)
{
    const int codes[] = {NOTIFY_E_ARG,    NOTIFY_E_NOMEM, NOTIFY_E_KEY, NOTIFY_E_AUTH,
                         NOTIFY_E_TOOBIG, NOTIFY_E_SPACE, NOTIFY_E_URL, NOTIFY_E_CRYPTO};
    const size_t n = sizeof(codes) / sizeof(codes[0]);

    for (size_t i = 0; i < n; i++) {
        ck_assert_int_lt(codes[i], 0);
        ck_assert_str_ne(notify_strerror(codes[i]), "unknown error");
        for (size_t j = i + 1; j < n; j++) {
            ck_assert_int_ne(codes[i], codes[j]);
            ck_assert_str_ne(notify_strerror(codes[i]), notify_strerror(codes[j]));
        }
    }
    ck_assert_str_eq(notify_strerror(0), "success");
    ck_assert_str_eq(notify_strerror(-1000), "unknown error");
}
END_TEST

int main(void)
{
    const struct ck_case cases[] = {
        {"rfc8291_appendix_a", rfc8291_appendix_a},
        {"rfc8291_body_decrypts_here", rfc8291_body_decrypts_here},
        {"random_encryption_round_trips", random_encryption_round_trips},
        {"random_encryption_for_the_rfc_receiver", random_encryption_for_the_rfc_receiver},
        {"bad_subscription_keys_are_refused", bad_subscription_keys_are_refused},
        {"too_long_plaintext_is_refused", too_long_plaintext_is_refused},
        {"mismatched_sender_pair_is_refused", mismatched_sender_pair_is_refused},
        {"key_file_is_created_then_reloaded", key_file_is_created_then_reloaded},
        {"bad_key_files_are_refused", bad_key_files_are_refused},
        {"vapid_token_claims_and_signature", vapid_token_claims_and_signature},
        {"vapid_token_refusals", vapid_token_refusals},
        {"audience_is_the_origin", audience_is_the_origin},
        {"every_error_has_a_message", every_error_has_a_message},
    };
    return CK_RUN("webpush", cases, keydir_new, keydir_free);
}
