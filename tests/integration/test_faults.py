#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Faults found from outside, each held shut: the real conclaved over TCP.
Reals in requests, extreme revs, pipelined requests, one failing journal,
rooms hoarded by one client, long lines, padded records, control
characters, long names and the hello timeout."""
import json
import os
import resource
import shutil
import socket
import subprocess
import tempfile
import time

from harness import CONCLAVED, LIVENESS, Client, Closed, ServerTest, main, wait_until
from test_restart import Node


def started_pair(port, game="sorcerers"):
    """Two clients seated in a started two-player game."""
    a, b = Client(port, "Ann"), Client(port, "Bo")
    code = a.ok("create", game=game, seats=2)["room"]
    b.ok("join", room=code)
    a.ok("start")
    a.pump(lambda x: x.view is not None)
    b.pump(lambda x: x.view is not None)
    return a, b, code


def mover(clients):
    """A client that may act now and an action it may take (every client
    reading what it was sent until one has a move)."""
    deadline = time.time() + LIVENESS
    while time.time() < deadline:
        for c in clients:
            c.drain(quiet=0.05)
        for c in clients:
            if c.view is not None and c.seat in c.view["active"]:
                acts = c.ok("legal")["actions"]
                if acts:
                    return c, acts[0]
    raise AssertionError("nobody could move")


def move(clients):
    """One accepted move, every client following it."""
    c, act = mover(clients)
    rev = c.ok("act", action=act)["rev"]
    for d in clients:
        d.pump(lambda x: x.rev >= rev)


def replies(c, ids):
    """Reads until a reply to each id came; returns their ids in the order
    received, and the replies."""
    got, order = {}, []
    while len(got) < len(ids):
        m = c.read(timeout=LIVENESS)
        if "ev" in m:
            c.on_event(m)
        elif m.get("re") in ids:
            order.append(m["re"])
            got[m["re"]] = m
    return order, got


class Faults(ServerTest):
    server_args = ("--bot-delay", "0", "--rate", "100000", "--rate-burst", "100000")

    # 1. A real number anywhere in a request is refused before any handler.
    def test_reals_are_refused_before_any_handler(self):
        a, b, _ = started_pair(self.srv.port)
        self.clients += [a, b]
        m, _ = mover([a, b])
        rev = m.rev
        r = m.err("act", "bad_request", action={"type": "done", "note": 1.5})
        self.assertIn("integer", r["error"]["message"])
        m.err("ping", "bad_request", x=[1, {"y": 2e3}])
        m.err("chat", "bad_request", text="hi", n=0.5)
        self.assertEqual(m.ok("sync")["rev"], rev, "a refused request changed the room")
        # An action holds only the fields its type defines.
        _, act = mover([a, b])
        r = m.err("act", "bad_action", action=dict(act, note=1))
        self.assertIn('"note"', r["error"]["message"])
        self.assertEqual(m.ok("sync")["rev"], rev, "a refused action changed the room")

    # 1, 7. What is acknowledged is what the journal holds, canonical and
    # small whatever the bytes sent; the room replays after a restart and
    # its record is answered.
    def test_padded_actions_are_journaled_canonical_and_replay(self):
        self.srv.stop()
        data = tempfile.mkdtemp(prefix="conclave-it-")
        try:
            node = Node(data, "--bot-delay", "0")
            a = Client(node.port, "Ann")
            code = a.ok("create", game="sorcerers", seats=2)["room"]
            a.ok("start", bots=True)
            a.pump(lambda x: x.view is not None)
            acted = 0
            while a.ended is None:
                if a.seat in a.view["active"]:
                    acts = a.ok("legal")["actions"]
                    if not acts:
                        a.drain(0.05)
                        continue
                    acts = [x for x in acts if x.get("type") != "cancel"] or acts
                    act = acts[acted % len(acts)]
                    line = ('{"op":"act","id":%d,"action":' % (1000 + acted) +
                            json.dumps(act, indent=1).replace("\n", " " * 200) + " " * 20000 +
                            "}\n")
                    a.send_raw(line.encode())
                    order, got = replies(a, {1000 + acted})
                    self.assertTrue(got[1000 + acted]["ok"], got[1000 + acted])
                    acted += 1
                    a.pump(lambda x: x.rev >= got[1000 + acted - 1]["rev"])
                else:
                    m = a.read(timeout=LIVENESS)
                    if "ev" in m:
                        a.on_event(m)
            self.assertGreater(acted, 0)
            rec = a.ok("record")["record"]
            self.assertLess(len(json.dumps(rec)), 200000, "padding reached the record")
            journal = open(os.path.join(data, "rooms", code + ".journal"), "rb").read()
            self.assertLess(len(journal), 200000, "padding reached the journal")
            a.close()
            self.assertEqual(node.stop(), 0)
            node = Node(data)
            c = Client(node.port, "Ann")
            r = c.ok("resume", token=a.token)
            self.assertEqual(r["room"], code)
            self.assertEqual(c.ok("record")["record"], rec)
            c.close()
            self.assertEqual(node.stop(), 0)
        finally:
            shutil.rmtree(data, ignore_errors=True)

    # 2. Extreme revs on resume: range-checked where they are read.
    def test_resume_with_extreme_revs(self):
        a, b, _ = started_pair(self.srv.port)
        self.clients += [a, b]
        for rev in (-2**63, -64, -2, -1):
            r = a.err("resume", "bad_request", token=a.token, rev=rev)
            self.assertIn("rev", r["error"]["message"])
        for rev in (2**63 - 1, 0):
            a.view = None
            a.ok("resume", token=a.token, rev=rev)
            a.pump(lambda x: x.view is not None)
        a.answers()
        self.assertTrue(self.srv.alive())

    # 3. Replies go out in request order, and none is dropped.
    def test_pipelined_requests_keep_their_replies(self):
        other = self.client("Cy")
        code_other = other.ok("create", game="stones", seats=3)["room"]
        for follow in ("leave", "create", "join", "spectate", "ping", "sync", "list"):
            a, b, _ = started_pair(self.srv.port)
            self.clients += [a, b]
            m, act = mover([a, b])
            args = {"leave": {}, "create": {"game": "sorcerers", "seats": 2},
                    "join": {"room": code_other}, "spectate": {"room": code_other},
                    "ping": {}, "sync": {}, "list": {}}[follow]
            line = (json.dumps({"id": 901, "op": "act", "action": act}) + "\n" +
                    json.dumps(dict({"id": 902, "op": follow}, **args)) + "\n")
            m.send_raw(line.encode())
            order, got = replies(m, {901, 902})
            self.assertEqual(order, [901, 902], "replies out of order after %s" % follow)
            self.assertTrue(got[901]["ok"], "act refused before %s: %r" % (follow, got[901]))
            self.assertTrue(got[902]["ok"], "%s refused: %r" % (follow, got[902]))

    # 5. One client cannot hold every room slot.
    def test_a_connection_that_keeps_creating_holds_one_room(self):
        self.srv.stop()
        self.srv = type(self.srv)("--max-rooms", "10", "--rate", "100000",
                                  "--rate-burst", "100000")
        c = self.client("Hoarder")
        for _ in range(30):
            c.ok("create", game="stones", seats=2)
        # Each create left the room before: only the last one is held.
        self.client("Dee").ok("create", game="stones", seats=2)

    def test_rooms_per_address_are_bounded(self):
        self.srv.stop()
        self.srv = type(self.srv)("--max-rooms-per-address", "3", "--rate", "100000",
                                  "--rate-burst", "100000")
        first = Client(self.srv.port, "P0")
        first.ok("create", game="stones", seats=2)
        for i in (1, 2):
            self.client("P%d" % i).ok("create", game="stones", seats=2)
        r = self.client("P3").err("create", "server_busy", game="stones", seats=2)
        self.assertIn("address", r["error"]["message"])
        # A connection that went away keeps its seat for resume, and its
        # room still counts.
        first.close()
        self.client("P4").err("create", "server_busy", game="stones", seats=2)

    # 6. Long lines cost their size, before they are parsed.
    def test_long_lines_are_charged_by_their_bytes(self):
        self.srv.stop()
        self.srv = type(self.srv)()  # the default rate budget
        watcher_a, watcher_b, _ = started_pair(self.srv.port)
        self.clients += [watcher_a, watcher_b]
        c = self.client("Long")
        pad = "x" * 60000
        lines = b"".join((json.dumps({"id": i, "op": "ping", "pad": pad}) + "\n").encode()
                         for i in range(20))
        c.send_raw(lines)
        codes = []
        for _ in range(20):
            m = c.read(timeout=LIVENESS)
            codes.append("ok" if m.get("ok") else m["error"]["code"])
        self.assertLessEqual(codes.count("ok"), 2, codes)
        self.assertIn("rate_limited", codes)
        watcher_a.answers()

    def test_new_connections_per_address_are_rate_limited(self):
        busy = 0
        for _ in range(1000):
            if busy:
                break
            s = socket.create_connection(("127.0.0.1", self.srv.port), timeout=LIVENESS)
            s.sendall(b'{"op":"hello","proto":1,"name":"Churn"}\n')
            data = b""
            while b"\n" not in data:
                chunk = s.recv(4096)
                if not chunk:
                    break
                data += chunk
            busy += b"too many new connections" in data
            s.close()
        self.assertGreater(busy, 0, "1000 connections in a row were never slowed down")

        def comes_back():
            try:
                self.client("After").answers()
                return True
            except (Closed, AssertionError, OSError):
                return False
        wait_until(comes_back, lambda: "the address was never let in again")

    # 8. C1 controls never pass: chat is cleaned, names refuse them.
    def test_c1_controls_are_cleaned_from_chat(self):
        a, b, _ = started_pair(self.srv.port)
        self.clients += [a, b]
        a.ok("chat", text="ok\u009b31m red\u009d0;title\u0007 \u0085end\x1b[2J")
        b.pump(lambda x: x.count("chat") > 0)
        text = [e for e in b.events if e["ev"] == "chat"][0]["text"]
        self.assertTrue(all(not (ord(ch) < 0x20 or 0x7f <= ord(ch) <= 0x9f) for ch in text),
                        repr(text))
        self.assertIn("31m red", text)
        c = Client(self.srv.port)
        self.clients.append(c)
        c.err("hello", "bad_name", proto=1, name="Eve\u009b")

    # 9. Names are 1 to 32 characters, however many bytes each takes.
    def test_names_of_32_four_byte_characters(self):
        name = "\U0001F3B2" * 32
        c = self.client(name)
        code = c.ok("create", game="stones", seats=2)["room"]
        d = self.client("Bo")
        d.ok("join", room=code)
        d.pump(lambda x: any(e["ev"] == "room" and e["seats"][0]["name"] == name
                             for e in x.events))
        e = Client(self.srv.port)
        self.clients.append(e)
        e.err("hello", "bad_name", proto=1, name=name + "\U0001F3B2")


class HelloTimeout(ServerTest):
    server_args = ("--hello-timeout", "1")

    # 10. Only hello ends the hello timeout: pings do not restart it.
    def test_pings_before_hello_do_not_keep_a_connection(self):
        s = socket.create_connection(("127.0.0.1", self.srv.port), timeout=LIVENESS)
        deadline = time.time() + LIVENESS
        closed = False
        while time.time() < deadline and not closed:
            try:
                s.sendall(b'{"op":"ping"}\n')
                s.settimeout(0.2)
                while True:
                    data = s.recv(4096)
                    if not data:
                        closed = True
                        break
            except socket.timeout:
                continue
            except (ConnectionResetError, BrokenPipeError):
                closed = True
        s.close()
        self.assertTrue(closed, "pings before hello kept the connection open")


class Journal(ServerTest):
    server_args = ()

    # 4. One room's failing journal holds that room only; it catches up.
    def test_one_failing_journal_holds_only_its_room(self):
        self.srv.stop()
        data = tempfile.mkdtemp(prefix="conclave-it-")
        try:
            node = Node(data)
            a, b, code_a = started_pair(node.port)
            move([a, b])
            rooms = os.path.join(data, "rooms")
            os.rename(rooms, rooms + ".off")
            open(rooms, "w").close()  # new journals cannot be made
            cy = Client(node.port, "Cy")
            cy.send({"id": 77, "op": "create", "game": "sorcerers", "seats": 2})
            # Room A goes on: every move is acknowledged.
            for _ in range(3):
                move([a, b])
            log = os.path.join(data, "server.log")
            wait_until(lambda: b"event=room_journal_failing" in open(log, "rb").read(),
                       lambda: "the failing journal was never reported")
            # Room B's create is not acknowledged while its journal fails.
            cy.sock.settimeout(0.3)
            self.assertRaises((socket.timeout, TimeoutError), cy.sock.recv, 1, socket.MSG_PEEK)
            os.unlink(rooms)
            os.rename(rooms + ".off", rooms)
            order, got = replies(cy, {77})
            self.assertTrue(got[77]["ok"], got[77])
            code_b = got[77]["room"]
            dee = Client(node.port, "Dee")
            dee.ok("join", room=code_b)
            cy.ok("start")
            tokens = {"a": (a.token, code_a), "cy": (got[77]["token"], code_b)}
            for c in (a, b, cy, dee):
                c.close()
            self.assertEqual(node.stop(), 0)
            node = Node(data)
            for token, code in tokens.values():
                c = Client(node.port, "Back")
                r = c.ok("resume", token=token)
                self.assertEqual(r["room"], code)
                c.close()
            self.assertEqual(node.stop(), 0)
        finally:
            shutil.rmtree(data, ignore_errors=True)


class Limits(ServerTest):
    # 5. The open-file limit is checked against connections and the
    # journals kept open (not one per room: a journal beyond them is
    # closed between writes).
    def test_start_refuses_what_the_open_file_limit_cannot_hold(self):
        def low():
            resource.setrlimit(resource.RLIMIT_NOFILE, (512, 512))

        data = tempfile.mkdtemp(prefix="conclave-it-")
        try:
            p = subprocess.run([CONCLAVED, "--listen", "127.0.0.1:0", "--data-dir", data],
                               preexec_fn=low, capture_output=True, timeout=LIVENESS)
            self.assertEqual(p.returncode, 1)
            err = p.stderr.decode()
            self.assertIn("1024 connections", err)
            self.assertIn("257 journals kept open", err)
            self.assertIn("512", err)
            # 100 connections and 5,000 rooms fit in 512 descriptors.
            p = subprocess.Popen([CONCLAVED, "--listen", "127.0.0.1:0", "--data-dir", data,
                                  "--max-connections", "100", "--max-rooms", "5000"],
                                 preexec_fn=low, stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL)
            self.assertTrue(p.stdout.readline().startswith(b"listening on"))
            p.terminate()
            self.assertEqual(p.wait(LIVENESS), 0)
            p.stdout.close()
        finally:
            shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    main()
