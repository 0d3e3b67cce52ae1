#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Notices to a player who is not there, from outside: the real conclaved
tells a seat's webhook and its Web Push subscription when it is that
seat's turn, when a chat line mentions it and when the game ends. The
webhook receiver and the push service are one HTTPS server of the test
(its certificate for localhost, from a CA made here and given to the
server with --notify-ca); the push service checks the VAPID token (RFC
8292) and decrypts each message with the subscription's private key (RFC
8291), as a browser would."""

import base64
import json
import os
import shutil
import ssl
import tempfile
import threading
import unittest
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from harness import LIVENESS, Client, Server, main, wait_until
from test_fleet import make_ca, make_cert


def b64u(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64u(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Subscriber:
    """A browser's push subscription: its P-256 key pair and auth secret."""

    def __init__(self, endpoint):
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        self.auth = os.urandom(16)
        self.endpoint = endpoint

    def subscription(self):
        """What PushSubscription.toJSON() gives a page."""
        return {"endpoint": self.endpoint,
                "keys": {"p256dh": b64u(self.public), "auth": b64u(self.auth)}}

    def decrypt(self, body):
        """RFC 8291 / RFC 8188 aes128gcm, one record: the plaintext."""
        salt, rs, idlen = body[:16], int.from_bytes(body[16:20], "big"), body[20]
        sender = body[21:21 + idlen]
        assert idlen == 65 and rs >= 18, (idlen, rs)
        ecdh = self.key.exchange(ec.ECDH(), ec.EllipticCurvePublicKey.from_encoded_point(
            ec.SECP256R1(), sender))
        ikm = HKDF(hashes.SHA256(), 32, self.auth,
                   b"WebPush: info\x00" + self.public + sender).derive(ecdh)
        cek = HKDF(hashes.SHA256(), 16, salt, b"Content-Encoding: aes128gcm\x00").derive(ikm)
        nonce = HKDF(hashes.SHA256(), 12, salt, b"Content-Encoding: nonce\x00").derive(ikm)
        record = AESGCM(cek).decrypt(nonce, body[21 + idlen:], None)
        record = record.rstrip(b"\x00")
        assert record.endswith(b"\x02"), "not the last record's delimiter"
        return record[:-1]


def vapid_claims(header, public_key):
    """The claims of an Authorization: vapid t=..., k=... header, once its
    ES256 signature checks with the server's public key (the hello's)."""
    fields = dict(part.strip().split("=", 1) for part in header[len("vapid "):].split(","))
    assert fields["k"] == public_key, "the token's key is not the hello's"
    head, claims, sig = fields["t"].split(".")
    assert json.loads(unb64u(head)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64u(sig)
    assert len(raw) == 64, "a JOSE signature is r||s"
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64u(fields["k"]))
    key.verify(encode_dss_signature(int.from_bytes(raw[:32], "big"),
                                    int.from_bytes(raw[32:], "big")),
               (head + "." + claims).encode(), ec.ECDSA(hashes.SHA256()))
    return json.loads(unb64u(claims))


class Receiver:
    """The HTTPS end of every notice: /hook/... takes webhooks, /push/...
    is the push service (/push/gone answers 410, as for a subscription
    taken back)."""

    def __init__(self, d):
        ca = make_ca(d, "notices-ca")
        key, crt = make_cert(d, "localhost", ca, "subjectAltName=DNS:localhost")
        self.ca_file = ca[1]
        self.got = []
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                with receiver.lock:
                    receiver.got.append((self.path, dict(self.headers), body))
                self.send_response(410 if self.path == "/push/gone" else 201)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(crt, key)
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.socket = ctx.wrap_socket(self.httpd.socket, server_side=True)
        self.port = self.httpd.server_address[1]
        self.base = "https://localhost:%d" % self.port
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def taken(self, path):
        with self.lock:
            return [g for g in self.got if g[0] == path]

    def wait(self, path, n=1):
        wait_until(lambda: len(self.taken(path)) >= n, "%d notices at %s" % (n, path))
        return self.taken(path)

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()


