#!/usr/bin/env bash
# The H100 visit (shared/GPU.md), as a few commands that each end in under 9 minutes and pack
# their results as one .tar.gz under $OUT. Run from the repository root on the GPU machine:
#
#   bash scripts/gpu/campaign.sh setup            # versions, build 128, verify all, probe ncu
#   bash scripts/gpu/campaign.sh collect nb 1/2   # verify + time (3 runs) + profile, NB half 1
#   bash scripts/gpu/campaign.sh collect nb 2/2
#   bash scripts/gpu/campaign.sh collect bh 1/2
#   bash scripts/gpu/campaign.sh collect bh 2/2
#
# A visit of 15 minutes of device time (machine start included) has room for two commands:
#
#   bash scripts/gpu/campaign.sh quick nb         # env, build NB, then NB on one input
#   bash scripts/gpu/campaign.sh quick bh         # build BH, then BH on one input
#
# each under QUICK_LIMIT seconds (default 300, the build included), with QUICK_NB / QUICK_BH
# inputs (default 100000:2 and 250000:2, of the thesis's Table 4.2), QUICK_RUNS runs (default 2)
# of which QUICK_PROFILE_RUNS are profiled (default 1; the thesis's experiments 1 and 2 need 2,
# experiment 3 needs 3): all 64 variants of one program, verified, timed and profiled, before
# the full campaign. QUICK_VARIANTS=A,B,... runs only those bit strings (to finish a campaign a
# lost machine cut short: `advise merge` joins the two folders on the CPU machine afterwards).
# METRICS=FILE profiles another ncu metric list than variants/metrics.txt
# (e.g. without the eight smsp__sass_thread_inst_executed_op_<class>_pred_on counters, which make
# BH's force kernel 2.6 times slower to profile on an H200).
#
# Before the visit, on the CPU machine: build the release binary and carry it compressed as
# build/advise.gz (scripts/gpu/advise-binary.sh has the commands; or pass ADVISE=/path). The
# machine has CUDA 13 (nvcc, ncu) but no cargo and no network.
#
# Each `collect` stops itself after LIMIT seconds (default 510) and packs what it has; calling
# it again on the same (still warm) machine resumes where it stopped. If the machine was lost,
# the packed shards are still complete up to their last finished job.
#
# Time budget (30 min of device time; estimates for an H100, to be replaced by measurements):
#   machine start                          ~2-3 min
#   setup: build 128 on 16 cores            ~1 min (about 3 s per nvcc, 16 in parallel)
#          verify 128 variants, 20k bodies  ~1.5 min (process start-up dominates)
#          ncu probe (passes, metrics)      ~0.5 min
#   collect nb: per variant, timing 3 runs x REPS (+1 warm-up) of all 4 inputs
#          (2.75e11 interactions per pass, ~1 s per pass) and one profiled step per input
#          (6.25e10 interactions x ~15-20 replay passes, plus ncu start-up)  ~10 s -> 64: ~10 min
#   collect bh: per variant, timing ~2-3 s, profiling 6 inputs x 7 kernels x ~20 passes
#          ~8 s -> 64: ~11 min
#   total ~26 min: REPS=1 by default; raise it only if the probe says there is time left.
set -euo pipefail

export PATH="$PATH:/usr/local/cuda/bin"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
. scripts/gpu/advise-binary.sh
OUT="${OUT:-$ROOT/gpu-out}"
CAMPAIGN="${CAMPAIGN:-h100-$(date -u +%Y%m%d)}"
# On the GPU machine under build/ (ignored by git): the device tool copies the working tree anew
# for every call and removes untracked folders it does not know, but keeps ignored ones, so a
# campaign there survives until the next call on the same warm machine and `--resume` works.
WORK="${WORK:-$ROOT/build/gpu-work/$CAMPAIGN}"
BIN="${BIN:-$ROOT/build/variants}"
ARCH="${ARCH:-sm_90}"
REPS="${REPS:-1}"
RUNS="${RUNS:-3}"
LIMIT="${LIMIT:-510}"
mkdir -p "$OUT" "$WORK"

TOP="$(dirname "$WORK")"
pack() {  # pack NAME PATH...: one .tar.gz under $OUT with the paths (under TOP) that exist
    local name="$1" p; shift
    local have=()
    for p in "$@"; do [ -e "$TOP/$p" ] && have+=("$p"); done
    tar -czf "$OUT/$name.tar.gz" -C "$TOP" "${have[@]}"
    echo "packed $OUT/$name.tar.gz ($(du -h "$OUT/$name.tar.gz" | cut -f1))"
}

# Paths in the packs start with the campaign's name: unpack on the CPU machine, then move each
# folder to datasets/<name>/ and write its PROVENANCE.md (shared/GPU.md, "After").
rel() { realpath -m --relative-to="$TOP" "$1"; }

