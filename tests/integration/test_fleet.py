#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Join by code across a fleet: two conclaved game servers, each with a
stand-in of its Agones SDK sidecar (test_agones.py), and a stand-in of the
Agones allocator service that both ask where a room is.

The allocator stand-in is a test double of the one endpoint the server
uses, as Agones 1.56 documents it (allocation.swagger.json, vendored in
deploy/kubernetes/schemas/): POST /gameserverallocation over HTTPS that
requires a client certificate (mTLS, as the allocator does by default).
Every request body is validated against the vendored schema. It answers
like Agones: the game servers are tried selector by selector, in order; the
first match is allocated (a Ready one becomes Allocated) and returned with
its address and ports; none answers 429. The game servers' `rooms` Lists
are the sidecar stand-ins', so what a server tells its sidecar is what the
allocator selects on. No real cluster is involved."""
import json
import os
import shutil
import signal
import socket
import ssl
import subprocess
import tempfile
import threading
import time
import unittest
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import jsonschema

from harness import CONCLAVE, LIVENESS, Client, Server, wait_until
from test_agones import Sidecar
from test_metrics import scrape, value

SWAGGER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "deploy",
                       "kubernetes", "schemas", "agones-1.56.0", "allocation.swagger.json")
FLEET = "conclave"
NAMESPACE = "games"


def openssl(*args):
    subprocess.run(["openssl"] + list(args), check=True, capture_output=True)


def make_ca(d, name):
    key, crt = os.path.join(d, name + ".key"), os.path.join(d, name + ".crt")
    openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
            "-nodes", "-keyout", key, "-out", crt, "-days", "2", "-subj", "/CN=" + name)
    return key, crt


def make_cert(d, name, ca, ext):
    key, csr, crt = (os.path.join(d, name + s) for s in (".key", ".csr", ".crt"))
    extfile = os.path.join(d, name + ".ext")
    with open(extfile, "w") as f:
        f.write(ext + "\n")
    openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", key, "-out", csr, "-subj", "/CN=" + name)
    openssl("x509", "-req", "-in", csr, "-CA", ca[1], "-CAkey", ca[0], "-CAcreateserial",
            "-out", crt, "-days", "2", "-extfile", extfile)
    return key, crt


class Allocator:
    """The stand-in allocator service: game servers are dicts with name,
    state, address, ports ({name: port}) and a sidecar (whose List is the
    server's `rooms` List) or fixed `values`."""

    def __init__(self, certs, slow=()):
        with open(SWAGGER) as f:
            swagger = json.load(f)
        self.validator = jsonschema.Draft4Validator(
            {"$ref": "#/definitions/allocationAllocationRequest",
             "definitions": swagger["definitions"]})
        self.servers = []
        self.requests = []  # (client certificate's CN, body)
        self.invalid = []
        self.slow = set(slow)  # codes answered after a while
        self.lock = threading.Lock()
        alloc = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_POST(self):
                n = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(n)) if n else None
                cert = self.connection.getpeercert()
                cn = dict(x[0] for x in cert["subject"])["commonName"] if cert else None
                if self.path != "/gameserverallocation":
                    code, obj = 404, {"error": "no such endpoint"}
                else:
                    code, obj = alloc.allocate(cn, body)
                data = (json.dumps(obj) if isinstance(obj, dict) else obj).encode()
                self.send_response(code)
                self.send_header("Content-Type",
                                 "application/json" if isinstance(obj, dict) else "text/plain")
                self.send_header("Content-Length", str(len(data)))
                self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(data)

        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(certs["server"][1], certs["server"][0])
        ctx.verify_mode = ssl.CERT_REQUIRED
        ctx.load_verify_locations(certs["ca"][1])
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.socket = ctx.wrap_socket(self.httpd.socket, server_side=True)
        self.httpd.handle_error = lambda *a: None  # refused handshakes are expected
        self.port = self.httpd.server_address[1]
        self.url = "https://127.0.0.1:%d" % self.port
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def values(self, gs):
        if "sidecar" in gs:
            return gs["sidecar"].state()[1]
        return gs["values"]

    def allocate(self, cn, body):
        errors = [e.message for e in self.validator.iter_errors(body)]
        code_asked = None
        with self.lock:
            self.requests.append((cn, body))
            if errors:
                self.invalid.append(errors)
                return 400, "invalid request: %s" % errors
        for sel in body.get("gameServerSelectors", []):
            want = sel.get("lists", {}).get("rooms", {}).get("containsValue")
            code_asked = code_asked or want
        if code_asked in self.slow:
            time.sleep(1.5)
        with self.lock:
            if body.get("namespace") != NAMESPACE:
                return 429, "there is no available GameServer to allocate"
            for sel in body.get("gameServerSelectors", []):
                labels = sel.get("matchLabels", {})
                state = sel.get("gameServerState", "READY")
                want = sel.get("lists", {}).get("rooms", {}).get("containsValue")
                for gs in self.servers:
                    if (labels.get("agones.dev/fleet") == FLEET and gs["state"] == state
                            and (want is None or want in self.values(gs))):
                        gs["state"] = "ALLOCATED"
                        return 200, {
                            "gameServerName": gs["name"], "address": gs["address"],
                            "ports": [{"name": k, "port": v} for k, v in gs["ports"].items()],
                            "nodeName": "node-1", "source": "local"}
        return 429, "there is no available GameServer to allocate"

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


