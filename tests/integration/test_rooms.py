#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Rooms over real TCP: create, codes typed loosely, join refusals, hosts,
spectators, public listing, leaving, and the room event."""
import re

from harness import ServerTest, main


class Rooms(ServerTest):
    def test_create_and_join_by_code(self):
        a, b, c = self.client("Ann"), self.client("Bo"), self.client("Cy")
        a.err("create", "unknown_game", game="chess", seats=2)
        a.err("create", "bad_option", game="stones", seats=9)
        a.err("create", "bad_option", game="stones", seats=2, options={"variant": "expert"})
        a.err("create", "bad_request", seats=2)
        r = a.ok("create", game="stones", seats=2)
        code = r["room"]
        self.assertRegex(code, r"^[0-9A-HJKMNP-TV-Z]{6}$")
        self.assertEqual(r["seat"], 0)
        self.assertGreaterEqual(len(r["token"]), 43)
        typed = (code[:3] + "-" + code[3:]).lower()
        b.err("join", "seat_taken", room=typed, seat=0)
        r = b.ok("join", room=typed)
        self.assertEqual(r["seat"], 1)
        c.err("join", "room_full", room=code)
        c.err("join", "room_not_found", room="ZZZZZZ")
        a.drain()
        room = [e for e in a.events if e["ev"] == "room"][-1]
        self.assertEqual(room["status"], "lobby")
        self.assertEqual(room["host"], 0)
        self.assertEqual([s["name"] for s in room["seats"]], ["Ann", "Bo"])
        self.assertEqual([s["kind"] for s in room["seats"]], ["human", "human"])

    def test_start_rules(self):
        a, b, c = self.client("Ann"), self.client("Bo"), self.client("Cy")
        code = a.ok("create", game="stones", seats=3)["room"]
        b.ok("join", room=code)
        b.err("start", "not_host")
        a.err("start", "not_enough_players")
        c.err("start", "not_in_room")
        c.ok("spectate", room=code)
        a.ok("start", bots=True)
        c.err("join", "already_started", room=code)
        a.pump(lambda x: x.view is not None)
        c.pump(lambda x: x.view is not None)
        room = [e for e in a.events if e["ev"] == "room"][-1]
        self.assertEqual(room["status"], "playing")
        self.assertEqual(room["seats"][2]["kind"], "bot")
        self.assertEqual(room["spectators"], 1)

    def test_host_handoff_and_leave(self):
        a, b = self.client("Ann"), self.client("Bo")
        code = a.ok("create", game="stones", seats=3)["room"]
        b.ok("join", room=code)
        a.ok("leave")
        b.pump(lambda x: any(e["ev"] == "room" and e["host"] == 1 for e in x.events))
        a.err("leave", "not_in_room")
        b.ok("start", bots=True)

    def test_public_list(self):
        a, b = self.client("Ann"), self.client("Bo")
        a.ok("create", game="stones", seats=2, options={"public": True})
        self.client("Cy").ok("create", game="stones", seats=2)
        rooms = b.ok("list")["rooms"]
        self.assertEqual(len(rooms), 1)
        self.assertEqual(rooms[0]["host"], "Ann")
        self.assertEqual(rooms[0]["game"], "stones")
        self.assertNotIn("public", rooms[0]["options"])

    def test_chat(self):
        a, b, s = self.client("Ann"), self.client("Bo"), self.client("Spec")
        code = a.ok("create", game="stones", seats=2)["room"]
        b.ok("join", room=code)
        s.ok("spectate", room=code)
        s.ok("chat", text="hi\nall")
        a.err("chat", "bad_request", text="x" * 501)
        b.pump(lambda x: x.count("chat") == 1)
        chat = [e for e in b.events if e["ev"] == "chat"][0]
        self.assertEqual((chat["seat"], chat["name"], chat["text"]), (-1, "Spec", "hi all"))

    def seat_shown(self, c, seat, **want):
        """Reads c's events until a room event shows `seat` as `want`."""
        def shown(x):
            rooms = [e for e in x.events if e["ev"] == "room"]
            return rooms and all(rooms[-1]["seats"][seat].get(k) == v for k, v in want.items())
        c.pump(shown)
        return [e for e in c.events if e["ev"] == "room"][-1]

    def join_and_vanish(self, name, code):
        """A player whose join is taken but whose connection goes before
        the reply (with the seat's token) could reach it."""
        c = self.client(name)
        c.send({"id": 99, "op": "join", "room": code})
        c.close()

    def test_a_join_whose_reply_was_lost_is_taken_back(self):
        a = self.client("Ann")
        code = a.ok("create", game="stones", seats=2)["room"]
        self.join_and_vanish("Bo", code)
        self.seat_shown(a, 1, name="Bo", kind="human", connected=False)
        # Someone else does not get it: it is not theirs.
        self.client("Cy").err("join", "room_full", room=code)
        self.client("Cy").err("join", "seat_taken", room=code, seat=1)
        # The same player trying again does, with a token of its own.
        b = self.client("Bo")
        r = b.ok("join", room=code)
        self.assertEqual(r["seat"], 1)
        self.assertTrue(r["token"])
        room = self.seat_shown(a, 1, name="Bo", connected=True)
        self.assertEqual([s["name"] for s in room["seats"]], ["Ann", "Bo"])
        self.assertIn(b"event=seat_reclaimed room=%s seat=1" % code.encode(), self.srv.log_bytes())
        a.ok("start")
        b.pump(lambda x: x.view is not None)

    def test_a_taken_back_seat_voids_the_old_token(self):
        a, b = self.client("Ann"), self.client("Bo")
        code = a.ok("create", game="stones", seats=2)["room"]
        old = b.ok("join", room=code)["token"]
        b.close()
        self.seat_shown(a, 1, connected=False)
        self.client("Bo").ok("join", room=code)
        self.client("Bo").err("resume", "bad_token", token=old)

    def test_a_start_with_a_seat_nobody_holds(self):
        a = self.client("Ann")
        code = a.ok("create", game="stones", seats=3)["room"]
        b = self.client("Bo")
        token = b.ok("join", room=code)["token"]
        b.close()
        self.join_and_vanish("Cy", code)
        self.seat_shown(a, 2, name="Cy", connected=False)
        self.seat_shown(a, 1, name="Bo", connected=False)
        # A game would wait for ever on those seats.
        r = a.err("start", "not_enough_players")
        self.assertIn("seat 1 (Bo) has nobody connected", r["error"]["message"])
        a.err("start", "not_enough_players", bots=[None, None, "random"])
        # With bots, a bot keeps each such seat, with its player's name.
        a.ok("start", bots=True)
        room = self.seat_shown(a, 1, kind="bot")
        self.assertEqual([(s["name"], s["kind"]) for s in room["seats"]],
                         [("Ann", "human"), ("Bo", "bot"), ("Cy", "bot")])
        # And its player takes it back by resuming.
        back = self.client()
        r = back.ok("resume", token=token)
        self.assertEqual(r["seat"], 1)
        back.pump(lambda x: x.view is not None)
        self.seat_shown(a, 1, name="Bo", kind="human", connected=True)

    def test_room_limit(self):
        self.srv.stop()
        from harness import Server
        self.srv = Server("--max-rooms", "2")
        a = self.client()
        a.ok("create", game="stones", seats=2)
        self.client("B").ok("create", game="stones", seats=2)
        self.client("C").err("create", "server_busy", game="stones", seats=2)


if __name__ == "__main__":
    main()
