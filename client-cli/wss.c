/* SPDX-License-Identifier: MIT */
/*
 * wss.c - the connection to a server over WebSocket with TLS
 * (wss://HOST:PORT), through libwebsockets' client and its OpenSSL: the
 * same protocol lines, one text message each, as on TCP.
 *
 * There is no loop of its own: the client's poll() watches the socket as
 * it watches a TCP one, and each time it is readable (or a line is to be
 * sent) libwebsockets is serviced for that descriptor, then for whatever
 * TLS has already decrypted, so no line is left waiting inside the TLS
 * layer while poll() sleeps. One libwebsockets context serves every open
 * connection of the process; it goes with the last of them.
 *
 * Whom to trust. A certificate that chains to the system's authorities
 * and names the host is taken. One that does not (a self-hoster's
 * self-signed one) is taken when its SHA-256 is the one pinned for that
 * HOST:PORT: given with --pin or in a join link, or seen on first use and
 * kept in the state directory (known_servers.json), as ssh keeps
 * known_hosts. A certificate that differs from the pin, has expired, is
 * not yet valid, or (chained to an authority) names another host is
 * refused before a byte of the protocol is sent, with the reason and the
 * way to accept a new one.
 */
#include "client.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>

#include <libwebsockets.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>

#include "lang.h"

#define WSS_SUBPROTOCOL "conclave.v1"
#define WSS_WAIT_MS 30000 /* for a connection, or a line to leave */
#define KNOWN_FILE "known_servers.json"

enum wss_state { WSS_CONNECTING, WSS_OPEN, WSS_CLOSED };

/* A line waiting to leave, without its line end. */
struct wss_line {
    struct wss_line *next;
    size_t len;
    unsigned char data[]; /* LWS_PRE bytes, then the line */
};

struct cli_wss {
    struct cli_conn *conn;
    struct lws *wsi;
    enum wss_state state;
    char hostport[CLI_SERVER_MAX];
    unsigned char pin[32];   /* the fingerprint trusted for hostport */
    bool has_pin, pin_given; /* pin_given: --pin or a link: it must match */
    unsigned char seen[32];  /* the certificate's */
    bool seen_set;
    bool untrusted; /* no chain to a system authority */
    bool first_use; /* taken on first use: to be kept */
    char why[5000]; /* why the connection was refused or lost */
    struct wss_line *head, *tail;
    char *partial; /* cli_conn_write_raw's bytes after its last line end */
    size_t partial_len;
};

static struct lws_context *wss_ctx;
static SSL_CTX *wss_ssl; /* its client TLS context, ours to free after it */
static unsigned wss_users;
static const char *wss_ca_file;          /* --ca */
static char wss_pin_for[CLI_SERVER_MAX]; /* the server --pin or a link names */
static char wss_pin[80];

void cli_wss_trust(const char *ca_file, const char *hostport, const char *pin)
{
    wss_ca_file = ca_file;
    snprintf(wss_pin_for, sizeof(wss_pin_for), "%s", hostport && pin ? hostport : "");
    snprintf(wss_pin, sizeof(wss_pin), "%s", hostport && pin ? pin : "");
}

/* ---- Fingerprints and the known servers ---- */

static void hex_of(const unsigned char fp[32], char out[65])
{
    for (int i = 0; i < 32; i++) {
        snprintf(out + 2 * i, 3, "%02x", fp[i]);
    }
}

int cli_fingerprint_parse(const char *text, unsigned char fp[32])
{
    size_t n = 0;

    if (strncasecmp(text, "SHA256:", 7) == 0) {
        text += 7;
    }
    for (const char *p = text; *p; p++) {
        int v;
        if (*p == ':') {
            continue;
        }
        if (*p >= '0' && *p <= '9') {
            v = *p - '0';
        } else if ((*p | 0x20) >= 'a' && (*p | 0x20) <= 'f') {
            v = (*p | 0x20) - 'a' + 10;
        } else {
            return -1;
        }
        if (n >= 64) {
            return -1;
        }
        fp[n / 2] = (unsigned char)(n % 2 ? fp[n / 2] | v : v << 4);
        n++;
    }
    return n == 64 ? 0 : -1;
}

/* The known servers, {"HOST:PORT": "SHA256:<hex>"}; an empty object when
 * there are none. */
