#!/usr/bin/env bash
# Writes every real tuning space that docs/search-results.md measures `auto` on, set by set,
# from clones of the public repositories that hold them (scripts/kt-compare/README.md says
# where each comes from and how it is made; this script only runs those steps in one go):
#
#   scripts/search/all-spaces.sh GIT_ROOT OUT_DIR
#
# GIT_ROOT holds one clone per repository, either as GIT_ROOT/<owner>+<name>/repo (a bare
# snapshot, as this project's `fetch` tool writes them) or as GIT_ROOT/<name>/.git. Missing
# repositories are reported and their sets skipped. OUT_DIR gets one folder per set:
#
#   dev      the 15 development spaces (benchmark_hub's 12 at 8eeb99e, the 3 older
#            convolution caches of datasets/tuning-spaces)
#   history  benchmark_hub's three history spaces
#   paper    the two spaces of Willemsen's search-space paper
#   rtx      the 12 RTX caches of shared/data (copied; SHARED_DATA overrides ../shared/data)
#   blind29  Schoonhoven et al.'s 23 and van Werkhoven's 2018 paper's 6
#   blind2   ExpDist K40c and the 2017 convolution with streams
#   blind3   the five spaces of session 53, the 241,600-configuration UCI SGEMM among them
#   blind4   two spaces of session 63: RTE-RRTMGP's shortwave adding kernel on an A100 and a
#            tensor-core complex GEMM on an RTX 4000 Ada (with 10 clock frequencies)
#   blind5   five small spaces of session 65: KTT's Coulomb sum on an RTX 2080 Ti and a GTX
#            1070 (210 configurations each), CLBlast's Xgemm on an Apple M1 Max (407-488)
#   blind6   one space of session 85: a 2D convolution (15x15 filter) on an AMD MI50, 864
#            configurations of which 450 failed, from Willemsen's PhD-autotuning repository
#            at a commit before its caches were removed (not benchmark_hub's MI50 space)
#   ktt      the four KTT 2.1.0 outputs of shared/data (convolution and pnpoly on an RTX 2080
#            Ti and an RTX 3090), benchmark_hub's `currently_unused/cachefiles/KTT data/`:
#            development spaces since the first search sessions, first set beside Kernel
#            Tuner in session 81
set -uo pipefail
root="${1:?usage: all-spaces.sh GIT_ROOT OUT_DIR}"
out="${2:?usage: all-spaces.sh GIT_ROOT OUT_DIR}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$here/../.." && pwd)"
kt="$repo_root/scripts/kt-compare"
shared="${SHARED_DATA:-$repo_root/../shared/data}"
failed=0

# The git directory of owner/name under GIT_ROOT, or nothing.
gitdir() {
    local owner="$1" name="$2"
    for d in "$root/$owner+$name/repo" "$root/$name/.git" "$root/$name"; do
        if git --git-dir="$d" rev-parse --git-dir >/dev/null 2>&1; then
            echo "$d"
            return
        fi
    done
}

# The git directory of a set's repository (and the set's folder made), or a note and status 1
# (run in a command substitution: the caller records the failure).
need() {
    local set="$1" owner="$2" name="$3" dir
    dir="$(gitdir "$owner" "$name")"
    if [ -z "$dir" ]; then
        echo "all-spaces: $set: no clone of github.com/$owner/$name under $root; skipped" >&2
        return 1
    fi
    mkdir -p "$out/$set"
    echo "$dir"
}

step() {
    if ! "$@"; then
        echo "all-spaces: failed: $*" >&2
        failed=1
    fi
}

if hub="$(need dev AutoTuningAssociation benchmark_hub)"; then
    for kernel in convolution dedispersion; do
        for gpu in A100 A4000 A6000 MI250X W6600 W7800; do
            step git --git-dir="$hub" show "8eeb99e:cachefiles/${kernel}_milo/$gpu.json.gz" \
                > "$out/dev/${kernel}__$gpu.json.gz"
        done
    done
    cp "$repo_root"/datasets/tuning-spaces/convolution__*.json.gz "$out/dev/"
    mkdir -p "$out/history"
    step bash "$kt/history-spaces.sh" "$hub" "$out/history"
else
    failed=1
fi

if d="$(need paper fjwillemsen kernel_tuner_paper)"; then
    step python3 "$kt/paper-spaces.py" "$d" "$out/paper"
else
    failed=1
fi

