//! `advise search` and `advise search-bench` on a real recorded space: output forms, errors.

use crate::common::{advise, pnpoly_space as space, run_json};
use predicates::prelude::*;

#[test]
fn search_prints_the_best_config_and_its_fraction() {
    advise()
        .args([
            "search",
            "--strategy",
            "iterml",
            "--budget",
            "2%",
            "--seed",
            "4",
            "--space",
        ])
        .arg(space())
        .assert()
        .success()
        .stdout(predicate::str::contains("fraction of optimum"))
        .stdout(predicate::str::contains("evaluations          82 of 82"));
}

#[test]
fn a_search_that_stops_early_says_so_and_the_default_spends_a_small_budget() {
    let search = |strategy: &str| {
        advise()
            .args([
                "search",
                "--budget",
                "10%",
                "--seed",
                "0",
                "--strategy",
                strategy,
            ])
            .arg("--space")
            .arg(space())
            .assert()
            .success()
    };
    // A stop after 5% of the 410 evaluations, at least 20, without a new best.
    search("auto:stall=0.05,stallmin=20")
        .stdout(predicate::str::contains("of 410 (stopped early: the last"));
    // auto's own stop needs 4,000 evaluations without a new best: 410 are all spent.
    search("auto").stdout(predicate::str::contains(
        "evaluations          410 of 410\n",
    ));
}

#[test]
fn search_json_is_reproducible() {
    let out = || {
        let o = advise()
            .args([
                "search",
                "--strategy",
                "brt",
                "--budget",
                "60",
                "--seed",
                "9",
                "--json",
                "--space",
            ])
            .arg(space())
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        serde_json::from_slice::<serde_json::Value>(&o).unwrap()
    };
    let a = out();
    assert_eq!(a, out());
    assert_eq!(a["budget"], 60);
    assert!(a["evaluations"].as_u64().unwrap() <= 60);
    let f = a["fraction_of_optimum"].as_f64().unwrap();
    assert!(f > 0.0 && f <= 1.0);
    assert!(a["best_config"]["block_size_x"].is_string());
}

#[test]
fn search_bench_json_shape() {
    let dir = tempfile::tempdir().unwrap();
    let o = advise()
        .args([
            "search-bench",
            "--strategies",
            "random,shrinking",
            "--budgets",
            "1%,2%",
        ])
        .args(["--repeats", "5", "--json", "--charts"])
        .arg(dir.path())
        .arg("--space")
        .arg(space())
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&o).unwrap();
    let rows = v["results"].as_array().unwrap();
    assert_eq!(rows.len(), 4);
    for key in [
        "space",
        "strategy",
        "budget",
        "median_fraction",
        "p5_fraction",
        "evals_to_95",
    ] {
        assert!(rows[0].get(key).is_some(), "{key}");
    }
    // Each cell's time per search (wall clock of its runs).
    for r in rows {
        assert!(r["mean_run_ms"].as_f64().is_some_and(|ms| ms > 0.0), "{r}");
    }
    assert_eq!(rows[0]["space"], "pnpoly__RTX_2080_Ti");
    assert_eq!(v["standards"].as_array().unwrap().len(), 2);
    // The space, with the noise of its recorded runs (tests/fixtures/spaces/PROVENANCE.md).
    let space = &v["spaces"][0];
    assert_eq!(space["space"], "pnpoly__RTX_2080_Ti");
    assert_eq!(space["configurations"], 4092);
    assert_eq!(space["failed_configurations"], 358);
    assert_eq!(space["run_noise"]["runs"], 10);
    assert_eq!(space["run_noise"]["warm_up_first_runs"], 10);
}

#[test]
fn unknown_strategy_oversized_budget_and_a_folder_exit_2_and_a_missing_space_5() {
    advise()
        .args([
            "search",
            "--strategy",
            "hyperopt",
            "--budget",
            "10",
            "--space",
        ])
        .arg(space())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown strategy `hyperopt`"));
    advise()
        .args([
            "search",
            "--strategy",
            "random",
            "--budget",
            "5000",
            "--space",
        ])
        .arg(space())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("larger than the space"));
    advise()
        .args([
            "search",
            "--strategy",
            "random",
            "--budget",
            "10",
            "--space",
            "no/such/file.json",
        ])
        .assert()
        .code(5)
        .stderr(predicate::str::contains("no/such/file.json"));
    // A folder: search-bench is named for it.
    advise()
        .args([
            "search",
            "--budget",
            "10",
            "--space",
            "tests/fixtures/spaces",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "tests/fixtures/spaces is a folder: `advise search` searches one space file",
        ))
        .stderr(predicate::str::contains(
            "advise search-bench --space tests/fixtures/spaces",
        ));
    // Repeats beyond a million are refused before any space is read (they ran for hours).
    for repeats in ["0", "100000000"] {
        advise()
            .args([
                "search-bench",
                "--no-charts",
                "--repeats",
                repeats,
                "--space",
            ])
            .arg(space())
            .assert()
            .code(2)
            .stderr(predicate::str::contains(format!(
                "--repeats {repeats}: from 1 to 1000000"
            )));
    }
}

