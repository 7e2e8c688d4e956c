//! The shipped advisor (models/default.advisor.json.gz) on real Nsight Compute details pages
//! of XPlacer's V100 runs (tests/fixtures/PROVENANCE.md): the Lassen page has the section
//! values the unified-memory models learned from, the AWS page too few of them; both show the
//! block size the step model of BLOCK_SIZE needs.

use std::path::Path;

use crate::common::advise;
use predicates::prelude::*;

const LASSEN: &str = "tests/fixtures/ncu/ncu_details_V100_xplacer_bfs_graph4096_lassen.csv";
const AWS: &str = "tests/fixtures/ncu/ncu_details_V100_xplacer_bfs_graph4096_aws.csv";
const B200: &str = "tests/fixtures/ncu/ncu_details_B200_superbenchmark_cublaslt.csv";
const RTX5090: &str = "tests/fixtures/ncu/ncu_details_RTX5090_llmperfopt_flash_fwd_splitkv.csv";
const GINKGO: &str = "tests/fixtures/ncu/ncu_metrics_RTX4090_instroofline_ginkgo_spmm.csv";
const NVPROF: &str = "tests/fixtures/nvprof/nvprof_metrics_K20c_ieee2017_j2d5pt_jacobi-orig.csv";

/// `advise -q suggest [--json] --ncu-csv PAGE` with the shipped advisor, from the repository.
fn suggest(page: &str, json: bool) -> assert_cmd::assert::Assert {
    suggest_from(&["--ncu-csv", page], json)
}

/// `advise -q suggest [--json] INPUT...` with the shipped advisor, from the repository.
fn suggest_from(input: &[&str], json: bool) -> assert_cmd::assert::Assert {
    let mut cmd = advise();
    cmd.current_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .env_remove("ADVISE_MODEL")
        .args(["-q", "suggest"]);
    if json {
        cmd.arg("--json");
    }
    cmd.args(input).assert()
}

/// The JSON of `suggest --json` on a page, and the names of its suggestions in order.
fn suggestions(page: &str) -> (serde_json::Value, Vec<String>) {
    suggestions_from(&["--ncu-csv", page])
}