static json_t *known_load(void)
{
    char path[4200];
    json_error_t err;
    json_t *k = NULL;

    if (cli_state_path(path, sizeof(path), KNOWN_FILE, false) == 0) {
        k = json_load_file(path, 0, &err);
    }
    if (!json_is_object(k)) {
        json_decref(k);
        k = json_object();
    }
    return k;
}

static int known_store(const char *hostport, const unsigned char fp[32], char *path, size_t pathlen)
{
    char tmp[4300], hex[65], val[80];
    json_t *k = known_load();
    int rc = -1;

    hex_of(fp, hex);
    snprintf(val, sizeof(val), "SHA256:%s", hex);
    if (k && cli_state_path(path, pathlen, KNOWN_FILE, true) == 0 &&
        json_object_set_new(k, hostport, json_string(val)) == 0) {
        snprintf(tmp, sizeof(tmp), "%s.new", path);
        rc = json_dump_file(k, tmp, JSON_INDENT(1) | JSON_SORT_KEYS);
        if (rc == 0 && (chmod(tmp, 0600) != 0 || rename(tmp, path) != 0)) {
            rc = -1;
        }
    }
    json_decref(k);
    return rc;
}

/* ---- Certificate checks (inside the TLS handshake) ---- */

static void say_changed(struct cli_wss *w)
{
    char was[65], now[65], path[4200] = KNOWN_FILE;

    hex_of(w->pin, was);
    hex_of(w->seen, now);
    (void)cli_state_path(path, sizeof(path), KNOWN_FILE, false);
    snprintf(w->why, sizeof(w->why),
             _("the certificate of %s is not the one trusted for it: it was SHA256:%s and is now "
               "SHA256:%s. If the server's owner made a new one (conclaved prints it when it "
               "starts), trust it with --pin SHA256:%s%s%s"),
             w->hostport, was, now, now, w->pin_given ? "" : _(", or take its line out of "),
             w->pin_given ? "" : path);
}

static void say_dates(struct cli_wss *w, X509 *leaf, bool expired)
{
    const ASN1_TIME *t = expired ? X509_get0_notAfter(leaf) : X509_get0_notBefore(leaf);
    struct tm tm;
    char when[32] = "?";

    if (t && ASN1_TIME_to_tm(t, &tm) == 1) {
        strftime(when, sizeof(when), "%Y-%m-%d %H:%M UTC", &tm);
    }
    if (expired) {
        snprintf(w->why, sizeof(w->why),
                 _("the certificate of %s expired on %s; its owner must "
                   "renew it"),
                 w->hostport, when);
    } else {
        snprintf(w->why, sizeof(w->why),
                 _("the certificate of %s is valid only from %s; its owner must check the clock "
                   "of the machine that made it"),
                 w->hostport, when);
    }
}

/* OpenSSL's verdict on one certificate of the chain (`ok`, with the error
 * in `x`), the leaf's fingerprint checked against the pin: 0 takes it
 * (the error cleared), 1 refuses it. */
static int cert_check(struct cli_wss *w, X509_STORE_CTX *x, int ok)
{
    X509 *leaf = X509_STORE_CTX_get0_cert(x);
    int err = X509_STORE_CTX_get_error(x);
    unsigned int n = 0;

    if (!w || !leaf || X509_digest(leaf, EVP_sha256(), w->seen, &n) != 1 || n != 32) {
        return 1;
    }
    w->seen_set = true;
    bool pinned = w->has_pin && memcmp(w->seen, w->pin, 32) == 0;
    if (ok) {
        if (X509_STORE_CTX_get_error_depth(x) == 0 && w->pin_given && !pinned) {
            say_changed(w); /* a pin given must match, authority or not */
            return 1;
        }
        return 0;
    }
    switch (err) {
    case X509_V_ERR_CERT_HAS_EXPIRED:
    case X509_V_ERR_CERT_NOT_YET_VALID:
        say_dates(w, leaf, err == X509_V_ERR_CERT_HAS_EXPIRED);
        return 1;
    case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT:
    case X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN:
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT:
    case X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
        w->untrusted = true;
        break;
    case X509_V_ERR_HOSTNAME_MISMATCH:
    case X509_V_ERR_IP_ADDRESS_MISMATCH:
        if (!w->untrusted && !pinned) {
            snprintf(w->why, sizeof(w->why),
                     _("the certificate of %s is for another host name: refused (it is not "
                       "the server you asked for, or its owner must make one for this name)"),
                     w->hostport);
            return 1;
        }
        break;
    default:
        snprintf(w->why, sizeof(w->why), _("the certificate of %s is refused: %s"), w->hostport,
                 X509_verify_cert_error_string(err));
        return 1;
    }
    /* Not vouched for by an authority: the pin decides. */
    if (w->has_pin && !pinned) {
        say_changed(w);
        return 1;
    }
    w->first_use = !w->has_pin;
    X509_STORE_CTX_set_error(x, X509_V_OK);
    return 0;
}

