#!/usr/bin/env python3
"""Put `advise search-bench --json` results next to Kernel Tuner's (kt_run.py) as Markdown.

Usage:
  compare.py --advise A.json [B.json ...] --kt KT.json [KT2.json ...] [--advise-repeats 100]
             [--budget 2%] [--kt-confirm RERUN.json ...] [--out table.md]
  compare.py --kt KT.json --list-kt-best      (space<TAB>budget<TAB>strategy lines, for run.sh)

advise files: any number of `advise search-bench --json` outputs (run.sh writes one per space,
strategy and budget so that the `seconds` field gives the time of exactly those runs). The rows
used are `results[]` with `space`, `strategy`, `budget`, `budget_evaluations`,
`mean_evaluations`, `median_fraction`, `p5_fraction`, and `mean_run_ms` where present (each
row's own mean time per search, since 2026-11-29). Without it, time per run = `seconds` /
(advise repeats x rows in that file), which is exact when a file holds one row.

kt files: kt_run.py outputs (`results[]` rows with the same fields plus `mean_cpu_s`). Several
files (for example `--space entries` and `--space valid`) can be given: a file's strategies are
suffixed with `[valid]` when it was run with `--space valid`.

Per space it prints every (tool, strategy) row with 95% intervals of its median and 5th
percentile (distribution-free, from the runs' order statistics: advise's JSON gives them,
Kernel Tuner's are computed from kt_run.py's `runs`), each tool's best strategy (highest median,
then highest 5th percentile), then summary tables: a space x strategy matrix of medians, the
mean of medians per strategy, and on how many spaces advise's `auto` (or, when the advise file
has no `auto` rows, advise's per-space best strategy, an oracle choice) reaches Kernel Tuner's
per-space best median.

Kernel Tuner's per-space best is the largest of several strategies' medians over few runs (8 and
20 by default), which is biased upward where strategies are close: the largest of eight medians
of near-random searches beats each of them. `--kt-confirm` takes kt_run.py outputs of that best
strategy re-run with fresh seeds (run.sh --kt-confirm) and adds, per space, the re-run's median
and whether advise reaches it: an unbiased reference beside the issue's own.
"""

import argparse
import gzip
import json
import math
import sys
from collections import OrderedDict, defaultdict


def quantile_interval(sorted_vals, q, level=0.95):
    """The distribution-free interval of the q-quantile (as advise search-bench's
    `median_interval` and `p5_interval`, src/search/bench/quantiles.rs): the order statistics
    x_(l) and x_(u) with l the largest rank whose P(B < l) is at most (1 - level) / 2 and u the
    smallest whose P(B >= u) is, B binomial (n, q); 0 or 1 (the fractions' range) where the
    runs are too few for a bound."""
    n = len(sorted_vals)
    if n == 0:
        return None
    tail = (1.0 - level) / 2.0
    cdf, total = [], 0.0
    log_pmf = n * math.log1p(-q)
    for k in range(n + 1):
        if k:
            log_pmf += math.log(n - k + 1) - math.log(k) + math.log(q / (1.0 - q))
        total += math.exp(log_pmf)
        cdf.append(min(total, 1.0))
    lower = next((sorted_vals[l - 1] for l in range(n, 0, -1) if cdf[l - 1] <= tail), 0.0)
    upper = next((sorted_vals[u - 1] for u in range(1, n + 1) if 1.0 - cdf[u - 1] <= tail), 1.0)
    return (lower, upper)


def kt_intervals(doc):
    """(space, strategy, budget) -> (median interval, p5 interval) from a kt_run.py file's runs."""
    runs = defaultdict(list)
    for r in doc.get("runs", []):
        if r.get("error") is None and r.get("fraction") is not None:
            runs[(r["space"], r["strategy"], r["budget"])].append(r["fraction"])
    out = {}
    for key, fr in runs.items():
        fr.sort()
        out[key] = (quantile_interval(fr, 0.5), quantile_interval(fr, 0.05))
    return out


def load_advise(paths, repeats):
    rows = []
    for p in paths:
        with open(p) as f:
            doc = json.load(f)
        res = doc.get("results", [])
        secs = doc.get("seconds")
        per_run = None
        if secs is not None and repeats and res:
            per_run = secs / (repeats * len(res))
        for r in res:
            # Since 2026-11-29 search-bench times each cell's runs itself (`mean_run_ms`), so a
            # bench of several strategies gives each its own time; older files: the bench's
            # seconds divided by its runs.
            own = r.get("mean_run_ms")
            rows.append(
                {
                    "tool": "advise",
                    "space": r["space"],
                    "strategy": r["strategy"],
                    "budget": r["budget"],
                    "budget_evaluations": r["budget_evaluations"],
                    "mean_evaluations": r.get("mean_evaluations"),
                    "median": r["median_fraction"],
                    "p5": r["p5_fraction"],
                    "median_interval": r.get("median_interval"),
                    "p5_interval": r.get("p5_interval"),
                    "seconds_per_run": own / 1e3 if own is not None else per_run,
                    "time_kind": "wall",
                    "repeats": repeats,
                }
            )
    return rows


