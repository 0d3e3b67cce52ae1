#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The terminal client over TLS: `conclave --server wss://HOST:PORT` plays
through the server's WebSocket with certificates made here, at test time.
A certificate no authority vouches for is trusted on first use and kept;
a changed one, an expired one, or one an authority made for another name
is refused before anything is sent; --pin and a join link's #sha256=
name the one to trust. Plain TCP warns when the server is another
machine (a second loopback address stands in for one) and not on
127.0.0.1."""
import datetime
import hashlib
import ipaddress
import json
import os
import re
import shutil
import stat
import subprocess
import tempfile

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from harness import CONCLAVE, CONCLAVED, Client, Server, ServerTest, main

NOW = datetime.datetime.now(datetime.timezone.utc)
DAY = datetime.timedelta(days=1)


def make_cert(directory, stem, names, issuer=None, not_before=None, not_after=None, ca=False):
    """A key and certificate for `names` (IP literals or DNS names), signed
    by `issuer` ((cert, key)) or by itself; written as STEM-key.pem and
    STEM-cert.pem. Returns (cert, key, cert path, key path, SHA-256 hex of
    the DER)."""
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, stem)])
    sans = []
    for n in names:
        try:
            sans.append(x509.IPAddress(ipaddress.ip_address(n)))
        except ValueError:
            sans.append(x509.DNSName(n))
    b = (x509.CertificateBuilder().subject_name(subject)
         .issuer_name(issuer[0].subject if issuer else subject)
         .public_key(key.public_key()).serial_number(x509.random_serial_number())
         .not_valid_before(not_before or NOW - DAY).not_valid_after(not_after or NOW + 30 * DAY)
         .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True))
    if sans:
        b = b.add_extension(x509.SubjectAlternativeName(sans), critical=False)
    cert = b.sign(issuer[1] if issuer else key, hashes.SHA256())
    cpath = os.path.join(directory, stem + "-cert.pem")
    kpath = os.path.join(directory, stem + "-key.pem")
    with open(cpath, "wb") as f:
        f.write(cert.public_bytes(serialization.Encoding.PEM))
    with open(kpath, "wb") as f:
        f.write(key.private_bytes(serialization.Encoding.PEM,
                                  serialization.PrivateFormat.PKCS8,
                                  serialization.NoEncryption()))
    fp = hashlib.sha256(cert.public_bytes(serialization.Encoding.DER)).hexdigest()
    return cert, key, cpath, kpath, fp


class Tls(ServerTest):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="conclave-tls-")
        self.state = os.path.join(self.dir, "state")
        self.env = dict(os.environ, XDG_STATE_HOME=self.state, NO_COLOR="1")
        self.env.pop("SSL_CERT_FILE", None)
        self.srv = None
        self.clients = []

    def tearDown(self):
        if self.srv:
            super().tearDown()

    def serve(self, stem, names=("127.0.0.1",), **kw):
        """The server with a certificate made for `names`: its fingerprint."""
        _, _, cpath, kpath, fp = make_cert(self.dir, stem, names, **kw)
        if self.srv:
            self.assertEqual(self.srv.stop(), 0)
        self.srv = Server("--bot-delay", "0", "--rate", "100000", "--rate-burst", "100000",
                          "--verbose", "--tls-cert", cpath, "--tls-key", kpath,
                          http=True)
        self.url = "wss://127.0.0.1:%d" % self.srv.http_port
        return fp

    def cli(self, *args, stdin="quit\n", server=None):
        return subprocess.run([CONCLAVE, "--server", server or self.url, "--name", "Ann"] +
                              list(args), input=stdin, capture_output=True, text=True,
                              env=self.env, timeout=120)

    def known(self):
        with open(os.path.join(self.state, "conclave", "known_servers.json")) as f:
            return json.load(f)

    def test_a_whole_game_over_tls_with_a_certificate_trusted_on_first_use(self):
        """The first connection trusts the certificate and says so, with
        its fingerprint; it is kept (owner-only) and later connections are
        quiet; a game is played to its end over WSS and replays."""
        fp = self.serve("self")
        out = self.cli("list")
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn("is new to this client: its certificate SHA256:%s" % fp, out.stderr)
        hostport = self.url[len("wss://"):]
        self.assertEqual(self.known(), {hostport: "SHA256:" + fp})
        path = os.path.join(self.state, "conclave", "known_servers.json")
        self.assertEqual(stat.S_IMODE(os.stat(path).st_mode), 0o600)
        record = os.path.join(self.dir, "game.json")
        script = "legal\n#1\n" * 1500 + "record %s\nquit\n" % record
        out = self.cli("create", "stones", "--seats", "2", "--bots", stdin=script)
        self.assertEqual(out.returncode, 0, out.stdout[-2000:] + out.stderr)
        self.assertEqual(out.stderr, "")
        self.assertIn("==== Game over ====", out.stdout)
        self.assertIn("The seed matches the commitment", out.stdout)
        code = re.search(r"In room ([0-9A-Z]{6}) as seat 0", out.stdout).group(1)
        self.assertIn("with: conclave join %s@%s#sha256=%s\n" % (code, self.url[6:], fp),
                      out.stdout)
        replay = subprocess.run([CONCLAVE, "replay", record], capture_output=True, text=True,
                                timeout=60)
        self.assertEqual(replay.returncode, 0, replay.stderr)
        # The saved seat is under the wss:// server, and resumes over TLS.
        out = self.cli("--json", "resume", stdin="")
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertTrue(json.loads(out.stdout.splitlines()[0])["ok"] is not None)

    def test_a_changed_certificate_is_refused_until_pinned(self):
        """Another certificate on the same server is refused, naming both
        fingerprints and how to accept the new one; nothing is sent (no
        hello reaches the server); --pin with the new one takes it and
        keeps it; a wrong --pin is refused even for the old one."""
        old = self.serve("first")
        self.assertEqual(self.cli("list").returncode, 0)
        pinned = self.known()
        # Another certificate where the first was (a restart takes another
        # port: the kept pin is moved to it).
        new = self.serve("second")
        hostport = self.url[len("wss://"):]
        with open(os.path.join(self.state, "conclave", "known_servers.json"), "w") as f:
            json.dump({hostport: list(pinned.values())[0]}, f)
        out = self.cli("list")
        self.assertEqual(out.returncode, 1)
        self.assertIn("is not the one trusted for it: it was SHA256:%s and is now SHA256:%s"
                      % (old, new), out.stderr)
        self.assertIn("--pin SHA256:" + new, out.stderr)
        self.assertIn("known_servers.json", out.stderr)
        self.assertNotIn(b"event=websocket_open", self.srv.log_bytes())
        out = self.cli("--pin", "SHA256:" + new, "list")
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertEqual(self.known()[hostport], "SHA256:" + new)
        self.assertEqual(self.cli("list").returncode, 0)
        out = self.cli("--pin", "SHA256:" + old, "list")
        self.assertEqual(out.returncode, 1)
        self.assertIn("is not the one trusted", out.stderr)
        out = self.cli("--pin", "SHA256:abc", "list")
        self.assertEqual(out.returncode, 1)
        self.assertIn("64 hex digits", out.stderr)

    def test_expired_and_wrong_name_are_refused(self):
        """An expired certificate is refused with its date, pinned or not;
        one a trusted authority made for another name is refused; the
        authority's certificate for this address is taken without a pin."""
        ca = make_cert(self.dir, "ca", [], ca=True)
        self.serve("late", not_before=NOW - 30 * DAY, not_after=NOW - DAY)
        out = self.cli("list")
        self.assertEqual(out.returncode, 1)
        self.assertIn("expired on %s" % (NOW - DAY).strftime("%Y-%m-%d"), out.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.state, "conclave",
                                                     "known_servers.json")))
        self.serve("other", names=("other.example",), issuer=ca[:2])
        out = self.cli("--ca", ca[2], "list")
        self.assertEqual(out.returncode, 1)
        self.assertIn("is for another host name", out.stderr)
        self.serve("right", names=("127.0.0.1",), issuer=ca[:2])
        out = self.cli("--ca", ca[2], "list")
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertEqual(out.stderr, "")  # vouched for: nothing to pin
        # The system's authorities as OpenSSL finds them: SSL_CERT_FILE.
        env = dict(self.env, SSL_CERT_FILE=ca[2])
        out = subprocess.run([CONCLAVE, "--server", self.url, "list"], capture_output=True,
                             text=True, env=env, timeout=60)
        self.assertEqual(out.returncode, 0, out.stderr)
        out = self.cli("--ca", os.path.join(self.dir, "nothing.pem"), "list")
        self.assertEqual(out.returncode, 1)
        self.assertIn("no certificate authority can be read", out.stderr)

    def test_a_join_link_carries_the_server_and_its_fingerprint(self):
        """`conclave join CODE@HOST:PORT#sha256=HEX` joins over TLS and
        trusts that certificate alone."""
        fp = self.serve("link")
        host = Client(self.srv.port, "Host")
        self.clients.append(host)
        code = host.ok("create", game="stones", seats=2)["room"]
        link = "%s@127.0.0.1:%d#sha256=%s" % (code, self.srv.http_port, fp)
        out = subprocess.run([CONCLAVE, "--name", "Bo", "--json", "join", link], input="",
                             capture_output=True, text=True, env=self.env, timeout=60)
        self.assertEqual(out.returncode, 0, out.stderr)
        reply = [json.loads(l) for l in out.stdout.splitlines() if '"re"' in l][0]
        self.assertEqual((reply["ok"], reply["room"], reply["seat"]), (True, code, 1))
        self.assertNotIn("new to this client", out.stderr)
        bad = "%s@127.0.0.1:%d#sha256=%s" % (code, self.srv.http_port, "0" * 64)
        out = subprocess.run([CONCLAVE, "--name", "Cy", "join", bad], input="",
                             capture_output=True, text=True, env=self.env, timeout=60)
        self.assertEqual(out.returncode, 1)
        self.assertIn("is not the one trusted", out.stderr)
        out = subprocess.run([CONCLAVE, "join", code + "@127.0.0.1:1#sha256=xyz"],
                             capture_output=True, text=True, env=self.env, timeout=60)
        self.assertNotEqual(out.returncode, 0)
        self.assertIn("a join link is CODE@HOST:PORT", out.stderr)


