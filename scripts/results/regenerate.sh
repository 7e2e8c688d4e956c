#!/usr/bin/env bash
# Regenerates every figure README.md and docs/ quote into docs/results/*.json, and the example
# reports under reports/, from the data in the repository (and the public tuning spaces in
# ../shared/data when present). tests/it/results.rs re-runs the fast part (fast-*.json,
# statuner.json) and fails when a figure changed without this script being run.
#
# Usage: scripts/results/regenerate.sh [--fast]   (--fast: only what the test re-runs)
# Env: ADVISE (default target/release/advise, built when missing); SKIP_SEARCH_BENCH=1 keeps
# docs/results/search-bench.json (23 minutes; it reads only the public tuning spaces, so new
# campaigns in datasets/ do not change it).
set -euo pipefail
cd "$(dirname "$0")/../.."
A=${ADVISE:-target/release/advise}
if [ ! -x "$A" ]; then cargo build --release; fi
R=docs/results
F="python3 scripts/results/figures.py"
mkdir -p "$R"
step() { echo "regenerate: $*" >&2; }

# The fast subset (tests/it/results.rs runs the same commands).
step "fast experiment"
"$A" -q experiment --dataset datasets/ktt-pnpoly-rtx2080ti --exp kfold --folds 5 \
    --method ibk,m5p --json --summary | $F experiment > "$R/fast-experiment.json"
step "fast search"
"$A" -q search-bench --space tests/fixtures/spaces/pnpoly__RTX_2080_Ti.json.gz \
    --strategies random,ga,brt --budgets 2% --repeats 20 --seed 0 --no-charts --threads 1 \
    --json | $F search > "$R/fast-search.json"
step "statuner"
"$A" -q statuner --json | $F statuner > "$R/statuner.json"
[ "${1:-}" = "--fast" ] && exit 0

step "default advisor"
# Every campaign with counters (h200-bh-20261126-2 and -3 are 52 and 58 of 64 variants, the
# H200's second and third BH campaigns, with two and three profiled runs, h200-bh-20261127 the
# third's last six; h200-nb-20261127 and h200-bh-20261127-2 are second inputs, 30000 and 50000
# bodies, h200-nb-20261130 and h200-bh-20261130 third ones, 100000 and 250000 bodies, the latter
# the 32 variants without VOTE; their variants share fold groups with the first's). Left out:
# datasets/h100-bh-20261126, 22 of the 64 BH variants (the first in bit order): two of its 6
# WARP samples (speedups 0.91 and 0.81) become IBk's nearest neighbour for 44 WARP predictions
# of simulated BH samples, all of them wrong (grouped 10-fold, portable view, sim-qv100-bh +
# h200-bh: WARP 78.4% without it, 43.6% with it; docs/gpu-results.md). It joins once BH is
# complete on the H100.
"$A" -q train --dataset datasets/ktt-convolution-rtx2080ti --dataset datasets/ktt-pnpoly-rtx2080ti \
    --dataset datasets/ktt-coulomb-rtx2080ti --dataset datasets/kt-dedispersion-a100 \
    --dataset datasets/sim-qv100-nb --dataset datasets/sim-qv100-bh \
    --dataset datasets/h200-nb-20261126 --dataset datasets/h200-bh-20261126 \
    --dataset datasets/h200-bh-20261126-2 --dataset datasets/h200-bh-20261126-3 \
    --dataset datasets/h200-bh-20261127 --dataset datasets/h200-nb-20261127 \
    --dataset datasets/h200-bh-20261127-2 --dataset datasets/h100-nb-20261126 \
    --dataset datasets/h200-nb-20261130 --dataset datasets/h200-bh-20261130 \
    --dataset datasets/xplacer-bfs-v100-lassen --dataset datasets/xplacer-cfd-v100-lassen \
    --dataset datasets/xplacer-gaussian-v100-lassen --dataset datasets/xplacer-hotspot-v100-lassen \
    --dataset datasets/xplacer-bfs-v100 --dataset datasets/xplacer-cfd-v100 \
    --dataset datasets/xplacer-gaussian-v100 --dataset datasets/xplacer-hotspot-v100 \
    -o models/default.advisor.json.gz > "$R/train.txt"
# The rules across programs, one held-out program at a time (train.txt pools them).
python3 scripts/results/rule-by-program.py models/default.advisor.json.gz > "$R/rule-by-program.txt"
python3 scripts/results/rule-agreement.py models/default.advisor.json.gz > "$R/rule-agreement.txt"
step "demo"
"$A" -q demo --json --summary | $F experiment > "$R/demo.json"
step "transfer"
"$A" -q bench transfer --json > "$R/transfer.json"
# Step features across programs on times-only Kernel Tuner spaces (docs/families.md): the
# RTX 3090 convolution and pnpoly caches of ../shared/data and benchmark_hub's dedispersion A100
# cache (AutoTuningAssociation/benchmark_hub at 8eeb99e, path in $BENCHMARK_HUB_DEDISPERSION).
DD=${BENCHMARK_HUB_DEDISPERSION:-}
if [ -d ../shared/data/kerneltuner-caches-rtx ] && [ -f "$DD" ]; then
    step "step features on Kernel Tuner spaces"
    T=$(mktemp -d)
    for f in ../shared/data/kerneltuner-caches-rtx/convolution__RTX_3090.json.gz \
        ../shared/data/kerneltuner-caches-rtx/pnpoly__RTX_3090.json.gz "$DD"; do
        "$A" -q import kernel-tuner "$f" --out-dir "$T/$(basename "$f" .json.gz)" > /dev/null
    done
    AA=$(realpath "$A")
    (cd "$T" && "$AA" -q experiment --exp lopo --step only --method m5p,gbrt,forest,linear,ibk \
        --dataset convolution__RTX_3090 --dataset pnpoly__RTX_3090 \
        --dataset "$(basename "$DD" .json.gz)") > "$R/step-transfer-kernel-tuner.txt"
    rm -rf "$T"
