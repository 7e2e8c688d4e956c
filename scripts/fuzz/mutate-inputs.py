#!/usr/bin/env python3
"""Mutation fuzzing of advise's inputs: corrupt the real fixture files (tests/fixtures) and the
project's CUDA sources, run the commands that read them, and report every panic (exit status
101, "panicked" on standard error) or death by a signal. Bad input must give an error, never a
panic (docs/ARCHITECTURE.md's errors). Synthetic inputs made from real ones; nothing is kept but
the inputs that failed (in OUT, default /tmp/advise-fuzz).

    python3 scripts/fuzz/mutate-inputs.py [--seed S] [--cases N] [--sources] [--out OUT]

Each case picks a file and one mutation (truncation, byte flips, a duplicated, deleted or
shuffled line, numbers replaced by nan/inf/huge/empty/quoted values, a comma taken out of
lines, CRLF line ends, a byte-order mark or invalid UTF-8), writes it, and runs on it: `parse`,
`suggest --json`, `suggest --per-kernel --gpu 8.0 --report-dir` (profiles); `search --space`
and `import` (tuning spaces); with --sources, `static`, `static --json` and `blocksize` on the
CUDA files (they need nvcc). Seeded: the same seed gives the same cases.
"""
import argparse
import gzip
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WEIRD = ["nan", "inf", "-inf", "1e400", "-1", "0", "", "99999999999999999999", '"', ",", "n/a", "1,234.5"]


def load(path):
    data = path.read_bytes()
    return gzip.decompress(data) if path.suffix == ".gz" else data


def mutate(data, rng):
    b = bytearray(data)
    lines = bytes(b).split(b"\n")
    kind = rng.randrange(9)
    if kind == 0 and len(b) > 10:
        return bytes(b[: rng.randrange(len(b))])
    if kind == 1 and b:
        for _ in range(rng.randrange(1, 20)):
            b[rng.randrange(len(b))] = rng.randrange(256)
        return bytes(b)
    if kind == 2:
        lines.insert(rng.randrange(len(lines)), lines[rng.randrange(len(lines))])
    elif kind == 3:
        for _ in range(rng.randrange(1, 5)):
            if len(lines) > 1:
                del lines[rng.randrange(len(lines))]
    elif kind == 4:
        text = bytes(b).decode("latin1")
        text = re.sub(r"\d+\.\d+", lambda m: rng.choice(WEIRD) if rng.random() < 0.05 else m.group(0), text)
        return text.encode("latin1")
    elif kind == 5:
        for _ in range(5):
            i = rng.randrange(len(lines))
            lines[i] = lines[i].replace(b",", b"", 1)
    elif kind == 6:
        return bytes(b).replace(b"\n", b"\r\n")
    elif kind == 7:
        head, rest = lines[:3], lines[3:]
        rng.shuffle(rest)
        lines = head + rest
    else:
        return (b"\xef\xbb\xbf" + bytes(b)) if rng.random() < 0.5 else bytes(b) + b"\xff\xfe\x00"
    return b"\n".join(lines)


def commands(advise, case, origin, out):
    model = str(ROOT / "models/default.advisor.json.gz")
    if origin.parent.name == "spaces":
        tool = "ktt" if "KTP" in origin.name else "kernel-tuner"
        return [
            [advise, "-q", "search", "--space", case, "--budget", "5%"],
            [advise, "-q", "import", tool, case, "--out-dir", str(out / "import")],
        ]
    if origin.suffix in (".cu", ".ptx"):
        return [[advise, "-q", "static", case], [advise, "-q", "static", case, "--json"],
                [advise, "-q", "blocksize", case]]
    return [
        [advise, "-q", "parse", case],
        [advise, "-q", "suggest", "--ncu-csv", case, "--model", model, "--json"],
        [advise, "-q", "suggest", "--ncu-csv", case, "--model", model, "--per-kernel",
         "--gpu", "8.0", "--report-dir", str(out / "report")],
    ]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cases", type=int, default=200)
    ap.add_argument("--sources", action="store_true", help="fuzz the CUDA sources too (needs nvcc)")
    ap.add_argument("--out", default="/tmp/advise-fuzz")
    ap.add_argument("--advise", default=str(ROOT / "target/release/advise"))
    args = ap.parse_args()
    rng = random.Random(args.seed)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    skip = ("LICENSE", "EXPECTED", "PROVENANCE", "tuning-parameter")
    files = sorted(
        p for p in (ROOT / "tests/fixtures").rglob("*")
        if p.is_file() and not any(s in p.name for s in skip)
    )
    if args.sources:
        files += sorted((ROOT / "variants").rglob("*.cu"))
    bad = 0
    for n in range(args.cases):
        origin = rng.choice(files)
        ext = "".join(s for s in origin.suffixes if s != ".gz") or ".txt"
        case = out / f"case{ext}"
        case.write_bytes(mutate(load(origin), rng))
        for cmd in commands(args.advise, str(case), origin, out):
            shutil.rmtree(out / "import", ignore_errors=True)
            try:
                r = subprocess.run(cmd, capture_output=True, timeout=120, cwd=case.parent)
            except subprocess.TimeoutExpired:
                print(f"case {n}: timeout: {' '.join(cmd[2:4])} on a mutation of {origin.relative_to(ROOT)}")
                continue
            err = r.stderr.decode("utf8", "replace")
            if r.returncode == 101 or r.returncode < 0 or "panicked" in err:
                bad += 1
                keep = out / f"failed{bad}{ext}"
                shutil.copy(case, keep)
                print(f"case {n}: PANIC in {' '.join(cmd[2:4])} on a mutation of "
                      f"{origin.relative_to(ROOT)} (kept as {keep}): {err.strip()[-300:]}")
    print(f"{args.cases} cases (seed {args.seed}), {bad} panics")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
