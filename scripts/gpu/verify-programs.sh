# Sourced by scripts/gpu/verify-advice.sh and scripts/sim/verify-advice-sim.sh (with ROOT set
# to the repository root): the programs of the check of advice against reality and, per
# program, how each is built, run and profiled.
# shellcheck shell=bash

# Matrix multiply (public, BSPGPU): patched at build time (verify-advice.sh's build).
PROGRAMS="matMul-Gm matMul-Gm-Un matMul-Sm matMul-Sm-Un"
TILES="8 16 32"
# Rectangular blocks, for the programs whose kernel indexes by block and thread alone (the
# shared-memory ones stage square tiles).
RECT_PROGRAMS="matMul-Gm matMul-Gm-Un"
RECT_TILES="32x16 16x32"
SRC="$ROOT/variants/verify/matmul"
# Programs written for advise, built from their own files with -D flags (no patching).
OWN_PROGRAMS="transpose-Gm transpose-Sm transpose-Sm-Pad reduce-Div reduce-Seq reduce-Seq-Un"

# Unified-memory versions (variants/verify/advise_um.h): the profiled tile with the input
# under XPlacer's policy K, tile suffix uK (the host's refill before each launch untimed, the
# pages it moves timed with the kernel), and tK (K from 0, device memory with its explicit copy:
# the refill timed too, so each version is compared whole), for one program of each
# written-for-advise family. GPGPU-Sim does not model managed memory:
# scripts/sim/verify-advice-sim.sh sets NO_UM=1.
UM_PROGRAMS="transpose-Sm reduce-Seq"
UM_POLICIES="1 2 3 4 5 6"

# Versions that change only how the profiled tile is compiled, for the suggestions advise gives
# these programs: FTZ (tile suffix `ftz`: nvcc -ftz=true) where the kernel does single-precision
# arithmetic, READ_ONLY (suffix `ro`: the kernel's pointers `__restrict__`, the input `const`;
# the matrix multiply patched, the others built with -DADVISE_RO=__restrict__).
FTZ_PROGRAMS="matMul-Gm matMul-Gm-Un matMul-Sm matMul-Sm-Un reduce-Div reduce-Seq reduce-Seq-Un"
RO_PROGRAMS="matMul-Gm matMul-Gm-Un transpose-Gm reduce-Seq"

# flag_tiles_of PROGRAM: its FTZ and READ_ONLY versions' tiles.
flag_tiles_of() {
    case " $FTZ_PROGRAMS " in *" $1 "*) printf '%sftz ' "$(profiled_of "$1")" ;; esac
    case " $RO_PROGRAMS " in *" $1 "*) printf '%sro ' "$(profiled_of "$1")" ;; esac
}

# um_tiles_of PROGRAM: its unified-memory versions' tiles (none unless in UM_PROGRAMS).
um_tiles_of() {
    local k
    [ -n "${NO_UM:-}" ] && return
    case " $UM_PROGRAMS " in *" $1 "*) ;; *) return ;; esac
    for k in $UM_POLICIES; do printf '%su%s ' "$(profiled_of "$1")" "$k"; done
    for k in 0 $UM_POLICIES; do printf '%st%s ' "$(profiled_of "$1")" "$k"; done
}

# tiles_of PROGRAM: the tiles (configurations) it is built with.
tiles_of() {
    case "$1" in
        transpose-*) echo "r4 r8 r16 $(um_tiles_of "$1")$(flag_tiles_of "$1")"; return ;;
        reduce-*) echo "b256e1 b512e1 b128e1 b256e2 $(um_tiles_of "$1")$(flag_tiles_of "$1")"; return ;;
    esac
    case " $RECT_PROGRAMS " in
        *" $1 "*) echo "$TILES $RECT_TILES $(flag_tiles_of "$1")" ;;
        *) echo "$TILES $(flag_tiles_of "$1")" ;;
    esac
}

# For each program: its source, the executable of a tile, the tile profiled, the kernel
# profiled, its arguments (WIDTH, TWIDTH and RN from the caller), and where it stands in the
# families advise cannot read from a profile (`--level`: elements per thread).
src_of() {
    case "$1" in
        transpose-*) echo "$ROOT/variants/verify/transpose/$1.cu" ;;
        reduce-*) echo "$ROOT/variants/verify/reduce/$1.cu" ;;
        *) echo "$SRC/$1.cu" ;;
    esac
}
exe_of() { case "$1" in matMul-*) echo "$1-t$2" ;; *) echo "$1-$2" ;; esac; }
profiled_of() { case "$1" in transpose-*) echo r8 ;; reduce-*) echo b256e1 ;; *) echo 16 ;; esac; }
kernel_of() { case "$1" in transpose-*) echo transpose ;; reduce-*) echo reduce ;; *) echo matMul ;; esac; }
args_of() { case "$1" in transpose-*) echo "$TWIDTH" ;; reduce-*) echo "$RN" ;; *) echo "$WIDTH 0" ;; esac; }
level_of() { case "$1" in transpose-*) echo "TILE_SIZE=4" ;; reduce-*) echo "TILE_SIZE=1" ;; esac; }
# level_args PROGRAM: `--level` and the level where the program has one, else nothing.
level_args() {
    local l
    l=$(level_of "$1")
    if [ -n "$l" ]; then echo "--level $l"; fi
}
# width_of PROGRAM: its first argument, the size timings.csv records.
width_of() { args_of "$1" | cut -d' ' -f1; }
# flags_of TILE: the -D flags of a written-for-advise program's configuration (a suffix uK:
# the input under unified-memory policy K; tK: the same with its refill timed; ftz and ro:
# flag_flags_of).
flags_of() {
    local t um=""
    um="$(flag_flags_of "$1")"
    t="$(base_tile "$1")"
    case "$t" in
        *u[0-9]) um="$um -DADVISE_UM=${t##*u}"; t="${t%u*}" ;;
        *t[0-9]) um="$um -DADVISE_UM=${t##*t} -DADVISE_FILL_TIMED=1"; t="${t%t*}" ;;
    esac
    case "$t" in
        r*) echo "-DBLOCK_ROWS=${t#r}$um" ;;
        b*) local b="${t#b}"; echo "-DBLOCK=${b%e*} -DELEMS=${b#*e}$um" ;;
    esac
}

