#!/usr/bin/env python3
"""Compares two sweeps of scripts/search/sweep.sh space by space: the mean over seed sets of
each space and budget's median (and 5th percentile) before and after, the changes over a
threshold, and per budget how many spaces gain or lose more than it.

    scripts/search/compare-sweeps.py BEFORE_DIR AFTER_DIR [--threshold 0.002]
        [--before-strategy NAME] [--after-strategy NAME]

A sweep of several strategies is read as one unless a strategy is named for it.
"""
import argparse
import collections
import glob
import json
import statistics
import sys


def load(folder, strategy=None):
    """(space, budget) -> (mean median, mean 5th percentile) over the folder's seed sets, of
    one strategy's results where `strategy` names it."""
    runs = collections.defaultdict(list)
    files = glob.glob(folder + "/*.json")
    if not files:
        sys.exit(f"compare-sweeps: no sweep JSON in {folder}")
    for f in files:
        with open(f) as fh:
            for r in json.load(fh)["results"]:
                if strategy is not None and r["strategy"] != strategy:
                    continue
                runs[(r["space"], r["budget"])].append((r["median_fraction"], r["p5_fraction"]))
    return {
        k: (statistics.mean(x[0] for x in v), statistics.mean(x[1] for x in v))
        for k, v in runs.items()
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--threshold", type=float, default=0.002)
    ap.add_argument("--before-strategy")
    ap.add_argument("--after-strategy")
    args = ap.parse_args()
    a = load(args.before, args.before_strategy)
    b = load(args.after, args.after_strategy)
    if not a or not b:
        sys.exit("compare-sweeps: no results of the named strategy")
    budgets = sorted({k[1] for k in a}, key=lambda x: float(x.rstrip("%")))
    for budget in budgets:
        keys = sorted(k for k in a if k[1] == budget and k in b)
        gains = [k for k in keys if b[k][0] - a[k][0] > args.threshold]
        losses = [k for k in keys if a[k][0] - b[k][0] > args.threshold]
        print(f"{budget}: {len(gains)} spaces gain and {len(losses)} lose more than "
              f"{args.threshold} of a median")
        for k in gains + losses:
            print(f"  {k[0]:<42} median {a[k][0]:.4f} -> {b[k][0]:.4f}   "
                  f"p5 {a[k][1]:.4f} -> {b[k][1]:.4f}")


if __name__ == "__main__":
    main()
