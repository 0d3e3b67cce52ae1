/* SPDX-License-Identifier: MIT */
/*
 * test_selfsigned.c - the key and certificate of --tls-self-signed: made
 * in an empty directory with every field selfsigned.h promises (read back
 * through OpenSSL), kept by a later start, made anew when the certificate
 * ends within 30 days, has ended, or is not the key's, or a file is
 * missing or broken; the host in the subjectAltName; the fingerprint of
 * the first certificate of a PEM file; and the refusals, which leave no
 * temporary file behind.
 */
#include "ck_run.h"
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "selfsigned.h"

/* A fixed start time (2023-11-14): every validity is checked exactly. */
#define T0 ((time_t)1700000000)
#define DAY ((time_t)86400)

static struct {
    char dir[64];
    char why[PATH_MAX + 256];
} fx;

/* ---- Fixture and helpers ---- */

static void dir_new(void)
{
    strcpy(fx.dir, "/tmp/test_selfsigned.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(fx.dir));
    fx.why[0] = '\0';
}

/* Each entry of the directory; *ret_temps counts the temporary files
 * (NAME.XXXXXX) among them. */
static int count_entries(int *ret_temps)
{
    DIR *d = opendir(fx.dir);
    int n = 0, temps = 0;

    ck_assert_ptr_nonnull(d);
    for (struct dirent *e = readdir(d); e != NULL; e = readdir(d)) {
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
            n++;
            temps += strstr(e->d_name, ".pem.") != NULL;
        }
    }
    closedir(d);
    *ret_temps = temps;
    return n;
}

static void dir_free(void)
{
    DIR *d = opendir(fx.dir);
    char p[PATH_MAX];

    ck_assert_ptr_nonnull(d);
    for (struct dirent *e = readdir(d); e != NULL; e = readdir(d)) {
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
            (void)snprintf(p, sizeof(p), "%s/%s", fx.dir, e->d_name);
            ck_assert_int_eq(unlink(p) == 0 || (errno == EISDIR && rmdir(p) == 0), 1);
        }
    }
    closedir(d);
    ck_assert_int_eq(rmdir(fx.dir), 0);
}

/* selfsigned_ensure() on the fixture's directory, which must succeed. */
static struct selfsigned_result ensure(const char *host, time_t now)
{
    struct selfsigned_result r;

    int rc = selfsigned_ensure(fx.dir, host, now, &r, fx.why, sizeof(fx.why));
    ck_assert_msg(rc == 0, "%s", fx.why);
    return r;
}

/* The first certificate (or, with `want_key`, private key) of a PEM file. */
static void *pem_read(const char *path, bool want_key)
{
    FILE *f = fopen(path, "r");

    ck_assert_ptr_nonnull(f);
    void *obj = want_key ? (void *)PEM_read_PrivateKey(f, NULL, NULL, NULL)
                         : (void *)PEM_read_X509(f, NULL, NULL, NULL);
    fclose(f);
    ck_assert_ptr_nonnull(obj);
    return obj;
}

static X509 *cert_read(const char *path)
{
    return pem_read(path, false);
}

static EVP_PKEY *key_read(const char *path)
{
    return pem_read(path, true);
}

/* The whole of a small file, in a static buffer; its length in *ret_len. */
static const char *slurp(const char *path, size_t *ret_len)
{
    static char buf[2][8192];
    static int turn;
    FILE *f = fopen(path, "r");

    ck_assert_ptr_nonnull(f);
    turn ^= 1;
    *ret_len = fread(buf[turn], 1, sizeof(buf[turn]), f);
    ck_assert(feof(f));
    fclose(f);
    return buf[turn];
}

static void spill(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");

    ck_assert_ptr_nonnull(f);
    ck_assert_int_ge(fputs(text, f), 0);
    ck_assert_int_eq(fclose(f), 0);
}