class Notices(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="conclave-notices-")
        self.rx = Receiver(self.dir)
        self.srv = Server("--bot-delay", "0", "--notify-allow", "localhost", "--notify-ca",
                          self.rx.ca_file, "--public-url", "https://games.example.org",
                          http=True)
        self.clients = []

    def tearDown(self):
        for c in self.clients:
            c.close()
        rc = self.srv.stop()
        self.rx.stop()
        shutil.rmtree(self.dir, ignore_errors=True)
        self.assertEqual(rc, 0, "server exit status")

    def client(self, name):
        c = Client(self.srv.port)
        self.clients.append(c)
        c.hello = c.ok("hello", proto=1, name=name)
        return c

    def metric(self, name):
        """The value of sample `name` (with its labels) on /metrics."""
        with urllib.request.urlopen("http://127.0.0.1:%d/metrics" % self.srv.http_port) as r:
            for line in r.read().decode().splitlines():
                if line.startswith(name + " "):
                    return float(line.split()[1])
        self.fail("no sample " + name)

    def table(self):
        """Ann's room of Sorcerer & Stones, Bo seated: both clients."""
        ann, bo = self.client("Ann"), self.client("Bo")
        code = ann.ok("create", game="stones", seats=2)["room"]
        bo.ok("join", room=code)
        return ann, bo, code

    def start_and_wait_for_bo(self, ann, bo):
        """Starts, Bo goes, and Ann plays until it is Bo's turn."""
        ann.ok("start")
        ann.pump(lambda c: c.view is not None)
        token = bo.token
        bo.close()
        while 1 not in ann.view["active"]:
            rev = ann.rev
            ann.ok("act", action=ann.ok("legal")["actions"][0], rev=rev)
            ann.pump(lambda c: c.rev > rev, timeout=LIVENESS)
        return token

    def test_an_away_player_is_told_by_webhook_and_web_push(self):
        ann, bo, code = self.table()
        key = bo.hello["notify"]["push"]
        self.assertEqual(len(unb64u(key)), 65, "the VAPID key is a P-256 point")
        sub = Subscriber(self.rx.base + "/push/bo")
        r = bo.ok("notify", webhook=self.rx.base + "/hook/bo", push=sub.subscription())
        self.assertEqual(r["notify"], {"webhook": self.rx.base + "/hook/bo", "push": 1})
        # The key pair is the data directory's: a restart gives the same.
        with open(os.path.join(self.srv.dir, "vapid.pem")) as f:
            self.assertIn("PRIVATE KEY", f.read())
        self.start_and_wait_for_bo(ann, bo)
        path, headers, body = self.rx.wait("/hook/bo")[0]
        notice = json.loads(body)
        self.assertEqual(headers["Content-Type"], "application/json")
        self.assertEqual(notice["event"], "turn")
        self.assertEqual(notice["room"], code)
        self.assertEqual(notice["seat"], 1)
        self.assertEqual(notice["title"], "Conclave: your turn")
        self.assertEqual(notice["url"], "https://games.example.org/#" + code)
        self.assertIn("Sorcerer & Stones", notice["text"])
        # The push: encrypted to Bo's subscription, signed for the push
        # service's origin, kept a day.
        path, headers, body = self.rx.wait("/push/bo")[0]
        self.assertEqual(headers["Content-Encoding"], "aes128gcm")
        self.assertEqual(headers["TTL"], "86400")
        claims = vapid_claims(headers["Authorization"], key)
        self.assertEqual(claims["aud"], self.rx.base)
        self.assertTrue(claims["sub"].startswith(("mailto:", "https:")), claims)
        self.assertNotIn(b"your turn", body)
        self.assertEqual(json.loads(sub.decrypt(body)), notice)
        # Told once: Ann's chat naming Bo is a mention, one naming nobody
        # is not.
        ann.ok("chat", text="nobody here")
        ann.ok("chat", text="@Bo wake up")
        hooks = self.rx.wait("/hook/bo", 2)
        mention = json.loads(hooks[1][2])
        self.assertEqual(mention["event"], "mention")
        self.assertIn("wake up", mention["text"])
        self.assertEqual(json.loads(sub.decrypt(self.rx.wait("/push/bo", 2)[1][2])), mention)
        ann.answers()
        self.assertEqual(len(self.rx.taken("/hook/bo")), 2)
        # The operator counts them.
        self.assertEqual(self.metric('conclave_notices_total{to="webhook"}'), 2)
        self.assertEqual(self.metric('conclave_notices_total{to="push"}'), 2)
        wait_until(lambda: self.metric('conclave_notices_delivered_total{outcome="delivered"}')
                   == 4, "four notices delivered")

    def test_a_subscription_its_push_service_says_is_gone_is_dropped(self):
        ann, bo, code = self.table()
        bo.ok("notify", push=Subscriber(self.rx.base + "/push/gone").subscription())
        token = self.start_and_wait_for_bo(ann, bo)
        self.rx.wait("/push/gone")
        bo = self.client("Bo")
        bo.ok("resume", token=token)
        wait_until(lambda: bo.ok("notify")["notify"]["push"] == 0,
                   "the subscription dropped after the 410")
        self.assertEqual(self.metric("conclave_push_gone_total"), 1)

    def test_targets_are_checked_and_go_with_the_player(self):
        ann, bo, code = self.table()
        base = self.rx.base
        # Only hosts of --notify-allow; push over https only; keys of the
        # subscription's sizes.
        self.assertIn("example", bo.err("notify", "bad_request",
                                        webhook="https://hooks.example.net/x")["error"]["message"])
        sub = Subscriber(base.replace("https:", "http:") + "/push/bo").subscription()
        bo.err("notify", "bad_request", push=sub)
        sub = Subscriber(base + "/push/bo").subscription()
        sub["keys"]["auth"] = "AAAA"
        bo.err("notify", "bad_request", push=sub)
        self.assertEqual(bo.ok("notify")["notify"], {"webhook": None, "push": 0})
        # Spectators have no seat to be told for.
        eve = self.client("Eve")
        eve.ok("spectate", room=code)
        eve.err("notify", "not_in_game", webhook=base + "/hook/eve")
        # Bo leaves the room before the start; Cy takes the seat and is
        # not told on Bo's webhook.
        bo.ok("notify", webhook=base + "/hook/bo")
        bo.ok("leave")
        cy = self.client("Cy")
        cy.ok("join", room=code)
        self.start_and_wait_for_bo(ann, cy)
        ann.ok("chat", text="@Cy and @Bo")
        ann.answers()
        self.assertEqual(self.rx.taken("/hook/bo"), [])


