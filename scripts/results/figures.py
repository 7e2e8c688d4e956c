#!/usr/bin/env python3
"""Reduce advise's JSON output to the figures the README and docs quote, so that they can be
committed under docs/results/ and compared by tests/it/results.rs (which picks the same fields).

Usage: figures.py experiment|search|statuner|transfer < advise-output.json > figures.json
"""
import json
import sys


def experiment(doc):
    out = []
    for e in doc["experiments"]:
        t = e["total"]
        out.append({
            "name": e["name"],
            "method": e["method"],
            "baseline": e.get("baseline", False),
            "accuracy": t.get("accuracy"),
            "balanced_accuracy": t.get("balanced_accuracy"),
            "thesis_total": t.get("thesis_total"),
            "pp": t["pp"], "pn": t["pn"], "np": t["np"], "nn": t["nn"],
            "p_vs_majority": (e.get("vs_majority") or {}).get("p_value"),
        })
    res = {"experiments": out}
    for key in ("fidelity", "fidelity_measured", "agreement"):
        if key in doc:
            res[key] = doc[key]
    return res


def search(doc):
    keys = ["space", "strategy", "budget", "median_fraction", "p5_fraction", "evals_to_95"]
    return {"results": [{k: r.get(k) for k in keys} for r in doc["results"]]}


def statuner(doc):
    return {"mean": doc["mean"], "paper": doc["paper"]}


def transfer(doc):
    return doc


if __name__ == "__main__":
    kind = sys.argv[1]
    doc = json.load(sys.stdin)
    json.dump(globals()[kind](doc), sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
