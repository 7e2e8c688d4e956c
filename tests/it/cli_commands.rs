//! The command line's other commands: details pages, the demo on profiler files, completions
//! and the man page, JSON schema versions, imports, senseless values and CSV output.

use predicates::prelude::*;

use crate::cli::fixture;
use crate::common::advise;

#[test]
fn details_page_labels_feed_the_portable_view() {
    let file = fixture("ncu/ncu_details_V100_xplacer_bfs_graph4096_lassen.csv");
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("m.csv");
    advise()
        .args(["-q", "parse", "-o"])
        .arg(&m)
        .arg(&file)
        .assert()
        .success();
    let out = advise()
        .args(["-q", "features", "--view", "portable", "--measurements"])
        .arg(&m)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let row: Vec<&str> = lines.next().unwrap().split(',').collect();
    let get = |name: &str| -> f64 {
        let i = header.iter().position(|h| *h == name).unwrap();
        row[i].parse().unwrap_or_else(|_| panic!("{name} is empty"))
    };
    // The launches' occupancy and IPC, averaged with their durations as weights.
    let d = advise::profile::parse_path(&file, advise::profile::FormatChoice::Auto).unwrap();
    let per_launch = |metric: &str| -> Vec<(u64, f64)> {
        d.measurements
            .iter()
            .filter(|x| x.metric == metric)
            .map(|x| (x.launch, x.value))
            .collect()
    };
    let durations = per_launch("Duration");
    let weighted = |metric: &str| -> f64 {
        let (mut sum, mut total) = (0.0, 0.0);
        for (launch, v) in per_launch(metric) {
            let w = durations.iter().find(|d| d.0 == launch).unwrap().1;
            sum += v * w;
            total += w;
        }
        sum / total
    };
    let occupancy = weighted("Achieved Occupancy") * 0.01;
    let ipc = weighted("Executed Ipc Active");
    assert!((get("portable__occupancy") - occupancy).abs() < 1e-9 * occupancy);
    assert!((get("portable__ipc") - ipc).abs() < 1e-9 * ipc);
    assert!(get("portable__l2_hit_rate") > 0.0 && get("portable__l2_hit_rate") <= 1.0);
}

#[test]
fn demo_fixtures_parses_the_shipped_profiler_files() {
    // The report folder is --out-dir: the test writes nothing into the repository.
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("demo");
    advise()
        .args(["demo", "--fixtures", "--out-dir"])
        .arg(&report)
        .assert()
        .success()
        .stdout(predicate::str::contains("Parsed profiler files"))
        .stdout(predicate::str::contains(
            "ncu_raw_B200_roofline-analysis_torch_sdpa_flash",
        ))
        .stderr(predicate::str::contains("not our own H100 data"));
    assert!(report.join("fixture-features.csv").is_file());
}

#[test]
fn completions_man_page_and_version_with_the_git_revision() {
    advise()
        .args(["completions", "bash"])
        .assert()
        .success()
        .stdout(predicate::str::contains("_advise()"));
    advise()
        .args(["completions", "zsh"])
        .assert()
        .success()
        .stdout(predicate::str::contains("#compdef advise"));
    advise()
        .arg("man")
        .assert()
        .success()
        .stdout(predicate::str::contains(".TH advise 1"))
        .stdout(predicate::str::contains("\\fBadvise search\\-bench\\fR"))
        .stdout(predicate::str::contains(".SH \"EXIT STATUS\""))
        // No pages that are never written.
        .stdout(predicate::str::contains("advise\\-demo(1)").not());
    // `advise 0.1.0 (<revision or "unknown">)`
    advise()
        .arg("--version")
        .assert()
        .success()
        .stdout(predicate::str::is_match(r"^advise \d+\.\d+\.\d+ \(\S+\)\n$").unwrap());
}

#[test]
fn every_json_document_carries_a_schema_version_and_quiet_silences_notes() {
    for args in [
        vec!["variants", "--json"],
        vec!["metric-map", "--json"],
        vec!["metric-map", "--gpgpu-sim", "--json"],
    ] {
        let out = advise()
            .args(&args)
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert!(v["schema_version"].as_u64().is_some(), "{args:?}");
    }
    advise()
        .arg("--quiet")
        .arg("parse")
        .arg(fixture("ncu/ncu_summary_perkernel_Thor_vernier_saxpy.csv"))
        .assert()
        .success()
        .stderr(predicate::str::is_empty());
}

