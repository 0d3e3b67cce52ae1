#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""House format: every .c and .h file of the tree is as clang-format makes
it with the committed .clang-format (clang-format --dry-run --Werror).

Skipped: build folders (any folder holding meson-private/ or build.ninja),
.git, node_modules (the browser tests' installed packages), and the generated tables (server/games/sorcerers/sorc_cards.c from
gen_cards.py, client-cli/render/sorc_texts.c from gen_sorc_texts.py,
client-cli/render/arcana_texts.c from gen_arcana_texts.py), which
check_generated.sh holds to their generators' output instead.
Exits 77 (skip) only when clang-format is not installed.

Usage: check_format.py [--clang-format PATH] SOURCE_ROOT"""
import argparse
import os
import shutil
import subprocess
import sys

from metalib import SKIP

EXCLUDE = {"server/games/sorcerers/sorc_cards.c", "client-cli/render/sorc_texts.c",
           "client-cli/render/arcana_texts.c"}


def sources(root):
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in (".git", "node_modules") and not (
            os.path.isdir(os.path.join(dirpath, d, "meson-private"))
            or os.path.isfile(os.path.join(dirpath, d, "build.ninja"))))
        for name in sorted(filenames):
            rel = os.path.relpath(os.path.join(dirpath, name), root)
            if name.endswith((".c", ".h")) and rel not in EXCLUDE:
                yield rel


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--clang-format")
    ap.add_argument("root")
    args = ap.parse_args()
    cf = args.clang_format or shutil.which("clang-format")
    if not cf or not os.path.exists(cf):
        print("check_format: clang-format is not installed (make deps installs it); skipped")
        return SKIP
    if not os.path.isfile(os.path.join(args.root, ".clang-format")):
        print("check_format: no .clang-format in %s" % args.root)
        return 1
    files = list(sources(args.root))
    if not files:
        print("check_format: no .c or .h file under %s" % args.root)
        return 1
    proc = subprocess.run([cf, "--style=file", "--dry-run", "--Werror"] + files,
                          cwd=args.root, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)
    where = {}
    for line in proc.stderr.splitlines():
        parts = line.split(":")
        if len(parts) >= 4 and parts[0] in files and parts[1].isdigit() and "error" in parts[3]:
            where.setdefault(parts[0], set()).add(int(parts[1]))
    if proc.returncode != 0 and not where:
        print("check_format: clang-format failed:\n" + proc.stderr)
        return 1
    bad = sorted(where.items())
    if bad:
        print("check_format: %d of %d files are not in the house format:" % (len(bad), len(files)))
        for rel, lines in bad:
            lines = [str(n) for n in sorted(lines)]
            print("  %s (lines %s%s)" % (rel, ", ".join(lines[:8]), ", ..." if len(lines) > 8 else ""))
        print("format one: clang-format -i FILE (the .clang-format at the top applies)")
        return 1
    print("check_format: %d files in the house format" % len(files))
    return 0


if __name__ == "__main__":
    sys.exit(main())
