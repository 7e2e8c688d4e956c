#!/usr/bin/env python3
"""Summarise a sweep (scripts/search/sweep.sh) against Kernel Tuner 1.5.0's runs:

    scripts/search/reach.py SWEEP_DIR [--kt docs/search-results/kt] [--spaces]

For each strategy, set of spaces and budget, over the seed sets: the mean of medians, the mean
5th percentile, "reach" (spaces where the strategy's median is at least Kernel Tuner's best:
the largest median of its strategies' 20 runs, or where that strategy was re-run with 100
fresh seeds, kt/confirm/, the re-run's median, pooled with its runs in kt/large/; the mean
count over seed sets, of the spaces with Kernel Tuner runs at that budget) and "p5 short"
(spaces where the strategy's 5th percentile is under 0.90 while some Kernel Tuner strategy's
20 runs reach 0.90, or its re-runs where kt/confirm/, kt/p5/ or kt/large/ hold them, pooled:
the mean count
over seed sets, and in brackets the count of spaces whose 5th percentile, averaged over the
seed sets, is under 0.90, the figure docs/search-results.md quotes).
Totals add the sets up but those named in `--apart` (blind3 by default).
`--shortfalls` lists each space and budget short of Kernel Tuner's best in some seed set, with,
where the sweep wrote its runs (sweep.sh with RUNS_CSV=1), the median of all of them, its 95%
interval (order statistics) and whether Kernel Tuner's best lies below, inside or above it.
`--spaces` also prints each space where two strategies differ in mean median or p5 by 0.002
or more. Fractions are as search-bench and kt_run.py write them (optimum / best found)."""
import argparse
import collections
import csv
import glob
import gzip
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "kt-compare"))
from compare import quantile_interval  # noqa: E402