fi
if [ -d ../shared/data/kerneltuner-caches-rtx ] && [ -z "${SKIP_SEARCH_BENCH:-}" ]; then
    step "search-bench on the public spaces (23 minutes on 2 cores; bayes_opt is the slowest strategy, 59 ms per search at 2% on convolution)"
    "$A" -q search-bench --space ../shared/data/kerneltuner-caches-rtx/*.json.gz \
        ../shared/data/ktt-counters-rtx2080ti/*.json.gz --strategies all --budgets 1%,2%,5% \
        --repeats 100 --seed 0 --no-charts --json | $F search > "$R/search-bench.json"
fi
step "bench models (timings vary from run to run; not compared by the test)"
"$A" -q bench models --json > "$R/bench-models.json" || true

step "example reports"
rm -rf reports/thesis-experiments reports/thesis-experiments-h200 reports/suggestions
"$A" -q experiment --dataset datasets/sim-qv100-nb --dataset datasets/sim-qv100-bh --exp all \
    --program NB --method ibk,m5p --out-dir reports/thesis-experiments > reports/thesis-experiments.txt
# The experiments the measured H200 campaign allows (one input, one profiled run: 5 and 6).
"$A" -q experiment --dataset datasets/h200-nb-20261126 --dataset datasets/h200-bh-20261126 \
    --exp 5,6 --method ibk,m5p --out-dir reports/thesis-experiments-h200 \
    > reports/thesis-experiments-h200.txt
# The experiments NB's profiled replicates on the H100 allow (one input, three profiled runs);
# the text only: the report folder's charts would be 5 MB, and the tree the GPU visits carry
# must stay under 64 MiB.
"$A" -q experiment --dataset datasets/h100-nb-20261126 --exp 1,2,3 --method ibk,m5p \
    > reports/thesis-experiments-h100.txt
# The same for BH's three profiled runs on the H200 (text only): the third campaign, whose last
# six variants came on the next visit.
"$A" -q experiment --dataset datasets/h200-bh-20261126-3 --dataset datasets/h200-bh-20261127 \
    --exp 1,2,3 --method ibk,m5p > reports/thesis-experiments-h200-bh.txt
# Experiment 4 (train on one input, test on each other) and leave one input out (train on the
# other two) on the H200's three inputs of each program (text only; BH's third, 250000 bodies,
# has the 32 variants without VOTE).
{
    "$A" -q experiment --dataset datasets/h200-nb-20261126 --dataset datasets/h200-nb-20261127 \
        --dataset datasets/h200-nb-20261130 --exp 4,loio --program NB --method ibk,m5p
    "$A" -q experiment --dataset datasets/h200-bh-20261126 --dataset datasets/h200-bh-20261127-2 \
        --dataset datasets/h200-bh-20261130 --exp 4,loio --program BH --method ibk,m5p
} > reports/thesis-experiments-h200-inputs.txt
# A suggestion report for a real profile: the GPGPU-Sim log of NB's baseline (simulated).
mkdir -p reports/suggestions
"$A" -q suggest --profile tests/fixtures/gpgpusim/gpgpusim_SM7_QV100x2_NB_000000_512.log.gz \
    --report-dir reports/suggestions > reports/suggestions/terminal.txt
# The same for a profile measured on a GPU, of a program the advisor has never seen: a matrix
# multiply on the H200 (datasets/verify-20261126), with its source as verify-advice.sh gives it
# (optimizations with nothing to apply to in the source, such as SORT and WARP, are left out).
rm -rf reports/suggestions-matmul-h200 && mkdir -p reports/suggestions-matmul-h200
"$A" -q suggest --profile datasets/verify-20261126/profiles/matMul-Gm/ncu.csv \
    --source variants/verify/matmul/matMul-Gm.cu \
    --report-dir reports/suggestions-matmul-h200 > reports/suggestions-matmul-h200/terminal.txt
step "advice against reality, today's advisor on the measured profiles of datasets/verify-*"
for v in datasets/verify-*/; do
    python3 scripts/gpu/verify-summary.py "$v" --current "$A" \
        "$R/$(basename "$v")-current.md" > /dev/null
done
step "README figures"
python3 scripts/results/readme.py README.md "$R"
# README's hand-written sentences that quote train.txt and transfer.json are checked by
# `cargo test readme_figures` (tests/it/readme_figures.rs): run it, and bring any it names.
step "done"
