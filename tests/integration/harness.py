# SPDX-License-Identifier: MIT
"""Integration harness: starts the real conclaved on 127.0.0.1:0, reads back
the port from its "listening on" line, and talks protocol v1 over TCP with
plain sockets, or over WebSocket (a small RFC 6455 client below) when
$CONCLAVE_TRANSPORT is "ws": then the server also serves --http on
127.0.0.1:0 and every client of ServerTest speaks WebSocket. Waits are
conditions with deadlines, never fixed sleeps.

The binaries come from $CONCLAVED and $CONCLAVE (set by meson)."""
import base64
import hashlib
import json
import os
import re
import shutil
import signal
import socket
import struct
import subprocess
import tempfile
import time
import unittest

# How long an answer may take before the server counts as stuck: a
# liveness bound, not a speed goal, generous enough for any busy machine.
LIVENESS = 30.0


def wait_until(cond, what, timeout=LIVENESS, poll=0.02):
    """Calls cond() until it is true; fails with what() after `timeout`
    seconds. For events only a broken server never brings."""
    deadline = time.time() + timeout
    while not cond():
        if time.time() >= deadline:
            raise AssertionError(what())
        time.sleep(poll)

CONCLAVED = os.environ.get("CONCLAVED", "build/server/conclaved")
TRANSPORT = os.environ.get("CONCLAVE_TRANSPORT", "tcp")
CONCLAVE = os.environ.get("CONCLAVE", "build/client-cli/conclave")


