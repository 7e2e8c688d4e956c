#!/usr/bin/env bash
# Advice against SIMULATED reality, on this CPU machine: the programs of the check of advice
# against reality (scripts/gpu/verify-programs.sh: the four public matrix multiplies and the
# transpose and reduction written for advise) are built for GPGPU-Sim, every configuration is
# run once under it (the simulation is deterministic), the profiled configuration of each
# program is given to `advise suggest` as a GPGPU-Sim log, and scripts/gpu/verify-summary.py
# compares each suggestion's direction with the simulated speedup of the version that applies
# it. Every time is simulated cycles at the configuration's core clock: SIMULATED, not
# measured.
#
#   GPGPUSIM_ROOT=DIR CUDA_INSTALL_PATH=DIR bash scripts/sim/verify-advice-sim.sh OUT_DIR
#
# GPGPUSIM_ROOT: a built accel-sim/gpgpu-sim_distribution checkout (docs/simulator.md);
# CUDA_INSTALL_PATH: the CUDA toolkit it was built with. Settings: SIM_PROGRAMS (default all
# ten), SIM_CONFIG (default its configs/tested-cfgs/SM7_QV100), SIM_CLUSTERS (default 2, as
# the project's simulated campaigns), WIDTH (matrix multiply's width, default 128), TWIDTH
# (transpose's, default 512), RN (floats summed, default 262144), JOBS (simulations at once,
# default 2), ADVISE (default target/release/advise).
# OUT_DIR gets what a GPU visit's verify pack has (timings.csv, checksums.csv,
# profiles/<program>.suggest.json and the profiled logs, versions.txt, commands.txt), every
# run's log compressed under logs/, cycles.csv, simulator.txt, and summary.md. A second call
# with the same OUT_DIR simulates only the configurations without a log (about 30 s to 2 min
# each on the project's 2-core machine: the transpose's and reduction's 21 in 321 s with
# JOBS=2).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
OUT_DIR="${1:?usage: GPGPUSIM_ROOT=DIR CUDA_INSTALL_PATH=DIR bash scripts/sim/verify-advice-sim.sh OUT_DIR}"
for v in GPGPUSIM_ROOT CUDA_INSTALL_PATH; do
    [ -n "${!v:-}" ] || { echo "verify-advice-sim: set $v (docs/simulator.md says how to build GPGPU-Sim)" >&2; exit 2; }
done
[ -f "$GPGPUSIM_ROOT/setup_environment" ] || { echo "verify-advice-sim: no setup_environment in GPGPUSIM_ROOT=$GPGPUSIM_ROOT" >&2; exit 2; }
[ -x "$CUDA_INSTALL_PATH/bin/nvcc" ] || { echo "verify-advice-sim: no bin/nvcc in CUDA_INSTALL_PATH=$CUDA_INSTALL_PATH" >&2; exit 2; }
SIM_CONFIG="${SIM_CONFIG:-$GPGPUSIM_ROOT/configs/tested-cfgs/SM7_QV100}"
[ -f "$SIM_CONFIG/gpgpusim.config" ] || { echo "verify-advice-sim: no gpgpusim.config in $SIM_CONFIG" >&2; exit 2; }
SIM_CLUSTERS="${SIM_CLUSTERS:-2}"
WIDTH="${WIDTH:-128}"
TWIDTH="${TWIDTH:-512}"
RN="${RN:-262144}"
JOBS="${JOBS:-2}"
ADVISE="${ADVISE:-$ROOT/target/release/advise}"
[ -x "$ADVISE" ] || { echo "verify-advice-sim: no advise binary at $ADVISE (cargo build --release)" >&2; exit 2; }
# GPGPU-Sim does not model managed memory: no unified-memory versions.
NO_UM=1
. "$ROOT/scripts/gpu/verify-programs.sh"
SIM_PROGRAMS="${SIM_PROGRAMS:-$PROGRAMS $OWN_PROGRAMS}"
# The core clock (MHz): the first field of the configuration's last -gpgpu_clock_domains.
MHZ=$(grep -E '^-gpgpu_clock_domains' "$SIM_CONFIG/gpgpusim.config" | tail -n 1 | awk '{print $2}' | cut -d: -f1)
OUT_DIR="$(mkdir -p "$OUT_DIR" && cd "$OUT_DIR" && pwd)"
W="$OUT_DIR/work"
mkdir -p "$W/bin" "$OUT_DIR/logs" "$OUT_DIR/profiles"
t0=$(date +%s)

