#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""/metrics on the HTTP listener: the whole page parses with Prometheus' own
parser (Debian's python3-prometheus-client), and its values are what a
scripted session did: connections by transport, bytes, rooms by game and
status, seats connected, actions accepted and refused by code, rate
limiting, the journal, rooms restored at start."""
import http.client
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import unittest

try:
    from prometheus_client.parser import text_string_to_metric_families
except ImportError:  # an interpreter of its own (pyenv, venv): Debian's package
    sys.path.append("/usr/lib/python3/dist-packages")
    from prometheus_client.parser import text_string_to_metric_families

from harness import (CONCLAVED, LIVENESS, Client, HandshakeRefused, Server, WsClient, wait_until,
                     ws_connect)


def scrape(port):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=LIVENESS)
    conn.request("GET", "/metrics")
    r = conn.getresponse()
    body = r.read().decode()
    conn.close()
    assert r.status == 200, r.status
    assert r.getheader("Content-Type").startswith("text/plain; version=0.0.4"), \
        r.getheader("Content-Type")
    samples = {}
    types = {}
    for fam in text_string_to_metric_families(body):
        types[fam.name] = fam.type
        for s in fam.samples:
            samples[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return samples, types


def value(samples, name, **labels):
    return samples.get((name, tuple(sorted(labels.items()))))


class Counted(Client):
    """A TCP client that counts the bytes it sends."""

    def __init__(self, port, name=None):
        self.sent = 0
        super().__init__(port, name)

    def send(self, obj):
        data = json.dumps(obj).encode() + b"\n"
        self.sent += len(data)
        self.sock.sendall(data)

    def send_raw(self, data):
        self.sent += len(data)
        self.sock.sendall(data)


class Metrics(unittest.TestCase):
    def setUp(self):
        self.srv = Server("--bot-delay", "0", "--rate", "20", "--rate-burst", "20", http=True)
        self.clients = []

    def tearDown(self):
        for c in self.clients:
            c.close()
        self.assertEqual(self.srv.stop(), 0)

    def tcp(self, name):
        c = Counted(self.srv.port, name)
        self.clients.append(c)
        return c

    def test_values_follow_a_session(self):
        s0, types = scrape(self.srv.http_port)
        self.assertEqual(types["conclave_journal_flush_seconds"], "histogram")
        self.assertEqual(types["conclave_connections"], "gauge")
        self.assertEqual(types["conclave_actions_accepted"], "counter")  # name without _total
        self.assertEqual(value(s0, "conclave_connections", transport="tcp"), 0)
        self.assertGreater(value(s0, "process_resident_memory_bytes"), 0)

        a, b = self.tcp("Ann"), self.tcp("Bo")
        a.ok("create", game="sorcerers", seats=2)
        b.ok("join", room=a.room)
        a.ok("start")
        a.pump(lambda x: x.view is not None)
        b.pump(lambda x: x.view is not None)
        rng = random.Random(15)
        acts = 0
        while acts < 6 and a.view["result"] is None:
            me = a if a.seat in a.view["active"] else b
            legal = me.ok("legal")["actions"]
            rev = me.rev
            me.ok("act", action=rng.choice(legal), rev=rev)
            acts += 1
            for c in (a, b):
                c.pump(lambda x: x.rev == rev + 1)
        me = a if a.seat in a.view["active"] else b
        me.err("act", "bad_action", action={"type": "no such thing"})
        me.err("act", "stale", action=me.ok("legal")["actions"][0], rev=me.rev - 1)
        idle = [c for c in (a, b) if c.seat not in a.view["active"]]
        for c in idle:  # (in a phase where both act, nobody is idle)
            c.err("act", "not_your_turn", action={"type": "pass"})
        ws = WsClient(self.srv.http_port, "Cy")
        self.clients.append(ws)
        ws.ok("spectate", room=a.room)
        # A flood: over the rate of 20 (bursts of 20), some are refused.
        flood = self.tcp("Dee")
        for i in range(40):
            flood.send({"op": "ping", "id": i})
        limited = 0
        for _ in range(40):
            m = flood.read()
            if m.get("ok") is False and m["error"]["code"] == "rate_limited":
                limited += 1
        self.assertGreater(limited, 0)
        for c in (a, b):
            c.answers()  # (the flood has read the answer to each of its lines)

        s, _ = scrape(self.srv.http_port)
        self.assertEqual(value(s, "conclave_connections", transport="tcp"), 3)
        self.assertEqual(value(s, "conclave_connections", transport="websocket"), 1)
        self.assertEqual(value(s, "conclave_connections_accepted_total", transport="tcp"), 3)
        self.assertEqual(value(s, "conclave_connections_accepted_total", transport="websocket"), 1)
        self.assertEqual(value(s, "conclave_rooms", game="sorcerers", status="playing"), 1)
        self.assertEqual(value(s, "conclave_rooms", game="stones", status="playing"), 0)
        self.assertEqual(value(s, "conclave_seats_connected"), 2)
        self.assertEqual(value(s, "conclave_spectators"), 1)
        self.assertEqual(value(s, "conclave_act_requests_total", result="ok"), acts)
        self.assertEqual(value(s, "conclave_act_requests_total", result="bad_action"), 1)
        self.assertEqual(value(s, "conclave_act_requests_total", result="stale"), 1)
        self.assertEqual(value(s, "conclave_act_requests_total", result="not_your_turn"),
                         len(idle) or None)
        self.assertEqual(value(s, "conclave_actions_accepted_total", game="sorcerers"), acts)
        self.assertEqual(value(s, "conclave_rate_limited_total"), limited)
        self.assertEqual(value(s, "conclave_requests_refused_total", code="rate_limited"), limited)
        # Every byte our TCP clients sent was read (each got its answer).
        sent = sum(c.sent for c in (a, b, flood))
        self.assertEqual(value(s, "conclave_received_bytes_total", transport="tcp"), sent)
        self.assertGreater(value(s, "conclave_sent_bytes_total", transport="tcp"), 0)
        self.assertGreater(value(s, "conclave_received_bytes_total", transport="websocket"), 0)
        # The journal took the create, two seats, the start and each action,
        # and flushed them in jobs the histograms count.
        self.assertGreaterEqual(value(s, "conclave_journal_records_total"), 4 + acts)
        jobs = value(s, "conclave_journal_flush_seconds_count")
        self.assertGreater(jobs, 0)
        self.assertEqual(value(s, "conclave_journal_records_per_flush_count"), jobs)
        self.assertEqual(value(s, "conclave_journal_records_per_flush_sum"),
                         value(s, "conclave_journal_records_total"))
        self.assertEqual(value(s, "conclave_journal_flush_seconds_bucket", le="+Inf"), jobs)
        # The room's records after its first (a few hundred bytes) wait in
        # memory and the write-ahead file; its journal gets them at 2 KiB.
        self.assertGreater(value(s, "conclave_journal_lag_bytes"), 0)
        self.assertLess(value(s, "conclave_journal_lag_bytes"), 2048)

    def test_write_jobs_run_on_the_loop_unless_told_the_pool(self):
        """By default a store's first write job runs on the event loop (no
        job has been slow yet); with --write-jobs pool none does, and the
        journal is written all the same."""
        for extra, on_loop in (((), True), (("--write-jobs", "pool"), False)):
            srv = Server(*extra, http=True)
            try:
                a = Client(srv.port, "Ann")
                self.clients.append(a)
                a.ok("create", game="stones", seats=2)
                s, _ = scrape(srv.http_port)
                jobs = value(s, "conclave_journal_flush_seconds_count")
                self.assertGreater(jobs, 0)
                loop_jobs = value(s, "conclave_journal_loop_jobs_total")
                if on_loop:
                    self.assertGreater(loop_jobs, 0)
                    self.assertLessEqual(loop_jobs, jobs)
                else:
                    self.assertEqual(loop_jobs, 0)
            finally:
                self.assertEqual(srv.stop(), 0)

    def test_a_lobby_left_alone_expires_without_other_traffic(self):
        # Only HTTP scrapes reach the server after the creator goes: the
        # lobby's expiry clock must start when its last connection closes.
        srv = Server("--lobby-ttl", "1", http=True)
        try:
            c = Client(srv.port, "Ann")
            c.ok("create", game="stones", seats=2)
            s, _ = scrape(srv.http_port)
            self.assertEqual(value(s, "conclave_rooms", game="stones", status="lobby"), 1)
            c.close()
            wait_until(lambda: value(scrape(srv.http_port)[0], "conclave_rooms", game="stones",
                                     status="lobby") == 0,
                       lambda: "the lobby was never dropped", timeout=LIVENESS)
        finally:
            self.assertEqual(srv.stop(), 0)

    def test_bot_actions_by_level(self):
        a = self.tcp("Ann")
        a.ok("create", game="sorcerers", seats=2)
        a.ok("start", bots=True)
        a.pump(lambda x: x.view is not None)
        while a.view["result"] is None and a.seat not in a.view["active"]:
            rev = a.rev
            a.pump(lambda x: x.rev > rev, timeout=LIVENESS)
        s, _ = scrape(self.srv.http_port)
        bots = value(s, "conclave_bot_actions_total", level="random")
        total = value(s, "conclave_actions_accepted_total", game="sorcerers")
        self.assertEqual(bots, total)  # only the bot has acted (the harness's bots are random)
        self.assertEqual(value(s, "conclave_bot_actions_total", level="hard"), 0)


# One event per line: ts, level and event first, then key=value fields whose
# values are plain words or double-quoted with \" and \\ escaped.
LINE = re.compile(r'ts=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ level=(debug|info|warn|error) '
                  r'event=[a-z_]+( [a-z][a-z0-9_]*=([^\s"=\\]+|"([^"\\]|\\.)*"))*')


class Logs(unittest.TestCase):
    def test_every_line_is_one_event_of_key_value_fields(self):
        srv = Server("--bot-delay", "0", "--verbose", http=True)
        try:
            a = Client(srv.port, "Ann")
            a.ok("create", game="stones", seats=3)
            a.ok("start", bots=True)
            a.pump(lambda x: x.view is not None)
            # An origin with a space and a quote is logged as one quoted value.
            with self.assertRaises(HandshakeRefused):
                ws_connect(srv.http_port, origin='http://evil.example/a "b"')
            a.close()
            srv.proc.send_signal(signal.SIGTERM)
            self.assertEqual(srv.proc.wait(LIVENESS), 0)
            lines = srv.log_bytes().decode().splitlines()
        finally:
            srv.stop()
        self.assertGreater(len(lines), 3)
        for line in lines:
            self.assertRegex(line, "^" + LINE.pattern + "$")
        events = [re.search(r" event=(\S+)", l).group(1) for l in lines]
        for want in ("listening", "http_listening", "bot_seat", "websocket_origin_refused",
                     "stopping", "journal_summary", "stopped"):
            self.assertIn(want, events)
        refused = [l for l in lines if "event=websocket_origin_refused" in l][0]
        self.assertIn('origin="http://evil.example/a \\"b\\""', refused)


class Restored(unittest.TestCase):
    def test_rooms_restored_at_start_are_counted(self):
        data = tempfile.mkdtemp(prefix="conclave-it-")
        self.addCleanup(shutil.rmtree, data, True)

        def start():
            p = subprocess.Popen([CONCLAVED, "--listen", "127.0.0.1:0", "--http", "127.0.0.1:0",
                                  "--data-dir", data, "--sleep-after", "1"], stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL)
            port = int(re.match(rb"listening on 127\.0\.0\.1:(\d+)", p.stdout.readline()).group(1))
            http_port = int(re.match(rb"http on http://127\.0\.0\.1:(\d+)/",
                                     p.stdout.readline()).group(1))
            return p, port, http_port

        def stop(p):
            p.send_signal(signal.SIGTERM)
            self.assertEqual(p.wait(LIVENESS), 0)
            p.stdout.close()

        p, port, http_port = start()
        for game in ("stones", "element"):
            c = Client(port, "Ann")
            c.ok("create", game=game, seats=2)
            c.close()
        s, _ = scrape(http_port)
        self.assertEqual(value(s, "conclave_rooms_restored_total"), 0)
        stop(p)
        p, port, http_port = start()
        try:
            s, _ = scrape(http_port)
            self.assertEqual(value(s, "conclave_rooms_restored_total"), 2)
            self.assertEqual(value(s, "conclave_rooms", game="stones", status="lobby"), 1)
            self.assertEqual(value(s, "conclave_rooms_sleeping"), 0)  # lobbies never sleep
            # A started game nobody is in sleeps, still counted; a resume
            # wakes it.
            a = Client(port, "Ann")
            code = a.ok("create", game="sorcerers", seats=2)["room"]
            b = Client(port, "Bo")
            b.ok("join", room=code)
            a.ok("start")
            token = a.token
            a.close()
            b.close()
            wait_until(lambda: value(scrape(http_port)[0], "conclave_rooms_sleeping") == 1,
                       lambda: "the game did not go to sleep")
            s, _ = scrape(http_port)
            self.assertEqual(value(s, "conclave_rooms", game="sorcerers", status="playing"), 1)
            c = Client(port, "Ann")
            c.ok("resume", token=token)
            c.pump(lambda x: x.view is not None)
            s, _ = scrape(http_port)
            self.assertEqual(value(s, "conclave_rooms_sleeping"), 0)
            self.assertEqual(value(s, "conclave_rooms_woken_total"), 1)
            c.close()
        finally:
            stop(p)


if __name__ == "__main__":
    unittest.main()
