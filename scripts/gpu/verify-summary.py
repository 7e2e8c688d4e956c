#!/usr/bin/env python3
"""Advice against reality: the table of predicted against measured speedups from a folder that
scripts/gpu/verify-advice.sh packed (datasets/verify-<date>), written as DIR/summary.md.

For each profiled program (at its profiled tile: matrix multiply's published 16, transpose's
r8, reduction's b256e1) and each of advise's suggestions that the folder holds a version for,
it compares the predicted direction with the measured one:

  matrix multiply
  SHMEM       matMul-Gm -> matMul-Sm, matMul-Gm-Un -> matMul-Sm-Un (same tile)
  BLOCK_SIZE  tile 16 -> 32x16 and 16x32 (the global-memory programs; 256 -> 512 threads, the
              one doubling advise's step model predicts, where the folder has them) and
              16 -> 32 (256 -> 1,024 threads, two doublings), against the predicted speedup
              of raising it; a suggestion to lower the block (where doubling it would not
              launch) against tile 8 (64 threads)
  transpose (blocks of 32 x BLOCK_ROWS threads, 32 / BLOCK_ROWS elements each)
  SHMEM       transpose-Gm -> transpose-Sm (r8)
  PADDING     transpose-Sm -> transpose-Sm-Pad (r8)
  BLOCK_SIZE  r8 -> r16 (256 -> 512 threads); lowered: r8 -> r4 (128 threads)
  TILE_SIZE   r8 -> r4 (4 -> 8 elements per thread, 128 threads)
  reduction (blocks of BLOCK threads adding ELEMS inputs each first; reduce-Div -> reduce-Seq
  removes divergence that depends on thread indices, which no entry of advise's catalogue
  names: WARP is divergence on loaded data)
  UNROLL      reduce-Seq -> reduce-Seq-Un
  BLOCK_SIZE  b256e1 -> b512e1; lowered: b256e1 -> b128e1
  TILE_SIZE   b256e1 -> b256e2 (1 -> 2 inputs per thread)
  compiled differently, at the profiled tile (scripts/gpu/verify-programs.sh)
  FTZ         the same built with -ftz=true (tile suffix ftz: the matrix multiplies and the
              reductions, whose kernels do single-precision arithmetic)
  READ_ONLY   the same with the kernel's pointers __restrict__ and its input const (suffix ro:
              matMul-Gm, matMul-Gm-Un, transpose-Gm, reduce-Seq)
  unified memory (transpose-Sm at r8, reduce-Seq at b256e1; variants/verify/advise_um.h)
  UM_MANAGED, UM_READ_MOSTLY, UM_PREFERRED_GPU, UM_ACCESSED_BY_GPU, UM_PREFERRED_CPU,
  UM_ACCESSED_BY_CPU   the profiled tile -> the same with the input under that policy
              (tiles r8u1 ... r8u6, b256e1u1 ... b256e1u6, XPlacer's policies 1-6: the
              host's refill before each launch untimed); where the folder has them, instead
              t0 -> tK (r8t0 ... r8t6, b256e1t0 ... b256e1t6: the refill timed in both, t0
              the device-memory program with its explicit copy), the whole fill-and-run

Other suggestions have no version here and are listed as not checked. A measured speedup is
the median kernel time before over the median after (every timed launch of every process);
within 2% of 1 it counts as no clear effect, as in advise's experiments, and so does a
predicted speedup within 2% of 1 (a measured effect either way makes it wrong, none measured
right). Directions are counted where the measured effect is beyond 2%; the verdicts on every
version measured. Versions whose
checksum differs from the program's by more than 1e-3 (relative) are flagged.

    python3 scripts/gpu/verify-summary.py datasets/verify-<date>

A folder made by scripts/sim/verify-advice-sim.sh (it holds simulator.txt) is the same check
on GPGPU-Sim: its table is titled and labelled SIMULATED, its times are simulated cycles.

With --current ADVISE OUT.md it asks today's advisor instead (`ADVISE -q suggest --json` on each
stored profile, with the program's source where nvcc is at hand) and writes the same table to
OUT.md: the same measurements judge every later advisor, at no GPU time.

    python3 scripts/gpu/verify-summary.py datasets/verify-<date> --current target/release/advise OUT.md
"""
import csv
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