class Refusals(unittest.TestCase):
    """Without an allow list only public addresses are taken; with
    --notify off there are no notices at all."""

    def run_server(self, *args):
        srv = Server("--bot-delay", "0", *args)
        self.addCleanup(lambda: self.assertEqual(srv.stop(), 0))
        ann, bo = Client(srv.port), Client(srv.port)
        self.addCleanup(ann.close)
        self.addCleanup(bo.close)
        hello = ann.ok("hello", proto=1, name="Ann")
        bo.ok("hello", proto=1, name="Bo")
        code = ann.ok("create", game="stones", seats=2)["room"]
        bo.ok("join", room=code)
        return hello, bo

    def test_private_addresses_are_refused(self):
        hello, bo = self.run_server()
        self.assertEqual(hello["notify"]["webhook"], True)
        for url in ("https://127.0.0.1/x", "https://localhost:8080/", "http://10.1.2.3/",
                    "https://[::1]/", "https://192.168.0.1/hook", "ftp://ntfy.sh/x", "ntfy.sh/x"):
            bo.err("notify", "bad_request", webhook=url)
        self.assertEqual(bo.ok("notify", webhook="https://ntfy.sh/conclave-test")["notify"],
                         {"webhook": "https://ntfy.sh/conclave-test", "push": 0})

    def test_notices_off(self):
        hello, bo = self.run_server("--notify", "off")
        self.assertNotIn("notify", hello)
        bo.err("notify", "bad_request", webhook="https://ntfy.sh/x")


if __name__ == "__main__":
    main()
