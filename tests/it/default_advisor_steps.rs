//! The shipped advisor's block-size step model on real profiles (tests/fixtures/PROVENANCE.md):
//! where the level comes from (the user's `--level`, a details page's launch columns), what
//! happens where the profile lacks counters or the doubled block would not launch, and a
//! refused page of several block sizes.

use std::path::Path;

use super::default_advisor::{
    suggest, suggest_from, suggestion_named, suggestions, suggestions_from, AWS, B200, GINKGO,
    LASSEN, NVPROF, RTX5090,
};
use crate::common::advise;
use predicates::prelude::*;

/// The BLOCK_SIZE suggestion (advised from its step model).
fn block_suggestion(v: &serde_json::Value) -> &serde_json::Value {
    suggestion_named(v, "BLOCK_SIZE")
}

/// `--level` says where the code stands where the profile cannot show it, and overrides what
/// it shows; a family without levels, or a value that is not a positive number, is refused.
#[test]
fn a_level_given_by_the_user_brings_its_step_model() {
    let run = |level: &str| suggest_from(&["--level", level, "--ncu-csv", LASSEN], true);
    let (v, _) = suggestions_from(&["--level", "BLOCK_SIZE=128", "--ncu-csv", LASSEN]);
    assert_eq!(v["profile"]["levels"]["BLOCK_SIZE"], 128.0);
    let block = block_suggestion(&v);
    assert_eq!(block["step"]["meaning"], "threads per block");
    assert_eq!(block["step"]["to"], 256.0);
    // The page gives no GPU: the step has no occupancy until the user names one. Its two
    // kernels have 21 and 16 registers per thread, so one is chosen (Kernel2's 16: a V100
    // holds 128 -> 256 threads at full occupancy).
    assert!(block["step"].get("occupancy_change").is_none(), "{block}");
    let (v, _) = suggestions_from(&[
        "--level",
        "BLOCK_SIZE=128",
        "--gpu",
        "Tesla V100-SXM2-16GB",
        "--kernel",
        "^Kernel2$",
        "--ncu-csv",
        LASSEN,
    ]);
    let block = block_suggestion(&v);
    assert_eq!(block["step"]["occupancy_change"], 1.0, "{block}");
    assert_eq!(block["step"]["warp_fill_change"], 1.0, "{block}");
    suggest_from(
        &[
            "--level",
            "BLOCK_SIZE=128",
            "--gpu",
            "Voodoo3",
            "--ncu-csv",
            LASSEN,
        ],
        false,
    )
    .code(2)
    .stderr(predicate::str::contains("--gpu Voodoo3"));
    run("FOO=2")
        .failure()
        .stderr(predicate::str::contains("FOO has no levels"));
    for bad in [
        "BLOCK_SIZE=-4",
        "BLOCK_SIZE=2048",
        "BLOCK_SIZE=3.5",
        "TILE_SIZE=1e30",
    ] {
        run(bad)
            .failure()
            .stderr(predicate::str::contains("whole number from 1 to 1024"));
    }
}

/// The AWS page has too few of the counters of any model but unified memory's on PCIe hosts
/// (learned from pages like it, XPlacer's on AWS), and shows its block size: the block-size
/// step model, which needs no counter, advises on it too. A details page does not show how
/// the GPU is attached, so the PCIe models answer, and say why. A profile with neither
/// (nvprof's metrics of a Kepler stencil) is refused with the command that collects them.
#[test]
fn a_page_without_enough_counters_gets_only_the_step_model_and_the_pages_own_kind() {
    let (v, names) = suggestions(AWS);
    assert!(v["profile"].get("host_link").is_none(), "{v}");
    suggest(AWS, false)
        .success()
        .stdout(predicate::str::contains(
            "Host link: not shown by the profile",
        ));
    assert_eq!(names[0], "BLOCK_SIZE");
    assert_eq!(v["suggestions"][0]["step"]["level"], 512.0);
    for s in &v["suggestions"].as_array().unwrap()[1..] {
        assert!(
            s["optimization"].as_str().unwrap().starts_with("UM_"),
            "{s}"
        );
        assert_eq!(s["host_link"], "pcie", "{s}");
        assert!(s["reason"]
            .as_str()
            .unwrap()
            .contains("taken to be on PCIe"));
    }
    suggest(NVPROF, false).failure().stderr(
        predicate::str::contains("too many to advise on")
            .and(predicate::str::contains("ncu --csv --page raw --metrics")),
    );
}

