#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The server's output over real TCP: a reader that is cut off for reading
too slowly gets an error line as the last thing before the end of the stream,
while other rooms keep answering; replies to pipelined requests come back in
the order the requests were sent."""
import json
import socket
import time

from harness import ServerTest, main, wait_until

CUT_OFF_LOG = b"event=slow_reader_cut_off"


class Output(ServerTest):
    server_args = ("--bot-delay", "0", "--write-queue", "65536", "--rate", "1000000",
                   "--rate-burst", "1000000")

    def test_slow_reader_gets_error_line_before_eof(self):
        slow = self.client("Slow")
        slow.ok("create", game="stones", seats=2)
        slow.ok("start", bots=True)
        fast = self.client("Fast")
        fast.ok("create", game="stones", seats=2)
        fast.ok("start", bots=True)
        fast.pump(lambda c: c.view is not None)
        # Ask for full states without reading any, until the server says it
        # has cut this reader off; the other room answers meanwhile.
        burst = b'{"op":"sync"}\n' * 500
        def cut_off():
            if CUT_OFF_LOG in self.srv.log_bytes():
                return True
            slow.sock.settimeout(5)
            slow.sock.sendall(burst)
            fast.answers()
            return False

        wait_until(cut_off, lambda: "slow reader was not cut off", poll=0)
        # Everything that arrives from now on, up to the end of the stream.
        data = slow.buf
        slow.sock.settimeout(10)
        while True:
            chunk = slow.sock.recv(1 << 20)
            if not chunk:
                break
            data += chunk
        self.assertTrue(data.endswith(b"\n"), "the stream ends inside a line")
        lines = data.split(b"\n")[:-1]
        last = json.loads(lines[-1])
        self.assertEqual(last.get("ev"), "error", "last line before EOF: %r" % lines[-1][:200])
        self.assertEqual(last["error"]["code"], "server_busy")
        self.assertTrue(last["error"]["message"])
        errors = [ln for ln in lines if b'"ev":"error"' in ln]
        self.assertEqual(len(errors), 1, "one error line")
        self.assertEqual(self.srv.log_bytes().count(CUT_OFF_LOG), 1, "logged once")
        fast.ok("ping")
        fast.ok("sync")
        self.assertTrue(self.srv.alive())

    def test_pipelined_replies_in_order(self):
        c = self.client("Ann")
        c.ok("create", game="stones", seats=2)
        c.ok("start", bots=True)
        ops = ["ping", "legal", "sync", "nonsense", "list"]
        reqs = [{"id": i, "op": ops[i % len(ops)]} for i in range(1, 301)]
        reqs.append({"id": "last", "op": "ping"})
        c.send_raw(b"".join(json.dumps(r).encode() + b"\n" for r in reqs))
        got = []
        while len(got) < len(reqs):
            m = c.read()
            if "ev" in m:
                c.on_event(m)
            else:
                got.append(m["re"])
        self.assertEqual(got, [r["id"] for r in reqs])


if __name__ == "__main__":
    main()
