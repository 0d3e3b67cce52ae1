# SPDX-License-Identifier: MIT
"""Shared pieces of the tests/meta checks: running a tool, reading pattern
files, and the exit codes meson understands (0 pass, 1 fail, 77 skip)."""
import fnmatch
import shutil
import subprocess
import sys

SKIP = 77


def run(argv, **kw):
    """Runs argv and returns its stdout; exits the check with status 2 when
    the tool fails, since a check that cannot read its input proves nothing."""
    proc = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, **kw)
    if proc.returncode != 0:
        sys.stderr.write("%s failed (%d):\n%s" % (" ".join(argv), proc.returncode, proc.stderr))
        sys.exit(2)
    return proc.stdout


def tool(name, given=None):
    """Returns the path of a tool, or exits with status 2 when it is missing."""
    path = given or shutil.which(name)
    if not path:
        sys.stderr.write("%s not found\n" % name)
        sys.exit(2)
    return path


class Patterns:
    """A list of shell-style patterns read from text files: one a line,
    `#` starts a comment, a leading `!` excludes what an earlier line let in.
    A name matches when some pattern lets it in and no `!` pattern excludes it."""

    def __init__(self, paths=()):
        self.allow = []
        self.deny = []
        for path in paths:
            self.load(path)

    def load(self, path):
        with open(path, encoding="utf-8") as f:
            for line in f:
                line = line.split("#", 1)[0].strip()
                if not line:
                    continue
                if line.startswith("!"):
                    self.deny.append(line[1:].strip())
                else:
                    self.allow.append(line)

    def match(self, name):
        if any(fnmatch.fnmatchcase(name, p) for p in self.deny):
            return False
        return any(fnmatch.fnmatchcase(name, p) for p in self.allow)