def canonical_hash(view):
    raw = json.dumps(view, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.blake2b(raw.encode("utf-8"), digest_size=32).hexdigest()


def pointer(path):
    if path == "":
        return []
    assert path.startswith("/"), path
    return [t.replace("~1", "/").replace("~0", "~") for t in path[1:].split("/")]


def patch_apply(doc, patch):
    """RFC 6902 add/remove/replace, written for these tests."""
    doc = json.loads(json.dumps(doc))
    for op in patch:
        toks = pointer(op["path"])
        if not toks:
            doc = json.loads(json.dumps(op["value"]))
            continue
        parent = doc
        for t in toks[:-1]:
            parent = parent[int(t)] if isinstance(parent, list) else parent[t]
        last = toks[-1]
        kind = op["op"]
        if isinstance(parent, list):
            idx = len(parent) if last == "-" else int(last)
            if kind == "add":
                parent.insert(idx, op["value"])
            elif kind == "remove":
                del parent[idx]
            elif kind == "replace":
                parent[idx] = op["value"]
            else:
                raise AssertionError("unexpected op " + kind)
        else:
            if kind in ("add", "replace"):
                if kind == "replace":
                    assert last in parent, "replace of a missing key " + op["path"]
                parent[last] = op["value"]
            elif kind == "remove":
                del parent[last]
            else:
                raise AssertionError("unexpected op " + kind)
    return doc


class Server:
    def __init__(self, *extra, http=None, env=None):
        """With http (default: when $CONCLAVE_TRANSPORT is ws) the server
        also serves HTTP and WebSocket; http_port is then its port. Its bots
        play at random (--bot-max-level random) unless `extra` names
        another level: a search under the sanitizers would only slow the
        suites that test something else."""
        if http is None:
            http = TRANSPORT == "ws"
        self.dir = tempfile.mkdtemp(prefix="conclave-it-")
        self.log = open(os.path.join(self.dir, "server.log"), "wb")
        args = [CONCLAVED, "--listen", "127.0.0.1:0", "--data-dir", self.dir]
        if http:
            args += ["--http", "127.0.0.1:0"]
        if "--bot-max-level" not in extra:
            args += ["--bot-max-level", "random"]
        self.proc = subprocess.Popen(args + list(extra), stdout=subprocess.PIPE, stderr=self.log,
                                     env=env)
        line = self.proc.stdout.readline().decode()
        m = re.fullmatch(r"listening on 127\.0\.0\.1:(\d+)\n", line)
        assert m, "no listening line: %r" % line
        self.port = int(m.group(1))
        self.addr = "127.0.0.1:%d" % self.port
        self.http_port = None
        if http:
            line = self.proc.stdout.readline().decode()
            m = re.fullmatch(r"http on https?://127\.0\.0\.1:(\d+)/\n", line)
            assert m, "no http line: %r" % line
            self.http_port = int(m.group(1))

    def alive(self):
        return self.proc.poll() is None

    def log_bytes(self):
        """What the server has logged so far."""
        with open(os.path.join(self.dir, "server.log"), "rb") as f:
            return f.read()

    def stop(self):
        if self.log.closed:
            return self.proc.returncode
        if self.alive():
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()
        self.proc.stdout.close()
        shutil.rmtree(self.dir, ignore_errors=True)
        return self.proc.returncode


class Closed(Exception):
    pass


class Client:
    def __init__(self, port, name=None, source=None):
        """source: the loopback address to connect from (127.x.y.z: each is
        another client address to the server's per-address limits)."""
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10,
                                             source_address=(source, 0) if source else None)
        self.buf = b""
        self.reset()
        if name:
            self.ok("hello", proto=1, name=name)

    def reset(self):
        """The client's protocol state, as before hello."""
        self.next_id = 1
        self.events = []
        self.view = None
        self.rev = None
        self.seat = None
        self.token = None
        self.room = None
        self.ended = None

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass

    def send_raw(self, data):
        self.sock.sendall(data)

    def send(self, obj):
        self.sock.sendall(json.dumps(obj).encode() + b"\n")

    def read(self, timeout=10):
        self.sock.settimeout(timeout)
        while b"\n" not in self.buf:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise Closed()
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        assert len(line) <= 4 * 1024 * 1024
        msg = json.loads(line)
        assert isinstance(msg, dict)
        return msg

    def on_event(self, m):
        ev = m["ev"]
        if ev == "state":
            self.view, self.rev, self.seat = m["view"], m["rev"], m["seat"]
            assert m["hash"] == canonical_hash(self.view), "state hash"
        elif ev == "diff":
            assert self.view is not None, "diff before state"
            assert m["rev"] == self.rev + 1, "diff rev %d after %d" % (m["rev"], self.rev)
            self.view = patch_apply(self.view, m["patch"])
            self.rev = m["rev"]
            assert m["hash"] == canonical_hash(self.view), "diff hash at rev %d" % self.rev
        elif ev == "ended":
            self.ended = m["result"]
        self.events.append(m)

    def send_req(self, op, **kw):
        """Sends a request without waiting for its reply; its id."""
        rid = self.next_id
        self.next_id += 1
        msg = {"id": rid, "op": op}
        msg.update(kw)
        self.send(msg)
        return rid

    def wait(self, rid, timeout=10):
        """Reads events until the reply to request `rid`, and returns it."""
        while True:
            m = self.read(timeout=timeout)
            if "ev" in m:
                self.on_event(m)
            elif m.get("re") == rid:
                if m.get("ok") and "token" in m:
                    self.token, self.room, self.seat = m["token"], m["room"], m["seat"]
                return m

    def req(self, op, **kw):
        return self.wait(self.send_req(op, **kw))

    def answers(self):
        """A ping is answered: the server is not stuck (a liveness check;
        the read fails after LIVENESS seconds)."""
        self.send({"op": "ping", "id": "alive"})
        while True:
            m = self.read(timeout=LIVENESS)
            if "ev" in m:
                self.on_event(m)
            elif m.get("re") == "alive":
                assert m.get("ok") is True, "ping refused: %r" % m
                return

    def ok(self, op, **kw):
        r = self.req(op, **kw)
        assert r.get("ok") is True, "%s refused: %r" % (op, r)
        return r

    def err(self, op, code, **kw):
        r = self.req(op, **kw)
        assert r.get("ok") is False, "%s accepted, expected %s: %r" % (op, code, r)
        assert r["error"]["code"] == code, "%s: %r, expected %s" % (op, r["error"], code)
        assert isinstance(r["error"]["message"], str) and r["error"]["message"]
        return r

    def pump(self, until, timeout=20):
        """Reads events until until(self) holds."""
        deadline = time.time() + timeout
        while not until(self):
            left = deadline - time.time()
            assert left > 0, "condition not reached in time"
            m = self.read(timeout=left)
            if "ev" in m:
                self.on_event(m)

    def drain(self, quiet=0.2):
        while True:
            try:
                m = self.read(timeout=quiet)
            except (socket.timeout, TimeoutError):
                return
            if "ev" in m:
                self.on_event(m)

    def count(self, ev):
        return sum(1 for e in self.events if e.get("ev") == ev)


class HandshakeRefused(Exception):
    pass


