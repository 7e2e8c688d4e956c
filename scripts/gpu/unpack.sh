#!/usr/bin/env bash
# After a device visit, on the CPU machine: unpack the packs that campaign.sh and
# verify-advice.sh wrote under $OUT into datasets/, in the layout the repository keeps.
#
#   bash scripts/gpu/unpack.sh /work/.device/N/*.tar.gz
#
# <campaign>-quick-<prog>.tar.gz -> datasets/<gpu>-<prog>-<date>/ (campaign h200-20261126 gives
#     datasets/h200-nb-20261126, and so does h200-20261126-b): the campaign's tables and raw/,
#     with env.txt, build-<prog>.json and quick-<prog>.log beside them; measurements.csv and
#     raw/ncu_*.csv compressed (gzip -n9, the same bytes)
# verify-<date>.tar.gz -> datasets/verify-<gpu>-<date>/, then scripts/gpu/verify-summary.py on it
#
# Other packs (probe, setup, collect shards) are named and left for unpacking by hand. An
# existing destination is never overwritten: a second campaign of a program on one GPU and day
# goes to <dest>-2. PROVENANCE.md is still written by hand: GPU, versions (env.txt), date, the
# exact commands, what failed (shared/GPU.md, "After").
set -euo pipefail
cd "$(dirname "$0")/../.."

# unpack_one PACK TMP: one pack; non-zero (and a message) where it cannot be unpacked.
unpack_one() {
    local pack="$1" tmp="$2" name prog campaign dest src f jobs n
    name=$(basename "$pack" .tar.gz)
    tar -xzf "$pack" -C "$tmp"
    case "$name" in
    *-quick-nb | *-quick-bh)
        prog=${name##*-quick-}
        campaign=${name%-quick-*}
        # A campaign is <gpu>-<date>, or <gpu>-<date>-<tag> where a visit kept a second
        # campaign's packs apart (CAMPAIGN=h200-20261127-b): the folder is named after the GPU,
        # program and date alike.
        local gpu="${campaign%%-*}" rest="${campaign#*-}"
        dest="datasets/$gpu-$prog-${rest%%-*}"
        src="$tmp/$campaign"
        [ -d "$src/quick-$prog" ] || { echo "unpack: $pack holds no $campaign/quick-$prog/" >&2; return 1; }
        # A second campaign of one program on one GPU and day (another visit) takes the first
        # free datasets/<gpu>-<prog>-<date>-N, N from 2; bench transfer pairs it the same.
        if [ -e "$dest" ]; then
            n=2
            while [ -e "$dest-$n" ]; do n=$(( n + 1 )); done
            echo "unpack: $dest exists; this campaign goes to $dest-$n"
            dest="$dest-$n"
        fi
        mv "$src/quick-$prog" "$dest"
        for f in env.txt "build-$prog.json" "quick-$prog.log"; do
            if [ -f "$src/$f" ]; then cp "$src/$f" "$dest/"; fi
        done
        if [ -f "$dest/measurements.csv" ]; then gzip -n9 "$dest/measurements.csv"; fi
        # ncu's raw CSV is most of a campaign's bytes; the tree must stay under the device
        # tool's 64 MiB with the binary.
        find "$dest/raw" -name 'ncu_*.csv' -exec gzip -n9 {} +
        jobs=$(( $(wc -l < "$dest/ledger.csv") - 1 ))
        echo "unpacked $pack -> $dest ($jobs jobs in the ledger); write $dest/PROVENANCE.md"
        ;;
    verify-*)
        [ -d "$tmp/$name" ] || { echo "unpack: $pack holds no $name/" >&2; return 1; }
        # Named after the GPU (versions.txt) as the quick packs are: verify-h100-20261126.
        # The first visit's datasets/verify-20261126 (an H200) keeps its older name.
        gpu=$(grep -o 'NVIDIA H[0-9]*' "$tmp/$name/versions.txt" 2>/dev/null | head -n 1 |
            sed 's/NVIDIA H/h/')
        dest="datasets/verify-${gpu:-gpu}-${name#verify-}"
        [ -e "$dest" ] && { echo "unpack: $dest exists; move it away first" >&2; return 1; }
        mv "$tmp/$name" "$dest"
        python3 scripts/gpu/verify-summary.py "$dest" > /dev/null
        echo "unpacked $pack -> $dest (summary.md written); write $dest/PROVENANCE.md"
        ;;
    *)
        echo "unpack: $pack is not a quick or verify pack; unpack it by hand (tar -tzf shows it)" >&2
        return 1
        ;;
    esac
}

status=0
for pack in "$@"; do
    tmp=$(mktemp -d)
    unpack_one "$pack" "$tmp" || status=1
    rm -rf "$tmp"
done
exit $status
