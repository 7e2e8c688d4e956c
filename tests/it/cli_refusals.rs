//! Bad input on the command line that must be refused before any work (an output over an
//! input, another dataset's folder, a malformed switch, a damaged advisor, a file that is not
//! PTX), and loose spellings that must be understood.

use std::path::Path;

use predicates::prelude::*;

use crate::cli::fixture;
use crate::common::advise;

/// An output file that is also an input is refused before anything is written.
#[test]
fn an_output_over_an_input_is_refused_and_the_input_kept() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("profile.csv");
    std::fs::copy(
        fixture("ncu/ncu_details_V100_xplacer_bfs_graph4096_aws.csv"),
        &file,
    )
    .unwrap();
    let before = std::fs::read(&file).unwrap();
    advise()
        .arg("parse")
        .arg(&file)
        .arg("-o")
        .arg(&file)
        .assert()
        .failure()
        .code(2)
        .stderr(predicate::str::contains(
            "both an input and a file to write",
        ));
    assert_eq!(std::fs::read(&file).unwrap(), before);
}

/// An import into a folder that holds another dataset (here a campaign's ledger) is refused;
/// into an earlier import of its own it is repeated.
#[test]
fn an_import_into_another_dataset_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("data");
    let import = || {
        let mut cmd = advise();
        cmd.args(["-q", "import", "kernel-tuner"])
            .arg(fixture("spaces/pnpoly__RTX_2080_Ti.json.gz"))
            .arg("--out-dir")
            .arg(&out);
        cmd
    };
    import().assert().success();
    import().assert().success();
    std::fs::write(out.join("ledger.csv"), "job\n").unwrap();
    import()
        .assert()
        .code(2)
        .stderr(predicate::str::contains("already holds ledger.csv"));
}

/// `-o NAME.json` writes JSON without --json, as the name says.
#[test]
fn an_output_named_json_is_json() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("parsed.json");
    advise()
        .arg("parse")
        .arg(fixture(
            "ncu/ncu_details_V100_xplacer_bfs_graph4096_aws.csv",
        ))
        .arg("-o")
        .arg(&out)
        .assert()
        .success();
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert!(v["measurements"].as_array().is_some_and(|m| !m.is_empty()));
}