BAND = 0.02
# The verdicts a user can act on (advise's recommend::suggest); "uncertain" is none of them.
VERDICTS = ("recommend", "not recommended", "no clear effect")
# The class of measured effect each verdict predicts (`direction`).
VERDICT_CLASS = dict(zip(VERDICTS, ("faster", "slower", "none")))
# Versions that add one optimization of the catalogue to a program (same tile).
ADDS = {
    "SHMEM": {
        "matMul-Gm": "matMul-Sm",
        "matMul-Gm-Un": "matMul-Sm-Un",
        "transpose-Gm": "transpose-Sm",
    },
    "PADDING": {"transpose-Sm": "transpose-Sm-Pad"},
    "UNROLL": {"reduce-Seq": "reduce-Seq-Un"},
}
ADDED = {
    "SHMEM": "shared-memory version",
    "PADDING": "padded version",
    "UNROLL": "unrolled version",
}
# Versions of the profiled tile compiled differently (verify-programs.sh's flag_tiles_of): the
# optimization, the tile suffix, and its label.
FLAGS = {
    "FTZ": ("ftz", "built with -ftz=true"),
    "READ_ONLY": ("ro", "pointers __restrict__, input const"),
}
# XPlacer's data-placement policies (variants/verify/advise_um.h's ADVISE_UM): the version of a
# program with its input under policy K is its profiled tile with the suffix uK (the host's
# refill untimed), or tK (the refill timed, compared with t0: device memory, its copy timed).
UM = {
    "UM_MANAGED": (1, "managed"),
    "UM_READ_MOSTLY": (2, "managed, read-mostly"),
    "UM_PREFERRED_GPU": (3, "managed, preferred on the GPU"),
    "UM_ACCESSED_BY_GPU": (4, "managed, accessed by the GPU"),
    "UM_PREFERRED_CPU": (5, "managed, preferred on the CPU"),
    "UM_ACCESSED_BY_CPU": (6, "managed, accessed by the CPU"),
}
# Per program family: the tile profiled, and the tiles that raise the block size, lower it, and
# raise the elements per thread, with their labels.
FAMILIES = {
    "matMul-": {
        "profiled": "16",
        "raise": [
            ("32x16", "tile 32x16 (512 threads per block)"),
            ("16x32", "tile 16x32 (512 threads per block)"),
            ("32", "tile 32 (1,024 threads per block)"),
        ],
        "lower": [("8", "tile 8 (64 threads per block)")],
        "tile": [],
        "tiles": ["8", "16", "32", "32x16", "16x32", "16ftz", "16ro"],
    },
    "transpose-": {
        "profiled": "r8",
        "raise": [("r16", "r16 (512 threads per block, 2 elements each)")],
        "lower": [("r4", "r4 (128 threads per block, 8 elements each)")],
        "tile": [("r4", "r4 (8 elements per thread, 128 threads per block)")],
        "tiles": ["r4", "r8", "r16", "r8ro"]
        + [f"r8u{k}" for k in range(1, 7)]
        + [f"r8t{k}" for k in range(0, 7)],
    },
    "reduce-": {
        "profiled": "b256e1",
        "raise": [("b512e1", "b512e1 (512 threads per block)")],
        "lower": [("b128e1", "b128e1 (128 threads per block)")],
        "tile": [("b256e2", "b256e2 (2 inputs per thread)")],
        "tiles": ["b128e1", "b256e1", "b512e1", "b256e2", "b256e1ftz", "b256e1ro"]
        + [f"b256e1u{k}" for k in range(1, 7)]
        + [f"b256e1t{k}" for k in range(0, 7)],
    },
}
# What `advise profile` was told of each family (verify-advice.sh's kernel_of, level_of) and
# where its sources are.
KERNEL = {"matMul-": "matMul", "transpose-": "transpose", "reduce-": "reduce"}
LEVEL = {"transpose-": "TILE_SIZE=4", "reduce-": "TILE_SIZE=1"}
SOURCES = {"matMul-": "matmul", "transpose-": "transpose", "reduce-": "reduce"}


def family(program):
    return next(f for f in FAMILIES if program.startswith(f))


def medians(path):
    times = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            times.setdefault((row["program"], row["tile"]), []).append(float(row["ms"]))
    return {k: (statistics.median(v), len(v)) for k, v in times.items()}


def checksums(path):
    with open(path, newline="") as f:
        return {(r["program"], r["tile"]): float(r["checksum"]) for r in csv.DictReader(f)}


