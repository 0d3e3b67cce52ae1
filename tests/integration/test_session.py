#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Session rules over real TCP: hello first, framing, envelope, errors,
names, ping, and that bad input never costs the connection or the server."""
import socket

from harness import Client, Closed, ServerTest, main


class Session(ServerTest):
    def test_hello_first(self):
        c = Client(self.srv.port)
        self.clients.append(c)
        c.err("create", "hello_required", game="stones", seats=2)
        c.err("list", "hello_required")
        c.ok("ping")
        r = c.ok("hello", proto=1, name="Ann")
        self.assertEqual(r["proto"], 1)
        self.assertTrue(r["server"].startswith("conclaved/"))
        ids = {g["id"] for g in r["games"]}
        self.assertTrue({"stones", "sorcerers"} <= ids)
        self.assertNotIn("fake", ids)
        for g in r["games"]:
            self.assertIsInstance(g["title"], str)
            self.assertLessEqual(g["min_players"], g["max_players"])
            self.assertIsInstance(g["options"], dict)

    def test_unsupported_proto_and_bad_names(self):
        c = Client(self.srv.port)
        self.clients.append(c)
        r = c.err("hello", "proto_unsupported", proto=2, name="Ann")
        self.assertIn(1, r.get("versions", []))
        c.err("hello", "bad_name", proto=1, name="   ")
        c.err("hello", "bad_name", proto=1, name="x" * 33)
        c.err("hello", "bad_name", proto=1, name="a\nb")
        c.err("hello", "bad_name", proto=1)
        c.ok("hello", proto=1, name="  Zoë  ")
        c.ok("create", game="stones", seats=2)
        c.pump(lambda x: x.count("room") == 1)
        self.assertEqual(c.events[-1]["seats"][0]["name"], "Zoë")

    def test_framing_and_envelope(self):
        c = Client(self.srv.port)
        self.clients.append(c)
        c.send_raw(b"\n\r\n   \n")
        c.send_raw(b'{"id":"a-1","op":"hello","proto":1,"name":"Bo"}\r\n')
        r = c.read()
        self.assertEqual(r["re"], "a-1")
        self.assertTrue(r["ok"])
        # A request split across many writes.
        for b in b'{"id":2,"op":"ping"}\n':
            c.send_raw(bytes([b]))
        self.assertEqual(c.read()["re"], 2)
        c.send_raw(b"{not json\n")
        self.assertEqual(c.read()["error"]["code"], "bad_json")
        c.send_raw(b"[1,2]\n")
        self.assertEqual(c.read()["error"]["code"], "bad_request")
        c.send_raw(b'{"id":3}\n')
        r = c.read()
        self.assertEqual((r["re"], r["error"]["code"]), (3, "bad_request"))
        c.send_raw(b'{"id":' + b'"' + b"x" * 65 + b'","op":"ping"}\n')
        self.assertEqual(c.read()["error"]["code"], "bad_request")
        c.send_raw(b'{"id":4,"op":"frobnicate"}\n')
        r = c.read()
        self.assertEqual((r["re"], r["error"]["code"]), (4, "unknown_op"))
        # Unknown fields are ignored.
        r = c.ok("ping", extra={"x": [1, 2]})
        self.assertNotIn("error", r)

    def test_hostile_bytes_keep_connection(self):
        c = self.client()
        c.send_raw(b'{"op":"ping","name":"\xff\xfe"}\n')
        self.assertEqual(c.read()["error"]["code"], "bad_json")
        c.send_raw(b"[" * 5000 + b"]" * 5000 + b"\n")
        self.assertEqual(c.read()["error"]["code"], "bad_json")
        c.send_raw(bytes(range(1, 10)) + b"\x00\x7f garbage\n")
        self.assertFalse(c.read()["ok"])
        c.send_raw(b'{"id":9,"op":"ping"}\n')
        self.assertEqual(c.read()["re"], 9)
        self.assertTrue(self.srv.alive())

    def test_oversized_line_closes_only_that_connection(self):
        other = self.client("Other")
        c = self.client("Big")
        c.send_raw(b'{"id":1,"op":"ping"}\n' + b'{"op":"chat","text":"' + b"y" * 70000 + b'"}\n')
        self.assertEqual(c.read()["re"], 1)  # what came before is answered
        m = c.read()
        self.assertEqual(m["ev"], "error")
        self.assertEqual(m["error"]["code"], "frame_too_large")
        with self.assertRaises((Closed, ConnectionResetError)):
            c.read()
        other.ok("ping")

    def test_max_line_option(self):
        self.srv.stop()
        from harness import Server
        self.srv = Server("--max-line", "1024")
        c = self.client()
        c.send_raw(b'{"op":"chat","text":"' + b"z" * 1100 + b'"}\n')
        self.assertEqual(c.read()["error"]["code"], "frame_too_large")


if __name__ == "__main__":
    main()
