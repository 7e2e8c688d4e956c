//! `advise bench transfer` on the shipped datasets: evaluations that need two data sources.

use std::ffi::OsStr;
use std::path::Path;

use predicates::prelude::PredicateBooleanExt;

use crate::common::{advise, bench_transfer_baselines};

/// `advise bench transfer --method baselines --json ARGS` from the repository.
fn transfer_json(args: &[&str]) -> serde_json::Value {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut all = vec![OsStr::new("--json")];
    all.extend(args.iter().map(OsStr::new));
    let out = bench_transfer_baselines(root, &all)
        .success()
        .get_output()
        .stdout
        .clone();
    serde_json::from_slice(&out).unwrap()
}

/// The same: its evaluations.
fn evaluations(args: &[&str]) -> Vec<serde_json::Value> {
    transfer_json(args)["evaluations"]
        .as_array()
        .unwrap()
        .clone()
}

/// The real Coulomb-sum space (INNER_UNROLL_FACTOR from 1 up: UNROLL) beside the simulated NB campaign
/// (its UNROLL bit): simulator <-> hardware runs on the family both have, broken down by
/// family, and the JSON carries the breakdown.
#[test]
fn simulator_and_hardware_meet_on_unroll() {
    let evals = evaluations(&[
        "--dataset",
        "datasets/sim-qv100-nb",
        "--dataset",
        "datasets/ktt-coulomb-rtx2080ti",
    ]);
    let sim_hw = evals
        .iter()
        .find(|e| e["name"] == "simulator -> hardware")
        .expect("simulator -> hardware evaluated");
    let fams = sim_hw["by_family"].as_array().unwrap();
    assert_eq!(fams.len(), 1);
    assert_eq!(fams[0]["family"], "UNROLL");
    // The unroll steps of coulomb's configurations (INNER_UNROLL_FACTOR 1->2 ... 8->16; 0->1
    // joins no family: 0 leaves the loop to the compiler).
    assert_eq!(fams[0]["samples"], 100);
    assert!(evals
        .iter()
        .filter(|e| e["name"] == "grouped k-fold")
        .all(|e| e.get("by_family").is_none()));
    // Leave one program out runs on the step features alone too, and says so.
    let stepped = evals
        .iter()
        .find(|e| e["name"] == "leave one program out, step features only")
        .expect("leave one program out on the step features");
    assert_eq!(stepped["step"], "only");
    assert!(evals
        .iter()
        .filter(|e| e["name"] != stepped["name"])
        .all(|e| e["step"] == "off"));
}

/// KTT's Coulomb-sum run on a GTX 1070 (a searcher's run: repeated configurations, a few
/// profiled), imported with `--times-only`, is the other GPU of the RTX 2080 Ti space.
#[test]
fn the_coulomb_space_is_left_out_to_the_gtx_1070() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("c1070");
    advise()
        .current_dir(root)
        .args([
            "-q",
            "import",
            "ktt",
            "datasets/ktt-coulomb-gtx1070/source/coulomb_gtx1070_tuning_output.json.gz",
            "--times-only",
            "--out-dir",
        ])
        .arg(&out)
        .assert()
        .success();
    // The shipped folder is this import: the same tables byte for byte.
    for f in ["timings.csv", "switches.csv"] {
        assert_eq!(
            std::fs::read(out.join(f)).unwrap(),
            std::fs::read(root.join("datasets/ktt-coulomb-gtx1070").join(f)).unwrap(),
            "{f}"
        );
    }
    let provenance = std::fs::read_to_string(out.join("PROVENANCE.md")).unwrap();
    assert!(provenance.contains("265 results repeat an earlier configuration"));
    assert!(provenance.contains("imported with --times-only"));
    assert!(provenance.contains("configurations: 210 (0 failed"));
    bench_transfer_baselines(
        root,
        &["--dataset", "datasets/ktt-coulomb-rtx2080ti"].map(OsStr::new),
    )
    .success()
    .stdout(predicates::str::contains(
        "leave one GPU out (140 folds; ktt-coulomb-rtx2080ti -> ktt-coulomb-gtx1070;",
    ));
    advise()
        .current_dir(root)
        .args([
            "import",
            "xplacer",
            "tests/fixtures/xplacer/hotspot",
            "--times-only",
            "--out-dir",
        ])
        .arg(dir.path().join("x"))
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--times-only is for `ktt`"));
}

/// Every row's balanced accuracy lies in its interval, which resamples the same tuples as the
/// accuracy's; the clustered test is there where an evaluation's test data has 5 tuples or
/// more (the simulated NB campaign's inputs and runs) and absent where it has one (Coulomb
/// sum left out to the GTX 1070), where McNemar's test alone speaks.
#[test]
fn intervals_and_the_clustered_test_resample_whole_tuples() {
    let evals = evaluations(&[
        "--dataset",
        "datasets/sim-qv100-nb",
        "--dataset",
        "datasets/ktt-coulomb-rtx2080ti",
    ]);
    let mut clustered = 0;
    for e in &evals {
        let name = e["name"].as_str().unwrap();
        for r in e["rows"].as_array().unwrap() {
            let (b, ci) = (&r["balanced_accuracy"], &r["balanced_ci"]);
            if let (Some(b), Some(lo), Some(hi)) =
                (b.as_f64(), ci["low"].as_f64(), ci["high"].as_f64())
            {
                assert!(
                    lo <= b + 1e-9 && b <= hi + 1e-9,
                    "{name} {}: {b} {ci}",
                    r["method"]
                );
            }
            let p = &r["p_clustered_vs_best_baseline"];
            if r["method"] == e["best_baseline"] {
                assert!(p.is_null());
            } else if name.starts_with("leave one GPU out") {
                assert!(p.is_null(), "{name}: one tuple, no clustered test");
            } else if let Some(p) = p.as_f64() {
                assert!(p > 0.0 && p <= 1.0, "{name}: {p}");
                clustered += 1;
            }
        }
    }
    assert!(clustered > 0, "no evaluation had a clustered test");
}

