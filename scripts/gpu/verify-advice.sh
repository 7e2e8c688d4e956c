#!/usr/bin/env bash
# The first check of advice against reality, as one command for a GPU visit: profile programs
# advise has never seen with `advise profile`, and time them and the versions that apply what
# it suggests, so that each suggestion's predicted direction can be compared with a measured
# one. The programs (PROVENANCE.md in each folder):
# - variants/verify/matmul, public (BSPGPU): matrix multiply in global or shared memory,
#   coalesced or not, each built with tiles of 8, 16 and 32; the two global-memory programs
#   also with blocks of 32 x 16 and 16 x 32 threads (tiles 32x16, 16x32: 512 threads, the one
#   doubling from the profiled 256 that advise's block-size step predicts);
# - variants/verify/transpose, written for advise: matrix transpose through global memory, a
#   shared-memory tile, and a padded tile, each with blocks of 32 x 4, 32 x 8 (profiled) and
#   32 x 16 threads (configurations r4, r8, r16: 8, 4 and 2 elements per thread);
# - variants/verify/reduce, written for advise: a sum in shared memory with interleaved
#   (divergent) or sequential addressing, and the latter with its loop unrolled, each with
#   blocks of 256 threads (profiled), 512 and 128, and 256 threads adding 2 inputs each
#   (configurations b256e1, b512e1, b128e1, b256e2);
# - unified memory (variants/verify/advise_um.h): transpose-Sm at r8 and reduce-Seq at b256e1
#   with their input under each of XPlacer's six data-placement policies (managed, read-mostly,
#   preferred or accessed by the GPU or the CPU; configurations r8u1-r8u6, b256e1u1-b256e1u6,
#   the host's refill before each launch untimed), and the same with the refill timed, device
#   memory's explicit copy included (r8t0-r8t6, b256e1t0-b256e1t6): the versions that check
#   advise's UM_* suggestions, which predict slowdowns too.
#
#   bash scripts/gpu/verify-advice.sh          # on the GPU machine, from the repository root
#   bash scripts/gpu/verify-advice.sh --build-only DIR   # compile check only (CI, no GPU)
#   bash scripts/gpu/verify-advice.sh --pack  # pack what a run cut short has (no executables)
#
# It packs $OUT/verify-<date>.tar.gz (default OUT: gpu-out) with the GPU's and tools' versions,
# the build log, every timed launch (timings.csv), the results' checksums, and per program
# advise's suggestions (JSON) and ncu's raw CSV. Back on the CPU machine, unpack it into
# datasets/ and run `python3 scripts/gpu/verify-summary.py datasets/verify-<date>` for the
# table of predicted against measured speedups (summary.md), then commit both.
#
# Settings: ADVISE (the advise binary; default scripts/gpu/advise-binary.sh's choice),
# WIDTH (matrix multiply's width, default 2048), TWIDTH (transpose's, default 4096), RN
# (floats summed, default 16777216), RUNS (processes per build, default 3), REPS (timed
# launches per process, default 5), ARCH (default: the GPU's compute capability from
# nvidia-smi, else sm_90). Measured on the H200: 37 s for 12 builds, 36 timed processes and
# 4 profiles (datasets/verify-20261126); 139 s for 49 builds, 147 timed processes and 10
# profiles (datasets/verify-h200-20261127); now 74 builds and 222 timed processes (with the
# FTZ and READ_ONLY versions).
set -euo pipefail

export PATH="$PATH:/usr/local/cuda/bin"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
OUT="${OUT:-$ROOT/gpu-out}"
NAME="${NAME:-verify-$(date -u +%Y%m%d)}"
W="$ROOT/build/gpu-work/$NAME"   # ignored by git: see campaign.sh

