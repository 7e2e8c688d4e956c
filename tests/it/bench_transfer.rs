//! `advise bench transfer` on the shipped datasets: evaluations that need two data sources.

use std::path::Path;

use crate::common::advise;

/// The real Coulomb-sum space (INNER_UNROLL_FACTOR: UNROLL) beside the simulated NB campaign
/// (its UNROLL bit): simulator <-> hardware runs on the family both have, broken down by
/// family, and the JSON carries the breakdown.
#[test]
fn simulator_and_hardware_meet_on_unroll() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = advise()
        .current_dir(root)
        .args([
            "-q",
            "bench",
            "transfer",
            "--method",
            "baselines",
            "--json",
            "--dataset",
            "datasets/sim-qv100-nb",
            "--dataset",
            "datasets/ktt-coulomb-rtx2080ti",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let evals = v["evaluations"].as_array().unwrap();
    let sim_hw = evals
        .iter()
        .find(|e| e["name"] == "simulator -> hardware")
        .expect("simulator -> hardware evaluated");
    let fams = sim_hw["by_family"].as_array().unwrap();
    assert_eq!(fams.len(), 1);
    assert_eq!(fams[0]["family"], "UNROLL");
    // The unroll steps of coulomb's configurations (INNER_UNROLL_FACTOR 0->1 ... 8->16).
    assert_eq!(fams[0]["samples"], 150);
    assert!(evals
        .iter()
        .filter(|e| e["name"] == "grouped k-fold")
        .all(|e| e.get("by_family").is_none()));
}
