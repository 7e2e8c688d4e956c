#!/usr/bin/env python3
"""Write blind tuning spaces from two public repositories that this project had not used when
`auto`'s settings were chosen, as Kernel Tuner caches (for `advise search-bench` and kt_run.py):

    scripts/kt-compare/benchmarking-spaces.py paper  GPU_BENCHMARKING_PAPER_GIT_DIR OUT_DIR
    scripts/kt-compare/benchmarking-spaces.py ktp18  KERNEL_TUNER_PAPER_GIT_DIR     OUT_DIR

`paper`: https://github.com/schoonhovenrichard/GPU_benchmarking_paper (Schoonhoven et al.,
"Benchmarking optimization algorithms for auto-tuning GPU kernels", IEEE TEVC 2022), commit
5ecfae3. Its whole caches are files of 4 MiB or more; what the repository also holds, in
irace_tune/stochastic_cache_files/<space>_run<K>.json (K = 1..32), is the K-th of 32 repeated
measurements of every configuration that ran. This joins the 32 into one cache per space: a
configuration's `times` are its 32 samples, its `time` their mean (as Kernel Tuner computes
`time` from `times`). Spaces: CLBlast's Xgemm (4096^3; 17,956 configurations, MI50 15,792),
the 2D convolution (5,776) and pnpoly timed with its host work (7,728-7,896), on A100, GTX 1080
Ti, GTX Titan X, K20m, P100, RTX 2070 SUPER, V100 (gemm also MI50, pnpoly also TITAN RTX).
Configurations that failed are not in the source: every entry has a time. gemm and convolution
on the TITAN RTX are left out: the same kernels on the same GPU are among the spaces `auto`
was developed on (shared/data/kerneltuner-caches-rtx).

`ktp18`: https://github.com/benvanwerkhoven/kernel_tuner_paper (van Werkhoven, "Kernel Tuner:
A search-optimizing GPU code auto-tuner", FGCS 2019), commits 4bf533f and 3e70e85: brute-force
results lists of `kernel_tuner.tune_kernel` (one dict per configuration that ran, with its
`time`), turned into caches whose `tune_params` are each parameter's distinct values, sorted.
GPUs as the repository's experiment.py names them: GTX Titan X (Maxwell) for convolution,
convolution with streams, gemm (Xgemm 2048^3) and pnpoly; AMD Vega (4bf533f) and AMD RX 480
(3e70e85) for gemm_amd.

`list`: any one `tune_kernel` results list (or `[results, environment]`) at a commit of a
clone, as a cache named KERNEL__GPU:

    scripts/kt-compare/benchmarking-spaces.py list GIT_DIR COMMIT PATH KERNEL GPU OUT_DIR

used for two spaces first searched in session 46: ExpDist on a Tesla K40c
(https://github.com/benvanwerkhoven/expdist, 6aa2007, tuning/expdist.json; 582
configurations, Apache-2.0) and a 2017 convolution with streams whose GPU the file does not
name (https://github.com/benvanwerkhoven/tuning_kernels, c77c509, convolution_streams.json;
3,612 configurations, no licence stated).

`cache`: a Kernel Tuner cache at a commit of a clone, gzipped as it is, as NAME:

    scripts/kt-compare/benchmarking-spaces.py cache GIT_DIR COMMIT PATH NAME OUT_DIR

`cache-time`: a Kernel Tuner cache tuned on another objective (energy), searched on time:

    scripts/kt-compare/benchmarking-spaces.py cache-time GIT_DIR COMMIT PATH NAME OUT_DIR

`uci-sgemm`: the UCI "SGEMM GPU kernel performance" data set (CLTune's gemm_fast, 2048^3, on a
GeForce GTX 680; 241,600 feasible configurations, four runs each) from a zip in a clone:

    scripts/kt-compare/benchmarking-spaces.py uci-sgemm GIT_DIR COMMIT PATH OUT_DIR

used, with `cache` and `list`, for the blind spaces first searched in session 53 (README.md).

`ktt`: a KTT 2.x JSON output (`{"Metadata", "Results"}`) at a commit of a clone as a cache,
read as advise reads it: a result's time is the sum of its `ComputationResults` durations in
`Metadata.TimeUnit`, in ms; a result whose `Status` is not "Ok" failed ("RuntimeFailedConfig");
a configuration measured more than once (a searcher's log) gets the mean of its working
results' times. `clblast`: CLBlast's tuner output (`clblast_<family>_<precision>.json`: the
configurations that ran and were correct, each with its time in ms) as a cache:

    scripts/kt-compare/benchmarking-spaces.py ktt     GIT_DIR COMMIT PATH NAME OUT_DIR
    scripts/kt-compare/benchmarking-spaces.py clblast GIT_DIR COMMIT PATH NAME OUT_DIR

used for the blind spaces first searched in session 65 (docs/search-results.md).

Of these repositories only expdist states a licence, so the spaces are not copied into this
one; this script rebuilds them from a clone.
"""