/* The lowercase hex SHA-256 of the DER of `cert`, computed here from
 * i2d_X509() rather than as the library does. */
static void der_sha256(X509 *cert, char out[SELFSIGNED_SHA256_LEN])
{
    unsigned char *der = NULL;
    unsigned char md[32];
    unsigned int n = 0;

    int len = i2d_X509(cert, &der);
    ck_assert_int_gt(len, 0);
    ck_assert(EVP_Digest(der, (size_t)len, md, &n, EVP_sha256(), NULL));
    ck_assert_uint_eq(n, 32);
    for (unsigned int i = 0; i < n; i++) {
        (void)snprintf(out + 2 * i, 3, "%02x", md[i]);
    }
    OPENSSL_free(der);
}

/* Seconds from `t` to the ASN.1 time `when`. */
static long seconds_from(time_t t, const ASN1_TIME *when)
{
    ASN1_TIME *base = ASN1_TIME_set(NULL, t);
    int days = 0, secs = 0;

    ck_assert(ASN1_TIME_diff(&days, &secs, base, when));
    ASN1_TIME_free(base);
    return (long)days * 86400 + secs;
}

/* The certificate's subjectAltName as text, "DNS:a IP:7f000001 ...". */
static void san_text(X509 *cert, char *out, size_t cap)
{
    GENERAL_NAMES *names = X509_get_ext_d2i(cert, NID_subject_alt_name, NULL, NULL);
    size_t used = 0;

    ck_assert_ptr_nonnull(names);
    out[0] = '\0';
    for (int i = 0; i < sk_GENERAL_NAME_num(names); i++) {
        const GENERAL_NAME *gn = sk_GENERAL_NAME_value(names, i);
        int type = 0;
        const ASN1_STRING *s = GENERAL_NAME_get0_value(gn, &type);
        const unsigned char *d = ASN1_STRING_get0_data(s);
        int len = ASN1_STRING_length(s);
        ck_assert(type == GEN_DNS || type == GEN_IPADD);
        used += (size_t)snprintf(out + used, cap - used, "%s%s:", i ? " " : "",
                                 type == GEN_DNS ? "DNS" : "IP");
        for (int j = 0; j < len; j++) {
            used += (size_t)(type == GEN_DNS ? snprintf(out + used, cap - used, "%c", d[j])
                                             : snprintf(out + used, cap - used, "%02x", d[j]));
        }
        ck_assert_uint_lt(used, cap);
    }
    GENERAL_NAMES_free(names);
}

#define LOOPBACK_NAMES "DNS:localhost IP:7f000001 IP:00000000000000000000000000000001"

/* ---- Making ---- */

START_TEST(made_in_an_empty_directory)
{
    struct stat st;
    char want[PATH_MAX];
    int temps = 0;

    struct selfsigned_result r = ensure("127.0.0.1", T0);
    ck_assert_int_eq(r.outcome, SELFSIGNED_MADE);
    ck_assert_ptr_null(r.reason);
    ck_assert_str_eq(r.old_sha256, "");
    ck_assert_uint_eq(strlen(r.sha256), 64);
    ck_assert_uint_eq(strspn(r.sha256, "0123456789abcdef"), 64);
    (void)snprintf(want, sizeof(want), "%s/tls-cert.pem", fx.dir);
    ck_assert_str_eq(r.cert, want);
    (void)snprintf(want, sizeof(want), "%s/tls-key.pem", fx.dir);
    ck_assert_str_eq(r.key, want);
    ck_assert_int_eq(stat(r.key, &st), 0);
    ck_assert_uint_eq(st.st_mode & 0777, 0600);
    ck_assert_int_eq(count_entries(&temps), 2);
    ck_assert_int_eq(temps, 0);

    X509 *cert = cert_read(r.cert);
    char sha[SELFSIGNED_SHA256_LEN];
    der_sha256(cert, sha);
    ck_assert_str_eq(sha, r.sha256);
    X509_free(cert);
}
END_TEST