def counterparts(program, suggestion, med):
    """The versions that check a suggestion for `program`, in order: (key, label, base) with
    the measured version's key and the key of the version it is compared with."""
    name, predicted = suggestion["optimization"], suggestion["predicted_speedup"]
    fam = FAMILIES[family(program)]
    profiled = (program, fam["profiled"])
    if name in ADDS and program in ADDS[name]:
        return [((ADDS[name][program], fam["profiled"]), ADDED[name], profiled)]
    if name in FLAGS:
        suffix, label = FLAGS[name]
        return [((program, fam["profiled"] + suffix), label, profiled)]
    if name in UM:
        k, label = UM[name]
        timed = (program, f"{fam['profiled']}t{k}"), (program, f"{fam['profiled']}t0")
        # Whole where the folder has it: refill and kernel against copy and kernel.
        if all(t in med for t in timed):
            return [(timed[0], f"input {label}, refill timed (device memory: its copy)", timed[1])]
        return [((program, f"{fam['profiled']}u{k}"), f"input {label}", profiled)]
    if predicted is None:
        return []
    step = suggestion.get("step") or {}
    if name == "BLOCK_SIZE" and step.get("to", 0) < step.get("level", 0):
        # Lowered where the doubled block would not launch.
        return [((program, t), label, profiled) for t, label in fam["lower"]]
    if name == "BLOCK_SIZE":
        return [((program, t), label, profiled) for t, label in fam["raise"]]
    if name == "TILE_SIZE":
        return [((program, t), label, profiled) for t, label in fam["tile"]]
    return []


def direction(speedup):
    if abs(speedup - 1) < BAND:
        return "none"
    return "faster" if speedup > 1 else "slower"


def current_suggestions(d, advise, into):
    """Today's advisor on each stored profile: PROGRAM.suggest.json files in `into`."""
    repo = Path(__file__).resolve().parents[2]
    with_source = shutil.which("nvcc") is not None
    profiles = list((d / "profiles").glob("*/ncu.csv"))
    profiles += list((d / "profiles").glob("*/gpgpusim.log.gz"))
    for profile in sorted(profiles):
        program = profile.parent.name
        fam = family(program)
        cmd = [advise, "-q", "suggest", "--json", "--kernel", KERNEL[fam], "--profile", str(profile)]
        if fam in LEVEL:
            cmd += ["--level", LEVEL[fam]]
        source = repo / "variants/verify" / SOURCES[fam] / f"{program}.cu"
        if with_source and source.is_file():
            cmd += ["--source", str(source)]
        out = subprocess.run(cmd, check=True, capture_output=True, text=True, cwd=repo).stdout
        (into / f"{program}.suggest.json").write_text(out)
    return with_source


