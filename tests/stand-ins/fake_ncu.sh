#!/usr/bin/env bash
# Stand-in for Nsight Compute: takes ncu's options as `advise collect` passes them, runs the
# program (its JSON lines go to stdout as under the real ncu), and writes to --log-file what a
# real `ncu --csv --page raw` run writes: ==PROF== lines with replay passes, then the header
# and units rows and one row per profiled launch, replayed from a real recording
# (tests/fixtures/ncu/ncu_raw_B200_roofline-analysis_torch_sdpa_flash.csv, rows cycled and
# renumbered to the number of launches the program reports).
#   STANDIN_NCU_FAIL=1   exit 1 with ncu-like error text instead
#   STANDIN_NCU_UNKNOWN=NAME  fail as an ncu that does not know metric NAME, when it is asked for
#   STANDIN_NCU_UNKNOWN_ALWAYS=NAME  the same failure whatever it is asked for
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
fixture="${STANDIN_NCU_FIXTURE:-$here/../fixtures/ncu/ncu_raw_B200_roofline-analysis_torch_sdpa_flash.csv}"
log=""
metrics=""
while [ $# -gt 0 ]; do
    case "$1" in
        --csv) shift ;;
        --log-file) log="$2"; shift 2 ;;
        --metrics) metrics="$2"; shift 2 ;;
        --page|--profile-from-start|--launch-count|--launch-skip|--nvtx-include) shift 2 ;;
        --*) echo "==ERROR== unknown option $1" >&2; exit 1 ;;
        *) break ;;
    esac
done
[ -n "$log" ] || { echo "==ERROR== stand-in needs --log-file" >&2; exit 1; }
if [ "${STANDIN_NCU_FAIL:-}" = 1 ]; then echo "==ERROR== Failed to profile kernel" >&2; exit 1; fi
if [ -n "${STANDIN_NCU_UNKNOWN:-}" ] && printf ',%s,' "$metrics" | grep -qF ",$STANDIN_NCU_UNKNOWN,"; then
    echo "==ERROR== Failed to find metric $STANDIN_NCU_UNKNOWN" >&2
    exit 1
fi
if [ -n "${STANDIN_NCU_UNKNOWN_ALWAYS:-}" ]; then
    echo "==ERROR== Failed to find metric $STANDIN_NCU_UNKNOWN_ALWAYS" >&2
    exit 1
fi
out="$("$@")"
printf '%s\n' "$out"
launches=$(printf '%s\n' "$out" | grep -o '"profiled_launches":[0-9]*' | cut -d: -f2 | awk '{s+=$1} END{print s+0}')
{
    echo "==PROF== Connected to process $$ ($1)"
    for i in $(seq 0 $(( launches - 1 ))); do
        echo "==PROF== Profiling \"force\" - $i: 0%....50%....100% - 7 passes"
    done
    echo "==PROF== Disconnected from process $$"
    grep -v '^==PROF==' "$fixture" | sed -n 1,2p
    grep -v '^==PROF==' "$fixture" | tail -n +3 | awk -v n="$launches" '
        { rows[NR] = $0 }
        END { for (i = 0; i < n; i++) { r = rows[(i % NR) + 1]; sub(/^"[0-9]+"/, "\"" i "\"", r); print r } }'
} > "$log"
