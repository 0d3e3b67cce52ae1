#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What rooms cost the server, measured from outside: a live room as its
game grows, a room asleep on disk, and the wake-up of a sleeping room.

usage: room_mem.py CONCLAVED [options]

Every phase starts the real conclaved on 127.0.0.1:0 with a temporary data
directory (tests/integration/harness.py), its limits raised out of the way
and --fsync never unless --fsync says otherwise (memory and wake-ups are
measured here, not the disk's flush: bench_load measures that; with
`always`, the server's default, each room also holds back up to 2 KiB of
its journal in memory, which `never` does not). Memory is the RSS of
/proc/PID/smaps_rollup and, beside it, the heap in use (glibc's
malloc_stats(), called through gdb while the server is quiet; "-" without
gdb): RSS keeps the pages of memory freed since, the heap in use does not.

  live   For each game, 2 * --rooms clients connect and say hello (the
         reference), then make --rooms two-seat rooms (two human seats,
         both connected, the game started) and play them to each
         checkpoint (10, 200 and 2,000 actions). The two clients of a room
         pick the actions: uniformly among `legal` for the first
         --random-first actions, then actions that keep the game going
         (GAMES below). Cost per room = (memory - reference) / rooms.
  many   One server: --many started rooms at once, each a player (one
         connection) against a random bot, the players making
         --many-actions moves each: memory per room over the same number of
         hello'd connections, and the server's open files.
  sleep  One server with --sleep-after 1: COUNT started two-seat rooms
         (two players connect, create, join, start and disconnect), the
         four games in turn, 250 at a time; memory once /metrics shows
         conclave_rooms_sleeping = COUNT / 2 and = COUNT. Cost per room =
         (memory - memory before the rooms) / COUNT, and over the second
         half alone; the server's open files. Also the round trips of a
         lobby `join`, a `create` and a `resume` of a sleeping room's seat,
         before the rooms and with all of them asleep. A larger COUNT runs
         only when the smaller one's pace says it fits in the budget.
  wake   For each game, --wake-rooms rooms played to --wake-actions
         actions as in `live` (running games) and as many played uniformly
         to their end with default options (finished games, of the game's
         natural length), all asleep; then --wake-rounds rounds of, for
         every room: a `join` of a lobby room (the reference; then
         `leave`), a `spectate` of the sleeping room timed to its reply
         and to its `state` (then `leave`); and a wait until every room
         sleeps again.

options:
  --phases LIST         live,many,sleep,wake (default all four)
  --many N              live rooms at once in the many phase (default 10000)
  --many-actions N      moves of each room's player there (default 5)
  --games LIST          stones,sorcerers,element,arcana (default all)
  --rooms N             live rooms per game (default 100)
  --checkpoints LIST    actions per live room (default 10,200,2000)
  --random-first N      uniform actions before prolonging (default 100)
  --sleep-counts LIST   sleeping rooms (default 10000,100000)
  --wake-rooms N        rooms per game and kind in the wake phase (default 24)
  --wake-actions N      actions of a running game to wake (default 1000)
  --wake-rounds N       spectates of each room (default 8)
  --budget S            the run's time budget in seconds (default 900): a
                        phase that would not fit is skipped or cut short,
                        and says so
  --seed N              the clients' random seed (default 1)
