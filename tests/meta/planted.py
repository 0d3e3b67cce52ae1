#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Shows that each meta check catches what it is for: it plants one
violation of each kind in a temporary copy, runs the check on it, and fails
when the check lets the violation through. A clean control of each kind
must pass, so a check that fails on everything is caught too.

  symbols   a game object that calls time() through a hand-written
            declaration and a pasted macro name (no #include to grep for),
            and one that calls a function no allowed library defines
  data      a game object with a mutable `static int`, built as the tree
            is built (sanitizers included) and built without sanitizers
  includes  a copy of the tree where a game header includes <uv.h> through
            a macro, lobby/room.c includes net.h by a relative path split
            over two lines, and net.c includes lobby.h after a header that
            already did (the include guard hides it from cc -H and -M)
  generated a copy of the card table with one field changed by hand
  format    a file with a misplaced brace and a doubled space

Usage: planted.py KIND --compdb compile_commands.json --source-root DIR
       [--game-common libgame_common.a] [--cc CC] [--nm NM] [--objdump OBJDUMP]
       [--clang-format PATH] [--python PYTHON]"""
import argparse
import check_data
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SKIP = 77

CLOCK = """\
#include <stddef.h>
#define PLANTED_CLOCK ti##me
extern long time(void *);
long planted_now(void);
long planted_now(void)
{
    return PLANTED_CLOCK(NULL);
}
"""
OTHER_GAME = """\
int planted_other_rules(int);
int planted_borrow(void);
int planted_borrow(void)
{
    return planted_other_rules(1);
}
"""
PURE = """\
#include <string.h>
int planted_sum(const unsigned char *p, size_t n);
int planted_sum(const unsigned char *p, size_t n)
{
    unsigned char b[8];
    memset(b, 0, sizeof(b));
    memcpy(b, p, n < sizeof(b) ? n : sizeof(b));
    return b[0] + b[7];
}
"""
STATIC_INT = """\
int planted_counter(void);
int planted_counter(void)
{
    static int calls;
    return ++calls;
}
"""
CONST_TABLE = """\
static const char *const names[] = {"earth", "water"};
const char *planted_name(int i);
const char *planted_name(int i)
{
    return names[i & 1];
}
"""


def check(name):
    return [sys.executable, os.path.join(HERE, name)]


def run(argv, cwd=None):
    proc = subprocess.run(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True)
    return proc.returncode, proc.stdout


class Result:
    def __init__(self):
        self.failed = 0

    def expect(self, what, rc, out, want_rc, needle=None):
        ok = rc == want_rc and (needle is None or needle in out)
        print("%s: %s" % ("ok  " if ok else "MISS", what))
        if not ok:
            self.failed += 1
            print("  exit %d (wanted %d%s); output:" % (
                rc, want_rc, ", with '%s'" % needle if needle else ""))
            print("    " + out.rstrip().replace("\n", "\n    "))


def game_flags(compdb, sanitizers=True):
    """The compile command of one game source, without its input, output
    and dependency-file arguments: (directory, argv)."""
    with open(compdb, encoding="utf-8") as f:
        entries = json.load(f)
    for e in entries:
        f = os.path.normpath(os.path.join(e["directory"], e["file"]))
        parts = f.split(os.sep)
        if "games" in parts and parts[parts.index("games") + 1] not in ("common",) \
                and len(parts) - parts.index("games") == 3:
            out = check_data.compile_argv(e, sanitizers=sanitizers, source=False)
            return e["directory"], out
    sys.exit("planted: no game source in %s" % compdb)


def compile_snippet(args, tmp, name, text, sanitizers=True):
    """Compiles a snippet as a game source is compiled; returns the object.
    Its command goes into tmp/compile_commands.json, as meson's would."""
    directory, argv = game_flags(args.compdb, sanitizers)
    src = os.path.join(tmp, name + ".c")
    obj = os.path.join(tmp, name + ("" if sanitizers else "-plain") + ".o")
    with open(src, "w", encoding="utf-8") as f:
        f.write(text)
    if args.cc:
        argv[0] = args.cc
    argv += ["-c", src, "-o", obj]
    rc, out = run(argv, cwd=directory)
    if rc != 0:
        sys.exit("planted: the snippet %s did not compile:\n%s" % (name, out))
    db = os.path.join(tmp, "compile_commands.json")
    entries = []
    if os.path.exists(db):
        with open(db, encoding="utf-8") as f:
            entries = json.load(f)
    entries.append({"directory": directory, "file": src, "output": obj, "arguments": argv})
    with open(db, "w", encoding="utf-8") as f:
        json.dump(entries, f)
    return obj


def symbols(args, res, tmp):
    allow = ["--allow", os.path.join(HERE, "symbols", "base.allow"),
             "--allow", os.path.join(HERE, "symbols", "jansson.allow")]
    tools = ["--nm", args.nm] if args.nm else []
    common = ["--with", args.game_common] if args.game_common else []
    obj = compile_snippet(args, tmp, "planted_clock", CLOCK)
    rc, out = run(check("check_symbols.py") + tools + allow + common + [obj])
    res.expect("a game calling time() is caught by check_symbols.py", rc, out, 1, "time ")
    obj = compile_snippet(args, tmp, "planted_other_game", OTHER_GAME)
    rc, out = run(check("check_symbols.py") + tools + allow + common + [obj])
    res.expect("a game calling into another game's library is caught by check_symbols.py",
               rc, out, 1, "planted_other_rules ")
    obj = compile_snippet(args, tmp, "planted_pure", PURE)
    rc, out = run(check("check_symbols.py") + tools + allow + common + [obj])
    res.expect("a game using memset/memcpy passes check_symbols.py", rc, out, 0)


def data(args, res, tmp):
    tools = ["--objdump", args.objdump] if args.objdump else []
    for sanitizers in (True, False):
        how = "as built" if sanitizers else "without sanitizers"
        obj = compile_snippet(args, tmp, "planted_static", STATIC_INT, sanitizers)
        rc, out = run(check("check_data.py") + tools + [obj])
        res.expect("a game's static int (%s) is caught by check_data.py" % how,
                   rc, out, 1, "calls")
        if sanitizers:
            # In a sanitizer build the strict section check runs on the
            # object that --compdb rebuilds; otherwise on the object itself.
            instrumented = any(a.startswith("-fsanitize")
                               for a in game_flags(args.compdb)[1])
            rc, out = run(check("check_data.py") + tools + [
                "--compdb", os.path.join(tmp, "compile_commands.json"), obj])
            res.expect("a game's static int (as built) fills .bss in the strict check "
                       "of check_data.py --compdb", rc, out, 1,
                       "(built without sanitizers): section .bss" if instrumented
                       else "planted_static.o: section .bss")
        obj = compile_snippet(args, tmp, "planted_const", CONST_TABLE, sanitizers)
        rc, out = run(check("check_data.py") + tools + [obj])
        res.expect("a game's const table (%s) passes check_data.py" % how, rc, out, 0)
        if sanitizers:
            rc, out = run(check("check_data.py") + tools + [
                "--compdb", os.path.join(tmp, "compile_commands.json"), obj])
            res.expect("a game's const table (as built) passes check_data.py --compdb",
                       rc, out, 0)


def copy_tree(src, dst, parts):
    for p in parts:
        s = os.path.join(src, p)
        if os.path.isdir(s):
            shutil.copytree(s, os.path.join(dst, p), ignore=lambda d, names: [
                n for n in names if os.path.isfile(os.path.join(d, n, "build.ninja"))])
        elif os.path.isfile(s):
            os.makedirs(os.path.dirname(os.path.join(dst, p)), exist_ok=True)
            shutil.copy2(s, os.path.join(dst, p))


def includes(args, res, tmp):
    root = os.path.join(tmp, "tree")
    copy_tree(args.source_root, root, ["protocol", "server", "client-cli"])
    base = check("check_includes.py") + (["--cc", args.cc] if args.cc else []) + [
        "--compdb", args.compdb, "--compdb-root", args.source_root,
        "--layers", os.path.join(HERE, "layers.txt"), root]
    _, before = run(base)
    game_dir = sorted(d for d in os.listdir(os.path.join(root, "server", "games"))
                      if d != "common" and os.path.isdir(os.path.join(root, "server", "games", d)))[0]
    with open(os.path.join(root, "server", "games", game_dir, "planted.h"), "w") as f:
        f.write("#define PLANTED_LOOP <uv.h>\n#  include /* the loop */ PLANTED_LOOP\n")
    with open(os.path.join(root, "server", "lobby", "room.c"), "a") as f:
        f.write('\n#include \\\n"../net/net.h"\n')
    with open(os.path.join(root, "server", "net", "net.c"), "a") as f:
        f.write('\n/* lobby.h is in already: its guard makes this line a no-op. */\n'
                '#include "lobby.h"\n')
    rc, after = run(base)
    new = "\n".join(l for l in after.splitlines() if l not in before.splitlines())
    res.expect("a game header including <uv.h> through a macro is caught by check_includes.py",
               rc, new, 1, "server/games/%s/planted.h: includes <uv.h>" % game_dir)
    res.expect("lobby/room.c including net.h is caught by check_includes.py",
               rc, new, 1, "server/lobby/room.c: includes server/net/net.h (lobby -> net")
    res.expect("net.c including lobby.h after a header that already did is caught",
               rc, new, 1, "server/net/net.c: includes server/lobby/lobby.h (net -> lobby")


def generated(args, res, tmp):
    src = os.path.join(args.source_root, "server", "games", "sorcerers")
    root = os.path.join(tmp, "tree")
    dst = os.path.join(root, "server", "games", "sorcerers")
    shutil.copytree(os.path.join(src, "data"), os.path.join(dst, "data"))
    shutil.copy2(os.path.join(src, "sorc_cards.c"), dst)
    cli = os.path.join(args.source_root, "client-cli", "render")
    cli_dst = os.path.join(root, "client-cli", "render")
    os.makedirs(cli_dst)
    for name in ("gen_sorc_texts.py", "sorc_texts.c", "gen_arcana_texts.py", "arcana_texts.c",
                 "arcana_texts.h"):
        shutil.copy2(os.path.join(cli, name), cli_dst)
    web = os.path.join(args.source_root, "web", "games")
    web_dst = os.path.join(root, "web", "games")
    os.makedirs(web_dst)
    for name in ("gen_sorcerers_texts.py", "sorcerers_texts.js", "gen_arcana_texts.py",
                 "arcana_texts.js", "cli_words.py"):
        shutil.copy2(os.path.join(web, name), web_dst)
    arc = os.path.join(args.source_root, "server", "games", "arcana")
    arc_dst = os.path.join(root, "server", "games", "arcana")
    shutil.copytree(os.path.join(arc, "data"), os.path.join(arc_dst, "data"))
    shutil.copy2(os.path.join(arc, "arcana_cards.c"), arc_dst)
    argv = ["sh", os.path.join(HERE, "check_generated.sh"), args.python or sys.executable, root]
    rc, out = run(argv)
    res.expect("the committed card table passes check_generated.sh", rc, out, 0)
    texts = os.path.join(cli_dst, "sorc_texts.c")
    with open(texts, encoding="utf-8") as f:
        original = f.read()
    with open(texts, "w", encoding="utf-8") as f:
        f.write(original.replace('"Torquemada"', '"Torquemado"', 1))
    rc, out = run(argv)
    res.expect("a hand edit of the client's card texts is caught by check_generated.sh", rc, out,
               1, '+    {"torquemada", "Torquemada"')
    with open(texts, "w", encoding="utf-8") as f:
        f.write(original)
    path = os.path.join(dst, "sorc_cards.c")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    with open(path, "w", encoding="utf-8") as f:
        f.write(text.replace(".power = ", ".power = 1 + ", 1))
    rc, out = run(argv)
    res.expect("a hand edit of sorc_cards.c is caught by check_generated.sh", rc, out, 1,
               "+        .power = ")


def format_(args, res, tmp):
    cf = args.clang_format or shutil.which("clang-format")
    if not cf:
        print("clang-format is not installed; the format plant is skipped")
        return SKIP
    root = os.path.join(tmp, "tree")
    os.makedirs(root)
    shutil.copy2(os.path.join(args.source_root, ".clang-format"), root)
    with open(os.path.join(root, "good.c"), "w") as f:
        f.write("int planted(int x);\n\nint planted(int x)\n{\n    if (x) {\n"
                "        return 1;\n    }\n    return 0;\n}\n")
    argv = check("check_format.py") + ["--clang-format", cf, root]
    rc, out = run(argv)
    res.expect("a file in the house format passes check_format.py", rc, out, 0)
    with open(os.path.join(root, "bad.c"), "w") as f:
        f.write("int planted(int x);\n\nint planted(int x) {\n    if (x)  {\n"
                "        return 1;\n    }\n    return 0;\n}\n")
    rc, out = run(argv)
    res.expect("a misformatted file is caught by check_format.py", rc, out, 1, "bad.c")
    return None


def web(args, res, tmp):
    if not args.web_assets:
        print("no --web-assets given; the web plant is skipped")
        return SKIP
    with open(args.web_assets, encoding="utf-8") as f:
        original = f.read()
    assets = os.path.join(tmp, "web_assets.c")
    argv = check("check_web_assets.py") + [
        assets, os.path.join(args.source_root, "web"),
        os.path.join(args.source_root, "server", "games", "games.def")]
    with open(assets, "w", encoding="utf-8") as f:
        f.write(original)
    rc, out = run(argv)
    res.expect("the built page passes check_web_assets.py", rc, out, 0)
    with open(assets, "w", encoding="utf-8") as f:
        f.write(re.sub(r'^\s*\{"/lib/patch.js", .*\n', "", original, count=1, flags=re.M))
    rc, out = run(argv)
    res.expect("a module the page imports but the build does not embed is caught", rc, out, 1,
               "uses lib/patch.js")
    with open(assets, "w", encoding="utf-8") as f:
        f.write(re.sub(r'^\s*\{"/sw.js", .*\n', "", original, count=1, flags=re.M))
    rc, out = run(argv)
    res.expect("the service worker a module registers, left out of the build, is caught", rc, out, 1,
               "uses sw.js")
    with open(assets, "w", encoding="utf-8") as f:
        f.write(original.replace("    {NULL, NULL, 0},",
                                 '    {"/package.json", asset0, 1},\n    {NULL, NULL, 0},', 1))
    rc, out = run(argv)
    res.expect("an embedded file the page never loads is caught", rc, out, 1,
               "package.json is embedded")
    return None


KINDS = {"web": web, "symbols": symbols, "data": data, "includes": includes, "generated": generated,
         "format": format_}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("kind", choices=sorted(KINDS))
    ap.add_argument("--compdb")
    ap.add_argument("--source-root", required=True)
    ap.add_argument("--game-common")
    ap.add_argument("--cc")
    ap.add_argument("--nm")
    ap.add_argument("--objdump")
    ap.add_argument("--clang-format")
    ap.add_argument("--python")
    ap.add_argument("--web-assets")
    args = ap.parse_args()
    args.source_root = os.path.realpath(args.source_root)
    if args.kind in ("symbols", "data", "includes") and not args.compdb:
        ap.error("%s needs --compdb" % args.kind)
    res = Result()
    with tempfile.TemporaryDirectory(prefix="conclave-planted-") as tmp:
        if KINDS[args.kind](args, res, tmp) == SKIP:
            return SKIP
    return 1 if res.failed else 0


if __name__ == "__main__":
    sys.exit(main())
