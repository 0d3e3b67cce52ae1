#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Fails when a game's objects hold writable data: DESIGN boundary 1 says
the rules cores keep no global state, so all their data is `const` and
lands in .rodata or .data.rel.ro (read-only once relocated).

Writable means a symbol of non-zero size in .data, .data.* (but not
.data.rel.ro*), .bss, .bss.*, .tdata, .tbss or a common block. A `static
int` in a function, a table someone forgot to make `const`, a `const char
*names[]` whose pointers are not themselves const: each shows up here by
name, however the source spells it.

Sanitizers add data of their own: AddressSanitizer's global descriptors
and UBSan's source locations live in .data under local labels that have no
symbol, and ASan adds a one-byte `__odr_asan.<global>` in .bss for each
global (clang: an `__unnamed_<n>` array of descriptors in .data). So:
  - in an object built without instrumentation, every writable section must
    also be empty, which catches writable data that has no symbol at all;
  - in an instrumented object (it references __asan_/__ubsan_/__sanitizer_
    symbols), section sizes are the instrumentation's, so only named symbols
    are judged, and only the sanitizers' own names (listed below, all
    reserved identifiers) are skipped. Every variable the source defines
    keeps its own name, and an object without instrumentation has no name
    skipped at all;
  - with --compdb (meson's compile_commands.json), each instrumented object
    is also compiled again from its own command without the -fsanitize
    flags, into a temporary folder, and that object gets the strict check.
    So a sanitizer build (make test) loses nothing.

Usage: check_data.py [--objdump OBJDUMP] [--compdb FILE] TARGET...
(archives or objects)"""
import argparse
import fnmatch
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

from metalib import run, tool

SANITIZER_NAMES = [
    "__odr_asan.*", "__odr_asan_gen_*", "___asan_gen_*", "__asan_*", "__ubsan_*",
    "__sancov_*", "__start___sancov_*", "__stop___sancov_*", "__sanitizer_*",
    "__profc_*", "__profd_*", "__profvp_*", "__llvm_*", "__gcov*",
    # clang names AddressSanitizer's array of global descriptors so.
    "__unnamed_*",
]
INSTRUMENTED = ("__asan_", "__ubsan_", "__sanitizer_", "__sancov_", "__gcov", "__llvm_prf")

SYM = re.compile(r"^([0-9a-fA-F]+) (.{7}) (\S+)\t([0-9a-fA-F]+) (.*)$")
SEC = re.compile(r"^\s*\d+ (\S+)\s+([0-9a-fA-F]+) ")
MEMBER = re.compile(r"^(\S.*):\s+file format ")


def writable(section):
    if section == "*COM*":
        return True
    if section.startswith(".data.rel.ro"):
        return False
    for base in (".data", ".bss", ".tdata", ".tbss"):
        if section == base or section.startswith(base + "."):
            return True
    return False


def objects(text):
    """Splits objdump output into {member: [lines]}."""
    out = {}
    cur = None
    for line in text.splitlines():
        m = MEMBER.match(line)
        if m:
            cur = os.path.basename(m.group(1))
            out.setdefault(cur, [])
        elif cur is not None:
            out[cur].append(line)
    return out


def judge(member, lines, strict_only=False):
    """Returns the problems of one object's objdump -h -t lines."""
    problems = []
    syms = []
    sections = {}
    for line in lines:
        m = SYM.match(line)
        if m:
            syms.append((m.group(2), m.group(3), int(m.group(4), 16), m.group(5)))
            continue
        m = SEC.match(line)
        if m:
            sections[m.group(1)] = int(m.group(2), 16)
    instrumented = any(name.startswith(INSTRUMENTED) for _, _, _, name in syms)
    for flags, section, size, name in syms:
        if "d" in flags[5:] or "f" in flags[5:]:
            continue  # section and file symbols
        if not writable(section) or size == 0:
            continue
        if instrumented and any(fnmatch.fnmatchcase(name, p) for p in SANITIZER_NAMES):
            continue
        if not strict_only:
            problems.append("%s: %s (%d bytes in %s)" % (member, name, size, section))
    if not instrumented:
        for section, size in sorted(sections.items()):
            if writable(section) and size:
                problems.append("%s: section %s holds %d bytes" % (member, section, size))
    return problems, instrumented


def compile_argv(entry, sanitizers=False, source=True):
    """The compile command of one compile_commands.json entry without its
    output and dependency-file arguments, and without sanitizer flags
    unless `sanitizers`; without `-c FILE` unless `source`."""
    argv = entry.get("arguments") or shlex.split(entry["command"])
    if os.path.basename(argv[0]) in ("ccache", "sccache"):
        argv = argv[1:]
    out, skip = [], False
    for a in argv:
        if skip:
            skip = False
            continue
        if a in ("-o", "-MQ", "-MF", "-MT"):
            skip = True
            continue
        if a in ("-MD", "-MMD"):
            continue
        if not source and (a == "-c" or a == entry["file"]):
            continue
        if not sanitizers and a.startswith(("-fsanitize", "-fno-sanitize")):
            continue
        out.append(a)
    return out


def compile_plain(entry, tmp):
    """Compiles one compile_commands.json entry again without sanitizer
    flags; returns the object's path."""
    out = compile_argv(entry)
    obj = os.path.join(tmp, os.path.basename(entry["output"]))
    proc = subprocess.run(out + ["-o", obj], cwd=entry["directory"], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, universal_newlines=True)
    if proc.returncode != 0:
        sys.stderr.write("check_data: rebuilding %s failed:\n%s" % (entry["file"], proc.stdout))
        sys.exit(2)
    return obj


def check(objdump, path, entries, tmp):
    problems = []
    for member, lines in objects(run([objdump, "-h", "-t", path])).items():
        found, instrumented = judge(member, lines)
        problems += found
        if instrumented and entries is not None:
            candidates = [e for e in entries if os.path.basename(e["output"]) == member]
            if len(candidates) > 1:
                archive = os.path.basename(path) + ".p"
                candidates = [e for e in candidates if archive in e["output"].split("/")]
            if len(candidates) != 1:
                problems.append("%s: no single compile command makes it" % member)
                continue
            plain = compile_plain(candidates[0], tmp)
            for name, plines in objects(run([objdump, "-h", "-t", plain])).items():
                found, _ = judge(name + " (built without sanitizers)", plines, strict_only=True)
                problems += found
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--objdump")
    ap.add_argument("--compdb")
    ap.add_argument("targets", nargs="+")
    args = ap.parse_args()
    objdump = tool("objdump", args.objdump)
    missing = [p for p in args.targets if not os.path.exists(p)]
    if missing:
        print("check_data: not built: " + " ".join(missing))
        return 1
    entries = None
    if args.compdb:
        with open(args.compdb, encoding="utf-8") as f:
            entries = json.load(f)
    problems = []
    with tempfile.TemporaryDirectory(prefix="conclave-data-") as tmp:
        for path in args.targets:
            problems += check(objdump, path, entries, tmp)
    names = " ".join(os.path.basename(t) for t in args.targets)
    if problems:
        print("check_data: writable data in %s (make it const, or move it into the state):"
              % names)
        for p in problems:
            print("  " + p)
        return 1
    print("check_data: %s: no writable data" % names)
    return 0


if __name__ == "__main__":
    sys.exit(main())
