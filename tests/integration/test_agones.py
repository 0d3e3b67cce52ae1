#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""conclaved --agones against a stand-in of the Agones SDK sidecar.

The stand-in is a test double of the endpoints of the Agones SDK REST
gateway that the server uses, as Agones 1.56 documents them
(sdks/swagger/sdk.swagger.json and beta.swagger.json): POST /ready,
POST /health, POST /shutdown, PATCH /v1beta1/counters/{name} and
POST /v1beta1/lists/{name}:addValue / :removeValue, with the gateway's
answers (200 with the object, 404 for an unknown Counter or List or a value
not in it, 409 for a value already in it, 400 for a count out of range).
It records every call. The tests check the order of the calls and that the
`rooms` Counter and List follow the rooms over creates, ends, expiry and a
drain; no real cluster is involved."""
import json
import os
import random
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import unittest
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from harness import CONCLAVED, LIVENESS, Client, play_out, wait_until


class Sidecar:
    def __init__(self, capacity=100, port=0):
        self.calls = []  # (method, path, body)
        self.counter = {"name": "rooms", "count": 0, "capacity": capacity}
        self.values = []
        self.capacity = capacity
        self.lock = threading.Lock()
        side = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def answer(self, code, obj):
                data = json.dumps(obj).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def handle_call(self, method):
                n = int(self.headers.get("Content-Length", "0"))
                raw = self.rfile.read(n) if n else b""
                body = json.loads(raw) if raw else None
                with side.lock:
                    side.calls.append((method, self.path, body))
                    code, obj = side.route(method, self.path, body)
                self.answer(code, obj)

            def do_POST(self):
                self.handle_call("POST")

            def do_PATCH(self):
                self.handle_call("PATCH")

            def do_GET(self):
                self.handle_call("GET")

        self.httpd = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def route(self, method, path, body):
        if method == "POST" and path in ("/ready", "/health", "/shutdown"):
            return 200, {}
        m = re.fullmatch(r"/v1beta1/counters/([a-z]+)", path)
        if m and method == "PATCH":
            if m.group(1) != "rooms":
                return 404, {"code": 5, "message": "counter not found"}
            count = int(body["count"])
            if count < 0 or count > self.counter["capacity"]:
                return 400, {"code": 11, "message": "out of range"}
            self.counter["count"] = count
            return 200, {k: str(v) if k != "name" else v for k, v in self.counter.items()}
        m = re.fullmatch(r"/v1beta1/lists/([a-z]+):(addValue|removeValue)", path)
        if m and method == "POST":
            if m.group(1) != "rooms":
                return 404, {"code": 5, "message": "list not found"}
            v = body["value"]
            if m.group(2) == "addValue":
                if v in self.values:
                    return 409, {"code": 6, "message": "already exists"}
                if len(self.values) >= self.capacity:
                    return 400, {"code": 11, "message": "out of range"}
                self.values.append(v)
            else:
                if v not in self.values:
                    return 404, {"code": 5, "message": "not found"}
                self.values.remove(v)
            return 200, {"name": "rooms", "capacity": str(self.capacity), "values": self.values}
        return 404, {"code": 5, "message": "no such endpoint"}

    def paths(self):
        with self.lock:
            return [p for _, p, _ in self.calls]

    def state(self):
        with self.lock:
            return self.counter["count"], sorted(self.values)

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


class Agones(unittest.TestCase):
    def setUp(self):
        self.side = Sidecar()
        self.data = tempfile.mkdtemp(prefix="conclave-it-")
        self.log = open(os.path.join(self.data, "server.log"), "wb")
        env = dict(os.environ, AGONES_SDK_HTTP_PORT=str(self.side.port))
        self.proc = subprocess.Popen(
            [CONCLAVED, "--listen", "127.0.0.1:0", "--data-dir", self.data, "--agones",
             "--agones-health", "200", "--lobby-ttl", "1", "--ended-ttl", "1",
             "--drain-timeout", "60", "--bot-delay", "0", "--bot-max-level", "random",
             "--rate", "100000", "--rate-burst", "100000"],
            stdout=subprocess.PIPE, stderr=self.log, env=env)
        m = re.match(rb"listening on 127\.0\.0\.1:(\d+)", self.proc.stdout.readline())
        self.assertTrue(m)
        self.port = int(m.group(1))
        self.clients = []

    def tearDown(self):
        for c in self.clients:
            c.close()
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.proc.stdout.close()
        self.log.close()
        self.side.close()
        shutil.rmtree(self.data, ignore_errors=True)

    def logged(self, what):
        with open(self.log.name, "rb") as f:
            return what in f.read()

    def client(self, name):
        c = Client(self.port, name)
        self.clients.append(c)
        return c

    def wait_state(self, count, values, what):
        wait_until(lambda: self.side.state() == (count, sorted(values)),
                   lambda: "%s: the sidecar holds %r, not %r; last calls %r" % (
                       what, self.side.state(), (count, sorted(values)), self.side.calls[-6:]),
                   timeout=LIVENESS)

    def test_rooms_follow_creates_ends_expiry_and_a_drain(self):
        rng = random.Random(16)
        wait_until(lambda: "/health" in self.side.paths(), lambda: "no health ping",
                   timeout=LIVENESS)
        self.assertEqual(self.side.paths()[0], "/ready")

        # Creates: each room is added to the List and counted.
        a = self.client("Ann")
        a.ok("create", game="sorcerers", seats=2)
        kept = a.room
        b = self.client("Bo")
        b.ok("create", game="stones", seats=2)
        lobby = b.room
        c = self.client("Cy")
        c.ok("create", game="sorcerers", seats=2)
        ended = c.room
        self.wait_state(3, [kept, lobby, ended], "after three creates")

        # Expiry: a lobby nobody is connected to is dropped (--lobby-ttl 1).
        b.close()
        self.wait_state(2, [kept, ended], "after the lobby expired")

        # An end: the finished room is dropped after --ended-ttl 1.
        c.ok("start", bots=True)
        c.pump(lambda x: x.view is not None)
        play_out(self, c, rng)
        c.close()
        self.wait_state(1, [kept], "after a game ended")

        # A drain: SIGTERM refuses new rooms; the running game goes on to
        # its end, then the server stops and says Shutdown last.
        a.ok("start", bots=True)
        a.pump(lambda x: x.view is not None)
        self.proc.send_signal(signal.SIGTERM)
        wait_until(lambda: self.logged(b"event=draining"),
                   lambda: "no drain", timeout=LIVENESS)
        d = self.client("Dee")
        d.err("create", "server_busy", game="stones", seats=2)
        self.assertIsNone(self.proc.poll())
        play_out(self, a, rng)
        self.assertEqual(self.proc.wait(LIVENESS), 0)
        paths = self.side.paths()
        self.assertEqual(paths[-1], "/shutdown")
        self.assertEqual(paths.count("/shutdown"), 1)
        self.assertEqual(paths.count("/ready"), 1)
        # Every code was added once; the ones dropped were removed once.
        with self.side.lock:
            adds = [b["value"] for m, p, b in self.side.calls if p.endswith(":addValue")]
            removes = [b["value"] for m, p, b in self.side.calls if p.endswith(":removeValue")]
            counts = [b["count"] for m, p, b in self.side.calls if p.startswith("/v1beta1/counters")]
        self.assertEqual(sorted(adds), sorted([kept, lobby, ended]))
        self.assertEqual(sorted(removes), sorted([lobby, ended]))
        self.assertTrue(all(isinstance(n, str) for n in counts))  # int64 as a JSON string
        self.assertEqual(self.side.state()[0], int(counts[-1]))

    def test_the_sidecar_down_for_a_while_is_caught_up(self):
        # Requests that fail are tried again; the Counter and the List end
        # up as the rooms are, whatever was missed.
        wait_until(lambda: "/ready" in self.side.paths(), lambda: "no ready", timeout=LIVENESS)
        port = self.side.port
        self.side.close()
        a = self.client("Ann")
        a.ok("create", game="element", seats=2)
        wait_until(lambda: self.logged(b"event=agones_request_failed"),
                   lambda: "no failed request logged", timeout=LIVENESS)
        self.side = Sidecar(port=port)
        self.wait_state(1, [a.room], "after the sidecar came back")
        self.proc.send_signal(signal.SIGINT)
        self.assertEqual(self.proc.wait(LIVENESS), 0)
        self.assertEqual(self.side.paths()[-1], "/shutdown")


if __name__ == "__main__":
    unittest.main()
