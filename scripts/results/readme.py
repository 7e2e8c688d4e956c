#!/usr/bin/env python3
"""Writes the figures README.md quotes from docs/results/ into README.md, between marker
comments (<!-- results:NAME --> ... <!-- /results:NAME -->), so that the README never carries a
figure that scripts/results/regenerate.sh did not produce.

Usage: readme.py [README.md] [docs/results]
Blocks: demo (demo.json), advisor (train.txt), results (transfer.json, search-bench.json,
statuner.json, bench-models.json, bench-experiments.json; a missing file leaves its line out).
"""
import json
import os
import re
import sys


def pct(x):
    return "-" if x is None else f"{100 * x:.1f}"


def p_text(p):
    return "-" if p is None else ("< 0.001" if p < 0.001 else f"{p:.3f}")


def load(folder, name):
    path = os.path.join(folder, name)
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f) if name.endswith(".json") else f.read()


def demo_table(doc):
    """Per experiment: the best model and the best baseline by accuracy."""
    by_name = {}
    for e in doc["experiments"]:
        by_name.setdefault(e["name"], []).append(e)
    rows = [
        "| experiment | best model | acc % | balanced % | best baseline | acc % | p vs majority |",
        "|---|---|---:|---:|---|---:|---:|",
    ]
    for name, entries in by_name.items():
        models = [e for e in entries if not e["baseline"] and e["accuracy"] is not None]
        bases = [e for e in entries if e["baseline"] and e["accuracy"] is not None]
        if not models or not bases:
            continue
        m = max(models, key=lambda e: e["accuracy"])
        b = max(bases, key=lambda e: e["accuracy"])
        rows.append(
            f"| {name} | {m['method']} | {pct(m['accuracy'])} | {pct(m['balanced_accuracy'])} "
            f"| {b['method'].removeprefix('baseline:')} | {pct(b['accuracy'])} | {p_text(m.get('p_vs_majority'))} |"
        )
    return "\n".join(rows)


def advisor_table(text):
    """The per-optimization table of `advise train` as Markdown."""
    lines = text.splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith("optimization"))
    head = re.split(r"\s{2,}", lines[start].strip())
    keep = ["optimization", "learned from", "samples", "helps in %",
            "grouped cv accuracy %", "balanced %", "majority %", "p",
            "across programs %", "across majority %", "answers"]
    idx = [head.index(k) for k in keep]
    out = ["| " + " | ".join(keep) + " |", "|---|---|" + "---:|" * (len(keep) - 3) + "---|"]
    for l in lines[start + 2:]:
        if not l.strip():
            break
        cells = re.split(r"\s{2,}", l.strip())
        if len(cells) != len(head):
            continue
        out.append("| " + " | ".join(cells[i] for i in idx) + " |")
    return "\n".join(out)


def results_list(folder):
    items = []
    t = load(folder, "transfer.json")
    if t:
        for e in t["evaluations"]:
            models = [r for r in e["rows"] if not r["baseline"]]
            base = next((r for r in e["rows"] if r["method"] == e["best_baseline"]), None)
            if not models or base is None:
                continue
            m = max(models, key=lambda r: r["accuracy"] or 0)
            p = m.get("p_vs_best_baseline")
            pc = m.get("p_clustered_vs_best_baseline")
            clustered = "" if pc is None else f"; over whole programs, inputs and runs, p {p_text(pc)}"
            items.append(
                f"- `advise bench transfer`, {e['name']} ({e['data']}): best model {m['method']} "
                f"{pct(m['accuracy'])}% accuracy, {pct(m['balanced_accuracy'])}% balanced; best "
                f"baseline {base['method'].removeprefix('baseline:')} {pct(base['accuracy'])}% "
                f"(McNemar p {p_text(p)}{clustered})."
            )
    s = load(folder, "search-bench.json")
    if s:
        for budget in ["1%", "2%", "5%"]:
            per = {}
            for r in s["results"]:
                if r["budget"] == budget and r["median_fraction"] is not None:
                    per.setdefault(r["strategy"], []).append(r["median_fraction"])
            if not per:
                continue
            ranked = sorted(per.items(), key=lambda kv: -sum(kv[1]) / len(kv[1]))
            text = ", ".join(f"{k} {sum(v) / len(v):.3f}" for k, v in ranked[:5])
            n = len(next(iter(per.values())))
            items.append(
                f"- `advise search-bench`, {n} public spaces (../shared/data, not shipped), {budget} budget, mean of medians "
                f"of the fraction of the optimum (best five): {text}."
            )
    st = load(folder, "statuner.json")
    if st:
        m = st["mean"]
        items.append(
            f"- `advise statuner` (leave one kernel out, mean error of the block size chosen): "
            f"STATuner SVM {pct(m['statuner-svm'])}% (paper {pct(st['paper']['statuner-svm'])}%), "
            f"SVM on flat labels {pct(m['svm-flat-labels'])}%, fixed 256 {pct(m['fixed-256'])}%, "
            f"best training label (a bound) {pct(m['best-training-label'])}%."
        )
    b = load(folder, "bench-models.json")
    if b:
        parts = []
        for r in b:
            if r.get("ratio") is not None:
                size = r["dataset"].removeprefix("synthetic ")
                parts.append(f"{r['method']} {size} {r['ratio']:.1f}x")
        if parts:
            threads = max((r.get("threads", 1) for r in b), default=1)
            used = "both cores" if threads > 1 else "one core"
            items.append("- `advise bench models` (synthetic data; one run on a shared 2-core "
                         f"machine, advise on {used}, Weka on one, docs/performance.md), "
                         "Weka 3.6.14 time / advise time, best runs, Weka's after its JIT's "
                         "warm-up: " + ", ".join(parts) + ".")
    return "\n".join(items)


def replace(readme, name, body):
    pattern = re.compile(
        rf"(<!-- results:{name} -->\n).*?(<!-- /results:{name} -->)", re.DOTALL)
    if not pattern.search(readme):
        sys.exit(f"README has no <!-- results:{name} --> block")
    return pattern.sub(lambda m: m.group(1) + body + "\n" + m.group(2), readme)


def main():
    readme_path = sys.argv[1] if len(sys.argv) > 1 else "README.md"
    folder = sys.argv[2] if len(sys.argv) > 2 else "docs/results"
    with open(readme_path) as f:
        readme = f.read()
    demo = load(folder, "demo.json")
    if demo:
        readme = replace(readme, "demo", demo_table(demo))
    train = load(folder, "train.txt")
    if train:
        readme = replace(readme, "advisor", advisor_table(train))
    readme = replace(readme, "results", results_list(folder))
    with open(readme_path, "w") as f:
        f.write(readme)


if __name__ == "__main__":
    main()
