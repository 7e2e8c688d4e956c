#!/usr/bin/env python3
"""Summarize a simulated campaign folder (advise collect --backend gpgpu-sim) for its PROVENANCE.md:
jobs per input and run by status, the largest force error against direct summation, and the
simulation's CPU time. Reads ledger.csv and timings.csv only; prints Markdown.

Usage: scripts/sim/summarize.py datasets/sim-qv100-nb [--write]
  --write  replace the "## Status" section of the folder's PROVENANCE.md with the summary
"""
import contextlib
import csv
import io
import sys
from collections import defaultdict


def main(folder):
    ledger = list(csv.DictReader(open(f"{folder}/ledger.csv")))
    last = {}
    for row in ledger:  # a retried job's last line counts
        last[row["job"]] = row
    by_input = defaultdict(lambda: defaultdict(int))
    seconds = 0.0
    for job, row in last.items():
        parts = job.split("/")
        key = parts[2] + ("" if len(parts) < 4 else " " + parts[3])
        by_input[key][row["status"]] += 1
        seconds += float(row["seconds"] or 0)
    print("| input | ok | mismatch | error |")
    print("|---|---|---|---|")
    for key in sorted(by_input, key=lambda k: (int(k.split(",")[0].split("=")[1]), k)):
        c = by_input[key]
        print(f"| {key} | {c['ok']} | {c['mismatch']} | {c['error']} |")
    errors = []
    for row in csv.DictReader(open(f"{folder}/timings.csv")):
        if row.get("force_error"):
            errors.append((float(row["force_error"]), row["variant"], row["input"]))
    print()
    print(f"Jobs: {len(last)}; simulation wall time of the finished jobs: {seconds / 3600:.1f} h.")
    if errors:
        worst = max(errors)
        print(
            f"Largest relative RMS force error against direct summation: {worst[0]:.3g} "
            f"({worst[1]}, {worst[2]}) over {len(errors)} runs."
        )


def write_status(folder):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        main(folder)
    path = f"{folder}/PROVENANCE.md"
    text = open(path).read()
    head, sep, _ = text.partition("## Status")
    if not sep:
        sys.exit(f"{path}: no '## Status' section to replace")
    open(path, "w").write(head + "## Status\n\n" + buf.getvalue())


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        sys.exit(__doc__)
    if "--write" in sys.argv[2:]:
        write_status(sys.argv[1])
    else:
        main(sys.argv[1])