/// `explain` takes one name or --all, and a switch written PARAM:FROM->TO that changes a value.
#[test]
fn explain_names_one_entry_or_all_and_switches_in_their_form() {
    advise().args(["explain", "FTZ"]).assert().success();
    advise()
        .args(["explain", "READ_ONLY:0->1"])
        .assert()
        .success();
    advise().args(["explain", "--all"]).assert().success();
    advise()
        .args(["explain", "FTZ", "--all"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--all"));
    advise()
        .args(["explain", "READ_ONLY:banana"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("PARAM:FROM->TO"));
    advise()
        .args(["explain", "BLOCK_SIZE:128->128"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("128 -> 128 changes nothing"));
}

/// `--nvcc-flags` is split as a shell splits it: an unclosed quote is refused before nvcc.
#[test]
fn nvcc_flags_with_an_unclosed_quote_are_refused() {
    advise()
        .args(["static", "--nvcc-flags", "\"-O3"])
        .arg(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/static/nb_plain.cu"))
        .env("NVCC", "/nonexistent/nvcc")
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--nvcc-flags `\"-O3`: a quote is not closed",
        ));
}

/// An advisor without models, one with held-out counts beyond its rows, one with a damaged
/// calibration map, and a .ptx that is not PTX are bad input (exit 3) that says what is wrong.
#[test]
fn an_empty_advisor_and_a_file_that_is_not_ptx_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::io::read_to_string(flate2::read::GzDecoder::new(
        std::fs::File::open(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("models/default.advisor.json.gz"),
        )
        .unwrap(),
    ))
    .unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let model = dir.path().join("a.json");
    let suggest = |model: &Path| {
        let mut cmd = advise();
        cmd.args(["suggest", "--ncu-csv"])
            .arg(fixture(
                "ncu/ncu_metrics_RTX4090_instroofline_ginkgo_spmm.csv",
            ))
            .arg("--model")
            .arg(model);
        cmd
    };
    // Held-out counts beyond the training rows (a McNemar test over 10^11 samples took
    // minutes before the check).
    let mut huge = v.clone();
    huge["optimizations"][0]["validation"]["nn"] = serde_json::json!(99_999_999_999u64);
    std::fs::write(&model, huge.to_string()).unwrap();
    suggest(&model)
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "validation counts more held-out samples (pp, pn, np, nn) than its",
        ));
    // A feature named twice, and a method no advisor holds.
    let mut twice = v.clone();
    twice["features"][0] = twice["features"][1].clone();
    std::fs::write(&model, twice.to_string()).unwrap();
    suggest(&model).assert().code(3).stderr(
        predicate::str::contains("it names the feature").and(predicate::str::contains("twice")),
    );
    // The advisor's first two features swapped: its models read them the other way round.
    let mut swapped = v.clone();
    let first = swapped["features"][0].clone();
    swapped["features"][0] = swapped["features"][1].clone();
    swapped["features"][1] = first;
    std::fs::write(&model, swapped.to_string()).unwrap();
    suggest(&model).assert().code(3).stderr(
        predicate::str::contains("a.json: invalid advisor: the model of")
            .and(predicate::str::contains("model reads feature 1 as")),
    );
    let mut reversed = v.clone();
    reversed["optimizations"][0]["ranges"][0] = serde_json::json!([1.0, 0.0]);
    std::fs::write(&model, reversed.to_string()).unwrap();
    suggest(&model)
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "the range of feature 1 runs from 1 down to 0",
        ));
    let mut svm = v.clone();
    svm["method"] = "svm".into();
    std::fs::write(&model, svm.to_string()).unwrap();
    suggest(&model).assert().code(3).stderr(
        predicate::str::contains("unknown value `svm`")
            .and(predicate::str::contains("train it again")),
    );
    v["calibration"]["bounds"] = serde_json::json!([0.9, 0.1]);
    v["calibration"]["values"] = serde_json::json!([0.5, 0.6]);
    std::fs::write(&model, v.to_string()).unwrap();
    suggest(&model)
        .assert()
        .code(3)
        .stderr(predicate::str::contains("calibration map is damaged"));
    v["optimizations"] = serde_json::json!([]);
    v["calibration"]["bounds"] = serde_json::json!([]);
    v["calibration"]["values"] = serde_json::json!([]);
    std::fs::write(&model, v.to_string()).unwrap();
    suggest(&model)
        .assert()
        .code(3)
        .stderr(predicate::str::contains("holds no optimization's model"));
    let ptx = dir.path().join("k.ptx");
    std::fs::write(&ptx, "__global__ void k() {}\n").unwrap();
    advise()
        .arg("static")
        .arg(&ptx)
        .assert()
        .code(3)
        .stderr(predicate::str::contains("not PTX"));
}

/// A parameter switch must change something and be written PARAM:FROM->TO.
#[test]
fn a_switch_that_changes_nothing_or_is_malformed_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let features = dir.path().join("f.csv");
    std::fs::write(
        &features,
        "program,input,run,variant,time_ms,a\nP,s,0,X=0,1.0,2\nP,s,0,X=1,0.5,2\n",
    )
    .unwrap();
    for (switch, says) in [
        ("X:0->0", "changes nothing"),
        ("X:0->", "each part given once"),
        ("X:0->1->2", "each part given once"),
    ] {
        advise()
            .args(["samples", "--features"])
            .arg(&features)
            .args(["--optimization", switch])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(says));
    }
    advise()
        .args(["samples", "--features"])
        .arg(&features)
        .args(["--optimization", "X:0->1"])
        .assert()
        .success();
}

/// A program named in lower case is the data's; a binary compiled for another architecture
/// than --arch is said to be.
#[test]
fn a_program_without_case_and_a_binary_of_another_arch_are_understood() {
    advise()
        .args([
            "-q",
            "experiment",
            "--method",
            "baselines",
            "--exp",
            "1",
            "--program",
            "nb",
        ])
        .arg("--dataset")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/sim-qv100-nb"))
        .assert()
        .success();
    // A cubin is read with cuobjdump.
    if advise::static_analysis::nvcc::cuobjdump().is_none() {
        eprintln!("skipped: cuobjdump not found");
        return;
    }
    advise()
        .arg("blocksize")
        .arg(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/data/static/nb_opt_fastmath_sm90.cubin"),
        )
        .args(["--arch", "sm_75"])
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "is compiled for sm_90, not --arch sm_75",
        ));
}

