#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The README says exactly what `make run` and `make test` install.

usage: check_readme_deps.py SOURCE_ROOT

Reads DEPS, TEST_DEPS and BROWSER_DEPS from the Makefile and the
backquoted package lists of the README's "Two commands" section, in the
order the README names them (run, test, browser), and exits 1, naming the
difference, when they are not the same packages."""
import os
import re
import sys


def makefile_lists(text):
    text = text.replace("\\\n", " ")
    lists = {}
    for name in ("DEPS", "TEST_DEPS", "BROWSER_DEPS"):
        m = re.search(r"^%s\s*:=(.*)$" % name, text, re.M)
        if not m:
            sys.exit("check_readme_deps: the Makefile has no %s" % name)
        lists[name] = m.group(1).split()
    return lists


def readme_lists(text):
    m = re.search(r"^## Two commands\n(.*?)^## ", text, re.M | re.S)
    if not m:
        sys.exit("check_readme_deps: the README has no section \"Two commands\"")
    # A package list is a backquoted run of two or more lower-case names.
    found = []
    for q in re.findall(r"`([^`]+)`", m.group(1).replace("\n", " ")):
        words = q.split()
        if len(words) >= 2 and all(re.fullmatch(r"[a-z0-9][a-z0-9.+-]*", w) for w in words) \
                and words[0] not in ("make", "npm"):  # commands, not lists
            found.append(re.sub(r"\s+", " ", q).split())
    return found


def main():
    top = sys.argv[1]
    with open(os.path.join(top, "Makefile"), encoding="utf-8") as f:
        mk = makefile_lists(f.read())
    with open(os.path.join(top, "README.md"), encoding="utf-8") as f:
        rd = readme_lists(f.read())
    want = [mk["DEPS"], mk["TEST_DEPS"], mk["BROWSER_DEPS"]]
    bad = 0
    if len(rd) != len(want):
        print("check_readme_deps: the README lists %d package lists, the Makefile has 3: %r"
              % (len(rd), rd))
        return 1
    for name, m, r in zip(("DEPS (make run)", "TEST_DEPS (make test)",
                           "BROWSER_DEPS (make browser-deps)"), want, rd):
        if sorted(m) != sorted(r):
            bad += 1
            print("check_readme_deps: %s: the Makefile installs %s, the README says %s"
                  % (name, " ".join(m), " ".join(r)))
    if not bad:
        print("check_readme_deps: the README names the Makefile's packages")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
