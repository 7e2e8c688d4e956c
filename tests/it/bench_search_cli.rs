//! `advise bench search` on a real recorded space: the CPU per search against the goal, its
//! summary by budget, and errors.

use std::path::{Path, PathBuf};

use crate::common::{advise, run_json};
use predicates::prelude::*;

fn space() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/spaces/pnpoly__RTX_2080_Ti.json.gz")
}

/// `advise bench search`: one row per space and budget, the CPU per search and its ratio to
/// the goal (not a speed check: the figures depend on the machine).
#[test]
fn bench_search_gives_each_budget_its_cpu_and_ratio_to_the_goal() {
    let v = run_json([
        "bench",
        "search",
        "--budgets",
        "1%,60,1%",
        "--repeats",
        "3",
        "--target-ms",
        "2",
        "--json",
        "--space",
        space().to_str().unwrap(),
    ]);
    assert_eq!(v["strategy"], "auto");
    let rows = v["rows"].as_array().unwrap();
    let budgets: Vec<&str> = rows.iter().map(|r| r["budget"].as_str().unwrap()).collect();
    assert_eq!(budgets, ["1%", "60"]);
    assert_eq!(rows[0]["evaluations"], 41);
    let mut worst: f64 = 0.0;
    for r in rows {
        assert_eq!(r["searches"], 3);
        let (cpu, ratio) = (r["cpu_ms"].as_f64().unwrap(), r["ratio"].as_f64().unwrap());
        assert!(cpu > 0.0 && r["wall_ms"].as_f64().unwrap() > 0.0);
        assert!((ratio - cpu / 2.0).abs() < 1e-12);
        worst = worst.max(ratio);
    }
    assert_eq!(v["worst_ratio"].as_f64().unwrap(), worst);
    // Indexing the space is timed once, apart from the searches, and shown on each of its rows.
    let index = rows[0]["index_ms"].as_f64().unwrap();
    assert!(index >= 0.0 && rows.iter().all(|r| r["index_ms"].as_f64() == Some(index)));
    // One summary per budget, over the one space.
    let by = v["budgets"].as_array().unwrap();
    assert_eq!(by.len(), 2);
    for (b, r) in by.iter().zip(rows) {
        assert_eq!(b["budget"], r["budget"]);
        assert_eq!(b["spaces"], 1);
        assert_eq!(b["mean_cpu_ms"], r["cpu_ms"]);
        assert_eq!(b["worst_ratio"], r["ratio"]);
    }
}

#[test]
fn bench_search_names_a_missing_space() {
    advise()
        .args(["bench", "search", "--space", "no/such/space.json.gz"])
        .assert()
        .code(5)
        .stderr(predicate::str::contains(
            "no/such/space.json.gz: No such file",
        ));
}
