/* SPDX-License-Identifier: MIT */
/*
 * selfsigned.c - the data directory's self-signed certificate and the
 * fingerprint of a PEM certificate (see selfsigned.h). Every primitive is
 * OpenSSL's (key generation, X.509 building and signing, SHA-256); this
 * file only composes them and writes the files.
 */
#include "selfsigned.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#define DAY_S 86400
#define SERIAL_BITS 159 /* at most 20 octets, positive, as RFC 5280 4.1.2.2 asks */
#define TEMP_SUFFIX ".XXXXXX"

static void say(char *why, size_t whylen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void say(char *why, size_t whylen, const char *fmt, ...)
{
    va_list ap;

    if (why == NULL || whylen == 0) {
        return;
    }
    va_start(ap, fmt);
    (void)vsnprintf(why, whylen, fmt, ap);
    va_end(ap);
}

/* ---- Reading ---- */

enum load {
    LOAD_OK,
    LOAD_MISSING, /* no such file */
    LOAD_BAD,     /* a file, but not the PEM object asked for */
    LOAD_ERROR,   /* it cannot be opened: said in `why` */
};

/* Refuses to prompt for a passphrase: an encrypted key reads as no key. */
static int no_passphrase(char *buf, int size, int rwflag, void *u)
{
    return -1;
}

/* Reads the first PEM private key (`want_key`) or certificate of `path`
 * into *ret (an EVP_PKEY * or X509 *, the caller's to free). */
static enum load load_pem(const char *path, bool want_key, void **ret, char *why, size_t whylen)
{
    FILE *f = fopen(path, "r");

    if (f == NULL) {
        if (errno == ENOENT) {
            return LOAD_MISSING;
        }
        say(why, whylen, "cannot read %s: %s", path, strerror(errno));
        return LOAD_ERROR;
    }
    void *obj = want_key ? (void *)PEM_read_PrivateKey(f, NULL, no_passphrase, NULL)
                         : (void *)PEM_read_X509_AUX(f, NULL, NULL, NULL);
    (void)fclose(f);
    ERR_clear_error();
    if (obj == NULL) {
        return LOAD_BAD;
    }
    *ret = obj;
    return LOAD_OK;
}

/* The lowercase hex SHA-256 of the DER of `cert` into `out`. 0 or -1. */
static int sha256_hex(const X509 *cert, char out[SELFSIGNED_SHA256_LEN])
{
    static const char digits[] = "0123456789abcdef";
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int n = 0;

    if (!X509_digest(cert, EVP_sha256(), md, &n) || n * 2 + 1 != SELFSIGNED_SHA256_LEN) {
        ERR_clear_error();
        return -1;
    }
    for (unsigned int i = 0; i < n; i++) {
        out[2 * i] = digits[md[i] >> 4];
        out[2 * i + 1] = digits[md[i] & 15];
    }
    out[2 * n] = '\0';
    return 0;
}

/* Why the pair cannot serve 30 days after `now`, or NULL when it can. */
static const char *unfit(X509 *cert, EVP_PKEY *key, time_t now)
{
    time_t soon = now + (time_t)SELFSIGNED_RENEW_DAYS * DAY_S;
    const ASN1_TIME *end = X509_get0_notAfter(cert);
    int cmp_now = X509_cmp_time(end, &now);
    int cmp_soon = X509_cmp_time(end, &soon);
    const char *reason = NULL;

    if (cmp_now == 0 || cmp_soon == 0) {
        reason = "the certificate's end of validity cannot be read";
    } else if (cmp_now < 0) {
        reason = "the certificate has expired";
    } else if (cmp_soon < 0) {
        reason = "the certificate expires within 30 days";
    } else if (X509_check_private_key(cert, key) != 1) {
        reason = "the key is not the certificate's";
    }
    ERR_clear_error();
    return reason;
}

/* ---- Making ---- */

/* Adds the extension `nid` written in OpenSSL's configuration syntax. */
static bool add_ext(X509 *cert, int nid, const char *value)
{
    X509V3_CTX ctx;

    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, cert, cert, NULL, NULL, 0);
    X509_EXTENSION *ext = X509V3_EXT_conf_nid(NULL, &ctx, nid, value);
    bool ok = ext != NULL && X509_add_ext(cert, ext, -1) == 1;
    X509_EXTENSION_free(ext);
    return ok;
}