START_TEST(the_certificate_holds_what_the_header_says)
{
    struct selfsigned_result r = ensure("", T0);
    X509 *cert = cert_read(r.cert);
    EVP_PKEY *key = key_read(r.key);
    char group[32], cn[32], names[256];
    size_t n = 0;

    /* A P-256 key, the certificate's, which signed it. */
    ck_assert(EVP_PKEY_is_a(key, "EC"));
    ck_assert(
        EVP_PKEY_get_utf8_string_param(key, OSSL_PKEY_PARAM_GROUP_NAME, group, sizeof(group), &n));
    ck_assert_str_eq(group, "prime256v1");
    ck_assert_int_eq(X509_check_private_key(cert, key), 1);
    ck_assert_int_eq(X509_verify(cert, key), 1);

    /* v3, CN=conclave issued by itself, a positive 159-bit serial. */
    ck_assert_int_eq(X509_get_version(cert), X509_VERSION_3);
    ck_assert_int_gt(
        X509_NAME_get_text_by_NID(X509_get_subject_name(cert), NID_commonName, cn, sizeof(cn)), 0);
    ck_assert_str_eq(cn, "conclave");
    ck_assert_int_eq(X509_NAME_cmp(X509_get_subject_name(cert), X509_get_issuer_name(cert)), 0);
    BIGNUM *serial = ASN1_INTEGER_to_BN(X509_get0_serialNumber(cert), NULL);
    ck_assert_ptr_nonnull(serial);
    ck_assert(!BN_is_negative(serial));
    ck_assert_int_eq(BN_num_bits(serial), 159);
    BN_free(serial);

    /* From an hour before `now` for 825 days. */
    ck_assert_int_eq(seconds_from(T0, X509_get0_notBefore(cert)), -3600);
    ck_assert_int_eq(seconds_from(T0, X509_get0_notAfter(cert)), 825L * 86400);

    /* A server's certificate and no CA; the loopback names. */
    uint32_t flags = X509_get_extension_flags(cert);
    ck_assert(flags & EXFLAG_BCONS);
    ck_assert(!(flags & EXFLAG_CA));
    ck_assert_int_eq(X509_EXTENSION_get_critical(
                         X509_get_ext(cert, X509_get_ext_by_NID(cert, NID_basic_constraints, -1))),
                     1);
    ck_assert_uint_eq(X509_get_key_usage(cert), KU_DIGITAL_SIGNATURE);
    ck_assert_uint_eq(X509_get_extended_key_usage(cert), XKU_SSL_SERVER);
    ck_assert_ptr_nonnull(X509_get0_subject_key_id(cert));
    san_text(cert, names, sizeof(names));
    ck_assert_str_eq(names, LOOPBACK_NAMES);
    ck_assert_int_eq(X509_check_host(cert, "localhost", 0, 0, NULL), 1);
    ck_assert_int_eq(X509_check_ip_asc(cert, "127.0.0.1", 0), 1);
    ck_assert_int_eq(X509_check_ip_asc(cert, "::1", 0), 1);

    X509_free(cert);
    EVP_PKEY_free(key);
}
END_TEST

START_TEST(the_host_is_named_when_it_adds_a_name)
{
    static const struct {
        const char *host, *extra;
    } cases[] = {
        {"games.example.org", " DNS:games.example.org"},
        {"192.168.1.5", " IP:c0a80105"},
        {"2001:db8::7", " IP:20010db8000000000000000000000007"},
        {"0.0.0.0", ""},
        {"::", ""},
        {"127.0.0.1", ""},
        {"::1", ""},
        {"0:0:0:0:0:0:0:1", ""},
        {"localhost", ""},
        {"LocalHost", ""},
        {"eth0%1", ""},
        {NULL, ""},
    };
    char names[512], want[512];

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct selfsigned_result r = ensure(cases[i].host, T0);
        ck_assert_int_eq(r.outcome, SELFSIGNED_MADE);
        X509 *cert = cert_read(r.cert);
        san_text(cert, names, sizeof(names));
        (void)snprintf(want, sizeof(want), "%s%s", LOOPBACK_NAMES, cases[i].extra);
        ck_assert_msg(strcmp(names, want) == 0, "host %s: %s", cases[i].host, names);
        X509_free(cert);
        ck_assert_int_eq(unlink(r.cert), 0);
        ck_assert_int_eq(unlink(r.key), 0);
    }
}
END_TEST

