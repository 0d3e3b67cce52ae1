#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Holds every #include of the project's modules against the layer table
in tests/meta/layers.txt (DESIGN.md's boundaries, written as edges).

The compiler finds the includes: each .c and .h file of a module is run
through `cc -E -dI` with the include paths and macros its build uses (from
meson's compile_commands.json). -dI prints each #include directive that is
live after preprocessing, in the file where it appears, including repeats
that an include guard turns into no-ops, and with a macro-computed name
already expanded. Comments, line splices, `#  include`, a macro standing for
the name or an #include hidden in another header cannot hide an edge. The
name is then resolved the way the compiler does (the includer's folder for
"...", then -iquote, -I, -isystem, the system folders, -idirafter).

Each edge is attributed to the file that holds the directive: net.h
including session.h is net's edge, session.h including lobby.h is
session's. A project header must belong to a module the includer's module
may reach; a system header must not be one that the table keeps for other
modules.

Usage: check_includes.py [--cc CC] [--compdb compile_commands.json
       [--compdb-root DIR]] --layers layers.txt ROOT
--compdb-root is the source tree the compile commands were made for, when
ROOT is a copy of it (the planted test): its paths are moved onto ROOT."""
import argparse
import fnmatch
import json
import os
import re
import shlex
import subprocess
import sys

from metalib import tool

MARKER = re.compile(r'^# \d+ "((?:[^"\\]|\\.)*)"')
DIRECTIVE = re.compile(r'^\s*#\s*(include|include_next|import)\s*([<"])(.*)[>"]')


def is_build_dir(parent, name):
    """A meson build folder inside the tree (meson setup build-test)."""
    path = os.path.join(parent, name)
    return name == ".git" or os.path.isdir(os.path.join(path, "meson-private")) \
        or os.path.isfile(os.path.join(path, "build.ninja"))


class Layers:
    def __init__(self, path):
        self.modules = []   # (family, pattern) in file order
        self.edges = {}     # family -> set of families
        self.headers = []   # (patterns, families allowed)
        self.only = []      # (families, patterns allowed)
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                line = line.split("#", 1)[0].strip()
                if not line:
                    continue
                word, _, rest = line.partition(" ")
                if word == "module":
                    name, *paths = rest.split()
                    for p in paths:
                        self.modules.append((name, p))
                elif word in ("edges", "header", "only"):
                    left, sep, right = rest.partition("->")
                    if not sep:
                        sys.exit("%s:%d: expected '->'" % (path, n))
                    left, right = left.split(), right.split()
                    if word == "edges":
                        for name in left:
                            self.edges.setdefault(name, set()).update(right)
                    elif word == "header":
                        self.headers.append((left, set(right)))
                    else:
                        self.only.append((set(left), right))
                else:
                    sys.exit("%s:%d: unknown line '%s'" % (path, n, word))

    def module_of(self, rel):
        """Returns (family, instance) for a path relative to the root, or None.
        A pattern ending in / is a folder; `*` in it gives one module per name."""
        for family, pat in self.modules:
            if pat.endswith("/"):
                parts = pat.rstrip("/").split("/")
                rparts = rel.split("/")
                if len(rparts) > len(parts) and all(
                        fnmatch.fnmatchcase(r, p) for r, p in zip(rparts, parts)):
                    if "*" not in pat:
                        return family, family
                    return family, family + ":" + "/".join(rparts[:len(parts)])
            elif rel == pat:
                return family, family
        return None

    def files(self, root):
        for family, pat in self.modules:
            if not pat.endswith("/"):
                if os.path.isfile(os.path.join(root, pat)):
                    yield pat
                continue
            base = pat.split("*")[0]
            for dirpath, dirnames, filenames in os.walk(os.path.join(root, base)):
                dirnames[:] = sorted(d for d in dirnames if not is_build_dir(dirpath, d))
                for name in sorted(filenames):
                    if name.endswith((".c", ".h")):
                        rel = os.path.relpath(os.path.join(dirpath, name), root)
                        if self.module_of(rel) and self.module_of(rel)[0] == family:
                            yield rel


class Flags:
    """Include paths and macros of one compile command, rebased onto root."""

    def __init__(self, cc, argv, directory, rebase):
        self.cc = cc
        self.quote, self.dirs, self.system, self.after, self.defs = [], [], [], [], []
        lists = (("-iquote", self.quote), ("-isystem", self.system),
                 ("-idirafter", self.after), ("-I", self.dirs))
        it = iter(argv[1:])
        for a in it:
            for opt, dest in lists:
                if a.startswith(opt):
                    value = a[len(opt):] or next(it)
                    dest.append(rebase(os.path.join(directory, value)))
                    break
            else:
                if a in ("-D", "-U"):
                    self.defs.append(a + next(it))
                elif a.startswith(("-D", "-U", "-std=")):
                    self.defs.append(a)


def system_dirs(cc):
    proc = subprocess.run([cc, "-E", "-Wp,-v", "-x", "c", os.devnull], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True)
    dirs, on = [], False
    for line in proc.stderr.splitlines():
        if line.startswith("#include <...> search starts here"):
            on = True
        elif line.startswith("End of search list"):
            on = False
        elif on:
            dirs.append(os.path.normpath(line.strip()))
    return dirs


def resolve(name, quoted, includer, flags, sysdirs):
    """Returns (path, name relative to the folder it was found in) or None."""
    if os.path.isabs(name):
        return (os.path.normpath(name), name) if os.path.exists(name) else None
    order = []
    if quoted:
        order += [os.path.dirname(includer)] + flags.quote
    order += flags.dirs + flags.system + sysdirs + flags.after
    for d in order:
        p = os.path.normpath(os.path.join(d, name))
        if os.path.isfile(p):
            return p, os.path.normpath(name)
    return None


def edges_of(path, flags, sysdirs):
    """Yields (includer, spelled, quoted) for each live #include while
    preprocessing path as the main file, then (None, errors, False) when the
    preprocessor failed."""
    argv = [flags.cc, "-E", "-dI", "-x", "c"] + flags.defs
    for q in flags.quote:
        argv += ["-iquote", q]
    argv += ["-I" + d for d in flags.dirs]
    argv += ["-isystem" + d for d in flags.system]
    argv += ["-idirafter" + d for d in flags.after]
    argv += [path, "-o", "-"]
    proc = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)
    cur = path
    for line in proc.stdout.splitlines():
        if not line.startswith("#"):
            continue
        m = MARKER.match(line)
        if m:
            cur = m.group(1)
            continue
        m = DIRECTIVE.match(line)
        if m:
            yield os.path.normpath(cur), m.group(3), m.group(2) == '"'
    # On a fatal error (a header not found) the output up to it still counts.
    if proc.returncode != 0:
        yield None, proc.stderr, False


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cc")
    ap.add_argument("--compdb")
    ap.add_argument("--compdb-root")
    ap.add_argument("--layers", required=True)
    ap.add_argument("root")
    args = ap.parse_args()
    root = os.path.realpath(args.root)
    layers = Layers(args.layers)
    old = os.path.realpath(args.compdb_root or root)

    def rebase(p):
        p = os.path.normpath(p)
        return os.path.join(root, os.path.relpath(p, old)) if (p + "/").startswith(old + "/") else p

    entries = {}
    cc = args.cc
    if args.compdb:
        with open(args.compdb, encoding="utf-8") as f:
            for e in json.load(f):
                argv = e.get("arguments") or shlex.split(e["command"])
                src = rebase(os.path.join(e["directory"], e["file"]))
                if (src + "/").startswith(root + "/"):
                    entries[os.path.relpath(src, root)] = Flags(args.cc or argv[0], argv,
                                                                e["directory"], rebase)
                cc = cc or argv[0]
    cc = tool("cc", cc)
    sysdirs = system_dirs(cc)
    fallback = Flags(cc, [cc], root, rebase)

    def flags_for(rel):
        if rel in entries:
            return entries[rel]
        best, score = fallback, -1
        for other, fl in entries.items():
            common = os.path.commonpath([os.path.dirname(rel) or ".", os.path.dirname(other) or "."])
            s = len(common.split("/")) if common not in ("", ".") else 0
            if s > score:
                best, score = fl, s
        return best

    seen = set()
    problems = []
    for rel in layers.files(root):
        flags = flags_for(rel)
        for includer, spelled, quoted in edges_of(os.path.join(root, rel), flags, sysdirs):
            if includer is None:
                problems.append("%s: the preprocessor failed:\n%s" % (rel, spelled))
                break
            inc_abs = os.path.realpath(includer if os.path.isabs(includer)
                                       else os.path.join(root, includer))
            if not (inc_abs + "/").startswith(root + "/"):
                continue
            inc_rel = os.path.relpath(inc_abs, root)
            src = layers.module_of(inc_rel)
            if src is None or (inc_rel, spelled, quoted) in seen:
                continue
            seen.add((inc_rel, spelled, quoted))
            found = resolve(spelled, quoted, inc_abs, flags, sysdirs)
            if found is None:
                problems.append("%s: includes %s, which the compiler did not find"
                                % (inc_rel, spelled))
                continue
            target, name = found
            target = os.path.realpath(target)
            if (target + "/").startswith(root + "/"):
                trel = os.path.relpath(target, root)
                dst = layers.module_of(trel)
                if dst is None:
                    problems.append("%s: includes %s, which belongs to no module"
                                    % (inc_rel, trel))
                elif dst[1] != src[1] and dst[0] not in layers.edges.get(src[0], ()):
                    problems.append("%s: includes %s (%s -> %s is not an allowed edge)"
                                    % (inc_rel, trel, src[1], dst[1]))
                continue
            for patterns, allowed in layers.headers:
                if any(fnmatch.fnmatchcase(name, p) for p in patterns) and src[0] not in allowed:
                    problems.append("%s: includes <%s> (kept for %s)"
                                    % (inc_rel, name, ", ".join(sorted(allowed))))
            for families, patterns in layers.only:
                if src[0] in families and not any(fnmatch.fnmatchcase(name, p) for p in patterns):
                    problems.append("%s: includes <%s> (%s may include only: %s)"
                                    % (inc_rel, name, src[0], " ".join(patterns)))
    if problems:
        print("check_includes: %d include(s) break the layers in %s:"
              % (len(problems), args.layers))
        for p in problems:
            print("  " + p)
        return 1
    print("check_includes: every include follows %s" % os.path.basename(args.layers))
    return 0


if __name__ == "__main__":
    sys.exit(main())