/* Appends a dNSName (GEN_DNS) or iPAddress (GEN_IPADD) to `names`. */
static bool san_add(GENERAL_NAMES *names, int type, const void *data, size_t len)
{
    GENERAL_NAME *gn = GENERAL_NAME_new();
    ASN1_STRING *s = ASN1_STRING_type_new(type == GEN_DNS ? V_ASN1_IA5STRING : V_ASN1_OCTET_STRING);

    if (gn == NULL || s == NULL || !ASN1_STRING_set(s, data, (int)len)) {
        GENERAL_NAME_free(gn);
        ASN1_STRING_free(s);
        return false;
    }
    GENERAL_NAME_set0_value(gn, type, s);
    if (sk_GENERAL_NAME_push(names, gn) <= 0) {
        GENERAL_NAME_free(gn);
        return false;
    }
    return true;
}

/* The certificate's names: the loopback ones, and `host` when it adds
 * one (an address other than those and the wildcards, or a name). */
static bool san_fill(GENERAL_NAMES *names, const char *host)
{
    static const unsigned char any[16] = {0};
    static const unsigned char lo4[4] = {127, 0, 0, 1};
    static const unsigned char lo6[16] = {[15] = 1};
    unsigned char addr[16];

    if (!san_add(names, GEN_DNS, "localhost", strlen("localhost")) ||
        !san_add(names, GEN_IPADD, lo4, sizeof(lo4)) ||
        !san_add(names, GEN_IPADD, lo6, sizeof(lo6))) {
        return false;
    }
    if (host == NULL || host[0] == '\0' || strcasecmp(host, "localhost") == 0) {
        return true;
    }
    if (inet_pton(AF_INET, host, addr) == 1) {
        bool known = memcmp(addr, any, 4) == 0 || memcmp(addr, lo4, 4) == 0;
        return known || san_add(names, GEN_IPADD, addr, 4);
    }
    if (inet_pton(AF_INET6, host, addr) == 1) {
        bool known = memcmp(addr, any, 16) == 0 || memcmp(addr, lo6, 16) == 0;
        return known || san_add(names, GEN_IPADD, addr, 16);
    }
    size_t n = strlen(host);
    if (strspn(host, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-.") != n) {
        return true; /* not a host name (an interface's, say): nothing to add */
    }
    return san_add(names, GEN_DNS, host, n);
}

/* A new self-signed certificate for `key` (selfsigned.h says what it
 * holds), or NULL. */
static X509 *make_cert(EVP_PKEY *key, const char *host, time_t now)
{
    X509 *cert = X509_new();
    BIGNUM *serial = BN_new();
    GENERAL_NAMES *names = sk_GENERAL_NAME_new_null();
    X509_NAME *subject = cert != NULL ? X509_get_subject_name(cert) : NULL;

    bool ok =
        cert != NULL && serial != NULL && names != NULL && X509_set_version(cert, X509_VERSION_3) &&
        BN_rand(serial, SERIAL_BITS, BN_RAND_TOP_ONE, BN_RAND_BOTTOM_ANY) &&
        BN_to_ASN1_INTEGER(serial, X509_get_serialNumber(cert)) != NULL &&
        X509_time_adj_ex(X509_getm_notBefore(cert), 0, -SELFSIGNED_BACKDATE_S, &now) != NULL &&
        X509_time_adj_ex(X509_getm_notAfter(cert), SELFSIGNED_DAYS, 0, &now) != NULL &&
        X509_NAME_add_entry_by_txt(subject, "CN", MBSTRING_ASC, (const unsigned char *)"conclave",
                                   -1, -1, 0) &&
        X509_set_issuer_name(cert, subject) && X509_set_pubkey(cert, key) &&
        add_ext(cert, NID_basic_constraints, "critical,CA:FALSE") &&
        add_ext(cert, NID_key_usage, "critical,digitalSignature") &&
        add_ext(cert, NID_ext_key_usage, "serverAuth") &&
        add_ext(cert, NID_subject_key_identifier, "hash") && san_fill(names, host) &&
        X509_add1_ext_i2d(cert, NID_subject_alt_name, names, 0, 0) == 1 &&
        X509_sign(cert, key, EVP_sha256()) > 0;
    GENERAL_NAMES_free(names);
    BN_free(serial);
    if (!ok) {
        X509_free(cert);
        return NULL;
    }
    return cert;
}

/* ---- Writing ---- */

/* Writes `key` (when not NULL) or else `cert` as PEM into a new file
 * beside `path` (its name into `tmp`, PATH_MAX bytes), with mode `mode`,
 * flushed to disk. 0, or -1 with a sentence in `why` and no file left. */
static int write_temp(const char *path, EVP_PKEY *key, X509 *cert, mode_t mode, char *tmp,
                      char *why, size_t whylen)
{
    if ((size_t)snprintf(tmp, PATH_MAX, "%s" TEMP_SUFFIX, path) >= PATH_MAX) {
        say(why, whylen, "the path %s is too long", path);
        return -1;
    }
    int fd = mkstemp(tmp);
    if (fd < 0) {
        say(why, whylen, "cannot create a file beside %s: %s", path, strerror(errno));
        return -1;
    }
    errno = 0;
    BIO *out = BIO_new_fd(fd, BIO_NOCLOSE);
    bool ok = out != NULL && fchmod(fd, mode) == 0 &&
              (key != NULL ? PEM_write_bio_PrivateKey(out, key, NULL, NULL, 0, NULL, NULL)
                           : PEM_write_bio_X509(out, cert)) &&
              BIO_flush(out) == 1 && fsync(fd) == 0;
    int saved = errno;
    BIO_free(out);
    if (close(fd) != 0 && ok) {
        ok = false;
        saved = errno;
    }
    if (!ok) {
        say(why, whylen, "cannot write %s: %s", tmp,
            saved != 0 ? strerror(saved) : "encoding failed");
        (void)unlink(tmp);
        return -1;
    }
    return 0;
}

/* Makes a key and its certificate and puts them at r->key and r->cert,
 * their fingerprint into r->sha256. 0, or -1 with a sentence in `why`
 * (the files that were there are then as they were, or the key alone is
 * new). */
static int make_pair(const char *dir, const char *host, time_t now, struct selfsigned_result *r,
                     char *why, size_t whylen)
{
    char tmp_key[PATH_MAX], tmp_cert[PATH_MAX];
    EVP_PKEY *key = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
    X509 *cert = key != NULL ? make_cert(key, host, now) : NULL;
    int rc = -1;

    if (cert == NULL || sha256_hex(cert, r->sha256) != 0) {
        say(why, whylen, "cannot make a P-256 key and its certificate");
        goto done;
    }
    if (write_temp(r->key, key, NULL, S_IRUSR | S_IWUSR, tmp_key, why, whylen) != 0) {
        goto done;
    }
    if (write_temp(r->cert, NULL, cert, S_IRUSR | S_IWUSR | S_IRGRP | S_IROTH, tmp_cert, why,
                   whylen) != 0) {
        goto fail_key;
    }
    if (rename(tmp_key, r->key) != 0) {
        say(why, whylen, "cannot put the new key at %s: %s", r->key, strerror(errno));
        goto fail_cert;
    }
    if (rename(tmp_cert, r->cert) != 0) {
        say(why, whylen, "cannot put the new certificate at %s: %s", r->cert, strerror(errno));
        goto fail_cert;
    }
    /* The renames last once the directory is on disk. */
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    if (fd < 0 || fsync(fd) != 0) {
        say(why, whylen, "cannot flush the directory %s: %s", dir, strerror(errno));
    } else {
        rc = 0;
    }
    if (fd >= 0) {
        (void)close(fd);
    }
    goto done;
fail_cert:
    (void)unlink(tmp_cert);
fail_key:
    (void)unlink(tmp_key); /* ENOENT once renamed */
done:
    X509_free(cert);
    EVP_PKEY_free(key);
    ERR_clear_error();
    return rc;
}

/* ---- The interface ---- */

/* The contract is in selfsigned.h. */
int selfsigned_ensure(const char *dir, const char *host, time_t now, struct selfsigned_result *ret,
                      char *why, size_t whylen)
{
    struct selfsigned_result r;
    void *cert_obj = NULL, *key_obj = NULL;

    memset(&r, 0, sizeof(r));
    if ((size_t)snprintf(r.cert, sizeof(r.cert), "%s/%s", dir, SELFSIGNED_CERT_FILE) >=
            sizeof(r.cert) ||
        (size_t)snprintf(r.key, sizeof(r.key), "%s/%s", dir, SELFSIGNED_KEY_FILE) >=
            sizeof(r.key)) {
        say(why, whylen, "the data directory's path %s is too long", dir);
        return -1;
    }
    enum load has_cert = load_pem(r.cert, false, &cert_obj, why, whylen);
    if (has_cert == LOAD_ERROR) {
        return -1;
    }
    X509 *cert = cert_obj;
    enum load has_key = load_pem(r.key, true, &key_obj, why, whylen);
    if (has_key == LOAD_ERROR) {
        X509_free(cert);
        return -1;
    }
    EVP_PKEY *key = key_obj;
    if (has_cert == LOAD_MISSING && has_key == LOAD_MISSING) {
        r.outcome = SELFSIGNED_MADE;
    } else {
        if (has_cert != LOAD_OK) {
            r.reason = has_cert == LOAD_MISSING ? "the certificate file is missing"
                                                : "the certificate file holds no PEM certificate";
        } else if (has_key != LOAD_OK) {
            r.reason = has_key == LOAD_MISSING
                           ? "the key file is missing"
                           : "the key file holds no unencrypted PEM private key";
        } else {
            r.reason = unfit(cert, key, now);
        }
        r.outcome = r.reason != NULL ? SELFSIGNED_RENEWED : SELFSIGNED_KEPT;
    }
    int rc = 0;
    char *hash = r.outcome == SELFSIGNED_KEPT ? r.sha256 : r.old_sha256;
    if (cert != NULL && sha256_hex(cert, hash) != 0) {
        say(why, whylen, "cannot hash the certificate %s", r.cert);
        rc = -1;
    }
    X509_free(cert);
    EVP_PKEY_free(key);
    if (rc == 0 && r.outcome != SELFSIGNED_KEPT) {
        rc = make_pair(dir, host, now, &r, why, whylen);
    }
    if (rc == 0) {
        *ret = r;
    }
    return rc;
}

/* The contract is in selfsigned.h. */
int selfsigned_fingerprint(const char *path, char ret_sha256[SELFSIGNED_SHA256_LEN], char *why,
                           size_t whylen)
{
    void *obj = NULL;
    char hex[SELFSIGNED_SHA256_LEN];

    switch (load_pem(path, false, &obj, why, whylen)) {
    case LOAD_OK:
        break;
    case LOAD_MISSING:
        say(why, whylen, "cannot read %s: %s", path, strerror(ENOENT));
        return -1;
    case LOAD_BAD:
        say(why, whylen, "%s holds no PEM certificate", path);
        return -1;
    default:
        return -1;
    }
    int rc = sha256_hex(obj, hex);
    X509_free(obj);
    if (rc != 0) {
        say(why, whylen, "cannot hash the certificate %s", path);
        return -1;
    }
    memcpy(ret_sha256, hex, sizeof(hex));
    return 0;
}
