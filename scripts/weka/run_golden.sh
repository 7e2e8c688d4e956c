#!/usr/bin/env bash
# Regenerate the Weka 3.6.14 golden predictions. Run from the repository root:
#   bash scripts/weka/run_golden.sh
# Needs Debian's weka package (/usr/share/java/weka.jar, 3.6.14) and a JDK (javac).
set -euo pipefail
JAR=${WEKA_JAR:-/usr/share/java/weka.jar}
G=tests/golden/weka
BUILD=$(mktemp -d)
trap 'rm -rf "$BUILD"' EXIT
javac -cp "$JAR" -d "$BUILD" scripts/weka/WekaPredict.java
CP="$JAR:$BUILD"

slug() { local s="${1:-default}"; s="${s//-/}"; s="${s// /}"; echo "${s:-default}"; }

declare -A CLS=([IBk]=weka.classifiers.lazy.IBk [M5P]=weka.classifiers.trees.M5P [LinearRegression]=weka.classifiers.functions.LinearRegression)
OPTS_IBk=("" "-K 3" "-K 3 -I" "-K 3 -F")
OPTS_M5P=("" "-N" "-U" "-R" "-M 10")
OPTS_LinearRegression=("" "-S 1" "-C")

DATASETS=(cpu:arff cpu_vendor:arff labor_wage:arff nvcc_flags:arff ktt_conv:csv nvprof_hotspot:csv)
CV_DATASETS=(cpu:arff cpu_vendor:arff labor_wage:arff ktt_conv:csv)

for ds in "${DATASETS[@]}"; do
  name=${ds%%:*}; ext=${ds##*:}
  for c in IBk M5P LinearRegression; do
    declare -n opts="OPTS_$c"
    for o in "${opts[@]}"; do
      out="$G/${name}__${c}__$(slug "$o").txt"
      java -cp "$CP" WekaPredict predict "${CLS[$c]}" "$o" "$G/data/${name}_train.$ext" "$G/data/${name}_test.$ext" "$out"
      echo "$out"
    done
    unset -n opts
  done
done

for ds in "${CV_DATASETS[@]}"; do
  name=${ds%%:*}; ext=${ds##*:}
  for c in IBk M5P LinearRegression; do
    out="$G/cv/${name}__${c}__x10_s1.csv"
    java -cp "$CP" WekaPredict cv "${CLS[$c]}" "" "$G/data/${name}.$ext" 10 1 "$out"
    echo "$out"
  done
done
