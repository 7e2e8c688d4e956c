//! `advise bench search` on a real recorded space: the CPU per search against the goal, its
//! summary by budget, and errors.

use std::path::Path;

use crate::common::{advise, pnpoly_space as space, run_json};
use predicates::prelude::*;

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
    // Reading and indexing the space are timed once, apart from the searches, and shown on each
    // of its rows; reading a file takes some CPU.
    let index = rows[0]["index_ms"].as_f64().unwrap();
    assert!(index >= 0.0 && rows.iter().all(|r| r["index_ms"].as_f64() == Some(index)));
    let load = rows[0]["load_ms"].as_f64().unwrap();
    assert!(load > 0.0 && rows.iter().all(|r| r["load_ms"].as_f64() == Some(load)));
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

/// A folder given as `--space` stands for the space files in it, in name order, for
/// `search-bench` and `bench search` alike; a folder with none is an error that names it.
#[test]
fn a_folder_of_spaces_stands_for_its_files() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/spaces");
    let dir = dir.to_str().unwrap();
    let v = run_json([
        "search-bench",
        "--space",
        dir,
        "--strategies",
        "random",
        "--budgets",
        "10",
        "--repeats",
        "2",
        "--no-charts",
        "--json",
    ]);
    let names: Vec<&str> = v["spaces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["space"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "KTPnpolyOutput_3090",
            "coulomb_2080_full_search_space_converted",
            "pnpoly__RTX_2080_Ti"
        ]
    );
    let v = run_json([
        "bench",
        "search",
        "--space",
        dir,
        "--budgets",
        "10",
        "--repeats",
        "1",
        "--json",
    ]);
    assert_eq!(v["rows"].as_array().unwrap().len(), 3);
    let empty = tempfile::tempdir().unwrap();
    advise()
        .args(["-q", "search-bench", "--space"])
        .arg(empty.path())
        .assert()
        .failure()
        .stderr(predicate::str::contains("no tuning space in it"));
}

/// A charts folder that cannot be written is a usage error before any search runs.
#[test]
fn an_unwritable_charts_folder_is_refused_before_the_runs() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a-file");
    std::fs::write(&file, "x").unwrap();
    let space = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/spaces/pnpoly__RTX_2080_Ti.json.gz");
    advise()
        .args([
            "-q",
            "search-bench",
            "--strategies",
            "random",
            "--budgets",
            "10",
            "--space",
        ])
        .arg(&space)
        .arg("--charts-dir")
        .arg(file.join("charts"))
        .assert()
        .code(2)
        .stdout("")
        .stderr(
            predicate::str::contains("--charts-dir")
                .and(predicate::str::contains("cannot write there")),
        );
}