# pack: $OUT/$NAME.tar.gz with everything of the run but the executables: every executable
# file under build/, whatever its configuration's suffix (a list of names missed the ftz and
# ro builds once), and the transposes' and reductions' builds with their logs.
pack() {
    mkdir -p "$OUT"
    local skip
    skip=$(mktemp)
    (cd "$ROOT/build/gpu-work" && find "$NAME/build" -type f -perm -u+x 2>/dev/null) > "$skip" || true
    tar -czf "$OUT/$NAME.tar.gz" -C "$ROOT/build/gpu-work" --exclude-from="$skip" \
        --exclude="$NAME/build/transpose-*-r[0-9]*" --exclude="$NAME/build/reduce-*-b[0-9]*" \
        "$NAME"
    rm -f "$skip"
}

if [ "${1:-}" = "--pack" ]; then
    # What a run cut short before its end has (scripts/gpu/visit.sh calls this).
    [ -d "$W" ] || { echo "verify-advice: nothing to pack: no $W" >&2; exit 1; }
    pack
    exit 0
fi

# The programs' table: tiles_of, src_of, exe_of, profiled_of, kernel_of, args_of, level_of,
# flags_of (shared with scripts/sim/verify-advice-sim.sh).
. "$ROOT/scripts/gpu/verify-programs.sh"

# build DIR FAILURES: every program at every tile (verify-programs.sh's source_for and
# build_flags: matrix multiply patched, the others with -D flags), all nvcc at once.
build() {
    local dir="$1" failures="$2" v t src
    mkdir -p "$dir"
    for v in $PROGRAMS $OWN_PROGRAMS; do
        for t in $(tiles_of "$v"); do
            src=$(source_for "$dir" "$v" "$t") || exit 1
            # shellcheck disable=SC2046 # the flags are words
            ( nvcc -O3 -arch="$ARCH" $(build_flags "$v" "$t") -o "$dir/$(exe_of "$v" "$t")" "$src" \
                > "$dir/$(exe_of "$v" "$t").log" 2>&1 \
                || echo "build $(exe_of "$v" "$t") failed ($dir/$(exe_of "$v" "$t").log)" >> "$failures" ) &
        done
    done
    wait
}

if [ "${1:-}" = "--build-only" ]; then
    dir="${2:-${TMPDIR:-/tmp}/advise-verify-build}"
    ARCH="${ARCH:-sm_90}"
    command -v nvcc > /dev/null || { echo "verify-advice: no nvcc on PATH" >&2; exit 2; }
    : > "$dir.failures" 2>/dev/null || { mkdir -p "$(dirname "$dir")"; : > "$dir.failures"; }
    t0=$(date +%s)
    build "$dir" "$dir.failures"
    if [ -s "$dir.failures" ]; then cat "$dir.failures" >&2; exit 1; fi
    echo "built the $(find "$dir" -maxdepth 1 -name '*.log' | wc -l) programs of variants/verify for $ARCH in $(( $(date +%s) - t0 )) s into $dir"
    exit 0
fi
. scripts/gpu/advise-binary.sh
for tool in nvcc ncu nvidia-smi; do
    command -v "$tool" > /dev/null || { echo "verify-advice: no $tool on PATH: run this on the GPU machine (CUDA toolkit and driver)" >&2; exit 2; }
done
nvidia-smi -L > /dev/null 2>&1 || { echo "verify-advice: nvidia-smi sees no GPU" >&2; exit 2; }

WIDTH="${WIDTH:-2048}"
TWIDTH="${TWIDTH:-4096}"
RN="${RN:-16777216}"
RUNS="${RUNS:-3}"
REPS="${REPS:-5}"
if [ -z "${ARCH:-}" ]; then
    cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d ' .')
    ARCH="sm_${cc:-90}"
fi
mkdir -p "$OUT" "$W/build" "$W/profiles"
: > "$W/failures.txt"
t0=$(date +%s)

{
    echo "settings: WIDTH=$WIDTH TWIDTH=$TWIDTH RN=$RN RUNS=$RUNS REPS=$REPS ARCH=$ARCH"
    bash "$ROOT/scripts/gpu/environment.sh" "$ADVISE"
} > "$W/versions.txt" 2>&1

build "$W/build" "$W/failures.txt"
echo "built in $(( $(date +%s) - t0 )) s"

