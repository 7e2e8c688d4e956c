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

/// 100 runs of `random` with `more`: the JSON report and the runs' fractions, sorted, from
/// the `--runs-csv` file it wrote.
fn hundred_random_runs(more: &[&OsStr]) -> (serde_json::Value, Vec<f64>) {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("runs.csv");
    let args: Vec<&OsStr> = [
        "--strategies".as_ref(),
        "random".as_ref(),
        "--runs-csv".as_ref(),
        csv.as_os_str(),
    ]
    .into_iter()
    .chain(more.iter().copied())
    .collect();
    let v = bench_json("100", &args);
    (v, sorted_fractions(&csv))
}

#[test]
fn the_intervals_are_the_order_statistics_of_the_runs() {
    let (v, fr) = hundred_random_runs(&[]);
    let row = &v["results"][0];
    let bounds = |k: &str| [0, 1].map(|i| row[k][i].as_f64().unwrap());
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

#[test]
fn reach_gives_the_share_of_runs_at_each_fraction_with_its_wilson_interval() {
    let (v, fr) = hundred_random_runs(&["--reach".as_ref(), "0.9,0.99".as_ref()]);
    let reach = v["results"][0]["reach"].as_array().unwrap();
    assert_eq!(reach.len(), 2, "{reach:?}");
    for (r, at) in reach.iter().zip([0.9, 0.99]) {
        assert_eq!(r["at"].as_f64().unwrap(), at);
        let k = fr.iter().filter(|&&f| f >= at).count();
        let share = r["share"].as_f64().unwrap();
        assert_eq!(share, k as f64 / 100.0, "{r}");
        // Wilson's 95% interval around it: inside [0, 1], holding the share, about 2 standard
        // errors each side where the share is away from the ends.
        let [lo, hi] = [0, 1].map(|i| r["interval"][i].as_f64().unwrap());
        assert!(
            (0.0..=share).contains(&lo) && (share..=1.0).contains(&hi),
            "{r}"
        );
        if (0.2..=0.8).contains(&share) {
            let se = (share * (1.0 - share) / 100.0).sqrt();
            assert!((hi - lo - 2.0 * 1.96 * se).abs() < 0.02, "{r}");
        }
    }
    // Without --reach the rows carry no shares (the JSON of the default run is unchanged).
    let v = bench_json("3", &[]);
    assert!(v["results"][0].get("reach").is_none(), "{v}");
}

/// `--reach` takes fractions above 0 and at most 1, each once; the error names the piece.
#[test]
fn reach_refuses_what_is_no_fraction_of_the_optimum() {
    let space = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/spaces/pnpoly__RTX_2080_Ti.json.gz");
    for (reach, said) in [
        ("0", "--reach 0: a fraction"),
        ("1.5", "--reach 1.5: a fraction"),
        ("0.9,x", "--reach x: a fraction"),
        ("nan", "--reach nan: a fraction"),
        ("0.9,0.90", "0.90 is given twice"),
    ] {
        crate::common::advise()
            .args([
                "-q",
                "search-bench",
                "--repeats",
                "2",
                "--no-charts",
                "--reach",
                reach,
            ])
            .arg("--space")
            .arg(&space)
            .assert()
            .code(2)
            .stderr(predicates::str::contains(said));
    }
}