/* ---- Keeping and renewing ---- */

START_TEST(kept_by_a_later_start)
{
    size_t klen, clen, klen2, clen2;

    struct selfsigned_result first = ensure("127.0.0.1", T0);
    const char *key = slurp(first.key, &klen);
    char *key_was = strndup(key, klen);
    const char *cert = slurp(first.cert, &clen);
    char *cert_was = strndup(cert, clen);

    /* Another host is no reason to change a fingerprint clients know. */
    static const struct {
        const char *host;
        time_t now;
    } starts[] = {{"127.0.0.1", T0}, {"games.example.org", T0 + DAY}, {NULL, T0 + 794 * DAY}};
    for (size_t i = 0; i < sizeof(starts) / sizeof(starts[0]); i++) {
        struct selfsigned_result r = ensure(starts[i].host, starts[i].now);
        ck_assert_int_eq(r.outcome, SELFSIGNED_KEPT);
        ck_assert_ptr_null(r.reason);
        ck_assert_str_eq(r.sha256, first.sha256);
        ck_assert_str_eq(r.old_sha256, "");
        key = slurp(r.key, &klen2);
        cert = slurp(r.cert, &clen2);
        ck_assert_mem_eq(key, key_was, klen);
        ck_assert_mem_eq(cert, cert_was, clen);
        ck_assert_uint_eq(klen2, klen);
        ck_assert_uint_eq(clen2, clen);
    }
    free(key_was);
    free(cert_was);
}
END_TEST

/* Renews at `now` after a certificate made at T0, for `reason`. */
static void renewed_at(time_t now, const char *reason)
{
    char sha[SELFSIGNED_SHA256_LEN];
    int temps = 0;

    struct selfsigned_result first = ensure("127.0.0.1", T0);
    struct selfsigned_result r = ensure("127.0.0.1", now);
    ck_assert_int_eq(r.outcome, SELFSIGNED_RENEWED);
    ck_assert_str_eq(r.reason, reason);
    ck_assert_str_eq(r.old_sha256, first.sha256);
    ck_assert_str_ne(r.sha256, first.sha256);
    ck_assert_int_eq(selfsigned_fingerprint(r.cert, sha, fx.why, sizeof(fx.why)), 0);
    ck_assert_str_eq(sha, r.sha256);
    X509 *cert = cert_read(r.cert);
    ck_assert_int_eq(seconds_from(now, X509_get0_notAfter(cert)), 825L * 86400);
    X509_free(cert);
    ck_assert_int_eq(count_entries(&temps), 2);
    ck_assert_int_eq(temps, 0);
    ck_assert_int_eq(ensure("127.0.0.1", now).outcome, SELFSIGNED_KEPT);
}

START_TEST(renewed_within_30_days_of_its_end)
{
    renewed_at(T0 + 796 * DAY, "the certificate expires within 30 days");
}
END_TEST

START_TEST(renewed_once_it_has_ended)
{
    renewed_at(T0 + 900 * DAY, "the certificate has expired");
}
END_TEST