def load_kt(paths):
    rows = []
    for p in paths:
        # kt_run.py's output, or a gzipped copy (docs/search-results/kt/).
        with (gzip.open(p, "rt") if p.endswith(".gz") else open(p)) as f:
            doc = json.load(f)
        mode = doc.get("settings", {}).get("space", "entries")
        suffix = "" if mode == "entries" else f" [{mode}]"
        intervals = kt_intervals(doc)
        for r in doc.get("results", []):
            mi, pi = intervals.get((r["space"], r["strategy"], r["budget"]), (None, None))
            rows.append(
                {
                    "tool": "KT",
                    "space": r["space"],
                    "strategy": r["strategy"] + suffix,
                    "budget": r["budget"],
                    "budget_evaluations": r["budget_evaluations"],
                    "mean_evaluations": r.get("mean_evaluations"),
                    "median": r["median_fraction"],
                    "p5": r["p5_fraction"],
                    "median_interval": mi,
                    "p5_interval": pi,
                    "seconds_per_run": r.get("mean_cpu_s"),
                    "time_kind": "cpu",
                    "repeats": r.get("repeats"),
                    "errors": r.get("errors", 0),
                    "mean_failed": r.get("mean_failed_evaluations"),
                }
            )
    return rows


def f3(x):
    return "–" if x is None else f"{x:.3f}"


def span(iv):
    """A 95% interval as `0.912-0.987`, or – where the file has none."""
    return "–" if not iv else f"{iv[0]:.3f}-{iv[1]:.3f}"


def ms(x):
    if x is None:
        return "–"
    v = x * 1000.0
    if v >= 100:
        return f"{v:.0f}"
    if v >= 1:
        return f"{v:.1f}"
    return f"{v:.3f}"


def key_best(r):
    return (r["median"] if r["median"] is not None else -1.0, r["p5"] if r["p5"] is not None else -1.0)


def fair_kt(r):
    """Kernel Tuner rows run with advise's rules (`--space entries`): not suffixed `[valid]`."""
    return r["tool"] == "KT" and "[" not in r["strategy"]


def best_of(rows):
    rows = [r for r in rows if r["median"] is not None]
    return max(rows, key=key_best) if rows else None