/* ---- libwebsockets ---- */

static void line_free_all(struct cli_wss *w)
{
    while (w->head) {
        struct wss_line *l = w->head;
        w->head = l->next;
        free(l);
    }
    w->tail = NULL;
}

static int on_writeable(struct cli_wss *w)
{
    struct wss_line *l = w->head;

    if (!l) {
        return 0;
    }
    if (lws_write(w->wsi, l->data + LWS_PRE, l->len, LWS_WRITE_TEXT) < (int)l->len) {
        snprintf(w->why, sizeof(w->why), _("the connection to %s failed while sending"),
                 w->hostport);
        return -1;
    }
    w->head = l->next;
    w->tail = w->head ? w->tail : NULL;
    free(l);
    if (w->head) {
        lws_callback_on_writable(w->wsi);
    }
    return 0;
}

static int on_receive(struct cli_wss *w, const void *in, size_t len)
{
    struct proto_framer *f = &w->conn->framer;

    if ((len && proto_framer_feed(f, in, len) != 0) ||
        (lws_is_final_fragment(w->wsi) && !lws_remaining_packet_payload(w->wsi) &&
         proto_framer_feed(f, "\n", 1) != 0)) {
        snprintf(w->why, sizeof(w->why), _("%s sent a line longer than a client takes"),
                 w->hostport);
        return -1;
    }
    return 0;
}

static int wss_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                        size_t len)
{
    struct cli_wss *w = wsi ? lws_get_opaque_user_data(wsi) : NULL;

    switch (reason) {
    case LWS_CALLBACK_OPENSSL_PERFORM_SERVER_CERT_VERIFICATION:
        return cert_check(w, user, (int)len);
    case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
        if (w) {
            if (!w->why[0]) {
                snprintf(w->why, sizeof(w->why), _("cannot connect to %s: %s"), w->hostport,
                         in ? (const char *)in : _("no answer"));
            }
            w->state = WSS_CLOSED;
            w->wsi = NULL;
        }
        return 0;
    case LWS_CALLBACK_CLIENT_ESTABLISHED:
        if (w) {
            w->state = WSS_OPEN;
        }
        return 0;
    case LWS_CALLBACK_CLIENT_RECEIVE:
        return w && on_receive(w, in, len) != 0 ? -1 : 0;
    case LWS_CALLBACK_CLIENT_WRITEABLE:
        return w && on_writeable(w) != 0 ? -1 : 0;
    case LWS_CALLBACK_CLIENT_CLOSED:
    case LWS_CALLBACK_WSI_DESTROY:
        if (w) {
            if (w->state == WSS_OPEN && !w->why[0]) {
                snprintf(w->why, sizeof(w->why), _("%s closed the connection"), w->hostport);
            }
            w->state = WSS_CLOSED;
            w->wsi = NULL;
        }
        return 0;
    default:
        return lws_callback_http_dummy(wsi, reason, user, in, len);
    }
}

