#!/usr/bin/env bash
# One command: advise search-bench and Kernel Tuner 1.5.0 (simulation mode) on the same cache
# files, budgets and scoring, then the Markdown comparison.
#
#   scripts/kt-compare/run.sh [options] CACHE.json.gz...
#
# Options (defaults in brackets):
#   -o, --out DIR              results folder [kt-compare-results]
#   -b, --budgets LIST         budgets, shares or counts [1%,2%,5%]
#   --kt-repeats N             Kernel Tuner repeats per cell [20]
#   --advise-repeats N         advise repeats per cell [100]
#   --kt-strategies LIST       Kernel Tuner strategies, or `all`
#                              [random_sample,genetic_algorithm,simulated_annealing,basinhopping,
#                               bayes_opt,pso,diff_evo,greedy_ils]
#   --advise-strategies LIST   advise strategies [random,iterml,shrinking,brt,ga,anneal; plus auto
#                              when the advise binary has it]
#   --kt-space MODE            entries (failed entries in the space, cost an evaluation: advise's
#                              rule), valid (kernel_tuner.tune_cache's space) or both [entries]
#   --seed N                   repeat r uses seed N + r in both tools [0]
#   --jobs N                   Kernel Tuner worker processes [1]
#   --kt-confirm N             re-run each (space, budget)'s best Kernel Tuner strategy with N
#                              fresh seeds (from seed + max(1000, kt-repeats)): the largest of
#                              eight medians of 20 runs is biased upward, a re-run is not [0: off]
#   --advise PATH              advise binary [$ADVISE, else `advise` on PATH, else target/release/advise]
#   --skip-kt / --skip-advise  reuse the existing results of that tool in DIR
# Environment: KT_VENV (virtualenv made by setup.sh) [scripts/kt-compare/.venv].
#
# Writes DIR/advise/<space>__<strategy>__<budget>.json (one advise run each, one thread, so its
# `seconds` is the time of exactly those runs), DIR/kt-<mode>.json, DIR/kt-confirm/*.json (with
# --kt-confirm) and DIR/comparison.md.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"

out="kt-compare-results"
budgets="1%,2%,5%"
kt_repeats=20
advise_repeats=100
kt_strategies="random_sample,genetic_algorithm,simulated_annealing,basinhopping,bayes_opt,pso,diff_evo,greedy_ils"
advise_strategies=""
kt_space="entries"
seed=0
jobs=1
kt_confirm=0
advise_bin="${ADVISE:-}"
skip_kt=0
skip_advise=0
caches=()
while [ $# -gt 0 ]; do
    case "$1" in
        -o|--out) out="$2"; shift 2 ;;
        -b|--budgets) budgets="$2"; shift 2 ;;
        --kt-repeats) kt_repeats="$2"; shift 2 ;;
        --advise-repeats) advise_repeats="$2"; shift 2 ;;
        --kt-strategies) kt_strategies="$2"; shift 2 ;;
        --advise-strategies) advise_strategies="$2"; shift 2 ;;
        --kt-space) kt_space="$2"; shift 2 ;;
        --seed) seed="$2"; shift 2 ;;
        --jobs) jobs="$2"; shift 2 ;;
        --kt-confirm) kt_confirm="$2"; shift 2 ;;
        --advise) advise_bin="$2"; shift 2 ;;
        --skip-kt) skip_kt=1; shift ;;
        --skip-advise) skip_advise=1; shift ;;
        -h|--help) sed -n '2,30p' "$0"; exit 0 ;;
        -*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
        *) caches+=("$1"); shift ;;
    esac
done
[ ${#caches[@]} -gt 0 ] || { echo "run.sh: give at least one cache file (see --help)" >&2; exit 2; }
case "$kt_space" in entries|valid|both) ;; *) echo "run.sh: --kt-space entries|valid|both" >&2; exit 2 ;; esac
case "$kt_confirm" in ''|*[!0-9]*) echo "run.sh: --kt-confirm takes a number of runs" >&2; exit 2 ;; esac
if [ "$kt_confirm" -gt 0 ] && [ "$kt_space" = valid ]; then
    echo "run.sh: --kt-confirm re-runs the --kt-space entries results' best strategies: use entries or both" >&2; exit 2
fi

if [ -z "$advise_bin" ]; then
    if command -v advise >/dev/null 2>&1; then advise_bin="$(command -v advise)"
    elif [ -x "$repo/target/release/advise" ]; then advise_bin="$repo/target/release/advise"
    else echo "run.sh: no advise binary (cargo build --release, or --advise PATH)" >&2; exit 1; fi
