#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`conclave` in English and in Simplified Chinese against the real
server: the language it picks (--lang, then $CONCLAVE_LANG, then the
terminal's locale), a game read and played in Chinese and switched to
English with `lang en`, a room's log written for each reader in their
own language from the view's message keys and the game's catalogue
(lang/<game>.json, the real one), columns that stay aligned when a name
is Chinese, card texts in Chinese, and a scripted mode that stays
language-free."""
import json
import os
import re
import subprocess
import tempfile
import unicodedata

from harness import CONCLAVE, ServerTest, main

LANG_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lang")
LOCALE_VARS = ("LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "CONCLAVE_LANG")


def has_cjk(text):
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def columns(text):
    """The columns `text` takes on a terminal."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def catalogue(game):
    with open(os.path.join(LANG_DIR, game + ".json"), encoding="utf-8") as f:
        return json.load(f)


def written(cat, msg):
    """A log message [key, arg...] as the catalogue's zh-CN template gives
    it (lang/README.md), or None when the catalogue has no such template."""
    entry = cat.get("messages", {}).get(msg[0]) if msg else None
    if not isinstance(entry, dict) or not entry.get("zh-CN"):
        return None
    args = msg[1:]
    cards = {c.get("en"): c.get("zh-CN") for c in cat.get("cards", {}).values()}
    cards.update({cid: c.get("zh-CN") for cid, c in cat.get("cards", {}).items()})

    def fill(m):
        i, kind = int(m.group(1)), m.group(2)
        if i >= len(args):
            raise KeyError(i)
        arg = args[i]
        if kind == "card":
            return cards.get(arg) or arg
        if kind:
            return cat.get("terms", {}).get(kind, {}).get(arg) or arg
        return arg

    try:
        return re.sub(r"\{(\d+)(?::([^}]*))?\}", fill, entry["zh-CN"])
    except KeyError:
        return None


class CliLang(ServerTest):
    server_args = ("--bot-delay", "0", "--rate", "100000", "--rate-burst", "100000")

    def setUp(self):
        super().setUp()
        self.state = tempfile.mkdtemp(prefix="conclave-lang-")
        env = {k: v for k, v in os.environ.items() if k not in LOCALE_VARS}
        self.env = dict(env, XDG_STATE_HOME=self.state, NO_COLOR="1")

    def run_cli(self, args, stdin="", **env):
        return subprocess.run([CONCLAVE, "--server", self.srv.addr] + args, input=stdin,
                              capture_output=True, text=True, env=dict(self.env, **env),
                              timeout=120)

    def test_the_flag_then_conclave_lang_then_the_locale_choose_the_language(self):
        cases = [
            ([], {}, False),
            ([], {"LANG": "zh_CN.UTF-8"}, True),
            ([], {"LANG": "zh_SG.UTF-8"}, True),
            ([], {"LANG": "zh"}, True),
            ([], {"LANG": "zh_TW.UTF-8"}, False),
            ([], {"LANG": "zh_CN.UTF-8", "LC_ALL": "C"}, False),
            ([], {"LANG": "en_US.UTF-8", "LC_MESSAGES": "zh_CN.UTF-8"}, True),
            ([], {"LANG": "zh_CN.UTF-8", "CONCLAVE_LANG": "en"}, False),
            ([], {"CONCLAVE_LANG": "zh-CN"}, True),
            (["--lang", "zh-CN"], {"CONCLAVE_LANG": "en"}, True),
            (["--lang", "en"], {"LANG": "zh_CN.UTF-8", "CONCLAVE_LANG": "zh-CN"}, False),
        ]
        for args, env, chinese in cases:
            out = self.run_cli(args + ["join"], **env)
            self.assertEqual(out.returncode, 2, (args, env, out.stderr))
            self.assertEqual(has_cjk(out.stderr), chinese, (args, env, out.stderr))
            self.assertEqual("needs a room code" in out.stderr, not chinese, (args, env))
        out = self.run_cli(["--lang", "fr", "join"])
        self.assertEqual(out.returncode, 2)
        self.assertIn('--lang takes en or zh-CN, not "fr"', out.stderr)
        out = self.run_cli(["join"], CONCLAVE_LANG="fr", LANG="zh_CN.UTF-8")
        self.assertIn("CONCLAVE_LANG=fr", out.stderr)
        self.assertTrue(has_cjk(out.stderr), out.stderr)
        out = self.run_cli(["--lang", "zh-CN", "--help"])
        self.assertEqual(out.returncode, 0)
        self.assertTrue(has_cjk(out.stdout))
        self.assertIn("--lang en|zh-CN", out.stdout)

    def test_a_game_is_read_in_chinese_and_lang_switches_it_to_english(self):
        out = self.run_cli(["--lang", "zh-CN", "--name", "Ann", "create", "stones", "--seats", "2",
                            "--bots"], stdin="legal\nhelp\nlang\nlang en\nlegal\nquit\n")
        self.assertEqual(out.returncode, 0, out.stdout[-2000:] + out.stderr)
        text = out.stdout
        switch = text.index("language: en\n")
        chinese, english = text[:switch], text[switch:]
        # Before the switch: the board, the choices and the help in Chinese.
        listed = re.findall(r"^  #\d+ (.*)$", chinese, re.M)
        self.assertTrue(listed, chinese[-2000:])
        self.assertTrue(all(has_cjk(phrase) for phrase in listed), listed)
        self.assertNotIn("Alchemy Zone", chinese)
        self.assertNotIn("place your Taoist", chinese)
        self.assertIn("stones", chinese)
        self.assertIn("lang [en|zh-CN]", chinese)
        self.assertRegex(chinese, r"zh-CN.*`lang en`")
        # After it: the board is drawn again and the choices are English.
        self.assertIn("Alchemy Zone", english)
        self.assertRegex(english, r"#1 place your Taoist on T")
        self.assertFalse(has_cjk(english), english[-2000:])

    def test_each_reader_reads_the_log_in_their_language(self):
        """In each game whose catalogue has messages, a Chinese player reads
        the log lines the catalogue knows in Chinese, the others as the
        server wrote them, and an English spectator reads them all as
        written."""
        for game in ("stones", "element", "sorcerers", "arcana"):
            cat = catalogue(game)
            if not cat.get("messages"):
                continue
            with self.subTest(game=game):
                self.log_in_both_languages(game, cat)

    def log_in_both_languages(self, game, cat):
        os.makedirs(os.path.join(self.state, game), exist_ok=True)
        state = dict(XDG_STATE_HOME=os.path.join(self.state, game))
        out = self.run_cli(["--lang", "zh-CN", "--name", "Ann", "create", game, "--seats", "2",
                            "--bots"], stdin="legal\n#1\n" * 4 + "view\nquit\n", **state)
        self.assertEqual(out.returncode, 0, out.stdout[-2000:] + out.stderr)
        zh_text = out.stdout
        with open(os.path.join(state["XDG_STATE_HOME"], "conclave", "session.json")) as f:
            code = json.load(f)["sessions"][0]["room"]
        english = self.run_cli(["--lang", "en", "--name", "Eve", "spectate", code],
                               stdin="view\nquit\n", **state)
        self.assertEqual(english.returncode, 0, english.stderr)
        self.assertFalse(has_cjk(english.stdout), english.stdout[-2000:])
        # The log as the server keeps it, with its messages.
        spy = self.client("Spy")
        spy.ok("spectate", room=code)
        spy.pump(lambda c: c.view is not None)
        spy.answers()
        log, keys = spy.view["log"], spy.view.get("log_keys")
        if keys is None:
            self.skipTest("the %s view carries no log_keys yet" % game)
        self.assertEqual(len(keys), len(log))
        self.assertTrue(any(line in english.stdout for line in log), english.stdout[-2000:])
        translated = 0
        for line, msg in zip(log, keys):
            want = written(cat, msg)
            if line not in zh_text and (want is None or want not in zh_text):
                continue  # not on the Chinese reader's boards
            if want is None:
                self.assertIn(line, zh_text)  # no template: as it is
            elif want != line:
                self.assertIn(want, zh_text)
                self.assertFalse([l for l in zh_text.splitlines() if l.endswith(" " + line)],
                                 line)
                translated += 1
        self.assertGreater(translated, 0, zh_text[-2000:])

    def test_columns_hold_when_a_name_is_chinese(self):
        out = self.run_cli(["--lang", "en", "--name", "安娜", "create", "stones", "--seats", "2",
                            "--bots"], stdin="who\nquit\n")
        self.assertEqual(out.returncode, 0, out.stderr)
        at = {}
        for line in out.stdout.splitlines():
            m = re.match(r"  seat (\d): (.*?)(human|bot)\b", line)
            if m:
                at[m.group(1)] = columns(line[:m.start(3)])
        self.assertEqual(set(at), {"0", "1"}, out.stdout)
        self.assertEqual(at["0"], at["1"], out.stdout)
        # "  seat N: ", a name column of 20, a space.
        self.assertEqual(at["0"], len("  seat 0: ") + 21)

    def test_card_texts_are_chinese_and_chinese_names_find_them(self):
        cat = catalogue("arcana")
        zh_name = (cat.get("cards", {}).get("athanor") or {}).get("zh-CN")
        script = "card athanor\n" + ("card %s\n" % zh_name if zh_name else "") + "quit\n"
        out = self.run_cli(["--lang", "zh-CN", "--name", "Ann", "create", "arcana", "--seats",
                            "2", "--bots"], stdin=script)
        self.assertEqual(out.returncode, 0, out.stderr)
        # Each text starts with the card's name and id: its first line.
        heads = [l for l in out.stdout.splitlines() if "（athanor）：" in l]
        self.assertTrue(heads, out.stdout[-2000:])
        self.assertTrue(has_cjk(heads[0]))
        self.assertIn("力量 0", out.stdout)
        self.assertNotIn("Power 0", out.stdout)
        for line in out.stdout.splitlines():
            self.assertLessEqual(columns(line), 80, line)
        if zh_name:
            self.assertTrue(heads[0].startswith(zh_name), heads[0])
            self.assertEqual(len(heads), 2, out.stdout[-2000:])
            self.assertEqual(heads[0], heads[1])
        out = self.run_cli(["--lang", "zh-CN", "--name", "Ann", "create", "sorcerers", "--bots"],
                           stdin="card balthazar blake\nquit\n")
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn("梅林派巫师", out.stdout)

    def test_the_scripted_mode_has_no_language(self):
        runs = [self.run_cli(["--json", "info"], CONCLAVE_LANG=lang, LANG="zh_CN.UTF-8")
                for lang in ("en", "zh-CN")]
        self.assertEqual(runs[0].returncode, 0, runs[0].stderr)
        self.assertEqual(runs[0].stdout, runs[1].stdout)
        self.assertFalse(has_cjk(runs[1].stdout))
        out = self.run_cli(["--lang", "zh-CN", "--json", "--name", "Ann", "create", "stones",
                            "--seats", "2"])
        self.assertEqual(out.returncode, 0, out.stderr)
        lines = [json.loads(l) for l in out.stdout.splitlines()]
        self.assertTrue(lines[0]["ok"])
        self.assertFalse(has_cjk(out.stdout))
        # `games --json` names each seat's state in the protocol's words.
        out = self.run_cli(["--lang", "zh-CN", "--json", "games"])
        self.assertEqual(out.returncode, 0, out.stderr)
        states = [json.loads(l)["state"] for l in out.stdout.splitlines()]
        self.assertEqual(states, ["in the lobby"])
        out = self.run_cli(["--lang", "zh-CN", "games"])
        self.assertNotIn("in the lobby", out.stdout)
        self.assertTrue(has_cjk(out.stdout), out.stdout)


if __name__ == "__main__":
    main()
