//! `advise experiment` on the shipped measured and simulated datasets: the fidelity command
//! between two GPUs and two visits to one GPU, McNemar's pairs on pooled visits, and the JSON's
//! label for simulated samples; filters and options that keep or read nothing, refused.

use predicates::prelude::*;

use crate::common::advise;

/// The measured NB campaigns of an H200 and an H100 (same input and variants): the fidelity
/// command compares the two GPUs pair by pair. RSQRT and SHMEM speed up every NB pair on both.
#[test]
fn fidelity_compares_two_gpus_campaigns_pair_by_pair() {
    let v = fidelity_of("datasets/h200-nb-20261126", "datasets/h100-nb-20261126");
    let gpus = v["gpu_agreement"].as_array().unwrap();
    assert_eq!(gpus.len(), 1);
    assert_eq!(gpus[0]["first"], "h100-nb-20261126");
    assert_eq!(gpus[0]["second"], "h200-nb-20261126");
    let rows = gpus[0]["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 6);
    for r in rows {
        assert_eq!(r["pairs"], 32, "{r}");
        if r["optimization"] == "RSQRT" || r["optimization"] == "SHMEM" {
            assert_eq!(r["same_direction"], 1.0, "{r}");
        }
    }
    // No simulated side: no simulator table.
    assert!(v["agreement"].as_array().unwrap().is_empty());
}

/// Two BH campaigns on H200 machines of two visits (`X` and `X-2`): the fidelity command
/// compares them like two GPUs. On the pairs both have, WARP and SORT went the same way every
/// time.
#[test]
fn fidelity_compares_two_visits_to_one_gpu() {
    let v = fidelity_of("datasets/h200-bh-20261126", "datasets/h200-bh-20261126-2");
    let gpus = v["gpu_agreement"].as_array().unwrap();
    assert_eq!(gpus.len(), 1);
    assert_eq!(gpus[0]["first"], "h200-bh-20261126");
    assert_eq!(gpus[0]["second"], "h200-bh-20261126-2");
    let rows = gpus[0]["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 6);
    for r in rows {
        if r["optimization"] == "WARP" || r["optimization"] == "SORT" {
            assert_eq!(r["same_direction"], 1.0, "{r}");
        }
    }
}

/// Two campaigns of one program and input on one GPU share sample keys; pooled, each sample
/// keeps its own id, so McNemar pairs every method's answer with the majority rule's on the
/// same sample: the discordant counts differ by exactly the difference in right answers.
#[test]
fn pooled_visits_to_one_gpu_pair_mcnemar_on_the_same_samples() {
    let v = crate::common::run_json([
        "experiment",
        "--exp",
        "kfold",
        "--method",
        "ibk",
        "--json",
        "--dataset",
        "datasets/h200-bh-20261126",
        "--dataset",
        "datasets/h200-bh-20261126-2",
    ]);
    let results: Vec<&serde_json::Value> = v["experiments"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|e| e.as_array().map_or_else(|| vec![e], |a| a.iter().collect()))
        .collect();
    let right = |r: &serde_json::Value| {
        let n: usize = r["optimizations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["samples"].as_array().unwrap().len())
            .sum();
        (r["total"]["accuracy"].as_f64().unwrap() * n as f64).round() as i64
    };
    let majority = results
        .iter()
        .find(|r| r["method"] == "baseline:majority")
        .unwrap();
    for r in results
        .iter()
        .filter(|r| r["method"] == "ibk" || r["method"] == "baseline:always")
    {
        for o in r["optimizations"].as_array().unwrap() {
            let mut ids: Vec<String> = o["samples"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| format!("{}|{}", s["choice"], s["id"]))
                .collect();
            let n = ids.len();
            ids.sort();
            ids.dedup();
            assert_eq!(ids.len(), n, "{} {}", r["method"], o["name"]);
        }
        let m = &r["vs_majority"];
        let (this, maj) = (
            m["only_this"].as_i64().unwrap(),
            m["only_majority"].as_i64().unwrap(),
        );
        assert_eq!(
            this - maj,
            right(r) - right(majority),
            "{}: {m}",
            r["method"]
        );
    }
}

/// The JSON says whether its samples were simulated, and the random baseline is tested as the
/// coin it is: its discordant counts against the majority rule are the expected ones (their
/// difference the difference in expected right answers), not those of a majority vote of its
/// seeds, which is the majority rule itself (McNemar p 1.000 at 83.6% against 90.0%).
#[test]
fn experiment_json_labels_simulated_data_and_tests_the_coin_as_a_coin() {
    let v = crate::common::run_json([
        "experiment",
        "--exp",
        "1",
        "--method",
        "ibk",
        "--json",
        "--dataset",
        "datasets/sim-qv100-nb",
        "--dataset",
        "datasets/sim-qv100-bh",
        "--program",
        "NB",
    ]);
    assert_eq!(v["data"], "SIMULATED", "{}", v["data"]);
    assert_eq!(v["simulated_samples"], v["samples"]);
    let results: Vec<&serde_json::Value> = v["experiments"].as_array().unwrap().iter().collect();
    let by = |m: &str| *results.iter().find(|r| r["method"] == m).unwrap();
    let (coin, majority) = (by("baseline:random"), by("baseline:majority"));
    let n: f64 = coin["optimizations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["samples"].as_array().unwrap().len() as f64)
        .sum();
    let acc = |r: &serde_json::Value| r["total"]["accuracy"].as_f64().unwrap();
    let m = &coin["vs_majority"];
    let diff = m["only_this"].as_f64().unwrap() - m["only_majority"].as_f64().unwrap();
    assert!(
        (diff - n * (acc(coin) - acc(majority))).abs() <= 1.0,
        "{m} over {n} samples"
    );
    if acc(coin) + 0.03 < acc(majority) {
        assert!(m["p_value"].as_f64().unwrap() < 0.05, "{m}");
    }
    // The model is tested against the best baseline as well.
    assert!(by("ibk")["vs_best_baseline"]["baseline"]
        .as_str()
        .unwrap()
        .starts_with("baseline:"));
}

/// `advise experiment --exp fidelity --json` on two datasets.
fn fidelity_of(a: &str, b: &str) -> serde_json::Value {
    crate::common::run_json([
        "experiment",
        "--exp",
        "fidelity",
        "--json",
        "--dataset",
        a,
        "--dataset",
        b,
    ])
}

/// A run or input filter that keeps no fold is an error that lists what the folds train on
/// (the SIMULATED NB campaign, three runs), not an empty result with exit 0; a bad band too.
#[test]
fn experiment_filters_that_keep_nothing_and_a_bad_band_are_usage_errors() {
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/sim-qv100-nb");
    advise()
        .args([
            "-q",
            "experiment",
            "--exp",
            "1",
            "--train-run",
            "9",
            "--dataset",
        ])
        .arg(&data)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "no fold matches --train-run/--train-input; the folds train on --train-run 1",
        ));
    advise()
        .args(["-q", "experiment", "--exp", "1", "--band=-1", "--dataset"])
        .arg(&data)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--band -1"));
}

/// Options that none of the chosen experiments reads are refused, not ignored without a word;
/// so are a report folder for a table alone and --summary without JSON.
#[test]
fn options_no_chosen_experiment_reads_are_refused() {
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/sim-qv100-nb");
    for (args, said) in [
        (
            vec!["--exp", "kfold", "--train-run", "1"],
            "--train-run is read by experiments 1 and 2 only",
        ),
        (vec!["--exp", "1", "--folds", "5"], "--folds is read by experiment kfold only"),
        (
            vec!["--exp", "kfold", "--program", "NB"],
            "--program is read by experiments 1-4 and loio only",
        ),
        (
            vec!["--exp", "fidelity", "--out-dir", "unused"],
            "--exp fidelity prints one table (or --json) and reads only --dataset; leave --out-dir out",
        ),
        (
            vec!["--exp", "statuner,1"],
            "experiment statuner runs alone: give `--exp statuner` without others",
        ),
        (
            vec!["--exp", "1", "--summary"],
            "--summary shortens the JSON (no per-sample predictions): add --json",
        ),
    ] {
        advise()
            .args(["-q", "experiment"])
            .args(&args)
            .arg("--dataset")
            .arg(&data)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(said));
    }
    assert!(!std::path::Path::new("unused").exists());
}

/// Holding out whole programs, the report says what its intervals do not cover: they resample
/// the held-out programs' own inputs and runs, and two programs are two samples of programs.
/// Experiments that hold out no program say nothing of it.
#[test]
fn leaving_programs_out_says_what_its_intervals_do_not_cover() {
    let run = |exp: &str| {
        let out = advise()
            .args(["-q", "experiment", "--exp", exp, "--method", "ibk"])
            .args(["--dataset", "datasets/h200-nb-20261126"])
            .args(["--dataset", "datasets/h200-bh-20261126"])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        String::from_utf8(out).unwrap()
    };
    let lopo = run("lopo");
    assert!(
        lopo.contains("Each of the 2 programs is held out in turn.")
            && lopo.contains("of which 2 programs are only 2 samples"),
        "{lopo}"
    );
    assert!(!run("kfold").contains("held out in turn"));
}

/// A row of NB whose variant is no bit string (`00000x` for `000000`) is an error naming the
/// folder and the row, not a sample that silently falls out of every pair.
#[test]
fn a_variant_that_is_no_bit_string_is_named() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/sim-qv100-nb");
    let dir = tempfile::tempdir().unwrap();
    let timings = std::fs::read_to_string(root.join("timings.csv")).unwrap();
    std::fs::write(
        dir.path().join("timings.csv"),
        timings.replace(",000000,", ",00000x,"),
    )
    .unwrap();
    let measurements = std::io::read_to_string(flate2::read::GzDecoder::new(
        std::fs::File::open(root.join("measurements.csv.gz")).unwrap(),
    ))
    .unwrap();
    std::fs::write(
        dir.path().join("measurements.csv"),
        measurements.replace(",000000,", ",00000x,"),
    )
    .unwrap();
    advise()
        .args(["experiment", "--exp", "1", "--method", "ibk", "--dataset"])
        .arg(dir.path())
        .assert()
        .code(3)
        .stderr(predicate::str::contains("`00000x` is not a variant"))
        .stderr(predicate::str::contains("program NB input"));
}
