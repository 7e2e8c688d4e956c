#!/usr/bin/env bash
# Stand-in for Nsight Compute used by `advise profile` tests: accepts ncu's options, records the
# program's argv (one argument per line, in $STANDIN_ARGV), runs the program, and writes a real
# recorded ncu CSV ($STANDIN_CSV, from tests/fixtures) to --log-file, as ncu would.
#   STANDIN_MODE=perm     ncu reports ERR_NVGPUCTRPERM (counters not permitted) and fails
#   STANDIN_MODE=nokernel ncu says no kernels were profiled
#   STANDIN_MODE=nometric ncu does not know the requested metrics with "cycles" in their
#                         name: it fails at the first such metric of --metrics
#   STANDIN_MODE=nometric_other ncu fails at a metric that was not requested
set -euo pipefail
log=""
metrics=""
while [ $# -gt 0 ]; do
    case "$1" in
        --csv) shift ;;
        --log-file) log="$2"; shift 2 ;;
        --metrics) metrics="$2"; shift 2 ;;
        --page|--target-processes|--kernel-name) shift 2 ;;
        --*) echo "==ERROR== unknown option $1" >&2; exit 1 ;;
        *) break ;;
    esac
done
[ -n "$log" ] || { echo "==ERROR== stand-in needs --log-file" >&2; exit 1; }
if [ -n "${STANDIN_ARGV:-}" ]; then printf '%s\n' "$@" > "$STANDIN_ARGV"; fi
case "${STANDIN_MODE:-}" in
    perm)
        echo "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU Performance Counters on the target device 0." > "$log"
        exit 1 ;;
    nometric)
        unknown=$(printf '%s\n' "$metrics" | tr ',' '\n' | grep cycles | head -n 1 || true)
        if [ -n "$unknown" ]; then
            echo "==ERROR== Failed to find metric \"$unknown\"" >&2
            exit 1
        fi ;;
    nometric_other)
        echo "==ERROR== Failed to find metric \"regex:^not_asked_for$\"" > "$log"
        exit 1 ;;
esac
set +e
"$@"
status=$?
set -e
if [ "$status" != 0 ]; then
    echo "==ERROR== The application returned an error code ($status)." >&2
    exit "$status"
fi
if [ "${STANDIN_MODE:-}" = nokernel ]; then
    echo "==WARNING== No kernels were profiled." > "$log"
    exit 0
fi
cp "$STANDIN_CSV" "$log"
