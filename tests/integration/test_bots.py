#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Bots that search: levels in hello, per room and per seat; searching bots
play whole games through the real server while it keeps answering; their
levels survive a restart; a server may cap the levels it runs."""
import os
import random
import re
import shutil
import signal
import subprocess
import tempfile
import unittest

from harness import CONCLAVED, LIVENESS, Client, ServerTest, play_out, public

LEVELS = ["random", "easy", "normal", "hard"]


def room_seats(c):
    rooms = [e for e in c.events if e.get("ev") == "room"]
    return rooms[-1]["seats"] if rooms else None


class Levels(ServerTest):
    server_args = ("--bot-delay", "0", "--bot-max-level", "hard")

    def test_hello_lists_the_levels(self):
        r = self.client("Ann").ok("hello", proto=1, name="Ann")
        self.assertEqual(r["bot_levels"], LEVELS)

    def test_levels_per_room_and_per_seat(self):
        a = self.client("Ann")
        a.err("create", "bad_option", game="sorcerers", seats=2, options={"bot_level": "expert"})
        a.err("create", "bad_option", game="stones", seats=3, options={"bot_level": 3})
        a.ok("create", game="stones", seats=4, options={"bot_level": "easy"})
        b = self.client("Bo")
        b.ok("join", room=a.room)
        # Refused starts leave the room a lobby.
        a.err("start", "bad_request", bots=["hard"])
        a.err("start", "bad_request", bots=[None, "hard", "hard", "hard"])  # seat 1 is Bo's
        a.err("start", "bad_request", bots="expert")
        a.err("start", "not_enough_players", bots=[None, None, "hard", None])
        a.ok("start", bots=[None, None, "hard", "random"])
        a.pump(lambda x: x.view is not None)
        seats = room_seats(a)
        self.assertEqual([s["kind"] for s in seats], ["human", "human", "bot", "bot"])
        self.assertNotIn("level", seats[0])
        self.assertEqual(seats[2]["level"], "hard")
        self.assertEqual(seats[3]["level"], "random")
        # A player who leaves is kept by a bot at the room's level.
        b.ok("leave")
        a.pump(lambda x: room_seats(x)[1]["kind"] == "bot")
        self.assertEqual(room_seats(a)[1]["level"], "easy")
        log = self.srv.log_bytes().decode(errors="replace")
        self.assertRegex(log, r"level=info event=bot_seat room=%s seat=2 bot_level=hard" % a.room)


class Capped(ServerTest):
    server_args = ("--bot-delay", "0", "--bot-max-level", "easy")

    def test_a_server_runs_no_stronger_bots_than_its_cap(self):
        a = self.client("Ann")
        r = a.ok("hello", proto=1, name="Ann")
        self.assertEqual(r["bot_levels"], ["random", "easy"])
        e = a.err("create", "bad_option", game="sorcerers", seats=2,
                  options={"bot_level": "hard"})
        self.assertIn("easy", e["error"]["message"])
        # The default level (normal) is brought down to the cap.
        a.ok("create", game="sorcerers", seats=2)
        a.err("start", "bad_request", bots="normal")
        a.ok("start", bots=True)
        a.pump(lambda x: room_seats(x) and room_seats(x)[1]["kind"] == "bot")
        self.assertEqual(room_seats(a)[1]["level"], "easy")


class Games(ServerTest):
    server_args = ("--bot-delay", "0", "--bot-max-level", "hard", "--bot-threads", "2",
                   "--rate", "100000", "--rate-burst", "100000")

    def test_searching_bots_play_every_game_to_the_end(self):
        rng = random.Random(16)
        for game, seats, level in (("sorcerers", 2, "easy"), ("element", 2, "easy"),
                                   ("arcana", 2, "easy"), ("stones", 2, "easy")):
            with self.subTest(game=game):
                a = self.client("Ann")
                opts = {"variant": "novice"} if game == "stones" else {}
                a.ok("create", game=game, seats=seats, options=dict(opts, bot_level=level))
                a.ok("start", bots=True)
                a.pump(lambda x: x.view is not None)
                self.assertEqual(room_seats(a)[1]["level"], level)
                watcher = self.client("Sam")
                watcher.ok("spectate", room=a.room)
                play_out(self, a, rng)
                # Every bot move went through the same pipeline: the
                # spectator's view is the public part of the player's.
                watcher.pump(lambda x: x.rev == a.rev, timeout=LIVENESS)
                self.assertEqual(public(a.view), watcher.view)
                rec = a.ok("record")["record"]
                self.assertTrue(any(s["seat"] == 1 for s in rec["actions"]))
                a.close()
                watcher.close()

    def test_the_server_answers_while_bots_think(self):
        # Two rooms of hard bots against each other think on the pool; a
        # ping from a third connection is answered meanwhile.
        rooms = []
        for _ in range(2):
            c = self.client("Ann")
            c.ok("create", game="arcana", seats=2, options={"bot_level": "hard"})
            c.ok("start", bots=True)
            c.pump(lambda x: x.view is not None)
            c.ok("leave")  # both seats are bots now
            rooms.append(c)
        other = self.client("Eve")
        for _ in range(20):
            other.answers()
        self.assertTrue(self.srv.alive())


class Restart(unittest.TestCase):
    def test_levels_survive_a_restart(self):
        data = tempfile.mkdtemp(prefix="conclave-it-")
        self.addCleanup(shutil.rmtree, data, True)

        def start():
            log = open(os.path.join(data, "server.log"), "ab")
            p = subprocess.Popen([CONCLAVED, "--listen", "127.0.0.1:0", "--data-dir", data,
                                  "--bot-max-level", "hard", "--bot-delay", "3600000"],
                                 stdout=subprocess.PIPE, stderr=log)
            log.close()
            m = re.match(rb"listening on 127\.0\.0\.1:(\d+)", p.stdout.readline())
            self.assertTrue(m)
            return p, int(m.group(1))

        p, port = start()
        a = Client(port, "Ann")
        a.ok("create", game="stones", seats=3, options={"bot_level": "hard"})
        a.ok("start", bots=[None, "easy", "random"])
        a.pump(lambda x: x.view is not None)
        token = a.token
        a.close()
        p.send_signal(signal.SIGTERM)
        self.assertEqual(p.wait(LIVENESS), 0)
        p.stdout.close()

        p, port = start()
        try:
            b = Client(port, "Ann")
            b.ok("resume", token=token)
            b.pump(lambda x: room_seats(x) is not None)
            self.assertEqual([s.get("level") for s in room_seats(b)], [None, "easy", "random"])
            b.close()
        finally:
            p.send_signal(signal.SIGTERM)
            self.assertEqual(p.wait(LIVENESS), 0)
            p.stdout.close()


if __name__ == "__main__":
    unittest.main()
