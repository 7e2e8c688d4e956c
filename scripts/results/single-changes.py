#!/usr/bin/env python3
"""How many single changes (one parameter moved to another of its values) a tuning space holds
of its configurations: the mean over 300 random configurations (seeded), the share with none,
and how many a configuration could have. Reads Kernel Tuner cache files (.json or .json.gz);
files of other formats are skipped with a note. Used for docs/search-results.md ("Changed a
third time on 2026-11-29").

usage: scripts/results/single-changes.py SPACE.json.gz [...]
"""
import gzip
import json
import random
import sys


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return json.load(f)


def main(paths):
    print("space\tconfigurations\tshare of combinations\tmean single changes\tpossible\tshare with none")
    for path in paths:
        try:
            d = load(path)
            keys, params = d["tune_params_keys"], d["tune_params"]
            configs = set(d["cache"].keys())
        except (OSError, ValueError, KeyError) as e:
            print(f"{path}: skipped, not a Kernel Tuner cache file ({e!r})", file=sys.stderr)
            continue
        rng = random.Random(1)
        sample = rng.sample(sorted(configs), min(300, len(configs)))
        counts = []
        for key in sample:
            values = key.split(",")
            n = 0
            for i, p in enumerate(keys):
                for v in params[p]:
                    if str(v) == values[i]:
                        continue
                    moved = values.copy()
                    moved[i] = str(v)
                    n += ",".join(moved) in configs
            counts.append(n)
        combos = 1
        for p in keys:
            combos *= len(params[p])
        possible = sum(len(params[p]) - 1 for p in keys)
        name = path.rsplit("/", 1)[-1]
        print(
            f"{name}\t{len(configs)}\t{len(configs) / combos:.4f}\t"
            f"{sum(counts) / len(counts):.1f}\t{possible}\t{sum(c == 0 for c in counts) / len(counts):.2f}"
        )


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
