#!/usr/bin/env python3
"""What Kernel Tuner 1.5.0's diff_evo measures when the budget is smaller than its population.

    scripts/kt-compare/.venv/bin/python scripts/kt-compare/lhs_sample.py CACHE BUDGET POPSIZE

diff_evo's first generation is `Searchspace.get_LHS_sample(popsize)` (popsize 16 times the
number of tunable parameters): a Latin hypercube over the parameters' value indices, each point
moved to the nearest configuration the space holds (the first in the space's order where
several are as near), duplicates dropped by `list(set(indices))`, which for small integers
lists them in increasing order. Where the budget ends inside that generation, the
configurations measured are the lowest-index BUDGET of the sample. For 200 seeds this prints
the median fraction of the optimum of (a) a Latin hypercube sample of BUDGET points, (b) the
first BUDGET of one of POPSIZE points (what diff_evo measures), how concentrated the samples
are, and the optimum's index in the space's order. Seeds 0-199 of NumPy's global generator, as
kt_run.py seeds a run.

It then draws the same kind of Latin hypercube (SciPy's, seeds 0-199) and moves each point to
the nearest configuration three ways: the first in the space's order among the equally near
(Kernel Tuner's `np.argmin`), one of them at random, and the last. Where the first does much
better than the other two, Kernel Tuner's figure comes from the order its constraint solver
lists the configurations in, not from the Latin hypercube.
"""
import statistics
import sys
from collections import Counter

import numpy as np

import kt_run


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    path, n, pop = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    kt_run._install_patches()
    from kernel_tuner.searchspace import Searchspace

    sp = kt_run.Space(path, "/tmp")
    ss = Searchspace(sp.tune_params, kt_run.restriction_for(sp, "entries"), 1_000_000_000)
    key = lambda c: ",".join(str(v) for v in c)  # noqa: E731
    fraction = lambda cfgs: sp.optimum / min(sp.time[key(c)] for c in cfgs)  # noqa: E731
    plain, first, seen = [], [], Counter()
    for seed in range(200):
        np.random.seed(seed)
        cfgs = ss.get_LHS_sample(n)
        seen.update(cfgs)
        plain.append(fraction(cfgs))
        np.random.seed(seed)
        idx = list(ss.get_LHS_sample_indices(pop))[:n]
        first.append(fraction(ss.get_param_configs_at_indices(idx)))
    total = sum(seen.values())
    top = sum(v for _, v in seen.most_common(10)) / total
    keys = [key(c) for c in ss.get_param_configs_at_indices(list(range(ss.size)))]
    best = min((k for k in keys if sp.time[k] is not None), key=lambda k: sp.time[k])
    print(f"{sp.name}: {ss.size} configurations, budget {n}, population {pop}")
    print(f"Latin hypercube sample of {n}: median fraction {statistics.median(plain):.3f}")
    print(f"first {n} of a sample of {pop}: median fraction {statistics.median(first):.3f}")
    print(f"distinct configurations sampled {len(seen)}; the 10 most sampled {top:.1%} of draws")
    print(f"the optimum's index in the space's order: {keys.index(best)} of {ss.size}")
    ties(sp, ss, keys, n)


def ties(sp, ss, keys, n):
    """Median and 5th percentile of 200 Latin hypercube samples of `n` points moved to the
    nearest configuration (the sum of level-index differences, as `get_LHS_sample`), equally
    near ones broken toward the first in the space's order, at random, or toward the last."""
    from scipy.stats.qmc import LatinHypercube

    levels = np.array(ss.params_values_indices)
    times = np.array([sp.time[k] if sp.time[k] is not None else np.inf for k in keys])
    optimum = times.min()
    fractions = {"first": [], "random": [], "last": []}
    for seed in range(200):
        rng = np.random.default_rng(seed)
        points = LatinHypercube(levels.shape[1], seed=seed).integers(
            l_bounds=np.zeros(levels.shape[1], dtype=int), u_bounds=levels.max(axis=0),
            n=n, endpoint=True)
        picked = {"first": set(), "random": set(), "last": set()}
        for p in points:
            distance = np.abs(levels - p).sum(axis=1)
            nearest = np.flatnonzero(distance == distance.min())
            picked["first"].add(int(nearest[0]))
            picked["random"].add(int(rng.choice(nearest)))
            picked["last"].add(int(nearest[-1]))
        for way, ids in picked.items():
            while len(ids) < n:
                ids.add(int(rng.integers(len(keys))))
            fractions[way].append(optimum / times[list(ids)].min())
    for way, fr in fractions.items():
        fr.sort()
        print(f"Latin hypercube of {n}, ties to the {way:6s}: median {statistics.median(fr):.3f}, "
              f"5th percentile {fr[int(0.05 * (len(fr) - 1))]:.3f}")


if __name__ == "__main__":
    main()
