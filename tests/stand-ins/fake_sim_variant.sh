#!/usr/bin/env bash
# Stand-in for a variant program run under GPGPU-Sim (advise collect --backend gpgpu-sim) on
# machines without the simulator: it checks what advise must set up (the configuration in
# the working directory, the simulator's environment), then prints the real recorded
# GPGPU-Sim log $STANDIN_SIM_LOG (gzip) on standard output, as the simulator does, its run
# record naming the variant of the stand-in's file name (as the variant itself would). Test hooks, by bit string:
#   STANDIN_SIM_CRASH=BITS   the simulation dies half-way (the log is cut, exit 1)
#   STANDIN_SIM_BAD=BITS     that variant's checksum is far off (must be reported, not kept)
set -euo pipefail
name="$(basename "$0")"
bits="${name##*_}"
[ -f gpgpusim.config ] || { echo "no gpgpusim.config in $(pwd)" >&2; exit 3; }
ls ./*.icnt >/dev/null 2>&1 || { echo "no interconnect file in $(pwd)" >&2; exit 3; }
[ -n "${GPGPUSIM_ROOT:-}" ] && [ -n "${CUOBJDUMP_SIM_FILE:-}" ] || { echo "not run as under GPGPU-Sim" >&2; exit 3; }
case "${LD_LIBRARY_PATH:-}" in *release*) ;; *) echo "simulator runtime not first on LD_LIBRARY_PATH" >&2; exit 3 ;; esac
if [ "${STANDIN_SIM_CRASH:-}" = "$bits" ] && [ "${PTX_SIM_MODE_FUNC:-0}" = 0 ]; then
    gzip -dc "$STANDIN_SIM_LOG" | head -n 1000
    echo "GPGPU-Sim: simulation killed" >&2
    exit 1
fi
if [ "${STANDIN_SIM_BAD:-}" = "$bits" ]; then
    gzip -dc "$STANDIN_SIM_LOG" | sed -e 's/"checksum":\[5/"checksum":[9/' \
        -e "s/\"variant\":\"[01]*\"/\"variant\":\"$bits\"/"
    exit 0
fi
gzip -dc "$STANDIN_SIM_LOG" | sed "s/\"variant\":\"[01]*\"/\"variant\":\"$bits\"/"
