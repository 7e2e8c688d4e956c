//! The files `advise search` and `search-bench` write beside their reports: every run
//! (`--runs-csv`) and every measurement of a search (`--trace`), on a real recorded space.

use crate::common::{advise, pnpoly_space as space, run_json};
use predicates::prelude::*;

#[test]
fn search_bench_runs_csv_holds_every_run() {
    let dir = tempfile::tempdir().unwrap();
    let csv_path = dir.path().join("runs.csv");
    let v = run_json([
        "search-bench".as_ref(),
        "--strategies".as_ref(),
        "random,auto".as_ref(),
        "--budgets".as_ref(),
        "2%".as_ref(),
        "--repeats".as_ref(),
        "5".as_ref(),
        "--seed".as_ref(),
        "7".as_ref(),
        "--no-charts".as_ref(),
        "--json".as_ref(),
        "--runs-csv".as_ref(),
        csv_path.as_os_str(),
        "--space".as_ref(),
        space().as_os_str(),
    ]);
    let mut reader = csv::Reader::from_path(&csv_path).unwrap();
    let rows: Vec<csv::StringRecord> = reader.records().map(|r| r.unwrap()).collect();
    assert_eq!(rows.len(), 10);
    assert_eq!(
        reader.headers().unwrap().iter().collect::<Vec<_>>(),
        [
            "space",
            "strategy",
            "budget",
            "seed",
            "fraction",
            "evaluations",
            "evals_to_95"
        ]
    );
    for summary in v["results"].as_array().unwrap() {
        let strategy = summary["strategy"].as_str().unwrap();
        let runs: Vec<&csv::StringRecord> = rows.iter().filter(|r| &r[1] == strategy).collect();
        let seeds: Vec<&str> = runs.iter().map(|r| &r[3]).collect();
        assert_eq!(seeds, ["7", "8", "9", "10", "11"]);
        let mut fr: Vec<f64> = runs.iter().map(|r| r[4].parse().unwrap()).collect();
        fr.sort_by(f64::total_cmp);
        assert_eq!(fr[2], summary["median_fraction"].as_f64().unwrap());
    }
    // The auto run with seed 9 is `advise search --seed 9`.
    let one = run_json([
        "search".as_ref(),
        "--space".as_ref(),
        space().as_os_str(),
        "--budget".as_ref(),
        "2%".as_ref(),
        "--seed".as_ref(),
        "9".as_ref(),
        "--json".as_ref(),
    ]);
    let row = rows
        .iter()
        .find(|r| &r[1] == "auto" && &r[3] == "9")
        .unwrap();
    assert_eq!(
        row[4].parse::<f64>().unwrap(),
        one["fraction_of_optimum"].as_f64().unwrap()
    );
}

#[test]
fn search_trace_lists_every_measurement_and_ends_at_the_reported_best() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("trace.csv");
    let mut args: Vec<std::ffi::OsString> = ["search", "--budget", "40", "--seed", "3", "--json"]
        .iter()
        .map(Into::into)
        .collect();
    args.extend(["--trace".into(), trace.clone().into_os_string()]);
    args.extend(["--space".into(), space().into_os_string()]);
    let report = run_json(args);
    let mut r = csv::Reader::from_path(&trace).unwrap();
    let header = r.headers().unwrap().clone();
    assert_eq!(header.get(0), Some("evaluation"));
    assert_eq!(header.get(header.len() - 1), Some("fraction_of_optimum"));
    let rows: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    assert_eq!(rows.len() as u64, report["evaluations"].as_u64().unwrap());
    // The best so far never rises, and the last row is the reported best.
    let best: Vec<f64> = rows
        .iter()
        .map(|row| row[header.len() - 2].parse().unwrap())
        .collect();
    assert!(best.windows(2).all(|w| w[1] <= w[0]));
    assert_eq!(best.last().copied(), report["best_time_ms"].as_f64());
    let fraction: f64 = rows.last().unwrap()[header.len() - 1].parse().unwrap();
    assert_eq!(Some(fraction), report["fraction_of_optimum"].as_f64());
    // Each measured configuration once.
    let configs: std::collections::HashSet<String> = rows
        .iter()
        .map(|row| {
            (1..header.len() - 3)
                .map(|i| &row[i])
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect();
    assert_eq!(configs.len(), rows.len());
}

#[test]
fn search_trace_to_an_unwritable_place_is_a_clear_error() {
    advise()
        .args([
            "search",
            "--budget",
            "10",
            "--trace",
            "/nonexistent-dir/trace.csv",
            "--space",
        ])
        .arg(space())
        .assert()
        .failure()
        .stderr(predicate::str::contains("/nonexistent-dir/trace.csv"));
}
