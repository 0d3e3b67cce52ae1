#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""make_corpus.py - writes the hand-made seed inputs of the fuzz corpora
under tests/fuzz/corpus/<target>/ (files named seed-*): framer streams in
several chunkings and line limits, envelope lines for every op and every
kind of hostile line, and for each game inputs that reach positions from
the start to the end of a game followed by an action of every type. The
game actions come from the engines' own legal lists, read through a built
replay executable run with FUZZ_GAME_PRINT_LEGAL (--build names the build
directory, default build-fuzzrep), plus the spellings of the rules documents
and malformed variants. Inputs found by the fuzzers (other names) are left
alone. Deterministic; standard library only.

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
CORPUS = os.path.join(HERE, "corpus")


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

def game_input(options_sel, seats_sel, seed, moves, tail=b""):
    head = bytes([options_sel, seats_sel]) + struct.pack("<Q", seed)
    return head + struct.pack("<H", len(moves)) + bytes(moves) + tail


def legal_of(exe, prefix):
    env = dict(os.environ, FUZZ_GAME_PRINT_LEGAL="1")
    tmp = os.path.join(CORPUS, ".probe")
    with open(tmp, "wb") as f:
        f.write(prefix)
    try:
        out = subprocess.run([exe, tmp], env=env, check=True, capture_output=True).stdout
    finally:
        os.remove(tmp)
    return [json.loads(l) for l in out.decode().splitlines() if l.startswith("{")]


def walk(exe, sel, rng, steps, seen, prefixes):
    """Plays up to `steps` moves from a fresh game, steering towards action
    types chosen least so far, and records the first position offering each
    type. Stops at the end of the game."""
    seats_sel = rng.randrange(256)
    seed = rng.getrandbits(64)
    moves = []
    chosen = {}
    for step in range(steps + 1):
        prefix = game_input(sel, seats_sel, seed, moves)
        legal = legal_of(exe, prefix)
        if step in (0, 10, 60) or not legal or step == steps:
            prefixes.append(prefix)
        for entry in legal:
            a = entry["action"]
            key = a.get("type") if isinstance(a, dict) else repr(a)
            if key not in seen:
                seen[key] = (prefix, a)
        if not legal or step == steps:
            break
        weights = []
        for entry in legal[:256]:
            a = entry["action"]
            key = a.get("type") if isinstance(a, dict) else repr(a)
            weights.append(1.0 / (1 + chosen.get(key, 0)) ** 2)
        pick = rng.choices(range(len(weights)), weights)[0]
        a = legal[pick]["action"]
        key = a.get("type") if isinstance(a, dict) else repr(a)
        chosen[key] = chosen.get(key, 0) + 1
        moves.append(pick)


def game(target, exe, options_sels, doc_actions, steps):
    clear(target)
    rng = random.Random(target)
    seen = {}
    prefixes = []
    for sel in options_sels:
        walk(exe, sel, rng, steps, seen, prefixes)
    for key, (prefix, a) in sorted(seen.items()):
        write(target, "legal-" + key, prefix + json.dumps(a).encode())
    mid = prefixes[len(prefixes) // 2]
    start = prefixes[0]
    for i, a in enumerate(doc_actions):
        write(target, "doc-%02d" % i, (mid if i % 2 else start) + a.encode())
    junk = ['{}', '[]', 'null', '"step"', '{"type":7}', '{"type":"no_such"}',
            '{"type":"end_turn","extra":1}', '{"type":"step","to":[99999999999,-5]}',
            '{"type":"discard","card":"\\u0000"}', '{"type":"pass"} trailing']
    for i, a in enumerate(junk):
        write(target, "junk-%02d" % i, prefixes[(3 * i) % len(prefixes)] + a.encode())
    write(target, "end-no-action", prefixes[-1])
    return sorted(seen)


STONES_DOC = [
    '{"type":"place_taoist","tile":"Tc"}',
    '{"type":"cast","card":"SPIN-1","tile":"Tc","dir":"cw"}',
    '{"type":"cast","card":"FLY-2","tile":"Te"}',
    '{"type":"cast","card":"QUAKE-1","move":"Tn","to":[1,-1]}',
    '{"type":"cast","card":"QUAKE-2","swap":["Tn","Tc"]}',
    '{"type":"cast","card":"SHIFT-R","a":"Tn.BR","b":"Tc.TL"}',
    '{"type":"end_cast"}', '{"type":"discard","card":"SHIFT-N"}',
    '{"type":"choose_stone","slot":"Tc.BL"}', '{"type":"offer","colour":"Y"}',
    '{"type":"step","to":[3,1]}', '{"type":"pay_step","to":[1,0],"stones":["N","B"]}',
    '{"type":"take_rune"}', '{"type":"end_move"}', '{"type":"craft","artifact":"A01"}',
    '{"type":"end_turn"}', '{"type":"pay","colour":"Y"}',
    '{"type":"pay_pair","for":"Y","stones":["G","R"]}', '{"type":"reward_step","to":[1,2]}',
    '{"type":"reward_fly","tile":"Tc"}', '{"type":"reward_skip"}',
]

SORCERERS_DOC = [
    '{"type":"deal","card":"ritual"}', '{"type":"done"}',
    '{"type":"recruit","card":"torquemada"}', '{"type":"equip","card":"cane","to":"torquemada"}',
    '{"type":"move_object","object":"cane","to":"robert_fludd"}',
    '{"type":"discard_object","object":"cane"}', '{"type":"place_grimhold","to":"robert_fludd"}',
    '{"type":"activate","card":"training"}',
    '{"type":"activate","card":"hostage","target":"grimhold","to":"maxim_horvath"}',
    '{"type":"pass"}', '{"type":"track","card":null}', '{"type":"discard","card":"hex"}',
    '{"type":"encounter","choice":"first_to_fight","sorcerer":"balthazar_blake"}',
    '{"type":"combo_spell","card":"white_magic"}', '{"type":"combo_event","card":null}',
    '{"type":"combo_amp","card":"incense"}',
    '{"type":"combo_declare","sacrifice":false,"betray":null}',
    '{"type":"clear_mind","card":"threaten"}',
    '{"type":"negate","choices":[{"card":"levitation","target":"ritual"},'
    '{"card":"distraction","target":null}]}',
    '{"type":"defense","card":"fire_shield","target":"lightning_bolts"}',
    '{"type":"protect","card":"smoke"}', '{"type":"steal","card":"car_chase"}',
]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build-fuzzrep")
    args = ap.parse_args()
    framer()
    envelope()
    fuzzdir = os.path.join(args.build, "tests", "fuzz")
    for target, sels, doc, steps in (("game_stones", [0, 1, 2, 5], STONES_DOC, 400),
                                     ("game_sorcerers", [0, 4, 7, 9], SORCERERS_DOC, 400)):
        exe = os.path.join(fuzzdir, "replay_" + target)
        if not os.access(exe, os.X_OK):
            sys.exit("make_corpus: %s is missing; build it first (ninja -C %s)" % (exe, args.build))
        types = game(target, exe, sels, doc, steps)
        print("%s: legal types %s" % (target, " ".join(types)))


if __name__ == "__main__":
    main()
