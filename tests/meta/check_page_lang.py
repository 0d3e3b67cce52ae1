#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The page has a Simplified Chinese phrase for each English one it shows.

usage: check_page_lang.py WEB_DIR

The English phrase is the key (web/lib/i18n.js). Checks that:
The tables are web/i18n/zh-CN*.js: the page's, and each board's own.
- every phrase of index.html (the text of an element, and its aria-label,
  title, placeholder and alt), outside translate="no" and <kbd>, is in
  web/i18n/zh-CN.js, unless it is only a name, code, address or command
  that reads the same in every language (SAME below);
- every t('...') of the page's modules has a literal phrase that is in the
  catalogue, with the same {names} in both languages;
- every phrase of the catalogue is used by index.html or a t('...');
- a phrase two tables hold has the same translation in both: a board's
  table joins the page's when it loads (addPhrases()), so a second
  translation would change the page's words from then on.
Prints each fault and exits 1 when there is one."""
import os
import re
import sys
from html.parser import HTMLParser

ATTRS = ('aria-label', 'title', 'placeholder', 'alt')
# Shown the same in both languages: the product's name, an example code,
# an address and a command line.
SAME = {'Conclave', 'K7QF2M', 'https://ntfy.sh/your-topic', 'conclave replay FILE'}
T_CALL = re.compile(r"""\bt\(\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|(`))""")
STRING = re.compile(r"""'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)\"""")
VOID = {'area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source',
        'track', 'wbr'}


def unescape(s):
    return re.sub(r'\\(.)', r'\1', s)


class Phrases(HTMLParser):
    def __init__(self):
        super().__init__()
        self.found = []
        self.stack = []  # True for an element under translate="no"

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        # A key's name (<kbd>) reads the same in every language.
        no = (self.stack[-1] if self.stack else False) or a.get('translate') == 'no' or tag == 'kbd'
        if not no:
            self.found += [a[k] for k in ATTRS if a.get(k)]
        if tag not in VOID:
            self.stack.append(no)

    def handle_endtag(self, tag):
        if tag not in VOID and self.stack:
            self.stack.pop()

    def handle_data(self, data):
        text = ' '.join(data.split())
        if text and any(c.isalpha() for c in text) and not (self.stack and self.stack[-1]):
            self.found.append(text)


def catalogue(path):
    """The zh-CN catalogue: English phrase -> translation."""
    with open(path, encoding='utf-8') as f:
        src = f.read()
    body = src[src.index('{') + 1:src.rindex('}')]
    body = re.sub(r'^\s*//.*$', '', body, flags=re.M)
    entries = {}
    strings = [unescape(m.group(1) if m.group(1) is not None else m.group(2))
               for m in STRING.finditer(body)]
    # Entries are 'English': 'translation', pairs in order.
    if len(strings) % 2:
        sys.exit('check_page_lang: %s: an entry is not a pair of strings' % path)
    for k in range(0, len(strings), 2):
        entries[strings[k]] = strings[k + 1]
    return entries


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    web = argv[1]
    zh = {}
    where = {}  # phrase -> the table that gave its translation
    faults = []
    for name in sorted(os.listdir(os.path.join(web, 'i18n'))):
        if name.startswith('zh-CN') and name.endswith('.js'):
            for phrase, text in catalogue(os.path.join(web, 'i18n', name)).items():
                if phrase in zh and zh[phrase] != text:
                    faults.append('i18n/%s: "%s" is "%s" there and "%s" in i18n/%s' %
                                  (name, phrase, text, zh[phrase], where[phrase]))
                    continue
                zh[phrase] = text
                where.setdefault(phrase, name)
    p = Phrases()
    with open(os.path.join(web, 'index.html'), encoding='utf-8') as f:
        p.feed(f.read())
    used = set()
    for phrase in p.found:
        if phrase in SAME:
            continue
        used.add(phrase)
        if phrase not in zh:
            faults.append('index.html: "%s" has no zh-CN' % phrase)
    for dirpath, _, names in os.walk(web):
        for name in sorted(names):
            if not name.endswith('.js') or dirpath.endswith('i18n'):
                continue
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, web)
            with open(path, encoding='utf-8') as f:
                src = f.read()
            src = re.sub(r'^\s*//.*$', '', src, flags=re.M)  # whole-line comments
            for m in T_CALL.finditer(src):
                line = src.count('\n', 0, m.start()) + 1
                if m.group(3):
                    faults.append('%s:%d: t() of a template string: give it a literal phrase '
                                  'and {names}' % (rel, line))
                    continue
                phrase = unescape(m.group(1) if m.group(1) is not None else m.group(2))
                used.add(phrase)
                if phrase not in zh:
                    faults.append('%s:%d: "%s" has no zh-CN' % (rel, line, phrase))
                elif set(re.findall(r'\{(\w+)\}', phrase)) != set(re.findall(r'\{(\w+)\}', zh[phrase])):
                    faults.append('%s:%d: "%s": zh-CN has other {names}' % (rel, line, phrase))
    for phrase in zh:
        if phrase not in used:
            faults.append('i18n/zh-CN*.js: "%s" is used nowhere' % phrase)
    for fault in faults:
        print(fault)
    print('%d phrases, %d faults' % (len(zh), len(faults)))
    return 1 if faults else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
