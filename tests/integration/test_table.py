#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""After the game, over real TCP: a rematch that moves the players who
accept into a new room with the seats moved round, bots kept and declined
seats given up; every finished game's record and review from outside the
room, each rev's views equal, hash for hash, to what the seats received
during play; and the list of recently finished public games."""
import hashlib
import json
import random
import socket
import time
import urllib.error
import urllib.request

from harness import Server, ServerTest, canonical_hash, main, wait_until


def play_to_end(test, players, rng, undo=False, limit=5000):
    """Plays every seat of `players` with random legal actions until the
    game ends (bots play the others), taking a move back now and then where
    the reply allows it; waits for each change rather than for time.
    Returns {seat: {rev: hash}} of every view each player received, and
    how many undos were taken."""
    taken = 0
    for _ in range(limit):
        top = max(c.rev for c in players)
        for c in players:
            c.pump(lambda x: x.rev >= top)
        if all(c.view["result"] is not None for c in players):
            break
        mover = next((c for c in players
                      if c.view["result"] is None and c.seat in c.view["active"]), None)
        if mover is None:
            # The bots' turn: wait for their move.
            rev = players[0].rev
            players[0].pump(lambda x: x.rev > rev or x.view["result"] is not None, timeout=60)
        else:
            acts = mover.ok("legal")["actions"]
            r = mover.req("act", action=rng.choice(acts), rev=mover.rev) if acts else {}
            if r.get("ok") and undo and r.get("undo") and rng.random() < 0.3:
                r = mover.ok("undo")
                taken += 1
            if r.get("ok"):
                rev = r["rev"]
                for c in players:
                    c.pump(lambda x: x.rev >= rev)
    for c in players:
        c.pump(lambda x: x.ended is not None, timeout=60)
    test.assertIsNotNone(players[0].view["result"], "the game does not end")
    seen = {c.seat: {e["rev"]: e["hash"] for e in c.events if e.get("ev") in ("state", "diff")}
            for c in players}
    return seen, taken


def http_review(port, record, rev=None):
    """POST /review: (status, answer)."""
    url = "http://127.0.0.1:%d/review%s" % (port, "" if rev is None else "?rev=%d" % rev)
    req = urllib.request.Request(url, data=json.dumps(record).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def two_played(test, game="stones", seats=2, public=False, undo=True):
    a, b = test.client("Ann"), test.client("Bo")
    code = a.ok("create", game=game, seats=seats, options={"public": public})["room"]
    b.ok("join", room=code)
    a.ok("start", bots=seats > 2)
    for c in (a, b):
        c.pump(lambda x: x.view is not None)
    seen, taken = play_to_end(test, [a, b], random.Random(code), undo=undo)
    return a, b, code, seen, taken


class Table(ServerTest):
    server_args = ("--bot-delay", "0", "--rate", "10000", "--rate-burst", "10000")

    def setUp(self):
        self.srv = Server(*self.server_args, http=True)
        self.clients = []

    def test_review_shows_every_rev_as_the_seats_saw_it(self):
        """A review by another connection, in no room, steps through the
        whole game: at every rev each seat's hash is the one its view had
        during play, undos included; the public view hashes as a
        spectator's; the seed is the one committed. The record it gives
        reviews to the same hashes."""
        a, b, code, seen, taken = two_played(self)
        self.assertGreater(taken, 0, "no move was taken back")
        c = self.client("Cy")
        first = c.ok("review", room=code, rev=1)["review"]
        last = first["last"]
        self.assertEqual(first["first"], 1)
        self.assertEqual(last, a.rev)
        self.assertEqual(first["step"]["t"], "start")
        self.assertEqual([s["name"] for s in first["seats"]], ["Ann", "Bo"])
        self.assertEqual(first["seed"], a.ended["seed"])
        self.assertEqual(hashlib.blake2b(bytes.fromhex(first["seed"]), digest_size=32).hexdigest(),
                         first["seed_commit"])
        self.assertEqual(first["seed_commit"], a.view["seed_commit"])
        undos = 0
        for rev in range(1, last + 1):
            r = c.ok("review", room=code, rev=rev)["review"]
            self.assertEqual(r["rev"], rev)
            self.assertEqual(r["hash"], canonical_hash(r["view"]))
            for seat in (0, 1):
                view = dict(r["view"], you=r["hands"][seat])
                self.assertEqual(canonical_hash(view), r["hashes"][seat])
                if rev in seen[seat]:
                    self.assertEqual(r["hashes"][seat], seen[seat][rev],
                                     "seat %d at rev %d" % (seat, rev))
            undos += r["step"]["t"] == "undo"
        self.assertEqual(undos, taken)
        self.assertTrue(all(rev in seen[0] for rev in range(1, last + 1)))
        # Stepping back rebuilds from the journal: the same answer.
        back = c.ok("review", room=code, rev=2)["review"]
        self.assertEqual(back["hashes"], c.ok("review", room=code, rev=2)["review"]["hashes"])
        self.assertEqual(back["hashes"][0], seen[0][2])
        self.assertEqual(c.ok("review", room=code)["review"]["rev"], last)
        # The record, from outside the room, reviews to the same views:
        # over HTTP whatever its length, in a request line when it fits.
        rec = c.ok("record", room=code)["record"]
        self.assertEqual(rec, a.ok("record")["record"])
        for rev in (1, last // 2, last):
            status, r = http_review(self.srv.http_port, rec, rev)
            self.assertEqual(status, 200, r)
            r = r["review"]
            self.assertIsNone(r["room"])
            self.assertEqual(r["last"], last)
            self.assertEqual(r["hashes"], [seen[0][rev], seen[1][rev]])
        self.assertEqual(http_review(self.srv.http_port, rec)[1]["review"]["rev"], last)
        short = dict(rec, actions=rec["actions"][:4])
        r = c.ok("review", record=short)["review"]
        self.assertEqual(r["last"], 5)
        self.assertEqual(r["hashes"], [seen[0][5], seen[1][5]])
        status, r = http_review(self.srv.http_port, rec, last + 1)
        self.assertEqual((status, r["ok"], r["error"]["code"]), (400, False, "bad_request"))
        status, r = http_review(self.srv.http_port, {"game": "stones"})
        self.assertEqual((status, r["error"]["code"]), (400, "bad_request"))
        # Refusals.
        c.err("review", "bad_request", room=code, rev=last + 1)
        c.err("review", "bad_request", room=code, rev=0)
        c.err("review", "bad_request", room=code, record=short)
        c.err("review", "bad_request")
        c.err("review", "room_not_found", room="ZZZZZZ")
        bad = dict(rec, actions=rec["actions"][:3] + [{"seat": 0, "action": {"type": "nope"}}])
        self.assertIn("refused", c.err("review", "illegal_action", record=bad)["error"]["message"])
        c.err("review", "bad_request", record={"game": "stones"})
        d, e = self.client("Di"), self.client("Ed")
        running = d.ok("create", game="stones", seats=2)["room"]
        e.ok("join", room=running)
        d.ok("start")
        c.err("review", "game_not_over", room=running)
        c.err("record", "game_not_over", room=running)
        c.err("record", "not_in_room")

    def test_review_route_refuses_what_is_no_record(self):
        """POST /review reads nothing it has not been told the length of,
        nothing over 4 MiB, and only a rev that is a number; any other
        POST is not allowed; the server is unharmed."""
        def raw(head):
            with socket.create_connection(("127.0.0.1", self.srv.http_port), timeout=10) as s:
                s.sendall(head.encode())
                return s.recv(4096).split(b"\r\n", 1)[0]
        host = "Host: 127.0.0.1\r\n"
        self.assertIn(b" 411 ", raw("POST /review HTTP/1.1\r\n" + host + "\r\n"))
        self.assertIn(b" 413 ", raw("POST /review HTTP/1.1\r\n" + host +
                                   "Content-Length: %d\r\n\r\n" % (5 << 20)))
        self.assertIn(b" 400 ", raw("POST /review?rev=x HTTP/1.1\r\n" + host +
                                   "Content-Length: 2\r\n\r\n{}"))
        self.assertIn(b" 405 ", raw("POST /other HTTP/1.1\r\n" + host +
                                   "Content-Length: 2\r\n\r\n{}"))
        status, r = http_review(self.srv.http_port, [1, 2])
        self.assertEqual((status, r["error"]["code"]), (400, "bad_request"))
        self.client("Ann").answers()

    def test_review_route_gives_each_address_its_share(self):
        """POST /review is charged by its Content-Length against the
        address's share (--review-rate bytes a second, bursts of twice
        that), before the body is read: a body over the whole burst is
        refused with 413 (it could never be read), one within it is read,
        one over what is left of the share gets 429; the share refills
        with time."""
        srv = Server("--review-rate", "10", http=True)
        try:
            def post(body):
                req = urllib.request.Request("http://127.0.0.1:%d/review" % srv.http_port,
                                             data=body, method="POST")
                try:
                    with urllib.request.urlopen(req, timeout=30) as r:
                        return r.status, json.loads(r.read())
                except urllib.error.HTTPError as e:
                    return e.code, json.loads(e.read())
            small = b"[" + b"1," * 6 + b"1]"  # 15 bytes: no record, but read
            self.assertEqual(len(small), 15)
            status, r = post(small)
            self.assertEqual((status, r["error"]["code"]), (400, "bad_request"))
            big = urllib.request.Request("http://127.0.0.1:%d/review" % srv.http_port,
                                         data=b"[" + b"1," * 11 + b"1]", method="POST")
            with self.assertRaises(urllib.error.HTTPError) as e:  # 25 bytes: over the burst of 20
                urllib.request.urlopen(big, timeout=30)
            self.assertEqual(e.exception.code, 413)
            e.exception.close()
            # Spent: a 15-byte body waits for the share to refill (a
            # second and a half at 10 bytes a second).
            limited = [r for s, r in (post(small) for _ in range(20)) if s == 429]
            self.assertTrue(limited)
            self.assertEqual(limited[0]["error"]["code"], "rate_limited")
            time.sleep(2.1)
            self.assertEqual(post(small)[0], 400)
            self.assertTrue(srv.alive())
        finally:
            srv.stop()

    def test_rematch(self):
        """The first player to ask makes the new room and hosts it, at the
        seat one round on; the other accepts into its waiting seat; the bot
        keeps its name and level. Someone who declines gives the seat up
        for anyone with the code. Asking again after the start, before the
        end, as a spectator, or declining with no offer, is refused."""
        a, b = self.client("Ann"), self.client("Bo")
        code = a.ok("create", game="stones", seats=3, options={"bot_level": "random"})["room"]
        b.ok("join", room=code)
        s = self.client("Spec")
        s.ok("spectate", room=code)
        a.err("rematch", "game_not_over")
        a.ok("start", bots=True)
        for c in (a, b):
            c.pump(lambda x: x.view is not None)
        b.err("rematch", "game_not_over")
        play_to_end(self, [a, b], random.Random(7))
        old_commit, old_token = a.view["seed_commit"], a.token
        s.err("rematch", "not_in_game")
        b.err("rematch", "bad_request", accept=False)
        b.err("rematch", "bad_request", accept="no")
        r = b.ok("rematch")
        new = r["room"]
        self.assertNotEqual(new, code)
        self.assertEqual((r["from"], r["seat"], r["status"], r["rev"]), (code, 0, "lobby", 0))
        self.assertEqual(b.room, new)
        b.pump(lambda x: any(e.get("ev") == "room" and e["room"] == new for e in x.events))
        seats = [e for e in b.events if e.get("ev") == "room" and e["room"] == new][-1]
        self.assertEqual(seats["host"], 0)
        self.assertEqual([(x["name"], x["kind"]) for x in seats["seats"]],
                         [("Bo", "human"), ("Bot 1", "bot"), ("Ann", "human")])
        self.assertEqual(seats["seats"][1]["level"], "random")
        a.pump(lambda x: x.count("rematch") >= 1)
        offer = [e for e in a.events if e.get("ev") == "rematch"][-1]
        self.assertEqual((offer["room"], offer["rematch"], offer["by"]), (code, new, "Bo"))
        self.assertEqual([(x["seat"], x["to"], x["answer"]) for x in offer["seats"]],
                         [(0, 2, "waiting"), (1, 0, "yes"), (2, 1, "bot")])
        # A spectator who comes in later learns of the offer.
        late = self.client("Late")
        late.ok("spectate", room=code)
        late.pump(lambda x: x.count("rematch") == 1)
        r = a.ok("rematch")
        self.assertEqual((r["room"], r["seat"]), (new, 2))
        late.pump(lambda x: [e for e in x.events if e.get("ev") == "rematch"][-1]["seats"][0]
                  ["answer"] == "yes")
        for c in (a, b):
            c.view = c.ended = None  # the finished game's
        b.ok("start")
        for c in (a, b):
            c.pump(lambda x: x.view is not None and x.room == new and x.rev >= 1)
        self.assertEqual(b.seat, 0)
        self.assertNotEqual(a.view["seed_commit"], old_commit)
        late.err("rematch", "not_in_game")
        # Asked again in the finished room once the rematch has begun.
        x = self.client("Ann")
        x.ok("resume", token=old_token)
        x.err("rematch", "already_started")

    def test_declined_seats_go_to_whoever_joins(self):
        """A player who declines stays in the finished room and its seat in
        the new room is empty: anyone with the code may take it. A later
        change of mind takes the first empty seat, or finds none."""
        a, b, code, _, _ = two_played(self, undo=False)
        r = a.ok("rematch")
        new = r["room"]
        self.assertEqual(r["seat"], 1)
        b.pump(lambda x: x.count("rematch") == 1)
        b.ok("rematch", accept=False)
        self.assertEqual(b.room, code)
        b.pump(lambda x: x.count("rematch") == 2)
        a.pump(lambda x: any(e.get("ev") == "room" and e["room"] == new and
                             e["seats"][0]["kind"] == "empty" for e in x.events))
        answers = [e for e in b.events if e.get("ev") == "rematch"][-1]["seats"]
        self.assertEqual([x["answer"] for x in answers], ["yes", "no"])
        c = self.client("Cy")
        self.assertEqual(c.ok("join", room=new)["seat"], 0)
        b.err("rematch", "room_full")
        a.ok("start")
        a.pump(lambda x: x.view is not None and x.rev == 1)


class Sleeping(ServerTest):
    server_args = ("--bot-delay", "0", "--rate", "10000", "--rate-burst", "10000",
                   "--sleep-after", "1", "--verbose")

    def test_a_sleeping_game_is_reviewed_without_waking(self):
        """A finished game whose room sleeps on disk is reviewed, and its
        record given, from its journal: it stays asleep. The offer of a
        rematch is a record of the finished room, there again when it
        wakes."""
        a, b, code, seen, _ = two_played(self, undo=False)
        r = a.ok("rematch")
        token = b.token
        a.close()
        b.close()
        mark = ("event=room_sleeping room=" + code).encode()
        wait_until(lambda: mark in self.srv.log_bytes(), lambda: "the finished room does not sleep",
                   timeout=60)
        c = self.client("Cy")
        rv = c.ok("review", room=code, rev=3)["review"]
        self.assertEqual(rv["hashes"][1], seen[1][3])
        self.assertTrue(c.ok("record", room=code)["record"]["actions"])
        self.assertNotIn(("event=room_woken room=" + code).encode(), self.srv.log_bytes())
        d = self.client("Bo")
        d.ok("resume", token=token)
        d.pump(lambda x: x.count("rematch") == 1)
        offer = [e for e in d.events if e.get("ev") == "rematch"][0]
        self.assertEqual((offer["rematch"], offer["by"]), (r["room"], "Ann"))
        self.assertEqual(d.ok("rematch")["room"], r["room"])


class Listing(ServerTest):
    server_args = ("--bot-delay", "0", "--rate", "10000", "--rate-burst", "10000")

    def test_recent_public_games_are_listed(self):
        """`list` shows the public games that ended, newest first, with
        their players; a private one is not shown."""
        a, b, shown, _, _ = two_played(self, public=True, undo=False)
        c, d = self.client("Cy"), self.client("Di")
        hidden = c.ok("create", game="stones", seats=2)["room"]
        d.ok("join", room=hidden)
        c.ok("start")
        for x in (c, d):
            x.pump(lambda y: y.view is not None)
        play_to_end(self, [c, d], random.Random(3))
        ended = self.client("Ed").ok("list")["ended"]
        self.assertEqual([(e["room"], e["game"], e["seats"]) for e in ended],
                         [(shown, "stones", ["Ann", "Bo"])])
        self.assertGreaterEqual(ended[0]["ago"], 0)


if __name__ == "__main__":
    main()
