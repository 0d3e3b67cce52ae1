#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Hostile input over real TCP: floods of connections and requests,
half-open and silent connections, random garbage. Throughout, a game in
another room keeps answering promptly and the server stays up."""
import os
import random
import socket
import time

from harness import Client, Closed, ServerTest, main


class Hostile(ServerTest):
    server_args = ("--bot-delay", "0", "--hello-timeout", "1", "--max-per-address", "40")

    def watcher(self):
        """A two-player room whose ping round trip is watched."""
        a, b = self.client("Ann"), self.client("Bo")
        code = a.ok("create", game="stones", seats=2)["room"]
        b.ok("join", room=code)
        a.ok("start")
        a.pump(lambda x: x.view is not None)
        return a

    def assert_prompt(self, c):
        # The other room is answered: liveness, not speed.
        c.answers()

    def test_connection_flood(self):
        a = self.watcher()
        socks, refused = [], 0
        for _ in range(120):
            try:
                socks.append(socket.create_connection(("127.0.0.1", self.srv.port), timeout=5))
            except OSError:
                refused += 1
        self.assert_prompt(a)
        busy = 0
        for s in socks:
            s.settimeout(0.2)
            try:
                data = s.recv(4096)
                busy += b"server_busy" in data
            except (socket.timeout, OSError):
                pass
        self.assertGreater(busy, 0, "the per-address limit never answered server_busy")
        for s in socks:
            s.close()
        self.assert_prompt(a)
        self.assertTrue(self.srv.alive())

    def test_half_open_and_silent_connections_are_closed(self):
        a = self.watcher()
        partial = []
        for _ in range(20):
            s = socket.create_connection(("127.0.0.1", self.srv.port), timeout=5)
            s.sendall(b'{"op":"hello","proto":1,"na')  # never finished
            partial.append(s)
        silent = [socket.create_connection(("127.0.0.1", self.srv.port), timeout=5)
                  for _ in range(10)]
        self.assert_prompt(a)
        deadline = time.time() + 10
        for s in partial + silent:
            s.settimeout(max(0.1, deadline - time.time()))
            try:
                self.assertEqual(s.recv(4096), b"", "connection without hello stays open")
            except ConnectionResetError:
                pass
            s.close()
        self.assert_prompt(a)

    def test_request_flood_is_limited(self):
        a = self.watcher()
        f = Client(self.srv.port, "Flood")
        self.clients.append(f)
        codes = set()
        closed = False
        # Bursts of requests, reading what comes back between them, until
        # the server gives up on this connection.
        for _ in range(100):
            try:
                f.send_raw(b'{"op":"ping"}\n' * 100)
                while True:
                    m = f.read(timeout=0.2)
                    if m.get("ok") is False:
                        codes.add(m["error"]["code"])
            except (socket.timeout, TimeoutError):
                continue
            except (Closed, ConnectionResetError, BrokenPipeError):
                closed = True
                break
        self.assertIn("rate_limited", codes)
        self.assertTrue(closed, "sustained flood did not close the connection")
        self.assert_prompt(a)

    def test_garbage_bytes(self):
        a = self.watcher()
        rnd = random.Random(7)
        for i in range(8):
            s = socket.create_connection(("127.0.0.1", self.srv.port), timeout=5)
            blob = bytes(rnd.getrandbits(8) for _ in range(20000 * (i + 1)))
            try:
                s.sendall(blob)
                s.settimeout(0.5)
                while s.recv(65536):
                    pass
            except (OSError, socket.timeout):
                pass
            s.close()
        self.assert_prompt(a)
        self.assertTrue(self.srv.alive())

    def test_deep_and_wide_json(self):
        c = self.client()
        c.send_raw(b'{"op":"chat","text":' + b"[" * 100000 + b"\n")
        m = c.read()
        self.assertIn(m["error"]["code"], ("bad_json", "frame_too_large"))
        c2 = self.client("Two")
        c2.send_raw(b'{"op":"ping","x":[' + b"0," * 30000 + b"0]}\n")
        self.assertTrue(c2.read()["ok"])
        c2.send_raw(b'{"op":"ping","s":"\\ud800"}\n')
        self.assertFalse(c2.read()["ok"])
        c2.ok("ping")


if __name__ == "__main__":
    main()
