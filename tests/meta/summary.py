#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Prints the closing line of `make test`: "N passed, N failed", the totals
of every test of every suite in a meson testlog.json, and ", N skipped"
when a test skipped itself (saying why in its log)."""
import json
import sys

passed = failed = skipped = 0
try:
    with open(sys.argv[1], encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            result = json.loads(line).get("result")
            if result in ("OK", "EXPECTEDFAIL"):
                passed += 1
            elif result == "SKIP":
                skipped += 1
            else:
                failed += 1
except OSError:
    failed += 1
print(f"{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""))