fi
venv="${KT_VENV:-$here/.venv}"
py="$venv/bin/python"
mkdir -p "$out/advise"

# --- advise ---------------------------------------------------------------------------------
if [ "$skip_advise" = 0 ]; then
    if [ -z "$advise_strategies" ]; then
        advise_strategies="random,iterml,shrinking,brt,ga,anneal"
        if "$advise_bin" -q search-bench --space "${caches[0]}" --strategies auto --budgets 1 \
            --repeats 1 --no-charts --json --threads 1 >/dev/null 2>&1; then
            advise_strategies="auto,$advise_strategies"
        fi
    fi
    echo "advise: $advise_bin, strategies $advise_strategies, $advise_repeats repeats" >&2
    t0=$(date +%s)
    IFS=, read -r -a a_strats <<<"$advise_strategies"
    IFS=, read -r -a a_budgets <<<"$budgets"
    for c in "${caches[@]}"; do
        name="$(basename "$c")"; name="${name%.gz}"; name="${name%.json}"; name="${name%.csv}"
        for s in "${a_strats[@]}"; do
            for b in "${a_budgets[@]}"; do
                f="$out/advise/${name}__${s//[:=,]/_}__${b//%/pct}.json"
                "$advise_bin" -q search-bench --space "$c" --strategies "$s" --budgets "$b" \
                    --repeats "$advise_repeats" --seed "$seed" --threads 1 --no-charts --json -o "$f"
            done
        done
    done
    echo "advise: done in $(( $(date +%s) - t0 )) s" >&2
fi

# --- Kernel Tuner ---------------------------------------------------------------------------
modes=("$kt_space"); [ "$kt_space" = both ] && modes=(entries valid)
if [ "$skip_kt" = 0 ]; then
    [ -x "$py" ] || { echo "run.sh: no Kernel Tuner environment at $venv: run $here/setup.sh" >&2; exit 1; }
    for m in "${modes[@]}"; do
        echo "Kernel Tuner ($m): strategies $kt_strategies, $kt_repeats repeats, $jobs jobs" >&2
        t0=$(date +%s)
        "$py" "$here/kt_run.py" --cache "${caches[@]}" --strategies "$kt_strategies" \
            --budgets "$budgets" --repeats "$kt_repeats" --seed "$seed" --space "$m" \
            --jobs "$jobs" --out "$out/kt-$m.json"
        echo "Kernel Tuner ($m): done in $(( $(date +%s) - t0 )) s" >&2
    done
fi

# --- Kernel Tuner's best strategy of each space and budget, re-run with fresh seeds -----------
if [ "$kt_confirm" -gt 0 ] && [ "$skip_kt" = 0 ]; then
    declare -A path_of
    for c in "${caches[@]}"; do
        name="$(basename "$c")"; name="${name%.gz}"; name="${name%.json}"; name="${name%.csv}"
        path_of["$name"]="$c"
    done
    confirm_seed=$(( seed + (kt_repeats > 1000 ? kt_repeats : 1000) ))
    mkdir -p "$out/kt-confirm"
    echo "Kernel Tuner: each best strategy re-run, $kt_confirm repeats from seed $confirm_seed" >&2
    python3 "$here/compare.py" --kt "$out/kt-entries.json" --list-kt-best |
        while IFS=$'\t' read -r sp b s; do
            if [ -z "${path_of[$sp]:-}" ]; then
                echo "run.sh: $out/kt-entries.json has space $sp, which no cache given names: not re-run" >&2
                continue
            fi
            "$py" "$here/kt_run.py" --cache "${path_of[$sp]}" --strategies "$s" --budgets "$b" \
                --repeats "$kt_confirm" --seed "$confirm_seed" --jobs "$jobs" \
                --out "$out/kt-confirm/${sp}__${s}__${b//%/pct}.json"
        done
fi

# --- table ----------------------------------------------------------------------------------
cmp_args=(--advise-repeats "$advise_repeats" --out "$out/comparison.md")
shopt -s nullglob
advise_files=("$out"/advise/*.json)
[ ${#advise_files[@]} -gt 0 ] && cmp_args+=(--advise "${advise_files[@]}")
for m in entries valid; do [ -f "$out/kt-$m.json" ] && cmp_args+=(--kt "$out/kt-$m.json"); done
confirm_files=("$out"/kt-confirm/*.json)
[ ${#confirm_files[@]} -gt 0 ] && cmp_args+=(--kt-confirm "${confirm_files[@]}")
python3 "$here/compare.py" "${cmp_args[@]}"
echo "wrote $out/comparison.md" >&2
