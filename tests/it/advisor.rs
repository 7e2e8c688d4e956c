//! `advise train`, `suggest` and `profile`: an advisor trained on a generated (synthetic) NB
//! campaign whose counters carry the names of a real recorded ncu file, applied to that real
//! file directly and through a stand-in ncu that replays it.

use std::path::{Path, PathBuf};

use crate::common::advise;
use predicates::prelude::*;

pub(crate) fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

pub(crate) const GINKGO: &str =
    "tests/fixtures/ncu/ncu_metrics_RTX4090_instroofline_ginkgo_spmm.csv";

pub(crate) struct Setup {
    _dir: tempfile::TempDir,
    pub(crate) model: PathBuf,
    pub(crate) work: PathBuf,
}

pub(crate) fn setup() -> Setup {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("synthetic-nb");
    std::fs::create_dir(&data).unwrap();
    crate::common::write_synthetic_nb_with(&data, &crate::common::GINKGO_METRICS, 11);
    let model = dir.path().join("advisor.json");
    advise()
        .args([
            "train",
            "--features",
            "counters",
            "--max-samples",
            "200",
            "--dataset",
        ])
        .arg(&data)
        .arg("-o")
        .arg(&model)
        .assert()
        .success()
        .stdout(predicate::str::contains("SHMEM"))
        .stdout(predicate::str::contains(
            "seed 1, at most 200 samples per optimization",
        ));
    // The file records what else it was trained with, so that it can be trained again.
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&model).unwrap()).unwrap();
    assert_eq!(
        file["trained_with"],
        serde_json::json!({"seed": 1, "max_samples": 200, "folds": 10})
    );
    let work = dir.path().join("work");
    Setup {
        model,
        work,
        _dir: dir,
    }
}

#[test]
fn suggest_ranks_every_nb_optimization_for_a_real_ncu_file() {
    let s = setup();
    let out = advise()
        .args(["suggest", "--json", "--ncu-csv", GINKGO, "--model"])
        .arg(&s.model)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let list = v["suggestions"].as_array().unwrap();
    assert_eq!(list.len(), 6);
    for x in list {
        for k in ["optimization", "predicted_speedup", "confidence", "reason"] {
            assert!(!x[k].is_null(), "{k} missing in {x}");
        }
        let c = x["confidence"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&c));
        // One program (synthetic NB): nothing was validated across programs.
        assert!(x.get("across_programs_accuracy").is_none(), "{x}");
    }
    assert_eq!(v["profile"]["features_present"], 14);
    assert_eq!(v["profile"]["kernels"].as_array().unwrap().len(), 4);
    // The real profile is far from the synthetic training data: it must say so.
    assert!(list.iter().all(|x| x["extrapolation"] == true));
    assert!(v.get("kernels").is_none(), "per-kernel only on request");

    let out = advise()
        .args([
            "suggest",
            "--json",
            "--per-kernel",
            "--ncu-csv",
            GINKGO,
            "--model",
        ])
        .arg(&s.model)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let kernels = v["kernels"].as_array().unwrap();
    assert_eq!(kernels.len(), 4);
    assert!(kernels
        .iter()
        .all(|k| k["suggestions"].as_array().unwrap().len() == 6));

    let table = advise()
        .args([
            "suggest",
            "--ncu-csv",
            GINKGO,
            "--applied",
            "FTZ,RSQRT",
            "--model",
        ])
        .arg(&s.model)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(table).unwrap();
    assert!(!text.contains(" FTZ ") && !text.contains("RSQRT"), "{text}");
    let tmp = s.model.parent().unwrap().display().to_string();
    insta::assert_snapshot!(text.replace(&tmp, "<tmp>"));
}

#[test]
fn profile_runs_the_app_through_ncu_with_its_arguments_unchanged() {
    let s = setup();
    let argv = s.work.join("argv.txt");
    std::fs::create_dir_all(&s.work).unwrap();
    let tricky = ["two words", "quote\"d 'single'", "semi;colon", "$HOME", "*"];
    let out = advise()
        .env("NCU", root().join("tests/stand-ins/replay_ncu.sh"))
        .env("STANDIN_CSV", root().join(GINKGO))
        .env("STANDIN_ARGV", &argv)
        .args(["profile", "--json", "--dir"])
        .arg(s.work.join("prof"))
        .arg("--model")
        .arg(&s.model)
        .arg("--")
        .arg("/bin/echo")
        .args(tricky)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let recorded = std::fs::read_to_string(&argv).unwrap();
    let mut expected = vec!["/bin/echo"];
    expected.extend(tricky);
    assert_eq!(recorded.lines().collect::<Vec<_>>(), expected);
    // The app's own output comes first; the JSON document follows it.
    let text = String::from_utf8(out).unwrap();
    let json = &text[text.find('{').unwrap()..];
    let v: serde_json::Value = serde_json::from_str(json).unwrap();
    assert_eq!(v["suggestions"].as_array().unwrap().len(), 6);
    assert!(s.work.join("prof/ncu.csv").is_file(), "raw CSV kept");
}