import gzip
import json
import statistics
import subprocess
import sys
from pathlib import Path

from ktt_cache import ktt_to_cache

PAPER_COMMIT = "5ecfae3034547e1384762dfdbd8c852817a8bf31"
PAPER_DIR = "irace_tune/stochastic_cache_files/"
PAPER_KERNELS = {"GEMM": "gemm_clblast", "convolution": "convolution_bp21", "pnpoly": "pnpoly_host"}
# The same kernel on the same GPU as a development space: not blind.
PAPER_SKIP = {"GEMM_TITAN_RTX", "convolution_TITAN_RTX"}

KTP18 = [
    ("4bf533fff72f7346dde67667d1aafa322af40ff8", "convolution/convolution_brute_force.json",
     "convolution_ktp18", "GTX_TitanX_Maxwell"),
    ("4bf533fff72f7346dde67667d1aafa322af40ff8",
     "convolution_streams/convolution_streams_brute_force.json", "convolution_streams",
     "GTX_TitanX_Maxwell"),
    ("4bf533fff72f7346dde67667d1aafa322af40ff8", "gemm/gemm_brute_force.json",
     "gemm_clblast2048", "GTX_TitanX_Maxwell"),
    ("4bf533fff72f7346dde67667d1aafa322af40ff8", "pnpoly/pnpoly_brute_force.json",
     "pnpoly_ktp18", "GTX_TitanX_Maxwell"),
    ("4bf533fff72f7346dde67667d1aafa322af40ff8", "gemm_amd/gemm_amd_brute_force.json",
     "gemm_clblast2048", "AMD_Vega"),
    ("3e70e859151b28cf2b9d29df100810d8c0b47ec8", "gemm_amd/gemm_amd_brute_force.json",
     "gemm_clblast2048", "AMD_RX480"),
]
# Keys of a results list's dicts that are measurements, not tuning parameters.
NOT_PARAMS = {"time", "times", "compile_time", "verification_time", "benchmark_time",
              "strategy_time", "framework_time", "timestamp", "num_regs", "registers"}


def git(git_dir, *args):
    r = subprocess.run(["git", "--git-dir", git_dir, *args], capture_output=True)
    if r.returncode != 0:
        sys.exit(f"benchmarking-spaces: git {' '.join(args)} in {git_dir}: "
                 f"{r.stderr.decode().strip()}")
    return r.stdout


def number(text):
    v = float(text)
    return int(v) if v == int(v) else v


def write(out_dir, name, doc):
    path = Path(out_dir) / f"{name}.json.gz"
    with gzip.GzipFile(path, "wb", mtime=0) as f:
        f.write(json.dumps(doc).encode())
    print(f"{path}: {len(doc['cache'])} configurations")


def paper(git_dir, out_dir):
    names = git(git_dir, "ls-tree", "-r", "--name-only", PAPER_COMMIT, PAPER_DIR).decode().split()
    groups = {}
    for p in names:
        stem, _, k = Path(p).stem.rpartition("_run")
        if k.isdigit():
            groups.setdefault(stem.replace("_processed", ""), {})[int(k)] = p
    for space, runs in sorted(groups.items()):
        if space.startswith("MI50_"):
            kernel, gpu = space.split("_")[1], "MI50"
        else:
            kernel, gpu = space.split("_", 1)
        if kernel not in PAPER_KERNELS or space in PAPER_SKIP or "15x15" in space:
            continue
        docs = [json.loads(git(git_dir, "show", f"{PAPER_COMMIT}:{runs[k]}")) for k in sorted(runs)]
        head = docs[0]
        keys = head["tune_params_keys"]
        cache = {}
        for key in head["cache"]:
            times = [d["cache"][key]["time"] for d in docs if key in d["cache"]]
            entry = dict(zip(keys, (number(v) for v in key.split(","))))
            entry["time"] = statistics.mean(times)
            entry["times"] = times
            cache[key] = entry
        doc = {k: head[k] for k in ("device_name", "kernel_name", "tune_params_keys", "tune_params")}
        doc["provenance"] = (f"{len(docs)} files {PAPER_DIR}{space}*_run*.json of "
                             f"schoonhovenrichard/GPU_benchmarking_paper@{PAPER_COMMIT[:7]}: "
                             "time = mean of the runs' times")
        doc["cache"] = cache
        write(out_dir, f"{PAPER_KERNELS[kernel]}__{gpu}", doc)


