#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Hostile input over real TCP: floods of connections and requests,
half-open and silent connections, random garbage. Throughout, a game in
another room keeps answering promptly and the server stays up."""
import os
import random
import socket
import time

from harness import LIVENESS, Client, Closed, ServerTest, main, random_requests


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


class RoomSlots(ServerTest):
    """Connections that create rooms and go cannot fill the server: a room
    nobody is connected to holds its slot only until a new room needs it.
    Each client address is its own loopback address (127.0.0.x)."""
    server_args = ("--bot-delay", "0", "--max-rooms", "12", "--max-rooms-per-address", "4",
                   "--connect-rate", "100000", "--max-per-address", "200")

    def tcp(self, name, source):
        c = Client(self.srv.port, name, source=source)
        self.clients.append(c)
        return c

    def control_creates(self):
        """A player from an address of its own can open a room."""
        c = self.tcp("Control", "127.0.0.2")
        c.ok("create", game="stones", seats=2)
        c.ok("leave")  # an empty lobby: gone at its next expiry check
        c.close()

    def evictions(self):
        return self.srv.log_bytes().count(b"event=room_evicted")

    def test_lobbies_nobody_is_in_do_not_hold_slots(self):
        watcher = self.tcp("Watcher", "127.0.0.13")
        for host in range(10, 13):
            for i in range(4):
                c = self.tcp("H%d" % i, "127.0.0.%d" % host)
                code = c.ok("create", game="stones", seats=2)["room"]
                c.close()
                # Seen gone by the server: the seat shows nobody connected.
                watcher.ok("spectate", room=code)
                watcher.pump(lambda x: any(e["ev"] == "room" and e["room"] == code and
                                           not e["seats"][0]["connected"] for e in x.events))
                watcher.ok("leave")
        # The server is full of lobbies whose creators have gone.
        self.control_creates()
        self.assertEqual(self.evictions(), 1)
        self.assertRegex(self.srv.log_bytes(), rb"event=room_evicted room=\w{6} status=lobby")

    def test_finished_games_nobody_watches_do_not_hold_slots(self):
        c = self.tcp("Churn", "127.0.0.3")
        for _ in range(12):
            c.ok("create", game="sorcerers", seats=2)
            c.ok("start", bots=True)
            # Watching instead: a bot takes the seat, the game plays out.
            c.ok("spectate", room=c.room)
            c.ended = None
            c.pump(lambda x: x.ended is not None, timeout=LIVENESS)
            c.ok("leave")
        self.control_creates()
        self.assertGreaterEqual(self.evictions(), 1)

    def test_a_random_stream_of_connections_leaves_room_for_others(self):
        rng = random.Random(2026)
        for n in range(150):
            c = self.tcp("R%d" % n, "127.0.0.%d" % rng.randrange(20, 24))
            random_requests(c, rng, rng.randrange(1, 5))
            c.close()
            if n % 25 == 24:
                self.control_creates()
        self.control_creates()
        self.assertTrue(self.srv.alive())


if __name__ == "__main__":
    main()
