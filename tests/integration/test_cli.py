#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The `conclave` client against the real server: scripted (--json) mode,
interactive mode driven through a pipe, two players finding each other by
room code, and the saved resume token."""
import json
import os
import random
import re
import subprocess
import tempfile
import threading
import time

from harness import CONCLAVE, LIVENESS, ServerTest, main, wait_until


class Player:
    """A `conclave` process whose output is collected by a thread. With
    `tty`, it runs on a pseudo-terminal, as for a person: lines are typed
    and end with Enter, and the screen is read back (carriage returns and
    the line editor's clearing of the prompt line left out)."""

    def __init__(self, args, env, tty=False):
        self.out = []
        self.lock = threading.Lock()
        self.tty = None
        if tty:
            import pty
            self.tty, worker = pty.openpty()
            self.proc = subprocess.Popen([CONCLAVE] + args, stdin=worker, stdout=worker,
                                         stderr=worker, env=env, close_fds=True)
            os.close(worker)
            threading.Thread(target=self._read_tty, daemon=True).start()
            return
        self.proc = subprocess.Popen([CONCLAVE] + args, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     env=env, text=True)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            with self.lock:
                self.out.append(line)

    def _read_tty(self):
        while True:
            try:
                chunk = os.read(self.tty, 65536)
            except OSError:
                return
            if not chunk:
                return
            text = chunk.decode("utf-8", "replace").replace("\r", "").replace("\x1b[K", "")
            with self.lock:
                self.out.append(text)

    def text(self):
        with self.lock:
            return "".join(self.out)

    def wait_for(self, pattern, timeout=20):
        deadline = time.time() + timeout
        while time.time() < deadline:
            m = re.search(pattern, self.text())
            if m:
                return m
            time.sleep(0.02)
        raise AssertionError("no %r in output:\n%s" % (pattern, self.text()[-3000:]))

    def type(self, line):
        if self.tty is not None:
            os.write(self.tty, line.encode() + b"\r")
            return
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def finish(self):
        if self.tty is not None:
            os.write(self.tty, b"\x04")  # ^D: the end of what is typed
        else:
            try:
                self.proc.stdin.close()
            except OSError:
                pass
        self.proc.wait(20)
        return self.proc.returncode


def read_json(path):
    with open(path) as f:
        return json.load(f)


def reap(pid):
    """The exit status of a client whose terminal was closed, once it has
    ended; one that runs on is killed and the test fails, rather than
    hanging the suite."""
    status = []

    def ended():
        got, st = os.waitpid(pid, os.WNOHANG)
        if got == pid:
            status.append(st)
        return bool(status)

    try:
        wait_until(ended, lambda: "the client runs on without its terminal")
    finally:
        if not status:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
    return status[0]


class Cli(ServerTest):
    def assertSeen(self, needle, text):
        """assertIn that shows only the end of a long terminal output."""
        self.assertTrue(needle in text, "%r not in the output, which ends:\n%s" % (needle, text[-1500:]))


    server_args = ("--bot-delay", "0", "--rate", "100000", "--rate-burst", "100000")

    def setUp(self):
        super().setUp()
        self.state = tempfile.mkdtemp(prefix="conclave-cli-")
        self.env = dict(os.environ, XDG_STATE_HOME=self.state, NO_COLOR="1")

    def run_cli(self, args, stdin=""):
        return subprocess.run([CONCLAVE, "--server", self.srv.addr] + args, input=stdin,
                              capture_output=True, text=True, env=self.env, timeout=60)

    def test_json_mode(self):
        out = self.run_cli(["--name", "Ann", "--json", "create", "stones", "--seats", "2"])
        self.assertEqual(out.returncode, 0, out.stderr)
        lines = [json.loads(l) for l in out.stdout.splitlines()]
        reply = [m for m in lines if m.get("re") is not None][0]
        self.assertTrue(reply["ok"])
        self.assertRegex(reply["room"], "^[0-9A-Z]{6}$")
        self.assertTrue(any(m.get("ev") == "room" for m in lines))
        # Without a command the script speaks for itself, hello included.
        out = self.run_cli(["--json"], stdin='{"id":1,"op":"ping"}\n{"id":2,"op":"hello","proto":1,"name":"Bo"}\n')
        lines = [json.loads(l) for l in out.stdout.splitlines()]
        self.assertEqual([m["re"] for m in lines], [1, 2])
        self.assertTrue(lines[1]["ok"])

    def test_interactive_against_bots(self):
        out = self.run_cli(["--name", "Ann", "create", "stones", "--seats", "2", "--bots"],
                           stdin="who\nhelp\nlegal\n#1\nfrobnicate\nsay gg\nquit\n")
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        text = out.stdout
        self.assertSeen("In room", text)
        self.assertSeen("seat 1: Bot 1", text)
        self.assertSeen("#1 place your Taoist on T", text)
        self.assertNotIn('#1 {"', text)  # phrases, not JSON
        self.assertSeen("[Ann] gg", text)
        self.assertSeen("stones commands:", text)
        self.assertNotIn("\033[", text)  # plain when not a terminal
        saved = json.load(open(os.path.join(self.state, "conclave", "session.json")))["sessions"][0]
        self.assertEqual(saved["seat"], 0)
        self.assertEqual(saved["name"], "Ann")
        # resume goes back to the same seat with the saved token
        out = self.run_cli(["--name", "Ann", "resume"], stdin="who\nquit\n")
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        self.assertSeen("In room %s as seat 0" % saved["room"], out.stdout)

    def test_bot_levels_per_seat(self):
        out = self.run_cli(["--name", "Ann", "info"])
        self.assertEqual(out.returncode, 0, out.stderr)
        # This suite's server runs bots at random only (the harness).
        self.assertSeen("bot levels: random", out.stdout)
        out = self.run_cli(["--name", "Ann", "create", "stones", "--seats", "4", "--bot-level",
                            "random"],
                           stdin="start bots random random\nstart bots random random random\n"
                                 "who\nquit\n")
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        self.assertSeen("3 empty seats: give one level for all, or one per empty seat", out.stdout)
        for seat in (1, 2, 3):
            self.assertRegex(out.stdout, r"seat %d: Bot %d +bot \(random\)" % (seat, seat))
        out = self.run_cli(["--name", "Ann", "create", "stones", "--seats", "2", "--bot-level",
                            "hard"])
        self.assertNotEqual(out.returncode, 0)
        self.assertIn('up to level "random"', out.stdout + out.stderr)

    def test_whole_game_against_a_bot(self):
        """Typed commands only: play Sorcerer & Stones to its end, keep the
        record, and check it with `conclave replay`."""
        record = os.path.join(self.state, "game.json")
        script = "legal\n#1\n" * 1000 + "record %s\nquit\n" % record
        args = ["--name", "Ann", "create", "stones", "--seats", "2", "--bots"]
        # Always taking the first choice can make a long game (a few in a
        # hundred outlast a thousand moves): the script goes on where it
        # stopped, through `resume`, until the game ends.
        for _ in range(10):
            out = self.run_cli(args, stdin=script)
            self.assertEqual(out.returncode, 0, out.stdout[-2000:] + out.stderr)
            if "==== Game over ====" in out.stdout:
                break
            args = ["--name", "Ann", "resume"]
        self.assertSeen("==== Game over ====", out.stdout)
        # The end screen names the winner(s) by name, not by seat number,
        # and checks the seed against its commitment.
        end = out.stdout[out.stdout.index("==== Game over ===="):]
        self.assertRegex(end, r"(Winners?: (Ann|Bot 1)|Nobody wins)")
        self.assertRegex(end, r"Scores \(points\): Ann -?\d+, Bot 1 -?\d+")
        self.assertIn("The seed matches the commitment shown from the start.", end)
        self.assertNotIn('{"', end)
        self.assertSeen("record saved to", out.stdout)
        replay = subprocess.run([CONCLAVE, "replay", record], capture_output=True, text=True,
                                timeout=60)
        self.assertEqual(replay.returncode, 0, replay.stderr)
        self.assertIn("actions accepted; result", replay.stdout)

    def test_on_a_terminal_a_game_ends_with_the_winner_named(self):
        """Typed at a terminal, `legal` and `#1` until the end: the end
        screen names the winner by name, with the scores and the seed
        check, and no JSON."""
        p = Player(["--server", self.srv.addr, "--name", "Ann", "create", "stones", "--seats",
                    "2", "--bots"], self.env, tty=True)
        p.wait_for(r"rev \d+ ----")
        # Batches of ten moves typed ahead: each line runs once the answers
        # to the one before are in, as a person typing fast gets.
        for _ in range(200):
            if "==== Game over ====" in p.text():
                break
            before = p.text().count("refused") + p.text().count("rev ")
            for _ in range(10):
                p.type("legal")
                p.type("#1")
            wait_until(lambda: p.text().count("refused") + p.text().count("rev ") > before
                       or "==== Game over ====" in p.text(),
                       lambda: "no answer:\n" + p.text()[-2000:])
            time.sleep(0.2)
        end = p.text()[p.text().index("==== Game over ===="):]
        self.assertRegex(end, r"(Winners?: (Ann|Bot 1)|Nobody wins)")
        self.assertRegex(end, r"Scores \(points\): Ann -?\d+, Bot 1 -?\d+")
        self.assertIn("The seed matches the commitment shown from the start.", end)
        self.assertNotIn('{"', end)
        p.type("quit")
        self.assertEqual(p.finish(), 0)

    def test_leave_in_a_game_is_confirmed_at_a_terminal(self):
        """At a terminal, `leave` during a game asks first (a game may use
        the word, and a bot would take the seat); a second `leave` leaves.
        Scripts are not asked: the other tests leave with one `leave`."""
        p = Player(["--server", self.srv.addr, "--name", "Ann", "create", "element", "--seats",
                    "2", "--bots"], self.env, tty=True)
        p.wait_for(r"rev \d+ ----")
        p.type("leave")
        p.wait_for(r"type `leave` again to leave the room")
        self.assertNotIn("you left the room", p.text())
        # Any other command in between: the question is asked again.
        p.type("who")
        wait_until(lambda: p.text().count("<- you") >= 3, lambda: p.text()[-2000:])
        p.type("leave")
        wait_until(lambda: p.text().count("type `leave` again") == 2, lambda: p.text()[-2000:])
        self.assertNotIn("you left the room", p.text())
        p.type("leave")
        p.wait_for(r"you left the room")
        self.assertEqual(p.finish(), 0)

    def test_element_is_played_with_typed_commands(self):
        """Element at the terminal: the board is drawn with its Sages, `draw`
        takes stones, `legal` words the pick of a stone and, once one is
        picked, its placements; a typed placement is played and logged, and
        `card` tells an element's rules."""
        p = Player(["--server", self.srv.addr, "--name", "Ann", "create", "element", "--seats",
                    "2", "--bots"], self.env)
        p.wait_for(r"Your turn")
        self.assertSeen("     a  b  c  d  e  f  g  h  i  j  k", p.text())
        self.assertRegex(p.text(), r"@0 Ann \(you\): Sage on [a-k]\d+")
        p.type("draw 2")
        p.wait_for(r"Ann draws 2")
        p.type("legal")
        m = p.wait_for(r"#(\d+) pick (fire|water|earth|wind)")
        p.type("#" + m.group(1))
        p.wait_for(r"picked %s" % m.group(2))
        p.type("legal place")
        m = p.wait_for(r"#(\d+) place (fire|water|earth|wind) on ([a-k]\d+)")
        p.type("place %s %s" % (m.group(2), m.group(3)))
        p.wait_for(r"Ann places %s on %s" % (m.group(2), m.group(3)))
        p.type("card wind")
        p.wait_for(r"Whirlwind \(up to four\)")
        p.type("place fire z9")
        p.wait_for(r"place STONE SQUARE")
        p.type("quit")
        self.assertEqual(p.finish(), 0)

    def test_cast_in_steps(self):
        """R-stones-4.2 steps, typed: choose a card, cancel, choose it again
        and complete the cast from the listed follow-ups."""
        p = Player(["--server", self.srv.addr, "--name", "Ann", "create", "stones", "--seats", "2",
                    "--bots"], self.env)

        def wait_count(needle, n):
            wait_until(lambda: p.text().count(needle) >= n,
                       lambda: "%r not seen %d times:\n%s" % (needle, n, p.text()[-3000:]))

        def listed():
            n = p.text().count("  #1 ")
            p.type("legal")
            wait_count("  #1 ", n + 1)
            time.sleep(0.1)
            tail = p.text()[p.text().rfind("  #1 "):]
            return re.findall(r"#\d+ (.*)", tail)

        turn = r"Sorcerer & Stones \(standard\) - (\w+)'s turn, phase (\w+)"
        for _ in range(20):
            p.wait_for(turn)
            time.sleep(0.2)
            colour, phase = re.findall(turn, p.text())[-1]
            if colour == "red" and phase == "cast":
                break
            if colour == "red":
                revs = p.text().count(" rev ")
                listed()
                p.type("#1")
                wait_count(" rev ", revs + 1)
        self.assertEqual((colour, phase), ("red", "cast"))

        first = re.fullmatch(r"choose (\S+) to cast", listed()[0])
        self.assertIsNotNone(first, "the first choice of the cast phase is not a card")
        card = first.group(1)
        p.type("cast %s" % card.lower())
        p.wait_for(r'Decision: \{"card":"%s"\}' % card)
        follow = listed()
        self.assertEqual(follow[-1], "cancel what is being chosen")
        self.assertLessEqual(len(follow), 64)
        revs = p.text().count(" rev ")
        p.type("cancel")
        wait_count(" rev ", revs + 1)
        p.type("cast %s" % card.lower())
        wait_count('Decision: {"card":"%s"}' % card, 2)
        for _ in range(2):
            listed()
            revs = p.text().count(" rev ")
            p.type("#1")  # the first follow-up of the last list
            wait_count(" rev ", revs + 1)
            if "Ann cast" in p.text():
                break
        p.wait_for(r"Ann cast %s" % card.split("-")[0])
        p.type("quit")
        self.assertEqual(p.finish(), 0)

    def test_a_quiet_spectator_outlives_the_idle_timeout(self):
        """Diffs keep arriving, the spectator types nothing: the client
        still keeps its own connection alive."""
        from harness import Client, Server
        self.srv.stop()
        self.srv = Server("--idle-timeout", "2", "--bot-delay", "200")
        host = Client(self.srv.port, "Host")
        self.clients.append(host)
        code = host.ok("create", game="stones", seats=2)["room"]
        host.ok("start", bots=True)
        host.ok("leave")  # a bot takes the seat: bots play on
        watcher = Player(["--server", self.srv.addr, "--name", "Quiet", "spectate", code],
                         self.env, tty=True)
        watcher.wait_for(r"rev \d+ ----")
        # Three idle timeouts without typing, while the bots play.
        time.sleep(6)
        self.assertNotIn("closed the connection", watcher.text())
        self.assertIsNone(watcher.proc.poll(), "the client exited")
        watcher.type("help")
        watcher.wait_for(r"Commands:")
        watcher.type("quit")
        self.assertEqual(watcher.finish(), 0)

    def test_the_client_reconnects_and_resumes_after_a_restart(self):
        import shutil
        from test_restart import Node
        data = tempfile.mkdtemp(prefix="conclave-cli-data-")
        try:
            node = Node(data, "--bot-delay", "100")
            port = node.port
            p = Player(["--server", "127.0.0.1:%d" % port, "--name", "Ann", "create", "stones",
                        "--seats", "2", "--bots"], self.env)
            p.wait_for(r"rev 1 ----")
            self.assertEqual(node.stop(), 0)
            p.wait_for(r"reconnecting")
            node = Node(data, "--listen", "127.0.0.1:%d" % port, "--bot-delay", "100")
            p.wait_for(r"Back in room", timeout=60)
            p.type("legal")
            p.wait_for(r"(#1 |nothing to do now)")
            p.type("quit")
            self.assertEqual(p.finish(), 0)
            self.assertEqual(node.stop(), 0)
        finally:
            shutil.rmtree(data, ignore_errors=True)

    def test_typos_get_a_suggestion_and_stale_numbers_are_not_sent(self):
        p = Player(["--server", self.srv.addr, "--name", "Ann", "create", "sorcerers",
                    "--seats", "2", "--bots"], self.env, tty=True)
        p.wait_for(r"rev \d+ ----")
        p.type("lgeal")
        p.wait_for(r'unknown command "lgeal"; did you mean `legal`\?')
        p.type("xyzzy")
        p.wait_for(r'unknown command "xyzzy" \(type `help`\)')
        # Our own move makes the list we hold out of date.
        for _ in range(200):
            p.type("legal")
            m = p.wait_for(r"(#1 |nothing to do now)[^\n]*\n(?![\s\S]*(#1 |nothing to do now))")
            if m.group(1).startswith("#1"):
                break
        drawn = max(int(r) for r in re.findall(r"rev (\d+) ----", p.text()))
        p.type("#1")
        wait_until(lambda: max(int(r) for r in re.findall(r"rev (\d+) ----", p.text())) > drawn,
                   lambda: "no board after our move:\n" + p.text()[-2000:])
        p.type("#1")
        p.wait_for(r"that list is out of date; here is the new one")
        p.type("quit")
        self.assertEqual(p.finish(), 0)

    def test_a_clocked_room_shows_every_seat_s_time(self):
        out = self.run_cli(["--name", "Ann", "create", "stones", "--seats", "2", "--bots",
                            "--clock", "fischer:10m+5s"], stdin="legal\n#1\nwho\nquit\n")
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        # Ann's clock runs down from 10:00; the bot's waits, at 10:00 and
        # its increment once it has placed its Taoist.
        self.assertRegex(out.stdout,
                         r"clock \(fischer\): Ann (10:00|\d:\d\d) running \| Bot 1 10:0[05]\n")
        for bad in ("fischer", "fischer:", "fischer:10x", "hourglass:1m", "bank:30s/-1",
                    "fischer:10m+5s+1s"):
            out = self.run_cli(["create", "stones", "--clock", bad])
            self.assertNotEqual(out.returncode, 0, "--clock %r was taken" % bad)
            self.assertIn("--clock takes", out.stderr)
        # The server says why it refuses what parses.
        out = self.run_cli(["create", "stones", "--clock", "correspondence:30s"])
        self.assertNotEqual(out.returncode, 0)
        self.assertIn("per_move", out.stdout + out.stderr)

    def test_a_clock_s_timeout_policy_is_chosen_and_shown(self):
        out = self.run_cli(["--name", "Ann", "create", "arcana", "--seats", "2", "--bots",
                            "--clock", "fischer:10m", "--timeout", "lose"],
                            stdin="view\nquit\n")
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        self.assertRegex(out.stdout, r"clock \(fischer, out of time: loses\): Ann ")
        out = self.run_cli(["create", "arcana", "--timeout", "skip"])
        self.assertNotEqual(out.returncode, 0)
        self.assertIn("--timeout is for a room with a --clock", out.stderr)
        # The server says which policies a room can have.
        out = self.run_cli(["create", "arcana", "--seats", "3", "--clock", "fischer:10m",
                            "--timeout", "lose"])
        self.assertNotEqual(out.returncode, 0)
        self.assertIn("of two seats", out.stdout + out.stderr)
        out = self.run_cli(["create", "arcana", "--clock", "fischer:10m", "--timeout", "never"])
        self.assertNotEqual(out.returncode, 0)
        self.assertIn("bot, lose or skip", out.stdout + out.stderr)

    def test_undo_is_refused_with_its_reason(self):
        out = self.run_cli(["--name", "Ann", "create", "stones", "--seats", "2", "--bots"],
                           stdin="undo\nquit\n")
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        # Ann has not moved (the bot may have): nothing of hers comes back.
        self.assertRegex(out.stdout, r"refused \(illegal_action\): (there is no move of yours|"
                                     r"another seat has moved)")
        out = self.run_cli(["--name", "Ann", "create", "stones", "--seats", "2", "--bots",
                            "--option", "undo=false"], stdin="undo\nquit\n")
        self.assertRegex(out.stdout, r"refused \(illegal_action\): undo is off in this room")

    def test_notify_sets_and_shows_where_notices_go(self):
        out = self.run_cli(["--name", "Ann", "create", "stones", "--seats", "2"],
                           stdin="notify\nnotify https://ntfy.sh/conclave-ann\n"
                                 "notify http://10.0.0.1/hook\nnotify off\nquit\n")
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        lines = [l for l in out.stdout.splitlines() if l.startswith(("notices:", "refused"))]
        self.assertEqual(lines[:2], ["notices: none",
                                     "notices: webhook https://ntfy.sh/conclave-ann, 0 browsers"])
        self.assertRegex(lines[2], r"^refused \(bad_request\): .*public")
        self.assertEqual(lines[3], "notices: none")

    def test_games_lists_the_saved_seats_and_wait_returns_on_your_turn(self):
        out = self.run_cli(["wait"])
        self.assertEqual(out.returncode, 1)
        self.assertIn("no saved seats", out.stderr)
        ann, bo = self.client("Ann"), self.client("Bo")
        code = ann.ok("create", game="stones", seats=2)["room"]
        bo.ok("join", room=code)
        ann.ok("start")
        bo.pump(lambda c: c.view is not None)
        os.makedirs(os.path.join(self.state, "conclave"), exist_ok=True)
        with open(os.path.join(self.state, "conclave", "session.json"), "w") as f:
            json.dump({"sessions": [{"server": self.srv.addr, "room": code, "seat": 0,
                                     "name": "Ann", "token": ann.token},
                                    {"server": self.srv.addr, "room": "ZZZZZZ", "seat": 1,
                                     "name": "Ann", "token": ann.token}]}, f)
        # Bo's turn: Ann moves first when the seating put her first.
        for _ in range(10):
            if bo.view["active"] == [1]:
                break
            rev = ann.ok("act", action=ann.ok("legal")["actions"][0])["rev"]
            bo.pump(lambda c: c.rev >= rev)
        self.assertEqual(bo.view["active"], [1])
        out = self.run_cli(["games"])
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertRegex(out.stdout, r"%s  stones +seat 0 \(Ann\)  waiting: Bo to play" % code)
        self.assertRegex(out.stdout, r"ZZZZZZ  - +seat 1 \(Ann\)  gone")
        self.assertIn("0 of 2 seats: your turn", out.stdout)
        # `wait` blocks while it is Bo's turn, and returns once it is Ann's.
        waiter = subprocess.Popen([CONCLAVE, "--server", self.srv.addr, "wait", code],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                  env=self.env)
        try:
            bo.pump(lambda c: any(e.get("ev") == "room" and e.get("spectators") == 1
                                  for e in c.events))
            self.assertIsNone(waiter.poll())
            # Bo plays until it is Ann's turn (who placed last moves first).
            for _ in range(10):
                rev = bo.ok("act", action=bo.ok("legal")["actions"][0])["rev"]
                bo.pump(lambda c: c.rev >= rev)
                if 0 in bo.view["active"]:
                    break
            stdout, stderr = waiter.communicate(timeout=LIVENESS)
        finally:
            if waiter.poll() is None:
                waiter.kill()
                waiter.communicate()
        self.assertEqual(waiter.returncode, 0, stderr)
        self.assertRegex(stdout, r"%s  stones +seat 0 \(Ann\)  your turn" % code)
        out = self.run_cli(["--json", "games"])
        lines = [json.loads(x) for x in out.stdout.splitlines()]
        self.assertEqual([x["state"] for x in lines], ["your turn", "gone"])
        self.assertEqual(lines[0]["active"], [0])
        # Once the game is over there is nothing to wait for: exit 3.
        rng = random.Random(7)
        for _ in range(5000):
            if bo.view["result"] is not None:
                break
            me = ann if ann.seat in bo.view["active"] else bo
            me.pump(lambda c: c.rev == bo.rev)
            rev = me.rev
            me.req("act", action=rng.choice(me.ok("legal")["actions"]), rev=rev)
            bo.pump(lambda c: c.rev > rev)
        self.assertIsNotNone(bo.view["result"])
        out = self.run_cli(["wait", code])
        self.assertEqual(out.returncode, 3, out.stdout + out.stderr)
        self.assertIn("every game waited for is over", out.stderr)

    def test_numeric_arguments_are_strict(self):
        for bad in ("0", "abc", "-3", "2x", "7", ""):
            out = self.run_cli(["create", "stones", "--seats", bad])
            self.assertNotEqual(out.returncode, 0, "--seats %r was taken" % bad)
            self.assertIn("--seats takes a whole number", out.stderr)
            self.assertIn('"%s"' % bad, out.stderr)
            self.assertNotIn("In room", out.stdout)
        out = self.run_cli(["create", "stones", "--name", "--bots"])
        self.assertIn("--name needs a value", out.stderr)

    def test_json_mode_prints_json_and_keeps_the_session(self):
        out = self.run_cli(["--json", "--name", "Ann", "info"])
        self.assertEqual(out.returncode, 0, out.stderr)
        hello = json.loads(out.stdout.splitlines()[0])
        self.assertIn("stones", [g["id"] for g in hello["games"]])
        out = self.run_cli(["--json", "--name", "Ann", "list"])
        self.assertEqual(json.loads(out.stdout.splitlines()[0])["rooms"], [])
        out = self.run_cli(["--json", "--name", "Ann", "create", "stones", "--seats", "2"])
        lines = [json.loads(x) for x in out.stdout.splitlines()]
        created = [m for m in lines if m.get("token")][0]
        saved = json.load(open(os.path.join(self.state, "conclave", "session.json")))
        self.assertEqual(saved["sessions"][0]["room"], created["room"])
        out = self.run_cli(["--json", "resume"])
        resumed = [json.loads(x) for x in out.stdout.splitlines()]
        self.assertTrue(any(m.get("ok") and m.get("room") == created["room"] for m in resumed),
                        out.stdout)

    def test_two_players_on_one_machine_resume_their_own_seats(self):
        out = self.run_cli(["--name", "Ann", "create", "stones", "--seats", "2"], stdin="quit\n")
        code = re.search(r"In room ([0-9A-Z]{6})", out.stdout).group(1)
        self.run_cli(["--name", "Bo", "join", code], stdin="quit\n")
        out = self.run_cli(["resume"], stdin="quit\n")
        self.assertNotEqual(out.returncode, 0)
        self.assertIn("several saved seats fit", out.stderr)
        self.assertIn("as Ann", out.stdout + out.stderr)
        self.assertIn("as Bo", out.stdout + out.stderr)
        # Each at a terminal of its own takes back its own seat.
        bo = Player(["--server", self.srv.addr, "--name", "Bo", "resume"], self.env, tty=True)
        bo.wait_for(r"In room %s as seat 1" % code)
        ann = Player(["--server", self.srv.addr, "--name", "Ann", "resume", code.lower()],
                     self.env, tty=True)
        ann.wait_for(r"In room %s as seat 0" % code)
        ann.type("who")
        # The seat keeps its name: nobody was renamed by resuming.
        ann.wait_for(r"seat 0: Ann .*<- you")
        ann.wait_for(r"seat 1: Bo ")
        for p in (ann, bo):
            p.type("quit")
            self.assertEqual(p.finish(), 0)

    def test_resume_keeps_the_seats_name(self):
        from harness import Client
        a = Client(self.srv.port, "Ann")
        self.clients.append(a)
        a.ok("create", game="stones", seats=2)
        token = a.token
        a.close()
        z = Client(self.srv.port, "player")  # the client's default name
        self.clients.append(z)
        z.ok("resume", token=token)
        z.ok("chat", text="back")
        z.pump(lambda x: x.count("chat") > 0)
        chat = [e for e in z.events if e["ev"] == "chat"][-1]
        self.assertEqual(chat["name"], "Ann")
        room = [e for e in z.events if e["ev"] == "room"][-1]
        self.assertEqual(room["seats"][0]["name"], "Ann")

    def test_joining_a_finished_room_offers_its_record(self):
        from harness import Client
        a = Client(self.srv.port, "Ann")
        self.clients.append(a)
        code = a.ok("create", game="sorcerers", seats=2)["room"]
        a.ok("start", bots=True)
        a.ok("leave")  # bots play it to its end
        c = Client(self.srv.port, "Cy")
        self.clients.append(c)
        wait_until(lambda: "ended" in c.req("join", room=code).get("error", {}).get("message", ""),
                   lambda: "the bots never finished the game", timeout=4 * LIVENESS)
        out = self.run_cli(["--name", "Cy", "join", code])
        self.assertNotEqual(out.returncode, 0)
        self.assertIn("has ended", out.stderr)
        self.assertIn("conclave spectate %s" % code, out.stderr)
        out = self.run_cli(["--name", "Cy", "spectate", code], stdin="record %s/rec.json\nquit\n"
                           % self.state)
        self.assertIn("record saved to", out.stdout)

    def quick_game(self, *more):
        """`conclave create` args for a public game of two seats that ends a
        second after its start: a one-second clock that loses."""
        return ["--server", self.srv.addr, "--name", "Ann", "create", "stones", "--seats", "2",
                "--public", "--clock", "fischer:1s", "--timeout", "lose"] + list(more)

    def test_rematch_moves_the_players_and_the_game_stays_on_record(self):
        """After the end, Bo offers a rematch and moves to its lobby at the
        seat one round on; Ann is told, declines (her seat there is given
        up), then changes her mind and takes it: her saved seat is now the
        new room's. The finished game is listed, and its record, fetched
        from outside the room, replays."""
        env_b = dict(self.env, XDG_STATE_HOME=self.state + "/b")
        ann = Player(self.quick_game(), self.env)
        code = ann.wait_for(r"In room ([0-9A-Z]{6})").group(1)
        bo = Player(["--server", self.srv.addr, "--name", "Bo", "join", code], env_b)
        ann.wait_for(r"seat 1: Bo")
        ann.type("rematch")
        ann.wait_for(r"refused \(game_not_over\): ")
        ann.type("start")
        for p in (ann, bo):
            p.wait_for(r"==== Game over ====")
        ann.wait_for(r"or `rematch` to play again")
        bo.type("rematch")
        new = bo.wait_for(r"Now in room ([0-9A-Z]{6}) as seat 0, the rematch of %s" % code).group(1)
        bo.wait_for(r"Room %s  game stones  lobby  host seat 0[^=]*You host it: type `start`" % new)
        ann.wait_for(r"Rematch in room %s, offered by Bo: Ann \(you\) has not answered, Bo "
                     r"accepted\nType `rematch` to take your seat there \(seat 1\), or `rematch no` "
                     r"to decline" % new)
        ann.type("rematch no")
        ann.wait_for(r"you declined the rematch")
        ann.wait_for(r"offered by Bo: Ann \(you\) declined, Bo accepted")
        bo.wait_for(r"seat 1: +empty")
        ann.type("rematch")
        ann.wait_for(r"Now in room %s as seat 1, the rematch of %s\.\nRoom %s [^=]*Its host starts "
                     r"it" % (new, code, new))
        bo.wait_for(r"seat 1: Ann ")
        # The finished game's record, from the new room by its code.
        first = os.path.join(self.state, "first.json")
        ann.type("record %s %s" % (code.lower(), first))
        ann.wait_for(r"record saved to %s" % re.escape(first))
        for p in (ann, bo):
            p.type("quit")
            self.assertEqual(p.finish(), 0)
        saved = read_json(os.path.join(self.state, "conclave", "session.json"))["sessions"]
        self.assertEqual([(x["room"], x["seat"]) for x in saved], [(new, 1)])
        out = self.run_cli(["--name", "Ann", "resume"], stdin="who\nquit\n")
        self.assertSeen("In room %s as seat 1" % new, out.stdout)
        # From outside: the list names the finished game, its record is
        # fetched, saved or printed, and replays; a game not over has none.
        out = self.run_cli(["list"])
        self.assertRegex(out.stdout, r"%s  stones +Ann, Bo  ended \d+ s ago" % code)
        rec = os.path.join(self.state, "rec.json")
        out = self.run_cli(["record", code, rec])
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        self.assertIn("record saved to %s" % rec, out.stdout)
        self.assertEqual(read_json(rec), read_json(first))
        out = self.run_cli(["record", code])
        self.assertEqual(json.loads(out.stdout), read_json(rec))
        out = self.run_cli(["--json", "record", code])
        self.assertEqual(json.loads(out.stdout)["record"], read_json(rec))
        replay = subprocess.run([CONCLAVE, "replay", rec], capture_output=True, text=True,
                                timeout=60)
        self.assertEqual(replay.returncode, 0, replay.stdout + replay.stderr)
        self.assertIn("all 1 actions accepted; result", replay.stdout)
        out = self.run_cli(["record", new])
        self.assertEqual(out.returncode, 1)
        self.assertIn("conclave: game_not_over: ", out.stderr)

    def test_a_script_s_rematch_moves_its_saved_seat(self):
        """--json: the rematch reply passes through as it came, and the seat
        it gives replaces the finished game's among the saved seats."""
        ann = self.client("Ann")
        code = ann.ok("create", game="stones", seats=2,
                      options={"clock": {"type": "fischer", "base": 1, "timeout": "lose"}})["room"]
        bo = Player(["--server", self.srv.addr, "--name", "Bo", "--json", "join", code], self.env)
        ann.pump(lambda c: c.count("room") >= 2)
        ann.ok("start")
        bo.wait_for(r'"ev":"ended"')
        new = ann.ok("rematch")["room"]
        bo.wait_for(r'"ev":"rematch"')
        bo.type('{"id":7,"op":"rematch"}')
        bo.wait_for(r'"re":7[^\n]*"from":"%s"' % code)
        bo.proc.kill()
        bo.proc.wait(20)
        saved = read_json(os.path.join(self.state, "conclave", "session.json"))["sessions"]
        self.assertEqual([(x["room"], x["seat"], x["name"]) for x in saved], [(new, 0, "Bo")])

    def test_card_texts(self):
        out = self.run_cli(["--name", "Ann", "create", "stones", "--seats", "2"],
                           stdin="card spin-2\ncard A07\ncard o3\ncard XYZ\nquit\n")
        self.assertIn("turn any tile of the Alchemy Zone", out.stdout)
        self.assertIn("A07 Shennong Cauldron: cost G R N B, 3 points", out.stdout)
        self.assertIn("Objective O3", out.stdout)
        self.assertIn('no card "XYZ" in stones', out.stdout)
        out = self.run_cli(["--name", "Ann", "create", "sorcerers", "--seats", "2"],
                           stdin="card torquemada\ncard Balthazar Blake\nquit\n")
        self.assertIn("Torquemada: morganian, power 7. Inquisition", out.stdout)
        self.assertIn("Balthazar Blake: merlinian, power 10.", out.stdout)

    def on_a_terminal(self, env, until, typed=b"quit\n"):
        """Runs a game against a bot in a pseudo-terminal, as a person at a
        terminal does, until `until` is on the screen; returns the screen."""
        import pty
        import select
        args = [CONCLAVE, "--server", self.srv.addr, "--name", "Ann", "create", "sorcerers",
                "--seats", "2", "--bots"]
        pid, fd = pty.fork()
        if pid == 0:
            os.execve(CONCLAVE, args, env)
        screen = b""
        deadline = time.time() + 4 * LIVENESS
        try:
            while until not in screen and time.time() < deadline:
                ready, _, _ = select.select([fd], [], [], 0.5)
                if ready:
                    try:
                        screen += os.read(fd, 65536)
                    except OSError:
                        break
            os.write(fd, typed)
            end = time.time() + LIVENESS
            while time.time() < end:
                ready, _, _ = select.select([fd], [], [], 0.5)
                if not ready:
                    continue
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                screen += chunk
        finally:
            os.close(fd)
            status = reap(pid)
        self.assertEqual(os.waitstatus_to_exitcode(status), 0)
        return screen

    def test_a_terminal_gets_the_turn_cue_the_bell_and_colours(self):
        env = {k: v for k, v in self.env.items() if k != "NO_COLOR"}
        screen = self.on_a_terminal(env, b">>> Your turn")
        self.assertIn(b">>> Your turn", screen, "no turn cue on the terminal")
        cue = screen[screen.index(b">>> Your turn"):]
        self.assertIn(b"\a", cue.split(b"\n")[0], "no bell with the cue")
        self.assertIsNotNone(re.search(rb"\x1b\[[0-9;]*m", screen), "no colours on a terminal")
        quiet = dict(env, CONCLAVE_BELL="0", NO_COLOR="1")
        screen = self.on_a_terminal(quiet, b">>> Your turn")
        self.assertIn(b">>> Your turn", screen, "no turn cue on the terminal")
        self.assertNotIn(b"\a", screen)
        # Colours (SGR sequences) are gone; the line editor still moves the
        # cursor and clears the prompt line.
        self.assertIsNone(re.search(rb"\x1b\[[0-9;]*m", screen), "colours despite NO_COLOR")

    def test_the_typed_line_survives_what_arrives_and_the_chat_stays_in_sight(self):
        """On a terminal: a half-typed line is drawn again under a chat line
        that arrives meanwhile; the up arrow brings back the last line; chat
        does not redraw the board; a board drawn after a move shows the last
        chat lines under it."""
        import pty
        import select
        env = dict(self.env, CONCLAVE_BELL="0")
        pid, fd = pty.fork()
        if pid == 0:
            os.execve(CONCLAVE, [CONCLAVE, "--server", self.srv.addr, "--name", "Ann", "create",
                                 "sorcerers", "--seats", "2"], env)
        screen = [b""]

        def pump():
            ready, _, _ = select.select([fd], [], [], 0.2)
            if ready:
                try:
                    screen[0] += os.read(fd, 65536)
                except OSError:
                    pass
            return screen[0]

        def until(needle, after=0):
            wait_until(lambda: needle in pump()[after:],
                       lambda: "no %r; the screen ends:\n%r" % (needle, screen[0][-1500:]))
            return screen[0].index(needle, after)

        bob = None
        try:
            until(b"Share the code")
            code = re.search(rb"In room (\w{6})", screen[0]).group(1).decode()
            bob = Player(["--server", self.srv.addr, "--name", "Bob", "join", code],
                         dict(self.env, XDG_STATE_HOME=self.state + "/bob"))
            until(b"Bob ")
            os.write(fd, b"start\r")
            until(b"rev 1 ----")
            os.write(fd, b"say hel")
            until(b"say hel")
            boards = screen[0].count(b"---- sorcerers")
            bob.type("say hi there")
            at = until(b"[Bob] hi there")
            until(b"> say hel", at)
            os.write(fd, b"lo\r")
            bob.wait_for(r"\[Ann\] hello")
            os.write(fd, b"\x1b[A\r")
            wait_until(lambda: bob.text().count("[Ann] hello") >= 2,
                       lambda: "the up arrow did not bring `say hello` back:\n" + bob.text())
            self.assertEqual(screen[0].count(b"---- sorcerers"), boards, "chat redrew the board")
            # One move, by whichever seat may act.
            bob.type("legal")
            bob.type("#1")
            listed = len(screen[0])
            os.write(fd, b"legal\r")
            wait_until(lambda: b"#1 " in pump()[listed:] or
                       b"nothing to do now" in screen[0][listed:],
                       lambda: "no answer to `legal`:\n%r" % screen[0][-1500:])
            if b"#1 " in screen[0][listed:]:
                os.write(fd, b"#1\r")
            at = until(b"rev 2 ----")
            chat = until(b"-- chat --", at)
            until(b"[Bob] hi there", chat)
            self.assertNotIn(b"---- sorcerers", screen[0][at + 1:chat], "two boards for one move")
            os.write(fd, b"quit\r")
        finally:
            os.close(fd)
            reap(pid)
            if bob:
                bob.finish()

    def test_a_client_whose_terminal_goes_away_ends(self):
        """A closed terminal window or a dropped ssh session: the client
        ends (the seat waits for a resume) rather than spinning on it."""
        import pty
        import select
        pid, fd = pty.fork()
        if pid == 0:
            os.execve(CONCLAVE, [CONCLAVE, "--server", self.srv.addr, "--name", "Ann", "create",
                                 "stones", "--seats", "2"], self.env)
        screen = b""
        try:
            deadline = time.time() + LIVENESS
            while b"Share the code" not in screen and time.time() < deadline:
                if select.select([fd], [], [], 0.2)[0]:
                    screen += os.read(fd, 65536)
            self.assertIn(b"Share the code", screen)
        finally:
            os.close(fd)
        reap(pid)

    def test_usage_errors_say_what_was_wrong(self):
        cases = [(["join", "abc"], '"abc" is not a room code: a code has six characters'),
                 (["join"], "join needs a room code"),
                 (["spectate", "K7QF2"], '"K7QF2" is not a room code'),
                 (["create"], "create needs a game"),
                 (["replay"], "replay needs a record file"),
                 (["record"], "record needs a room code"),
                 (["record", "K7QF2"], '"K7QF2" is not a room code'),
                 (["frob"], 'unknown command "frob"')]
        for args, want in cases:
            out = self.run_cli(args)
            self.assertEqual(out.returncode, 2, args)
            self.assertIn(want, out.stderr.splitlines()[0], args)

    def test_server_options_are_named(self):
        from harness import CONCLAVED
        cases = [(["--bogus", "1"], "unknown option --bogus"),
                 (["--listen", "--verbose"], "--listen needs a value"),
                 (["--listen"], "--listen needs a value"),
                 (["--max-rooms", "abc"], '--max-rooms takes a whole number from 1 to'),
                 (["--max-rooms", "-3"], '--max-rooms takes a whole number'),
                 (["--fsync", "sometimes"], "--fsync takes always, batch or never")]
        for args, want in cases:
            p = subprocess.run([CONCLAVED] + args, capture_output=True, text=True, timeout=60)
            self.assertEqual(p.returncode, 2, args)
            self.assertIn(want, p.stderr.splitlines()[0], args)

    def test_two_players_by_code(self):
        base = ["--server", self.srv.addr]
        env_b = dict(self.env, XDG_STATE_HOME=self.state + "/b")
        a = Player(base + ["--name", "Ann", "create", "stones", "--seats", "2"], self.env)
        code = a.wait_for(r"In room ([0-9A-Z]{6})").group(1)
        b = Player(base + ["--name", "Bo", "join", code.lower()], env_b)
        b.wait_for(r"In room %s as seat 1" % code)
        a.wait_for(r"seat 1: Bo")
        a.type("start")
        a.wait_for(r"rev 1 ----")
        b.wait_for(r"rev 1 ----")
        a.type("legal")
        b.type("legal")
        a.wait_for(r"(#1 |nothing to do now)")
        b.wait_for(r"(#1 |nothing to do now)")
        mover = a if "#1 " in a.text() else b
        self.assertIn(">>> Your turn", mover.text(), "no cue for the player whose turn it is")
        mover.type("#1")
        a.wait_for(r"rev 2 ----")
        b.wait_for(r"rev 2 ----")
        a.type("quit")
        b.type("quit")
        self.assertEqual(a.finish(), 0)
        self.assertEqual(b.finish(), 0)


if __name__ == "__main__":
    main()
