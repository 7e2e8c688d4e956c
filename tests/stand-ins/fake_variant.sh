#!/usr/bin/env bash
# Stand-in for a compiled NB/BH variant (variants/common/driver.cuh) on machines without a
# GPU: same arguments, same JSON lines, made-up but deterministic times and checksums.
# Its variant comes from its file name (nb_010011, bh_000101), so the tests link this script
# under all 64 names. Test hooks, by bit string:
#   STANDIN_BAD=BITS          that variant's checksum is 1% off (must be reported, not timed)
#   STANDIN_CRASH=BITS        that variant exits 1 with a message on stderr
#   STANDIN_KILL_PARENT=BITS  that variant kills the process that started it (simulated kill)
#   STANDIN_NEGATIVE=BITS     that variant prints a negative time (must be refused)
#   STANDIN_OTHER=BITS        that variant's record names variant 111111 (a misplaced binary)
#   STANDIN_DEVICE=NAME       the GPU the records name (default "stand-in")
set -euo pipefail
name="$(basename "$0")"
prog="${name%%_*}"
bits="${name##*_}"
PROG="$(echo "$prog" | tr a-z A-Z)"
inputs="" runs=1 reps=3 warmup=1 seed=1 profile_steps=0
while [ $# -gt 0 ]; do
    case "$1" in
        --inputs) inputs="$2" ;;
        --bodies) inputs="$2:${4:-1}" ;;
        --runs) runs="$2" ;;
        --reps) reps="$2" ;;
        --warmup) warmup="$2" ;;
        --seed) seed="$2" ;;
        --profile-steps) profile_steps="$2" ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
    shift 2
done
[ -n "$inputs" ] || { echo "no input given" >&2; exit 2; }
if [ "${STANDIN_KILL_PARENT:-}" = "$bits" ]; then kill -9 "$PPID"; sleep 1; exit 1; fi
if [ "${STANDIN_CRASH:-}" = "$bits" ]; then echo "CUDA error: an illegal memory access was encountered" >&2; exit 1; fi
[ "$profile_steps" -gt 0 ] && { reps=1; warmup=0; }
kernels=2; [ "$PROG" = BH ] && kernels=7
ones=$(echo "$bits" | tr -cd 1 | wc -c)
IFS=',' read -ra list <<< "$inputs"
for item in "${list[@]}"; do
    bodies="${item%%:*}"; steps="${item##*:}"
    for run in $(seq 1 "$runs"); do
        # Faster with more optimizations on; checksums depend on the input only.
        t=$(awk -v b="$bodies" -v s="$steps" -v o="$ones" -v r="$run" 'BEGIN{printf "%.6f", b*s/1000.0/(1+o/10.0)*(1+r/1000.0)}')
        times=$(awk -v t="$t" -v k="$reps" 'BEGIN{for(i=0;i<k;i++) printf "%s%.6f", (i?",":""), t*(1+i/1000.0)}')
        c0=$(awk -v b="$bodies" -v s="$steps" -v x="$seed" 'BEGIN{printf "%.17g", b*0.75+s+x/10.0}')
        c1=$(awk -v b="$bodies" -v s="$steps" 'BEGIN{printf "%.17g", b*0.5+s/3.0}')
        [ "${STANDIN_BAD:-}" = "$bits" ] && c0=$(awk -v c="$c0" 'BEGIN{printf "%.17g", c*1.01}')
        [ "${STANDIN_NEGATIVE:-}" = "$bits" ] && t="-5"
        said="$bits"; [ "${STANDIN_OTHER:-}" = "$bits" ] && said=111111
        profiled=0; plaunches=0
        if [ "$profile_steps" -gt 0 ]; then
            profiled=$(( profile_steps < steps ? profile_steps : steps )); plaunches=$(( profiled * kernels ))
        fi
        printf '{"program":"%s","variant":"%s","input":"bodies=%s,steps=%s","bodies":%s,"steps":%s,"seed":%s,"run":%s,"repetitions":%s,"warmup":%s,"time_ms":%s,"times_ms":[%s],"kernels":[{"name":"force","median_ms":%s,"times_ms":[%s]}],"launches":%s,"profiled_steps":%s,"profiled_launches":%s,"checksum":[%s,%s],"device":"%s","cc":"0.0"}\n' \
            "$PROG" "$said" "$bodies" "$steps" "$bodies" "$steps" "$seed" "$run" "$reps" "$warmup" "$t" "$times" "$t" "$times" $(( steps * kernels )) "$profiled" "$plaunches" "$c0" "$c1" "${STANDIN_DEVICE:-stand-in}"
    done
done