"""
import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests",
                                "integration"))
import harness  # noqa: E402
from harness import Client, Server  # noqa: E402

# Per game: the options of the measured rooms, the C struct of its state,
# and how its players keep a game going once --random-first actions are
# played (a preference, else a uniform pick among `legal`):
#   stones     a cast's first step, then `cancel` (docs/rules/stones.md
#              9.1): the position comes back to where it was;
#   sorcerers  max_turns 0 (no turn limit), `pass`, then `done`;
#   element    `draw` 0, then steps of the Sage; the game still ends at its
#              300-round limit (docs/rules/element.md 4.1), about 3,600
#              actions;
#   arcana     a duel (best of three games in one room), never an action
#              that scores (place, monument, pop): each game of the three
#              still ends at its 50-round limit.
GAMES = {
    "stones": ({}, "stones_state"),
    "sorcerers": ({"max_turns": 0}, "sorc_state"),
    "element": ({}, "element_state"),
    "arcana": ({"duel": True}, "arc_state"),
}

# --max-rooms counts rooms awake (one journal open each; the server checks
# that connections and rooms fit its descriptor limit); sleepers are not
# counted.
LIMITS = ("--connect-rate", "1000000", "--max-per-address", "100000", "--max-connections",
          "4000", "--max-rooms", "10000", "--max-rooms-per-connection", "1000000",
          "--max-rooms-per-address", "1000000", "--rate", "1000000", "--rate-burst", "1000000",
          "--bot-delay", "0", "--bot-max-level", "random", "--idle-timeout", "86400",
          "--hello-timeout", "600")
FSYNC = ["never"]  # --fsync


def first_of(acts, *preds):
    for p in preds:
        for a in acts:
            if p(a):
                return a
    return None


def prolong(game, acts, rng):
    """An action that keeps the game going, or None (then: uniform)."""
    if game == "stones":
        return first_of(acts, lambda a: a["type"] == "cancel",
                        lambda a: a["type"] in ("cast", "pay_pair") and len(a) == 2)
    if game == "sorcerers":
        return first_of(acts, lambda a: a["type"] == "pass", lambda a: a["type"] == "done")
    if game == "element":
        a = first_of(acts, lambda a: a["type"] == "draw" and a["count"] == 0)
        steps = [a for a in acts if a["type"] == "step"]
        return a or (rng.choice(steps) if steps else None)
    if game == "arcana":
        keep = [a for a in acts if a["type"] not in ("place", "monument", "pop")]
        return rng.choice(keep) if keep else None
    return None


# ---- The client ----


class Player(Client):
    """A client that tracks only what picking an action needs (the rev,
    `active` and `result` of its view), without applying whole patches or
    checking hashes, so that one process can drive hundreds of rooms; the
    integration tests check the views."""

    def reset(self):
        super().reset()
        self.active = []
        self.result = None

    def on_event(self, m):
        ev = m["ev"]
        if ev == "state":
            self.rev, self.seat = m["rev"], m["seat"]
            self.active = list(m["view"]["active"])
            self.result = m["view"]["result"]
        elif ev == "diff":
            assert self.rev is not None and m["rev"] == self.rev + 1, "diff out of order"
            self.rev = m["rev"]
            for op in m["patch"]:
                p = op["path"]
                if p == "/active":
                    self.active = list(op["value"])
                elif p.startswith("/active/"):
                    i = p[len("/active/"):]
                    if op["op"] == "remove":
                        del self.active[int(i)]
                    elif op["op"] == "add":
                        self.active.insert(len(self.active) if i == "-" else int(i), op["value"])
                    else:
                        self.active[int(i)] = op["value"]
                elif p == "/result":
                    self.result = op.get("value")
        elif ev == "ended":
            self.ended = m["result"]

    def wait(self, rid, timeout=harness.LIVENESS):
        return super().wait(rid, timeout)

    def wait_ok(self, rid):
        r = self.wait(rid)
        assert r.get("ok") is True, "refused: %r" % r
        return r

    def upto(self, rev):
        while self.rev is None or self.rev < rev:
            m = self.read(timeout=harness.LIVENESS)
            if "ev" in m:
                self.on_event(m)


class Room:
    def __init__(self, game, a, b):
        self.game, self.a, self.b = game, a, b
        self.code = None
        self.stuck = False

    @property
    def rev(self):
        return self.a.rev or 0

    def over(self):
        return self.a.result is not None or self.stuck


def make_rooms(srv, game, pairs, options):
    """Two-seat rooms from (a, b) pairs of hello'd Players: a creates, b
    joins, a starts; both hold the starting state."""
    rooms = [Room(game, a, b) for a, b in pairs]
    ids = [r.a.send_req("create", game=game, seats=2, options=options) for r in rooms]
    for r, rid in zip(rooms, ids):
        r.code = r.a.wait_ok(rid)["room"]
    ids = [r.b.send_req("join", room=r.code) for r in rooms]
    for r, rid in zip(rooms, ids):
        r.b.wait_ok(rid)
    ids = [r.a.send_req("start") for r in rooms]
    for r, rid in zip(rooms, ids):
        r.a.wait_ok(rid)
    for r in rooms:
        r.a.upto(1)
        r.b.upto(1)
    return rooms


def play(rooms, until, rng, random_first, deadline, uniform=False):
    """Plays every room to `until` actions (rev until + 1: rev 1 is the
    start) or its end, all rooms a step at a time: one `legal` per room,
    then one `act` per room, then every diff read. False when the deadline
    stopped it first."""
    while True:
        live = [r for r in rooms if not r.over() and r.rev - 1 < until]
        if not live:
            return True
        if time.time() > deadline:
            return False
        asked = []
        for r in live:
            actor = r.a if r.a.seat in r.a.active else r.b
            asked.append((r, actor, actor.send_req("legal")))
        acting = []
        for r, actor, rid in asked:
            acts = actor.wait_ok(rid)["actions"]
            if not acts:
                # `active` said otherwise: ask the other seat.
                actor = r.b if actor is r.a else r.a
                acts = actor.wait_ok(actor.send_req("legal"))["actions"]
            if not acts:
                r.stuck = True
                continue
            pick = None
            if not uniform and r.rev - 1 >= random_first:
                pick = prolong(r.game, acts, rng)
            if pick is None:
                pick = rng.choice(acts)
            acting.append((r, actor, actor.send_req("act", action=pick, rev=actor.rev)))
        for r, actor, rid in acting:
            rev = actor.wait_ok(rid)["rev"]
            r.a.upto(rev)
            r.b.upto(rev)


# ---- What the server holds ----


def mem(pid):
    """Rss and Anonymous of the process, in KiB."""
    out = {}
    with open("/proc/%d/smaps_rollup" % pid) as f:
        for line in f:
            k, _, v = line.partition(":")
            if k in ("Rss", "Pss", "Anonymous"):
                out[k] = int(v.split()[0])
    return out


def open_files(pid):
    return len(os.listdir("/proc/%d/fd" % pid))


def metric(srv, name):
    text = urllib.request.urlopen("http://127.0.0.1:%d/metrics" % srv.http_port,
                                  timeout=60).read().decode()
    m = re.search(r"^%s(?:\{[^}]*\})? (\S+)$" % re.escape(name), text, re.M)
    return int(float(m.group(1))) if m else None


def wait_metric(srv, name, want, timeout):
    deadline = time.time() + timeout
    while True:
        v = metric(srv, name)
        if v == want:
            return True
        if time.time() > deadline:
            return False
        time.sleep(0.1)


def settle(pid):
    """RSS once the server is quiet: two readings 0.3 s apart that agree."""
    last = mem(pid)
    for _ in range(20):
        time.sleep(0.3)
        now = mem(pid)
        if now["Rss"] == last["Rss"]:
            return now
        last = now
    return last


def heap(srv, pid):
    """Bytes of the server's heap in use (glibc's malloc_stats(), called
    through gdb, which prints it to the server's log), or None when gdb
    cannot attach. Unlike RSS, it does not keep what was freed: the
    difference between the two is memory the heap holds but has not
    returned."""
    before = len(srv.log_bytes())
    try:
        subprocess.run(["gdb", "-p", str(pid), "-batch", "-nx", "-ex",
                        "call (void) malloc_stats()"], capture_output=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    deadline = time.time() + 5
    while time.time() < deadline:
        tail = srv.log_bytes()[before:].decode(errors="replace")
        m = re.search(r"Total \(incl\. mmap\):\s*system bytes\s*=\s*\d+\s*in use bytes\s*=\s*(\d+)",
                      tail)
        if m:
            return int(m.group(1))
        time.sleep(0.05)
    return None


def struct_sizes(conclaved, names):
    """sizeof of each struct, from the binary's debug information (gdb), or
    {} when that cannot be read."""
    args = ["gdb", "-batch", "-nx"]
    for n in names:
        args += ["-ex", "p sizeof(struct %s)" % n]
    try:
        out = subprocess.run(args + [conclaved], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired):
        return {}
    vals = re.findall(r"^\$\d+ = (\d+)$", out, re.M)
    return dict(zip(names, map(int, vals))) if len(vals) == len(names) else {}


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def ms(x):
    return "%.2f" % (x * 1000)


def start(*extra, http=False):
    srv = Server(*(LIMITS + ("--fsync", FSYNC[0]) + extra), http=http)
    return srv, srv.proc.pid


def hello_all(port, names):
    """Hello'd Players, the hellos pipelined."""
    ps = [Player(port) for _ in names]
    ids = [p.send_req("hello", proto=1, name=n) for p, n in zip(ps, names)]
    for p, rid in zip(ps, ids):
        p.wait_ok(rid)
    return ps


