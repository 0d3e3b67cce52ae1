#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""conclaved --http from outside: the page's files and /healthz with their
headers, which WebSocket upgrades are taken, hostile WebSocket input
(oversized, binary, fragmented, broken UTF-8, a reader that does not read),
a game played by one seat over TCP and one over WebSocket, HTTPS/WSS
with a certificate made for the test, and --tls-self-signed's certificate
(made, kept, replaced once expired) with the fingerprint line on stdout.
Certificates the server must not make itself come from python3-cryptography."""
import datetime
import hashlib
import http.client
import json
import os
import re
import shutil
import socket
import ssl
import stat
import subprocess
import tempfile
import unittest

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from harness import (CONCLAVED, LIVENESS, Client, Closed, HandshakeRefused, Server, ServerTest,
                     WsClient, main, wait_until, ws_connect, ws_frame)

SOURCE_INDEX = os.path.join(os.path.dirname(__file__), "..", "..", "web", "index.html")


def get(port, path, method="GET", headers=None, tls=False):
    if tls:
        ctx = ssl.create_default_context()
        ctx.check_hostname = False
        ctx.verify_mode = ssl.CERT_NONE
        conn = http.client.HTTPSConnection("127.0.0.1", port, timeout=10, context=ctx)
    else:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request(method, path, headers=headers or {})
    r = conn.getresponse()
    body = r.read()
    conn.close()
    return r, body


class WebTest(ServerTest):
    def setUp(self):
        self.srv = Server("--bot-delay", "0", http=True)
        self.clients = []

    def ws(self, name="Ann", **kw):
        c = WsClient(self.srv.http_port, name, **kw)
        self.clients.append(c)
        return c


class Http(WebTest):
    def test_page_is_the_embedded_client_with_its_headers(self):
        r, body = get(self.srv.http_port, "/")
        self.assertEqual(r.status, 200)
        with open(SOURCE_INDEX, "rb") as f:
            self.assertEqual(body, f.read(), "/ is web/index.html as built in")
        self.assertEqual(r.getheader("content-type"), "text/html; charset=utf-8")
        csp = r.getheader("content-security-policy")
        self.assertIn("script-src 'self'", csp)
        self.assertNotIn("unsafe-inline", csp)
        self.assertIn("frame-ancestors 'none'", csp)
        self.assertEqual(r.getheader("x-content-type-options"), "nosniff")
        self.assertEqual(r.getheader("cache-control"), "no-cache")
        etag = r.getheader("etag")
        self.assertTrue(etag)
        r2, body2 = get(self.srv.http_port, "/index.html", headers={"If-None-Match": etag})
        self.assertEqual(r2.status, 304, "a cached copy is revalidated, not sent again")
        self.assertEqual(body2, b"")
        r3, body3 = get(self.srv.http_port, "/", method="HEAD")
        self.assertEqual(r3.status, 200)
        self.assertEqual(body3, b"")

    def test_healthz_and_nothing_else(self):
        r, body = get(self.srv.http_port, "/healthz")
        self.assertEqual((r.status, body), (200, b"ok\n"))
        self.assertEqual(r.getheader("cache-control"), "no-store")
        for path in ("/nope", "/../meson.build", "/.git/config", "/%2e%2e/x", "/games/"):
            r, _ = get(self.srv.http_port, path)
            self.assertEqual(r.status, 404, path)
        r, _ = get(self.srv.http_port, "/", method="POST")
        self.assertEqual(r.status, 405)

    def test_web_dir_serves_files_from_disk(self):
        self.srv.stop()
        d = tempfile.mkdtemp(prefix="conclave-web-")
        self.addCleanup(shutil.rmtree, d, True)
        os.mkdir(os.path.join(d, "games"))
        with open(os.path.join(d, "index.html"), "w") as f:
            f.write("<!doctype html><title>here</title>")
        with open(os.path.join(d, "games", "x.js"), "w") as f:
            f.write("export const x = 1;\n")
        self.srv = Server("--web-dir", d, http=True)
        r, body = get(self.srv.http_port, "/")
        self.assertEqual(body, b"<!doctype html><title>here</title>")
        r, body = get(self.srv.http_port, "/games/x.js")
        self.assertEqual(r.getheader("content-type"), "text/javascript; charset=utf-8")
        self.assertEqual(body, b"export const x = 1;\n")
        r, _ = get(self.srv.http_port, "/games/../index.html")
        self.assertIn(r.status, (200, 404))  # normalised by the client or refused, never outside
        # What the directory lacks is the built-in copy: the games'
        # catalogues live outside web/.
        r, body = get(self.srv.http_port, "/lang/stones.json")
        self.assertEqual(r.status, 200)
        self.assertIn(b'"messages"', body)
        r, _ = get(self.srv.http_port, "/no-such-file.js")
        self.assertEqual(r.status, 404)


class Upgrade(WebTest):
    def test_only_conclave_v1_at_ws(self):
        for path, proto in (("/ws", None), ("/ws", "chat"), ("/", "conclave.v1"),
                            ("/other", "conclave.v1")):
            with self.assertRaises(HandshakeRefused, msg="%s %s" % (path, proto)):
                sock, _ = ws_connect(self.srv.http_port, path=path, protocol=proto)
                sock.close()
        self.ws().answers()

    def test_origin_is_the_page_or_allowed(self):
        port = self.srv.http_port
        self.ws(origin="http://127.0.0.1:%d" % port).answers()
        with self.assertRaises(HandshakeRefused):
            self.ws(origin="http://evil.example")
        self.srv.stop()
        self.srv = Server("--allow-origin", "https://games.example.org", http=True)
        self.ws(origin="https://games.example.org").answers()
        with self.assertRaises(HandshakeRefused):
            self.ws(origin="https://games.example.org.evil.example")


class Hostile(WebTest):
    def test_oversized_message_gets_frame_too_large_then_close(self):
        c = self.ws()
        c.send({"op": "ping", "id": 1})
        c.send_raw(b'{"op":"ping","pad":"' + b"x" * 70000 + b'"}')
        self.assertEqual(c.read()["re"], 1, "what came before is answered")
        m = c.read()
        self.assertEqual(m["error"]["code"], "frame_too_large")
        with self.assertRaises(Closed):
            c.read()
        self.ws("Other").answers()

    def test_binary_frames_are_refused_and_the_connection_stays(self):
        c = self.ws()
        c.send_raw(b'{"op":"ping","id":1}', opcode=2)
        m = c.read()
        self.assertEqual(m["error"]["code"], "bad_request")
        self.assertIn("text frame", m["error"]["message"])
        c.answers()

    def test_a_fragmented_message_is_one_line(self):
        c = self.ws()
        line = json.dumps({"op": "ping", "id": "frag"}).encode()
        c.sock.sendall(ws_frame(line[:5], 1, fin=False) + ws_frame(line[5:12], 0, fin=False) +
                       ws_frame(line[12:], 0, fin=True))
        self.assertEqual(c.read()["re"], "frag")

    def test_lines_in_one_frame_and_blank_frames(self):
        c = self.ws()
        c.send_raw(b'{"op":"ping","id":1}\n{"op":"ping","id":2}\n')
        c.send_raw(b"")
        c.send_raw(b"   ")
        c.send_raw(b'{"op":"ping","id":3}')
        self.assertEqual([c.read()["re"] for _ in range(3)], [1, 2, 3])

    def test_broken_json_and_utf8_get_bad_json(self):
        c = self.ws()
        c.send_raw(b'{"op":"ping"')
        self.assertEqual(c.read()["error"]["code"], "bad_json")
        c.send_raw(b'{"op":"ping","name":"\xff\xfe"}')
        self.assertEqual(c.read()["error"]["code"], "bad_json")
        c.answers()

    def test_slow_reader_is_cut_off_with_an_error_last(self):
        self.srv.stop()
        self.srv = Server("--write-queue", "65536", "--rate", "1000000", "--rate-burst",
                          "1000000", "--bot-delay", "0", http=True)
        slow = self.ws("Slow")
        slow.ok("create", game="stones", seats=2)
        slow.ok("start", bots=True)
        fast = self.ws("Fast")
        fast.ok("create", game="sorcerers", seats=2)
        fast.ok("start", bots=True)
        slow.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        burst = ws_frame(b'{"op":"sync"}\n' * 200)

        def cut_off():
            if b"event=slow_reader_cut_off addr=" in self.srv.log_bytes() and \
                    b"transport=websocket" in self.srv.log_bytes():
                return True
            try:
                slow.sock.settimeout(5)
                slow.sock.sendall(burst)
            except OSError:
                pass
            fast.answers()
            return False

        wait_until(cut_off, lambda: "slow reader was not cut off", poll=0)
        msgs = []
        while True:
            try:
                msgs.append(slow.read(timeout=30))
            except (Closed, ConnectionResetError):
                break
        self.assertTrue(msgs, "nothing arrived after the cut-off")
        self.assertEqual(msgs[-1].get("ev"), "error", "the last message: %r" % msgs[-1])
        self.assertEqual(msgs[-1]["error"]["code"], "server_busy")
        fast.answers()


class Mixed(WebTest):
    def setUp(self):
        self.srv = Server("--bot-delay", "0", "--rate", "100000", "--rate-burst", "100000",
                          http=True)
        self.clients = []

    def test_one_seat_on_tcp_one_on_websocket_play_to_the_end(self):
        host = self.client("Tess")  # TCP
        guest = self.ws("Wes")
        r = host.ok("create", game="sorcerers", seats=2)
        guest.ok("join", room=r["room"])
        host.ok("start")
        for c in (host, guest):
            c.pump(lambda x: x.view is not None)
        for _ in range(2000):
            if host.ended is not None and guest.ended is not None:
                break
            moved = False
            for c in (host, guest):
                leg = c.req("legal")
                if leg.get("ok") and leg.get("actions"):
                    c.ok("act", action=leg["actions"][0], rev=c.rev)
                    moved = True
            for c in (host, guest):
                c.drain(0.01)
            if not moved:
                for c in (host, guest):
                    c.drain(0.1)
        self.assertIsNotNone(host.ended, "the game did not end")
        guest.pump(lambda x: x.ended is not None)
        self.assertEqual(host.ended, guest.ended, "both transports saw the same result")


def make_cert(path_cert, path_key, days_from, days_to, issuer=None, extra_pem=b""):
    """A P-256 key and a certificate valid from `days_from` to `days_to`
    days from now (negative: in the past), self-signed or signed by
    `issuer` (a (cert, key) pair), written as PEM; `extra_pem` follows the
    certificate in its file. Returns (cert, key)."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "conclave")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder()
            .subject_name(name)
            .issuer_name(issuer[0].subject if issuer else name)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now + datetime.timedelta(days=days_from))
            .not_valid_after(now + datetime.timedelta(days=days_to))
            .sign(issuer[1] if issuer else key, hashes.SHA256()))
    with open(path_cert, "wb") as f:
        f.write(cert.public_bytes(serialization.Encoding.PEM) + extra_pem)
    with open(path_key, "wb") as f:
        f.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                  serialization.NoEncryption()))
    return cert, key


