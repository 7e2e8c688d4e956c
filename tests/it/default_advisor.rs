//! The shipped advisor (models/default.advisor.json.gz) on real Nsight Compute details pages
//! of XPlacer's V100 runs (tests/fixtures/PROVENANCE.md): the Lassen page has the section
//! values the unified-memory models learned from, the AWS page too few of them.

use std::path::Path;

use crate::common::advise;
use predicates::prelude::*;

const LASSEN: &str = "tests/fixtures/ncu/ncu_details_V100_xplacer_bfs_graph4096_lassen.csv";
const AWS: &str = "tests/fixtures/ncu/ncu_details_V100_xplacer_bfs_graph4096_aws.csv";

/// `advise -q suggest [--json] --ncu-csv PAGE` with the shipped advisor, from the repository.
fn suggest(page: &str, json: bool) -> assert_cmd::assert::Assert {
    let mut cmd = advise();
    cmd.current_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .env_remove("ADVISE_MODEL")
        .args(["-q", "suggest"]);
    if json {
        cmd.arg("--json");
    }
    cmd.args(["--ncu-csv", page]).assert()
}

/// The unified-memory models advise on a details page; the models trained on raw counters
/// are left out, and the output says which.
#[test]
fn a_details_page_gets_the_models_it_has_counters_for() {
    let out = suggest(LASSEN, true).success().get_output().stdout.clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let names: Vec<&str> = v["suggestions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["optimization"].as_str().unwrap())
        .collect();
    assert!(!names.is_empty());
    assert!(names.iter().all(|n| n.starts_with("UM_")), "{names:?}");
    let left_out: Vec<&str> = v["profile"]["left_out"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    assert!(left_out.contains(&"BLOCK_SIZE") && left_out.contains(&"SHMEM"));
    assert!(left_out.iter().all(|n| !names.contains(n)));
    // Learned from four programs: each suggestion says how it did on programs it had not
    // seen, and its confidence is no higher than that.
    for s in v["suggestions"].as_array().unwrap() {
        let across = s["across_programs_accuracy"].as_f64().unwrap();
        assert!(s["confidence"].as_f64().unwrap() <= across + 1e-12, "{s}");
        assert!(s["reason"]
            .as_str()
            .unwrap()
            .contains("on a program it had not seen"));
        assert!(s["reason"]
            .as_str()
            .unwrap()
            .contains("(the second model's "));
    }
    suggest(LASSEN, false).success().stdout(
        predicate::str::contains("Not advised on").and(predicate::str::contains("BLOCK_SIZE")),
    );
}

/// A page with too few of any model's counters is refused with the command that collects them.
#[test]
fn a_page_without_enough_counters_for_any_model_is_refused() {
    suggest(AWS, false).failure().stderr(
        predicate::str::contains("too many to advise on")
            .and(predicate::str::contains("ncu --csv --page raw --metrics")),
    );
}