{
    echo "GPGPU-Sim (accel-sim/gpgpu-sim_distribution) at commit $(git -C "$GPGPUSIM_ROOT" rev-parse HEAD 2>/dev/null || echo unknown),"
    echo "configuration ${SIM_CONFIG#"$GPGPUSIM_ROOT"/}/gpgpusim.config with -gpgpu_n_clusters $SIM_CLUSTERS (POSIX cksum $(cksum < "$SIM_CONFIG/gpgpusim.config" | cut -d' ' -f1)), core clock $MHZ MHz:"
    echo "times are simulated cycles at that clock, counters the simulator's statistics, not measured on a GPU"
} > "$OUT_DIR/simulator.txt"
versions() {
    echo "settings: WIDTH=$WIDTH TWIDTH=$TWIDTH RN=$RN SIM_CLUSTERS=$SIM_CLUSTERS"
    echo "programs: $SIM_PROGRAMS"
    "$CUDA_INSTALL_PATH/bin/nvcc" --version | tail -n 2
    "$ADVISE" --version
    uname -srm
    date -u +%Y-%m-%dT%H:%M:%SZ
}
# A resumed run keeps the first call's versions and adds its own (its advise writes every
# suggestion again).
if [ -s "$OUT_DIR/versions.txt" ]; then
    { echo; echo "resumed (configurations without a log simulated, every suggestion made again):"; versions; } \
        >> "$OUT_DIR/versions.txt" 2>&1
else
    versions > "$OUT_DIR/versions.txt" 2>&1
fi

# Build: PTX for the configuration's compute capability, the CUDA runtime linked dynamically.
cc=$(grep -E '^-gpgpu_ptx_force_max_capability' "$SIM_CONFIG/gpgpusim.config" | tail -n 1 | awk '{print $2}')
cc="${cc:-70}"
: > "$W/failures.txt"
for v in $SIM_PROGRAMS; do
    for c in $(tiles_of "$v"); do
        e=$(exe_of "$v" "$c")
        src=$(source_for "$W/bin" "$v" "$c") || exit 1
        # shellcheck disable=SC2046 # the flags are words
        ( "$CUDA_INSTALL_PATH/bin/nvcc" -O3 -cudart shared -gencode "arch=compute_$cc,code=compute_$cc" \
            $(build_flags "$v" "$c") -o "$W/bin/$e" "$src" > "$W/bin/$e.log" 2>&1 \
            || echo "build $e failed" >> "$W/failures.txt" ) &
    done
done
wait
echo "built in $(( $(date +%s) - t0 )) s"

