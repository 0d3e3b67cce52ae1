#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Bounds over real TCP: slow readers are cut off without slowing anyone,
rate limits, connection limits, idle and hello timeouts, clean shutdown."""
import os
import signal
import socket
import subprocess
import time

from harness import CONCLAVED, LIVENESS, Client, Closed, Server, ServerTest, main


def closed_within(c, seconds):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            c.read(timeout=max(0.05, deadline - time.time()))
        except (Closed, ConnectionResetError):
            return True
        except (socket.timeout, TimeoutError):
            return False
    return False


class Limits(ServerTest):
    server_args = ("--bot-delay", "0", "--write-queue", "65536", "--rate", "1000000",
                   "--rate-burst", "1000000")

    def test_slow_reader_is_cut_off(self):
        slow = self.client("Slow")
        fast = self.client("Fast")
        slow.ok("create", game="stones", seats=2)
        slow.ok("start", bots=True)
        slow.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        # Ask for full states and never read them.
        req = b'{"op":"sync"}\n' * 2000
        try:
            for _ in range(40):
                slow.sock.sendall(req)
        except OSError:
            pass
        fast.answers()
        deadline = time.time() + 20
        cut = False
        while time.time() < deadline and not cut:
            try:
                slow.sock.settimeout(1)
                data = slow.sock.recv(1 << 20)
                cut = data == b""
            except ConnectionResetError:
                cut = True
            except socket.timeout:
                pass
        self.assertTrue(cut, "slow reader was not disconnected")
        fast.ok("ping")
        self.assertTrue(self.srv.alive())

    def test_connection_limits(self):
        self.srv.stop()
        self.srv = Server("--max-connections", "3")
        keep = [self.client("A%d" % i) for i in range(3)]
        extra = Client(self.srv.port)
        self.clients.append(extra)
        m = extra.read()
        self.assertEqual(m["error"]["code"], "server_busy")
        keep[0].ok("ping")

    def test_per_address_limit(self):
        self.srv.stop()
        self.srv = Server("--max-per-address", "2")
        self.client("A"), self.client("B")
        extra = Client(self.srv.port)
        self.clients.append(extra)
        self.assertEqual(extra.read()["error"]["code"], "server_busy")


class RateAndTime(ServerTest):
    server_args = ("--rate", "5", "--rate-burst", "10", "--idle-timeout", "1",
                   "--hello-timeout", "1")

    def test_rate_limited(self):
        c = self.client()
        c.send_raw(b"".join(b'{"id":%d,"op":"ping"}\n' % i for i in range(40)))
        codes = []
        for _ in range(40):
            m = c.read()
            codes.append("ok" if m.get("ok") else m["error"]["code"])
        self.assertIn("rate_limited", codes)
        self.assertGreaterEqual(codes.count("ok"), 9)

    def test_idle_and_hello_timeouts(self):
        quiet = Client(self.srv.port)
        self.clients.append(quiet)
        self.assertTrue(closed_within(quiet, 5), "no-hello connection kept open")
        idle = self.client()
        self.assertTrue(closed_within(idle, 5), "idle connection kept open")


class Lifecycle(ServerTest):
    def test_sigterm_exits_quickly_and_cleanly(self):
        c = self.client()
        c.ok("create", game="stones", seats=2)
        self.srv.proc.send_signal(signal.SIGTERM)
        # It stops by itself (a stuck one would not within LIVENESS).
        self.srv.proc.wait(LIVENESS)
        self.assertEqual(self.srv.proc.returncode, 0)

    def test_sample_config_is_read(self):
        sample = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "deploy",
                              "conclaved.conf.sample")
        conf = os.path.join(self.srv.dir, "test.conf")
        with open(sample) as f, open(conf, "w") as g:
            g.write(f.read())
            g.write("max-rooms = 1\n")
        # The command line overrides the file's listen and data-dir.
        srv = Server("--config", conf)
        try:
            a = Client(srv.port, "Ann")
            a.ok("create", game="stones", seats=2)
            Client(srv.port, "Bo").err("create", "server_busy", game="stones", seats=2)
        finally:
            self.assertEqual(srv.stop(), 0)
        bad = os.path.join(self.srv.dir, "bad.conf")
        with open(bad, "w") as g:
            g.write("max-rooms = lots\n")
        out = subprocess.run([CONCLAVED, "--config", bad], capture_output=True, text=True)
        self.assertEqual(out.returncode, 2)
        self.assertIn("bad.conf:1", out.stderr)

    def test_help_and_version(self):
        out = subprocess.run([CONCLAVED, "--help"], capture_output=True, text=True)
        self.assertEqual(out.returncode, 0)
        self.assertIn("--listen", out.stdout)
        out = subprocess.run([CONCLAVED, "--version"], capture_output=True, text=True)
        self.assertRegex(out.stdout, r"^conclaved \d+\.\d+\.\d+")
        out = subprocess.run([CONCLAVED, "--listen", "nonsense"], capture_output=True, text=True)
        self.assertEqual(out.returncode, 2)

    def refused_start(self, *args):
        """Runs a second conclaved that must fail to start: its stderr,
        after it has exited with status 1 (not a signal)."""
        out = subprocess.run([CONCLAVED, "--data-dir", self.srv.dir + "/second"] + list(args),
                             capture_output=True, text=True, timeout=LIVENESS)
        self.assertEqual(out.returncode, 1, out.stderr[-2000:])
        return out.stderr

    def test_a_port_in_use_names_the_option_that_picks_another(self):
        err = self.refused_start("--listen", self.srv.addr)
        self.assertIn("cannot listen on %s: address already in use" % self.srv.addr, err)
        self.assertIn("--listen HOST:PORT", err)
        self.assertIn("make run LISTEN=HOST:PORT", err)

    def test_an_http_port_in_use_is_refused_not_waited_on(self):
        web = Server(http=True)
        try:
            taken = "127.0.0.1:%d" % web.http_port
            # libwebsockets on its own would retry the bind for ever.
            err = self.refused_start("--listen", "127.0.0.1:0", "--http", taken)
            self.assertIn("cannot serve HTTP on %s: address already in use" % taken, err)
            self.assertIn("--http HOST:PORT", err)
            self.assertIn("make run HTTP=HOST:PORT", err)
        finally:
            self.assertEqual(web.stop(), 0)

    def test_http_listens_on_the_address_given_only(self):
        web = Server(http=True)
        try:
            with socket.create_connection(("127.0.0.1", web.http_port), timeout=10):
                pass
            # Every 127.x address reaches this machine: a listener on all
            # interfaces would take this connection too.
            with self.assertRaises(ConnectionRefusedError):
                socket.create_connection(("127.0.0.2", web.http_port), timeout=10).close()
        finally:
            self.assertEqual(web.stop(), 0)

    def test_a_certificate_that_cannot_be_loaded_fails_the_start_cleanly(self):
        junk = os.path.join(self.srv.dir, "junk.pem")
        with open(junk, "w") as f:
            f.write("not a certificate\n")
        err = self.refused_start("--listen", "127.0.0.1:0", "--http", "127.0.0.1:0",
                                 "--tls-cert", junk, "--tls-key", junk)
        self.assertIn("cannot serve HTTP on 127.0.0.1:0", err)
        self.assertIn("--tls-cert and --tls-key", err)
        self.assertNotIn("Sanitizer", err)


if __name__ == "__main__":
    main()
