#!/usr/bin/env python3
"""Writes a SYNTHETIC Kernel Tuner cache shaped like benchmark_hub's hotspot space.

Not a measurement: the times come from a seeded random main-effects model with an
interaction and noise. Only its shape is real: the tunable parameters and restrictions of
hotspot.py in MiloLurati/AutoTuning_AMD_vs_Nvidia_GPUs (cache_scripts/hotspot), with 64 KB of
shared memory per block (105,412 configurations). It exists to measure how the CPU cost of
`advise search-bench` grows with a space's size; its fractions of the optimum mean nothing.

    python3 scripts/search/synthetic-hotspot-space.py OUT.json.gz
"""
import gzip
import itertools
import json
import math
import random
import sys

random.seed(7)
bx = [1, 2, 4, 8, 16] + [32 * i for i in range(1, 33)]
by = [2**i for i in range(6)]
ten = list(range(1, 11))
keys = ["grid_width", "grid_height", "block_size_x", "block_size_y", "tile_size_x",
        "tile_size_y", "temporal_tiling_factor", "max_tfactor", "loop_unroll_factor_t",
        "sh_power"]
tune = {"grid_width": [4096], "grid_height": [4096], "block_size_x": bx,
        "block_size_y": by, "tile_size_x": ten, "tile_size_y": ten,
        "temporal_tiling_factor": ten, "max_tfactor": [10], "loop_unroll_factor_t": ten,
        "sh_power": [0, 1]}
effect = {k: {v: random.gauss(0, 0.3) for v in tune[k]} for k in keys}
cache = {}
for x, y, tx, ty, tt, lu, sh in itertools.product(bx, by, ten, ten, ten, ten, [0, 1]):
    if x * y < 32 or x * y > 1024 or tt % lu:
        continue
    if (x * tx + tt * 2) * (y * ty + tt * 2) * (2 + sh) * 4 > 65536:
        continue
    cfg = dict(zip(keys, [4096, 4096, x, y, tx, ty, tt, 10, lu, sh]))
    log_t = (sum(effect[k][cfg[k]] for k in keys) + 0.2 * math.sin(x * y / 97.0 + tx * ty)
             + random.gauss(0, 0.05))
    t = math.exp(log_t) * (1 + abs(math.log2(x * y) - 8) * 0.1) / tt
    cfg["time"] = t
    cfg["times"] = [t]
    cache[",".join(str(cfg[k]) for k in keys)] = cfg
out = {"device_name": "SYNTHETIC (hotspot-shaped, not measured)", "kernel_name": "synthetic",
       "problem_size": [4096, 4096], "tune_params_keys": keys, "tune_params": tune,
       "objective": "time", "cache": cache}
with gzip.open(sys.argv[1], "wt") as f:
    json.dump(out, f)
print(f"{len(cache)} synthetic configurations written to {sys.argv[1]}")