def ws_connect(port, path="/ws", protocol="conclave.v1", origin=None, timeout=10, sock=None):
    """Opens a WebSocket to 127.0.0.1:port (over `sock` when given, a TLS
    socket say); returns (socket, bytes read past the handshake). Raises
    HandshakeRefused with the status line when the server does not switch
    protocols."""
    if sock is None:
        sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    key = base64.b64encode(os.urandom(16)).decode()
    head = ["GET %s HTTP/1.1" % path, "Host: 127.0.0.1:%d" % port, "Upgrade: websocket",
            "Connection: Upgrade", "Sec-WebSocket-Key: " + key, "Sec-WebSocket-Version: 13"]
    if protocol:
        head.append("Sec-WebSocket-Protocol: " + protocol)
    if origin:
        head.append("Origin: " + origin)
    sock.sendall(("\r\n".join(head) + "\r\n\r\n").encode())
    buf = b""
    while b"\r\n\r\n" not in buf:
        chunk = sock.recv(4096)
        if not chunk:
            sock.close()
            raise HandshakeRefused("closed during the handshake")
        buf += chunk
    head, rest = buf.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    if not lines[0].startswith("HTTP/1.1 101"):
        sock.close()
        raise HandshakeRefused(lines[0])
    fields = {l.split(":", 1)[0].strip().lower(): l.split(":", 1)[1].strip()
              for l in lines[1:] if ":" in l}
    want = base64.b64encode(hashlib.sha1(
        (key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode()).digest()).decode()
    assert fields.get("sec-websocket-accept") == want, "bad accept key: %r" % fields
    if protocol:
        assert fields.get("sec-websocket-protocol") == protocol, fields
    return sock, rest


def ws_frame(payload, opcode=1, fin=True):
    """One masked client frame."""
    mask = os.urandom(4)
    n = len(payload)
    head = bytes([(0x80 if fin else 0) | opcode])
    if n < 126:
        head += bytes([0x80 | n])
    elif n < 65536:
        head += bytes([0x80 | 126]) + struct.pack("!H", n)
    else:
        head += bytes([0x80 | 127]) + struct.pack("!Q", n)
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return head + mask + body


class WsClient(Client):
    """A protocol client over WebSocket: one text frame per line."""

    def __init__(self, port, name=None, origin=None):
        self.sock, self.buf = ws_connect(port, origin=origin)
        self.reset()
        if name:
            self.ok("hello", proto=1, name=name)

    def send_raw(self, data, opcode=1):
        self.sock.sendall(ws_frame(data, opcode))

    def send(self, obj):
        self.send_raw(json.dumps(obj).encode())

    def _take(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise Closed()
            self.buf += chunk
        data, self.buf = self.buf[:n], self.buf[n:]
        return data

    def frame(self, timeout=10):
        """The next whole message: (opcode, payload). Pings are answered."""
        self.sock.settimeout(timeout)
        parts, first = [], None
        while True:
            b0, b1 = self._take(2)
            assert not b1 & 0x80, "a server frame is masked"
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack("!H", self._take(2))[0]
            elif n == 127:
                n = struct.unpack("!Q", self._take(8))[0]
            payload = self._take(n)
            op = b0 & 0x0F
            if op == 9:
                self.sock.sendall(ws_frame(payload, 10))
                continue
            if op == 10:
                continue
            if op == 8:
                return 8, payload
            if first is None:
                first = op
            parts.append(payload)
            if b0 & 0x80:
                return first, b"".join(parts)

    def read(self, timeout=10):
        op, payload = self.frame(timeout)
        if op == 8:
            raise Closed()
        assert op == 1, "a server message that is not text: opcode %d" % op
        assert not payload.endswith(b"\n"), "a frame carries its line without the newline"
        assert len(payload) <= 4 * 1024 * 1024
        msg = json.loads(payload)
        assert isinstance(msg, dict)
        return msg


def play_out(test, c, rng, limit=5000):
    """Plays c's seat with random legal actions until its game ends, while
    bots (or others) play the other seats, and waits for the `ended` event.
    An act that finds the room moved on (a seat acting at the same time
    went first) is `stale` and is not an error. Returns the acts sent."""
    made = 0
    while c.view["result"] is None:
        test.assertLess(made, limit, "the game does not end")
        rev = c.rev
        if c.seat in c.view["active"]:
            acts = c.ok("legal")["actions"]
            if acts:
                r = c.req("act", action=rng.choice(acts), rev=rev)
                if not r.get("ok"):
                    test.assertEqual(r["error"]["code"], "stale", r)
                made += 1
        c.pump(lambda x: x.rev > rev or x.view["result"] is not None, timeout=LIVENESS)
    c.pump(lambda x: x.ended is not None, timeout=LIVENESS)
    return made


def random_requests(c, rng, n):
    """Sends n random room requests as a careless or hostile client would:
    create (a random game), start with or without bots, leave, join or
    spectate its own room. Returns how many creates were refused."""
    refused = 0
    for _ in range(n):
        op = rng.choice(["create", "create", "start", "leave", "join", "spectate"])
        if op == "create":
            r = c.req("create", game=rng.choice(["stones", "sorcerers", "element"]),
                      seats=rng.choice([2, 2, 3]))
            refused += not r.get("ok")
        elif op == "start":
            c.req("start", bots=rng.choice([True, False]))
        elif op in ("join", "spectate") and c.room:
            c.req(op, room=c.room)
        else:
            c.req(op)
    return refused


def public(view):
    return {k: v for k, v in view.items() if k != "you"}


class ServerTest(unittest.TestCase):
    server_args = ("--bot-delay", "0")

    def setUp(self):
        self.srv = Server(*self.server_args)
        self.clients = []

    def tearDown(self):
        for c in self.clients:
            c.close()
        rc = self.srv.stop()
        self.assertEqual(rc, 0, "server exit status")

    def client(self, name="Ann"):
        if TRANSPORT == "ws":
            c = WsClient(self.srv.http_port, name)
        else:
            c = Client(self.srv.port, name)
        self.clients.append(c)
        return c


def main():
    unittest.main(verbosity=2)
