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

# tiles_of PROGRAM: the tiles (configurations) it is built with.
tiles_of() {
    case "$1" in
        transpose-*) echo "r4 r8 r16"; return ;;
        reduce-*) echo "b256e1 b512e1 b128e1 b256e2"; return ;;
    esac
    case " $RECT_PROGRAMS " in
        *" $1 "*) echo "$TILES $RECT_TILES" ;;
        *) echo "$TILES" ;;
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
# flags_of TILE: the -D flags of a written-for-advise program's configuration.
flags_of() {
    case "$1" in
        r*) echo "-DBLOCK_ROWS=${1#r}" ;;
        b*) local b="${1#b}"; echo "-DBLOCK=${b%e*} -DELEMS=${b#*e}" ;;
    esac
}
