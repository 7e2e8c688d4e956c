#!/usr/bin/env python3
"""Replay Kernel Tuner 1.5.0 search strategies on brute-force cache files (simulation mode).

For every cache file, strategy, budget and repeat this calls Kernel Tuner's own
`tune_kernel(..., cache=FILE, simulation_mode=True, strategy=NAME,
strategy_options={"max_fevals": B})` and scores the run exactly as `advise search-bench` does:

* budget B = max(1, ceil(share * N)) where N is the number of distinct configurations in the
  cache (failed ones included), the same rounding as advise's `Budget::evaluations`;
* fraction of the optimum = optimum / best time found, where the optimum is the best valid
  time in the whole cache and "valid" means a finite number > 0 (as advise's `SearchSpace`);
  0 when every configuration the run measured failed;
* repeat r uses seed `seed + r` (Python's `random` and NumPy's global generator are both
  seeded right before the call: Kernel Tuner 1.5.0 has no seed of its own for these
  strategies, and scipy's basinhopping/dual_annealing/LatinHypercube fall back to NumPy's
  global generator).

The search space given to Kernel Tuner is, by default (`--space entries`), exactly the set of
cache entries, failed ones included: a restriction function accepts a configuration iff it is
a key of the cache. Kernel Tuner's simulation runner then charges one evaluation the first time
it serves any cache entry, failed or not, which is advise's rule (a failure costs an
evaluation, a repeat is free). `--space valid` instead reproduces `kernel_tuner.tune_cache`,
whose inferred restriction drops the failed entries from the search space (failures then can
never be proposed: a strategy gets to know them for free, which favours Kernel Tuner).

Output: one JSON document (see README.md) with one record per run and a summary per
(space, strategy, budget) with the median and 5th percentile (NumPy's linear quantile, like
advise) of the fraction and the CPU time per run.
"""

import argparse
import gzip
import json
import math
import os
import shutil
import signal
import sys
import tempfile
import time

# One thread for BLAS (bayes_opt's GP): CPU time per run is then comparable with advise's
# single-threaded runs, and parallel workers do not oversubscribe the cores.
for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_v, "1")

import random  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402

from cut_cache import parse_cache_text  # noqa: E402
from ktt_cache import ktt_to_cache  # noqa: E402

DEFAULT_STRATEGIES = [
    "random_sample",
    "genetic_algorithm",
    "simulated_annealing",
    "basinhopping",
    "bayes_opt",
    "pso",
    "diff_evo",
    "greedy_ils",
]

# Strategies of Kernel Tuner 1.5.0 that need nothing beyond its default dependencies and a
# single-objective simulation (see README.md for the others: skopt, pyatf_strategies, nsga2/3).
KNOWN_STRATEGIES = [
    "random_sample",
    "genetic_algorithm",
    "simulated_annealing",
    "basinhopping",
    "bayes_opt",
    "pso",
    "diff_evo",
    "greedy_ils",
    "greedy_mls",
    "mls",
    "ordered_greedy_mls",
    "firefly_algorithm",
    "minimize",
    "dual_annealing",
    "hybrid_vndx",
    "adaptive_tabu_greywolf",
]


def parse_budget(text):
    """`2%` -> ('share', 0.02), `100` -> ('count', 100): advise's `Budget::parse`."""
    t = text.strip()
    if t.endswith("%"):
        v = float(t[:-1].strip())
        if not (0.0 < v <= 100.0):
            raise ValueError(f"budget `{t}`: expected a percentage in (0, 100]")
        return ("share", v / 100.0)
    return ("count", int(t))


def budget_evaluations(budget, n):
    """advise's `Budget::evaluations`: a share rounds up, at least 1."""
    kind, v = budget
    if kind == "share":
        return max(int(math.ceil(v * float(n))), 1)
    return v


def budget_label(budget):
    """advise's `Budget::label`: `2%`, `0.5%`, `100`."""
    kind, v = budget
    if kind == "share":
        x = round(v * 100.0 * 1000.0) / 1000.0
        return f"{x:g}%"
    return str(v)


