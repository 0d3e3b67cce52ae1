#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Prints the wire ids of the games in server/games/registry.c, in registry
order, one per line, so that meson can split the suites by game without a
list of its own. It reads the registry array's `&<table>` entries and finds
each table's `.id = "..."` in the game folders. Reads files only."""
import pathlib
import re
import sys

games = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "server/games")
registry = (games / "registry.c").read_text()
body = re.search(r"game_registry\[\]\s*=\s*\{(.*?)\};", registry, re.S)
if not body:
    sys.exit("game_ids.py: no game_registry[] in registry.c")
tables = re.findall(r"&\s*(\w+)", body.group(1))
ids = {}
for path in sorted(games.glob("*/*.c")):
    text = path.read_text(errors="replace")
    for m in re.finditer(r"const\s+struct\s+game_ops\s+(\w+)\s*=\s*\{(.*?)\};", text, re.S):
        idm = re.search(r"\.id\s*=\s*\"([^\"]+)\"", m.group(2))
        if idm:
            ids[m.group(1)] = idm.group(1)
for t in tables:
    if t not in ids:
        sys.exit("game_ids.py: no ops table %s with an .id under %s" % (t, games))
    print(ids[t])
