#!/usr/bin/env bash
# Runs `advise search-bench` over every set of spaces that scripts/search/all-spaces.sh wrote,
# for some strategies, at 1%, 2% and 5%, 100 repeats, in seed sets (seeds S..S+99 each):
#
#   scripts/search/sweep.sh ADVISE SPACES_DIR OUT_DIR STRATEGIES [SEED ...]
#
# e.g. scripts/search/sweep.sh target/release/advise /tmp/sp /tmp/sw auto,auto:rebest=1 0 1000
# (seeds default to the ten sets 0, 1000, ..., 9000). One JSON per set and seed set,
# OUT_DIR/SET-SEED.json; one already there is kept (the sweep resumes). BUDGETS and THREADS
# override 1%,2%,5% and 2; RUNS_CSV=1 also writes every run, OUT_DIR/SET-SEED.csv, for
# reach.py's pooled medians and their 95% intervals. scripts/search/reach.py summarises the
# JSONs against Kernel Tuner's runs in docs/search-results/kt/.
set -euo pipefail
bin="${1:?usage: sweep.sh ADVISE SPACES_DIR OUT_DIR STRATEGIES [SEED ...]}"
spaces="${2:?usage: sweep.sh ADVISE SPACES_DIR OUT_DIR STRATEGIES [SEED ...]}"
out="${3:?usage: sweep.sh ADVISE SPACES_DIR OUT_DIR STRATEGIES [SEED ...]}"
strategies="${4:?usage: sweep.sh ADVISE SPACES_DIR OUT_DIR STRATEGIES [SEED ...]}"
shift 4
seeds=("$@")
[ ${#seeds[@]} -gt 0 ] || seeds=(0 1000 2000 3000 4000 5000 6000 7000 8000 9000)
mkdir -p "$out"
for seed in "${seeds[@]}"; do
    for dir in "$spaces"/*/; do
        set_name="$(basename "$dir")"
        file="$out/$set_name-$seed.json"
        [ -s "$file" ] && continue
        runs=()
        [ -n "${RUNS_CSV:-}" ] && runs=(--runs-csv "${file%.json}.csv")
        "$bin" -q search-bench --space "$dir"*.json.gz --strategies "$strategies" \
            --budgets "${BUDGETS:-1%,2%,5%}" --repeats 100 --seed "$seed" \
            --threads "${THREADS:-2}" --no-charts --json -o "$file.part" ${runs[@]+"${runs[@]}"} >/dev/null
        mv "$file.part" "$file"
        echo "sweep: $file"
    done
done
