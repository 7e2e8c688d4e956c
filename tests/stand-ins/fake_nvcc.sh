#!/usr/bin/env bash
# Stand-in for nvcc: "compiles" a variant by copying the fake variant program to the -o path.
#   STANDIN_NVCC_FAIL=-DRSQRT=1   fail (with nvcc-like stderr) when that flag is given
#   STANDIN_NVCC_NO_OUTPUT=1      exit 0 without writing the -o file
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out=""
for a in "$@"; do
    if [ "${STANDIN_NVCC_FAIL:-}" = "$a" ]; then
        echo "bh.cu(42): error: identifier \"__shfl\" is undefined" >&2
        exit 1
    fi
done
while [ $# -gt 0 ]; do
    case "$1" in -o) out="$2"; shift 2 ;; *) shift ;; esac
done
[ -n "$out" ] || { echo "nvcc fatal: no -o" >&2; exit 1; }
[ -z "${STANDIN_NVCC_NO_OUTPUT:-}" ] || exit 0
cp "$here/fake_variant.sh" "$out"
chmod +x "$out"