def main(argv=None):
    ap = argparse.ArgumentParser(description="advise vs Kernel Tuner search-strategy table (Markdown)")
    ap.add_argument("--advise", nargs="+", action="extend", default=[], help="advise search-bench --json outputs")
    ap.add_argument("--kt", nargs="+", action="extend", default=[], help="kt_run.py outputs")
    ap.add_argument("--advise-repeats", type=int, default=None,
                    help="repeats advise ran with (for its time per run; advise's JSON does not say)")
    ap.add_argument("--budget", action="append", help="only these budget labels (repeatable), e.g. 2%%")
    ap.add_argument("--exclude-advise", default="exhaustive",
                    help="comma-separated advise strategies left out of the tables (default: exhaustive)")
    ap.add_argument("--kt-strategies", default=None,
                    help="comma-separated Kernel Tuner strategies to keep (default: all in the files)")
    ap.add_argument("--kt-confirm", nargs="+", action="extend", default=[],
                    help="kt_run.py outputs of Kernel Tuner's per-space best strategies re-run with fresh "
                         "seeds (run.sh --kt-confirm): the best of several strategies' medians over few "
                         "runs is biased upward, the same strategy's median over new runs is not")
    ap.add_argument("--list-kt-best", action="store_true",
                    help="print each (space, budget)'s best Kernel Tuner strategy as 'space<TAB>budget<TAB>strategy' "
                         "lines (`--space entries` rows only) and exit")
    ap.add_argument("--tolerance", type=float, default=0.01,
                    help="'reaches within' tolerance on the median fraction (default 0.01)")
    ap.add_argument("--out", help="write Markdown here (default: standard output)")
    args = ap.parse_args(argv)

    excl = {s.strip() for s in args.exclude_advise.split(",") if s.strip()}
    rows = [r for r in load_advise(args.advise, args.advise_repeats) if r["strategy"] not in excl]
    kt_rows = load_kt(args.kt)
    if args.kt_strategies:
        keep = {s.strip() for s in args.kt_strategies.split(",") if s.strip()}
        kt_rows = [r for r in kt_rows if r["strategy"].split(" [")[0] in keep]
    if args.list_kt_best:
        cells = OrderedDict()
        for r in kt_rows:
            if fair_kt(r) and (not args.budget or r["budget"] in args.budget):
                cells.setdefault((r["space"], r["budget"]), []).append(r)
        for (sp, b), rs in cells.items():
            best = best_of(rs)
            if best:
                print(f"{sp}\t{b}\t{best['strategy']}")
        return
    # Re-runs of a strategy with fresh seeds, keyed by what they re-run.
    confirm = {(r["space"], r["budget"], r["strategy"]): r for r in load_kt(args.kt_confirm) if fair_kt(r)}
    rows += kt_rows
    if args.budget:
        rows = [r for r in rows if r["budget"] in args.budget]
    if not rows:
        sys.exit("no rows: give --advise and/or --kt files")

    out = []
    w = out.append
    budgets = list(OrderedDict.fromkeys(r["budget"] for r in rows))
    spaces = sorted(OrderedDict.fromkeys(r["space"] for r in rows))
    adv_strats = list(OrderedDict.fromkeys(r["strategy"] for r in rows if r["tool"] == "advise"))
    kt_strats = list(OrderedDict.fromkeys(r["strategy"] for r in rows if r["tool"] == "KT"))

    w("# advise vs Kernel Tuner: fraction of the optimum found\n")
    w("Fraction = optimum time / best time found (0 when every measured configuration failed); "
      "median and 5th percentile over the repeats (NumPy linear quantiles). Budget = ceil(share x "
      "cache entries); a failed configuration costs one evaluation in both tools. Time per run: "
      "Kernel Tuner = CPU seconds of one `tune_kernel` call (simulation mode, cache already parsed); "
      "advise = mean wall seconds of one search on its thread (search-bench's `mean_run_ms`; "
      "files without it: the bench's seconds divided by its runs).\n")
    kt_rep = sorted({r["repeats"] for r in rows if r["tool"] == "KT" and r["repeats"]})
    w(f"Repeats: advise {args.advise_repeats or '?'}, Kernel Tuner {', '.join(map(str, kt_rep)) or '–'}.\n")

    for b in budgets:
        bro = [r for r in rows if r["budget"] == b]
        w(f"## Budget {b}\n")
        for sp in spaces:
            srows = [r for r in bro if r["space"] == sp]
            if not srows:
                continue
            evals = sorted({r["budget_evaluations"] for r in srows})
            w(f"### {sp} ({', '.join(map(str, evals))} evaluations)\n")
            w("| tool | strategy | median | 95% interval | p5 | 95% interval | mean evals | ms/run |")
            w("|---|---|---:|---|---:|---|---:|---:|")
            for r in sorted(srows, key=lambda r: (r["tool"] != "advise", -key_best(r)[0], -key_best(r)[1])):
                extra = ""
                if r.get("errors"):
                    extra = f" ({r['errors']} errors)"
                me = "–" if r["mean_evaluations"] is None else f"{r['mean_evaluations']:.0f}"
                w(f"| {r['tool']} | {r['strategy']}{extra} | {f3(r['median'])} | {span(r.get('median_interval'))} "
                  f"| {f3(r['p5'])} | {span(r.get('p5_interval'))} | {me} | {ms(r['seconds_per_run'])} |")
            ba = best_of([r for r in srows if r["tool"] == "advise"])
            bk = best_of([r for r in srows if fair_kt(r)])
            bv = best_of([r for r in srows if r["tool"] == "KT" and not fair_kt(r)])
            w("")
            if ba:
                w(f"- best advise: **{ba['strategy']}** {f3(ba['median'])} (p5 {f3(ba['p5'])})")
            if bk:
                w(f"- best Kernel Tuner: **{bk['strategy']}** {f3(bk['median'])} (p5 {f3(bk['p5'])})")
            rc = confirm.get((sp, b, bk["strategy"])) if bk else None
            if rc:
                w(f"- the same Kernel Tuner strategy re-run with {rc['repeats']} fresh seeds: "
                  f"{f3(rc['median'])} (p5 {f3(rc['p5'])})")
            if bv:
                w(f"- best Kernel Tuner, failures known in advance (not a fair comparison): "
                  f"{bv['strategy']} {f3(bv['median'])} (p5 {f3(bv['p5'])})")
            w("")

        # matrix of medians
        w(f"### Medians per space and strategy ({b})\n")
        cols = [("advise", s) for s in adv_strats] + [("KT", s) for s in kt_strats]
        cols = [c for c in cols if any(r["tool"] == c[0] and r["strategy"] == c[1] for r in bro)]
        w("| space | " + " | ".join(f"{'a' if t == 'advise' else 'KT'}:{s}" for t, s in cols) + " |")
        w("|---|" + "---:|" * len(cols))
        cell = {(r["space"], r["tool"], r["strategy"]): r for r in bro}
        for sp in spaces:
            vals = []
            for t, s in cols:
                r = cell.get((sp, t, s))
                vals.append(f3(r["median"]) if r else "–")
            w(f"| {sp} | " + " | ".join(vals) + " |")
        w("")

        # mean of medians, mean p5, time
        w(f"### Mean over spaces per strategy ({b})\n")
        w("| tool | strategy | mean of medians | mean of p5 | worst median | spaces | mean ms/run |")
        w("|---|---|---:|---:|---:|---:|---:|")
        summary = []
        for t, s in cols:
            rs = [r for r in bro if r["tool"] == t and r["strategy"] == s and r["median"] is not None]
            if not rs:
                continue
            med = sum(r["median"] for r in rs) / len(rs)
            p5 = sum(r["p5"] for r in rs) / len(rs)
            worst = min(r["median"] for r in rs)
            tt = [r["seconds_per_run"] for r in rs if r["seconds_per_run"] is not None]
            summary.append((t, s, med, p5, worst, len(rs), sum(tt) / len(tt) if tt else None))
        for t, s, med, p5, worst, n, tm in sorted(summary, key=lambda x: -x[2]):
            w(f"| {t} | {s} | {med:.3f} | {p5:.3f} | {worst:.3f} | {n} | {ms(tm)} |")
        w("")

        # advise best / auto vs KT best
        has_auto = any(r["tool"] == "advise" and r["strategy"] == "auto" for r in bro)
        label = "advise `auto`" if has_auto else "advise's per-space best strategy (oracle pick; no `auto` rows)"
        reach = within = n = 0
        reach_rc = n_rc = 0
        lines = []
        for sp in spaces:
            srows = [r for r in bro if r["space"] == sp]
            if has_auto:
                a = next((r for r in srows if r["tool"] == "advise" and r["strategy"] == "auto"), None)
            else:
                a = best_of([r for r in srows if r["tool"] == "advise"])
            k = best_of([r for r in srows if fair_kt(r)])
            if not a or not k:
                continue
            n += 1
            ok = a["median"] >= k["median"]
            near = a["median"] >= k["median"] - args.tolerance
            reach += ok
            within += near
            rc = confirm.get((sp, b, k["strategy"]))
            rc_cells = ""
            if confirm:
                rc_cells = " – | – |"
                if rc and rc["median"] is not None:
                    n_rc += 1
                    reach_rc += a["median"] >= rc["median"]
                    rc_cells = f" {f3(rc['median'])} ({rc['repeats']}) | {'yes' if a['median'] >= rc['median'] else 'no'} |"
            lines.append(f"| {sp} | {a['strategy']} {f3(a['median'])} | {k['strategy']} {f3(k['median'])} | "
                         f"{a['median'] - k['median']:+.3f} | {'yes' if ok else ('≈' if near else 'no')} |{rc_cells}")
        # also each single advise strategy vs KT best
        w(f"### {label} vs Kernel Tuner's per-space best ({b}; `--space entries` rows only)\n")
        if confirm:
            w("| space | advise | Kernel Tuner best | Δ median | reaches | best re-run (runs) | reaches re-run |")
            w("|---|---|---|---:|:---:|---:|:---:|")
        else:
            w("| space | advise | Kernel Tuner best | Δ median | reaches |")
            w("|---|---|---|---:|:---:|")
        out.extend(lines)
        w("")
        w(f"- {label} reaches Kernel Tuner's per-space best median on **{reach}/{n}** spaces "
          f"(within {args.tolerance:g}: {within}/{n}).")
        if n_rc:
            w(f"- {label} reaches the median of Kernel Tuner's per-space best strategy re-run with fresh "
              f"seeds on **{reach_rc}/{n_rc}** of the spaces re-run.")
        for s in adv_strats:
            cnt = tot = 0
            for sp in spaces:
                srows = [r for r in bro if r["space"] == sp]
                a = next((r for r in srows if r["tool"] == "advise" and r["strategy"] == s), None)
                k = best_of([r for r in srows if fair_kt(r)])
                if a and k and a["median"] is not None:
                    tot += 1
                    cnt += a["median"] >= k["median"] - args.tolerance
            if tot:
                w(f"- advise `{s}` within {args.tolerance:g} of Kernel Tuner's per-space best: {cnt}/{tot}")
        w("")

    text = "\n".join(out) + "\n"
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
