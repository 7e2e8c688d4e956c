#!/usr/bin/env python3
"""How finely a recorded tuning space can tell its fastest configurations apart: for each
Kernel Tuner cache given, the relative standard error of the mean time (sd / sqrt(n) / mean
of a configuration's recorded `times`) of its ten fastest configurations (their median), the
share of those whose first run is the slowest by over half (a warm-up run kept in the mean),
and the fraction of the optimum of the 2nd to 4th fastest.

A cache whose `times` are not a flat list of numbers whose mean is the recorded `time`
(within 1%) gets "-": its `time` is not a mean of those runs.

    scripts/search/noise.py SPACE.json[.gz] ...
"""
import gzip
import json
import math
import statistics
import sys


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as fh:
        return json.load(fh)


def runs_of(entry):
    """The entry's runs where they are a flat list of numbers averaging its time, else None."""
    t, ts = entry.get("time"), entry.get("times")
    if not isinstance(t, (int, float)) or not isinstance(ts, list) or len(ts) < 2:
        return None
    if not all(isinstance(x, (int, float)) for x in ts):
        return None
    if abs(statistics.mean(ts) - t) > 0.01 * t:
        return None
    return ts


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__.strip().splitlines()[-1].strip())
    print("| space | runs a configuration | standard error of the mean, top 10 (median) "
          "| top 10 with a first run 1.5x the slowest other | 2nd-4th fastest, fraction of the optimum |")
    print("|---|---:|---:|---:|---|")
    for path in sys.argv[1:]:
        try:
            data = load(path)
        except (OSError, ValueError) as e:
            print(f"noise: {path}: {e}", file=sys.stderr)
            continue
        cache = data.get("cache") if isinstance(data, dict) else None
        if not isinstance(cache, dict):
            print(f"noise: {path}: not a Kernel Tuner cache (no `cache` object); skipped",
                  file=sys.stderr)
            continue
        ranked = sorted(
            (e for e in cache.values() if isinstance(e.get("time"), (int, float))),
            key=lambda e: e["time"],
        )
        top = ranked[:10]
        name = path.rsplit("/", 1)[-1].split(".json")[0]
        best = top[0]["time"]
        nexts = ", ".join(f"{best / e['time']:.4f}" for e in top[1:4])
        runs = [runs_of(e) for e in top]
        if any(r is None for r in runs):
            print(f"| {name} | - | - | - | {nexts} |")
            continue
        se = statistics.median(statistics.stdev(r) / math.sqrt(len(r)) / statistics.mean(r) for r in runs)
        warm = sum(1 for r in runs if r[0] > 1.5 * max(r[1:]))
        n = statistics.median(len(r) for r in runs)
        print(f"| {name} | {n:g} | {se:.4f} | {warm} of {len(runs)} | {nexts} |")


if __name__ == "__main__":
    main()