# base_tile TILE: the tile without a flag version's suffix (ftz, ro).
base_tile() { local t="${1%ftz}"; echo "${t%ro}"; }
# flag_flags_of TILE: the nvcc flags of a flag version's suffix (with a leading space), or none.
flag_flags_of() {
    case "$1" in
        *ftz) echo " -ftz=true" ;;
        *ro) echo " -DADVISE_RO=__restrict__" ;;
    esac
}

# patch_matmul PROGRAM TILE OUT: the matrix multiply's file with Tile_Width set (a rectangular
# tile TXxTY: the block's x and y extents and the grid's set apart) and the authors' profiled
# region timed (variants/verify/advise_timing.h); fails, saying so, where a patch missed.
patch_matmul() {
    local v="$1" t out="$3" mark tx ty ro=""
    t="$(base_tile "$2")"
    # READ_ONLY's version: the kernel's pointers `__restrict__`, its inputs `const`.
    case "$2" in *ro) ro=1 ;; esac
    case "$t" in
        *x*)
            tx="${t%x*}" ty="${t#*x}"
            sed -e "s/^#define Tile_Width 16\$/#define Tile_Width 16\\n#define Tile_X $tx\\n#define Tile_Y $ty/" \
                -e 's/blockIdx\.x \* Tile_Width/blockIdx.x * Tile_X/' \
                -e 's/blockIdx\.y \* Tile_Width/blockIdx.y * Tile_Y/' \
                -e 's/dim3 gridDim(GridSize, GridSize);/dim3 gridDim((Width + Tile_X - 1) \/ Tile_X, (Width + Tile_Y - 1) \/ Tile_Y);/' \
                -e 's/dim3 blockDim(Tile_Width, Tile_Width);/dim3 blockDim(Tile_X, Tile_Y);/' \
                "$SRC/$v.cu" > "$out.in"
            set -- "Tile_X $tx" "Tile_Y $ty" "blockIdx.x \* Tile_X" "blockIdx.y \* Tile_Y" \
                "gridDim((Width + Tile_X" "blockDim(Tile_X, Tile_Y)"
            ;;
        *)
            sed -e "s/^#define Tile_Width 16\$/#define Tile_Width $t/" "$SRC/$v.cu" > "$out.in"
            set -- "Tile_Width $t"
            ;;
    esac
    if [ -n "$ro" ]; then
        sed -i -e 's/^__global__ void matMul(float\* Pd, float\* Md, float\* Nd, int Width)/__global__ void matMul(float* __restrict__ Pd, const float* __restrict__ Md, const float* __restrict__ Nd, int Width)/' "$out.in"
        set -- "$@" "const float\* __restrict__ Md"
    fi
    sed -e 's/cudaProfilerStart();/ADVISE_BEGIN/' \
        -e 's/cudaProfilerStop();/ADVISE_END/' \
        -e 's/\(printf("Device: %s\\n", prop.name);\)/\1 ADVISE_CHECKSUM(P, Width * Width)/' \
        "$out.in" > "$out"
    rm -f "$out.in"
    for mark in "$@" ADVISE_BEGIN ADVISE_END ADVISE_CHECKSUM; do
        grep -q "$mark" "$out" || { echo "verify-advice: patching $v.cu failed ($mark missing)" >&2; return 1; }
    done
}

# source_for DIR PROGRAM TILE: the file nvcc compiles (a matrix multiply patched into DIR).
source_for() {
    case "$2" in
        matMul-*) patch_matmul "$2" "$3" "$1/$2-t$3.cu" && echo "$1/$2-t$3.cu" ;;
        *) src_of "$2" ;;
    esac
}

# build_flags PROGRAM TILE: the nvcc flags of a build beside the architecture's.
build_flags() {
    case "$1" in
        # READ_ONLY's matrix multiply is patched (patch_matmul), not built with -DADVISE_RO.
        matMul-*)
            case "$2" in
                *ftz) echo "-include $ROOT/variants/verify/advise_timing.h -ftz=true" ;;
                *) echo "-include $ROOT/variants/verify/advise_timing.h" ;;
            esac
            ;;
        *) flags_of "$2" ;;
    esac
}
