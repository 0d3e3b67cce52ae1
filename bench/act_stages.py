#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Where one move of the act path goes, by what it is for.

Runs `bench_load --mode act` for one game and target, records the server's
call stacks with `perf record --call-graph dwarf` for two seconds of its
`act` window, and counts each sample once, in the innermost of the stages
below that is on its stack; prints the stages in microseconds of CPU a move
(the act row's CPU a move times the stage's share of the samples).

    bench/act_stages.py --game stones [--target conclaved|floor|owed]
                        [--by stage|object] [--build build] [--seconds 8]

With `--by object` each sample is counted in the object its innermost
frame ran in (the kernel, the server, libc, libsodium, jansson, libuv).

`owed` is the owed floor (bench_floor --owed, at the sizes of conclaved's
`legal` row). Needs perf and permission to attach to a process.
"""
import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile
import time

# Each stage and the functions that mark it, conclaved's and the floors'.
STAGES = [
    ("sends", "conn_flush flush_dirty"),
    ("write job", "work work_files work_sync job_start owed_flush"),
    ("lines held and released", "after_work journal_durable lobby_durable lobby__flush "
     "lobby__out out_push conn_send"),
    ("view hash", "hash_public hash_finish marks_note hash_part owed_hash"),
    ("request parse", "proto_request_parse proto_framer_feed json_loadb"),
    ("reads and the loop", "on_read uv__read epoll_wait uv__io_poll"),
    ("views and diffs", "lobby__views_publish publish_public publish_items publish_log "
     "publish_seat diff_line hist_push hist_drop part_write part_keep you_write "
     "proto_patch_diff_text proto_patch_diff_item diff_text_at text_keep part_splice "
     "lobby__views_send_state items_check"),
    ("rules", "act_check act_apply game_try lobby__undo_after_act parts_same"),
    ("journal record", "act_encode store_append journal_append store_record_write "
     "record_text owed_record"),
    ("the request's handling", "sess_handle_line lobby_act lobby__event_commit lobby__commit "
     "lobby__commit_tail handle_line op_act"),
]
ORDER = [name for name, _ in STAGES] + ["the rest"]
STAGE_OF = {f: name for name, funcs in STAGES for f in funcs.split()}


def stacks(script_text):
    """The samples of `perf script -F comm,tid,ip,sym`: each a list of
    function names, innermost first."""
    out, cur = [], []
    for line in script_text.splitlines():
        if not line.strip():
            if cur:
                out.append(cur)
                cur = []
            continue
        if not line[0].isspace():
            if cur:
                out.append(cur)
            cur = []
            continue
        parts = line.split(None, 1)
        name = parts[1] if len(parts) > 1 else "?"
        cur.append(name.split("+")[0].split(" (")[0])
    if cur:
        out.append(cur)
    return out


def stage_shares(samples):
    counts = collections.Counter()
    for s in samples:
        counts[next((STAGE_OF[f] for f in s if f in STAGE_OF), "the rest")] += 1
    total = sum(counts.values())
    return {k: counts[k] / total for k in ORDER} if total else {}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="stones")
    ap.add_argument("--target", default="conclaved", choices=["conclaved", "floor", "owed"])
    ap.add_argument("--build", default="build")
    ap.add_argument("--seconds", type=float, default=8)
    ap.add_argument("--by", default="stage", choices=["stage", "object"])
    args = ap.parse_args()

    b = args.build
    cmd = [os.path.join(b, "bench", "bench_load"), "--mode", "act", "--target", args.target,
           "--game", args.game, "--fsync", "always",
           "--conclaved", os.path.join(b, "server", "conclaved"),
           "--floor", os.path.join(b, "bench", "bench_floor"), "--floor-jansson", "none",
           "--preload", os.path.join(b, "bench", "libbench_detrand.so"),
           "--warmup", "1", "--seconds", str(args.seconds)]
    server = "conclaved" if args.target == "conclaved" else "bench_floor"
    # The act window starts once the last `legal` row is printed.
    legal_rows = 2 if args.target == "owed" else 1
    with tempfile.TemporaryDirectory(prefix="act-stages-") as tmp:
        data = os.path.join(tmp, "perf.data")
        bench = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                 text=True)
        output, seen = [], 0
        for line in bench.stdout:
            output.append(line)
            if re.match(r"^\s+\S+\s+\S+\s+legal\s", line):
                seen += 1
                if seen == legal_rows:
                    break
        time.sleep(1.0)
        pid = subprocess.run(["pgrep", "-n", "-x", server], capture_output=True,
                             text=True).stdout.strip()
        if not pid:
            bench.kill()
            sys.exit("act_stages: no %s running in the act window" % server)
        subprocess.run(["perf", "record", "-q", "-F", "999", "--call-graph", "dwarf,65528",
                        "-p", pid, "-o", data, "--", "sleep", "2"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        output.extend(bench.stdout)
        if bench.wait() != 0:
            sys.exit("act_stages: bench_load failed:\n" + "".join(output))
        script = subprocess.run(["perf", "script", "-i", data, "-F", "comm,tid,ip,sym"],
                                capture_output=True, text=True).stdout
        objects = subprocess.run(["perf", "report", "-i", data, "--no-children", "--sort",
                                  "dso", "-q", "--stdio"],
                                 capture_output=True, text=True).stdout if args.by == "object" else ""
    act = [l for l in output if re.match(r"^\s+\S+\s+\S+\s+act\s", l)]
    if not act:
        sys.exit("act_stages: no act row:\n" + "".join(output))
    us = float(re.search(r"server\s+([0-9.]+) us/move", act[-1]).group(1))
    samples = stacks(script)
    print("%s %s: act %.1f us a move, %d samples" % (args.target, args.game, us, len(samples)))
    if args.by == "object":
        for line in objects.splitlines():
            m = re.match(r"\s*([0-9.]+)%\s+(\S+)", line)
            if m:
                share = float(m.group(1)) / 100
                print("  %-26s %5.2f us  %4.1f %%" % (m.group(2), us * share, 100 * share))
        return
    shares = stage_shares(samples)
    for k in ORDER:
        print("  %-26s %5.2f us  %4.1f %%" % (k, us * shares.get(k, 0), 100 * shares.get(k, 0)))


if __name__ == "__main__":
    main()
