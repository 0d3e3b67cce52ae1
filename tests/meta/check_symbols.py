#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Holds the undefined symbols of static libraries (or objects) against an
allow-list. A symbol a target needs must be defined by the targets
themselves, by a library named with --with, or match an allow-list pattern
(tests/meta/symbols/*.allow). This reads what the compiler emitted, so no
spelling of the source (macros, function pointers taken by name, a
declaration written by hand instead of an #include) hides a call.

Usage: check_symbols.py [--nm NM] --allow FILE... [--with LIB...] TARGET...
Prints one line per forbidden symbol with the objects that need it, and
exits 1 when there is one."""
import argparse
import os
import sys

from metalib import Patterns, run, tool


def nm_symbols(nm, path, *flags):
    """Yields (member, symbol) for each symbol nm lists with the given flags.
    -A names the archive member; -P gives one parseable line per symbol."""
    for line in run([nm, "-A", "-P"] + list(flags) + [path]).splitlines():
        where, _, rest = line.rpartition(": ")
        fields = rest.split()
        if not fields:
            continue
        member = where
        if where.endswith("]") and "[" in where:
            member = where[where.index("[") + 1:-1]
        yield os.path.basename(member), fields[0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nm")
    ap.add_argument("--allow", action="append", default=[], required=True)
    ap.add_argument("--with", dest="others", action="append", default=[],
                    help="a project library whose definitions the targets may use")
    ap.add_argument("targets", nargs="+")
    args = ap.parse_args()
    nm = tool("nm", args.nm)
    allowed = Patterns(args.allow)

    missing = [p for p in args.targets + args.others if not os.path.exists(p)]
    if missing:
        print("check_symbols: not built: " + " ".join(missing))
        return 1

    defined = set()
    for path in args.targets + args.others:
        defined.update(sym for _, sym in nm_symbols(nm, path, "--defined-only", "--extern-only"))

    bad = {}
    for path in args.targets:
        for member, sym in nm_symbols(nm, path, "--undefined-only"):
            if sym in defined or allowed.match(sym):
                continue
            bad.setdefault(sym, set()).add(member)

    names = " ".join(os.path.basename(t) for t in args.targets)
    if bad:
        print("check_symbols: %s need symbols outside their allow-list:" % names)
        for sym in sorted(bad):
            print("  %-32s needed by %s" % (sym, ", ".join(sorted(bad[sym]))))
        print("allow-lists: " + " ".join(args.allow))
        return 1
    print("check_symbols: %s: every undefined symbol is allowed" % names)
    return 0


if __name__ == "__main__":
    sys.exit(main())