if [ -d "$shared/kerneltuner-caches-rtx" ]; then
    mkdir -p "$out/rtx"
    cp "$shared"/kerneltuner-caches-rtx/*.json.gz "$out/rtx/"
else
    echo "all-spaces: rtx: no $shared/kerneltuner-caches-rtx; skipped" >&2
    failed=1
fi

B="$kt/benchmarking-spaces.py"
# spaces SET OWNER NAME MODE [ARGS ...]: benchmarking-spaces.py MODE on that repository's clone.
spaces() {
    local set="$1" owner="$2" name="$3" mode="$4" d
    shift 4
    if d="$(need "$set" "$owner" "$name")"; then
        step python3 "$B" "$mode" "$d" "$@" "$out/$set"
    else
        failed=1
    fi
}
spaces blind29 schoonhovenrichard GPU_benchmarking_paper paper
spaces blind29 benvanwerkhoven kernel_tuner_paper ktp18
spaces blind2 benvanwerkhoven expdist list 6aa2007f9e44faab5f7c96f4c5f63f1d43e022fe \
    tuning/expdist.json expdist K40c
spaces blind2 benvanwerkhoven tuning_kernels list c77c5090b6b583c2303b01503dfd1aca0609346a \
    convolution_streams.json convolution_streams2017 unknownGPU
for spec in "bdf6878f1df98ce75100a5145609927966083684 A100" \
    "bdf6878f1df98ce75100a5145609927966083684 W6600" \
    "c7650bd11167d7170f6bde726158a12e37138675 MI250X"; do
    set -- $spec
    spaces blind3 MiloLurati AutoTuning_AMD_vs_Nvidia_GPUs cache "$1" \
        "cache_files/convolution_$2.json" "convolution_milo2442__$2"
done
spaces blind3 Maartenvm kernel_tuner_visualization list 957d36bd926aade52685dac3c7d5048d62156e08 \
    data/pnpoly.json pnpoly2017 unknownGPU
spaces blind3 Sarthak-Mohapatra \
    Classification-of-GPU-Run-as-high-or-low-time-consuming-using-various-classification-Algorithms. \
    uci-sgemm 7597991528265c0719d6ac31d40c9851a38ba8b4 sgemm_product_dataset.zip
spaces blind4 fjwillemsen PhD-autotuning list 0f1671026f6de25e63d87431306c8e76c0245452 \
    old_cached_data_used/adding_kernel/timings_sw_adding_kernel.json sw_adding A100_PCIE
spaces blind4 nlesc-recruit powersensor3-results cache-time \
    0d6cadfb5217bfae5d0a9016e73c8b6068c0fbdf \
    GPU-tuning/AD4000_wmma_complex_gemm_opt_16bit_1x4096x4096x4096.json \
    wmma_complex_gemm__RTX_4000_Ada
spaces blind5 HiPerCoRe KTT ktt 38d7ce5b502df92dbcccacc34f9aed26775ebd52 \
    Examples/CoulombSum3d/coulomb_2080_full_search_space.json coulomb_ktt__RTX_2080_Ti
spaces blind5 HiPerCoRe KTT ktt e1ac8b3044b86214958323901169654e29fd2cff \
    Tutorials/08ProfileBasedSearcher/TuningOutput.json coulomb_ktt__GTX_1070
for spec in "clblast_xgemm_1_32.json xgemm_1_1024" "cl.json xgemm_1_256" \
    "clblast_xgemm_11_32.json xgemm_11_1024"; do
    set -- $spec
    spaces blind5 rhochgraf21 PortabilityTune clblast 19946f3ed076eca880b3d1486e85692eac63ab79 \
        "CLBlast/scripts/benchmark/$1" "clblast_${2}__M1_Max"
done
spaces blind6 fjwillemsen PhD-autotuning cache 330249b7311f3ab6b36802fcd8927d4a1fbfa691 \
    cached_data_used/cache_files/convolution_MI50.json convolution_phd2021__MI50

if hub="$(need ktt AutoTuningAssociation benchmark_hub)"; then
    for spec in "KTConvolutionOutput_2080Ti convolution_ktt__RTX_2080_Ti" \
        "KTConvolutionOutput_3090 convolution_ktt__RTX_3090" \
        "KTPnpolyOutput_2080Ti pnpoly_ktt__RTX_2080_Ti" "KTPnpolyOutput_3090 pnpoly_ktt__RTX_3090"; do
        set -- $spec
        step python3 "$B" ktt "$hub" 8eeb99e7179e6838af95d392ac6c60cebfd8c434 \
            "currently_unused/cachefiles/KTT data/$1.json.gz" "$2" "$out/ktt"
    done
else
    failed=1
fi

for set in dev history paper rtx blind29 blind2 blind3 blind4 blind5 blind6 ktt; do
    [ -d "$out/$set" ] && echo "$set: $(ls "$out/$set" | grep -c '\.json\.gz$') spaces"
done
exit "$failed"