/// A details page whose sections leave out Launch Statistics still shows its block size and
/// GPU in ncu's launch columns (RTX 5090: 128 threads, compute capability 12.0), so the
/// block-size step model advises on it. Where the doubled block would not launch (a B200
/// cuBLASLt kernel of 384 threads at 168 registers: 768 threads would need 129,024
/// registers, a block may have 65,536), the step model judges halving it instead, and says
/// why; with BLOCK_SIZE named as applied nothing is left to judge, and the answer says so.
#[test]
fn the_launch_columns_bring_the_block_step_and_a_block_that_cannot_double_is_halved() {
    let (v, names) = suggestions(RTX5090);
    assert!(names.iter().any(|n| n == "BLOCK_SIZE"), "{names:?}");
    assert_eq!(v["profile"]["levels"]["BLOCK_SIZE"], 128.0);
    let block = block_suggestion(&v);
    // No register count on this page: the occupancy stays unknown, and the reason says so.
    assert!(block["step"].get("occupancy_change").is_none(), "{block}");
    assert!(block["reason"]
        .as_str()
        .unwrap()
        .contains("lacks launch__registers_per_thread"));
    // Without occupancy the step model did no better than the majority rule across programs:
    // the rule answers.
    assert_eq!(block["follows_rule"], true, "{block}");

    let (v, names) = suggestions(B200);
    assert!(
        names
            .iter()
            .all(|n| n == "BLOCK_SIZE" || n.starts_with("UM_")),
        "{names:?}"
    );
    let block = block_suggestion(&v);
    assert_eq!(block["step"]["level"], 384.0);
    assert_eq!(block["step"]["to"], 192.0);
    let why = block["step"]["lowered_because"].as_str().unwrap();
    assert!(
        why.contains("768 threads") && why.contains("129024"),
        "{why}"
    );
    // 168 registers: 12 warps per SM either way (one block of 12, two of 6). With occupancy
    // known the step model beat the majority rule across programs, so it answers.
    assert_eq!(block["step"]["occupancy_change"], 1.0, "{block}");
    assert_eq!(block["follows_rule"], false, "{block}");
    // It is judged by the held-out steps that left occupancy unchanged, as this one does.
    assert!(
        block["reason"]
            .as_str()
            .unwrap()
            .contains("of the time on steps that left occupancy unchanged, on a program"),
        "{block}"
    );
    let reason = block["reason"].as_str().unwrap();
    assert!(
        reason.starts_with("lowering threads per block from 384 to 192"),
        "{reason}"
    );
    // Right on about half of such steps across programs: no better than a coin toss, so no
    // verdict, whatever the confidence (recommend::validation::beats_coin_toss).
    assert_eq!(block["verdict"], "uncertain", "{block}");
    assert!(
        reason.contains("no better than a coin toss by the sign test"),
        "{reason}"
    );

    // Past 1,024 threads no GPU launches a block, whatever it is; a profile with the counter
    // model's counters (BH on the H200) gives its opinion of raising, which lowering reverses.
    let (v, _) = suggestions_from(&[
        "--profile",
        "datasets/h200-bh-20261126-2/raw/ncu_BH_000000_100000x2_run1.csv.gz",
        "--level",
        "BLOCK_SIZE=1024",
    ]);
    let block = block_suggestion(&v);
    assert_eq!(block["step"]["to"], 512.0);
    assert!(block["step"]["lowered_because"]
        .as_str()
        .unwrap()
        .contains("more than 1,024 threads per block"));
    let reason = block["reason"].as_str().unwrap();
    assert!(
        reason.contains("for raising it (so lowering is the reverse)"),
        "{reason}"
    );
    let (p, q) = (
        block["predicted_speedup"].as_f64().unwrap(),
        block["second_opinion"].as_f64().unwrap(),
    );
    assert!(p > 0.0 && q > 0.0, "{block}");

    // Nothing left to judge: the answer says so, in the terminal and in the report.
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().to_str().unwrap();
    suggest_from(
        &[
            "--ncu-csv",
            B200,
            "--applied",
            "BLOCK_SIZE,UM_MANAGED,UM_READ_MOSTLY,UM_PREFERRED_GPU,UM_ACCESSED_BY_GPU,\
             UM_PREFERRED_CPU,UM_ACCESSED_BY_CPU",
            "--report-dir",
            report,
        ],
        false,
    )
    .success()
    .stdout(predicate::str::contains("No suggestion"));
    let md = std::fs::read_to_string(dir.path().join("report.md")).unwrap();
    assert!(
        md.contains("No suggestion") && !md.contains("Nothing is predicted"),
        "{md}"
    );
    // A GPU named with --gpu replaces the page's own, and a note says so.
    let mut cmd = advise();
    cmd.current_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .env_remove("ADVISE_MODEL")
        .args(["suggest", "--gpu", "7.5", "--ncu-csv", B200])
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "--gpu 7.5 (compute capability 7.5) replaces the profile's own, 10.0",
        ));
}

/// A `--metrics` page of four kernels with 14 counters (Ginkgo's SpMM on an RTX 4090) is
/// refused for want of counters, and since its launches differ in block size (128 and 512
/// threads) the refusal says that one kernel alone gets the block-size step; with `--kernel`
/// it does (128 threads, compute capability 8.9 from the page's "CC" column).
#[test]
fn a_refused_page_of_several_block_sizes_points_to_one_kernel() {
    suggest(GINKGO, false).failure().stderr(
        predicate::str::contains("2 block sizes (128, 512 threads)")
            .and(predicate::str::contains("--kernel REGEX")),
    );
    let (v, names) = suggestions_from(&["--ncu-csv", GINKGO, "--kernel", "spmv"]);
    assert_eq!(names, ["BLOCK_SIZE"]);
    assert_eq!(v["profile"]["levels"]["BLOCK_SIZE"], 128.0);
}