/// The same for any input (`--profile FILE`, ...).
fn suggestions_from(input: &[&str]) -> (serde_json::Value, Vec<String>) {
    let out = suggest_from(input, true)
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let names = v["suggestions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["optimization"].as_str().unwrap().to_string())
        .collect();
    (v, names)
}

/// The unified-memory models advise on a details page; the models trained on raw counters
/// are left out, and the output says which. BLOCK_SIZE, whose step model needs no counter,
/// advises from the page's "Block Size" (512 threads) instead.
#[test]
fn a_details_page_gets_the_models_it_has_counters_for() {
    let (v, names) = suggestions(LASSEN);
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    assert!(!names.is_empty());
    assert!(
        names
            .iter()
            .all(|n| n.starts_with("UM_") || *n == "BLOCK_SIZE"),
        "{names:?}"
    );
    assert_eq!(v["profile"]["levels"]["BLOCK_SIZE"], 512.0);
    let left_out: Vec<&str> = v["profile"]["left_out"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    assert!(left_out.contains(&"SHMEM") && !left_out.contains(&"BLOCK_SIZE"));
    assert!(left_out.iter().all(|n| !names.contains(n)));
    // Learned from several programs: each suggestion says how it did on programs it had not
    // seen, and its confidence is no higher than that.
    for s in v["suggestions"].as_array().unwrap() {
        let across = s["across_programs_accuracy"].as_f64().unwrap();
        let reason = s["reason"].as_str().unwrap();
        assert!(s["confidence"].as_f64().unwrap() <= across + 1e-12, "{s}");
        assert!(reason.contains("on a program it had not seen"), "{reason}");
        if s["optimization"] == "BLOCK_SIZE" {
            assert_eq!(s["step"]["level"], 512.0);
            assert_eq!(s["step"]["to"], 1024.0);
            assert!(reason.contains("raising threads per block from 512 to 1024"));
            // The page names no registers per thread, so the step's effect on occupancy is
            // unknown; the step model was right less often than the majority rule on programs
            // it had not seen when it lacked occupancy, so the rule answers (its accuracy
            // caps the confidence) and the step model is the second opinion.
            let step_across = s["step"]["step_accuracy_across"].as_f64().unwrap();
            assert!(step_across < across, "{s}");
            assert_eq!(s["follows_rule"], true);
            assert!(reason.contains("so the rule answers"), "{reason}");
            let p = s["predicted_speedup"].as_f64().unwrap();
            assert!(
                reason.contains(&format!(
                    "median speedup {}x",
                    advise::number_format::fmt_sig(p, 3)
                )),
                "{reason}"
            );
        } else {
            assert!(reason.contains("(the second model's "), "{reason}");
        }
    }
    suggest(LASSEN, false).success().stdout(
        predicate::str::contains("Not advised on")
            .and(predicate::str::contains("SHMEM"))
            .and(predicate::str::contains(
                "BLOCK_SIZE (step model, programs held out; the majority rule answers)",
            )),
    );
}

/// The suggestion of `name` in `advise suggest --json`'s output.
fn suggestion_named<'a>(v: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    v["suggestions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["optimization"] == name)
        .unwrap_or_else(|| panic!("{name} suggested: {v}"))
}

/// The BLOCK_SIZE suggestion (advised from its step model).
fn block_suggestion(v: &serde_json::Value) -> &serde_json::Value {
    suggestion_named(v, "BLOCK_SIZE")
}

/// `--level` says where the code stands where the profile cannot show it, and overrides what
/// it shows; a family without levels, or a value that is not a positive number, is refused.
#[test]
fn a_level_given_by_the_user_brings_its_step_model() {
    let run = |level: &str| {
        let mut cmd = advise();
        cmd.current_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
            .env_remove("ADVISE_MODEL")
            .args([
                "-q",
                "suggest",
                "--json",
                "--level",
                level,
                "--ncu-csv",
                LASSEN,
            ])
            .assert()
    };
    let out = run("BLOCK_SIZE=128").success().get_output().stdout.clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["profile"]["levels"]["BLOCK_SIZE"], 128.0);
    let block = block_suggestion(&v);
    assert_eq!(block["step"]["meaning"], "threads per block");
    assert_eq!(block["step"]["to"], 256.0);
    // The page gives no GPU: the step has no occupancy until the user names one. Its two
    // kernels have 21 and 16 registers per thread, so one is chosen (Kernel2's 16: a V100
    // holds 128 -> 256 threads at full occupancy).
    assert!(block["step"].get("occupancy_change").is_none(), "{block}");
    let mut cmd = advise();
    let out = cmd
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .env_remove("ADVISE_MODEL")
        .args(["-q", "suggest", "--json", "--level", "BLOCK_SIZE=128"])
        .args(["--gpu", "Tesla V100-SXM2-16GB", "--kernel", "^Kernel2$"])
        .args(["--ncu-csv", LASSEN])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let block = block_suggestion(&v);
    assert_eq!(block["step"]["occupancy_change"], 1.0, "{block}");
    assert_eq!(block["step"]["warp_fill_change"], 1.0, "{block}");
    let mut cmd = advise();
    cmd.current_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .args([
            "-q",
            "suggest",
            "--level",
            "BLOCK_SIZE=128",
            "--gpu",
            "Voodoo3",
        ])
        .args(["--ncu-csv", LASSEN])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--gpu Voodoo3"));
    run("FOO=2")
        .failure()
        .stderr(predicate::str::contains("FOO has no levels"));
    run("BLOCK_SIZE=-4")
        .failure()
        .stderr(predicate::str::contains("positive number"));
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

/// A counter the profile lacks, where the shipped M5P tree tests it, is shown as missing with
/// the training mean the tree compared in its place (Weka's ReplaceMissingValues), on the
/// side of the threshold that mean lies, never as "NaN" (the GPGPU-Sim log of NB, simulated,
/// has no achieved occupancy and no SM-active share; the RTX 5090's details page has no
/// registers per thread, which the unified-memory trees of PCIe hosts test).
#[test]
fn a_missing_counter_in_a_tree_rule_is_named_missing_with_the_value_the_tree_used() {
    const SIM_LOG: &str = "tests/fixtures/gpgpusim/gpgpusim_SM7_QV100x2_NB_000000_512.log.gz";
    let mut missing = 0;
    for input in [["--profile", SIM_LOG], ["--ncu-csv", RTX5090]] {
        missing += missing_counters_named(&input);
    }
    assert!(
        missing > 0,
        "the fixtures no longer exercise a missing counter"
    );
}

/// Checks every missing deciding counter of the suggestions for `input`; how many there were.
fn missing_counters_named(input: &[&str]) -> usize {
    let run = |json: bool| {
        let out = suggest_from(input, json).success();
        String::from_utf8(out.get_output().stdout.clone()).unwrap()
    };
    let text = run(false);
    assert!(!text.contains("NaN"), "{text}");
    let v: serde_json::Value = serde_json::from_str(&run(true)).unwrap();
    let mut missing = 0;
    for s in v["suggestions"].as_array().unwrap() {
        for e in s["deciding_counters"].as_array().unwrap() {
            if !e["value"].is_null() {
                assert!(e["taken_as"].is_null(), "{e}");
                continue;
            }
            missing += 1;
            let mean = e["taken_as"]
                .as_f64()
                .expect("a missing value names its stand-in");
            let t = e["threshold"].as_f64().unwrap();
            let side = if mean <= t { "<=" } else { ">" };
            let name = e["counter"].as_str().unwrap();
            assert!(
                text.contains(&format!(
                    "{name} = missing (the model took the training mean, "
                )) && text.contains(&format!(") {side} ")),
                "{name}: {text}"
            );
        }
    }
    missing
}

/// A real H200 profile of a matrix multiply (datasets/verify-20261126, measured): far from
/// every NB/BH training row, so an optimization never validated on a program the advisor had
/// not seen is capped at the advisor's pooled accuracy on such programs and says why.
#[test]
fn an_extrapolation_never_validated_across_programs_is_capped_at_the_pooled_accuracy() {
    let advisor = shipped_advisor();
    let pooled = advisor.across_programs_accuracy().unwrap();
    assert!(pooled > 0.3 && pooled < 0.8, "{pooled}");
    let (v, _) = suggestions("datasets/verify-20261126/profiles/matMul-Gm/ncu.csv");
    let list = v["suggestions"].as_array().unwrap();
    let capped: Vec<&serde_json::Value> = list
        .iter()
        .filter(|s| s["extrapolation"] == true && s.get("across_programs_accuracy").is_none())
        .collect();
    assert!(capped.len() >= 5, "{v}");
    for s in capped {
        let c = s["confidence"].as_f64().unwrap();
        assert!(c <= pooled + 1e-9, "{s}");
        let reason = s["reason"].as_str().unwrap();
        assert!(reason.contains("never validated on a program"), "{reason}");
    }
    // Suggestions inside the data, or validated across programs, are not capped this way.
    assert!(list
        .iter()
        .filter(|s| s.get("across_programs_accuracy").is_some())
        .all(|s| !s["reason"]
            .as_str()
            .unwrap()
            .contains("never validated on a program")));
}

/// A GPGPU-Sim log is simulated, and the suggestions for it say so (terminal and JSON); a
/// measured profile does not.
#[test]
fn suggestions_for_a_simulator_log_say_the_profile_is_simulated() {
    let sim = "tests/fixtures/gpgpusim/gpgpusim_SM7_QV100x2_NB_000000_512.log.gz";
    let text = suggest_from(&["--profile", sim], false)
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(text).unwrap();
    assert!(
        text.contains("GPGPU-Sim log: its counters are SIMULATED"),
        "{text}"
    );
    let json = suggest_from(&["--profile", sim], true)
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&json).unwrap();
    assert_eq!(v["profile"]["simulated"], true);
    let (v, _) = suggestions(LASSEN);
    assert!(v["profile"].get("simulated").is_none());
}

