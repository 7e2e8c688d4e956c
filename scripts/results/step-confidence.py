#!/usr/bin/env python3
"""Does the step model's predicted effect say how far to trust it on a program it has not
seen? And does the occupancy rule, where it is decisive, improve on the step model?
(docs/families.md, "Tried and not kept").

Input: the predictions.csv.gz that `advise experiment --exp lopo ... --out-dir DIR` writes
(leave one program out: every sample predicted by a model of the other programs), e.g.

    advise -q experiment --exp lopo --features portable --step only --method linear,m5p \
        --dataset datasets/ktt-convolution-rtx2080ti --dataset datasets/ktt-pnpoly-rtx2080ti \
        --dataset datasets/ktt-coulomb-rtx2080ti --out-dir /tmp/lopo-step
    scripts/results/step-confidence.py /tmp/lopo-step/predictions.csv.gz linear

1. Confidence from the size of the prediction: for each held-out program P, an isotonic
   (non-decreasing) map from |ln predicted speedup| to "the direction was right" is fitted on
   the other programs' held-out predictions and applied to P's; its Brier score is set beside
   that of a constant confidence, the other programs' share right (what a new program gets
   when confidence is an accuracy across programs). Per family (BLOCK_SIZE, TILE_SIZE).
2. The occupancy rule where it is decisive (it differs from the mean rule, which answers for
   it where occupancy is unknown) and the model elsewhere: accuracy and balanced accuracy
   (the mean of the true-positive and true-negative rates over all samples) beside the model's
   and the rule's own.
"""
import collections
import csv
import gzip
import math
import sys


def isotonic(points):
    """Pool-adjacent-violators fit of y on x (non-decreasing): [(x from, mean y)]."""
    blocks = []
    for x, y in sorted(points):
        blocks.append([x, y, 1])
        while len(blocks) > 1 and blocks[-2][1] / blocks[-2][2] > blocks[-1][1] / blocks[-1][2]:
            last = blocks.pop()
            blocks[-1][1] += last[1]
            blocks[-1][2] += last[2]
    return [(b[0], b[1] / b[2]) for b in blocks]


def apply(steps, x):
    value = steps[0][1]
    for start, mean in steps:
        if x >= start:
            value = mean
    return value


def magnitude(row):
    p = float(row["predicted"])
    return abs(math.log(p)) if p > 0 else math.inf


def right(row):
    return (float(row["predicted"]) > 1) == (float(row["actual"]) > 1)


def program(row):
    return row["sample"].split("/")[0]


def confidence_by_size(rows):
    programs = sorted({program(r) for r in rows})
    for family in sorted({r["optimization"] for r in rows}):
        mine = [r for r in rows if r["optimization"] == family]
        brier = collections.Counter()
        n = 0
        for held in programs:
            train = [r for r in mine if program(r) != held]
            test = [r for r in mine if program(r) == held]
            if not train or not test:
                continue
            steps = isotonic([(magnitude(r), float(right(r))) for r in train])
            constant = sum(right(r) for r in train) / len(train)
            for r in test:
                y = float(right(r))
                brier["by size"] += (apply(steps, magnitude(r)) - y) ** 2
                brier["constant"] += (constant - y) ** 2
                n += 1
        print(f"{family}: {n} held-out predictions, Brier score by size "
              f"{brier['by size'] / n:.4f}, constant {brier['constant'] / n:.4f}")


def scores(actual, chosen):
    tp = sum(a and c for a, c in zip(actual, chosen))
    tn = sum(not a and not c for a, c in zip(actual, chosen))
    pos = sum(actual)
    neg = len(actual) - pos
    return 100 * (tp + tn) / len(actual), 50 * (tp / pos + tn / neg)


def occupancy_where_decisive(by_method, model):
    rows = by_method[model]
    occ = by_method["baseline:occupancy"]
    mean = by_method["baseline:mean"]
    actual = [float(r["actual"]) > 1 for r in rows]
    rec = lambda rs, i: rs[i]["recommended"] == "1"
    n = len(rows)
    choices = {
        model: [rec(rows, i) for i in range(n)],
        "baseline:occupancy": [rec(occ, i) for i in range(n)],
        f"occupancy where decisive, else {model}": [
            rec(occ, i)
            if rows[i]["optimization"] == "BLOCK_SIZE" and rec(occ, i) != rec(mean, i)
            else rec(rows, i)
            for i in range(n)
        ],
    }
    for name, chosen in choices.items():
        acc, bal = scores(actual, chosen)
        print(f"{name}: {acc:.1f}% right, {bal:.1f}% balanced ({n} samples)")


def main(path, model):
    by_method = collections.defaultdict(list)
    for r in csv.DictReader(gzip.open(path, "rt")):
        by_method[r["method"]].append(r)
    if model not in by_method:
        sys.exit(f"{path}: no predictions of {model} (methods: {', '.join(sorted(by_method))})")
    confidence_by_size(by_method[model])
    occupancy_where_decisive(by_method, model)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
