//! The shipped advisor (models/default.advisor.json.gz) on real Nsight Compute details pages
//! of XPlacer's V100 runs (tests/fixtures/PROVENANCE.md): the Lassen page has the section
//! values the unified-memory models learned from, the AWS page too few of them; both show the
//! block size the step model of BLOCK_SIZE needs.

use std::path::Path;

use crate::common::advise;
use predicates::prelude::*;

pub(crate) const LASSEN: &str =
    "tests/fixtures/ncu/ncu_details_V100_xplacer_bfs_graph4096_lassen.csv";
pub(crate) const AWS: &str = "tests/fixtures/ncu/ncu_details_V100_xplacer_bfs_graph4096_aws.csv";
pub(crate) const B200: &str = "tests/fixtures/ncu/ncu_details_B200_superbenchmark_cublaslt.csv";
pub(crate) const B200_RAW: &str =
    "tests/fixtures/ncu/ncu_raw_B200_roofline-analysis_torch_sdpa_flash.csv";
pub(crate) const RTX5090: &str =
    "tests/fixtures/ncu/ncu_details_RTX5090_llmperfopt_flash_fwd_splitkv.csv";
pub(crate) const GINKGO: &str =
    "tests/fixtures/ncu/ncu_metrics_RTX4090_instroofline_ginkgo_spmm.csv";
pub(crate) const NVPROF: &str =
    "tests/fixtures/nvprof/nvprof_metrics_K20c_ieee2017_j2d5pt_jacobi-orig.csv";

/// `advise -q suggest [--json] --ncu-csv PAGE` with the shipped advisor, from the repository.
pub(crate) fn suggest(page: &str, json: bool) -> assert_cmd::assert::Assert {
    suggest_from(&["--ncu-csv", page], json)
}

/// `advise -q suggest [--json] INPUT...` with the shipped advisor, from the repository.
pub(crate) fn suggest_from(input: &[&str], json: bool) -> assert_cmd::assert::Assert {
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
pub(crate) fn suggestions(page: &str) -> (serde_json::Value, Vec<String>) {
    suggestions_from(&["--ncu-csv", page])
}

/// The same for any input (`--profile FILE`, ...).
pub(crate) fn suggestions_from(input: &[&str]) -> (serde_json::Value, Vec<String>) {
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
pub(crate) fn suggestion_named<'a>(v: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    v["suggestions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["optimization"] == name)
        .unwrap_or_else(|| panic!("{name} suggested: {v}"))
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
pub(crate) fn shipped_advisor() -> advise::recommend::bundle::Advisor {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    advise::recommend::bundle::Advisor::load(&root.join("models/default.advisor.json.gz")).unwrap()
}

/// A misspelt `--applied` name is said (even with -q), as it would otherwise be suggested
/// after all; a `--kernel` that matches nothing names the profile's kernels.
#[test]
fn an_unknown_applied_name_warns_and_a_kernel_miss_lists_the_kernels() {
    suggest_from(&["--applied", "SHMME", "--profile", LASSEN], false)
        .success()
        .stderr(predicate::str::contains(
            "advise: warning: --applied SHMME: models/default.advisor.json.gz knows no such \
             optimization; it knows ",
        ))
        .stderr(predicate::str::contains("SHMEM"));
    suggest_from(
        &["--applied", "SHMEM,BLOCK_SIZE", "--profile", LASSEN],
        false,
    )
    .success()
    .stderr(predicate::str::contains("warning").not());
    suggest_from(&["--kernel", "no_such_kernel", "--profile", LASSEN], false)
        .code(2)
        .stderr(predicate::str::contains("; its kernels: "));
}

/// `--host-link`: a details page shows no link, so the user's answers (the Lassen V100 is on
/// NVLink with address translation: the coherent host's models then answer); a raw page that
/// shows PCIe (B200) refuses the other link.
#[test]
fn the_host_link_a_profile_lacks_can_be_given() {
    let (v, _) = suggestions_from(&["--host-link", "coherent", "--profile", LASSEN]);
    assert_eq!(v["profile"]["host_link"], "coherent");
    assert_eq!(v["profile"]["host_link_given"], true);
    let (v, _) = suggestions_from(&["--profile", LASSEN]);
    assert!(v["profile"]["host_link"].is_null());
    suggest_from(&["--host-link", "coherent", "--profile", B200_RAW], false)
        .code(2)
        .stderr(predicate::str::contains("shows a PCIe-attached GPU"));
}