#[test]
fn auto_takes_its_settings_and_names_a_bad_one() {
    // Under 20 evaluations `auto` runs no Bayesian steps, so `bo=0,bojump=0` changes nothing
    // there.
    let results = |strategy: &str, budget: &str| {
        let space = space();
        let space = space.to_str().unwrap();
        let v = run_json([
            "search-bench",
            "--strategies",
            strategy,
            "--budgets",
            budget,
            "--repeats",
            "5",
            "--no-charts",
            "--json",
            "--space",
            space,
        ]);
        let r = &v["results"][0];
        (
            r["median_fraction"].clone(),
            r["p5_fraction"].clone(),
            r["evals_to_95"].clone(),
        )
    };
    assert_eq!(results("auto", "19"), results("auto:bo=0,bojump=0", "19"));
    let (median, _, _) = results(
        "auto:bo=0.2,bomin=50,bomax=10,bocand=50,botrain=20,bojump=2,bojmax=15",
        "164",
    );
    assert!(median.as_f64().is_some_and(|m| m > 0.0 && m <= 1.0));
    let (median, _, _) = results("auto:repair=0", "164");
    assert!(median.as_f64().is_some_and(|m| m > 0.0 && m <= 1.0));
    for (strategy, says) in [
        (
            "auto:bomax=0",
            "option bomax=0: expected a positive integer",
        ),
        ("auto:bo=lots", "option bo=lots"),
        (
            "auto:spread=100000000",
            "option spread=100000000: expected a positive integer, at most 100000",
        ),
        (
            "brt:hc=1000000000",
            "option hc=1000000000: expected a positive integer, at most 100000",
        ),
        (
            "auto:repair=-1",
            "option repair=-1: expected a whole number",
        ),
        (
            "auto:bojump=x",
            "option bojump=x: expected a whole number (0: no Bayesian steps",
        ),
        (
            "auto:stal=1",
            "strategy `auto` has no option `stal`: it takes init, initmin,",
        ),
        ("ga:x=1", "strategy `ga` has no option `x`: it takes none"),
    ] {
        advise()
            .args([
                "search",
                "--strategy",
                strategy,
                "--budget",
                "164",
                "--space",
            ])
            .arg(space())
            .assert()
            .code(2)
            .stderr(predicate::str::contains(says));
    }
}

/// `--runs-csv`: one line per run, seeds SEED..SEED+repeats, each the run `advise search`
/// makes with that seed, and each cell's median the summary's.
#[test]
fn search_help_lists_the_strategies_and_autos_settings() {
    let help = advise().args(["search", "--help"]).assert().success();
    let text = String::from_utf8_lossy(&help.get_output().stdout).to_string();
    for needle in [
        "bayes_opt",
        "initmin",
        "bobudget",
        "Metropolis",
        "time_ms column",
    ] {
        assert!(
            text.contains(needle),
            "`advise search --help` lacks {needle}:\n{text}"
        );
    }
    // The short help stays short.
    let short = advise().args(["search", "-h"]).assert().success();
    assert!(!String::from_utf8_lossy(&short.get_output().stdout).contains("initmin"));
    advise()
        .args(["search-bench", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains("advise search --help"));
}

#[test]
fn search_bench_leaves_out_an_unreadable_file_and_a_budget_larger_than_a_space() {
    // A folder of the real cache, a file that is no space and a SYNTHETIC three-configuration
    // CSV space, at a budget of 50 evaluations.
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(space(), dir.path().join("pnpoly__RTX_2080_Ti.json.gz")).unwrap();
    std::fs::write(dir.path().join("bad.json"), "{\"foo\": 1}").unwrap();
    std::fs::write(dir.path().join("three.csv"), "a,time_ms\n1,2\n2,3\n3,1\n").unwrap();
    let bench = |budgets: &str| {
        let mut cmd = advise();
        cmd.args([
            "-q",
            "search-bench",
            "--strategies",
            "random",
            "--budgets",
            budgets,
        ])
        .args(["--repeats", "3", "--no-charts", "--json", "--space"])
        .arg(dir.path());
        cmd
    };
    let out = bench("50").assert().success();
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(stderr.contains("advise: warning: "), "{stderr}");
    assert!(
        stderr.contains("bad.json: not a Kernel Tuner cache"),
        "{stderr}"
    );
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let results = v["results"].as_array().unwrap();
    assert_eq!(results.len(), 1);
    assert_eq!(results[0]["space"], "pnpoly__RTX_2080_Ti");
    assert!(v["unread"][0]["file"]
        .as_str()
        .unwrap()
        .ends_with("bad.json"));
    assert_eq!(v["skipped"][0]["space"], "three");
    assert_eq!(v["skipped"][0]["configurations"], 3);
    assert_eq!(v["spaces"].as_array().unwrap().len(), 2);
    // The text report lists both.
    let text = advise()
        .args(["search-bench", "--strategies", "random", "--budgets", "50"])
        .args(["--repeats", "3", "--no-charts", "--space"])
        .arg(dir.path())
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&text.get_output().stdout).to_string();
    assert!(stdout.contains("Left out of the results"), "{stdout}");
    assert!(
        stdout.contains("- three at 50: the budget (50 evaluations) is larger than the space (3 configurations)"),
        "{stdout}"
    );
    // Nothing left to run is an error: the bad file alone, or a budget above every space.
    advise()
        .args([
            "search-bench",
            "--strategies",
            "random",
            "--budgets",
            "2%",
            "--space",
        ])
        .arg(dir.path().join("bad.json"))
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "bad.json: not a Kernel Tuner cache",
        ))
        // A lone file's error is said once, not first as a warning.
        .stderr(predicate::str::contains("warning").not());
    bench("5000")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("larger than the space"));
}