START_TEST(renewed_when_the_key_is_not_the_certificates)
{
    struct selfsigned_result first = ensure(NULL, T0);
    EVP_PKEY *other = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
    FILE *f = fopen(first.key, "w");
    ck_assert_ptr_nonnull(f);
    ck_assert(PEM_write_PrivateKey(f, other, NULL, NULL, 0, NULL, NULL));
    fclose(f);
    EVP_PKEY_free(other);

    struct selfsigned_result r = ensure(NULL, T0);
    ck_assert_int_eq(r.outcome, SELFSIGNED_RENEWED);
    ck_assert_str_eq(r.reason, "the key is not the certificate's");
    ck_assert_str_eq(r.old_sha256, first.sha256);
    X509 *cert = cert_read(r.cert);
    EVP_PKEY *key = key_read(r.key);
    ck_assert_int_eq(X509_check_private_key(cert, key), 1);
    X509_free(cert);
    EVP_PKEY_free(key);
}
END_TEST

START_TEST(renewed_when_a_file_is_missing_or_broken)
{
    struct selfsigned_result first = ensure(NULL, T0);

    ck_assert_int_eq(unlink(first.cert), 0);
    struct selfsigned_result r = ensure(NULL, T0);
    ck_assert_int_eq(r.outcome, SELFSIGNED_RENEWED);
    ck_assert_str_eq(r.reason, "the certificate file is missing");
    ck_assert_str_eq(r.old_sha256, "");

    ck_assert_int_eq(unlink(r.key), 0);
    r = ensure(NULL, T0);
    ck_assert_str_eq(r.reason, "the key file is missing");

    spill(r.key, "-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----\n");
    struct selfsigned_result again = ensure(NULL, T0);
    ck_assert_str_eq(again.reason, "the key file holds no unencrypted PEM private key");
    ck_assert_str_eq(again.old_sha256, r.sha256);

    spill(again.cert, "not a certificate\n");
    r = ensure(NULL, T0);
    ck_assert_str_eq(r.reason, "the certificate file holds no PEM certificate");
    ck_assert_int_eq(ensure(NULL, T0).outcome, SELFSIGNED_KEPT);
}
END_TEST

/* ---- Fingerprints ---- */

START_TEST(the_fingerprint_is_of_the_first_certificates_der)
{
    char sha[SELFSIGNED_SHA256_LEN], want[SELFSIGNED_SHA256_LEN], both[PATH_MAX];
    size_t alen, blen;

    struct selfsigned_result a = ensure(NULL, T0);
    X509 *cert = cert_read(a.cert);
    der_sha256(cert, want);
    X509_free(cert);
    ck_assert_int_eq(selfsigned_fingerprint(a.cert, sha, fx.why, sizeof(fx.why)), 0);
    ck_assert_str_eq(sha, want);

    /* A chain file: the leaf first, then another certificate. */
    const char *text = slurp(a.cert, &alen);
    char *leaf = strndup(text, alen);
    ck_assert_int_eq(unlink(a.cert), 0);
    ck_assert_int_eq(unlink(a.key), 0);
    struct selfsigned_result b = ensure(NULL, T0);
    const char *other = slurp(b.cert, &blen);
    (void)snprintf(both, sizeof(both), "%s/chain.pem", fx.dir);
    FILE *f = fopen(both, "w");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(leaf, 1, alen, f), alen);
    ck_assert_uint_eq(fwrite(other, 1, blen, f), blen);
    fclose(f);
    free(leaf);
    ck_assert_int_eq(selfsigned_fingerprint(both, sha, fx.why, sizeof(fx.why)), 0);
    ck_assert_str_eq(sha, a.sha256);
    ck_assert_str_ne(sha, b.sha256);
}
END_TEST

START_TEST(fingerprint_refusals)
{
    char sha[SELFSIGNED_SHA256_LEN] = "untouched";
    char path[PATH_MAX];

    (void)snprintf(path, sizeof(path), "%s/none.pem", fx.dir);
    ck_assert_int_eq(selfsigned_fingerprint(path, sha, fx.why, sizeof(fx.why)), -1);
    ck_assert_ptr_nonnull(strstr(fx.why, path));
    ck_assert_ptr_nonnull(strstr(fx.why, "No such file"));

    spill(path, "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n");
    ck_assert_int_eq(selfsigned_fingerprint(path, sha, fx.why, sizeof(fx.why)), -1);
    ck_assert_ptr_nonnull(strstr(fx.why, "holds no PEM certificate"));
    ck_assert_str_eq(sha, "untouched");
}
END_TEST