# run_one PROGRAM TILE: one simulation in its own folder, its log kept compressed.
run_one() {
    local v="$1" c="$2" e
    e=$(exe_of "$1" "$2")
    local d="$W/run/$e"
    rm -rf "$d" && mkdir -p "$d"
    cp "$SIM_CONFIG"/*.icnt "$d/"
    { cat "$SIM_CONFIG/gpgpusim.config"; echo "-gpgpu_n_clusters $SIM_CLUSTERS"; } > "$d/gpgpusim.config"
    # shellcheck disable=SC2046 # the arguments are words
    ( cd "$d" && ADVISE_REPS=0 "$W/bin/$e" $(args_of "$v") > log.txt 2>&1 ) \
        || echo "run $e failed (logs/$e.log.gz)" >> "$W/failures.txt"
    gzip -nc "$d/log.txt" > "$OUT_DIR/logs/$e.log.gz"
}
export -f run_one exe_of args_of
export W OUT_DIR SIM_CONFIG SIM_CLUSTERS WIDTH TWIDTH RN
(
    cd "$GPGPUSIM_ROOT"
    # The simulator's own script reads unset variables.
    set +u
    # shellcheck disable=SC1091 # the simulator's own script
    . ./setup_environment release > /dev/null
    set -u
    for v in $SIM_PROGRAMS; do
        for c in $(tiles_of "$v"); do
            e=$(exe_of "$v" "$c")
            # A run whose log is there is done: a second call resumes a run cut short.
            if [ -x "$W/bin/$e" ] && [ ! -s "$OUT_DIR/logs/$e.log.gz" ]; then
                echo "$v $c"
            fi
        done
    done | xargs -r -P "$JOBS" -L 1 bash -c 'run_one "$0" "$1"'
)
echo "simulated in $(( $(date +%s) - t0 )) s"

# Cycles of the one kernel launch (ADVISE_REPS=0: the warm-up only) as milliseconds.
echo "program,tile,cycles" > "$OUT_DIR/cycles.csv"
echo "program,tile,width,process,rep,ms" > "$OUT_DIR/timings.csv"
echo "program,tile,width,checksum" > "$OUT_DIR/checksums.csv"
for v in $SIM_PROGRAMS; do
    for c in $(tiles_of "$v"); do
        e=$(exe_of "$v" "$c")
        log="$OUT_DIR/logs/$e.log.gz"
        [ -f "$log" ] || continue
        # Read whole (a reader that stops early would fail the pipe under pipefail).
        text=$(gzip -dc "$log")
        # The programs written for advise check themselves against the CPU; the matrix
        # multiplies only print a checksum (verify-summary.py compares the versions').
        case "$v" in matMul-*) want='^advise-checksum' ;; *) want='^advise-check ok' ;; esac
        if ! grep -q "$want" <<< "$text"; then
            echo "check $e failed (logs/$e.log.gz)" >> "$W/failures.txt"
            continue
        fi
        cycles=$(awk '$1 == "gpu_sim_cycle" && !n { n = $3 } END { print n }' <<< "$text")
        [ -n "$cycles" ] || continue
        echo "$v,$c,$cycles" >> "$OUT_DIR/cycles.csv"
        awk -v v="$v" -v c="$c" -v w="$(width_of "$v")" -v n="$cycles" -v mhz="$MHZ" \
            'BEGIN { printf "%s,%s,%s,1,0,%.9f\n", v, c, w, n / (mhz * 1000) }' >> "$OUT_DIR/timings.csv"
        awk -v v="$v" -v c="$c" -v w="$(width_of "$v")" \
            '$1 == "advise-checksum" { print v "," c "," w "," $2 }' <<< "$text" >> "$OUT_DIR/checksums.csv"
    done
done

# The profiled configuration of each program, as a user would give its log to advise.
for v in $SIM_PROGRAMS; do
    log="$OUT_DIR/logs/$(exe_of "$v" "$(profiled_of "$v")").log.gz"
    [ -f "$log" ] || continue
    mkdir -p "$OUT_DIR/profiles/$v"
    cp "$log" "$OUT_DIR/profiles/$v/gpgpusim.log.gz"
    # shellcheck disable=SC2046 # the level's option and value are words
    "$ADVISE" -q suggest --json --profile "$log" --kernel "$(kernel_of "$v")" \
        $(level_args "$v") --source "$(src_of "$v")" \
        -o "$OUT_DIR/profiles/$v.suggest.json" \
        || echo "suggest $v failed" >> "$W/failures.txt"
done
cat > "$OUT_DIR/commands.txt" <<CMDS
bash scripts/sim/verify-advice-sim.sh OUT_DIR   (WIDTH=$WIDTH TWIDTH=$TWIDTH RN=$RN SIM_CLUSTERS=$SIM_CLUSTERS, GPGPU-Sim at $GPGPUSIM_ROOT)
programs: $SIM_PROGRAMS
build:   nvcc -O3 -cudart shared -gencode arch=compute_$cc,code=compute_$cc <-include variants/verify/advise_timing.h | -DBLOCK_ROWS=r | -DBLOCK=b -DELEMS=e> -o <executable> <the patched matrix multiply | variants/verify/<transpose|reduce>/<program>.cu>
run:     ADVISE_REPS=0 <executable> <$WIDTH 0 | $TWIDTH | $RN>   (once, in a folder with the configuration, under setup_environment release)
suggest: advise -q suggest --json --profile logs/<executable at t16, r8 or b256e1>.log.gz --kernel <matMul|transpose|reduce> [--level TILE_SIZE=<4|1>] --source <program's .cu>
CMDS
cp "$W/failures.txt" "$OUT_DIR/failures.txt"
python3 "$ROOT/scripts/gpu/verify-summary.py" "$OUT_DIR" > /dev/null
rm -rf "$W"
[ -s "$OUT_DIR/failures.txt" ] && { echo "failures:"; cat "$OUT_DIR/failures.txt"; }
echo "done in $(( $(date +%s) - t0 )) s: $OUT_DIR/summary.md"