class Fleet(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="conclave-fleet-")
        ca = make_ca(cls.dir, "fleet-ca")
        stranger = make_ca(cls.dir, "stranger-ca")
        cls.certs = {
            "ca": ca,
            "stranger-ca": stranger,
            "server": make_cert(cls.dir, "allocator", ca,
                                "subjectAltName=IP:127.0.0.1,DNS:localhost"),
            "client": make_cert(cls.dir, "conclaved", ca, "extendedKeyUsage=clientAuth"),
            "stranger": make_cert(cls.dir, "stranger", stranger, "extendedKeyUsage=clientAuth"),
        }

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    def setUp(self):
        self.alloc = Allocator(self.certs, slow=("SW0W23",))
        self.servers, self.sidecars, self.clients = [], [], []

    def tearDown(self):
        for c in self.clients:
            c.close()
        for s in self.servers:
            # SIGINT stops at once; SIGTERM would drain the running games.
            s.proc.send_signal(signal.SIGINT)
            s.proc.wait(LIVENESS)
            log = s.log_bytes().decode(errors="replace")
            self.assertEqual(s.stop(), 0, "server exit status; its log ends:\n" + log[-3000:])
        for s in self.sidecars:
            s.close()
        self.alloc.close()

    def server(self, name, cert="client", url=None, ca="ca"):
        side = Sidecar()
        self.sidecars.append(side)
        key, crt = self.certs[cert]
        env = dict(os.environ, AGONES_SDK_HTTP_PORT=str(side.port), HOSTNAME=name)
        srv = Server("--agones", "--agones-allocator", url or self.alloc.url,
                     "--agones-allocator-cert", crt, "--agones-allocator-key", key,
                     "--agones-allocator-ca", self.certs[ca][1],
                     "--agones-namespace", NAMESPACE, "--agones-fleet", FLEET,
                     "--bot-delay", "0", http=True, env=env)
        self.servers.append(srv)
        gs = {"name": name, "state": "READY", "address": "127.0.0.1",
              "ports": {"game": srv.port, "http": srv.http_port}, "sidecar": side}
        with self.alloc.lock:
            self.alloc.servers.append(gs)
        srv.sidecar = side
        return srv

    def client(self, srv, name):
        c = Client(srv.port, name)
        self.clients.append(c)
        return c

    def listed(self, srv, code):
        wait_until(lambda: code in srv.sidecar.state()[1],
                   lambda: "room %s never reached the rooms List" % code)

    def test_join_spectate_and_resume_are_sent_where_the_room_is(self):
        a, b = self.server("conclave-a"), self.server("conclave-b")
        ann = self.client(a, "Ann")
        ann.ok("create", game="sorcerers", seats=2)
        room = ann.room
        self.listed(a, room)

        bo = self.client(b, "Bo")
        r = bo.err("join", "room_elsewhere", room=room.lower())
        self.assertEqual(r["error"]["server"], a.addr)
        self.assertEqual(r["error"]["web"], "127.0.0.1:%d" % a.http_port)
        self.assertIn(room, r["error"]["message"])
        r = bo.err("spectate", "room_elsewhere", room=room)
        self.assertEqual(r["error"]["server"], a.addr)
        # Nothing was joined on B, and B was asked as Agones would be.
        self.assertEqual(b.sidecar.state(), (0, []))
        cn, body = self.alloc.requests[0]
        self.assertEqual(cn, "conclaved")
        self.assertEqual(body["namespace"], NAMESPACE)
        self.assertEqual([s["gameServerState"] for s in body["gameServerSelectors"]],
                         ["ALLOCATED", "READY"])
        for s in body["gameServerSelectors"]:
            self.assertEqual(s["matchLabels"], {"agones.dev/fleet": FLEET})
            self.assertEqual(s["lists"], {"rooms": {"containsValue": room}})
        self.assertEqual(self.alloc.invalid, [])

        # A code no server holds, or a malformed one (not even asked).
        asked = len(self.alloc.requests)
        bo.err("join", "room_not_found", room="ZZZZZZ")
        self.assertEqual(len(self.alloc.requests), asked + 1)
        bo.err("join", "room_not_found", room="not a code")
        self.assertEqual(len(self.alloc.requests), asked + 1)
        # The lookups are counted by answer on /metrics.
        samples, types = scrape(b.http_port)
        self.assertEqual(types["conclave_fleet_lookups"], "gauge")
        self.assertEqual(value(samples, "conclave_fleet_lookups_total", answer="elsewhere"), 2)
        self.assertEqual(value(samples, "conclave_fleet_lookups_total", answer="nowhere"), 1)
        self.assertEqual(value(samples, "conclave_fleet_lookups_total", answer="failed"), 0)
        self.assertEqual(value(samples, "conclave_fleet_lookups"), 0)
        self.assertEqual(value(samples, "conclave_requests_refused_total", code="room_elsewhere"), 2)

        # Bo goes there; a resume of his seat through B is sent to A too,
        # when it names the room; without it B cannot know and says so.
        bo_a = self.client(a, "Bo")
        bo_a.ok("join", room=room)
        ann.ok("start")
        bo_a.close()
        bo2 = self.client(b, "Bo")
        r = bo2.err("resume", "room_elsewhere", token=bo_a.token, room=room)
        self.assertEqual(r["error"]["server"], a.addr)
        bo2.err("resume", "bad_token", token=bo_a.token)
        r = self.client(a, "Bo").ok("resume", token=bo_a.token, room=room)
        self.assertEqual(r["seat"], 1)

    def test_replies_keep_their_order_while_the_fleet_is_asked(self):
        a, b = self.server("conclave-a"), self.server("conclave-b")
        c = self.client(b, "Cy")
        # Requests sent behind a slow lookup wait for it, up to a bound;
        # beyond it they are refused at once, with their ids.
        c.send({"id": "j", "op": "join", "room": "SW0W23"})
        for i in range(40):
            c.send({"id": i, "op": "ping"})
        got = [c.read(timeout=LIVENESS) for _ in range(41)]
        refused = [m["re"] for m in got[:8]]
        self.assertEqual(refused, list(range(32, 40)))
        for m in got[:8]:
            self.assertEqual(m["error"]["code"], "rate_limited")
        self.assertEqual(got[8]["re"], "j")
        self.assertEqual(got[8]["error"]["code"], "room_not_found")
        self.assertEqual([m["re"] for m in got[9:]], list(range(32)))
        self.assertTrue(all(m["ok"] for m in got[9:]))
        # A connection that goes while its lookup is under way.
        d = self.client(b, "Dee")
        d.send({"id": 1, "op": "join", "room": "SW0W23"})
        d.close()
        time.sleep(2)
        self.client(b, "Eve").answers()
        self.assertTrue(b.alive())

    def test_the_server_itself_is_no_redirect(self):
        b = self.server("conclave-b")
        # The allocator still lists a room B no longer holds.
        with self.alloc.lock:
            self.alloc.servers.append({"name": "conclave-b", "state": "ALLOCATED",
                                       "address": "127.0.0.1", "values": ["Q2Q2Q2"],
                                       "ports": {"game": b.port, "http": b.http_port}})
        self.client(b, "Bo").err("join", "room_not_found", room="Q2Q2Q2")

    def test_an_untrusted_or_absent_allocator_is_server_busy(self):
        c = self.server("conclave-c", cert="stranger")
        self.client(c, "Cy").err("join", "server_busy", room="K7QF2M")
        # An allocator whose certificate is not signed by the CA given.
        e = self.server("conclave-e", ca="stranger-ca")
        self.client(e, "Eve").err("join", "server_busy", room="K7QF2M")
        self.assertEqual(self.alloc.requests, [])
        samples, _ = scrape(e.http_port)
        self.assertEqual(value(samples, "conclave_fleet_lookups_total", answer="failed"), 1)
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            closed = "https://127.0.0.1:%d" % s.getsockname()[1]
        d = self.server("conclave-d", url=closed)
        dee = self.client(d, "Dee")
        r = dee.err("spectate", "server_busy", room="K7QF2M")
        self.assertIn("fleet", r["error"]["message"])
        dee.answers()

    def test_the_cli_follows_the_redirect(self):
        a, b = self.server("conclave-a"), self.server("conclave-b")
        ann = self.client(a, "Ann")
        ann.ok("create", game="sorcerers", seats=2)
        self.listed(a, ann.room)
        state = tempfile.mkdtemp(prefix="conclave-cli-")
        try:
            env = dict(os.environ, XDG_STATE_HOME=state, NO_COLOR="1")
            out = subprocess.run([CONCLAVE, "--server", b.addr, "--name", "Bo", "--json", "join",
                                  ann.room], capture_output=True, text=True, env=env,
                                 timeout=60)
            self.assertEqual(out.returncode, 0, out.stderr)
            replies = [m for m in map(json.loads, out.stdout.splitlines()) if "re" in m]
            self.assertEqual(len(replies), 1, out.stdout)
            self.assertTrue(replies[0]["ok"], replies[0])
            self.assertEqual(replies[0]["seat"], 1)
            ann.pump(lambda x: any(e.get("ev") == "room" and e["seats"][1]["name"] == "Bo"
                                   for e in x.events))
            # The seat is kept under the server that holds it.
            out = subprocess.run([CONCLAVE, "--server", a.addr, "--json", "resume"],
                                 capture_output=True, text=True, env=env, timeout=60)
            self.assertEqual(out.returncode, 0, out.stderr)
            replies = [m for m in map(json.loads, out.stdout.splitlines()) if "re" in m]
            self.assertTrue(replies[-1]["ok"], replies)
            # At a terminal the player is told where the game is.
            out = subprocess.run([CONCLAVE, "--server", b.addr, "--name", "Cy", "spectate",
                                  ann.room], input="quit\n", capture_output=True, text=True,
                                 env=env, timeout=60)
            self.assertIn("the room is on %s" % a.addr, out.stderr)
        finally:
            shutil.rmtree(state, ignore_errors=True)


if __name__ == "__main__":
    unittest.main(verbosity=2)
