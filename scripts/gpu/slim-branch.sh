#!/usr/bin/env bash
# Before a GPU visit: the device tool carries the working tree (tracked files, untracked files
# git does not ignore, and the carried paths) only up to 64 MiB, and the tree alone reached
# 61.8 MiB on 2026-11-27 (datasets/ 47 MiB), so with build/advise.gz (3.8 MiB) it no longer
# travels. This switches to a branch `gpu-visit` whose one commit drops what a visit never
# reads (datasets/, reports/, docs/, tests/, assets/; every PROVENANCE.md stays), and back:
#
#   bash scripts/gpu/slim-branch.sh          # from a clean tree: on gpu-visit, sizes printed
#   ... the visit's `run` calls (carry build/advise.gz and build/metrics-bh.txt if made) ...
#   bash scripts/gpu/slim-branch.sh --back   # back on the branch it came from, gpu-visit gone
#
# A visit reads scripts/gpu, variants/ (the programs, metrics.txt) and models/ (the advisor
# `advise profile` uses); the binary embeds its font. Unpack what comes back
# (scripts/gpu/unpack.sh) after `--back`, on the full tree.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
LIMIT_KIB=$((64 * 1024))
size_kib() { git ls-files -z | du -c --apparent-size --files0-from=- | tail -n 1 | cut -f1; }
base_file="$(git rev-parse --git-dir)/gpu-visit-base"

if [ "${1:-}" = "--back" ]; then
    [ "$(git rev-parse --abbrev-ref HEAD)" = gpu-visit ] || { echo "slim-branch: not on gpu-visit" >&2; exit 1; }
    [ -z "$(git status --porcelain --untracked-files=no)" ] \
        || { echo "slim-branch: gpu-visit has uncommitted changes: keep them elsewhere first" >&2; exit 1; }
    base=$(cat "$base_file")
    git switch -q "$base"
    git branch -q -D gpu-visit
    rm -f "$base_file"
    echo "back on $base ($(size_kib) KiB tracked)"
    exit 0
fi

[ -z "$(git status --porcelain --untracked-files=no)" ] \
    || { echo "slim-branch: commit or stash the changes first" >&2; exit 1; }
[ "$(git rev-parse --abbrev-ref HEAD)" != gpu-visit ] || { echo "slim-branch: already on gpu-visit" >&2; exit 1; }
before=$(size_kib)
git rev-parse --abbrev-ref HEAD > "$base_file"
git switch -q -C gpu-visit
git ls-files -z datasets reports docs tests assets | grep -zv '/PROVENANCE\.md$' | xargs -0 -r git rm -q
git commit -q -m "gpu-visit: a tree slim enough to travel to the GPU (not for merging)"
after=$(size_kib)
carry=0
for f in build/advise.gz build/metrics-bh.txt; do
    [ -f "$f" ] && carry=$((carry + $(du -k --apparent-size "$f" | cut -f1)))
done
untracked=$(git ls-files -z --others --exclude-standard | du -c --apparent-size --files0-from=- 2>/dev/null | tail -n 1 | cut -f1)
total=$((after + carry + ${untracked:-0}))
echo "on gpu-visit: tracked $before -> $after KiB, carried $carry KiB, untracked $untracked KiB: $total of $LIMIT_KIB KiB"
[ "$total" -lt "$LIMIT_KIB" ] || { echo "slim-branch: still over the limit" >&2; exit 1; }
