#!/usr/bin/env python3
"""Why a recorded tuning space is a coin toss for local search: its basins of attraction.

For each Kernel Tuner cache given, every configuration that ran is followed down by steepest
descent over single-parameter changes (the Hamming neighbourhood of Kernel Tuner 1.5.0's
`searchspace.py`; a neighbour the cache lacks or that failed is not a neighbour) to the local
minimum it ends at, its sink. Printed per space:

- the count of local minima and the share of configurations whose sink reaches each `--at`
  fraction of the optimum (optimum time / sink time): the chance that one descent from a
  uniformly random start ends there;
- the same share for starts among the fastest 1%, 2%, 5%, 10% and 20% of configurations:
  a search's first descent starts from the best of its first few dozen measurements, so
  this is about where it stands when the descent begins;
- the `--basins` largest basins, with their sink's fraction and, for those below the first
  `--at`, the share of jumps that change two parameters of the sink (every pair of other
  values the cache holds and that ran) whose own sink reaches it: the chance that one
  basin-hopping jump escapes to a good basin.

With `--by P1,P2,...`, also the share of starts whose descent ends at the first `--at` for
each combination of those parameters' values: where in the space a descent should begin.

Steepest descent is a deterministic stand-in: `advise search`'s `auto` takes the first
improving neighbour in a model's order and moves to adjacent values first, so its basins
differ in detail. Deterministic; no seed.

    scripts/search/basins.py [--at 0.78,0.95] [--basins 8] [--by P1,P2] SPACE.json[.gz] ...
"""
import argparse
import collections
import gzip
import itertools
import json
import os
import sys


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as fh:
        return json.load(fh)


class Space:
    """A cache's configurations that ran, keyed by their values of the varying parameters."""

    def __init__(self, cache):
        params = cache.get("tune_params")
        entries = cache.get("cache")
        if not isinstance(params, dict) or not isinstance(entries, dict):
            raise ValueError("not a Kernel Tuner cache (no tune_params or cache object)")
        self.params = [p for p, v in params.items() if isinstance(v, list) and len(v) > 1]
        self.values = {p: params[p] for p in self.params}
        self.time = {}
        for entry in entries.values():
            t = entry.get("time")
            if isinstance(t, (int, float)) and t > 0:
                key = tuple(entry.get(p) for p in self.params)
                self.time[key] = float(t)
        if not self.time:
            raise ValueError("no configuration that ran")
        self.best = min(self.time.values())
        self._sink = {}

    def neighbours(self, key):
        for i, p in enumerate(self.params):
            for x in self.values[p]:
                if x != key[i]:
                    n = key[:i] + (x,) + key[i + 1:]
                    if n in self.time:
                        yield n

    def sink(self, key):
        """The local minimum steepest descent from `key` ends at (memoised along the path)."""
        path = []
        while key not in self._sink:
            path.append(key)
            nb = min(self.neighbours(key), key=self.time.__getitem__, default=None)
            if nb is None or self.time[nb] >= self.time[key]:
                self._sink[key] = key
                break
            key = nb
        end = self._sink[key]
        for k in path:
            self._sink[k] = end
        return end

    def fraction(self, key):
        return self.best / self.time[key]

    def two_change_jumps(self, key):
        """Every configuration two parameter changes from `key` that ran."""
        for i, j in itertools.combinations(range(len(self.params)), 2):
            for a in self.values[self.params[i]]:
                if a == key[i]:
                    continue
                for b in self.values[self.params[j]]:
                    if b == key[j]:
                        continue
                    k = list(key)
                    k[i], k[j] = a, b
                    k = tuple(k)
                    if k in self.time:
                        yield k


def report_by(space, sinks, at, by):
    """The share of starts ending at `at` or better per combination of the `by` parameters."""
    missing = [p for p in by if p not in space.params]
    if missing:
        print(f"   --by: no varying parameter {', '.join(missing)} here")
        return
    cols = [space.params.index(p) for p in by]
    groups = collections.defaultdict(list)
    for k, s in sinks.items():
        groups[tuple(k[c] for c in cols)].append(space.fraction(s) >= at)
    print(f"   descents ending at >= {at} by {', '.join(by)}:")
    for combo, good in sorted(groups.items(), key=lambda g: str(g[0])):
        values = ", ".join(f"{p}={v}" for p, v in zip(by, combo))
        print(f"     {values}: {sum(good) / len(good):.3f} of {len(good)}")


def report(name, space, ats, n_basins, by):
    keys = list(space.time)
    sinks = {k: space.sink(k) for k in keys}
    counts = collections.Counter(sinks.values())
    print(f"== {name}: {len(keys)} configurations ran, {len(space.params)} parameters vary, "
          f"{len(counts)} local minima")
    for at in ats:
        good = sum(n for s, n in counts.items() if space.fraction(s) >= at)
        print(f"   from a random start, descents ending at >= {at}: {good / len(keys):.3f}")
    by_speed = sorted(keys, key=space.time.__getitem__)
    for top in (0.01, 0.02, 0.05, 0.10, 0.20):
        sub = by_speed[: max(1, int(len(by_speed) * top))]
        shares = "  ".join(
            f">= {at}: {sum(space.fraction(sinks[k]) >= at for k in sub) / len(sub):.3f}"
            for at in ats
        )
        print(f"   starts among the fastest {top:.0%} ({len(sub)}, down to "
              f"{space.fraction(sub[-1]):.3f}): {shares}")
    if n_basins > 0:
        print(f"   largest basins (sink fraction, share of starts; jumps of two changes to a "
              f"sink >= {ats[0]}):")
    for s, n in counts.most_common(n_basins):
        f = space.fraction(s)
        line = f"     {f:.3f} {share(n, len(keys))}"
        if f < ats[0]:
            jumps = list(space.two_change_jumps(s))
            good = sum(space.fraction(space.sink(k)) >= ats[0] for k in jumps)
            line += f"  escapes {good}/{len(jumps)}"
        values = ", ".join(f"{p}={v}" for p, v in zip(space.params, s))
        print(f"{line}  ({values})")
    if by:
        report_by(space, sinks, ats[0], by)


def share(n, total):
    return f"{n / total:.3f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("spaces", nargs="+", help="Kernel Tuner cache files (.json or .json.gz)")
    ap.add_argument("--at", default="0.78,0.95",
                    help="fractions of the optimum a sink is counted good at (first: jumps)")
    ap.add_argument("--basins", type=int, default=8, help="largest basins listed")
    ap.add_argument("--by", default="",
                    help="parameters (comma list) whose value combinations get their own share")
    args = ap.parse_args()
    try:
        ats = [float(a) for a in args.at.split(",") if a.strip()]
    except ValueError:
        sys.exit(f"--at {args.at}: expected fractions such as 0.78,0.95")
    if not ats or any(not 0 < a <= 1 for a in ats):
        sys.exit(f"--at {args.at}: each fraction must be above 0 and at most 1")
    status = 0
    for path in args.spaces:
        name = os.path.basename(path).removesuffix(".gz").removesuffix(".json")
        try:
            space = Space(load(path))
        except json.JSONDecodeError as e:
            print(f"{path}: not a Kernel Tuner JSON cache ({e})", file=sys.stderr)
            status = 1
            continue
        except (OSError, ValueError) as e:
            print(f"{path}: {e}", file=sys.stderr)
            status = 1
            continue
        report(name, space, ats, args.basins, [p for p in args.by.split(",") if p])
    return status


if __name__ == "__main__":
    sys.exit(main())
