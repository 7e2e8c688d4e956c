#!/usr/bin/env python3
"""Does it matter whether the programs a majority rule learned from agree? For every
optimization of an advisor learned from three or more programs, each program is held out in
turn: the rule's verdict comes from the other programs' pooled median speedup (faster, within
the 2% band of "no clear effect", or slower: `recommend::suggest`'s verdicts), the agreement
is how many of those programs' own medians fall on the same side (what a suggestion's reason
prints since the advisor stores `rule.by_program`), and a held-out pair is right when its own
speedup falls on the verdict's side. If agreement marked a verdict that carries over, the
held-out pairs of unanimous verdicts would be right more often than the rest.

It reads the advisor's stored training pairs (at most 600 per optimization, a seeded
subsample: `advise train`'s max_samples), the measured ones where some are simulated (the
rule's own basis), and prints each held-out program, then the pooled shares.

Usage: scripts/results/rule-agreement.py [models/default.advisor.json.gz]
"""
import collections
import gzip
import json
import statistics
import sys

BAND = 0.02


def side(x):
    if abs(x - 1.0) < BAND:
        return 0
    return 1 if x > 1.0 else -1


def main(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        advisor = json.load(f)
    words = {1: "faster", 0: "within", -1: "slower"}
    totals = collections.defaultdict(lambda: [0, 0, 0])  # right, pairs, held-out programs
    print("optimization                     held out                 verdict  others agree  right / pairs")
    for m in advisor["optimizations"]:
        by_program = (m.get("rule") or {}).get("by_program") or []
        programs = [p["program"] for p in by_program]
        if len(programs) < 3:
            continue
        measured_only = (m.get("rule") or {}).get("measured_only", False)
        pairs = collections.defaultdict(list)
        for sample, y in zip(m["ids"], m["speedups"]):
            if measured_only and ", SIMULATED" in sample:
                continue
            owner = [p for p in programs if sample.startswith(p + " ")]
            if len(owner) == 1 and y == y:
                pairs[owner[0]].append(y)
        label = m["name"] + (f" ({m['host_link']})" if m.get("host_link") else "")
        for held in programs:
            others = [p for p in programs if p != held and pairs[p]]
            if not others or not pairs[held]:
                continue
            verdict = side(statistics.median([y for p in others for y in pairs[p]]))
            agree = sum(side(statistics.median(pairs[p])) == verdict for p in others)
            right = sum(side(y) == verdict for y in pairs[held])
            n = len(pairs[held])
            print(f"{label:32} {held:24} {words[verdict]:8} {agree} of {len(others):<8} {right:4} / {n}")
            kind = "unanimous" if agree == len(others) else "majority" if 2 * agree > len(others) else "minority"
            for k in (kind, "all"):
                totals[k][0] += right
                totals[k][1] += n
                totals[k][2] += 1
    print()
    print("other programs' medians    held-out programs  pairs  right %")
    for k in ("unanimous", "majority", "minority", "all"):
        r, n, c = totals[k]
        if n:
            print(f"{k:26} {c:17} {n:6} {100.0 * r / n:8.1f}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "models/default.advisor.json.gz")