# ---- many live rooms ----


def phase_many(o, out, deadline):
    """--many live rooms at once, each a player against a random bot
    (one connection a room), the players making --many-actions moves each:
    the memory per room over the same number of hello'd connections, and
    the server's open files (one per connection, and the journals kept
    open)."""
    n = o.many
    srv, pid = start("--sleep-after", "86400", "--max-connections", str(n + 100),
                     "--max-rooms", str(n + 10))
    try:
        ps = hello_all(srv.port, ["M%d" % i for i in range(n)])
        base, base_heap, fds0 = settle(pid), heap(srv, pid), open_files(pid)
        for op, kw in (("create", dict(game="stones", seats=2)), ("start", dict(bots=True))):
            ids = [p.send_req(op, **kw) for p in ps]
            for p, rid in zip(ps, ids):
                p.wait_ok(rid)
        for p in ps:
            p.upto(1)
        moves = 0
        for _ in range(o.many_actions):
            if time.time() > deadline:
                break
            for p in ps:
                while p.seat not in p.active and p.result is None:
                    p.on_event(p.read(timeout=harness.LIVENESS))
            playing = [p for p in ps if p.result is None]
            asked = [(p, p.send_req("legal")) for p in playing]
            acting = [(p, p.send_req("act", action=p.wait_ok(rid)["actions"][0], rev=p.rev))
                      for p, rid in asked]
            for p, rid in acting:
                p.upto(p.wait_ok(rid)["rev"])
                moves += 1
        m, h, fds = settle(pid), heap(srv, pid), open_files(pid)
        out.append("| live rooms | a player and a bot each, moves | RSS reference / with the rooms "
                   "| RSS per room | heap per room | open files before / with the rooms |")
        out.append("|---:|---:|---|---:|---:|---|")
        out.append("| %d | %d | %.1f / %.1f MiB | %.1f KiB | %s | %d / %d |" % (
            n, moves, base["Rss"] / 1024, m["Rss"] / 1024, (m["Rss"] - base["Rss"]) / n,
            "%.1f KiB" % ((h - base_heap) / 1024 / n) if h and base_heap else "-", fds0, fds))
        for p in ps:
            p.close()
    finally:
        srv.stop()


