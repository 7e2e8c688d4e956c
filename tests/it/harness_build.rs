//! `advise build` without a GPU or CUDA: nvcc is the stand-in tests/stand-ins/fake_nvcc.sh,
//! or absent. (scripts/ci/compile-variants.sh compiles the real sources with a real nvcc.)

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use predicates::prelude::*;

fn fake_nvcc() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/stand-ins/fake_nvcc.sh")
}

fn build(out: &Path) -> Command {
    let mut cmd = Command::cargo_bin("advise").unwrap();
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("STANDIN_NVCC_FAIL")
        .env_remove("STANDIN_NVCC_NO_OUTPUT")
        .args(["build", "--jobs", "4", "--out"])
        .arg(out);
    cmd
}

#[test]
fn builds_all_128_and_skips_up_to_date_ones() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("build");
    build(&out)
        .env("NVCC", fake_nvcc())
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "built 128 of 128 variants (128 compiled",
        ));
    assert!(out.join("nb/nb_111111").is_file());
    assert!(out.join("bh/bh_000101").is_file());
    build(&out)
        .env("NVCC", fake_nvcc())
        .assert()
        .success()
        .stdout(predicate::str::contains("(0 compiled, 128 up to date)"));
}

#[test]
fn a_variant_that_does_not_compile_is_listed_with_nvcc_messages() {
    let dir = tempfile::tempdir().unwrap();
    let assert = build(&dir.path().join("build"))
        .env("NVCC", fake_nvcc())
        .env("STANDIN_NVCC_FAIL", "-DSORT=1")
        .args(["--program", "bh", "--json"])
        .assert()
        .failure()
        .code(4)
        .stderr(predicate::str::contains(
            "32 of 64 variants did not compile",
        ));
    let v: serde_json::Value = serde_json::from_slice(&assert.get_output().stdout).unwrap();
    let variants = v["variants"].as_array().unwrap();
    assert_eq!(variants.len(), 64);
    let bad = variants.iter().find(|x| x["variant"] == "001000").unwrap();
    assert_eq!(bad["ok"], false);
    assert!(bad["error"].as_str().unwrap().contains("__shfl"));
    assert_eq!(bad["program"], "BH");
    let good = variants.iter().find(|x| x["variant"] == "000000").unwrap();
    assert_eq!(good["ok"], true);
    assert!(good["error"].is_null());
    // The text summary counts the failed ones apart from those compiled.
    build(&dir.path().join("build2"))
        .env("NVCC", fake_nvcc())
        .env("STANDIN_NVCC_FAIL", "-DSORT=1")
        .args(["--program", "bh"])
        .assert()
        .code(4)
        .stdout(predicate::str::contains(
            "built 32 of 64 variants (32 compiled, 32 failed, 0 up to date)",
        ));
}

#[test]
fn missing_nvcc_gives_an_install_hint_and_exit_4() {
    let dir = tempfile::tempdir().unwrap();
    build(&dir.path().join("build"))
        .env("NVCC", "/no/such/nvcc")
        .assert()
        .failure()
        .code(4)
        .stderr(predicate::str::contains("$NVCC"));
    if Path::new("/usr/local/cuda/bin/nvcc").exists() || Path::new("/opt/cuda/bin/nvcc").exists() {
        return;
    }
    build(&dir.path().join("build"))
        .env_remove("NVCC")
        .env("PATH", "/nonexistent")
        .assert()
        .failure()
        .code(4)
        .stderr(predicate::str::contains("nvcc not found"))
        .stderr(predicate::str::contains("nvidia-cuda-toolkit"));
}

#[test]
fn only_listed_variants_are_built() {
    let dir = tempfile::tempdir().unwrap();
    build(&dir.path().join("build"))
        .env("NVCC", fake_nvcc())
        .args(["--program", "nb", "--variants", "000000,101010,000000"])
        .assert()
        .success()
        // A variant given twice is built once.
        .stdout(predicate::str::contains("built 2 of 2 variants"));
}

#[test]
fn another_arch_or_simulator_build_rebuilds_and_a_bad_arch_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("build");
    let nb = |extra: &[&str]| {
        let mut cmd = build(&out);
        cmd.env("NVCC", fake_nvcc())
            .args(["--program", "nb", "--variants", "000000,101010"])
            .args(extra);
        cmd
    };
    nb(&[])
        .assert()
        .success()
        .stdout(predicate::str::contains("(2 compiled, 0 up to date)"));
    nb(&["--arch", "sm_80"])
        .assert()
        .success()
        .stdout(predicate::str::contains("(2 compiled, 0 up to date)"));
    nb(&["--arch", "sm_80"])
        .assert()
        .success()
        .stdout(predicate::str::contains("(0 compiled, 2 up to date)"));
    nb(&["--arch", "sm_80", "--for-simulator"])
        .assert()
        .success()
        .stdout(predicate::str::contains("(2 compiled, 0 up to date)"));
    nb(&["--arch", "banana"])
        .assert()
        .failure()
        .code(2)
        .stderr(predicate::str::contains("--arch banana"));
    build(&out)
        .env("NVCC", fake_nvcc())
        .args(["--program", "nb", "--variants", ","])
        .assert()
        .failure()
        .code(2)
        .stderr(predicate::str::contains("no variant to build"));
}

#[test]
fn nvcc_that_exits_0_without_a_binary_is_a_failure() {
    let dir = tempfile::tempdir().unwrap();
    build(&dir.path().join("build"))
        .env("NVCC", fake_nvcc())
        .env("STANDIN_NVCC_NO_OUTPUT", "1")
        .args(["--program", "nb", "--variants", "000000"])
        .assert()
        .failure()
        .code(4)
        .stdout(predicate::str::contains("exited 0 but wrote no"));
}
