//! The command line: exit codes, output forms and one-line errors.

use std::path::{Path, PathBuf};

use predicates::prelude::*;

use crate::common::advise;

pub(crate) fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(rel)
}

#[test]
fn parse_prints_the_tidy_table() {
    let out = advise()
        .args([
            "parse",
            "--program",
            "BFS",
            "--input",
            "graph4096",
            "--run",
            "2",
        ])
        .arg(fixture(
            "ncu/ncu_details_V100_xplacer_bfs_graph4096_aws.csv",
        ))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("program,input,run,variant,kernel,launch,invocations,metric,unit,value")
    );
    assert_eq!(lines.clone().count(), 338);
    assert!(text.contains(
        "BFS,graph4096,2,,\"Kernel(Node*,int*,bool*,bool*,bool*,int*,int)\",1,1,Duration,second,"
    ));
}

#[test]
fn two_profiles_under_one_label_are_two_runs_and_features_read_them() {
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("measurements.csv");
    let file = fixture("ncu/ncu_details_V100_xplacer_bfs_graph4096_aws.csv");
    advise()
        .args(["parse", "--program", "BFS", "--run", "2", "-o"])
        .arg(&table)
        .arg(&file)
        .arg(fixture(
            "ncu/ncu_details_V100_xplacer_bfs_graph4096_lassen.csv",
        ))
        .assert()
        .success()
        .stderr(predicate::str::contains("labelled run 3"));
    let text = std::fs::read_to_string(&table).unwrap();
    assert!(
        text.contains("\nBFS,,2,") && text.contains("\nBFS,,3,"),
        "{text}"
    );
    // A table appended to itself repeats every key: reading it names the first repeat.
    let rows: Vec<&str> = text.lines().skip(1).collect();
    std::fs::write(&table, format!("{text}{}\n", rows[0])).unwrap();
    advise()
        .args(["features", "--measurements"])
        .arg(&table)
        .assert()
        .failure()
        .stderr(predicate::str::contains(format!(
            "measurements.csv:{}: repeats line 2",
            rows.len() + 2
        )));
}

/// nvprof prints some metrics twice (an event and a metric of one name): the parsed table keeps
/// each once, so the feature table can be built from it; ncu giving one launch's metric twice
/// with two values is two sessions in one file, an error naming the file and the metric.
#[test]
fn parse_drops_repeated_cells_and_refuses_two_ncu_sessions_in_one_file() {
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("measurements.csv");
    advise()
        .args(["parse", "-o"])
        .arg(&table)
        .arg(fixture(
            "nvprof/nvprof_events_metrics_K40c_ieee2017_cheby_untiled.csv",
        ))
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "262 measurements (0 from the launch columns; 0 cells without a number; 3 \
             repeating a metric already read, dropped)",
        ));
    advise()
        .args(["-q", "features", "--measurements"])
        .arg(&table)
        .assert()
        .success()
        .stdout(predicate::str::contains("local_load_transactions"));

    let text = std::fs::read_to_string(fixture(
        "ncu/ncu_details_V100_xplacer_bfs_graph4096_aws.csv",
    ))
    .unwrap();
    let twice = dir.path().join("twice.csv");
    let again = text
        .lines()
        .find(|l| l.starts_with("\"0\",") && l.contains("\"SM Active Cycles\""))
        .unwrap()
        .replace("\"152.11\"", "\"160\"");
    std::fs::write(&twice, format!("{text}{again}\n")).unwrap();
    advise()
        .arg("parse")
        .arg(&twice)
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "twice.csv: launch 0 of kernel `Kernel2(bool*,bool*,bool*,bool*,int)` gives SM \
             Active Cycles twice, 152.11 and 160 cycle",
        ));
}

#[test]
fn parse_json_and_rules_file() {
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join("rules.csv");
    let out = advise()
        .args(["parse", "--json", "--rules"])
        .arg(&rules)
        .arg(fixture("ncu/ncu_details_B200_superbenchmark_cublaslt.csv"))
        .arg(fixture(
            "nvprof/nvprof_metrics_K20c_ieee2017_j2d5pt_jacobi-orig.csv",
        ))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    // 47 cells and the compute capability's two attributes from the "CC" column.
    assert_eq!(v["files"][0]["measurements"], 47 + 2);
    assert_eq!(v["files"][0]["launch_facts"], 2);
    assert_eq!(v["files"][0]["rules"], 8);
    assert_eq!(v["files"][1]["format"], "nvprof-metrics");
    assert_eq!(v["measurements"].as_array().unwrap().len(), 49 + 76);
    let rules_csv = std::fs::read_to_string(&rules).unwrap();
    assert_eq!(rules_csv.lines().count(), 1 + 8);
    assert!(rules_csv.contains("WorkloadImbalance"));
}