def list_cache(results, kernel, gpu, provenance):
    """A Kernel Tuner cache of a `tune_kernel` results list (or `[results, environment]`):
    `tune_params` are each parameter's distinct values, sorted."""
    if len(results) == 2 and isinstance(results[1], dict):
        results = results[0]  # [results, environment]
    keys = [k for k in results[0] if k not in NOT_PARAMS]
    entries = [{**{k: r[k] for k in keys}, "time": r["time"]} for r in results]
    return params_cache(keys, entries, kernel, gpu, provenance)


def ktp18(git_dir, out_dir):
    for commit, path, kernel, gpu in KTP18:
        one_list(git_dir, commit, path, kernel, gpu, out_dir, "benvanwerkhoven/kernel_tuner_paper")


def one_list(git_dir, commit, path, kernel, gpu, out_dir, source=None):
    """The results list at `commit:path` of a clone as OUT_DIR/KERNEL__GPU.json.gz; its
    provenance names `source` (the clone's directory when not given)."""
    results = json.loads(git(git_dir, "show", f"{commit}:{path}"))
    provenance = f"{source or git_dir}@{commit[:7]}:{path}"
    write(out_dir, f"{kernel}__{gpu}", list_cache(results, kernel, gpu, provenance))


def one_cache(git_dir, commit, path, name, out_dir):
    """The Kernel Tuner cache at `commit:path` of a clone, byte for byte, gzipped as
    OUT_DIR/NAME.json.gz."""
    data = git(git_dir, "show", f"{commit}:{path}")
    entries = len(json.loads(data)["cache"])
    out = Path(out_dir) / f"{name}.json.gz"
    with gzip.GzipFile(out, "wb", mtime=0) as f:
        f.write(data)
    print(f"{out}: {entries} configurations")


def one_cache_by_time(git_dir, commit, path, name, out_dir):
    """A Kernel Tuner cache tuned on another objective (such as energy, `TFLOPS/J`) at
    `commit:path` of a clone, as OUT_DIR/NAME.json.gz searched on time: `objective` becomes
    `time`, and an entry without a number for `time` (a configuration that failed: Kernel
    Tuner then writes its error string under the objective's key only) gets that string,
    or "RuntimeFailedConfig", as its `time`. Every other field is kept."""
    doc = json.loads(git(git_dir, "show", f"{commit}:{path}"))
    objective = doc.get("objective", "time")
    failed = 0
    for entry in doc["cache"].values():
        if not isinstance(entry.get("time"), (int, float)):
            error = entry.get(objective)
            entry["time"] = error if isinstance(error, str) else "RuntimeFailedConfig"
            failed += 1
    doc["objective"] = "time"
    doc["provenance"] = (f"{git_dir}@{commit[:7]}:{path}: searched on time (tuned on "
                         f"{objective}); {failed} failed entries given their error as time")
    # The cache last, as Kernel Tuner writes it: its reader takes a file that does not end
    # in "}}}" (or "}\n}") for one still open and closes it.
    doc["cache"] = doc.pop("cache")
    write(out_dir, name, doc)


def uci_sgemm(git_dir, commit, path, out_dir):
    """The UCI "SGEMM GPU kernel performance" data set (a zip holding sgemm_product.csv: 14
    parameter columns, then four runs' times in ms) as a cache: `time` the runs' mean, `times`
    the four; `tune_params` each parameter's distinct values, sorted. It lists the feasible
    configurations only (its Readme.txt), so the space is the listed ones."""
    import csv
    import io
    import zipfile
    data = zipfile.ZipFile(io.BytesIO(git(git_dir, "show", f"{commit}:{path}")))
    rows = csv.reader(io.TextIOWrapper(data.open("sgemm_product.csv"), encoding="ascii"))
    header = next(rows)
    keys = [h for h in header if not h.startswith("Run")]
    cache = {}
    for line, row in enumerate(rows, start=2):
        if len(row) != len(header):
            sys.exit(f"benchmarking-spaces: {path}: sgemm_product.csv line {line}: "
                     f"{len(row)} fields, the header has {len(header)}")
        values = [int(v) for v in row[:len(keys)]]
        times = [float(v) for v in row[len(keys):]]
        key = ",".join(map(str, values))
        cache[key] = {**dict(zip(keys, values)), "time": statistics.mean(times), "times": times}
    params = {k: sorted({e[k] for e in cache.values()}) for k in keys}
    doc = {
        "device_name": "GeForce GTX 680",
        "kernel_name": "gemm_fast",
        "tune_params_keys": keys,
        "tune_params": params,
        "provenance": (f"{git_dir}@{commit[:7]}:{path} (UCI SGEMM GPU kernel performance, "
                       "Ballester-Ripoll and Paredes 2017, CC BY 4.0): time = mean of Run1-Run4"),
        "cache": cache,
    }
    write(out_dir, "gemm_cltune__GTX_680", doc)


