#!/usr/bin/env bash
# Writes the three tuning spaces that benchmark_hub's history holds and its last commit lacks
# (docs/search-results.md, "Blind set: three spaces from benchmark_hub's history"):
#
#   scripts/kt-compare/history-spaces.sh BENCHMARK_HUB_GIT_DIR OUT_DIR
#
# BENCHMARK_HUB_GIT_DIR is a clone of https://github.com/AutoTuningAssociation/benchmark_hub
# (its .git folder, or a bare repository). Each space is a git blob, named here by its id, the
# commit that added it and its path there:
#
#   gemm__A6000     1e7dd915  2b4c79c  cachefiles/gemm_milo/A6000.json.gz
#   gemm__W7800     fff92519  f94cd02  cachefiles/gemm_milo/W7800.json.gz
#   hotspot__W7800  5cd2721f  9c18e9b  cachefiles/hotspot_milo/W7800.json.gz
#
# (The history's cachefiles/convolution_milo/A6000_extended.json.gz is left out: its 4,058
# entries are entries of the last commit's A6000.json.gz, times identical, one of the
# development spaces.) All three are caches of brute-force runs that stopped before the end
# (no closing braces): they are closed by keeping their complete entries, as `advise` reads
# such a cache, so that Kernel Tuner (kt_run.py) and advise see the same entries. The copy of
# gemm W7800's blob this project could fetch ends at 3,932,160 bytes (a snapshot's size
# limit); so that every machine gets the space measured here, the blob is cut there on every
# machine, and close_cache.py keeps the 11,946 entries that compressed prefix holds.
set -euo pipefail
git_dir="${1:?usage: history-spaces.sh BENCHMARK_HUB_GIT_DIR OUT_DIR}"
out="${2:?usage: history-spaces.sh BENCHMARK_HUB_GIT_DIR OUT_DIR}"
mkdir -p "$out"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

while read -r name blob bytes; do
    tmp="$out/.$name.blob"
    if ! git --git-dir="$git_dir" cat-file -e "$blob" 2>/dev/null; then
        echo "history-spaces: blob $blob ($name) is not in $git_dir" >&2
        exit 1
    fi
    # `head` may close the pipe before git has written everything: only git's absence fails.
    { git --git-dir="$git_dir" cat-file -p "$blob" || true; } | head -c "$bytes" > "$tmp"
    python3 "$here/close_cache.py" "$tmp" "$out/$name.json.gz"
    rm -f "$tmp"
done <<'EOF'
gemm__A6000 1e7dd915cdacffe78927125a37713e4119ca6cf8 1000000000
gemm__W7800 fff925197a6cf436b37ffa054fbb838f22c9caaa 3932160
hotspot__W7800 5cd2721f456c50de2cf40c0bd57653f4c15985b8 1000000000
EOF
