#!/usr/bin/env python3
"""The occupancy rule on imported KTT spaces: how often "take the block-size step where
theoretical occupancy rises" is right, per program (docs/families.md, "Why occupancy").

For every block-size step of a dataset (a BLOCK_SIZE-family switch of switches.csv whose two
configurations were both timed), the theoretical occupancy before and after the step is
computed as the CUDA occupancy calculator does (warp slots, blocks per SM, registers allocated
per warp in units of 256 and split over the SM's four sub-partitions; shared memory not
counted, as in advise's step features), with the configuration's registers per thread
(`launch__registers_per_thread`) unchanged. The rule recommends the step where occupancy
rises; it is right where the measured speedup agrees (speedup > 1).

Usage: scripts/results/occupancy-rule.py [--steps] datasets/ktt-pnpoly-rtx2080ti ...
(--steps: also each step's share of faster pairs, e.g. BLOCK_SIZE_X 64->96)
Only compute capability 7.5 (Turing: 32 warps, 16 blocks, 64K registers per SM) is known
here: the only GPU of the project's block-size data with registers per thread.
"""
import csv
import gzip
import json
import math
import sys

LIMITS = {"7.5": (32, 16, 65536)}  # max warps, max blocks, registers per SM
BLOCK_PARAMS = ("BLOCK_SIZE", "WORK_GROUP_SIZE")


def occupancy(cc, threads, regs):
    warps_max, blocks_max, regs_sm = LIMITS[cc]
    warps = math.ceil(threads / 32)
    per_warp = math.ceil(regs * 32 / 256) * 256
    by_regs = ((regs_sm // 4) // per_warp * 4) // warps
    return min(warps_max // warps, by_regs, blocks_max) * warps / warps_max


def variant(text):
    return dict(kv.split("=", 1) for kv in text.split(","))


def main(args):
    per_step = "--steps" in args
    dirs = [a for a in args if a != "--steps"]
    all_right = all_total = 0
    for d in dirs:
        cc = json.load(open(f"{d}/device.json"))["compute_capability"]
        if cc not in LIMITS:
            sys.exit(f"{d}: compute capability {cc} is not in this script's table")
        times, regs = {}, {}
        for r in csv.DictReader(open(f"{d}/timings.csv")):
            times[(r["input"], r["variant"])] = float(r["time_ms"])
        for r in csv.DictReader(gzip.open(f"{d}/measurements.csv.gz", "rt")):
            if r["metric"] == "launch__registers_per_thread":
                regs[(r["input"], r["variant"])] = float(r["value"])
        steps = [s for s in csv.DictReader(open(f"{d}/switches.csv"))
                 if s["param"].startswith(BLOCK_PARAMS)]
        right = total = 0
        faster = {}
        for (inp, var), t in times.items():
            v = variant(var)
            threads = math.prod(int(x) for k, x in v.items() if k.startswith(BLOCK_PARAMS))
            for s in steps:
                if v.get(s["param"]) != s["from"] or (inp, var) not in regs:
                    continue
                w = dict(v, **{s["param"]: s["to"]})
                partner = (inp, ",".join(f"{k}={x}" for k, x in w.items()))
                if partner not in times:
                    continue
                after = threads // int(s["from"]) * int(s["to"])
                rises = occupancy(cc, after, regs[(inp, var)]) > occupancy(cc, threads, regs[(inp, var)])
                right += rises == (t / times[partner] > 1)
                total += 1
                key = (s["param"], int(s["from"]), int(s["to"]))
                n, f = faster.get(key, (0, 0))
                faster[key] = (n + 1, f + (t / times[partner] > 1))
        print(f"{d}: {total} block-size steps, occupancy rule right {100 * right / max(total, 1):.1f}%")
        if per_step:
            for (p, a, b), (n, f) in sorted(faster.items()):
                print(f"  {p} {a}->{b}: {n} pairs, faster in {100 * f / n:.0f}%")
        all_right += right
        all_total += total
    if len(dirs) > 1:
        print(f"all: {all_total} block-size steps, occupancy rule right "
              f"{100 * all_right / max(all_total, 1):.1f}%")


if __name__ == "__main__":
    main(sys.argv[1:])