# ---- live ----


def phase_live(o, out, deadline):
    sizes = struct_sizes(o.conclaved, [GAMES[g][1] for g in o.games] + ["room", "seat"])
    if sizes:
        out.append("layout (gdb, from the binary): struct room %d B (of which %d seats of %d B); "
                   "game states: %s" % (sizes["room"], sizes["room"] // sizes["seat"],
                                        sizes["seat"], ", ".join("%s %d B" % (g, sizes[GAMES[g][1]])
                                                                 for g in o.games)))
    rows = []
    for gi, game in enumerate(o.games):
        if deadline - time.time() < 30:
            out.append("live %s: skipped, the budget is spent" % game)
            continue
        # Each game gets its share of what is left of the phase.
        game_deadline = time.time() + (deadline - time.time()) / (len(o.games) - gi)
        # Two connections per room, and the reference's as many again.
        srv, pid = start("--sleep-after", "86400", "--max-connections",
                         str(max(4000, 2 * o.rooms + 100)), "--max-rooms", str(max(10000, o.rooms)))
        try:
            rng = random.Random(o.seed)
            ps = hello_all(srv.port, ["P%d" % i for i in range(2 * o.rooms)])
            base = settle(pid)
            base_heap = heap(srv, pid)
            t0 = time.time()
            rooms = make_rooms(srv, game, list(zip(ps[0::2], ps[1::2])), GAMES[game][0])
            for cp in o.checkpoints:
                done = play(rooms, cp, rng, o.random_first, game_deadline)
                m = settle(pid)
                h = heap(srv, pid)
                n = len(rooms)
                revs = [r.rev - 1 for r in rooms]
                rows.append(dict(game=game, cp=cp, n=n, base=base["Rss"], rss=m["Rss"],
                                 per=(m["Rss"] - base["Rss"]) / n,
                                 heap=(h - base_heap) / 1024 / n if h and base_heap else None,
                                 med=statistics.median(revs), lo=min(revs), hi=max(revs),
                                 ended=sum(r.a.result is not None for r in rooms),
                                 stuck=sum(r.stuck for r in rooms), cut=not done,
                                 secs=time.time() - t0, state=sizes.get(GAMES[game][1]),
                                 fds=open_files(pid)))
                if not done:
                    break
            assert srv.alive(), "the server died"
            for p in ps:
                p.close()
        finally:
            srv.stop()
    out.append("")
    out.append("| game | actions | reached: median (min-max) | ended | rooms | RSS reference / "
               "with the rooms | RSS per room | heap in use per room | state | "
               "RSS - state | heap - state |")
    out.append("|---|---:|---|---:|---:|---|---:|---:|---:|---:|---:|")
    for r in rows:
        # A room holds its game's state once (an action is tried on the
        # lobby's spare block).
        one = r["state"] / 1024 if r["state"] else None
        out.append("| %s | %d | %d (%d-%d)%s | %d | %d | %.1f / %.1f MiB | %.1f KiB | %s | %s | "
                   "%s | %s |"
                   % (r["game"], r["cp"], r["med"], r["lo"], r["hi"],
                      " (cut by the budget)" if r["cut"] else "", r["ended"], r["n"],
                      r["base"] / 1024, r["rss"] / 1024, r["per"],
                      "%.1f KiB" % r["heap"] if r["heap"] is not None else "-",
                      "%.1f KiB" % one if one else "-",
                      "%.1f KiB" % (r["per"] - one) if one else "-",
                      "%.1f KiB" % (r["heap"] - one) if one and r["heap"] is not None else "-"))
    for r in rows:
        if r["stuck"]:
            out.append("%s: %d rooms had no legal action for either seat before their end"
                       % (r["game"], r["stuck"]))
    if rows:
        out.append("open files with the rooms: %s"
                   % ", ".join("%s %d" % (r["game"], r["fds"]) for r in rows
                               if r["cp"] == rows[0]["cp"]))
    return rows