def file_sha256(path):
    """The SHA-256 of the DER of the first certificate of a PEM file."""
    with open(path) as f:
        m = re.search(r"-----BEGIN CERTIFICATE-----.*?-----END CERTIFICATE-----\n", f.read(),
                      re.S)
    return hashlib.sha256(ssl.PEM_cert_to_DER_cert(m.group(0))).hexdigest()


def served_sha256(port):
    """The SHA-256 of the DER of the certificate the server presents."""
    ctx = ssl.create_default_context()
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    with ctx.wrap_socket(socket.create_connection(("127.0.0.1", port), timeout=10)) as s:
        return hashlib.sha256(s.getpeercert(binary_form=True)).hexdigest()


def certificate_line(srv):
    """The fingerprint of the stdout line right after `http on https://...`."""
    line = srv.proc.stdout.readline().decode()
    m = re.fullmatch(r"certificate SHA256:([0-9a-f]{64})\n", line)
    assert m, "no certificate line: %r" % line
    return m.group(1)


class Tls(unittest.TestCase):
    def test_https_and_wss_with_a_certificate(self):
        d = tempfile.mkdtemp(prefix="conclave-tls-")
        self.addCleanup(shutil.rmtree, d, True)
        cert, key = os.path.join(d, "cert.pem"), os.path.join(d, "key.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                        "-subj", "/CN=127.0.0.1", "-keyout", key, "-out", cert],
                       check=True, capture_output=True)
        srv = Server("--tls-cert", cert, "--tls-key", key, http=True)
        try:
            self.assertEqual(certificate_line(srv), file_sha256(cert))
            r, body = get(srv.http_port, "/healthz", tls=True)
            self.assertEqual((r.status, body), (200, b"ok\n"))
            ctx = ssl.create_default_context()
            ctx.check_hostname = False
            ctx.verify_mode = ssl.CERT_NONE
            raw = socket.create_connection(("127.0.0.1", srv.http_port), timeout=10)
            c = WsClient.__new__(WsClient)
            c.sock = ctx.wrap_socket(raw)
            c.sock, c.buf = ws_connect(srv.http_port, sock=c.sock)
            WsClient.reset(c)
            c.ok("hello", proto=1, name="Tia")
            self.assertEqual(len(c.ok("create", game="stones", seats=2)["room"]), 6)
            c.close()
            plain = socket.create_connection(("127.0.0.1", srv.http_port), timeout=10)
            plain.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            try:
                self.assertNotIn(b"200 OK", plain.recv(4096), "plain HTTP on the TLS port")
            except OSError:
                pass
            plain.close()
        finally:
            self.assertEqual(srv.stop(), 0)

    def test_tls_cert_prints_the_fingerprint_of_the_leaf(self):
        d = tempfile.mkdtemp(prefix="conclave-tls-")
        self.addCleanup(shutil.rmtree, d, True)
        cert, key = os.path.join(d, "chain.pem"), os.path.join(d, "key.pem")
        ca = make_cert(os.path.join(d, "ca.pem"), os.path.join(d, "ca-key.pem"), -1, 30)
        make_cert(cert, key, -1, 30, issuer=ca,
                  extra_pem=ca[0].public_bytes(serialization.Encoding.PEM))
        srv = Server("--tls-cert", cert, "--tls-key", key, http=True)
        try:
            printed = certificate_line(srv)
            self.assertEqual(printed, served_sha256(srv.http_port))
            self.assertEqual(printed, file_sha256(cert))
            self.assertNotEqual(printed, file_sha256(os.path.join(d, "ca.pem")))
        finally:
            self.assertEqual(srv.stop(), 0)