case "${1:-}" in
setup)
    t0=$(date +%s)
    bash "$ROOT/scripts/gpu/environment.sh" "$ADVISE" --clocks > "$WORK/env.txt" 2>&1
    "$ADVISE" build --program all --arch "$ARCH" --jobs "$(nproc)" --out "$BIN" --json \
        > "$WORK/build.json" || echo "some variants did not compile: see build.json" >&2
    echo "build: $(( $(date +%s) - t0 )) s"
    # Every variant against the baseline on a small input, no profiler: a wrong variant shows
    # up here, before any timing minutes are spent.
    for p in nb bh; do
        rm -rf "$WORK/verify-$p"
        "$ADVISE" collect --program "$p" --inputs 20000:1 --runs 1 --reps 1 --warmup 0 \
            --no-profile --bin-dir "$BIN" --out "$WORK/verify-$p" --timeout 120 \
            > "$WORK/verify-$p.txt" 2>&1 || echo "verify $p: see verify-$p.txt" >&2
        tail -n 3 "$WORK/verify-$p.txt"
    done
    echo "verify: $(( $(date +%s) - t0 )) s"
    # Replay passes and metrics this ncu lacks, on the baseline of each program.
    for p in nb bh; do
        rm -rf "$WORK/probe-$p"
        "$ADVISE" collect --program "$p" --inputs 20000:1 --runs 1 --reps 1 --variants 000000 \
            --bin-dir "$BIN" --out "$WORK/probe-$p" --json > "$WORK/probe-$p.json" 2>&1 || true
        grep -E '"(max_passes|missing_metrics|seconds)"' -A3 "$WORK/probe-$p.json" | head -20 || true
    done
    echo "setup: $(( $(date +%s) - t0 )) s"
    pack "$CAMPAIGN-setup" "$(rel "$WORK")"
    ;;
quick)
    prog="${2:?quick nb|bh}"
    case "$prog" in
    nb) inputs="${QUICK_NB:-100000:2}" ;;
    bh) inputs="${QUICK_BH:-250000:2}" ;;
    *) echo "quick nb|bh" >&2; exit 2 ;;
    esac
    t0=$(date +%s)
    deadline=$(( t0 + ${QUICK_LIMIT:-300} ))
    if [ ! -f "$WORK/env.txt" ]; then
        bash "$ROOT/scripts/gpu/environment.sh" "$ADVISE" > "$WORK/env.txt" 2>&1
    fi
    "$ADVISE" build --program "$prog" --arch "$ARCH" --jobs "$(nproc)" --out "$BIN" --json \
        > "$WORK/build-$prog.json" || echo "some variants did not compile: see build-$prog.json" >&2
    echo "build $prog: $(( $(date +%s) - t0 )) s"
    left=$(( deadline - $(date +%s) ))
    [ "$left" -gt 30 ] || { echo "no time left after the build" >&2; left=30; }
    set +e
    timeout --signal=TERM "$left" "$ADVISE" collect --program "$prog" --inputs "$inputs" \
        --runs "${QUICK_RUNS:-2}" --profile-runs "${QUICK_PROFILE_RUNS:-1}" --reps "$REPS" \
        ${METRICS:+--metrics "$METRICS"} ${QUICK_VARIANTS:+--variants "$QUICK_VARIANTS"} \
        --resume --bin-dir "$BIN" --out "$WORK/quick-$prog" \
        2>> "$WORK/quick-$prog.log"   # appended: a resumed campaign keeps every call's log
    rc=$?
    set -e
    tail -n 5 "$WORK/quick-$prog.log"
    [ $rc = 124 ] && echo "stopped at the deadline: call the same command again to resume"
    echo "quick $prog: rc $rc, $(( $(date +%s) - t0 )) s"
    pack "$CAMPAIGN-quick-$prog" "$(rel "$WORK/quick-$prog")" "$(rel "$WORK/env.txt")" \
        "$(rel "$WORK/build-$prog.json")" "$(rel "$WORK/quick-$prog.log")"
    ;;
collect)
    prog="${2:?collect nb|bh K/N}"
    shard="${3:-1/1}"
    t0=$(date +%s)
    set +e
    timeout --signal=TERM "$LIMIT" "$ADVISE" collect --program "$prog" --inputs thesis \
        --runs "$RUNS" --reps "$REPS" --shard "$shard" --resume --bin-dir "$BIN" \
        --out "$WORK/$prog" 2> "$WORK/$prog-${shard/\//-of-}.log"
    rc=$?
    set -e
    tail -n 5 "$WORK/$prog-${shard/\//-of-}.log"
    [ $rc = 124 ] && echo "stopped after $LIMIT s: call the same command again to resume"
    echo "collect $prog $shard: rc $rc, $(( $(date +%s) - t0 )) s"
    k="${shard%/*}"; n="${shard#*/}"
    dir="$WORK/$prog"; [ "$n" != 1 ] && dir="$WORK/$prog/shard-$k-of-$n"
    pack "$CAMPAIGN-$prog-shard-$k-of-$n" "$(rel "$dir")" "$(rel "$WORK/env.txt")" \
        "$(rel "$WORK/$prog-${shard/\//-of-}.log")"
    ;;
*)
    sed -n '2,20p' "$0"
    exit 2
    ;;
esac