# ---- sleep ----


def make_sleepers(srv, count, batch, deadline, codes, tokens, step=None, offset=0):
    """count started two-seat rooms, `batch` at a time, everyone gone
    after (the first 64 rooms' codes and seat 0 tokens kept). Returns
    (rooms made, [(rooms made in all, seconds)] for every `step` rooms,
    counted from `offset` rooms made before)."""
    made = 0
    pace = []
    step = step or max(1, count // 10)
    t_tenth = time.time()
    names = list(GAMES)
    while made < count and time.time() < deadline:
        k = min(batch, count - made)
        a = [Player(srv.port) for _ in range(k)]
        b = [Player(srv.port) for _ in range(k)]
        ia = []
        for i, p in enumerate(a):
            p.send_raw(b'{"id":1,"op":"hello","proto":1,"name":"A"}\n' +
                       json.dumps({"id": 2, "op": "create", "game": names[(made + i) % 4],
                                   "seats": 2}).encode() + b"\n")
            ia.append(p)
        for p in b:
            p.send_raw(b'{"id":1,"op":"hello","proto":1,"name":"B"}\n')
        for p in a:
            p.wait_ok(1)
            p.wait_ok(2)
        for pa, pb in zip(a, b):
            pb.wait_ok(1)
            pb.send_raw(json.dumps({"id": 2, "op": "join", "room": pa.room}).encode() + b"\n")
        for p in b:
            p.wait_ok(2)
        for p in a:
            p.send_raw(b'{"id":3,"op":"start"}\n')
        for p in a:
            p.wait_ok(3)
        for pa, pb in zip(a, b):
            if len(codes) < 64:
                codes.append(pa.room)
                tokens.append(pa.token)
            pa.close()
            pb.close()
        before = made
        made += k
        if (offset + made) // step > (offset + before) // step:
            now = time.time()
            pace.append((offset + made, now - t_tenth))
            t_tenth = now
    return made, pace


def probe(srv, n, tokens=None):
    """Round trips (s) of n rounds of: a `join` of a lobby room (then
    `leave`; its host stays), a `create` on a new connection (the room
    left at once) and, given tokens, a `resume` of a sleeping room's seat
    on a new connection (closed after, so that the room sleeps again); the
    kinds interleaved, so that they share the machine's moments. Every
    connection is hello'd before its request is timed."""
    times = {"join": [], "create": [], "resume": []}
    h, j = hello_all(srv.port, ["Host", "Joiner"])
    h.wait_ok(h.send_req("create", game="stones", seats=2))
    for i in range(n):
        t = time.perf_counter()
        j.wait_ok(j.send_req("join", room=h.room))
        times["join"].append(time.perf_counter() - t)
        j.wait_ok(j.send_req("leave"))
        (c,) = hello_all(srv.port, ["C"])
        t = time.perf_counter()
        c.wait_ok(c.send_req("create", game="stones", seats=2))
        times["create"].append(time.perf_counter() - t)
        c.wait_ok(c.send_req("leave"))
        c.close()
        if tokens:
            (c,) = hello_all(srv.port, ["R"])
            t = time.perf_counter()
            c.wait_ok(c.send_req("resume", token=tokens[i % len(tokens)]))
            times["resume"].append(time.perf_counter() - t)
            c.close()
    # The host's `leave` comes once the joiner's is durable (its ping is
    # answered after the room's lines): a lobby's last player leaving
    # while lines for it wait for the journal is closed without a reply.
    h.wait_ok(h.send_req("ping"))
    h.wait_ok(h.send_req("leave"))
    h.close()
    j.close()
    return times


def predict(run, count):
    """Seconds to make `count` sleeping rooms, from a smaller run's pace:
    a create costs a + b * (rooms asleep) (it counts the rooms of its
    creator among all of them), fitted to the run's tenths and summed,
    plus the run's wait for the last rooms to sleep."""
    step = max(250, run["count"] // 10)
    xs = [n - step / 2 for n, _ in run["pace"]]
    ys = [dt / step for _, dt in run["pace"]]
    if len(xs) < 2:
        return run["t"] * count / run["count"]
    mx, my = statistics.mean(xs), statistics.mean(ys)
    b = max(0.0, sum((x - mx) * (y - my) for x, y in zip(xs, ys)) /
            (sum((x - mx) ** 2 for x in xs) or 1))
    a = max(0.0, my - b * mx)
    made = sum(dt for _, dt in run["pace"])
    return a * count + b * count * count / 2 + max(0.0, run["t"] - made)


def phase_sleep(o, out, deadline):
    rows = []
    prev = None
    for count in o.sleep_counts:
        left = deadline - time.time()
        if prev is not None:
            guess = predict(prev, count)
            if guess > left:
                out.append("sleep %d: skipped: %d rooms took %.0f s, and at their pace %d would "
                           "take about %.0f s, more than the %.0f s left of the budget"
                           % (count, prev["count"], prev["t"], count, guess, left))
                continue
        srv, pid = start("--sleep-after", "1", http=True)
        try:
            # One lobby of each game, dropped at once, so that what a first
            # room of a game loads is in the reference.
            (w,) = hello_all(srv.port, ["W"])
            for g in GAMES:
                w.wait_ok(w.send_req("create", game=g, seats=2))
                w.wait_ok(w.send_req("leave"))
            w.close()
            before_probe = probe(srv, 50)
            base, base_heap, fds0 = settle(pid), heap(srv, pid), open_files(pid)
            codes, tokens = [], []
            t0 = time.time()
            half = {}
            made, pace = 0, []
            for part in (count // 2, count - count // 2):
                k, p = make_sleepers(srv, part, 250, deadline - 60, codes, tokens,
                                     step=max(250, count // 10), offset=made)
                made += k
                pace += p
                slept = wait_metric(srv, "conclave_rooms_sleeping", made, 120)
                if not half:
                    half = dict(made=made, rss=settle(pid)["Rss"], heap=heap(srv, pid))
            t_slept = time.time() - t0
            m, h, fds = settle(pid), heap(srv, pid), open_files(pid)
            after_probe = probe(srv, 50, tokens)
            rows.append(dict(count=made, slept=slept, base=base["Rss"], rss=m["Rss"],
                             per=(m["Rss"] - base["Rss"]) * 1024 / made,
                             heap=(h - base_heap) / made if h and base_heap else None,
                             slope=(m["Rss"] - half["rss"]) * 1024 / (made - half["made"]),
                             heap_slope=(h - half["heap"]) / (made - half["made"])
                             if h and half["heap"] else None,
                             fds0=fds0, fds=fds, t=t_slept, pace=pace,
                             before=before_probe, after=after_probe))
            prev = rows[-1]
            assert srv.alive(), "the server died"
        finally:
            srv.stop()

    def b(x):
        return "%.0f B" % x if x is not None else "-"
    out.append("")
    out.append("| rooms asleep | made and asleep in | RSS before / asleep | RSS per room | "
               "RSS per room, second half | heap in use per room | heap, second half | "
               "open files before / asleep |")
    out.append("|---:|---:|---|---:|---:|---:|---:|---|")
    for r in rows:
        out.append("| %d%s | %.0f s | %.1f / %.1f MiB | %s | %s | %s | %s | %d / %d |"
                   % (r["count"], "" if r["slept"] else " (not all asleep!)", r["t"],
                      r["base"] / 1024, r["rss"] / 1024, b(r["per"]), b(r["slope"]),
                      b(r["heap"]), b(r["heap_slope"]), r["fds0"], r["fds"]))
    for r in rows:
        out.append("")
        out.append("%d rooms: seconds per 1,000 rooms made, by tenth of the run: %s"
                   % (r["count"], ", ".join("%.1f" % (dt * 1000 / max(250, r["count"] // 10))
                                            for _, dt in r["pace"])))
        bj, aj = pct(r["before"]["join"], .5), pct(r["after"]["join"], .5)
        out.append("round trips, p50 ms (x the lobby join of the same moment): before the rooms: "
                   "join %s, create %s (%.1f x); with %d asleep: join %s, create %s (%.1f x), "
                   "resume of a sleeping room's seat %s (%.1f x)"
                   % (ms(bj), ms(pct(r["before"]["create"], .5)),
                      pct(r["before"]["create"], .5) / bj, r["count"], ms(aj),
                      ms(pct(r["after"]["create"], .5)), pct(r["after"]["create"], .5) / aj,
                      ms(pct(r["after"]["resume"], .5)), pct(r["after"]["resume"], .5) / aj))
    return rows


# ---- wake ----


def phase_wake(o, out, deadline):
    rows = []
    for gi, game in enumerate(o.games):
        if deadline - time.time() < 20:
            out.append("wake %s: skipped, the budget is spent" % game)
            continue
        game_deadline = time.time() + (deadline - time.time()) / (len(o.games) - gi)
        srv, pid = start("--sleep-after", "1", http=True)
        try:
            rng = random.Random(o.seed)
            n = o.wake_rooms
            ps = hello_all(srv.port, ["P%d" % i for i in range(4 * n)])
            running = make_rooms(srv, game, list(zip(ps[0:2 * n:2], ps[1:2 * n:2])),
                                 GAMES[game][0])
            finished = make_rooms(srv, game, list(zip(ps[2 * n::2], ps[2 * n + 1::2])), {})
            setup_end = time.time() + (game_deadline - time.time()) / 2
            play(running, o.wake_actions, rng, o.random_first, setup_end)
            play(finished, 10 ** 6, rng, 0, setup_end, uniform=True)
            kinds = {"running": running, "finished": [r for r in finished if r.a.result]}
            natural = [r.rev - 1 for r in kinds["finished"]]
            for p in ps:
                p.close()
            total = len(running) + len(finished)
            assert wait_metric(srv, "conclave_rooms_sleeping", total, 60), "rooms do not sleep"
            woken0 = metric(srv, "conclave_rooms_woken_total")
            h, j, s = hello_all(srv.port, ["Host", "Joiner", "Watcher"])
            h.wait_ok(h.send_req("create", game=game, seats=2))
            t = {"join": [], "running": [], "running_state": [], "finished": [],
                 "finished_state": []}
            rounds = 0
            for _ in range(o.wake_rounds):
                if time.time() > game_deadline:
                    break
                for kind in ("running", "finished"):
                    for r in kinds[kind]:
                        t0 = time.perf_counter()
                        j.wait_ok(j.send_req("join", room=h.room))
                        t["join"].append(time.perf_counter() - t0)
                        j.wait_ok(j.send_req("leave"))
                        s.rev = None
                        t0 = time.perf_counter()
                        rid = s.send_req("spectate", room=r.code)
                        s.wait_ok(rid)
                        t1 = time.perf_counter()
                        s.upto(0)
                        t2 = time.perf_counter()
                        t[kind].append(t1 - t0)
                        t[kind + "_state"].append(t2 - t0)
                        assert s.rev == r.rev, "woken at rev %d, slept at %d" % (s.rev, r.rev)
                        s.wait_ok(s.send_req("leave"))
                h.wait_ok(h.send_req("ping"))  # reads the host's room events
                rounds += 1
                assert wait_metric(srv, "conclave_rooms_sleeping", total, 60), "no sleep again"
            woken = metric(srv, "conclave_rooms_woken_total") - woken0
            for c in (h, j, s):
                c.close()
            files = {f: os.path.getsize(os.path.join(d, f))
                     for d, _, fs in os.walk(srv.dir) for f in fs}
            journal = {kind: statistics.median([files.get(r.code + ".journal", 0)
                                                for r in kinds[kind]] or [0])
                       for kind in kinds}
            rows.append(dict(game=game, t=t, rounds=rounds, woken=woken,
                             run_revs=[r.rev - 1 for r in running], natural=natural,
                             journal=journal))
            assert srv.alive(), "the server died"
        finally:
            srv.stop()
    out.append("")
    out.append("| game | room asleep | actions: median (min-max) | samples | spectate p50 / p99 ms "
               "| to its state p50 / p99 ms | lobby join p50 / p99 ms | spectate / join, "
               "p50 and p99 |")
    out.append("|---|---|---|---:|---|---|---|---|")
    for r in rows:
        jn = r["t"]["join"]
        for kind, revs in (("running", r["run_revs"]), ("finished", r["natural"])):
            x = r["t"][kind]
            if not x:
                continue
            xs = r["t"][kind + "_state"]
            out.append("| %s | %s | %d (%d-%d) | %d | %s / %s | %s / %s | %s / %s | "
                       "%.1f x / %.1f x |"
                       % (r["game"], kind, statistics.median(revs), min(revs), max(revs), len(x),
                          ms(pct(x, .5)), ms(pct(x, .99)), ms(pct(xs, .5)), ms(pct(xs, .99)),
                          ms(pct(jn, .5)), ms(pct(jn, .99)), pct(x, .5) / pct(jn, .5),
                          pct(x, .99) / pct(jn, .99)))
    for r in rows:
        out.append("%s: %d rounds, %d wake-ups counted by the server; natural length "
                   "(uniform play to the end, default options) median %d of %d games; "
                   "median journal: running %.0f KiB, finished %.0f KiB"
                   % (r["game"], r["rounds"], r["woken"],
                      statistics.median(r["natural"]) if r["natural"] else 0, len(r["natural"]),
                      r["journal"]["running"] / 1024, r["journal"]["finished"] / 1024))
    return rows


def main():
    ap = argparse.ArgumentParser(usage=__doc__.split("\n\n")[1])
    ap.add_argument("conclaved")
    ap.add_argument("--phases", default="live,many,sleep,wake")
    ap.add_argument("--many", type=int, default=10000)
    ap.add_argument("--many-actions", type=int, default=5)
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--rooms", type=int, default=100)
    ap.add_argument("--checkpoints", default="10,200,2000")
    ap.add_argument("--random-first", type=int, default=100)
    ap.add_argument("--sleep-counts", default="10000,100000")
    ap.add_argument("--wake-rooms", type=int, default=24)
    ap.add_argument("--wake-actions", type=int, default=1000)
    ap.add_argument("--wake-rounds", type=int, default=8)
    ap.add_argument("--budget", type=float, default=900)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--fsync", default="never", choices=("always", "batch", "never"))
    o = ap.parse_args()
    o.games = o.games.split(",")
    o.checkpoints = [int(x) for x in o.checkpoints.split(",")]
    o.sleep_counts = [int(x) for x in o.sleep_counts.split(",")]
    phases = o.phases.split(",")
    harness.CONCLAVED = o.conclaved
    FSYNC[0] = o.fsync
    try:
        import resource
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    except (ImportError, ValueError, OSError):
        pass
    t0 = time.time()
    end = t0 + o.budget
    # Shares of the budget: live 45 %, sleep 35 %, wake the rest; a phase
    # that finishes early leaves its time to the next.
    share = {"live": .40, "many": .10, "sleep": .30, "wake": .20}
    out = ["conclaved %s, %s, %d cores, load average %s at the start"
           % (o.conclaved, time.strftime("%Y-%m-%d"), os.cpu_count(),
              " ".join(open("/proc/loadavg").read().split()[:3]))]
    for ph in ("live", "many", "sleep", "wake"):
        if ph not in phases:
            continue
        rest = sum(share[p] for p in share if p in phases and
                   list(share).index(p) >= list(share).index(ph))
        ph_end = time.time() + (end - time.time()) * share[ph] / rest
        started = time.time()
        out.append("")
        out.append("## %s" % ph)
        {"live": phase_live, "many": phase_many, "sleep": phase_sleep,
         "wake": phase_wake}[ph](o, out, ph_end)
        out.append("(%s: %.0f s)" % (ph, time.time() - started))
        print("\n".join(out), flush=True)
        out = []
    print("\nwhole run: %.0f s" % (time.time() - t0))


if __name__ == "__main__":
    main()
