#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Acknowledged actions survive SIGKILL under load. Rooms of every game play
as fast as their clients can, each room from its own thread, while conclaved
is killed at a moment drawn at random; the write-ahead file is small
(--wal-size 65536), so that it fills and checkpoints every few hundred
records and kills land before, during and after checkpoints, with journals
lagging behind it (every other kill comes just after a checkpoint). After each restart every seat resumes: its room is at
least at every rev it was told of (an `ok` to `act`, or a diff), the view
it had at its last rev comes back through the diffs the server sends from
there (their hashes checked), and it equals the full view the server now
sends. Then the same rooms play on, and are killed again.

$CONCLAVE_CRASH_TRIALS sets the number of kills (default 6); a long
campaign is the same test with a larger number."""
import json
import os
import random
import re
import socket
import sys
import threading
import time
import unittest
import urllib.request

from harness import LIVENESS, Closed, wait_until
from test_restart import NodeTest

TRIALS = int(os.environ.get("CONCLAVE_CRASH_TRIALS", "6"))
GAMES = ("stones", "sorcerers", "element", "arcana")
ROOMS_PER_GAME = 2


class Table:
    """One room of two human seats, and what its clients were told."""

    def __init__(self, a, b, code):
        self.clients = [a, b]
        self.code = code
        self.told = 0        # the highest rev any reply or event gave
        self.seen = [None, None]  # per seat: (rev, view) last applied
        self.error = None
        self.moves = 0

    def note(self):
        for i, c in enumerate(self.clients):
            if c.view is not None:
                self.seen[i] = (c.rev, json.loads(json.dumps(c.view)))
                self.told = max(self.told, c.rev)

    def ended(self):
        c = self.clients[0]
        return c.view is not None and c.view["result"] is not None


def play_until_killed(table, rng, stop):
    """Plays random legal actions until the server goes away (or `stop`);
    anything but a closed connection is kept as the table's error."""
    try:
        while not stop.is_set() and not table.ended():
            view = table.clients[0].view
            movers = [c for c in table.clients if c.seat in view["active"]]
            if not movers:
                c = table.clients[0]
                m = c.read(timeout=LIVENESS)
                if "ev" in m:
                    c.on_event(m)
                table.note()
                continue
            me = rng.choice(movers)
            acts = me.ok("legal")["actions"]
            acts = [x for x in acts if x.get("type") != "cancel"] or acts
            rev = me.ok("act", action=rng.choice(acts))["rev"]
            table.told = max(table.told, rev)
            table.moves += 1
            for c in table.clients:
                c.pump(lambda x: x.rev >= rev, timeout=LIVENESS)
            table.note()
    except (Closed, ConnectionError, socket.timeout, OSError):
        return
    except AssertionError as e:  # a reply refused, a hash that differs
        if not stop.is_set():
            table.error = "%s: %s" % (table.code, e)


