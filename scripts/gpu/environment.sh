#!/usr/bin/env bash
# The GPU machine's record for a dataset's PROVENANCE.md: date, host, GPU, CUDA tools, the
# advise binary and the checkout's commit, as campaign.sh and verify-advice.sh keep it.
#
#   bash scripts/gpu/environment.sh ADVISE [--clocks]   # --clocks: also nvidia-smi's clocks
set -eu
advise="$1"
echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "host: $(hostname)"
echo "--- nvidia-smi"; nvidia-smi || true
if [ "${2:-}" = "--clocks" ]; then
    echo "--- nvidia-smi -q (clocks)"; nvidia-smi -q -d CLOCK || true
fi
echo "--- nvcc --version"; nvcc --version || true
echo "--- ncu --version"; ncu --version || true
echo "--- advise"; "$advise" --version
echo "--- git"; git -C "$(dirname "$0")/../.." rev-parse HEAD 2>/dev/null || true
