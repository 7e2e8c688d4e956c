#!/usr/bin/env bash
# A device visit of 15 minutes (machine start included) as two calls made back to back, so the
# machine stays warm between them. Run from the repository root on the GPU machine:
#
#   bash scripts/gpu/visit.sh probe   # ~2 min: versions, build all 128 variants, and variants
#                                     # 000000 and 111111 of each program on 20000 bodies
#                                     # (checks, timings, ncu passes, metrics this ncu lacks)
#   VISIT_LIMIT=500 bash scripts/gpu/visit.sh main
#                                     # verify-advice.sh (at most VERIFY_LIMIT s, default 240;
#                                     # 0 skips it), then `campaign.sh quick P` for each P of
#                                     # VISIT_PROGRAMS (default "nb bh"), which split what is
#                                     # left of VISIT_LIMIT seconds (QUICK_* settings pass on)
#
# The probe says, before the main call, whether the variants compile and agree under this
# CUDA, how long one variant takes, and whether ncu knows every metric of variants/metrics.txt.
# Every stage packs its own .tar.gz under $OUT as it ends, so a call cut short still returns
# the stages before. The campaign is named after the GPU (h100-DATE or h200-DATE).
# After it, on the CPU machine: `bash scripts/gpu/unpack.sh /work/.device/N/*.tar.gz`.
# Before the visit: build the binary and carry it compressed, build/advise.gz
# (scripts/gpu/advise-binary.sh has the commands). The working tree and it must stay under the
# device tool's 64 MiB (`git ls-files -z | du -c --apparent-size --files0-from=-`: 52 MiB plus
# 4 MiB on 2026-11-26, 61.8 MiB plus 3.8 MiB on 2026-11-27: over): visit from the slim branch
# `bash scripts/gpu/slim-branch.sh` makes (7.8 MiB with the binary), then `--back`.
#
# Measured on the first visit (NVIDIA H200, CUDA 13.0, 2026-11-26; datasets/h200-*): machine
# start plus probe 74 s of device time; probe 43 s (build of 128: 29 s); verify-advice 37 s;
# NB, 64 variants at 50000:2, 197 s; BH at 100000:2, about 5 s per variant (63 in 311 s). A
# further call on the still-warm machine resumes a stopped campaign: it lives under build/.
set -uo pipefail

export PATH="$PATH:/usr/local/cuda/bin"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
t0=$(date +%s)
. scripts/gpu/advise-binary.sh
export ADVISE
export OUT="${OUT:-$ROOT/gpu-out}"
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)
case "$gpu" in
*H200*) kind=h200 ;;
*H100*) kind=h100 ;;
*) kind=gpu ;;
esac
export CAMPAIGN="${CAMPAIGN:-$kind-$(date -u +%Y%m%d)}"
WORK="$ROOT/build/gpu-work/$CAMPAIGN"   # ignored by git: see campaign.sh
BIN="$ROOT/build/variants"
mkdir -p "$OUT" "$WORK"
echo "visit: $gpu, campaign $CAMPAIGN"

case "${1:-}" in
probe)
    bash scripts/gpu/environment.sh "$ADVISE" --clocks > "$WORK/env.txt" 2>&1
    "$ADVISE" -q build --program all --arch sm_90 --jobs "$(nproc)" --out-dir "$BIN" --json \
        > "$WORK/build.json" 2> "$WORK/build.log"
    echo "build all: rc $?, $(( $(date +%s) - t0 )) s, $(grep -c '"ok": true' "$WORK/build.json") ok"
    for p in nb bh; do
        t1=$(date +%s)
        rm -rf "$WORK/probe-$p"
        timeout 100 "$ADVISE" collect --program "$p" --inputs 20000:1 --runs 1 --reps 1 \
            --variants 000000,111111 --bin-dir "$BIN" --out-dir "$WORK/probe-$p" --timeout 90 \
            --json > "$WORK/probe-$p.json" 2> "$WORK/probe-$p.log"
        echo "probe $p: rc $?, $(( $(date +%s) - t1 )) s"
        tail -n 4 "$WORK/probe-$p.log"
        grep -E '"(max_passes|missing_metrics|seconds|failed)"' -A2 "$WORK/probe-$p.json" | head -20
        cat "$WORK/probe-$p/timings.csv" 2>/dev/null | head -8
    done
    tar -czf "$OUT/$CAMPAIGN-probe.tar.gz" -C "$ROOT/build/gpu-work" "$CAMPAIGN"
    echo "probe: $(( $(date +%s) - t0 )) s"
    ;;
main)
    limit="${VISIT_LIMIT:-500}"
    deadline=$(( t0 + limit ))
    if [ "${VERIFY_LIMIT:-240}" -gt 0 ]; then
        timeout "${VERIFY_LIMIT:-240}" bash scripts/gpu/verify-advice.sh 2>&1 | tail -n 12
        # Cut short before its own packing: pack what it has.
        [ -f "$OUT/verify-$(date -u +%Y%m%d).tar.gz" ] || bash scripts/gpu/verify-advice.sh --pack
        echo "verify: $(( $(date +%s) - t0 )) s"
    fi
    # The programs share what is left: the first NB_SHARE percent to the first of two.
    set -- ${VISIT_PROGRAMS:-nb bh}
    while [ $# -gt 0 ]; do
        left=$(( deadline - $(date +%s) - 15 ))
        [ $# -gt 1 ] && left=$(( left * ${NB_SHARE:-50} / 100 ))
        QUICK_LIMIT=$left bash scripts/gpu/campaign.sh quick "$1"
        shift
    done
    echo "main: $(( $(date +%s) - t0 )) s"
    ;;
*)
    sed -n '2,18p' "$0"
    exit 2
    ;;
esac