class Crash(NodeTest):
    def boot(self):
        super().boot("--wal-size", "65536", "--http", "127.0.0.1:0", "--connect-rate", "100000")
        line = self.node.proc.stdout.readline().decode()
        m = re.match(r"http on http://127\.0\.0\.1:(\d+)/", line)
        self.assertTrue(m, line)
        self.http = int(m.group(1))

    def checkpoints(self):
        url = "http://127.0.0.1:%d/metrics" % self.http
        with urllib.request.urlopen(url, timeout=LIVENESS) as r:
            text = r.read().decode()
        m = re.search(r"^conclave_journal_checkpoints_total (\S+)$", text, re.M)
        self.assertTrue(m, "no checkpoint counter")
        return int(float(m.group(1)))

    def new_table(self, game):
        a, b = self.client("Ann"), self.client("Bo")
        a.ok("create", game=game, seats=2)
        b.ok("join", room=a.room)
        a.ok("start")
        for c in (a, b):
            c.pump(lambda x: x.view is not None)
        t = Table(a, b, a.room)
        t.note()
        return t

    def come_back(self, table):
        """Resumes both seats of `table` on the restarted server and checks
        what they were told survived; returns the table with new clients."""
        fresh = []
        for i, old in enumerate(table.clients):
            name = ("Ann", "Bo")[i]
            # The whole view, as the server has it now.
            full = self.client(name)
            r = full.ok("resume", token=old.token)
            self.assertEqual(r["seat"], old.seat)
            full.token, full.seat = old.token, old.seat
            full.pump(lambda x: x.view is not None)
            self.assertGreaterEqual(full.rev, table.told,
                                    "%s: a rev told before the kill is gone" % table.code)
            full.close()
            # The view this seat had, brought up to date by the diffs the
            # server sends from its rev: the history it kept agrees.
            rev, view = table.seen[i]
            n = self.client(name)
            n.view, n.rev = view, rev
            n.ok("resume", token=old.token, rev=rev)
            n.token, n.seat = old.token, old.seat
            n.pump(lambda x: x.rev >= full.rev)
            self.assertEqual((n.rev, n.view), (full.rev, full.view),
                             "%s seat %d after the restart" % (table.code, i))
            fresh.append(n)
        t = Table(fresh[0], fresh[1], table.code)
        t.told = table.told
        t.note()
        return t

    def test_acknowledged_actions_survive_kills_under_load(self):
        rng = random.Random(int(os.environ.get("CONCLAVE_CRASH_SEED", time.time())))
        self.boot()
        tables = [self.new_table(g) for g in GAMES for _ in range(ROOMS_PER_GAME)]
        checkpoints = replayed = moves = 0
        for trial in range(TRIALS):
            stop = threading.Event()
            threads = [threading.Thread(target=play_until_killed,
                                        args=(t, random.Random(rng.random()), stop))
                       for t in tables]
            for th in threads:
                th.start()
            if trial % 2 == 0:
                time.sleep(rng.uniform(0.3, 1.5))
            else:
                # Just after the write-ahead file started again, while
                # journals still hold back what it no longer has.
                first = self.checkpoints()
                wait_until(lambda: self.checkpoints() > first or all(t.ended() for t in tables),
                           lambda: "no checkpoint")
                time.sleep(rng.uniform(0, 0.15))
            checkpoints = max(checkpoints, self.checkpoints())
            self.assertIsNone(self.node.proc.poll(), "the server stopped before it was killed")
            self.node.kill9()
            stop.set()
            for th in threads:
                th.join(LIVENESS)
                self.assertFalse(th.is_alive(), "a table's thread is stuck")
            for t in tables:
                self.assertIsNone(t.error)
            moves += sum(t.moves for t in tables)
            for c in self.clients:
                c.close()
            self.clients = []
            since = os.path.getsize(os.path.join(self.dir, "server.log"))
            self.boot()
            with open(os.path.join(self.dir, "server.log"), "rb") as f:
                log = f.read()[since:]
            self.assertNotIn(b"journal_does_not_replay", log)
            self.assertNotIn(b"journal_unreadable", log)
            m = re.search(rb"event=journal_wal_replayed frames=(\d+)", log)
            replayed += int(m.group(1)) if m else 0
            tables = [self.come_back(t) for t in tables]
            # A game that ended gives its place to a new one.
            tables = [self.new_table(GAMES[i // ROOMS_PER_GAME]) if t.ended() else t
                      for i, t in enumerate(tables)]
        checkpoints = max(checkpoints, self.checkpoints())
        print("%d kills, %d actions acknowledged, %d frames written back at starts, "
              "%d checkpoints in the last run" % (TRIALS, moves, replayed, checkpoints),
              file=sys.stderr)
        self.assertGreater(moves, 0)
        # The kills found records in the write-ahead file alone, and the
        # file filled and started again at least once.
        self.assertGreater(replayed, 0)
        self.assertGreater(checkpoints, 0)


if __name__ == "__main__":
    unittest.main()
