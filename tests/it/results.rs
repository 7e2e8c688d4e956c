//! The figures in README.md and docs/ come from docs/results/*.json, which
//! scripts/results/regenerate.sh writes. This test re-runs the fast part of that script and
//! compares figure by figure, so a change that moves a published number fails here until the
//! script is run again (and the README checked).

use std::path::Path;

use serde_json::{json, Value};

use crate::common::run_json;

fn committed(name: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("docs/results")
        .join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}; run scripts/results/regenerate.sh", path.display()));
    serde_json::from_str(&text).unwrap()
}

/// The fields scripts/results/figures.py keeps of an experiment document.
fn experiment_figures(doc: &Value) -> Value {
    let exps: Vec<Value> = doc["experiments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let t = &e["total"];
            json!({
                "name": e["name"],
                "method": e["method"],
                "baseline": e.get("baseline").cloned().unwrap_or(json!(false)),
                "accuracy": t["accuracy"],
                "balanced_accuracy": t["balanced_accuracy"],
                "thesis_total": t["thesis_total"],
                "pp": t["pp"], "pn": t["pn"], "np": t["np"], "nn": t["nn"],
                "p_vs_majority": e["vs_majority"].get("p_value").cloned().unwrap_or(Value::Null),
            })
        })
        .collect();
    json!({ "experiments": exps })
}

/// The fields figures.py keeps of a search-bench document.
fn search_figures(doc: &Value) -> Value {
    let keys = [
        "space",
        "strategy",
        "budget",
        "median_fraction",
        "p5_fraction",
        "evals_to_95",
    ];
    let rows: Vec<Value> = doc["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let mut m = serde_json::Map::new();
            for k in keys {
                m.insert(k.into(), r.get(k).cloned().unwrap_or(Value::Null));
            }
            Value::Object(m)
        })
        .collect();
    json!({ "results": rows })
}

#[test]
fn fast_experiment_figures_are_the_committed_ones() {
    let doc = run_json([
        "experiment",
        "--dataset",
        "datasets/ktt-pnpoly-rtx2080ti",
        "--exp",
        "kfold",
        "--folds",
        "5",
        "--method",
        "ibk,m5p",
        "--json",
        "--summary",
    ]);
    assert_eq!(experiment_figures(&doc), committed("fast-experiment.json"));
}

#[test]
fn fast_search_figures_are_the_committed_ones() {
    let doc = run_json([
        "search-bench",
        "--space",
        "tests/fixtures/spaces/pnpoly__RTX_2080_Ti.json.gz",
        "--strategies",
        "random,ga,brt",
        "--budgets",
        "2%",
        "--repeats",
        "20",
        "--seed",
        "0",
        "--no-charts",
        "--threads",
        "1",
        "--json",
    ]);
    assert_eq!(search_figures(&doc), committed("fast-search.json"));
}

#[test]
fn statuner_figures_are_the_committed_ones() {
    let doc = run_json(["statuner", "--json"]);
    assert_eq!(
        json!({"mean": doc["mean"], "paper": doc["paper"]}),
        committed("statuner.json")
    );
}
