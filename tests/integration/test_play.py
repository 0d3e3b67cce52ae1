#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Playing over real TCP: views and diffs per recipient, refusals that
change nothing, legal actions, resume, bots finishing whole games of every
game, records and their replay by `conclave replay`."""
import json
import os
import subprocess
import tempfile

from harness import CONCLAVE, Client, ServerTest, main, public


def start_two(test, game="stones", **opts):
    a, b = test.client("Ann"), test.client("Bo")
    code = a.ok("create", game=game, seats=2, options=opts)["room"]
    b.ok("join", room=code)
    a.ok("start")
    a.pump(lambda x: x.view is not None)
    b.pump(lambda x: x.view is not None)
    return a, b, code


def actor(clients):
    active = clients[0].view["active"]
    for c in clients:
        if c.seat in active:
            return c
    return None


class Play(ServerTest):
    server_args = ("--bot-delay", "0", "--rate", "10000", "--rate-burst", "10000")

    def test_undo_gives_back_the_views_and_is_refused_where_it_could_tell(self):
        """Every game, two players and a spectator: wherever an act's reply
        says the move may come back, `undo` gives every member the view it
        had before the move, byte for byte (hash and all), and the game
        goes on; where it does not, `undo` is refused in words and nothing
        moves. A room made with "undo": false refuses it."""
        taken = {}
        for game in ("stones", "sorcerers", "arcana", "element"):
            a, b, code = start_two(self, game)
            s = self.client("Spec")
            s.ok("spectate", room=code)
            s.pump(lambda x: x.view is not None)
            taken[game] = refused = 0
            for _ in range(80):
                me = actor([a, b])
                if me is None or a.view["result"] is not None:
                    break
                before = [json.dumps(c.view, sort_keys=True) for c in (a, b, s)]
                rev = me.rev
                r = me.ok("act", action=me.ok("legal")["actions"][0], rev=rev)
                for c in (a, b, s):
                    c.pump(lambda x: x.rev >= r["rev"])
                if r.get("undo"):
                    u = me.ok("undo")
                    for c in (a, b, s):
                        c.pump(lambda x: x.rev >= u["rev"])
                    self.assertEqual([json.dumps(c.view, sort_keys=True) for c in (a, b, s)],
                                     before, "%s: the views after an undo" % game)
                    self.assertTrue(any(e["ev"] == "undo" for e in s.events))
                    taken[game] += 1
                    r = me.ok("act", action=me.ok("legal")["actions"][0], rev=me.rev)
                    for c in (a, b, s):
                        c.pump(lambda x: x.rev >= r["rev"])
                    if r.get("undo"):
                        continue
                if not r.get("undo") and refused < 3:
                    self.assertTrue(me.err("undo", "illegal_action")["error"]["message"])
                    refused += 1
            for c in (a, b, s):
                c.close()
        self.assertTrue(all(taken.values()), "a game without one undo taken: %r" % taken)
        a, b, code = start_two(self, "stones", undo=False)
        me = actor([a, b])
        r = me.ok("act", action=me.ok("legal")["actions"][0], rev=me.rev)
        self.assertNotIn("undo", r)
        self.assertIn("off", me.err("undo", "illegal_action")["error"]["message"])

    def test_a_run_of_moves_comes_back_one_by_one(self):
        """A seat that makes several moves in a row takes them back one by
        one, the last first: after each undo every member has the view it
        had before that move, byte for byte, down to the first of the run
        or, of a longer run, the last eight, after which undo is refused."""
        runs = {}
        for game in ("stones", "arcana"):
            a, b, code = start_two(self, game)
            s = self.client("Spec")
            s.ok("spectate", room=code)
            s.pump(lambda x: x.view is not None)
            runs[game] = 0
            for _ in range(400):
                me = actor([a, b])
                if me is None or a.view["result"] is not None:
                    break
                # The seat's run: its moves while it stays the one to act
                # and each may come back.
                kept = []
                while len(kept) < 10 and actor([a, b]) is me:
                    before = [json.dumps(c.view, sort_keys=True) for c in (a, b, s)]
                    acts = me.ok("legal")["actions"]
                    r = me.ok("act", action=acts[len(kept) % len(acts)], rev=me.rev)
                    for c in (a, b, s):
                        c.pump(lambda x: x.rev >= r["rev"])
                    if not r.get("undo"):
                        kept = []
                        break
                    kept.append(before)
                if len(kept) < 2:
                    continue
                longer = len(kept) > 8
                kept = kept[-8:]
                while kept:
                    u = me.ok("undo")
                    for c in (a, b, s):
                        c.pump(lambda x: x.rev >= u["rev"])
                    self.assertEqual([json.dumps(c.view, sort_keys=True) for c in (a, b, s)],
                                     kept.pop(), "%s: the views after an undo" % game)
                if longer:
                    self.assertTrue(me.err("undo", "illegal_action")["error"]["message"])
                runs[game] += 1
                if runs[game] == 3:
                    break
                # On with the game: the seat's first listed move.
                r = me.ok("act", action=me.ok("legal")["actions"][0], rev=me.rev)
                for c in (a, b, s):
                    c.pump(lambda x: x.rev >= r["rev"])
            for c in (a, b, s):
                c.close()
        self.assertTrue(runs["stones"] > 0, "no run of moves taken back: %r" % runs)

    def test_views_and_refusals(self):
        a, b, code = start_two(self)
        s = self.client("Spec")
        s.ok("spectate", room=code)
        s.pump(lambda x: x.view is not None)
        self.assertEqual(a.rev, 1)
        self.assertNotIn("you", s.view)
        self.assertEqual(public(a.view), public(b.view))
        self.assertEqual(public(a.view), s.view)
        self.assertRegex(a.view["seed_commit"], "^[0-9a-f]{64}$")
        self.assertIsNone(a.view["result"])
        me = actor([a, b])
        other = b if me is a else a
        self.assertEqual(other.ok("legal")["actions"], [])
        legal = me.ok("legal")["actions"]
        self.assertTrue(legal)
        other.err("act", "not_your_turn", action=legal[0])
        s.err("act", "not_in_game", action=legal[0])
        me.err("act", "bad_action", action="pass")
        me.err("act", "bad_action", action={"type": "no-such-thing"})
        me.err("act", "stale", action=legal[0], rev=me.rev - 1)
        # Nothing moved: no diff reached anyone, the rev is the same.
        for c in (a, b, s):
            c.drain(0.1)
            self.assertEqual(c.count("diff"), 0)
        r = me.ok("act", action=legal[0], rev=me.rev)
        self.assertEqual(r["rev"], 2)
        for c in (a, b, s):
            c.pump(lambda x: x.rev == 2)
        self.assertEqual(public(a.view), s.view)
        # A sync gives exactly the view the diffs built.
        built = json.loads(json.dumps(b.view))
        b.ok("sync")
        b.pump(lambda x: x.count("state") == 2)
        self.assertEqual(built, b.view)

    def test_an_accepted_act_answers_with_its_id_whatever_its_form(self):
        a, b, _ = start_two(self)
        # A string, a negative and a large integer, and none: the reply is
        # {"re": id, "ok": true, "rev": N} with the id as sent, or no "re".
        for rid in ["m-1", -7, 9007199254740993, None]:
            me = actor([a, b])
            acts = me.ok("legal")["actions"]
            rev = me.rev
            msg = {"op": "act", "action": acts[0], "rev": rev}
            if rid is not None:
                msg["id"] = rid
            me.send(msg)
            while True:
                m = me.read()
                if "ev" in m:
                    me.on_event(m)
                    continue
                break
            self.assertEqual(m.get("ok"), True, m)
            self.assertEqual(m["rev"], rev + 1, m)
            if rid is None:
                self.assertNotIn("re", m)
            else:
                self.assertEqual(m["re"], rid)
                self.assertIs(type(m["re"]), type(rid))
            a.pump(lambda x: x.rev == rev + 1)
            b.pump(lambda x: x.rev == rev + 1)

    def test_every_legal_action_is_accepted_as_listed(self):
        a, b, _ = start_two(self)
        for _ in range(25):
            me = actor([a, b])
            if me is None:
                break
            acts = me.ok("legal")["actions"]
            rev = me.rev
            me.ok("act", action=acts[len(acts) // 2], rev=rev)
            a.pump(lambda x: x.rev == rev + 1)
            b.pump(lambda x: x.rev == rev + 1)

    def test_resume_with_and_without_rev(self):
        a, b, _ = start_two(self)
        token = b.token
        b.close()
        for _ in range(3):
            me = actor([a])
            if me is None:
                break
            rev = a.rev
            a.ok("act", action=a.ok("legal")["actions"][0])
            a.pump(lambda x: x.rev == rev + 1)
        b2 = self.client("Bo")
        b2.view = json.loads(json.dumps(b.view))
        b2.rev = b.rev
        b2.ok("resume", token=token, rev=b.rev)
        b2.pump(lambda x: x.rev == a.rev)
        self.assertEqual(b2.count("state"), 0)
        self.assertEqual(public(b2.view), public(a.view))
        # A second resume, without rev, replaces b2 and gets a whole state.
        b3 = self.client("Bo")
        r = b3.ok("resume", token=token)
        self.assertEqual(r["seat"], 1)
        b3.pump(lambda x: x.view is not None)
        self.assertEqual(b3.view, b2.view)
        b2.pump(lambda x: x.count("replaced") == 1)
        self.client("Eve").err("resume", "bad_token", token="A" * 43)
        self.client("Eve").err("resume", "bad_token", token="not a token")

    def test_a_bot_keeps_the_seat_of_a_player_who_leaves(self):
        a, b, _ = start_two(self, "sorcerers")
        token = b.token
        b.ok("leave")
        a.pump(lambda x: any(e["ev"] == "room" and e["seats"][1]["kind"] == "bot"
                             for e in x.events))
        # The game goes on: whenever seat 1 is to act, its bot does.
        start = a.rev
        while a.rev < start + 12 and a.view["result"] is None:
            if a.seat in a.view["active"]:
                acts = a.ok("legal")["actions"]
                rev = a.ok("act", action=acts[0])["rev"]
                a.pump(lambda x: x.rev >= rev)
            else:
                a.pump(lambda x, r=a.rev: x.rev > r)
        moved_by_bot = [e for e in a.events if e["ev"] == "diff"]
        self.assertGreater(len(moved_by_bot), 0)
        # The player comes back with the token and the bot steps aside.
        b2 = self.client("Bo")
        r = b2.ok("resume", token=token)
        self.assertEqual(r["seat"], 1)
        b2.pump(lambda x: x.view is not None)
        def back(x):
            kinds = [e["seats"][1]["kind"] for e in x.events if e["ev"] == "room"]
            return "bot" in kinds and kinds[-1] == "human" and kinds.index("bot") < len(kinds) - 1
        a.pump(back)
        a.drain(0.1)
        b2.drain(0.1)
        self.assertEqual(public(a.view), public(b2.view))

    def play_with_bots(self, game, seats, **opts):
        a = self.client("Ann")
        a.ok("create", game=game, seats=seats, options=opts)
        a.err("record", "game_not_over")
        a.ok("start", bots=True)
        a.pump(lambda x: x.view is not None)
        steps = 0
        while a.ended is None:
            if a.seat in a.view["active"]:
                acts = a.ok("legal")["actions"]
                self.assertTrue(acts)
                # A decision made in steps can be cancelled: never picking
                # that keeps the game going forward, so it always ends.
                acts = [x for x in acts if x.get("type") != "cancel"] or acts
                rev = a.ok("act", action=acts[steps % len(acts)])["rev"]
                a.pump(lambda x: x.rev >= rev)
                steps += 1
            else:
                m = a.read(timeout=20)
                if "ev" in m:
                    a.on_event(m)
        a.drain(0.1)
        self.assertRegex(a.ended["seed"], "^[0-9a-f]{64}$")
        self.assertEqual(a.view["result"]["seed"], a.ended["seed"])
        rec = a.ok("record")["record"]
        self.assertEqual(rec["game"], game)
        self.assertEqual(rec["seed"], a.ended["seed"])
        self.assertEqual([s["kind"] for s in rec["seats"]], ["human"] + ["bot"] * (seats - 1))
        self.assertGreater(len(rec["actions"]), 0)
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump(rec, f)
        try:
            out = subprocess.run([CONCLAVE, "replay", f.name], capture_output=True, text=True,
                                 timeout=60)
            self.assertEqual(out.returncode, 0, out.stderr)
            self.assertIn("actions accepted", out.stdout)
            # A record altered by one action no longer replays.
            rec["actions"] = rec["actions"][1:]
            with open(f.name, "w") as g:
                json.dump(rec, g)
            out = subprocess.run([CONCLAVE, "replay", f.name], capture_output=True, text=True,
                                 timeout=60)
            self.assertNotEqual(out.returncode, 0)
        finally:
            os.unlink(f.name)

    def test_bots_finish_stones(self):
        self.play_with_bots("stones", 3)

    def test_bots_finish_stones_cooperative_solo(self):
        self.play_with_bots("stones", 1, variant="cooperative")

    def test_bots_finish_sorcerers(self):
        self.play_with_bots("sorcerers", 2)


if __name__ == "__main__":
    main()