class SelfSigned(unittest.TestCase):
    """--tls-self-signed: the key and certificate in the data directory."""

    def setUp(self):
        self.data = tempfile.mkdtemp(prefix="conclave-self-")
        self.addCleanup(shutil.rmtree, self.data, True)
        self.cert = os.path.join(self.data, "tls-cert.pem")
        self.key = os.path.join(self.data, "tls-key.pem")

    def start(self):
        """A server on the test's data directory, and its fingerprint line."""
        srv = Server("--data-dir", self.data, "--tls-self-signed", http=True)
        self.addCleanup(srv.stop)
        return srv, certificate_line(srv)

    def test_a_fresh_data_dir_gets_a_key_and_certificate(self):
        srv, printed = self.start()
        self.assertEqual(stat.S_IMODE(os.stat(self.key).st_mode), 0o600)
        self.assertEqual(printed, file_sha256(self.cert))
        self.assertEqual(printed, served_sha256(srv.http_port))
        r, body = get(srv.http_port, "/healthz", tls=True)
        self.assertEqual((r.status, body), (200, b"ok\n"))
        # A client that trusts the file verifies the server's name too.
        ctx = ssl.create_default_context(cafile=self.cert)
        for name in ("127.0.0.1", "localhost"):
            raw = socket.create_connection(("127.0.0.1", srv.http_port), timeout=10)
            with ctx.wrap_socket(raw, server_hostname=name):
                pass
        self.assertIn(b"event=tls_self_signed_made", srv.log_bytes())
        self.assertEqual(srv.stop(), 0)

    def test_a_second_start_keeps_the_certificate(self):
        srv, first = self.start()
        self.assertEqual(srv.stop(), 0)
        with open(self.key, "rb") as f:
            key = f.read()
        srv, again = self.start()
        self.assertEqual(again, first)
        self.assertEqual(served_sha256(srv.http_port), first)
        with open(self.key, "rb") as f:
            self.assertEqual(f.read(), key)
        self.assertNotIn(b"tls_self_signed_", srv.log_bytes())
        self.assertEqual(srv.stop(), 0)

    def test_an_expired_certificate_is_replaced(self):
        make_cert(self.cert, self.key, -30, -1)
        old = file_sha256(self.cert)
        srv, printed = self.start()
        self.assertNotEqual(printed, old)
        self.assertEqual(printed, file_sha256(self.cert))
        self.assertEqual(printed, served_sha256(srv.http_port))
        log = srv.log_bytes()
        self.assertIn(b"event=tls_self_signed_renewed", log)
        self.assertIn(b"old_sha256=" + old.encode(), log)
        self.assertIn(b"sha256=" + printed.encode(), log)
        self.assertEqual(srv.stop(), 0)

    def refused(self, *args):
        out = subprocess.run([CONCLAVED, "--listen", "127.0.0.1:0", "--data-dir", self.data]
                             + list(args), capture_output=True, text=True, timeout=LIVENESS)
        self.assertNotEqual(out.returncode, 0)
        self.assertNotIn("Sanitizer", out.stderr)
        self.assertFalse(os.path.exists(self.cert) or os.path.exists(self.key))
        return out.stderr

    def test_refusals(self):
        make_cert(os.path.join(self.data, "c.pem"), os.path.join(self.data, "k.pem"), -1, 30)
        err = self.refused("--http", "127.0.0.1:0", "--tls-self-signed",
                           "--tls-cert", os.path.join(self.data, "c.pem"),
                           "--tls-key", os.path.join(self.data, "k.pem"))
        self.assertIn("--tls-self-signed makes its own certificate", err)
        err = self.refused("--tls-self-signed")
        self.assertIn("--tls-self-signed needs --http HOST:PORT", err)


if __name__ == "__main__":
    main()
