#!/usr/bin/env python3
"""How sure is a shortfall? advise's runs of a cell against Kernel Tuner's re-runs of it:

    scripts/search/median_ci.py RUNS.csv ... [--kt docs/search-results/kt] [--boot 2000]

RUNS.csv: `advise search-bench --runs-csv` files (one strategy a file, any seeds). For each
space and budget in them, Kernel Tuner's side is the best strategy's re-run (kt/confirm/),
pooled with that strategy's runs in kt/large/, as scripts/search/reach.py takes it. Printed:
the runs on each side, both medians, a 95% bootstrap interval of advise's median less Kernel
Tuner's (percentile method, SEED-seeded resamples of both sides), the share of runs at the
optimum (fraction at least 0.9999) on each side, advise's 5th percentile and the largest 5th
percentile among Kernel Tuner's strategies with at least 300 runs (kt/p5/, kt/confirm/,
kt/large/ pooled), with its strategy and runs. Markdown table on standard output.

With `--tails`, a second table: per cell, for advise's runs (per strategy) and each Kernel
Tuner strategy in kt/large/, the 5th percentile of all the runs, the shares under 0.90 and
0.80, and the 5th percentiles of consecutive draws of 100 runs (their range, and how many
reach 0.90): how often a check of 100 runs would see the goal met."""
import argparse
import collections
import csv
import os
import random
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reach import kt_reruns, percentile5  # noqa: E402


def load_advise(paths):
    runs = collections.defaultdict(list)
    for path in paths:
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                runs[(row["space"], row["budget"], row["strategy"])].append(float(row["fraction"]))
    return runs


def bootstrap_diff(a, b, boot, seed):
    rng = random.Random(seed)
    diffs = []
    for _ in range(boot):
        ra = [a[rng.randrange(len(a))] for _ in a]
        rb = [b[rng.randrange(len(b))] for _ in b]
        diffs.append(statistics.median(ra) - statistics.median(rb))
    diffs.sort()
    return diffs[int(0.025 * boot)], diffs[int(0.975 * boot) - 1]


def at_optimum(xs):
    return sum(x >= 0.9999 for x in xs) / len(xs)


def tail_row(cell, who, runs):
    draws = [percentile5(runs[i:i + 100]) for i in range(0, len(runs) - 99, 100)]
    drawn = f"{min(draws):.3f}-{max(draws):.3f} | {sum(d >= 0.90 for d in draws)} of {len(draws)}" \
        if draws else "- | -"
    print(f"| {cell} | {who} | {len(runs)} | {percentile5(runs):.4f} | "
          f"{sum(x < 0.90 for x in runs) / len(runs):.3f} | {sum(x < 0.80 for x in runs) / len(runs):.3f} | "
          f"{drawn} |")


def tails(ours, large):
    print()
    print("| cell | strategy | runs | 5th percentile | under 0.90 | under 0.80 "
          "| 100-run 5th percentiles | of them at least 0.90 |")
    print("|---|---|---:|---:|---:|---:|---|---:|")
    for (space, budget) in sorted({k[:2] for k in ours}):
        cell = f"{space} {budget}"
        for (sp, bu, strategy), fr in sorted(ours.items()):
            if (sp, bu) == (space, budget):
                tail_row(cell, f"advise {strategy}", fr)
        for (sp, bu, strategy), fr in sorted(large.items()):
            if (sp, bu) == (space, budget):
                tail_row(cell, f"Kernel Tuner {strategy}", fr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs", nargs="+", help="advise search-bench --runs-csv files")
    ap.add_argument("--kt", default="docs/search-results/kt")
    ap.add_argument("--boot", type=int, default=2000, help="bootstrap resamples")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--tails", action="store_true", help="also the 5th-percentile table")
    args = ap.parse_args()
    ours = load_advise(args.runs)
    confirm, pooled, every, large = kt_reruns(args.kt)
    print("| space | budget | advise runs | advise median | Kernel Tuner's best: strategy, runs, median "
          "| difference (95% interval) | at the optimum, advise / Kernel Tuner "
          "| advise p5 | Kernel Tuner's largest p5 (strategy, runs) |")
    print("|---|---|---:|---:|---|---|---|---:|---|")
    for (space, budget, strategy), fr in sorted(ours.items()):
        best = [k for k in confirm if k[:2] == (space, budget)]
        if not best:
            print(f"| {space} | {budget} | {len(fr)} | {statistics.median(fr):.4f} | no re-run | | | "
                  f"{percentile5(fr):.4f} | |")
            continue
        kt = pooled[best[0]]
        lo, hi = bootstrap_diff(fr, kt, args.boot, args.seed)
        p5s = [(percentile5(v), k[2], len(v)) for k, v in every.items()
               if k[:2] == (space, budget) and len(v) >= 300]
        top = max(p5s) if p5s else None
        top_text = f"{top[0]:.4f} ({top[1]}, {top[2]})" if top else "none with 300 runs"
        print(f"| {space} | {budget} | {len(fr)} | {statistics.median(fr):.4f} | {best[0][2]}, {len(kt)}, "
              f"{statistics.median(kt):.4f} | {statistics.median(fr) - statistics.median(kt):+.4f} "
              f"({lo:+.4f}, {hi:+.4f}) | {at_optimum(fr):.3f} / {at_optimum(kt):.3f} | "
              f"{percentile5(fr):.4f} | {top_text} |")
    if args.tails:
        tails(ours, large)


if __name__ == "__main__":
    main()