/* ---- Refusals ---- */

START_TEST(a_directory_that_is_not_one_is_refused)
{
    struct selfsigned_result r;
    char file[PATH_MAX];

    memset(&r, 0x5a, sizeof(r));
    (void)snprintf(file, sizeof(file), "%s/plain", fx.dir);
    spill(file, "x");
    ck_assert_int_eq(selfsigned_ensure(file, NULL, T0, &r, fx.why, sizeof(fx.why)), -1);
    ck_assert_ptr_nonnull(strstr(fx.why, "cannot read"));
    ck_assert_ptr_nonnull(strstr(fx.why, file));
    ck_assert_uint_eq(((unsigned char *)&r)[0], 0x5a); /* not written */

    char *deep = malloc(PATH_MAX + 16);
    memset(deep, 'a', PATH_MAX + 15);
    deep[PATH_MAX + 15] = '\0';
    ck_assert_int_eq(selfsigned_ensure(deep, NULL, T0, &r, fx.why, sizeof(fx.why)), -1);
    ck_assert_ptr_nonnull(strstr(fx.why, "too long"));
    free(deep);
}
END_TEST

START_TEST(a_failed_rename_leaves_no_temporary_file)
{
    struct selfsigned_result r;
    char cert[PATH_MAX];
    int temps = 0;

    /* A directory where the certificate goes: it reads as no certificate,
     * and the new one cannot be renamed over it. */
    (void)snprintf(cert, sizeof(cert), "%s/tls-cert.pem", fx.dir);
    ck_assert_int_eq(mkdir(cert, 0700), 0);
    ck_assert_int_eq(selfsigned_ensure(fx.dir, NULL, T0, &r, fx.why, sizeof(fx.why)), -1);
    ck_assert_ptr_nonnull(strstr(fx.why, "cannot put the new certificate"));
    count_entries(&temps);
    ck_assert_int_eq(temps, 0);
    ck_assert_int_eq(rmdir(cert), 0);

    /* The key that did go in place is replaced by the next start. */
    r = ensure(NULL, T0);
    ck_assert_int_eq(r.outcome, SELFSIGNED_RENEWED);
    ck_assert_str_eq(r.reason, "the certificate file is missing");
}
END_TEST

int main(void)
{
    const struct ck_case cases[] = {
        {"made_in_an_empty_directory", made_in_an_empty_directory},
        {"the_certificate_holds_what_the_header_says", the_certificate_holds_what_the_header_says},
        {"the_host_is_named_when_it_adds_a_name", the_host_is_named_when_it_adds_a_name},
        {"kept_by_a_later_start", kept_by_a_later_start},
        {"renewed_within_30_days_of_its_end", renewed_within_30_days_of_its_end},
        {"renewed_once_it_has_ended", renewed_once_it_has_ended},
        {"renewed_when_the_key_is_not_the_certificates",
         renewed_when_the_key_is_not_the_certificates},
        {"renewed_when_a_file_is_missing_or_broken", renewed_when_a_file_is_missing_or_broken},
        {"the_fingerprint_is_of_the_first_certificates_der",
         the_fingerprint_is_of_the_first_certificates_der},
        {"fingerprint_refusals", fingerprint_refusals},
        {"a_directory_that_is_not_one_is_refused", a_directory_that_is_not_one_is_refused},
        {"a_failed_rename_leaves_no_temporary_file", a_failed_rename_leaves_no_temporary_file},
    };
    return CK_RUN("selfsigned", cases, dir_new, dir_free);
}