# Time: RUNS processes of REPS launches each, after one warm-up launch per process.
echo "program,tile,width,process,rep,ms" > "$W/timings.csv"
echo "program,tile,width,checksum" > "$W/checksums.csv"
for v in $PROGRAMS $OWN_PROGRAMS; do
    for t in $(tiles_of "$v"); do
        exe="$W/build/$(exe_of "$v" "$t")"
        [ -x "$exe" ] || continue
        for p in $(seq 1 "$RUNS"); do
            # shellcheck disable=SC2046 # the arguments are words
            if ! out=$(ADVISE_REPS="$REPS" timeout 120 "$exe" $(args_of "$v") 2>&1); then
                echo "run $(exe_of "$v" "$t") process $p failed: $(echo "$out" | tail -n 2 | tr '\n' ' ')" >> "$W/failures.txt"
                continue
            fi
            echo "$out" | awk -v v="$v" -v t="$t" -v w="$(width_of "$v")" -v p="$p" \
                '$1 == "advise-kernel-ms" { print v "," t "," w "," p "," $2 "," $3 }' >> "$W/timings.csv"
            [ "$p" = 1 ] && echo "$out" | awk -v v="$v" -v t="$t" -v w="$(width_of "$v")" \
                '$1 == "advise-checksum" { print v "," t "," w "," $2 }' >> "$W/checksums.csv"
        done
    done
done
echo "timed in $(( $(date +%s) - t0 )) s"

# Profile each program at its profiled tile (matrix multiply's published 16) with advise: only
# the warm-up launch runs.
for v in $PROGRAMS $OWN_PROGRAMS; do
    exe="$W/build/$(exe_of "$v" "$(profiled_of "$v")")"
    [ -x "$exe" ] || continue
    # shellcheck disable=SC2046 # the arguments are words
    if ! ADVISE_REPS=0 timeout 300 "$ADVISE" -q profile --json --kernel "$(kernel_of "$v")" \
        $(level_args "$v") --source "$(src_of "$v")" --out-dir "$W/profiles/$v" \
        -o "$W/profiles/$v.suggest.json" -- "$exe" $(args_of "$v") > "$W/profiles/$v.log" 2>&1; then
        echo "profile $v failed (profiles/$v.log)" >> "$W/failures.txt"
    fi
done
echo "profiled in $(( $(date +%s) - t0 )) s"

cat > "$W/commands.txt" <<EOF
bash scripts/gpu/verify-advice.sh   (WIDTH=$WIDTH TWIDTH=$TWIDTH RN=$RN RUNS=$RUNS REPS=$REPS ARCH=$ARCH)
build:   nvcc -O3 -arch=$ARCH -include variants/verify/advise_timing.h -o build/<program>-t<tile> build/<program>-t<tile>.cu   (matMul-*)
         nvcc -O3 -arch=$ARCH -DBLOCK_ROWS=<r> -o build/<program>-r<r> variants/verify/transpose/<program>.cu
         nvcc -O3 -arch=$ARCH -DBLOCK=<b> -DELEMS=<e> -o build/<program>-b<b>e<e> variants/verify/reduce/<program>.cu
         (a configuration ending uK adds -DADVISE_UM=K: the input under unified-memory policy K;
          tK adds -DADVISE_UM=K -DADVISE_FILL_TIMED=1: the same with the refill timed)
time:    ADVISE_REPS=$REPS build/<executable> <$WIDTH 0 | $TWIDTH | $RN>   ($RUNS processes each)
profile: ADVISE_REPS=0 advise -q profile --json --kernel <matMul|transpose|reduce> [--level TILE_SIZE=<4|1>] --source <program's .cu> --out-dir profiles/<program> -o profiles/<program>.suggest.json -- build/<executable at t16, r8 or b256e1> <arguments>
EOF
[ -s "$W/failures.txt" ] && { echo "failures:"; cat "$W/failures.txt"; }
pack
echo "packed $OUT/$NAME.tar.gz ($(du -h "$OUT/$NAME.tar.gz" | cut -f1)) in $(( $(date +%s) - t0 )) s"
