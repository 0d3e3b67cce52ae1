#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Persistence: conclaved is killed with SIGKILL at many points of games of
every game, restarted on the same data directory, and every seat resumes
with its token. An acknowledged action is never lost; views and revs come
back exactly; a torn last journal record is dropped and nothing before it."""
import glob
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
import unittest

from harness import CONCLAVE, CONCLAVED, LIVENESS, Client, public, wait_until


class Node:
    """One conclaved process on a data directory that outlives it."""

    def __init__(self, datadir, *extra):
        self.log = open(os.path.join(datadir, "server.log"), "ab")
        self.proc = subprocess.Popen(
            [CONCLAVED, "--listen", "127.0.0.1:0", "--data-dir", datadir, "--rate", "100000",
             "--rate-burst", "100000", "--bot-max-level", "random"] + list(extra),
            stdout=subprocess.PIPE, stderr=self.log)
        m = re.match(rb"listening on 127\.0\.0\.1:(\d+)", self.proc.stdout.readline())
        assert m
        self.port = int(m.group(1))

    def kill9(self):
        self.proc.kill()
        self.proc.wait()
        self.proc.stdout.close()
        self.log.close()

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        rc = self.proc.wait(10)
        self.proc.stdout.close()
        self.log.close()
        return rc


def play(clients, n):
    """n actions by our seats (bots move in between), every client following."""
    i = 0
    while i < n and clients[0].view["result"] is None:
        view = clients[0].view
        movers = [c for c in clients if c.seat in view["active"]]
        if not movers:
            m = clients[0].read(timeout=20)
            if "ev" in m:
                clients[0].on_event(m)
            continue
        me = movers[i % len(movers)]
        acts = me.ok("legal")["actions"]
        # Never cancelling a decision made in steps keeps games moving.
        acts = [x for x in acts if x.get("type") != "cancel"] or acts
        rev = me.ok("act", action=acts[(7 * i) % len(acts)])["rev"]
        for c in clients:
            c.pump(lambda x: x.rev >= rev)
        i += 1


class NodeTest(unittest.TestCase):
    """Tests of one conclaved at a time on a data directory of their own,
    which outlives each process; clients are closed at the end."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="conclave-restart-")
        self.node = None
        self.clients = []

    def tearDown(self):
        for c in self.clients:
            c.close()
        if self.node and self.node.proc.poll() is None:
            self.assertEqual(self.node.stop(), 0)
        shutil.rmtree(self.dir, ignore_errors=True)

    def boot(self, *extra):
        self.node = Node(self.dir, *extra)
        return self.node

    def client(self, name):
        c = Client(self.node.port, name)
        self.clients.append(c)
        return c


