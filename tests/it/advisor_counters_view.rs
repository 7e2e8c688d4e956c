//! An advisor of the counters view on a real campaign (datasets/h200-nb-20261126, NB on an
//! H200): it learns from the code's counters, not from the device's attributes or the
//! profiling session's identifiers, and on an nvprof profile it says which advisor reads one.

use predicates::prelude::*;

use crate::common::advise;

#[test]
fn a_counters_advisor_leaves_the_machine_out_and_names_the_portable_view() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("counters.json");
    advise()
        .args(["-q", "train", "--features", "counters"])
        .args(["--dataset", "datasets/h200-nb-20261126", "-o"])
        .arg(&model)
        .assert()
        .success();
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&model).unwrap()).unwrap();
    let features: Vec<&str> = file["features"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    assert!(features.contains(&"launch__registers_per_thread"));
    assert!(features.contains(&"smsp__inst_executed.sum"));
    for f in &features {
        assert!(
            !f.starts_with("device__attribute_")
                && !f.starts_with("profiler__")
                && !f.starts_with("nvlink__")
                && !f.starts_with("numa__")
                && *f != "launch__stream_id"
                && *f != "launch__context_id",
            "{f} describes the machine or the session"
        );
    }
    advise()
        .args(["-q", "suggest", "--model"])
        .arg(&model)
        .args([
            "--profile",
            "tests/fixtures/nvprof/nvprof_events_K20c_ieee2017_j3d27pt.csv",
        ])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "this advisor was trained with `--features counters`",
        ))
        .stderr(predicate::str::contains("which asks ncu for the advisor's"))
        .stderr(predicate::str::contains("--metrics").not());
}
