#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every log line a game writes has its message in lang/<game>.json.

usage: check_messages.py SRC_ROOT

For each game of server/games/games.def, finds the game's log function (a
`void <prefix>__log(..., const char *key, const char *fmt, ...)` declared
in a header of server/games/<game>/) and each call of it in the game's .c
files. The key and the format must be string literals. For each call:
- the key is in the catalogue's "messages", and one key always has one
  format;
- its "en" template, with each `{i:type}` read as `{i}`, is the format with
  its i-th conversion written `{i}` (and `%%` as `%`): the clients' English
  line is then the server's;
- its "zh-CN" template uses the same arguments, each at least once.
The catalogue holds no message no call writes; a `{i:type}` names a table
of "terms" or `card`; each card has "en", "zh-CN" and a "source" of "seed"
or "ours". Prints each fault and exits 1 when there is one."""
import json
import os
import re
import sys

GAME = re.compile(r'^GAME\((\w+),', re.M)
LOG_DECL = re.compile(r'void\s+(\w+__log)\s*\([^;{)]*const char \*key\s*,\s*const char \*fmt')
CONVERSION = re.compile(r'%(%|l?[dus])')
PLACEHOLDER = re.compile(r'\{(\d+)(?::([a-z_]+))?\}')
LANGS = ('en', 'zh-CN')


def literal(arg):
    """The text of a C string literal sequence, or None."""
    parts = re.findall(r'"((?:[^"\\]|\\.)*)"', arg)
    rest = re.sub(r'"((?:[^"\\]|\\.)*)"', '', arg).strip()
    if not parts or rest:
        return None
    text = ''.join(parts)
    return re.sub(r'\\(.)', lambda m: {'n': '\n', 't': '\t'}.get(m.group(1), m.group(1)), text)


def call_args(src, start):
    """The top-level arguments of the call whose '(' is at src[start - 1]."""
    args, depth, cur, i = [], 0, [], start
    while i < len(src):
        c = src[i]
        if c == '"' or c == "'":
            j = i + 1
            while src[j] != c:
                j += 2 if src[j] == '\\' else 1
            cur.append(src[i:j + 1])
            i = j + 1
            continue
        if c in '([{':
            depth += 1
        elif c in ')]}':
            if depth == 0:
                args.append(''.join(cur).strip())
                return args
            depth -= 1
        elif c == ',' and depth == 0:
            args.append(''.join(cur).strip())
            cur = []
            i += 1
            continue
        cur.append(c)
        i += 1
    return args


def template_of(fmt):
    """The format with its i-th conversion as {i}."""
    n = [0]

    def sub(m):
        if m.group(1) == '%':
            return '%'
        n[0] += 1
        return '{%d}' % (n[0] - 1)
    return CONVERSION.sub(sub, fmt), n[0]


def strip_types(template):
    return PLACEHOLDER.sub(lambda m: '{%s}' % m.group(1), template)


def check_game(root, game, faults):
    where = os.path.join(root, 'server', 'games', game)
    sources = {}
    for name in sorted(os.listdir(where)):
        if name.endswith(('.c', '.h')):
            with open(os.path.join(where, name), encoding='utf-8') as f:
                sources[name] = f.read()
    funcs = {m.group(1) for name, s in sources.items() if name.endswith('.h')
             for m in LOG_DECL.finditer(s)}
    if len(funcs) != 1:
        faults.append('%s: no log function taking a key and a format in server/games/%s/*.h' %
                      (game, game))
        return
    func = funcs.pop()
    path = os.path.join(root, 'lang', game + '.json')
    try:
        with open(path, encoding='utf-8') as f:
            cat = json.load(f)
    except (OSError, ValueError) as e:
        faults.append('%s: %s' % (path, e))
        return
    messages = cat.get('messages', {})
    terms = cat.get('terms', {})
    cards = cat.get('cards', {})
    used = {}
    call = re.compile(r'\b%s\s*\(' % re.escape(func))
    for name, s in sources.items():
        if not name.endswith('.c'):
            continue
        for m in call.finditer(s):
            line = s.count('\n', 0, m.start()) + 1
            at = '%s/%s:%d' % (game, name, line)
            before = s[max(0, m.start() - 5):m.start()]
            if re.search(r'void\s*$', s[max(0, m.start() - 40):m.start()]) or before.endswith('*'):
                continue  # the definition
            args = call_args(s, m.end())
            if len(args) < 3:
                faults.append('%s: %s() needs the state, a key and a format' % (at, func))
                continue
            key, fmt = literal(args[1]), literal(args[2])
            if key is None or fmt is None:
                faults.append('%s: the key and the format of %s() must be string literals' %
                              (at, func))
                continue
            if '{' in fmt or '}' in fmt:
                faults.append('%s: a log format may not hold braces: %r' % (at, fmt))
                continue
            template, nargs = template_of(fmt)
            if len(args) - 3 != nargs:
                faults.append('%s: %d conversions, %d arguments' % (at, nargs, len(args) - 3))
            if key in used and used[key] != template:
                faults.append('%s: key "%s" is used with two formats: %r and %r' %
                              (at, key, used[key], template))
            used[key] = template
            msg = messages.get(key)
            if not isinstance(msg, dict):
                faults.append('%s: key "%s" is not in lang/%s.json (en: %r)' %
                              (at, key, game, template))
                continue
            if strip_types(msg.get('en', '')) != template:
                faults.append('%s: "%s": en is %r, the format gives %r' %
                              (at, key, msg.get('en'), template))
    for key, msg in messages.items():
        if key not in used:
            faults.append('lang/%s.json: "%s" is written by no call of %s()' % (game, key, func))
            continue
        if not isinstance(msg, dict) or any(not isinstance(msg.get(l), str) for l in LANGS):
            faults.append('lang/%s.json: "%s" needs en and zh-CN' % (game, key))
            continue
        want = {int(i) for i, _ in PLACEHOLDER.findall(msg['en'])}
        got = {int(i) for i, _ in PLACEHOLDER.findall(msg['zh-CN'])}
        if want != got:
            faults.append('lang/%s.json: "%s": zh-CN uses arguments %s, en %s' %
                          (game, key, sorted(got), sorted(want)))
        for l in LANGS:
            for _, kind in PLACEHOLDER.findall(msg[l]):
                if kind and kind != 'card' and kind not in terms:
                    faults.append('lang/%s.json: "%s" (%s): no terms table "%s"' %
                                  (game, key, l, kind))
    for kind, table in terms.items():
        if not isinstance(table, dict) or any(not isinstance(v, str) for v in table.values()):
            faults.append('lang/%s.json: terms "%s" must map English words to zh-CN' %
                          (game, kind))
    for cid, card in cards.items():
        if (not isinstance(card, dict) or any(not isinstance(card.get(l), str) for l in LANGS)
                or card.get('source') not in ('seed', 'ours')):
            faults.append('lang/%s.json: card "%s" needs en, zh-CN and a source of seed or ours' %
                          (game, cid))


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    root = argv[1]
    with open(os.path.join(root, 'server', 'games', 'games.def'), encoding='utf-8') as f:
        games = GAME.findall(f.read())
    faults = []
    for game in games:
        check_game(root, game, faults)
    for fault in faults:
        print(fault)
    print('%d games, %d faults' % (len(games), len(faults)))
    return 1 if faults else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
