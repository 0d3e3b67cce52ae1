#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The terminal client's message table against its sources: every string
the client marks for translation (_("...") and N_("...") in client-cli/)
has a zh-CN entry in client-cli/lang_zh.c, every entry is used, none is
there twice, and each zh-CN text has the printf conversions of its English
in the same order (so that a Chinese screen prints the same arguments as
an English one), and a text of several lines that keeps to 80 columns in
English does in Chinese (a Chinese character takes two). --missing prints
the entries still to write.
Usage: check_cli_messages.py [--missing] SOURCE_ROOT"""
import os
import re
import sys
import unicodedata

ESCAPES = {"n": b"\n", "t": b"\t", "\\": b"\\", '"': b'"', "'": b"'", "a": b"\a", "?": b"?",
           "r": b"\r", "0": b"\0"}
CONV = re.compile(r"%(?:\d+\$)?[-+ #0]*(?:\*|\d+)?(?:\.(?:\*|\d+))?(?:hh|h|ll|l|z|j|t|L)?"
                  r"([diouxXeEfFgGaAcspn%])")


def literal_at(text, i):
    """The string literal starting at text[i] == '"': (bytes, index after)."""
    assert text[i] == '"'
    out = bytearray()
    i += 1
    while text[i] != '"':
        c = text[i]
        if c == "\\":
            e = text[i + 1]
            if e in "01234567":
                j = i + 1
                while j < i + 4 and text[j] in "01234567":
                    j += 1
                out.append(int(text[i + 1:j], 8))
                i = j
                continue
            if e == "x":
                j = i + 2
                while text[j] in "0123456789abcdefABCDEF":
                    j += 1
                out.append(int(text[i + 2:j], 16))
                i = j
                continue
            out += ESCAPES[e]
            i += 2
            continue
        out += c.encode("utf-8")
        i += 1
    return bytes(out), i + 1


def skip_space(text, i):
    while True:
        while i < len(text) and text[i] in " \t\r\n":
            i += 1
        if text.startswith("/*", i):
            i = text.index("*/", i) + 2
            continue
        return i


def literals_at(text, i):
    """Adjacent string literals from text[i] (after spaces): (str or None, index)."""
    i = skip_space(text, i)
    if i >= len(text) or text[i] != '"':
        return None, i
    parts = []
    while i < len(text) and text[i] == '"':
        s, i = literal_at(text, i)
        parts.append(s)
        j = skip_space(text, i)
        if j < len(text) and text[j] == '"':
            i = j
        else:
            break
    return b"".join(parts).decode("utf-8"), i


MARK = re.compile(r"(?<![A-Za-z0-9_])N?_\(")


def marked(root):
    """{english: [file:line, ...]} for every _() and N_() literal of client-cli."""
    found = {}
    top = os.path.join(root, "client-cli")
    for dirpath, _, files in os.walk(top):
        for name in sorted(files):
            if not name.endswith((".c", ".h")) or name == "lang_zh.c":
                continue
            path = os.path.join(dirpath, name)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            for m in MARK.finditer(text):
                s, _ = literals_at(text, m.end())
                if s is None:
                    continue
                line = text.count("\n", 0, m.start()) + 1
                found.setdefault(s, []).append("%s:%d" % (os.path.relpath(path, root), line))
    return found


def table(root):
    """[(english, chinese, line)] of client-cli/lang_zh.c."""
    path = os.path.join(root, "client-cli", "lang_zh.c")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    start = text.index("cli_zh_cn[] = {")
    i = text.index("{", start + len("cli_zh_cn[] ="))  + 1
    rows = []
    while True:
        i = skip_space(text, i)
        if text[i] == "}":
            break
        assert text[i] == "{", "lang_zh.c: an entry expected at line %d" % (
            text.count("\n", 0, i) + 1)
        line = text.count("\n", 0, i) + 1
        en, i = literals_at(text, i + 1)
        i = skip_space(text, i)
        assert text[i] == ",", "lang_zh.c:%d: a comma expected" % line
        zh, i = literals_at(text, i + 1)
        i = skip_space(text, i)
        assert text[i] == "}", "lang_zh.c:%d: a closing brace expected" % line
        i = skip_space(text, i + 1)
        if text[i] == ",":
            i += 1
        rows.append((en, zh, line))
    return rows


def columns(s):
    """The columns `s` takes on a terminal (East Asian wide: two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in s)


def conversions(s):
    """The conversions of format `s` in the order they take their
    arguments: a translation may number them (%2$s) to take them in
    another order than it writes them."""
    convs = [(m.group(0), m.group(1)) for m in CONV.finditer(s) if m.group(1) != "%"]
    numbered = [re.match(r"%(\d+)\$", whole) for whole, _ in convs]
    if any(numbered):
        if not all(numbered):
            return ["numbered and unnumbered conversions mixed"]
        return [c for _, c in sorted((int(n.group(1)), c) for n, (_, c) in zip(numbered, convs))]
    return [c for _, c in convs]


def c_literal(s):
    out = s.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t").replace("\a", "\\a")
    out = out.replace("\033", "\\033")
    lines = out.split("\n")
    parts = [l + "\\n" for l in lines[:-1]] + ([lines[-1]] if lines[-1] else [])
    return "\n     ".join('"%s"' % p for p in parts) if parts else '""'


def main():
    args = sys.argv[1:]
    missing_only = "--missing" in args
    args = [a for a in args if a != "--missing"]
    if len(args) != 1:
        raise SystemExit(__doc__)
    root = args[0]
    used = marked(root)
    rows = table(root)
    have = {}
    problems = []
    for en, zh, line in rows:
        if en in have:
            problems.append("lang_zh.c:%d: \"%s\" is in the table twice" % (line, en[:60]))
        have[en] = zh
        if en not in used:
            problems.append("lang_zh.c:%d: \"%s\" is not marked anywhere in client-cli" %
                            (line, en[:60]))
        if conversions(en) != conversions(zh):
            problems.append("lang_zh.c:%d: \"%s\": the zh-CN conversions %s differ from %s" %
                            (line, en[:60], conversions(zh), conversions(en)))
        wide = [l for l in zh.split("\n") if columns(l) > 80]
        if "\n" in en.rstrip("\n") and all(columns(l) <= 80 for l in en.split("\n")) and wide:
            problems.append("lang_zh.c:%d: \"%s\": a line of %d columns where the English "
                            "keeps to 80" % (line, en[:60], columns(wide[0])))
        if en.endswith("\n") != zh.endswith("\n"):
            problems.append("lang_zh.c:%d: \"%s\": one ends a line, the other not" %
                            (line, en[:60]))
    missing = [s for s in used if s not in have]
    if missing_only:
        for s in missing:
            print("    {%s,\n     %s}," % (c_literal(s), c_literal(s)))
        return 0
    for s in missing:
        problems.append("%s: \"%s\" has no zh-CN entry in lang_zh.c" % (used[s][0], s[:60]))
    for p in problems:
        print("check_cli_messages: " + p)
    print("check_cli_messages: %d strings marked, %d entries, %d problems" %
          (len(used), len(rows), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