#[test]
fn damaged_file_is_one_line_with_file_and_line_and_exit_3() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("cut.csv");
    let text = std::fs::read_to_string(fixture(
        "ncu/ncu_metrics_RTX4090_instroofline_ginkgo_spmm.csv",
    ))
    .unwrap();
    let cut = text.len() - 100;
    std::fs::write(&bad, &text[..cut]).unwrap();
    let out = advise()
        .arg("parse")
        .arg(&bad)
        .assert()
        .code(3)
        .get_output()
        .stderr
        .clone();
    let err = String::from_utf8(out).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    let expected_line = text[..cut].lines().count();
    assert!(err.contains(&format!("cut.csv:{expected_line}:")), "{err}");
}

#[test]
fn a_missing_file_or_a_folder_exits_5_and_bad_arguments_exit_2() {
    let out = advise()
        .args(["parse", "no/such/file.csv"])
        .assert()
        .code(5)
        .stderr(predicate::str::contains("no/such/file.csv"))
        .get_output()
        .stderr
        .clone();
    // The cause once, not once in the message and again as its source.
    let err = String::from_utf8(out).unwrap();
    assert_eq!(err.matches("os error 2").count(), 1, "{err}");
    // A folder where a file is read is named as one.
    advise()
        .args(["parse", "tests/fixtures/ncu"])
        .assert()
        .code(5)
        .stderr(predicate::str::contains(
            "tests/fixtures/ncu: a folder, where a file was expected: name a file in it",
        ));
    // A file where a folder is to be made, or named as a folder on the way.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("plain.csv");
    std::fs::write(&file, "x\n").unwrap();
    advise()
        .args([
            "import",
            "ktt",
            "tests/fixtures/spaces/KTPnpolyOutput_3090.json.gz",
        ])
        .arg("--out-dir")
        .arg(&file)
        .assert()
        .code(5)
        .stderr(predicate::str::contains(
            "a file stands there, where a folder is to be made",
        ));
    advise()
        .args(["statuner", "--dataset"])
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "plain.csv: a file, not a folder; name a block-size dataset folder",
        ));
    advise()
        .args(["variants", "--program", "xx"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "invalid value 'xx' for '--program",
        ))
        .stderr(predicate::str::contains("possible values: nb, bh, all"));
    advise()
        .args(["parse", "--format", "csvx", "a"])
        .assert()
        .code(2);
}

#[test]
fn bench_models_rejects_empty_sizes_before_timing() {
    for (args, says) in [
        (
            vec!["--rows", "0"],
            "--rows 0: every size needs at least 2 rows",
        ),
        (
            vec!["--rows", "3", "--cols", "0"],
            "--cols 0: at least 1 feature column",
        ),
        // Tables of 10^12 values aborted on the allocation.
        (
            vec!["--rows", "10", "--cols", "99999999999"],
            "--rows 10 --cols 99999999999: at most 100000000 values",
        ),
        (
            vec!["--rows", "99999999999", "--cols", "1"],
            "--rows 99999999999 --cols 1: at most 100000000 values",
        ),
    ] {
        advise()
            .args(["bench", "models", "--no-weka", "--quiet"])
            .args(args)
            .assert()
            .failure()
            .stderr(predicate::str::contains(says));
    }
    advise()
        .args([
            "bench",
            "experiments",
            "--no-weka",
            "--quiet",
            "--cols",
            "0",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--cols 0: from 1 to 1000 counter columns",
        ));
}

#[test]
fn variants_json_lists_64_per_program() {
    let out = advise()
        .args(["variants", "--program", "bh", "--json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let list = v["variants"].as_array().unwrap();
    assert_eq!(list.len(), 64);
    assert_eq!(list[5]["variant"], "000101");
    assert_eq!(
        list[5]["optimizations"],
        serde_json::json!(["RSQRT", "VOLA"])
    );
}

#[test]
fn variants_table_snapshot() {
    let out = advise()
        .args(["variants", "--program", "nb"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    insta::assert_snapshot!(String::from_utf8(out).unwrap());
}