/// `advise import auto` takes the tool the file shows: the real Kernel Tuner cache of
/// tests/fixtures/spaces gives the same tables as `import kernel-tuner` and says which tool it
/// took; a file of no tuner's (an Nsight Compute page) is refused with the names to give.
#[test]
fn import_auto_takes_the_tool_the_file_shows() {
    let dir = tempfile::tempdir().unwrap();
    let space = fixture("spaces/pnpoly__RTX_2080_Ti.json.gz");
    advise()
        .args(["import", "auto"])
        .arg(&space)
        .arg("--out-dir")
        .arg(dir.path().join("auto"))
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "looks like a Kernel Tuner cache or results list: importing it as `kernel-tuner`",
        ));
    advise()
        .args(["-q", "import", "kernel-tuner"])
        .arg(&space)
        .arg("--out-dir")
        .arg(dir.path().join("named"))
        .assert()
        .success();
    for f in ["timings.csv", "switches.csv"] {
        assert_eq!(
            std::fs::read(dir.path().join("auto").join(f)).unwrap(),
            std::fs::read(dir.path().join("named").join(f)).unwrap(),
            "{f}"
        );
    }
    advise()
        .args(["import", "auto"])
        .arg(fixture("ncu/ncu_details_B200_superbenchmark_cublaslt.csv"))
        .arg("--out-dir")
        .arg(dir.path().join("x"))
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "name the tool, `advise import ktt|kernel-tuner|t4|clblast|xplacer`",
        ));
}

/// A Kernel Tuner cache without a single timed configuration is refused before a dataset
/// folder is written: the folder would only fail later, at its empty tables. (The cache is
/// the shipped pnpoly one with every configuration failed: synthetic.)
#[test]
fn an_import_with_nothing_timed_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::io::read_to_string(flate2::read::GzDecoder::new(
        std::fs::File::open(fixture("spaces/pnpoly__RTX_2080_Ti.json.gz")).unwrap(),
    ))
    .unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    for entry in v["cache"].as_object_mut().unwrap().values_mut() {
        entry["time"] = serde_json::json!("RuntimeFailedConfig");
    }
    let cache = dir.path().join("no-times.json");
    std::fs::write(&cache, v.to_string()).unwrap();
    let out = dir.path().join("imported");
    advise()
        .args(["import", "kernel-tuner"])
        .arg(&cache)
        .arg("--out-dir")
        .arg(&out)
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "nothing to learn from: 4092 configurations, 0 with a time",
        ));
    assert!(!out.exists());
}

/// Values that cannot mean anything are usage errors before any work starts.
#[test]
fn senseless_values_are_usage_errors() {
    let cases: [(&[&str], &str); 8] = [
        (
            &[
                "train",
                "--dataset",
                "datasets/sim-qv100-nb",
                "-o",
                "no-such-folder-here/x.json",
            ],
            "-o no-such-folder-here/x.json: its folder no-such-folder-here does not exist",
        ),
        (
            &[
                "search-bench",
                "--space",
                "tests/fixtures/spaces/pnpoly__RTX_2080_Ti.json.gz",
                "--runs-csv",
                "tests",
            ],
            "--runs-csv tests: a folder; name a file to write",
        ),
        (
            &[
                "experiment",
                "--dataset",
                "datasets/sim-qv100-nb",
                "--exp",
                "all",
                "--program",
                "NOPE",
            ],
            "--program NOPE: the datasets hold NB",
        ),
        (
            &[
                "experiment",
                "--dataset",
                "datasets/sim-qv100-nb",
                "--dataset",
                "datasets/../datasets/sim-qv100-nb",
            ],
            "names the folder --dataset datasets/sim-qv100-nb named already",
        ),
        (
            &[
                "search-bench",
                "--space",
                "tests/fixtures/spaces/pnpoly__RTX_2080_Ti.json.gz",
                "--threads",
                "0",
            ],
            "--threads must be at least 1",
        ),
        (
            &[
                "bench",
                "transfer",
                "--dataset",
                "datasets/sim-qv100-nb",
                "--folds",
                "1",
            ],
            "--folds 1: a k-fold needs at least 2 folds",
        ),
        (
            &[
                "train",
                "--dataset",
                "datasets/sim-qv100-nb",
                "--max-samples",
                "0",
                "-o",
                "x.json",
            ],
            "--max-samples 0: the validation needs at least 20 samples",
        ),
        (
            &["train", "--dataset", "datasets/sim-qv100-nb", "-o", "."],
            "-o .: a folder; name a file to write",
        ),
    ];
    for (args, said) in cases {
        advise()
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(said));
    }
}

/// More threads than runs are capped, with a note: a million of them once took a minute to
/// start, and four million did not finish.
#[test]
fn search_bench_caps_its_threads_at_the_runs() {
    advise()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "search-bench",
            "--space",
            "tests/fixtures/spaces/pnpoly__RTX_2080_Ti.json.gz",
            "--repeats",
            "2",
            "--budgets",
            "10",
            "--no-charts",
            "--threads",
            "4000000",
        ])
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "--threads 4000000 capped at 2 (2 runs, at most 256 threads)",
        ));
}

/// `variants -o FILE.csv` writes CSV, not the text table.
#[test]
fn variants_to_a_csv_file_is_csv() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v.csv");
    advise()
        .args(["variants", "-o"])
        .arg(&path)
        .assert()
        .success();
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 129, "{text}");
    assert_eq!(lines[0], "program,variant,optimizations");
    assert!(lines.contains(&"NB,100000,FTZ"), "{text}");
}