#[test]
fn detected_optimizations_in_the_source_are_not_suggested() {
    if std::process::Command::new("nvcc")
        .arg("--version")
        .output()
        .is_err()
        && std::env::var_os("NVCC").is_none()
    {
        eprintln!("SKIPPED: nvcc not found; applied-optimization detection not exercised");
        return;
    }
    let s = setup();
    let cu = s.model.parent().unwrap().join("tiled.cu");
    std::fs::write(
        &cu,
        "__global__ void abstract_classical_spmv(const float* a, float* b) {\n  __shared__ float t[256];\n  t[threadIdx.x] = a[threadIdx.x];\n  __syncthreads();\n  b[threadIdx.x] = t[255 - threadIdx.x];\n}\n",
    )
    .unwrap();
    let with_source = |src: &Path| {
        advise()
            .args(["suggest", "--json", "--ncu-csv", GINKGO, "--model"])
            .arg(&s.model)
            .arg("--source")
            .arg(src)
            .assert()
            .success()
    };
    let out = with_source(&cu).get_output().stdout.clone();
    // What was left out, and why, as the JSON's profile.not_suggested says it.
    let reasons = |out: &[u8]| -> Vec<String> {
        let v: serde_json::Value = serde_json::from_slice(out).unwrap();
        // Left out of the JSON where nothing was left out.
        v["profile"]["not_suggested"]
            .as_array()
            .map_or(Vec::new(), |a| {
                a.iter()
                    .map(|x| format!("{} {}", x["optimization"].as_str().unwrap(), x["reason"]))
                    .collect()
            })
    };
    let why = reasons(&out);
    for said in [
        "SHMEM \"is already applied",
        "RSQRT \"does not apply to",
        "UNROLL \"does not apply to",
    ] {
        assert!(why.iter().any(|w| w.starts_with(said)), "{said}: {why:?}");
    }
    let names = |out: &[u8]| -> Vec<String> {
        let v: serde_json::Value = serde_json::from_slice(out).unwrap();
        v["suggestions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x["optimization"].as_str().unwrap().to_string())
            .collect()
    };
    let left = names(&out);
    // SHMEM is applied; the copy has no square root (RSQRT), no float arithmetic (FTZ) and
    // no loop (UNROLL, PEEL) to change: CONST is left.
    assert_eq!(left, ["CONST"]);
    // A loop over square roots keeps them all.
    let root = s.model.parent().unwrap().join("root.cu");
    std::fs::write(
        &root,
        "__global__ void abstract_classical_spmv(const float* a, float* b, int n) {\n  float s = 0.0f;\n  for (int i = 0; i < n; i++) s += 1.0f / sqrtf(a[i]);\n  b[threadIdx.x] = s;\n}\n",
    )
    .unwrap();
    let out = with_source(&root).get_output().stdout.clone();
    assert!(
        !reasons(&out).iter().any(|w| w.contains("does not apply")),
        "{:?}",
        reasons(&out)
    );
    assert!(names(&out).iter().any(|n| n == "RSQRT"));
    // A source none of whose kernels ran in the profile is another program's.
    let other = s.model.parent().unwrap().join("other.cu");
    std::fs::write(
        &other,
        "__global__ void k(float* b) { b[threadIdx.x] = 1.0f; }\n",
    )
    .unwrap();
    advise()
        .args(["suggest", "--ncu-csv", GINKGO, "--model"])
        .arg(&s.model)
        .arg("--source")
        .arg(&other)
        .assert()
        .failure()
        .code(2)
        .stderr(predicate::str::contains("none of the kernels of"))
        .stderr(predicate::str::contains("abstract_classical_spmv"));
    // A source with no kernel at all says nothing of what is applied.
    let empty = s.model.parent().unwrap().join("empty.cu");
    std::fs::write(&empty, "").unwrap();
    advise()
        .args(["suggest", "--ncu-csv", GINKGO, "--model"])
        .arg(&s.model)
        .arg("--source")
        .arg(&empty)
        .assert()
        .failure()
        .code(2)
        .stderr(predicate::str::contains("empty.cu holds no kernel"));
}

#[test]
fn profile_report_is_self_contained_and_explains_every_suggestion() {
    let s = setup();
    let report = s.work.join("report");
    advise()
        .env("NCU", root().join("tests/stand-ins/replay_ncu.sh"))
        .env("STANDIN_CSV", root().join(GINKGO))
        .args(["profile", "--dir"])
        .arg(s.work.join("prof"))
        .arg("--model")
        .arg(&s.model)
        .arg("--report")
        .arg(&report)
        .args(["--", "/bin/true"])
        .assert()
        .success();
    let html = std::fs::read_to_string(report.join("index.html")).unwrap();
    let md = std::fs::read_to_string(report.join("report.md")).unwrap();
    // Every suggestion has its card with a "How to apply" part.
    assert_eq!(html.matches("<div class=\"card\">").count(), 6);
    assert_eq!(html.matches("<h3>How to apply</h3>").count(), 6);
    assert_eq!(md.matches("### How to apply").count(), 6);
    // Nothing is loaded from outside.
    for bad in [
        "<script",
        "<link",
        "src=\"http",
        "href=\"http",
        "@import",
        "url(",
    ] {
        assert!(!html.contains(bad), "{bad} in the report");
    }
    let tmp = s.model.parent().unwrap().display().to_string();
    insta::assert_snapshot!(md.replace(&tmp, "<tmp>"));
    crate::common::render_check(
        &report.join("index.html"),
        &[
            "advise: suggestions for your program",
            "How to apply",
            "Risks",
            "What was profiled",
            "The advisor",
            "Training data provenance",
        ],
    );
}

/// An advisor whose training pairs all fall in one group could validate nothing: every
/// verdict is "uncertain", the majority rule answers, and the reason says why. Synthetic data
/// made here: one NB pair (000000 -> 000001, UNROLL) in 24 runs of one input, with a
/// register count the B200 profile also has.
#[test]
fn an_advisor_that_could_validate_nothing_gives_no_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("one-group");
    std::fs::create_dir(&data).unwrap();
    let mut m =
        String::from("program,input,run,variant,kernel,launch,invocations,metric,unit,value\n");
    let mut t = String::from("program,input,run,variant,time_ms,repetitions,checksum_ok\n");
    for run in 1..=24 {
        for (variant, ms, registers) in [("000000", 100.0, 32), ("000001", 90.0, 40)] {
            m.push_str(&format!(
                "NB,synthetic,{run},{variant},force,0,1,launch__registers_per_thread,register/thread,{registers}\n"
            ));
            t.push_str(&format!(
                "NB,synthetic,{run},{variant},{},5,true\n",
                ms + run as f64 * 0.1
            ));
        }
    }
    std::fs::write(data.join("measurements.csv"), m).unwrap();
    std::fs::write(data.join("timings.csv"), t).unwrap();
    let model = dir.path().join("one.json");
    let trained = advise()
        .current_dir(root())
        .args(["-q", "train", "--dataset"])
        .arg(&data)
        .arg("-o")
        .arg(&model)
        .assert()
        .success();
    let table = String::from_utf8_lossy(&trained.get_output().stdout).to_string();
    assert!(
        table
            .lines()
            .any(|l| l.starts_with("UNROLL") && l.ends_with("majority rule")),
        "{table}"
    );
    let out = advise()
        .current_dir(root())
        .args([
            "-q",
            "suggest",
            "--json",
            "--profile",
            "tests/fixtures/ncu/ncu_raw_B200_roofline-analysis_torch_sdpa_flash.csv",
            "--model",
        ])
        .arg(&model)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let list = v["suggestions"].as_array().unwrap();
    assert!(!list.is_empty());
    for s in list {
        assert_eq!(s["verdict"], "uncertain", "{s}");
        assert_eq!(s["follows_rule"], true, "{s}");
        let reason = s["reason"].as_str().unwrap();
        assert!(
            reason.contains("model could not be validated, so the rule answers"),
            "{s}"
        );
        assert!(reason.contains("never validated"), "{s}");
    }
}
