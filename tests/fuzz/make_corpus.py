#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""make_corpus.py - writes the hand-made seed inputs of the fuzz corpora
under tests/fuzz/corpus/<target>/ (files named seed-*): framer streams in
several chunkings and line limits, envelope lines for every op and every
kind of hostile line, and for each game of server/games/games.def inputs
from the positions of its fuzz target's table (fuzz_game.h): every type of
legal action, at the first and the last position that lists it, as the
final action and as a step followed by an altered one; short sequences of
every kind of step from positions spread over the table; the action
spellings of docs/rules/<id>.md; malformed actions; ended games. The
positions and their legal actions are read through a built replay
executable run with FUZZ_GAME_PRINT_LEGAL (--build names the build
directory, default build-fuzzrep). Inputs found by the fuzzers (other
names) are left alone. Deterministic; standard library only.

usage: tests/fuzz/make_corpus.py [--build DIR]
"""
import argparse
import json
import os
import random
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CORPUS = os.path.join(HERE, "corpus")
GAMES_DEF = os.path.join(ROOT, "server", "games", "games.def")
RULES = os.path.join(ROOT, "docs", "rules")


def write(target, name, data):
    if isinstance(data, str):
        data = data.encode()
    d = os.path.join(CORPUS, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "seed-" + name), "wb") as f:
        f.write(data)


def clear(target):
    d = os.path.join(CORPUS, target)
    if os.path.isdir(d):
        for n in os.listdir(d):
            if n.startswith("seed-"):
                os.remove(os.path.join(d, n))


# ---- framer: byte 0 is the limit (0xff: 65536), then [len][bytes] chunks ----

def framed(limit, stream, sizes):
    out = bytearray([limit])
    i = 0
    k = 0
    while i < len(stream):
        n = min(sizes[k % len(sizes)], len(stream) - i, 255)
        out.append(n)
        out += stream[i:i + n]
        i += n
        k += 1
    return bytes(out)


def framer():
    clear("framer")
    lines = b'{"op":"hello","proto":1,"name":"Ann"}\n{"op":"ping"}\n'
    write("framer", "simple-whole", framed(0xff, lines, [255]))
    write("framer", "simple-bytewise", framed(0xff, lines, [1]))
    write("framer", "simple-mixed", framed(0xff, lines, [3, 17, 1, 40]))
    write("framer", "crlf", framed(64, b"ab\r\ncd\r\n\r\nef\n", [2, 5]))
    write("framer", "crlf-split", framed(64, b"abc\r", [4]) + bytes([1]) + b"\n")
    write("framer", "empty-lines", framed(32, b"\n\n\r\n  \t\n\x0b\x0c\nx\n\n", [1, 3]))
    write("framer", "lone-cr", framed(32, b"a\rb\n\r\r\n\rc\r\r\n", [2]))
    write("framer", "nul-bytes", framed(32, b"a\x00b\n\x00\n\x00\x00\x00\n", [3]))
    write("framer", "zero-chunks", bytes([16, 0, 0, 3]) + b"ab\n" + bytes([0, 2]) + b"c\n")
    write("framer", "limit-exact", framed(8, b"12345678\n12345678\r\n", [4]))
    write("framer", "limit-plus-one", framed(8, b"123456789\n", [9, 1]))
    write("framer", "limit-plus-cr", framed(8, b"12345678\r", [9]) + bytes([1]) + b"\n")
    write("framer", "limit-plus-cr-x", framed(8, b"12345678\rx\n", [9, 2]))
    write("framer", "partial-over", framed(8, b"ok\n" + b"x" * 40, [3, 20, 20]))
    write("framer", "over-after-lines", framed(8, b"a\nb\nc\n" + b"y" * 30 + b"\n", [255]))
    write("framer", "limit-zero", framed(0, b"\n\r\n \na\n", [1]))
    write("framer", "limit-one", framed(1, b"a\nb\r\n\r\ncd\n", [1, 2]))
    write("framer", "after-overflow", framed(4, b"abcdefgh\nnext\n", [9, 5]))
    write("framer", "blank-too-long", framed(4, b"          \nx\n", [11, 2]))
    write("framer", "truncated-chunk", bytes([32, 200]) + b"abc\n")
    utf8 = "Zoë ♞ 𝄞\n".encode() + b"\xff\xfe\xc3\n"
    write("framer", "utf8", framed(32, utf8, [1, 2, 3]))
    many = b"".join(b'{"op":"ping","id":%d}\n' % i for i in range(40))
    write("framer", "many-lines", framed(0xff, many, [7, 200, 13]))
    write("framer", "grows", framed(200, b"z" * 180 + b"\n" + b"w" * 190 + b"\r\n", [31]))
    big = b"q" * 65536 + b"\r\n" + b"r" * 65537
    write("framer", "default-limit", framed(0xff, big, [255]))


# ---- envelope: LF-separated lines ----

def envelope():
    clear("envelope")
    ops = [
        '{"op":"hello","proto":1,"name":"Ann","id":1}',
        '{"op":"hello","proto":2,"name":"  Bo  ","id":"h"}',
        '{"op":"ping","id":2}',
        '{"op":"create","game":"stones","seats":4,"options":{"variant":"standard"},"id":3}',
        '{"op":"create","game":"sorcerers","seats":2,"options":{"merlinian_seat":0,"max_turns":5}}',
        '{"op":"join","room":"k7qf-2m","id":4}',
        '{"op":"join","room":"K7QF2M","seat":1}',
        '{"op":"spectate","room":"ilo0-uu"}',
        '{"op":"start","bots":true,"id":5}',
        '{"op":"leave"}',
        '{"op":"resume","token":"abcdef0123456789","rev":12}',
        '{"op":"list"}',
        '{"op":"chat","text":"gg\\nwell\\r\\nplayed\\u0007"}',
        '{"op":"act","action":{"type":"step","to":[3,1]},"rev":7,"id":6}',
        '{"op":"act","action":{"type":"recruit","card":"torquemada"}}',
        '{"op":"legal","id":7}',
        '{"op":"sync"}',
        '{"op":"record"}',
    ]
    for i, line in enumerate(ops):
        op = json.loads(line)["op"]
        write("envelope", "op-%02d-%s" % (i, op), line + "\n")
    write("envelope", "all-ops", "\n".join(ops) + "\n")
    write("envelope", "crlf-empty", '\r\n\r\n{"op":"ping"}\r\n\n  \n{"op":"list"}\r\n')
    bad = {
        "not-json": "hello there",
        "truncated": '{"op":"pi',
        "array": '["op","ping"]',
        "scalar": "42",
        "no-op": '{"id":1}',
        "op-number": '{"op":7,"id":"x"}',
        "id-real": '{"op":"ping","id":1.5}',
        "id-object": '{"op":"ping","id":{"a":1}}',
        "id-long": '{"op":"ping","id":"%s"}' % ("i" * 65),
        "unknown-op": '{"op":"dance\\nnow","id":9}',
        "real-number": '{"op":"create","seats":2.0,"x":1e308}',
        "big-int": '{"op":"ping","n":99999999999999999999999}',
        "dup-keys": '{"op":"ping","op":"list"}',
        "nul-escape": '{"op":"chat","text":"a\\u0000b"}',
        "nul-key": '{"op":"ping","a\\u0000b":1}',
        "raw-nul": '{"op":"ping"}\x00{"op":"list"}',
        "bad-utf8": b'{"op":"hello","name":"\xff\xfe"}',
        "overlong-utf8": b'{"op":"hello","name":"\xc0\xaf"}',
        "surrogate": '{"op":"hello","name":"\\ud800"}',
        "pointer-keys": '{"op":"x","a/b":{"~0":1,"~1":[1,2]},"":{"":""}}',
        "names": '{"op":"hello","names":["Ann","   ","%s","tab\\tname","Zoë ♞","%s"]}' % (
            "n" * 33, "é" * 32),
        "codes": '{"op":"join","codes":["k7qf-2m","ILO0UU","abc","u00000","  k 7 q f 2 m ","ABCDEFG"]}',
        "patch-ops": '{"op":"x","patch":[{"op":"add","path":"/a","value":1},'
                     '{"op":"copy","from":"/a","path":"/b"},{"op":"move","from":"/b","path":"/c"},'
                     '{"op":"test","path":"/c","value":1},{"op":"remove","path":"/a"},'
                     '{"op":"replace","path":"","value":[1]},{"op":"add","path":"/-","value":2}]}',
        "patch-bad": '{"op":"x","p1":[{"op":"add","path":"a"}],"p2":[{"op":"remove","path":"/9"}],'
                     '"p3":[{"op":"move","from":"/op","path":"/op/x"}],"p4":[1,"x",null],'
                     '"p5":[{"op":"add","path":"/arr/01","value":0}],"arr":[0]}',
    }
    for name, line in bad.items():
        if isinstance(line, str):
            line = line.encode()
        write("envelope", name, line + b"\n")
    write("envelope", "deep-64", '{"op":"x","v":' + "[" * 63 + "]" * 63 + "}\n")
    write("envelope", "deep-65", '{"op":"x","v":' + "[" * 64 + "]" * 64 + "}\n")
    write("envelope", "deep-string", '{"op":"x","v":"' + "[" * 100 + '"}\n')
    write("envelope", "deep-unbalanced", "[" * 200 + "\n")
    nested = '{"op":"x","a":{"b":{"c":[1,{"d":[true,false,null,"s"]}],"e":{}},"f":[]}}'
    write("envelope", "nested", nested + "\n")
    write("envelope", "long-line", '{"op":"chat","text":"%s"}\n' % ("x" * 5000))
    write("envelope", "no-final-lf", '{"op":"ping","id":0}')


# ---- games: see fuzz_game.h for the layout ----

STEPS_MAX = 8  # FUZZ_GAME_MAX_STEPS


def game_ids():
    """The wire ids of games.def, read as the build reads them."""
    with open(GAMES_DEF) as f:
        return [line.split("(")[1].split(")")[0].split(",")[0].strip()
                for line in f if line.startswith("GAME(")]


def doc_actions(game_id):
    """Every action object spelled in docs/rules/<id>.md that parses as
    JSON, in order of appearance, each once."""
    path = os.path.join(RULES, game_id + ".md")
    if not os.path.exists(path):
        return []
    with open(path) as f:
        text = f.read()
    out = []
    start = text.find('{"type"')
    while start >= 0:
        depth = 0
        in_str = False
        escaped = False
        end = None
        for i in range(start, len(text)):
            c = text[i]
            if in_str:
                if escaped:
                    escaped = False
                elif c == "\\":
                    escaped = True
                elif c == '"':
                    in_str = False
            elif c == '"':
                in_str = True
            elif c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
                if depth == 0:
                    end = i + 1
                    break
            elif c == "\n":
                break
        if end is not None:
            try:
                a = json.loads(text[start:end])
            except ValueError:
                a = None
            spelled = json.dumps(a, separators=(",", ":"))
            if a is not None and spelled not in out:
                out.append(spelled)
        start = text.find('{"type"', start + 1)
    return out


def game_input(position, steps=(), tail=b""):
    out = struct.pack("<H", position) + bytes([len(steps)])
    for step in steps:
        out += bytes(step)
    return out + tail


def probe(exe, inputs):
    """Runs the replay executable once on every input (FUZZ_GAME_PRINT_LEGAL
    set) and returns, per input, (position, positions, seats, legal) with
    legal the [seat, action] pairs in the order a step indexes them."""
    tmp = os.path.join(CORPUS, ".probe")
    os.makedirs(tmp, exist_ok=True)
    try:
        for k, data in enumerate(inputs):
            with open(os.path.join(tmp, "%06d" % k), "wb") as f:
                f.write(data)
        env = dict(os.environ, FUZZ_GAME_PRINT_LEGAL="1")
        out = subprocess.run([exe, tmp], env=env, check=True, capture_output=True).stdout
    finally:
        for n in os.listdir(tmp):
            os.remove(os.path.join(tmp, n))
        os.rmdir(tmp)
    found = []
    for line in out.decode().splitlines():
        if not line.startswith("{"):
            continue
        obj = json.loads(line)
        if "position" in obj:
            found.append((obj["position"], obj["positions"], obj["seats"], []))
        else:
            found[-1][3].append((obj["seat"], obj["action"]))
    if len(found) != len(inputs):
        sys.exit("make_corpus: %s answered %d of %d probes" % (exe, len(found), len(inputs)))
    return found


def kind_of(action):
    t = action.get("type") if isinstance(action, dict) else None
    return t if isinstance(t, str) else "value"


def game(game_id, exe):
    target = "game_" + game_id
    clear(target)
    rng = random.Random(target)
    npos = probe(exe, [game_input(0)])[0][1]
    table = probe(exe, [game_input(p) for p in range(npos)])
    first = {}
    last = {}
    ends = []
    for p, _, _, legal in table:
        if not legal:
            ends.append(p)
        for i, (_, a) in enumerate(legal):
            key = kind_of(a)
            first.setdefault(key, (p, i, a))
            last[key] = (p, i, a)
    # One position where each type of action is legal, twice when it is
    # legal at more than one: the action as the final JSON (tried by every
    # seat) and as a listed step, then an altered step.
    for key in sorted(first):
        picks = [first[key]] + ([last[key]] if last[key][0] != first[key][0] else [])
        for tag, (p, i, a) in zip("ab", picks):
            name = "%s-%s" % (key, tag)
            write(target, "legal-" + name, game_input(p, tail=json.dumps(a).encode()))
            step = (0, i & 0xFF, i >> 8, 0, 0)
            alt = (3 + 4 * rng.randrange(64), i & 0xFF, i >> 8, rng.randrange(256),
                   rng.randrange(256))
            write(target, "step-" + name, game_input(p, [step, alt]))
    # Short games from spread positions: every kind of step.
    for k in range(24):
        p = table[(k * len(table)) // 24][0]
        steps = []
        for _ in range(rng.randrange(4, STEPS_MAX + 1)):
            kind = rng.choice([0, 0, 1, 2, 3, 3]) + 4 * rng.randrange(64)
            steps.append((kind, rng.randrange(256), rng.randrange(256), rng.randrange(256),
                          rng.randrange(256)))
        write(target, "walk-%02d" % k, game_input(p, steps))
    # The spellings of the rules document, where that type is legal if it
    # ever is, else at the start.
    for k, a in enumerate(doc_actions(game_id)):
        where = first.get(kind_of(json.loads(a)), (0,))[0]
        write(target, "doc-%02d" % k, game_input(where, tail=a.encode()))
    # Malformed actions, built from a legal one.
    p, _, sample = first[sorted(first)[0]]
    extra = dict(sample, extra=1) if isinstance(sample, dict) else [sample]
    bumped = {k: (v + 10 ** 11 if isinstance(v, int) else v) for k, v in sample.items()} \
        if isinstance(sample, dict) else sample
    junk = ['{}', '[]', 'null', '"x"', '{"type":7}', '{"type":"no_such"}', '{"type":null}',
            '{"type":"\\u0000"}', json.dumps(extra), json.dumps(bumped),
            json.dumps(sample) + " trailing", json.dumps([sample, sample])]
    for k, a in enumerate(junk):
        where = p if k % 2 else table[(k * 37) % len(table)][0]
        write(target, "junk-%02d" % k, game_input(where, tail=a.encode()))
    for k, p in enumerate(ends[:4]):
        write(target, "end-%02d" % k, game_input(p, tail=json.dumps(sample).encode()))
    return npos, sorted(first)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build-fuzzrep")
    args = ap.parse_args()
    framer()
    envelope()
    fuzzdir = os.path.join(args.build, "tests", "fuzz")
    for game_id in game_ids():
        exe = os.path.join(fuzzdir, "replay_game_" + game_id)
        if not os.access(exe, os.X_OK):
            sys.exit("make_corpus: %s is missing; build it first (ninja -C %s)" % (exe, args.build))
        npos, types = game(game_id, exe)
        print("game_%s: %d positions, legal types %s" % (game_id, npos, " ".join(types)))


if __name__ == "__main__":
    main()
