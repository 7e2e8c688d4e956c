#!/usr/bin/env bash
# Compares the CPU time a search takes with two or more advise binaries on one space, where the
# machine's speed drifts between runs (a shared VM's varies by half): the binaries run
# alternately, `advise -q bench search` per binary per round, and the median over rounds of
# each binary's time divided by the first binary's time in the same round is printed.
#
# usage: scripts/search/paired-timing.sh ROUNDS SPACE BUDGET REPEATS BINARY BINARY...
#   e.g. scripts/search/paired-timing.sh 30 gemm_cltune__GTX_680.json.gz 5% 20 \
#          /tmp/advise-before target/release/advise
# Used for docs/search-results.md, "Integer counts and prefetched reads on the largest space".
set -euo pipefail
if [ $# -lt 6 ]; then
    sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
rounds=$1 space=$2 budget=$3 repeats=$4
shift 4
for b in "$@"; do
    [ -x "$b" ] || { echo "paired-timing: $b is not an executable advise binary" >&2; exit 2; }
done
[ -r "$space" ] || { echo "paired-timing: cannot read the space file $space" >&2; exit 2; }
times=$(mktemp)
trap 'rm -f "$times"' EXIT
for _ in $(seq "$rounds"); do
    row=""
    for b in "$@"; do
        # The bench's table: budget, evaluations, CPU ms a search, ...; the row of this budget.
        t=$("$b" -q bench search --space "$space" --budgets "$budget" --repeats "$repeats" \
            | awk -v b="$budget" '$1 == b { print $3; exit }')
        [ -n "$t" ] || { echo "paired-timing: no time for $budget from $b" >&2; exit 1; }
        row="$row $t"
    done
    echo "$row" >> "$times"
done
python3 - "$times" "$@" <<'EOF'
import statistics, sys
rows = [[float(x) for x in line.split()] for line in open(sys.argv[1]) if line.strip()]
for i, name in enumerate(sys.argv[2:]):
    own = [r[i] for r in rows]
    ratio = statistics.median(r[i] / r[0] for r in rows)
    print(f"{name}: median {statistics.median(own):.3f} ms, min {min(own):.3f} ms, "
          f"median ratio to the first {ratio:.3f} ({len(rows)} rounds)")
EOF