def main(folder, current=None):
    d = Path(folder)
    med = medians(d / "timings.csv")
    sums = checksums(d / "checksums.csv")
    if current:
        advise, out_path = current
        tmp = tempfile.TemporaryDirectory()
        suggest_dir = Path(tmp.name)
        with_source = current_suggestions(d, advise, suggest_dir)
        made = (
            f"Made by scripts/gpu/verify-summary.py --current: today's advisor "
            f"(`advise suggest` on profiles/*/ncu.csv"
            f"{', with the program source' if with_source else ', without the source: no nvcc'}) "
            f"against the measurements of {d.name} (timings.csv)."
        )
    else:
        suggest_dir, out_path = d / "profiles", d / "summary.md"
        made = (
            "Made by scripts/gpu/verify-summary.py from the measurements in this folder "
            "(versions.txt, timings.csv, profiles/*.suggest.json)."
        )
    # A folder of scripts/sim/verify-advice-sim.sh: every time and counter is simulated.
    simulated = d / "simulator.txt"
    title = "Advice against SIMULATED reality" if simulated.is_file() else "Advice against reality"
    lines = [f"# {title}: {d.name}", "", made, ""]
    if simulated.is_file():
        lines += [
            "**SIMULATED**: "
            + " ".join(simulated.read_text().split())
            + ". The measured column is simulated cycles before over after.",
            "",
        ]
    lines += [
        "| program | suggestion | predicted | confidence | verdict | checked with | measured | right? |",
        "|---|---|---:|---:|---|---|---:|---|",
    ]
    # Beside advise, the baseline every figure is judged against: always recommending.
    checked = right = faster = 0
    # What a user who acts only on the verdicts would get: "recommend", "not recommended" and
    # "no clear effect" (which advise gives only where its validation beat a coin toss, as the
    # other two); "uncertain" is no verdict. Judged on every version measured, a measured
    # effect within the band included, so that "no clear effect" can be right as well as wrong:
    # right where the predicted class (faster, none, slower) is the measured one.
    acted = acted_right = acted_faster = 0
    for path in sorted(suggest_dir.glob("*.suggest.json")):
        program = path.name[: -len(".suggest.json")]
        profiled = FAMILIES[family(program)]["profiled"]
        before = med.get((program, profiled))
        suggestions = json.loads(path.read_text()).get("suggestions", [])
        if not suggestions:
            lines.append(f"| {program} | (none) | | | | | | |")
        for s in suggestions:
            pred = s.get("predicted_speedup")
            head = [
                program,
                s["optimization"],
                f"{pred:.2f}x" if pred is not None else "-",
                f"{s.get('confidence', float('nan')):.2f}",
                s.get("verdict", ""),
            ]
            versions = [
                (k, label, base)
                for k, label, base in counterparts(program, s, med)
                if k in med and base in med
            ]
            if not before or not versions:
                lines.append("| " + " | ".join(head + ["not checked: no version of it here", "-", "-"]) + " |")
            for key, label, base in versions if before else []:
                speedup = med[base][0] / med[key][0]
                flag = ""
                if key in sums and base in sums:
                    a, b = sums[base], sums[key]
                    if abs(a - b) > 1e-3 * max(abs(a), 1e-30):
                        flag = " (checksum differs)"
                got = direction(speedup)
                # A prediction within the band predicts no clear effect: a measured effect
                # either way proves it wrong, none measured proves it right. A verdict says
                # which class it predicts: where the majority rule's median lies within the
                # band but its training pairs moved mostly one way, "recommend" or "not
                # recommended" stands beside a prediction within it (advise's
                # recommend::suggest::majority_rule::lopsided).
                verdict = s.get("verdict")
                if verdict in VERDICT_CLASS:
                    want = VERDICT_CLASS[verdict]
                else:
                    want = direction(pred) if pred is not None else "none"
                if got == "none":
                    ok = "yes" if want == "none" else "no clear effect"
                else:
                    ok = "yes" if got == want else "no"
                checked += got != "none"
                right += ok == "yes" and got != "none"
                faster += got == "faster"
                if s.get("verdict") in VERDICTS:
                    acted += 1
                    acted_right += got == want
                    acted_faster += got == "faster"
                lines.append("| " + " | ".join(head + [label + flag, f"{speedup:.2f}x", ok]) + " |")
    lines += [
        "",
        f"Directions checked (a {'simulated' if simulated.is_file() else 'measured'} effect "
        f"beyond {BAND:.0%}): {checked}; "
        f"predicted right: {right}; always recommending would have been right on {faster}.",
        "",
        f"Of all the versions measured (within {BAND:.0%} too), with a verdict (\"recommend\", "
        f"\"not recommended\" or \"no clear effect\"; the rest are \"uncertain\"): {acted}; "
        f"right (the measured class of faster, no clear effect or slower): {acted_right}"
        + (
            f" ({acted_right / acted:.0%}; always recommending: {acted_faster} of the same "
            f"{acted}, and {faster / checked:.0%} of the {checked} directions above)."
            if acted and checked
            else "."
        ),
        "",
        "Median kernel times (ms; timed launches"
        + ("; SIMULATED: cycles at the core clock, one launch" if simulated.is_file() else "")
        + "):",
        "",
    ]
    first = True
    for fam, spec in FAMILIES.items():
        programs = sorted({p for p, _ in med if p.startswith(fam)})
        tiles = [t for t in spec["tiles"] if any(k[1] == t for k in med)]
        if not programs or not tiles:
            continue
        lines += [] if first else [""]
        first = False
        lines += [
            "| program | " + " | ".join(f"tile {t}" for t in tiles) + " |",
            "|---|" + "---:|" * len(tiles),
        ]
        for program in programs:
            # Simulated launches of a few microseconds want more decimals.
            digits = 6 if simulated.is_file() else 4
            cells = [
                f"{med[(program, t)][0]:.{digits}f} ({med[(program, t)][1]})"
                if (program, t) in med
                else "-"
                for t in tiles
            ]
            lines.append(f"| {program} | " + " | ".join(cells) + " |")
    Path(out_path).write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    if len(sys.argv) == 2:
        main(sys.argv[1])
    elif len(sys.argv) == 5 and sys.argv[2] == "--current":
        main(sys.argv[1], (sys.argv[3], sys.argv[4]))
    else:
        sys.exit(__doc__)
