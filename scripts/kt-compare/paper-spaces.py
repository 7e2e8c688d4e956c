#!/usr/bin/env python3
"""Write two tuning spaces from the runs of Willemsen's Kernel Tuner search-space paper
repository (https://github.com/fjwillemsen/kernel_tuner_paper, MIT), which this project has not
tuned `auto` on: hotspot on an RTX A4000 and CLBlast's gemm (Xgemm) on an A100.

    scripts/kt-compare/paper-spaces.py KERNEL_TUNER_PAPER_GIT_DIR OUT_DIR

Its folder compare_real_world_impact/results/ holds, per kernel and GPU, 30 Kernel Tuner caches
(`<GPU>_f=<constructor>_i=<0-9>.json`, constructors bruteforce, pyatf and pythonconstraint):
time-limited runs that each measured a different share of the space. None is a whole space, so
this joins the 30 into one cache of every configuration any run measured: the union of their
entries, with each configuration's time the mean of the runs' times where several measured it
(`times`: every run's). A configuration counts as failed only where no run gave it a time.
The result is a real space of the configurations it holds (a share of the full one; its
optimum is the fastest of those), as the benchmark_hub spaces cut off before their end are.

Read from commit 5ea2c227d69d89c80ba964ec76592f8a682448b6 (2025-07-25) of that repository
(the files last changed in b9abd522, 2025-04-19). hotspot on the A100 is left out: where two
of its runs measured the same configuration their times differ by a median factor of 1.20
(1,678 configurations; A4000 hotspot: 1.0003 over 235; A100 gemm 1.0014 over 428), so its
runs did not time alike and a join would mix them.
"""

import gzip
import json
import subprocess
import sys
from pathlib import Path

COMMIT = "5ea2c227d69d89c80ba964ec76592f8a682448b6"
SPACES = [("hotspot", "A4000"), ("gemm", "A100")]
CONSTRUCTORS = ["bruteforce", "pyatf", "pythonconstraint"]


def show(git_dir, path):
    r = subprocess.run(
        ["git", "--git-dir", git_dir, "show", f"{COMMIT}:{path}"],
        capture_output=True,
    )
    if r.returncode != 0:
        sys.exit(f"paper-spaces: {path} at {COMMIT[:8]} is not in {git_dir}: "
                 f"{r.stderr.decode().strip()}")
    return json.loads(r.stdout)


def join(git_dir, kernel, gpu):
    head, times, order = None, {}, []
    for c in CONSTRUCTORS:
        for i in range(10):
            doc = show(git_dir, f"compare_real_world_impact/results/{kernel}/{gpu}_f={c}_i={i}.json")
            if head is None:
                head = {k: doc[k] for k in doc if k != "cache"}
            elif doc["tune_params"] != head["tune_params"]:
                sys.exit(f"paper-spaces: {kernel} {gpu} {c} {i}: other tuning parameters")
            for key, entry in doc["cache"].items():
                if key not in times:
                    times[key] = (entry, [])
                    order.append(key)
                t = entry.get("time")
                if isinstance(t, (int, float)) and t == t and t < 1e20:
                    times[key][1].append(float(t))
    cache = {}
    keys = head["tune_params_keys"]
    for key in order:
        entry, ts = times[key]
        out = {k: entry[k] for k in keys}
        out["time"] = sum(ts) / len(ts) if ts else entry.get("time")
        out["times"] = ts
        cache[key] = out
    head["cache"] = cache
    return head


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    git_dir, out = sys.argv[1], Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    for kernel, gpu in SPACES:
        doc = join(git_dir, kernel, gpu)
        path = out / f"{kernel}__{gpu}.json.gz"
        with gzip.GzipFile(path, "wb", mtime=0) as f:
            f.write(json.dumps(doc, separators=(",", ":")).encode())
        timed = sum(1 for e in doc["cache"].values() if e["times"])
        print(f"{path}: {len(doc['cache'])} configurations ({timed} timed) from 30 runs")


if __name__ == "__main__":
    main()
