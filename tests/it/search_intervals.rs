//! `advise search-bench`'s 95% intervals of the median and the 5th percentile, checked against
//! the runs it writes (`--runs-csv`) on a real recorded space
//! (tests/fixtures/spaces/PROVENANCE.md).

use std::ffi::OsStr;
use std::path::Path;

use crate::common::run_json;

/// The fractions of the runs in a `--runs-csv` file, sorted.
fn sorted_fractions(path: &Path) -> Vec<f64> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = header.iter().position(|&h| h == "fraction").unwrap();
    let mut fr: Vec<f64> = lines
        .map(|l| l.split(',').nth(col).unwrap().parse().unwrap())
        .collect();
    fr.sort_by(f64::total_cmp);
    fr
}

/// `advise -q search-bench --json` at 1% of the pnpoly fixture with `repeats` runs and `more`.
fn bench_json(repeats: &str, more: &[&OsStr]) -> serde_json::Value {
    let space = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/spaces/pnpoly__RTX_2080_Ti.json.gz");
    let args: [&OsStr; 8] = [
        "search-bench".as_ref(),
        "--space".as_ref(),
        space.as_os_str(),
        "--budgets".as_ref(),
        "1%".as_ref(),
        "--repeats".as_ref(),
        repeats.as_ref(),
        "--json".as_ref(),
    ];
    run_json(args.iter().chain(more).chain([&OsStr::new("--no-charts")]))
}

#[test]
fn the_intervals_are_the_order_statistics_of_the_runs() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("runs.csv");
    let v = bench_json(
        "100",
        &[
            "--strategies".as_ref(),
            "random".as_ref(),
            "--runs-csv".as_ref(),
            csv.as_os_str(),
        ],
    );
    let row = &v["results"][0];
    let bounds = |k: &str| [0, 1].map(|i| row[k][i].as_f64().unwrap());
    let fr = sorted_fractions(&csv);
    assert_eq!(fr.len(), 100);
    // Of 100 runs the median lies between the 40th and 61st smallest, the 5th percentile
    // between the smallest and the 11th smallest, each with 95% confidence (binomial ranks).
    assert_eq!(bounds("median_interval"), [fr[39], fr[60]], "{row}");
    assert_eq!(bounds("p5_interval"), [fr[0], fr[10]], "{row}");
    let median = row["median_fraction"].as_f64().unwrap();
    let p5 = row["p5_fraction"].as_f64().unwrap();
    assert!(fr[39] <= median && median <= fr[60]);
    assert!(fr[0] <= p5 && p5 <= fr[10]);
}

#[test]
fn five_runs_bound_neither_end_of_the_median() {
    let v = bench_json("5", &[]);
    let row = &v["results"][0];
    // 0.5^5 = 0.031 > 0.025 at either end: the interval is the fractions' whole range.
    assert_eq!(
        row["median_interval"],
        serde_json::json!([0.0, 1.0]),
        "{row}"
    );
    // The 5th percentile: no lower bound (0.95^5 = 0.77), the 2nd run above (P(B >= 2) = 0.023).
    assert_eq!(row["p5_interval"][0], serde_json::json!(0.0), "{row}");
}