def percentile5(xs):
    """Linear 5th percentile, as search-bench and compare.py compute it."""
    xs = sorted(xs)
    pos = 0.05 * (len(xs) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def kernel_tuner(kt_dir):
    """(space, budget) -> (best 20-run median, any strategy's p5 >= 0.90). A strategy re-run
    with fresh seeds (kt/confirm/, kt/p5/, kt/large/) counts with the re-runs' 5th percentile
    instead of its 20 runs'; a re-run in kt/confirm/ (that of the best strategy), pooled with
    that strategy's runs in kt/large/, also gives the median."""
    runs = rerun_fractions([os.path.join(kt_dir, "*.json.gz")])
    best = {}
    p5s = {key: percentile5(fr) for key, fr in runs.items()}
    for (space, budget, _), fr in runs.items():
        old = best.get((space, budget), 0.0)
        best[(space, budget)] = max(old, statistics.median(fr))
    confirm, pooled, reruns, _ = kt_reruns(kt_dir)
    for key in confirm:
        if key[:2] in best:
            best[key[:2]] = statistics.median(pooled[key])
    for key, fr in reruns.items():
        p5s[key] = percentile5(fr)
    reach90 = collections.defaultdict(bool)
    for (space, budget, _), p5 in p5s.items():
        reach90[(space, budget)] |= p5 >= 0.90
    return {key: (med, reach90[key]) for key, med in best.items()}


def kt_reruns(kt_dir):
    """Kernel Tuner's re-runs with fresh seeds, each folder read once: the best strategies'
    (kt/confirm/); those pooled with the same strategies' runs in kt/large/ (300-2,000 more
    seeds, large-reruns.sh), for the best strategy's median; every re-run pooled (kt/confirm/,
    kt/p5/, kt/large/), for 5th percentiles; and kt/large/'s alone. Each maps (space, budget,
    strategy) to fractions, the folders' runs in that order."""
    folders = {d: rerun_fractions([os.path.join(kt_dir, d, "*.json.gz")])
               for d in ("confirm", "p5", "large")}

    def pool(*names):
        runs = collections.defaultdict(list)
        for name in names:
            for key, fr in folders[name].items():
                runs[key].extend(fr)
        return runs

    return (folders["confirm"], pool("confirm", "large"), pool("confirm", "p5", "large"),
            folders["large"])


def rerun_fractions(patterns):
    """(space, budget, strategy) -> the fractions of the runs without error in the files."""
    runs = collections.defaultdict(list)
    for pattern in patterns:
        for path in glob.glob(pattern):
            for r in json.load(gzip.open(path))["runs"]:
                if r.get("error") is None and r.get("fraction") is not None:
                    runs[(r["space"], r["budget"], r["strategy"])].append(r["fraction"])
    return runs


def sweep_runs(sweep):
    """(strategy, space, budget) -> every run's fraction in the sweep's CSVs (sweep.sh with
    RUNS_CSV=1), sorted; empty where it wrote none."""
    runs = collections.defaultdict(list)
    for path in glob.glob(os.path.join(sweep, "*.csv")):
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                runs[(row["strategy"], row["space"], row["budget"])].append(float(row["fraction"]))
    for fr in runs.values():
        fr.sort()
    return runs


def pooled_median(fr, bar):
    """The pooled runs' median, its 95% interval and where Kernel Tuner's best `bar` lies."""
    if not fr:
        return "-"
    lo, hi = quantile_interval(fr, 0.5)
    where = "below it" if bar < lo else "above it" if bar > hi else "inside"
    return f"{statistics.median(fr):.4f} ({lo:.4f}-{hi:.4f}; {len(fr)} runs; Kernel Tuner's best {where})"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("sweep")
    ap.add_argument("--kt", default=os.path.join(os.path.dirname(__file__), "..", "..",
                                                 "docs", "search-results", "kt"))
    ap.add_argument("--spaces", action="store_true")
    ap.add_argument("--shortfalls", action="store_true",
                    help="also list each space and budget where a strategy's median falls short "
                         "of Kernel Tuner's best in some seed set, or its mean 5th percentile "
                         "stays under 0.90 where a Kernel Tuner strategy's 20 runs reach 0.90")
    ap.add_argument("--apart", default="blind3",
                    help="sets left out of the totals, comma-separated (the session-53 spaces "
                         "are reported apart in docs/search-results.md)")
    args = ap.parse_args()
    kt = kernel_tuner(args.kt)
    # (strategy, set, budget, space) -> [(median, p5)] over seed sets
    cells = collections.defaultdict(list)
    for path in sorted(glob.glob(os.path.join(args.sweep, "*.json"))):
        set_name = os.path.basename(path).rsplit("-", 1)[0]
        for r in json.load(open(path))["results"]:
            cells[(r["strategy"], set_name, r["budget"], r["space"])].append(
                (r["median_fraction"], r["p5_fraction"]))
    if not cells:
        sys.exit(f"reach: no sweep JSON in {args.sweep}")
    groups = collections.defaultdict(dict)
    for (strat, set_name, budget, space), vals in cells.items():
        groups[(set_name, budget, strat)][space] = vals
    apart = set(filter(None, args.apart.split(",")))
    # (budget, strategy) -> [reach, spaces, p5 short, p5 short on means, sum of the strategy's
    # mean medians, sum of Kernel Tuner's best], over the spaces with Kernel Tuner runs
    totals = collections.defaultdict(lambda: [0.0, 0, 0.0, 0, 0.0, 0.0])
    print("| set | budget | strategy | spaces | seed sets | mean of medians | mean p5 | reach | p5 short |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|")
    for (set_name, budget, strat) in sorted(groups, key=lambda k: (k[0], float(k[1][:-1]), k[2])):
        spaces = groups[(set_name, budget, strat)]
        sets = min(len(v) for v in spaces.values())
        mean_med = statistics.mean(statistics.mean(m for m, _ in v) for v in spaces.values())
        mean_p5 = statistics.mean(statistics.mean(p for _, p in v) for v in spaces.values())
        with_kt = [s for s in spaces if (s, budget) in kt]
        reach = short = "-"
        if with_kt:
            reach = sum(sum(m >= kt[(s, budget)][0] - 1e-12 for m, _ in spaces[s])
                        for s in with_kt) / sets
            short = sum(sum(p < 0.90 for _, p in spaces[s])
                        for s in with_kt if kt[(s, budget)][1]) / sets
            short_mean = sum(statistics.mean(p for _, p in spaces[s]) < 0.90
                             for s in with_kt if kt[(s, budget)][1])
            if set_name not in apart:
                t = totals[(budget, strat)]
                t[0] += reach
                t[1] += len(with_kt)
                t[2] += short
                t[3] += short_mean
                t[4] += sum(statistics.mean(m for m, _ in spaces[s]) for s in with_kt)
                t[5] += sum(kt[(s, budget)][0] for s in with_kt)
            reach = f"{reach:.1f} / {len(with_kt)}"
            short = f"{short:.1f} ({short_mean})"
        print(f"| {set_name} | {budget} | {strat} | {len(spaces)} | {sets} | {mean_med:.4f} | "
              f"{mean_p5:.4f} | {reach} | {short} |")
    print()
    print(f"Totals over the sets with Kernel Tuner runs (but {', '.join(sorted(apart)) or 'none'}):")
    print()
    print("| budget | strategy | reach | p5 short | mean of medians | Kernel Tuner's best, mean |")
    print("|---|---|---:|---:|---:|---:|")
    for (budget, strat), (r, n, sh, shm, med, best) in sorted(
            totals.items(), key=lambda k: (float(k[0][0][:-1]), k[0][1])):
        print(f"| {budget} | {strat} | {r:.1f} / {n} | {sh:.1f} ({shm}) | {med / n:.4f} | "
              f"{best / n:.4f} |")
    if args.shortfalls:
        pooled = sweep_runs(args.sweep)
        print()
        print("| space | budget | strategy | mean of medians | Kernel Tuner's best | "
              "seed sets short | mean p5 | p5 goal | pooled runs: median (95% interval) |")
        print("|---|---|---|---:|---:|---:|---:|---|---|")
        for (strat, set_name, budget, space), vals in sorted(
                cells.items(), key=lambda k: (float(k[0][2][:-1]), k[0][3], k[0][0])):
            if (space, budget) not in kt:
                continue
            bar, kt_p5 = kt[(space, budget)]
            short = sum(m < bar - 1e-12 for m, _ in vals)
            p5 = statistics.mean(p for _, p in vals)
            p5_short = kt_p5 and p5 < 0.90
            if short or p5_short:
                goal = ("met" if p5 >= 0.90 else
                        "missed" if kt_p5 else "none (no tool's 5th percentile reaches 0.90)")
                print(f"| {space} | {budget} | {strat} | "
                      f"{statistics.mean(m for m, _ in vals):.4f} | {bar:.4f} | "
                      f"{short} of {len(vals)} | {p5:.4f} | {goal} | "
                      f"{pooled_median(pooled.get((strat, space, budget)), bar)} |")
    if args.spaces:
        print()
        by_space = collections.defaultdict(dict)
        for (strat, set_name, budget, space), vals in cells.items():
            by_space[(space, budget)][strat] = (statistics.mean(m for m, _ in vals),
                                                statistics.mean(p for _, p in vals))
        for (space, budget), per in sorted(by_space.items()):
            meds = [v[0] for v in per.values()]
            p5s = [v[1] for v in per.values()]
            if max(meds) - min(meds) >= 0.002 or max(p5s) - min(p5s) >= 0.002:
                bar = kt.get((space, budget), (None,))[0]
                cols = "  ".join(f"{s} {m:.4f} ({p:.3f})" for s, (m, p) in sorted(per.items()))
                print(f"{space} {budget} kt={bar if bar is None else round(bar, 4)}  {cols}")


if __name__ == "__main__":
    main()