static const struct lws_protocols wss_protocols[] = {
    {WSS_SUBPROTOCOL, wss_callback, 0, 65536, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

static int ctx_hold(void)
{
    struct lws_context_creation_info info;

    if (wss_ctx) {
        wss_users++;
        return 0;
    }
    lws_set_log_level(0, NULL); /* the client says what went wrong itself */
    /* The system's authorities (as OpenSSL finds them, SSL_CERT_FILE and
     * SSL_CERT_DIR included) and --ca's. */
    wss_ssl = SSL_CTX_new(TLS_client_method());
    if (!wss_ssl || SSL_CTX_set_min_proto_version(wss_ssl, TLS1_2_VERSION) != 1 ||
        SSL_CTX_set_default_verify_paths(wss_ssl) != 1) {
        SSL_CTX_free(wss_ssl);
        wss_ssl = NULL;
        return -1;
    }
    if (wss_ca_file && SSL_CTX_load_verify_locations(wss_ssl, wss_ca_file, NULL) != 1) {
        fprintf(stderr, _("conclave: no certificate authority can be read from %s\n"), wss_ca_file);
        SSL_CTX_free(wss_ssl);
        wss_ssl = NULL;
        return -1;
    }
    memset(&info, 0, sizeof(info));
    info.port = CONTEXT_PORT_NO_LISTEN;
    info.protocols = wss_protocols;
    info.options = LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
    info.fd_limit_per_thread = 1 + 64 + 4; /* `conclave wait` watches up to 64 */
    info.provided_client_ssl_ctx = wss_ssl;
    wss_ctx = lws_create_context(&info);
    if (!wss_ctx) {
        SSL_CTX_free(wss_ssl);
        wss_ssl = NULL;
        return -1;
    }
    wss_users = 1;
    return 0;
}

static void ctx_release(void)
{
    if (wss_ctx && --wss_users == 0) {
        lws_context_destroy(wss_ctx);
        wss_ctx = NULL;
        SSL_CTX_free(wss_ssl);
        wss_ssl = NULL;
    }
}

/* What to poll the socket for: what comes in, and room to write while a
 * line waits or libwebsockets holds part of one. */
static short wanted(const struct cli_wss *w)
{
    return (short)(POLLIN | (w->head || lws_partial_buffered(w->wsi) ? POLLOUT : 0));
}

/* Services the connection's socket for `revents`, then whatever TLS holds
 * already decrypted. */
static void service(struct cli_wss *w, short revents)
{
    if (w->wsi && revents) {
        struct lws_pollfd pfd = {
            .fd = lws_get_socket_fd(w->wsi), .events = wanted(w), .revents = revents};
        (void)lws_service_fd(wss_ctx, &pfd);
    }
    while (wss_ctx && lws_service_adjust_timeout(wss_ctx, 1, 0) == 0) {
        (void)lws_service_tsi(wss_ctx, -1, 0);
    }
}

/* Polls the socket for what libwebsockets wants (and POLLIN) for up to
 * `ms` (-1: no limit), and services it: 1 when the socket was ready, 0
 * when the time ran out. */
static int step(struct cli_wss *w, int ms)
{
    struct pollfd pfd = {.fd = w->wsi ? lws_get_socket_fd(w->wsi) : -1,
                         .events = w->wsi ? wanted(w) : 0};
    int pr;

    if (pfd.fd < 0) {
        return 0;
    }
    do {
        pr = poll(&pfd, 1, ms);
    } while (pr < 0 && errno == EINTR);
    service(w, pr > 0 ? pfd.revents : 0);
    return pr > 0;
}

/* ---- The connection ---- */

int cli_wss_open(struct cli_conn *c, const char *host, int port, const char *hostport)
{
    struct lws_client_connect_info ci;
    struct cli_wss *w = calloc(1, sizeof(*w));
    const char *pin = wss_pin[0] && strcmp(wss_pin_for, hostport) == 0 ? wss_pin : NULL;
    char known[80] = "";

    if (!w || ctx_hold() != 0) {
        fprintf(stderr, _("conclave: TLS cannot be set up\n"));
        free(w);
        return -1;
    }
    w->conn = c;
    snprintf(w->hostport, sizeof(w->hostport), "%s", hostport);
    if (pin) {
        w->has_pin = w->pin_given = true;
        if (cli_fingerprint_parse(pin, w->pin) != 0) {
            fprintf(stderr, _("conclave: a pin is SHA256: and 64 hex digits, not %s\n"), pin);
            ctx_release();
            free(w);
            return -1;
        }
    } else {
        json_t *k = known_load();
        const char *was = json_string_value(json_object_get(k, hostport));
        snprintf(known, sizeof(known), "%s", was ? was : "");
        json_decref(k);
        w->has_pin = known[0] && cli_fingerprint_parse(known, w->pin) == 0;
    }
    c->wss = w;
    memset(&ci, 0, sizeof(ci));
    ci.context = wss_ctx;
    ci.address = host;
    ci.port = port;
    ci.ssl_connection = LCCSCF_USE_SSL;
    ci.path = "/ws";
    ci.host = host;
    ci.protocol = WSS_SUBPROTOCOL;
    ci.opaque_user_data = w;
    ci.pwsi = &w->wsi;
    if (!lws_client_connect_via_info(&ci) && !w->why[0]) {
        snprintf(w->why, sizeof(w->why), _("cannot connect to %s"), hostport);
        w->state = WSS_CLOSED;
    }
    /* The handshakes: libwebsockets' own service, which sleeps until
     * something happens on its sockets or its timers (it gives up on a
     * server that does not answer). */
    while (w->state == WSS_CONNECTING && wss_ctx) {
        if (lws_service(wss_ctx, 0) < 0) {
            break;
        }
    }
    if (w->state != WSS_OPEN) {
        fprintf(stderr, "conclave: %s\n", w->why[0] ? w->why : _("the connection failed"));
        cli_wss_close(c);
        return -1;
    }
    if (w->first_use) {
        char hex[65], path[4200] = KNOWN_FILE;
        hex_of(w->seen, hex);
        bool kept = known_store(hostport, w->seen, path, sizeof(path)) == 0;
        fprintf(stderr,
                _("conclave: %s is new to this client: its certificate SHA256:%s is trusted from "
                  "now on%s%s%s. Check it against the one its host shares.\n"),
                hostport, hex, kept ? _(" (kept in ") : _(" (it could not be kept: "),
                kept ? path : strerror(errno), _(")"));
    } else if (w->pin_given && w->untrusted) {
        char path[4200];
        (void)known_store(hostport, w->seen, path, sizeof(path));
    }
    c->fd = lws_get_socket_fd(w->wsi);
    return 0;
}

void cli_wss_close(struct cli_conn *c)
{
    struct cli_wss *w = c->wss;

    if (!w) {
        return;
    }
    if (w->wsi) {
        /* Closed at once, sending nothing more: the context goes with
         * it or with the last connection. */
        lws_set_opaque_user_data(w->wsi, NULL);
        lws_set_timeout(w->wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_SYNC);
    }
    line_free_all(w);
    free(w->partial);
    free(w);
    c->wss = NULL;
    c->fd = -1;
    ctx_release();
}

int cli_wss_send(struct cli_conn *c, const char *line, size_t len)
{
    struct cli_wss *w = c->wss;

    while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r')) {
        len--;
    }
    if (w->state != WSS_OPEN) {
        return -1;
    }
    if (len == 0) {
        return 0;
    }
    struct wss_line *l = malloc(sizeof(*l) + LWS_PRE + len);
    if (!l) {
        return -1;
    }
    l->next = NULL;
    l->len = len;
    memcpy(l->data + LWS_PRE, line, len);
    if (w->tail) {
        w->tail->next = l;
    } else {
        w->head = l;
    }
    w->tail = l;
    lws_callback_on_writable(w->wsi);
    /* Sent before this returns, as a blocking TCP send would be. */
    for (int waited = 0; w->head && w->state == WSS_OPEN && waited < WSS_WAIT_MS; waited += 100) {
        step(w, 100);
    }
    return w->head ? -1 : 0;
}

int cli_wss_send_raw(struct cli_conn *c, const char *bytes, size_t len)
{
    struct cli_wss *w = c->wss;
    const char *nl;

    while (len > 0 && (nl = memchr(bytes, '\n', len))) {
        size_t n = (size_t)(nl - bytes);
        int rc;
        if (w->partial_len) {
            char *joined = realloc(w->partial, w->partial_len + n);
            if (!joined) {
                return -1;
            }
            memcpy(joined + w->partial_len, bytes, n);
            rc = cli_wss_send(c, joined, w->partial_len + n);
            free(joined);
            w->partial = NULL;
            w->partial_len = 0;
        } else {
            rc = cli_wss_send(c, bytes, n);
        }
        if (rc != 0) {
            return -1;
        }
        bytes = nl + 1;
        len -= n + 1;
    }
    if (len > 0) {
        char *more = realloc(w->partial, w->partial_len + len);
        if (!more) {
            return -1;
        }
        memcpy(more + w->partial_len, bytes, len);
        w->partial = more;
        w->partial_len += len;
    }
    return 0;
}

int cli_wss_fill(struct cli_conn *c, int timeout_ms)
{
    struct cli_wss *w = c->wss;
    int rc;

    if (w->state != WSS_OPEN) {
        return -1;
    }
    rc = step(w, timeout_ms);
    return w->state == WSS_OPEN ? rc : -1;
}

int cli_conn_link(const struct cli_conn *c, const char *room, char *out, size_t outlen)
{
    const struct cli_wss *w = c->wss;
    char hex[65];

    if (!w || !w->seen_set) {
        return -1;
    }
    hex_of(w->seen, hex);
    return (size_t)snprintf(out, outlen, "%s@%s#sha256=%s", room, w->hostport, hex) < outlen ? 0
                                                                                             : -1;
}