class Plain(ServerTest):
    def setUp(self):
        super().setUp()
        self.env = dict(os.environ, XDG_STATE_HOME=tempfile.mkdtemp(prefix="conclave-tls-"))

    def test_plain_tcp_warns_only_for_another_machine(self):
        """No warning on 127.0.0.1; one, naming the way to TLS, when the
        server is at another address than the client's (127.0.0.2 stands
        for another host)."""
        out = subprocess.run([CONCLAVE, "--server", self.srv.addr, "list"], capture_output=True,
                             text=True, env=self.env, timeout=60)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertEqual(out.stderr, "")
        data = tempfile.mkdtemp(prefix="conclave-tls-")
        other = subprocess.Popen([CONCLAVED, "--listen", "127.0.0.2:0", "--data-dir", data],
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        try:
            line = other.stdout.readline().decode()
            m = re.fullmatch(r"listening on (127\.0\.0\.2:\d+)\n", line)
            self.assertTrue(m, line)
            out = subprocess.run([CONCLAVE, "--server", m.group(1), "list"],
                                 capture_output=True, text=True, env=self.env, timeout=60)
            self.assertEqual(out.returncode, 0, out.stderr)
            self.assertEqual(out.stderr.count("warning"), 1, out.stderr)
            self.assertIn("reached over plain TCP", out.stderr)
            self.assertIn("--server wss://HOST:PORT", out.stderr)
        finally:
            other.terminate()
            self.assertEqual(other.wait(10), 0)
            other.stdout.close()
            shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    main()