/// Where the model did not beat the majority rule significantly on programs it had not seen,
/// the shipped advisor's suggestion follows the rule: TILE_SIZE's model was right 40.5% of the
/// time across programs against the rule's 65.7% (docs/results/train.txt). The model becomes
/// the second opinion, the confidence is capped at the rule's accuracy, and the reason says so.
/// SOA's model, significantly better than the rule in grouped validation, still answers.
#[test]
fn an_optimization_whose_model_did_not_beat_the_majority_rule_follows_the_rule() {
    let advisor = shipped_advisor();
    let tile = advisor
        .optimizations
        .iter()
        .find(|m| m.name == "TILE_SIZE up")
        .or_else(|| advisor.optimizations.iter().find(|m| m.name == "TILE_SIZE"))
        .expect("TILE_SIZE in the shipped advisor");
    let across = tile.across_programs.as_ref().unwrap();
    assert!(tile.follows_rule && across.accuracy < across.majority_accuracy);
    let (v, _) = suggestions("datasets/verify-20261126/profiles/matMul-Gm/ncu.csv");
    let s = v["suggestions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["optimization"].as_str().unwrap().starts_with("TILE_SIZE"))
        .expect("a TILE_SIZE suggestion");
    assert_eq!(s["follows_rule"], true);
    let cap = s["across_programs_accuracy"].as_f64().unwrap();
    assert!((cap - across.majority_accuracy).abs() < 1e-12, "{s}");
    assert!(s["confidence"].as_f64().unwrap() <= cap + 1e-12, "{s}");
    let reason = s["reason"].as_str().unwrap();
    assert!(reason.starts_with("follows the majority rule"), "{reason}");
    // The rule's speedup is the training median: on the majority's side of 1.0.
    let p = s["predicted_speedup"].as_f64().unwrap();
    assert_eq!(p > 1.0, tile.positive_rate > 0.5, "{s}");
    let soa = advisor
        .optimizations
        .iter()
        .find(|m| m.name == "SOA")
        .unwrap();
    assert!(!soa.follows_rule);
}

/// The advisor shipped in the repository (models/default.advisor.json.gz).
fn shipped_advisor() -> advise::recommend::bundle::Advisor {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    advise::recommend::bundle::Advisor::load(&root.join("models/default.advisor.json.gz")).unwrap()
}

/// The values of `feature` in the training rows the shipped advisor learned `optimization`
/// from, where known.
fn known_values(optimization: &str, feature: &str) -> Vec<f64> {
    let advisor = shipped_advisor();
    let j = advisor.features.iter().position(|f| f == feature).unwrap();
    let m = advisor
        .optimizations
        .iter()
        .find(|m| m.name == optimization)
        .unwrap();
    m.rows
        .iter()
        .map(|r| r[j])
        .filter(|v| v.is_finite())
        .collect()
}

/// WARP removes divergence: a profile without a divergent branch (a matrix multiply on the
/// H200) does not get it, a BH profile does. The rule (recommend::profile_checks) holds on
/// every sample the shipped advisor learned WARP from: none has a zero divergent share.
#[test]
fn warp_needs_divergent_branches_in_the_profile() {
    let names = |profile: &str| suggestions_from(&["--profile", profile]).1;
    let (v, matmul) = suggestions_from(&[
        "--profile",
        "datasets/verify-20261126/profiles/matMul-Gm/ncu.csv",
    ]);
    assert!(
        !matmul.is_empty() && !matmul.contains(&"WARP".to_string()),
        "{matmul:?}"
    );
    // The JSON says why it was left out.
    let left = &v["profile"]["not_suggested"][0];
    assert_eq!(left["optimization"], "WARP");
    assert!(left["reason"]
        .as_str()
        .unwrap()
        .starts_with("does not apply to this profile: the profile shows no divergent branch"));
    let bh = names("datasets/h200-bh-20261126-2/raw/ncu_BH_000000_100000x2_run1.csv.gz");
    assert!(bh.contains(&"WARP".to_string()), "{bh:?}");

    // The measured samples have the share (GPGPU-Sim's statistics do not).
    let known = known_values("WARP", "portable__divergent_branch_share");
    assert!(known.len() >= 70, "{}", known.len());
    assert!(
        known.iter().all(|&v| v > 0.0),
        "a WARP sample without divergence"
    );
}

/// SHMEM stages data in shared memory: a profile whose kernels already use it (the matrix
/// multiplies with shared tiles on the H200) does not get it, one without does. The rule
/// (recommend::profile_checks) holds on every sample the shipped advisor learned SHMEM from:
/// none uses shared memory before the change.
#[test]
fn shmem_is_left_out_where_the_profile_already_uses_shared_memory() {
    let (v, sm) = suggestions_from(&[
        "--profile",
        "datasets/verify-20261126/profiles/matMul-Sm/ncu.csv",
    ]);
    assert!(
        !sm.is_empty() && !sm.contains(&"SHMEM".to_string()),
        "{sm:?}"
    );
    let left: Vec<&serde_json::Value> = v["profile"]["not_suggested"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["optimization"] == "SHMEM")
        .collect();
    assert_eq!(left.len(), 1, "{v}");
    assert!(left[0]["reason"]
        .as_str()
        .unwrap()
        .contains("already stages data in shared memory"));
    let gm = suggestions_from(&[
        "--profile",
        "datasets/verify-20261126/profiles/matMul-Gm/ncu.csv",
    ])
    .1;
    assert!(gm.contains(&"SHMEM".to_string()), "{gm:?}");

    let known = known_values("SHMEM", "portable__shared_per_inst");
    assert!(known.len() >= 100, "{}", known.len());
    assert!(
        known.iter().all(|&v| v == 0.0),
        "a SHMEM sample that used shared memory before the change"
    );
}

/// PADDING pads shared-memory arrays: a profile without shared-memory instructions (the
/// global-memory matrix multiply on the H200) does not get it. The advisor learned PADDING
/// from KTT's convolution alone, and every configuration of it has shared memory.
#[test]
fn padding_needs_shared_memory_in_the_profile() {
    let (v, gm) = suggestions_from(&[
        "--profile",
        "datasets/verify-20261126/profiles/matMul-Gm/ncu.csv",
    ]);
    assert!(
        !gm.is_empty() && !gm.contains(&"PADDING".to_string()),
        "{gm:?}"
    );
    assert!(v["profile"]["not_suggested"]
        .as_array()
        .unwrap()
        .iter()
        .any(|n| n["optimization"] == "PADDING"
            && n["reason"]
                .as_str()
                .unwrap()
                .contains("no shared-memory array to pad")));

    let advisor = shipped_advisor();
    let padding = advisor
        .optimizations
        .iter()
        .find(|m| m.name == "PADDING")
        .unwrap();
    assert_eq!(padding.programs, vec!["Convolution".to_string()]);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let rows = advise::dataset::measurements::read_measurements(
        &root.join("datasets/ktt-convolution-rtx2080ti/measurements.csv.gz"),
    )
    .unwrap();
    let shared: Vec<f64> = rows
        .iter()
        .filter(|r| r.metric == "ktt__local_memory_size")
        .map(|r| r.value)
        .collect();
    assert!(shared.len() >= 5000, "{}", shared.len());
    assert!(
        shared.iter().all(|&b| b > 0.0),
        "a configuration without shared memory"
    );
}

/// A profile that shows the bank conflicts padding removes (the shared-memory transpose on the
/// H200: 31 extra wavefronts per shared load) gets no verdict on PADDING, whose training data
/// (KTT's convolution) never measured bank conflicts: its 1.00x met a 2.15x padded tile there
/// (datasets/verify-h200-20261127). The padded tile's own profile (0.05) is not flagged.
#[test]
fn padding_is_uncertain_where_the_profile_shows_bank_conflicts_its_data_never_had() {
    let padding = |program: &str| {
        let profile = format!("datasets/verify-h200-20261127/profiles/{program}/ncu.csv");
        let (v, _) = suggestions_from(&["--profile", &profile]);
        suggestion_named(&v, "PADDING").clone()
    };
    let conflicted = padding("transpose-Sm");
    assert_eq!(conflicted["verdict"], "uncertain", "{conflicted}");
    let reason = conflicted["reason"].as_str().unwrap();
    assert!(
        reason.contains("uncertain: the profile shows 31.3 extra shared-memory wavefronts")
            && reason.contains("none of the 600 training pairs measured it"),
        "{reason}"
    );
    let padded = padding("transpose-Sm-Pad");
    assert_ne!(padded["verdict"], "uncertain", "{padded}");
    assert!(!padded["reason"].as_str().unwrap().contains("wavefronts"));

    assert!(known_values("PADDING", "portable__bank_conflicts_per_shared").is_empty());
}

/// Unified memory's policies are answered by the models learned on the profile's own host
/// link: the H200 of datasets/verify-h200-20261127 is PCIe-attached (its Nsight Compute
/// profile has `c2clink__present` 0 and no host page-table access), so XPlacer's AWS V100
/// measurements answer, not Lassen's coherent NVLink ones; the shipped advisor has both.
#[test]
fn unified_memory_is_answered_by_the_profiles_host_link() {
    let advisor = shipped_advisor();
    for link in ["pcie", "coherent"] {
        assert!(
            advisor
                .optimizations
                .iter()
                .any(|m| m.name == "UM_MANAGED"
                    && serde_json::to_value(m.host_link).unwrap() == link),
            "no UM_MANAGED model learned on a {link} host"
        );
    }
    const H200: &str = "datasets/verify-h200-20261127/profiles/matMul-Gm/ncu.csv";
    let (v, names) = suggestions_from(&["--profile", H200]);
    assert_eq!(v["profile"]["host_link"], "pcie");
    suggest_from(&["--profile", H200], false)
        .success()
        .stdout(predicate::str::contains(
            "Host link: PCIe, from the profile's device attributes",
        ));
    assert_eq!(names.iter().filter(|n| *n == "UM_MANAGED").count(), 1);
    // Its rule's median (0.99x, "no clear effect") hides a large share that slowed down; the
    // reason shows the split of XPlacer's AWS pairs.
    let managed = suggestion_named(&v, "UM_MANAGED");
    assert_eq!(managed["verdict"], "no clear effect", "{managed}");
    assert!(
        managed["reason"]
            .as_str()
            .unwrap()
            .contains("4% faster by more than 2%, 53% within 2%, 43% slower by more than 2%"),
        "{managed}"
    );
    for s in v["suggestions"].as_array().unwrap() {
        let name = s["optimization"].as_str().unwrap();
        if name.starts_with("UM_") {
            assert_eq!(s["host_link"], "pcie", "{s}");
            let reason = s["reason"].as_str().unwrap();
            assert!(
                reason.contains(
                    "learned from measurements on a PCIe-attached GPU, as the profile shows"
                ),
                "{reason}"
            );
        } else {
            assert!(s.get("host_link").is_none(), "{s}");
        }
    }
}
