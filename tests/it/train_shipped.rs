//! `advise train` on shipped datasets of two programs that share an optimization family: the
//! real Coulomb-sum space (INNER_UNROLL_FACTOR) and the simulated NB campaign (its UNROLL bit).

use std::path::Path;

use crate::common::advise;

/// `advise -q train` on shipped datasets: its output and the advisor file it wrote.
fn train(datasets: &[&str]) -> (String, serde_json::Value) {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("advisor.json");
    let mut cmd = advise();
    cmd.current_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .args(["-q", "train"]);
    for d in datasets {
        cmd.args(["--dataset", d]);
    }
    let out = cmd
        .arg("-o")
        .arg(&model)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v = serde_json::from_str(&std::fs::read_to_string(&model).unwrap()).unwrap();
    (String::from_utf8(out).unwrap(), v)
}

/// UNROLL is validated across programs too, and the reliability of the confidence on the
/// program left out is printed and stored.
#[test]
fn an_optimization_of_two_programs_is_validated_across_them() {
    let (text, v) = train(&["datasets/ktt-coulomb-rtx2080ti", "datasets/sim-qv100-nb"]);
    assert!(
        text.contains("Reliability on programs the advisor had not seen"),
        "{text}"
    );
    let opts = v["optimizations"].as_array().unwrap();
    let unroll = opts.iter().find(|o| o["name"] == "UNROLL").unwrap();
    let across = &unroll["across_programs"];
    assert!(across["accuracy"].as_f64().is_some(), "{across}");
    // One program each: validated within it only.
    let shmem = opts.iter().find(|o| o["name"] == "SHMEM").unwrap();
    assert!(shmem["across_programs"].is_null());
    let rows = v["reliability_across"].as_array().unwrap();
    let n: u64 = rows
        .iter()
        .map(|r| r["suggestions"].as_u64().unwrap())
        .sum();
    assert_eq!(n, unroll["samples"].as_u64().unwrap());
}

/// A times-only space (Kernel Tuner's dedispersion on an A100: no counters) beside the
/// Coulomb-sum space: the counter models learn from Coulomb sum alone, the block-size step
/// model from both programs, validated by leaving each out.
#[test]
fn a_times_only_program_teaches_the_step_models_only() {
    let (text, v) = train(&[
        "datasets/ktt-coulomb-rtx2080ti",
        "datasets/kt-dedispersion-a100",
    ]);
    assert!(text.contains("Step models"), "{text}");
    let block = v["optimizations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["name"] == "BLOCK_SIZE")
        .unwrap();
    assert_eq!(
        block["programs"],
        serde_json::json!(["directCoulombSum_kernel"])
    );
    assert!(block["across_programs"].is_null());
    let step = &block["step"];
    // Coulomb's 210 block-size steps and 2,000 of dedispersion's 18,585 (the cap per program).
    assert_eq!(step["samples"], 2210);
    assert_eq!(step["across_programs"]["folds"], 2);
}
