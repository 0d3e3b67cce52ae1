#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The page conclaved embeds holds exactly the files the page uses.

usage: check_web_assets.py WEB_ASSETS_C WEB_DIR GAMES_DEF

The files the page uses are found from index.html: its src= and href=
attributes (not fragments, data: or absolute addresses), every static
`import ... from './x.js'` of each module reached, each service worker a
module registers (`serviceWorker.register('sw.js', ...)`, a path against
the page, not the module), and the board's dynamic
loads (web/lib/board.js: `games/<id>.js` and `games/<id>.css` for every
game of server/games/games.def), and the log's (web/lib/messages.js: each
game's catalogue, `lang/<id>.json`, served from the source root's lang/). The embedded set is read from the
generated web_assets.c. A file used but not embedded would be a 404; one
embedded but not used (web/package.json, a generator script) is served to
nobody's benefit. Prints the differences and exits 1 when the sets differ."""
import os
import re
import sys

IMPORT = re.compile(r"""(?:^|[;\s])(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]""", re.M)
BARE_IMPORT = re.compile(r"""^\s*import\s*['"]([^'"]+)['"]""", re.M)
WORKER = re.compile(r"""serviceWorker\.register\(\s*['"]([^'"]+)['"]""")
HTML_REF = re.compile(r"""\s(?:src|href)="([^"]+)\"""")
EMBEDDED = re.compile(r'^\s*\{"(/[^"]+)", asset\d+, \d+\},$', re.M)
GAME = re.compile(r'^GAME\((\w+),', re.M)


def used_files(web, games):
    todo = ['index.html']
    for g in games:
        todo += ['games/%s.js' % g, 'games/%s.css' % g]
    seen = set()
    while todo:
        rel = os.path.normpath(todo.pop()).replace(os.sep, '/')
        if rel in seen:
            continue
        seen.add(rel)
        path = os.path.join(web, rel)
        if not os.path.isfile(path):
            continue  # reported as missing by the comparison
        with open(path, encoding='utf-8') as f:
            text = f.read()
        base = os.path.dirname(rel)
        if rel.endswith('.html'):
            refs = [r for r in HTML_REF.findall(text)
                    if not r.startswith(('#', 'data:', 'http:', 'https:', '/'))]
        elif rel.endswith('.js'):
            refs = IMPORT.findall(text) + BARE_IMPORT.findall(text)
        else:
            refs = []
        for r in refs:
            todo.append(os.path.join(base, r))
        if rel.endswith('.js'):
            # A worker's address is resolved against the page (index.html,
            # at the root), whichever module registers it.
            todo += [r for r in WORKER.findall(text) if not r.startswith(('http:', 'https:', '/'))]
        if rel == 'lib/messages.js':
            # The catalogues are not under web/: their existence is the
            # build's (lang_files), not read here.
            seen.update('lang/%s.json' % g for g in games)
    return seen


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    assets_c, web, games_def = sys.argv[1:]
    with open(assets_c, encoding='utf-8') as f:
        embedded = {p[1:] for p in EMBEDDED.findall(f.read())}
    with open(games_def, encoding='utf-8') as f:
        games = GAME.findall(f.read())
    if not embedded or not games:
        sys.exit('check_web_assets: no embedded files or no games found')
    used = used_files(web, games)
    missing = sorted(used - embedded)
    extra = sorted(embedded - used)
    for p in missing:
        state = 'is not in web/meson.build' if os.path.isfile(os.path.join(web, p)) \
            else 'does not exist'
        print('check_web_assets: the page uses %s, which %s' % (p, state))
    for p in extra:
        print('check_web_assets: %s is embedded but the page never loads it' % p)
    if missing or extra:
        return 1
    print('check_web_assets: the page embeds exactly the %d files it uses' % len(used))
    return 0


if __name__ == '__main__':
    sys.exit(main())
