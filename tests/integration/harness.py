# SPDX-License-Identifier: MIT
"""Integration harness: starts the real conclaved on 127.0.0.1:0, reads back
the port from its "listening on" line, and talks protocol v1 over TCP with
plain sockets. Waits are conditions with deadlines, never fixed sleeps.

The binaries come from $CONCLAVED and $CONCLAVE (set by meson)."""
import hashlib
import json
import os
import re
import shutil
import signal
import socket
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
    def __init__(self, *extra):
        self.dir = tempfile.mkdtemp(prefix="conclave-it-")
        self.log = open(os.path.join(self.dir, "server.log"), "wb")
        self.proc = subprocess.Popen(
            [CONCLAVED, "--listen", "127.0.0.1:0", "--data-dir", self.dir] + list(extra),
            stdout=subprocess.PIPE, stderr=self.log)
        line = self.proc.stdout.readline().decode()
        m = re.fullmatch(r"listening on 127\.0\.0\.1:(\d+)\n", line)
        assert m, "no listening line: %r" % line
        self.port = int(m.group(1))
        self.addr = "127.0.0.1:%d" % self.port

    def alive(self):
        return self.proc.poll() is None

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
    def __init__(self, port, name=None):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.buf = b""
        self.next_id = 1
        self.events = []
        self.view = None
        self.rev = None
        self.seat = None
        self.token = None
        self.room = None
        self.ended = None
        if name:
            self.ok("hello", proto=1, name=name)

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

    def req(self, op, **kw):
        rid = self.next_id
        self.next_id += 1
        msg = {"id": rid, "op": op}
        msg.update(kw)
        self.send(msg)
        while True:
            m = self.read()
            if "ev" in m:
                self.on_event(m)
            elif m.get("re") == rid:
                if m.get("ok") and "token" in m:
                    self.token, self.room, self.seat = m["token"], m["room"], m["seat"]
                return m

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
        c = Client(self.srv.port, name)
        self.clients.append(c)
        return c


def main():
    unittest.main(verbosity=2)