/// A normalizer that no run measured is a misspelling, said as such (not "profile every run
/// with the same metric list"). Synthetic measurements.
#[test]
fn a_normalizer_no_run_has_is_named_as_a_misspelling() {
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("measurements.csv");
    std::fs::write(
        &table,
        "program,input,run,variant,kernel,launch,invocations,metric,unit,value\n\
         P,s,0,X=0,k,0,1,sm__cycles_active.sum,cycle,100\n\
         P,s,0,X=0,k,0,1,dram__bytes_read.sum,byte,10\n",
    )
    .unwrap();
    advise()
        .args([
            "features",
            "--normalizer",
            "sm__cycles_activ.sum",
            "--measurements",
        ])
        .arg(&table)
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "no measurement has this metric (misspelt?)",
        ));
}

/// `-o NAME.csv` writes CSV where the result is one table (the metric map, both of them), and
/// is refused before any work where it is a report (a search) or where --json asks for JSON.
#[test]
fn a_csv_name_gets_csv_or_a_refusal() {
    let dir = tempfile::tempdir().unwrap();
    let map = dir.path().join("map.csv");
    advise()
        .args(["metric-map", "-o"])
        .arg(&map)
        .assert()
        .success();
    let text = std::fs::read_to_string(&map).unwrap();
    assert!(
        text.starts_with("nvprof,ncu,match,scale,kind,note\n"),
        "{text}"
    );
    assert!(text.contains("\"nvprof ratio 0-1, ncu percent\""), "{text}");
    advise()
        .args(["metric-map", "--gpgpu-sim", "-o"])
        .arg(&map)
        .assert()
        .success();
    let text = std::fs::read_to_string(&map).unwrap();
    assert!(
        text.starts_with("ncu,computed_from,same_quantity,note\n"),
        "{text}"
    );
    let report = dir.path().join("search.csv");
    advise()
        .args(["search", "--budget", "2%", "--space"])
        .arg(fixture("spaces/pnpoly__RTX_2080_Ti.json.gz"))
        .arg("-o")
        .arg(&report)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("has no CSV form"));
    assert!(!report.exists());
    advise()
        .args(["variants", "--json", "-o"])
        .arg(dir.path().join("v.csv"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--json asks for JSON"));
}

/// Options that shape the counters view only are refused with the portable view, which would
/// ignore them (a misspelt --normalizer went unnoticed) or lose its columns (--keep-names).
#[test]
fn counter_view_options_are_refused_with_the_portable_view() {
    let m =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/h200-nb-20261130/measurements.csv.gz");
    for (view, option) in [
        ("portable", vec!["--normalizer", "nosuch"]),
        ("portable", vec!["--normalize", "all"]),
        ("portable", vec!["--keep-names"]),
        ("both", vec!["--keep-names"]),
    ] {
        advise()
            .args(["features", "--view", view, "--measurements"])
            .arg(&m)
            .args(&option)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(format!(
                "{} shapes the counters view only",
                option[0]
            )));
    }
}

/// The demo's options that only some of its modes read are refused elsewhere, before the
/// demo's minutes of work.
#[test]
fn demo_options_outside_their_mode_are_refused() {
    for (args, said) in [
        (
            vec!["--summary"],
            "--summary shortens the experiments' JSON",
        ),
        (
            vec!["--fixtures", "--json", "--summary"],
            "leave out --fixtures",
        ),
        (
            vec!["--data", "tests/fixtures"],
            "--data names the profiler files of --fixtures",
        ),
        // Said before minutes of experiments.
        (
            vec!["--method", "baselines", "--out-dir", "README.md"],
            "--out-dir README.md: a file, not a folder",
        ),
    ] {
        advise()
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .arg("demo")
            .args(&args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(said));
    }
}
