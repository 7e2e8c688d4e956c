#!/usr/bin/env bash
# Re-run Kernel Tuner 1.5.0's strategies with many fresh seeds on the cells where `auto` was
# still short of Kernel Tuner's best (docs/search-results.md, "What is not met yet"), so that
# the median and the 5th percentile compared with `auto`'s 1,000 runs rest on at least as
# many runs on Kernel Tuner's side. A 5th percentile of 100 runs is their fifth-smallest
# result; where a space's fractions of the optimum bunch near 0.90 it moves by 0.01-0.03
# between draws of 100 seeds (docs/search-results.md, "5th percentiles of 2,000 runs").
#
#   scripts/kt-compare/large-reruns.sh SPACES_DIR [OUT_DIR] [RUNS]
#
# SPACES_DIR holds the sets that scripts/search/all-spaces.sh writes (blind29, blind4, blind5,
# dev, ...). Each cell is written to OUT_DIR (default docs/search-results/kt/large) as
# SPACE__BUDGET-RUNSseeds.json.gz; a cell whose file exists is skipped, so the script resumes.
# Seeds start at 20000, apart from every earlier run (0-119 and 1000-1099).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
spaces="${1:?usage: large-reruns.sh SPACES_DIR [OUT_DIR] [RUNS]}"
out="${2:-$here/../../docs/search-results/kt/large}"
runs="${3:-1000}"
py="$here/.venv/bin/python"
[ -x "$py" ] || { echo "no Kernel Tuner venv at $py: run scripts/kt-compare/setup.sh first" >&2; exit 1; }
mkdir -p "$out"

# set/space budget strategies [runs]
cells=(
  "blind4/sw_adding__A100_PCIE 1% pso,random_sample,diff_evo,genetic_algorithm 2000"
  "blind5/clblast_xgemm_1_256__M1_Max 5% diff_evo,pso,random_sample,genetic_algorithm,bayes_opt 2000"
  "blind5/clblast_xgemm_1_256__M1_Max 1% bayes_opt"
  "blind5/clblast_xgemm_1_256__M1_Max 2% bayes_opt"
  "blind4/wmma_complex_gemm__RTX_4000_Ada 5% genetic_algorithm"
  "blind29/convolution_streams__GTX_TitanX_Maxwell 1% bayes_opt"
  "blind29/pnpoly_host__A100 2% pso"
  "blind5/coulomb_ktt__GTX_1070 1% bayes_opt"
  "blind5/coulomb_ktt__GTX_1070 2% random_sample"
  "blind5/clblast_xgemm_11_1024__M1_Max 2% diff_evo"
  "blind5/clblast_xgemm_11_1024__M1_Max 5% diff_evo"
  "blind5/clblast_xgemm_1_1024__M1_Max 5% diff_evo"
  "dev/dedispersion__A100 2% bayes_opt 300"
  "dev/convolution__A100 2% genetic_algorithm,simulated_annealing,diff_evo,pso 1000"
)
for cell in "${cells[@]}"; do
  read -r path budget strategies n <<<"$cell"
  n="${n:-$runs}"
  name="$(basename "$path")__${budget%\%}pct-${n}seeds.json"
  [ -e "$out/$name.gz" ] && { echo "have $name.gz"; continue; }
  cache="$spaces/$path.json.gz"
  [ -e "$cache" ] || { echo "no $cache: skipped" >&2; continue; }
  echo "$(date +%T) $path $budget $strategies x $n" >&2
  "$py" "$here/kt_run.py" --cache "$cache" --strategies "$strategies" --budgets "$budget" \
    --repeats "$n" --seed 20000 --jobs 2 --out "$out/$name.part"
  mv "$out/$name.part" "$out/$name" && gzip -9 "$out/$name"
done
