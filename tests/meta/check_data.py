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
global. So:
  - in an object built without instrumentation, every writable section must
    also be empty, which catches writable data that has no symbol at all;
  - in an instrumented object (it references __asan_/__ubsan_/__sanitizer_
    symbols), section sizes are the instrumentation's, so only named symbols
    are judged, and only the sanitizers' own names (listed below) are
    skipped. Every variable the source defines keeps its own name.

Usage: check_data.py [--objdump OBJDUMP] TARGET...  (archives or objects)"""
import argparse
import fnmatch
import os
import re
import sys

from metalib import run, tool

SANITIZER_NAMES = [
    "__odr_asan.*", "__odr_asan_gen_*", "___asan_gen_*", "__asan_*", "__ubsan_*",
    "__sancov_*", "__start___sancov_*", "__stop___sancov_*", "__sanitizer_*",
    "__profc_*", "__profd_*", "__profvp_*", "__llvm_*", "__gcov*",
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


def check(objdump, path):
    problems = []
    for member, lines in objects(run([objdump, "-h", "-t", path])).items():
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
            if any(fnmatch.fnmatchcase(name, p) for p in SANITIZER_NAMES):
                continue
            problems.append("%s: %s (%d bytes in %s)" % (member, name, size, section))
        if not instrumented:
            for section, size in sorted(sections.items()):
                if writable(section) and size:
                    problems.append("%s: section %s holds %d bytes" % (member, section, size))
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--objdump")
    ap.add_argument("targets", nargs="+")
    args = ap.parse_args()
    objdump = tool("objdump", args.objdump)
    missing = [p for p in args.targets if not os.path.exists(p)]
    if missing:
        print("check_data: not built: " + " ".join(missing))
        return 1
    problems = []
    for path in args.targets:
        problems += check(objdump, path)
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