/// `--step only`: models see the four step features and nothing else, on real KTT spaces, and
/// bench transfer's JSON says so.
#[test]
fn step_features_alone_replace_the_counters() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = advise()
        .current_dir(root)
        .args([
            "-q",
            "experiment",
            "--exp",
            "lopo",
            "--method",
            "m5p",
            "--step",
            "only",
            "--dataset",
            "datasets/ktt-pnpoly-rtx2080ti",
            "--dataset",
            "datasets/ktt-coulomb-rtx2080ti",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains(" switches, 4 features"), "{text}");
    // The GPU and the registers are known: the occupancy rule is a baseline beside the others.
    assert!(text.contains("baseline:occupancy"), "{text}");
    assert!(
        text.contains("BLOCK_SIZE") && text.contains("TILE_SIZE"),
        "{text}"
    );
    let evals = evaluations(&[
        "--step",
        "only",
        "--dataset",
        "datasets/ktt-coulomb-rtx2080ti",
    ]);
    assert!(!evals.is_empty());
    assert!(evals.iter().all(|e| e["step"] == "only"));
}

/// A times-only tuning space (a Kernel Tuner cache, imported without counters) gives samples
/// with no feature; the step features are all its models can learn from, and the command
/// says so when they are off.
#[test]
fn a_times_only_space_learns_from_its_steps() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("pnpoly");
    advise()
        .current_dir(root)
        .args(["-q", "import", "kernel-tuner"])
        .arg("tests/fixtures/spaces/pnpoly__RTX_2080_Ti.json.gz")
        .arg("--out-dir")
        .arg(&out)
        .assert()
        .success();
    let run = |step: &str| {
        advise()
            .current_dir(root)
            .args([
                "experiment",
                "--exp",
                "kfold",
                "--method",
                "m5p",
                "--step",
                step,
            ])
            .arg("--dataset")
            .arg(&out)
            .assert()
            .success()
    };
    // No registers in a Kernel Tuner cache: no occupancy, so only the first two.
    run("only").stdout(predicates::str::contains(" switches, 2 features"));
    run("off")
        .stdout(predicates::str::contains(" switches, 0 features"))
        .stdout(predicates::str::contains("baseline:occupancy").not())
        .stderr(predicates::str::contains(
            "no counters (a times-only dataset)",
        ));
}

/// A Kernel Tuner cache written with `RegisterObserver` (synthetic: the pnpoly fixture with
/// 32 registers per thread added to each timed entry) gives its block-size steps occupancy:
/// the registers come in as counters and the GPU from the device name.
#[test]
fn registers_a_kernel_tuner_observer_recorded_give_occupancy() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let text = {
        use std::io::Read;
        let mut s = String::new();
        flate2::read::GzDecoder::new(
            std::fs::File::open(root.join("tests/fixtures/spaces/pnpoly__RTX_2080_Ti.json.gz"))
                .unwrap(),
        )
        .read_to_string(&mut s)
        .unwrap();
        s
    };
    let mut cache: serde_json::Value = serde_json::from_str(&text).unwrap();
    for entry in cache["cache"].as_object_mut().unwrap().values_mut() {
        if entry["time"].is_number() {
            entry["num_regs"] = serde_json::json!(32);
        }
    }
    let file = dir.path().join("pnpoly_regs.json");
    std::fs::write(&file, cache.to_string()).unwrap();
    let out = dir.path().join("pnpoly");
    advise()
        .args(["import", "kernel-tuner"])
        .arg(&file)
        .arg("--out-dir")
        .arg(&out)
        .assert()
        .success()
        .stdout(predicates::str::contains(" 0 counter measurements").not());
    advise()
        .current_dir(root)
        .args(["-q", "experiment", "--exp", "kfold", "--method", "m5p"])
        .args(["--step", "only", "--dataset"])
        .arg(&out)
        .assert()
        .success()
        .stdout(predicates::str::contains(" switches, 4 features"))
        .stdout(predicates::str::contains("baseline:occupancy"));
}

/// The measured NB campaigns on an H200 and an H100 (datasets/h200-nb-20261126 and
/// h100-nb-20261126, the same input and variants): leave one GPU out runs both ways, and a
/// note says how often the training GPU's own measured direction holds on the other.
#[test]
fn the_h200_and_h100_campaigns_are_left_out_in_turn() {
    let v = transfer_json(&[
        "--dataset",
        "datasets/h200-nb-20261126",
        "--dataset",
        "datasets/h100-nb-20261126",
    ]);
    let logo: Vec<&str> = v["evaluations"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["name"] == "leave one GPU out")
        .map(|e| e["data"].as_str().unwrap())
        .collect();
    assert_eq!(
        logo,
        [
            "h100-nb-20261126 -> h200-nb-20261126",
            "h200-nb-20261126 -> h100-nb-20261126"
        ]
    );
    let notes: Vec<&str> = v["notes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|n| n.as_str())
        .filter(|n| n.contains("own measured speedup"))
        .collect();
    assert_eq!(notes.len(), 2, "{notes:?}");
    // NB's 6 optimizations x 32 variant pairs x run 1 (the H200's only profiled run).
    assert!(notes[0].contains("of 192 samples"), "{}", notes[0]);
}
