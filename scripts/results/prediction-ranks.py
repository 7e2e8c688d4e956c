#!/usr/bin/env python3
"""Do a model's predicted speedups say which of its predictions are right, or how large the
measured speedups are? Reads the predictions.csv.gz that `advise experiment --out-dir DIR`
writes and prints, per method: the share of right directions among the predictions with the
largest |log predicted speedup| (top 10%, 20%, 30%, 50%, all) and Spearman's rho between
predicted and measured log speedups and between their magnitudes (docs/families.md).

Usage: prediction-ranks.py DIR/predictions.csv.gz [METHOD ...]
"""
import csv
import gzip
import math
import sys


def ranks(v):
    order = sorted(range(len(v)), key=lambda i: v[i])
    r = [0.0] * len(v)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and v[order[j + 1]] == v[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2
        i = j + 1
    return r


def spearman(a, b):
    ra, rb = ranks(a), ranks(b)
    n = len(a)
    ma, mb = sum(ra) / n, sum(rb) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    va = sum((x - ma) ** 2 for x in ra)
    vb = sum((y - mb) ** 2 for y in rb)
    return cov / math.sqrt(va * vb) if va > 0 and vb > 0 else float("nan")


def main():
    path, wanted = sys.argv[1], sys.argv[2:]
    rows = list(csv.DictReader(gzip.open(path, "rt")))
    methods = wanted or sorted({r["method"] for r in rows if not r["method"].startswith("baseline")})
    for m in methods:
        pairs = []
        for r in rows:
            if r["method"] != m or not r["predicted"] or not r["actual"]:
                continue
            p, a = float(r["predicted"]), float(r["actual"])
            if p > 0 and a > 0:
                pairs.append((math.log(p), math.log(a)))
        if not pairs:
            continue
        by_size = sorted(pairs, key=lambda t: -abs(t[0]))
        tops = []
        for frac in (0.1, 0.2, 0.3, 0.5, 1.0):
            k = max(1, int(len(by_size) * frac))
            right = sum((p > 0) == (a > 0) for p, a in by_size[:k])
            tops.append(f"top {int(frac * 100)}% {100 * right / k:.1f}")
        rho = spearman([p for p, _ in pairs], [a for _, a in pairs])
        rho_abs = spearman([abs(p) for p, _ in pairs], [abs(a) for _, a in pairs])
        print(f"{m}: {len(pairs)} predictions; right: {', '.join(tops)}; "
              f"rho(predicted, measured) {rho:.3f}; rho(|predicted|, |measured|) {rho_abs:.3f}")


if __name__ == "__main__":
    main()
