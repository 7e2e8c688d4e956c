#!/usr/bin/env python3
"""The majority rule across programs, program by program: for every optimization of an
advisor validated on programs it had not seen (leave one program out over two or more
programs), the rule learned from the other programs' training pairs (faster where most of
them got faster) and the share of the held-out program's pairs whose direction it gets
right. `advise train` pools the held-out pairs, so a program with many pairs (XPlacer's
gaussian holds 447 of UM_MANAGED's 514) weighs most there and in the coin-toss test of the
verdicts; this table shows each program apart, and their unweighted mean.

It reads the advisor's stored training pairs (at most 600 per optimization, a seeded
subsample: `advise train`'s max_samples), the same pairs its validation used. The rule here
learns from every pair of the other programs; `advise train`'s rule learns from the measured
ones alone where some are simulated (BH and NB), so those rows can differ from train.txt.

Usage: scripts/results/rule-by-program.py [models/default.advisor.json.gz]
"""
import collections
import gzip
import json
import sys


def main(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        advisor = json.load(f)
    print("optimization                        host      mean %  per held-out program: right % / pairs")
    for m in advisor["optimizations"]:
        if not m.get("across_programs"):
            continue
        by_program = collections.defaultdict(list)
        for sample_id, speedup in zip(m["ids"], m["speedups"]):
            by_program[sample_id.split(" ")[0]].append(speedup)
        if len(by_program) < 2:
            continue
        cells, shares = [], []
        for program, ys in sorted(by_program.items()):
            others = [y for p, v in by_program.items() if p != program for y in v]
            faster = sum(y > 1.0 for y in others) > len(others) / 2
            right = sum((y > 1.0) == faster for y in ys) / len(ys)
            shares.append(right)
            cells.append(f"{program} {100 * right:.0f}% / {len(ys)}")
        mean = 100 * sum(shares) / len(shares)
        print(f"{m['name']:<35} {m.get('host_link') or '-':<9} {mean:6.1f}  {', '.join(cells)}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "models/default.advisor.json.gz")
