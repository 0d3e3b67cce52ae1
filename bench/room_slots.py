#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""How many of a server's room slots a stream of hostile connections holds.

usage: room_slots.py CONCLAVED [CONNECTIONS [ADDRESSES]]

Starts the real conclaved with its default limits (but --connect-rate and
--bot-delay 0, so the stream is not slowed down), then opens CONNECTIONS
connections (default 3000) from ADDRESSES loopback addresses (default 1,
127.0.0.1 up), each sending a few random requests (create, start with or
without bots, leave, join or spectate its room) and going. Every 100
connections a control player from 127.0.0.250 creates a room and leaves
it. Prints, from /metrics, the most rooms held at once by status, the
creates of the stream refused, the control creates refused and the
rooms evicted to make room (docs/operations.md, "Room slots")."""
import os
import random
import re
import sys
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests",
                                "integration"))
from harness import Client, Server, random_requests  # noqa: E402


def rooms_by_status(port):
    text = urllib.request.urlopen("http://127.0.0.1:%d/metrics" % port, timeout=30).read()
    held = {}
    for st, n in re.findall(rb'^conclave_rooms\{[^}]*status="(\w+)"[^}]*\} (\S+)$', text, re.M):
        held[st.decode()] = held.get(st.decode(), 0) + int(float(n))
    return held


def main():
    conns = int(sys.argv[2]) if len(sys.argv) > 2 else 3000
    addrs = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    import harness
    harness.CONCLAVED = sys.argv[1]
    srv = Server("--connect-rate", "100000", "--bot-delay", "0", "--max-per-address", "1000",
                 http=True)
    rng = random.Random(7717)
    peak = {}
    refused = control_refused = 0
    started = time.time()
    try:
        for n in range(conns):
            c = Client(srv.port, "R%d" % n, source="127.0.0.%d" % (1 + n % addrs))
            refused += random_requests(c, rng, rng.randrange(1, 6))
            c.close()
            if n % 100 == 99:
                ctl = Client(srv.port, "Control", source="127.0.0.250")
                r = ctl.req("create", game="stones", seats=2)
                control_refused += not r.get("ok")
                ctl.req("leave")
                ctl.close()
                held = rooms_by_status(srv.http_port)
                for k, v in held.items():
                    peak[k] = max(peak.get(k, 0), v)
                peak["all"] = max(peak.get("all", 0), sum(held.values()))
        evicted = srv.log_bytes().count(b"event=room_evicted")
    finally:
        srv.stop()
    print("connections %d from %d address(es) in %.0f s" % (conns, addrs, time.time() - started))
    print("most rooms held at once: %s" % ", ".join("%s %d" % kv for kv in sorted(peak.items())))
    print("creates of the stream refused: %d; control creates refused: %d of %d; evicted: %d"
          % (refused, control_refused, conns // 100, evicted))


if __name__ == "__main__":
    main()