class Restart(NodeTest):
    def crash_and_resume(self, old, with_rev=True, *extra):
        """SIGKILL, restart, resume every client; returns the new clients."""
        self.node.kill9()
        self.boot(*extra)
        return self.resume_all(old, with_rev)

    def resume_all(self, old, with_rev=True):
        """Every client's seat resumed from a new connection, its rev and
        view checked; returns the new clients."""
        fresh = []
        for i, c in enumerate(old):
            n = self.client(c.name if hasattr(c, "name") else "P")
            if with_rev and i % 2 == 0 and c.view is not None:
                n.view, n.rev = json.loads(json.dumps(c.view)), c.rev
                r = n.ok("resume", token=c.token, rev=c.rev)
            else:
                r = n.ok("resume", token=c.token)
            self.assertEqual(r["seat"], c.seat)
            n.token, n.seat = c.token, c.seat
            if c.view is not None:
                n.pump(lambda x: x.view is not None and x.rev >= c.rev)
                self.assertEqual(n.rev, c.rev, "rev after restart")
                self.assertEqual(n.view, c.view, "view after restart")
            fresh.append(n)
        return fresh

    def two_humans(self, game, **opts):
        a, b = self.client("Ann"), self.client("Bo")
        code = a.ok("create", game=game, seats=2, options=opts)["room"]
        b.ok("join", room=code)
        return a, b

    def listed_games(self):
        """The ids of the games the server offers, from its hello."""
        self.boot()
        lister = Client(self.node.port)
        self.clients.append(lister)
        games = [g["id"] for g in lister.ok("hello", proto=1, name="Lister")["games"]]
        self.node.stop()
        self.node = None
        return games

    def test_kill_at_many_points(self):
        games = self.listed_games()
        self.assertIn("stones", games)
        for game in games:
            with self.subTest(game=game):
                self.boot()
                a, b = self.two_humans(game)
                # In the lobby: both seats come back, and the game starts.
                a, b = self.crash_and_resume([a, b])
                a.ok("start")
                for c in (a, b):
                    c.pump(lambda x: x.view is not None)
                for step in (1, 3, 10, 25):
                    play([a, b], step)
                    a, b = self.crash_and_resume([a, b], with_rev=step % 2 == 1)
                    self.assertEqual(public(a.view), public(b.view))
                play([a, b], 5)
                self.node.stop()
                self.node = None

    def log_text(self):
        with open(os.path.join(self.dir, "server.log"), "rb") as f:
            return f.read()

    def wait_asleep(self, codes, since):
        """Waits until every room of `codes` has gone to sleep after log
        offset `since`."""
        def asleep():
            text = self.log_text()[since:]
            return all(b"event=room_sleeping room=" + c.encode() in text for c in codes)
        wait_until(asleep, lambda: "rooms not asleep: %r" % codes)

    def test_rooms_sleep_and_wake_across_kills(self):
        """Rooms go to sleep on disk (--sleep-after 1) once everyone has
        gone and wake when a seat resumes, the server being killed with
        SIGKILL while they sleep and just after they woke: every
        acknowledged action is there, with the same rev and view."""
        sleepy = ("--sleep-after", "1", "--verbose")
        self.boot(*sleepy)
        tables, codes = [], []
        for game in ("stones", "sorcerers", "element", "arcana"):
            a, b = self.two_humans(game)
            codes.append(a.room)
            a.ok("start")
            for c in (a, b):
                c.pump(lambda x: x.view is not None)
            play([a, b], 3)
            tables.append([a, b])
        for rnd in range(4):
            since = len(self.log_text())
            for t in tables:
                for c in t:
                    c.close()
            self.wait_asleep(codes, since)
            if rnd % 2 == 1:
                self.node.kill9()  # asleep, killed
                self.boot(*sleepy)
            tables = [self.resume_all(t, with_rev=rnd % 2 == 0) for t in tables]
            for t in tables:
                self.assertEqual(public(t[0].view), public(t[1].view))
                play(t, 2)
            if rnd % 2 == 0:
                # Killed just after they woke and moved on.
                tables = [self.crash_and_resume(t, rnd == 0, *sleepy) if i == 0 else
                          self.resume_all(t) for i, t in enumerate(tables)]
        for t in tables:
            play(t, 2)

    def test_clocks_keep_their_times_across_kills(self):
        """Clocked rooms (one game with a turn at a time, one with
        simultaneous hidden choices) killed with SIGKILL: after the
        restart every seat's clock shows the time it had, since the
        journal holds what each move charged."""
        self.boot()
        for game in ("stones", "sorcerers"):
            a, b = self.two_humans(game, clock={"type": "fischer", "base": 3600, "increment": 2})
            a.ok("start")
            for c in (a, b):
                c.pump(lambda x: x.view is not None)
            play([a, b], 3)
            # Time passes on someone's clock: at least 0.7 s, of which
            # the lag quota forgives at most 0.5 s.
            time.sleep(0.7)
            play([a, b], 3)
            for c in (a, b):
                c.drain(0.05)
            seats = a.view["clock"]["seats"]
            self.assertEqual(a.view["clock"]["type"], "fischer")
            # Six moves added at most 2 s each; the wait took 0.2 s at least.
            self.assertLess(sum(s["left"] for s in seats), 2 * 3600 * 1000 + 6 * 2000 - 199, seats)
            self.assertTrue(any(s["running"] for s in seats), seats)
            a, b = self.crash_and_resume([a, b])
            self.assertEqual(a.view["clock"]["seats"], seats)
            # And the game goes on with its clocks.
            play([a, b], 2)

    def test_timeouts_lose_and_skip_in_real_games_and_replay(self):
        """A clock of a second: in Sorcerers with "lose" the seat to move
        loses and the game ends, its record replays; in Sorcerer & Stones
        with "skip" the turn passes to the other seat, both seats kept by
        their players, and a kill gives back the game as it was."""
        self.boot()
        a, b = self.two_humans("sorcerers", clock={"type": "fischer", "base": 1,
                                                   "timeout": "lose"})
        a.ok("start")
        a.pump(lambda x: x.ended is not None, timeout=LIVENESS)
        b.pump(lambda x: x.ended is not None, timeout=LIVENESS)
        loser = a.ended["forfeit"]
        self.assertIn(loser, (0, 1))
        timeouts = [e for e in a.events if e["ev"] == "timeout"]
        self.assertEqual([(e["seat"], e["do"]) for e in timeouts], [(loser, "lose")])
        record = a.ok("record")["record"]
        self.assertIn({"seat": loser, "timeout": "lose"}, record["actions"])
        tmp = tempfile.mkdtemp(prefix="conclave-record-")
        self.addCleanup(shutil.rmtree, tmp, True)
        path = os.path.join(tmp, "timeout-record.json")
        with open(path, "w") as f:
            json.dump(record, f)
        out = subprocess.run([CONCLAVE, "replay", path], capture_output=True, text=True,
                             timeout=60)
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        self.assertIn('"forfeit":%d' % loser, out.stdout)

        a, b = self.two_humans("stones", clock={"type": "fischer", "base": 1, "increment": 60,
                                                "timeout": "skip"})
        a.ok("start")
        a.pump(lambda x: x.view is not None)
        first = a.view["active"]
        a.pump(lambda x: any(e["ev"] == "timeout" for e in x.events), timeout=LIVENESS)
        a.pump(lambda x: x.view["active"] != first, timeout=LIVENESS)
        skipped = [e for e in a.events if e["ev"] == "timeout"][0]
        self.assertEqual(skipped["do"], "skip")
        self.assertEqual(skipped["seat"], first[0])
        seats = a.view["clock"]["seats"]
        self.assertFalse(seats[first[0]]["flag"], seats)
        self.assertEqual(seats[first[0]]["left"], 60000, "the skipped turn's increment")
        self.assertTrue(any("skipped" in line for line in a.view["log"]), a.view["log"])
        for c in (a, b):
            c.drain(0.05)
        view = a.view
        a, b = self.crash_and_resume([a, b])
        # The other seat's second may run out again meanwhile: what was
        # there is there still.
        self.assertEqual(a.view["log"][:len(view["log"])], view["log"])

    def test_bots_keep_playing_after_a_crash(self):
        self.boot("--bot-delay", "1")
        a = self.client("Ann")
        a.ok("create", game="sorcerers", seats=2)
        a.ok("start", bots=True)
        a.pump(lambda x: x.view is not None)
        play([a], 4)
        a.drain(0.05)
        before = a.rev
        self.node.kill9()
        self.boot("--bot-delay", "0")
        n = self.client("Ann")
        n.ok("resume", token=a.token)
        n.pump(lambda x: x.view is not None)
        self.assertGreaterEqual(n.rev, before)
        while n.ended is None:
            if n.seat in n.view["active"]:
                acts = n.ok("legal")["actions"]
                rev = n.ok("act", action=acts[0])["rev"]
                n.pump(lambda x: x.rev >= rev)
            else:
                m = n.read(timeout=20)
                if "ev" in m:
                    n.on_event(m)
        rec = n.ok("record")["record"]
        self.assertEqual(rec["seed"], n.ended["seed"])

    def test_torn_last_record_is_dropped(self):
        self.boot()
        a, b = self.two_humans("stones")
        a.ok("start")
        for c in (a, b):
            c.pump(lambda x: x.view is not None)
        play([a, b], 6)
        # Stopped cleanly, so that the journal holds every record (after a
        # kill the last ones may be in journal.wal alone, which a start
        # writes back over such a tail).
        self.assertEqual(self.node.stop(), 0)
        [path] = glob.glob(os.path.join(self.dir, "rooms", "*.journal"))
        with open(path, "ab") as f:
            f.write(b'0123456789abcdef0123456789abcdef {"t":"act","seat":0,"act')
        size = os.path.getsize(path)
        self.boot()
        log = open(os.path.join(self.dir, "server.log")).read()
        self.assertIn("event=journal_tail_dropped", log)
        self.assertLess(os.path.getsize(path), size)
        n = self.client("Ann")
        n.ok("resume", token=a.token)
        n.pump(lambda x: x.view is not None)
        self.assertEqual((n.rev, n.view), (a.rev, a.view))

    def corrupt_last_record(self, keep_wal):
        """Plays 5 moves, stops the server, flips a byte of the journal's
        last record and boots again; returns the first client and its
        rev and view after 4 moves. A clean stop writes every record into
        the journal; journal.wal keeps their frames until it starts its
        next generation."""
        self.boot()
        a, b = self.two_humans("stones")
        a.ok("start")
        for c in (a, b):
            c.pump(lambda x: x.view is not None)
        play([a, b], 4)
        rev_mid = a.rev
        view_mid = json.loads(json.dumps(a.view))
        play([a, b], 1)
        self.assertEqual(self.node.stop(), 0)
        [path] = glob.glob(os.path.join(self.dir, "rooms", "*.journal"))
        with open(path, "rb") as f:
            lines = f.read().split(b"\n")
        # Flip one byte in the last record's payload: its checksum fails.
        last = bytearray(lines[-2])
        last[-3] ^= 0x01
        lines[-2] = bytes(last)
        with open(path, "wb") as f:
            f.write(b"\n".join(lines))
        if not keep_wal:
            # As if the record had been damaged after the journal was
            # flushed itself: the write-ahead file no longer holds it.
            os.unlink(os.path.join(self.dir, "rooms", "journal.wal"))
        self.boot()
        return a, rev_mid, view_mid

    def test_corrupt_record_keeps_what_precedes(self):
        a, rev_mid, view_mid = self.corrupt_last_record(keep_wal=False)
        n = self.client("Ann")
        n.ok("resume", token=a.token)
        n.pump(lambda x: x.view is not None)
        self.assertEqual(n.rev, rev_mid)
        self.assertEqual(n.view, view_mid)

    def test_corrupt_record_is_mended_from_the_write_ahead_file(self):
        """The last record's frame in journal.wal is written back over the
        damaged bytes at start: nothing is lost."""
        a, _, _ = self.corrupt_last_record(keep_wal=True)
        with open(os.path.join(self.dir, "server.log")) as f:
            log = f.read()
        self.assertIn("event=journal_wal_replayed", log)
        self.assertNotIn("event=journal_tail_dropped", log)
        n = self.client("Ann")
        n.ok("resume", token=a.token)
        n.pump(lambda x: x.view is not None)
        self.assertEqual((n.rev, n.view), (a.rev, a.view))

    def test_finished_game_record_survives_restart(self):
        self.boot("--bot-delay", "0")
        a = self.client("Ann")
        a.ok("create", game="stones", seats=1, options={"variant": "cooperative"})
        a.ok("start")
        a.pump(lambda x: x.view is not None)
        while a.view["result"] is None:
            play([a], 1)
        a.pump(lambda x: x.ended is not None)
        rec = a.ok("record")["record"]
        self.node.stop()
        self.boot()
        n = self.client("Ann")
        n.ok("resume", token=a.token)
        self.assertEqual(n.ok("record")["record"], rec)

    def test_fsync_policies(self):
        for policy in ("always", "never", "batch"):
            with self.subTest(policy=policy):
                self.boot("--fsync", policy)
                a, b = self.two_humans("sorcerers")
                a.ok("start")
                for c in (a, b):
                    c.pump(lambda x: x.view is not None)
                play([a, b], 3)
                a, b = self.crash_and_resume([a, b])
                self.node.stop()
                self.node = None
        out = subprocess.run([CONCLAVED, "--fsync", "sometimes"], capture_output=True)
        self.assertEqual(out.returncode, 2)


if __name__ == "__main__":
    unittest.main(verbosity=2)