def space_name(path):
    """advise's `space_name`: the file name without `.gz`, `.json`, `.csv`."""
    name = os.path.basename(path)
    for ext in (".gz", ".json", ".csv"):
        if name.endswith(ext):
            name = name[: -len(ext)]
    return name


def quantile(sorted_vals, q):
    """advise's `quantile` (NumPy's default linear interpolation) on sorted values."""
    if not sorted_vals:
        return float("nan")
    pos = q * (len(sorted_vals) - 1)
    lo, hi = math.floor(pos), math.ceil(pos)
    if lo == hi or sorted_vals[hi] == sorted_vals[lo]:
        return sorted_vals[lo]
    return sorted_vals[lo] + (sorted_vals[hi] - sorted_vals[lo]) * (pos - lo)


def valid_time(t):
    """A time advise counts as measured: a finite number > 0 (not bool, not an error string)."""
    return isinstance(t, (int, float)) and not isinstance(t, bool) and math.isfinite(t) and t > 0


def load_text(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        text = f.read()
    doc, closed, _ = parse_cache_text(text)
    return doc, closed


class Space:
    """One cache file: its decompressed copy for Kernel Tuner and what scoring needs."""

    def __init__(self, path, workdir):
        self.path = path
        self.name = space_name(path)
        data, text = load_text(path)
        if "Results" in data and "cache" not in data:
            data = ktt_to_cache(data, path)
            text = json.dumps(data)
        self.kernel_name = data["kernel_name"]
        self.device_name = data.get("device_name", "")
        self.problem_size = data.get("problem_size")
        self.keys = list(data["tune_params_keys"])
        self.tune_params = data["tune_params"]
        if list(self.tune_params.keys()) != self.keys:
            raise ValueError(f"{path}: tune_params order differs from tune_params_keys")
        self.time = {}  # cache key -> float time, or None if failed
        self.all_configs = set()
        self.valid_configs = set()
        for key, entry in data["cache"].items():
            cfg = tuple(entry[k] for k in self.keys)
            expect = ",".join(str(v) for v in cfg)
            if expect != key:
                raise ValueError(f"{path}: cache key `{key}` does not match its values `{expect}`")
            if cfg in self.all_configs:
                continue
            t = entry.get("time")
            self.time[key] = float(t) if valid_time(t) else None
            self.all_configs.add(cfg)
            if valid_time(t):
                self.valid_configs.add(cfg)
        self.n = len(self.all_configs)
        self.failed = self.n - len(self.valid_configs)
        if not self.valid_configs:
            raise ValueError(f"{path}: no configuration has a measured time")
        self.optimum = min(t for t in self.time.values() if t is not None)
        # Kernel Tuner reads plain `.json` only (it appends `.json` to any other name).
        self.json_path = os.path.join(workdir, self.name + ".json")
        with open(self.json_path, "w") as f:
            f.write(text)

    def problem_size_arg(self):
        ps = self.problem_size
        if ps is None or isinstance(ps, str):
            return (1,)  # not checked against the cache when absent
        if isinstance(ps, (int, float)):
            return (ps,)
        return tuple(ps)


_memo_cache = {}


def _install_cache_memo():
    """Parse each cache JSON once per process (Kernel Tuner re-reads it on every call).

    The runner copies every entry it serves (`dict(cache[key])`) and simulation mode never
    writes to the cache, so sharing the parsed dictionary between runs changes nothing but the
    parse time (0.2 s for a gemm cache), which is not part of a search.
    """
    from kernel_tuner import util

    original = util.read_cache

    def read_cache(cachefile, open_cache=True):
        if open_cache:
            return original(cachefile, open_cache)
        if cachefile not in _memo_cache:
            _memo_cache[cachefile] = original(cachefile, open_cache=False)
        cached = _memo_cache[cachefile]
        return dict(cached)  # fresh top level, shared (read-only) entries

    util.read_cache = read_cache


def _install_seeded_lhs():
    """Make scipy's LatinHypercube follow the seeded NumPy global generator.

    In scipy >= 1.15 `LatinHypercube()` without `rng` draws fresh OS entropy (unlike
    basinhopping and dual_annealing, which fall back to NumPy's global RandomState), so
    Kernel Tuner's diff_evo (`Searchspace.get_LHS_sample`) and bayes_opt (initial sample)
    would not be reproducible. The wrapper seeds each LatinHypercube from one draw of
    NumPy's global generator: the same distribution, a reproducible stream.
    """
    import scipy.stats.qmc as qmc

    original = qmc.LatinHypercube
    if getattr(original, "_kt_compare_seeded", False):
        return

    class SeededLatinHypercube(original):
        _kt_compare_seeded = True

        def __init__(self, d, *args, **kwargs):
            if "rng" not in kwargs and "seed" not in kwargs:
                kwargs["rng"] = np.random.default_rng(np.random.randint(0, 2**32 - 1, dtype=np.uint64))
            super().__init__(d, *args, **kwargs)

    qmc.LatinHypercube = SeededLatinHypercube  # searchspace.get_LHS_sample_indices imports it per call
    import kernel_tuner.strategies.bayes_opt as bo

    bo.LatinHypercube = SeededLatinHypercube  # bayes_opt imported it at module load


def _install_patches():
    _install_cache_memo()
    _install_seeded_lhs()


def restriction_for(space, mode):
    from constraint import FunctionConstraint

    allowed = space.all_configs if mode == "entries" else space.valid_configs

    def in_cache(*values):
        return values in allowed

    return [FunctionConstraint(in_cache)]


class RunLimit(Exception):
    """A run that outlived --run-limit (see run_once)."""


def _over_limit(signum, frame):
    raise RunLimit("no result within --run-limit seconds of wall time: the strategy did not stop")


def run_once(space, strategy, budget_evals, seed, mode, options, limit_s=0):
    """One seeded run. Where `limit_s` > 0 and the run has not ended after that many seconds
    of wall time it stops and is recorded with its error and no fraction (Kernel Tuner 1.5.0's
    greedy_ils did not end within 60 s on a 488-configuration CLBlast space at 25 evaluations,
    seed 0, where its other runs take 0.1 s)."""
    import kernel_tuner
    from kernel_tuner.util import ErrorConfig

    strategy_options = dict(options)
    strategy_options["max_fevals"] = budget_evals
    random.seed(seed)
    np.random.seed(seed)
    c0, w0 = time.process_time(), time.perf_counter()
    error = None
    results = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if limit_s > 0:
            signal.signal(signal.SIGALRM, _over_limit)
            signal.alarm(limit_s)
        try:
            results, _env = kernel_tuner.tune_kernel(
                space.kernel_name,
                "",  # no source: simulation mode never compiles
                space.problem_size_arg(),
                [],
                space.tune_params,
                restrictions=restriction_for(space, mode),
                cache=space.json_path,
                simulation_mode=True,
                strategy=strategy,
                strategy_options=strategy_options,
                quiet=True,
                verbose=False,
            )
        except Exception as e:  # a strategy that crashes is recorded, not fatal
            error = f"{type(e).__name__}: {e}"
        finally:
            if limit_s > 0:
                signal.alarm(0)
    cpu = time.process_time() - c0
    wall = time.perf_counter() - w0
    seen = []
    seen_set = set()
    invalid = 0
    for r in results or []:
        key = ",".join(str(r[k]) for k in space.keys)
        if key in space.time:
            if key not in seen_set:
                seen_set.add(key)
                seen.append(key)
        elif isinstance(r.get("__error__"), ErrorConfig):
            invalid += 1
    best = None
    failed = 0
    for key in seen:
        t = space.time[key]
        if t is None:
            failed += 1
        elif best is None or t < best:
            best = t
    fraction = space.optimum / best if best is not None else 0.0
    if error is not None and not seen:
        fraction = None
    return {
        "space": space.name,
        "strategy": strategy,
        "seed": seed,
        "budget_evaluations": budget_evals,
        "evaluations": len(seen),
        "failed_evaluations": failed,
        "invalid_results": invalid,
        "best_time": best,
        "fraction": fraction,
        "cpu_s": cpu,
        "wall_s": wall,
        "error": error,
    }


# --- worker plumbing (multiprocessing) ---------------------------------------------------

_W = {}


def _init_worker(paths, workdir, mode, options, limit_s=0):
    _install_patches()
    _W["spaces"] = {p: Space(p, workdir) for p in paths}
    _W["mode"] = mode
    _W["options"] = options
    _W["limit_s"] = limit_s


def _job(job):
    path, strategy, label, budget_evals, repeat, seed = job
    rec = run_once(
        _W["spaces"][path],
        strategy,
        budget_evals,
        seed,
        _W["mode"],
        _W["options"].get(strategy, {}),
        _W.get("limit_s", 0),
    )
    rec["budget"] = label
    rec["repeat"] = repeat
    return rec


def parse_options(specs):
    """`pso:popsize=20` (repeatable) -> {"pso": {"popsize": 20}} (values parsed as JSON if possible)."""
    out = {}
    for spec in specs or []:
        strat, _, kv = spec.partition(":")
        key, _, value = kv.partition("=")
        if not strat or not key or not _:
            raise ValueError(f"--option `{spec}`: expected STRATEGY:KEY=VALUE")
        try:
            v = json.loads(value)
        except json.JSONDecodeError:
            v = value
        out.setdefault(strat, {})[key] = v
    return out


def summarise(runs, spaces, strategies, budgets_by_space):
    rows = []
    for sp in spaces:
        for label, evals in budgets_by_space[sp.name]:
            for st in strategies:
                mine = [r for r in runs if r["space"] == sp.name and r["strategy"] == st and r["budget"] == label]
                if not mine:
                    continue
                ok = [r for r in mine if r["fraction"] is not None]
                fr = sorted(r["fraction"] for r in ok)
                cpu = sorted(r["cpu_s"] for r in mine)
                rows.append(
                    {
                        "space": sp.name,
                        "strategy": st,
                        "budget": label,
                        "budget_evaluations": evals,
                        "repeats": len(mine),
                        "errors": len(mine) - len(ok),
                        "mean_evaluations": sum(r["evaluations"] for r in mine) / len(mine),
                        "mean_failed_evaluations": sum(r["failed_evaluations"] for r in mine) / len(mine),
                        "median_fraction": quantile(fr, 0.5) if fr else None,
                        "p5_fraction": quantile(fr, 0.05) if fr else None,
                        "mean_fraction": sum(fr) / len(fr) if fr else None,
                        "reached_95": sum(1 for f in fr if f >= 0.95) / len(mine),
                        "median_cpu_s": quantile(cpu, 0.5),
                        "mean_cpu_s": sum(cpu) / len(cpu),
                        "first_error": next((r["error"] for r in mine if r["error"]), None),
                    }
                )
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cache", nargs="+", required=True,
                    help="Kernel Tuner cache files (.json or .json.gz); KTT 2.x outputs are converted")
    ap.add_argument("--strategies", default=",".join(DEFAULT_STRATEGIES),
                    help="comma-separated Kernel Tuner strategy names, or `all` (default: %(default)s)")
    ap.add_argument("--budgets", default="2%", help="comma-separated shares (2%%) or counts (default: %(default)s)")
    ap.add_argument("--repeats", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0, help="repeat r uses seed SEED + r (default 0)")
    ap.add_argument("--space", choices=["entries", "valid"], default="entries",
                    help="entries: every cache entry incl. failed ones is in the search space and costs an "
                         "evaluation (advise's rule, default); valid: kernel_tuner.tune_cache's space "
                         "(failed entries removed by the restriction)")
    ap.add_argument("--option", action="append", metavar="STRATEGY:KEY=VALUE",
                    help="extra strategy_options, e.g. pso:popsize=20 (repeatable)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    ap.add_argument("--out", help="write the JSON here (default: standard output)")
    ap.add_argument("--progress", action="store_true", help="one line per finished run on standard error")
    ap.add_argument("--run-limit", type=int, default=300, metavar="SECONDS",
                    help="wall seconds after which a run stops and is recorded as an error, 0 for "
                         "none (default %(default)s; a run takes 0.01-2 s)")
    args = ap.parse_args(argv)

    import kernel_tuner

    version = getattr(kernel_tuner, "__version__", None)
    if version is None:
        from importlib.metadata import version as _v

        version = _v("kernel_tuner")
    strategies = [s.strip() for s in args.strategies.split(",") if s.strip()]
    if strategies == ["all"]:
        strategies = list(KNOWN_STRATEGIES)
    from kernel_tuner.interface import strategy_map

    for s in strategies:
        if s not in strategy_map:
            ap.error(f"unknown Kernel Tuner strategy `{s}` (this version has: {', '.join(strategy_map)})")
    budgets = [parse_budget(b) for b in args.budgets.split(",") if b.strip()]
    options = parse_options(args.option)

    workdir = tempfile.mkdtemp(prefix="kt-compare-")
    try:
        run_all(args, ap, strategies, budgets, options, workdir, version)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def run_all(args, ap, strategies, budgets, options, workdir, version):
    _init_worker(args.cache, workdir, args.space, options, args.run_limit)
    spaces = [_W["spaces"][p] for p in args.cache]

    # searchspace construction cost once per space (it is part of every run's CPU time)
    from kernel_tuner.searchspace import Searchspace

    setup = {}
    for sp in spaces:
        c0 = time.process_time()
        ss = Searchspace(sp.tune_params, restriction_for(sp, args.space), 1_000_000_000)
        setup[sp.name] = (time.process_time() - c0, ss.size)

    budgets_by_space = {}
    jobs = []
    for sp in spaces:
        budgets_by_space[sp.name] = []
        for b in budgets:
            evals = budget_evaluations(b, sp.n)
            if evals > sp.n:
                ap.error(f"budget {evals} is larger than the space `{sp.name}` ({sp.n} configurations)")
            budgets_by_space[sp.name].append((budget_label(b), evals))
            for st in strategies:
                for r in range(args.repeats):
                    jobs.append((sp.path, st, budget_label(b), evals, r, args.seed + r))

    t0 = time.perf_counter()
    runs = []

    def progress(rec):
        if args.progress:
            print(
                f"{rec['space']} {rec['strategy']} {rec['budget']} r={rec['repeat']} "
                f"frac={rec['fraction']} evals={rec['evaluations']} cpu={rec['cpu_s']:.2f}s"
                + (f" ERROR {rec['error']}" if rec["error"] else ""),
                file=sys.stderr,
                flush=True,
            )

    if args.jobs <= 1:
        for j in jobs:
            rec = _job(j)
            progress(rec)
            runs.append(rec)
    else:
        import multiprocessing as mp

        ctx = mp.get_context("fork")
        # forked workers inherit the loaded spaces and the patched cache reader
        with ctx.Pool(args.jobs) as pool:
            for rec in pool.imap(_job, jobs, chunksize=1):
                progress(rec)
                runs.append(rec)
    elapsed = time.perf_counter() - t0

    doc = {
        "schema": "kt-compare/1",
        "tool": "kernel_tuner",
        "kernel_tuner_version": version,
        "settings": {
            "strategies": strategies,
            "budgets": [budget_label(b) for b in budgets],
            "repeats": args.repeats,
            "seed": args.seed,
            "space": args.space,
            "options": options,
            "jobs": args.jobs,
            "run_limit_s": args.run_limit,
        },
        "seconds": elapsed,
        "spaces": [
            {
                "space": sp.name,
                "path": sp.path,
                "kernel": sp.kernel_name,
                "device": sp.device_name,
                "configurations": sp.n,
                "failed": sp.failed,
                "optimum": sp.optimum,
                "searchspace_size": setup[sp.name][1],
                "searchspace_build_cpu_s": setup[sp.name][0],
            }
            for sp in spaces
        ],
        "results": summarise(runs, spaces, strategies, budgets_by_space),
        "runs": runs,
    }
    text = json.dumps(doc, indent=1)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")
    else:
        print(text)


if __name__ == "__main__":
    # Kernel Tuner iterates over sets (e.g. of parameter values) in places: fix the string
    # hash seed so that a run with a given seed is reproducible for text-valued parameters too.
    if os.environ.get("PYTHONHASHSEED") != "0":
        os.environ["PYTHONHASHSEED"] = "0"
        os.execv(sys.executable, [sys.executable] + sys.argv)
    main()