def params_cache(keys, entries, kernel, gpu, provenance):
    """A Kernel Tuner cache of `entries` (dicts of the `keys` and a `time`), in their order;
    `tune_params` each parameter's distinct values, sorted."""
    cache = {",".join(str(e[k]) for k in keys): e for e in entries}
    return {
        "device_name": gpu,
        "kernel_name": kernel,
        "tune_params_keys": keys,
        "tune_params": {k: sorted({e[k] for e in entries}) for k in keys},
        "provenance": provenance,
        "cache": cache,
    }


def one_ktt(git_dir, commit, path, name, out_dir):
    """A KTT output at `commit:path` of a clone as OUT_DIR/NAME.json.gz (see the module's note)."""
    raw = git(git_dir, "show", f"{commit}:{path}")
    # benchmark_hub keeps its KTT outputs gzipped (`currently_unused/cachefiles/KTT data/`).
    doc = json.loads(gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw)
    cache = ktt_to_cache(doc, path)
    repeats = len(doc["Results"]) - len(cache["cache"])
    version = doc.get("Metadata", {}).get("KttVersion", "?")
    # The cache last, as Kernel Tuner writes it (see one_cache_by_time).
    cache["provenance"] = (f"{git_dir}@{commit[:7]}:{path} (KTT {version} output; "
                           f"{repeats} repeated results joined by their mean time)")
    cache["cache"] = cache.pop("cache")
    write(out_dir, name, cache)


def one_clblast(git_dir, commit, path, name, out_dir):
    """CLBlast tuner output at `commit:path` of a clone as OUT_DIR/NAME.json.gz."""
    doc = json.loads(git(git_dir, "show", f"{commit}:{path}"))
    results = doc["results"]
    keys = list(results[0]["parameters"])
    if len({r.get("kernel") for r in results}) > 1:
        sys.exit(f"benchmarking-spaces: {path}: results of several kernels")
    entries = [{**{k: r["parameters"][k] for k in keys}, "time": r["time"]} for r in results]
    args = " ".join(f"{k[4:]}={v}" for k, v in doc.items() if k.startswith("arg_"))
    provenance = (f"{git_dir}@{commit[:7]}:{path} (CLBlast tuner output, "
                  f"{doc.get('kernel_family')} precision {doc.get('precision')}, {args}; "
                  "configurations that ran only)")
    write(out_dir, name, params_cache(keys, entries, doc.get("kernel_family", name),
                                      doc.get("device", ""), provenance))


if __name__ == "__main__":
    if len(sys.argv) == 7 and sys.argv[1] in ("ktt", "clblast"):
        Path(sys.argv[6]).mkdir(parents=True, exist_ok=True)
        {"ktt": one_ktt, "clblast": one_clblast}[sys.argv[1]](*sys.argv[2:7])
        sys.exit(0)
    if len(sys.argv) == 8 and sys.argv[1] == "list":
        Path(sys.argv[7]).mkdir(parents=True, exist_ok=True)
        one_list(*sys.argv[2:8])
        sys.exit(0)
    if len(sys.argv) == 7 and sys.argv[1] == "cache":
        Path(sys.argv[6]).mkdir(parents=True, exist_ok=True)
        one_cache(*sys.argv[2:7])
        sys.exit(0)
    if len(sys.argv) == 7 and sys.argv[1] == "cache-time":
        Path(sys.argv[6]).mkdir(parents=True, exist_ok=True)
        one_cache_by_time(*sys.argv[2:7])
        sys.exit(0)
    if len(sys.argv) == 6 and sys.argv[1] == "uci-sgemm":
        Path(sys.argv[5]).mkdir(parents=True, exist_ok=True)
        uci_sgemm(*sys.argv[2:6])
        sys.exit(0)
    if len(sys.argv) != 4 or sys.argv[1] not in ("paper", "ktp18"):
        sys.exit(__doc__)
    Path(sys.argv[3]).mkdir(parents=True, exist_ok=True)
    {"paper": paper, "ktp18": ktp18}[sys.argv[1]](sys.argv[2], sys.argv[3])
