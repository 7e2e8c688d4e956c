#!/usr/bin/env python3
"""Whether a cross-validation check on a search's first measurements could tell which surrogate
a space needs: a Gaussian process (Matern 5/2, Kernel Tuner's scaling: every parameter's levels
one step of 1 / the most levels apart, log time, scikit-learn's marginal-likelihood length
scale) or gradient-boosted trees (depth 4, 2 rows a leaf, 100 rounds, rate 0.1, as `brt` and
scikit-learn's defaults). For each Kernel Tuner cache, 20 draws (seeded) of 30 configurations
that ran: each model's 5-fold cross-validated Spearman correlation with the log times, how
often the trees' is the higher, and the mean fraction of the optimum of the five unmeasured
configurations each model fitted on all 30 predicts fastest.

Needs scikit-learn and scipy (scripts/kt-compare/setup.sh's virtual environment has them):

    scripts/kt-compare/.venv/bin/python scripts/search/model-cv.py [--seed S] SPACE.json.gz ...
"""
import argparse
import gzip
import json
import statistics
import warnings

import numpy as np
from scipy.stats import spearmanr
from sklearn.ensemble import GradientBoostingRegressor
from sklearn.gaussian_process import GaussianProcessRegressor
from sklearn.gaussian_process.kernels import Matern
from sklearn.model_selection import KFold

DRAWS, ROWS, FOLDS, TOP = 20, 30, 5, 5


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as fh:
        d = json.load(fh)
    params = [p for p, v in d["tune_params"].items() if len(v) > 1]
    values = {p: d["tune_params"][p] for p in params}
    x, t = [], []
    for entry in d["cache"].values():
        time = entry.get("time")
        if isinstance(time, (int, float)) and time > 0:
            x.append([values[p].index(entry[p]) for p in params])
            t.append(time)
    step = 1.0 / max(len(v) for v in values.values())
    return np.array(x, float) * step, np.array(t)


def gp():
    kernel = Matern(length_scale=0.5, nu=2.5, length_scale_bounds=(0.05, 5))
    return GaussianProcessRegressor(kernel, alpha=1e-3, normalize_y=True)


def trees():
    return GradientBoostingRegressor(max_depth=4, min_samples_leaf=2, n_estimators=100,
                                     learning_rate=0.1, random_state=0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("spaces", nargs="+")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    warnings.filterwarnings("ignore")
    for path in args.spaces:
        x, t = load(path)
        rng = np.random.default_rng(args.seed)
        rows = []
        for draw in range(DRAWS):
            idx = rng.choice(len(t), ROWS, replace=False)
            y = np.log(t[idx])
            score = {}
            for name, make in (("gp", gp), ("trees", trees)):
                pred = np.zeros(ROWS)
                for tr, te in KFold(FOLDS, shuffle=True, random_state=draw).split(idx):
                    pred[te] = make().fit(x[idx[tr]], y[tr]).predict(x[idx[te]])
                score[name] = spearmanr(pred, y).correlation
                everywhere = make().fit(x[idx], y).predict(x)
                everywhere[idx] = np.inf
                top = np.argsort(everywhere)[:TOP]
                score[name + " top"] = float(np.mean(t.min() / t[top]))
            rows.append(score)
        mean = lambda k: statistics.mean(r[k] for r in rows)
        wins = sum(r["trees"] > r["gp"] for r in rows)
        name = path.rsplit("/", 1)[-1]
        print(f"{name}: cross-validated Spearman gp {mean('gp'):.2f} trees {mean('trees'):.2f}; "
              f"trees higher in {wins}/{DRAWS}; predicted-fastest five at gp "
              f"{mean('gp top'):.3f} trees {mean('trees top'):.3f} of the optimum")


if __name__ == "__main__":
    main()
