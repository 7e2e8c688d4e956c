//! `advise collect --backend gpgpu-sim` end to end, without a simulator: GPGPU-Sim is a folder
//! of empty stand-in files and the variants are tests/stand-ins/fake_sim_variant.sh, which
//! prints a simulator's log.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use predicates::prelude::*;

use advise::dataset::measurements::{read_measurements, read_timings};

use super::harness_collect::{assert_unique, stand_ins, timing_keys};

/// A GPGPU-Sim installation as advise sees it (runtime library, one configuration, a CUDA
/// folder with cuobjdump), with empty stand-in files; the synthetic configuration has the
/// SM7_QV100 core clock.
fn fake_simulator(dir: &Path) -> (PathBuf, PathBuf) {
    let root = dir.join("gpgpu-sim");
    let lib = root.join("lib/gcc-12/cuda-11080/release");
    std::fs::create_dir_all(&lib).unwrap();
    std::fs::write(lib.join("libcudart.so"), "").unwrap();
    let cfg = root.join("configs/tested-cfgs/SM7_TEST");
    std::fs::create_dir_all(&cfg).unwrap();
    std::fs::write(
        cfg.join("gpgpusim.config"),
        "# synthetic test configuration\n-gpgpu_n_clusters 80\n\
         -gpgpu_clock_domains 1132.0:1132.0:1132.0:850.0",
    )
    .unwrap();
    std::fs::write(cfg.join("config_test.icnt"), "").unwrap();
    let cuda = dir.join("cuda");
    std::fs::create_dir_all(cuda.join("bin")).unwrap();
    std::fs::write(cuda.join("bin/cuobjdump"), "").unwrap();
    (root, cuda)
}

fn collect_sim(dir: &Path, out: &Path, extra: &[&str]) -> Command {
    let bin = dir.join("simbin");
    let sub = bin.join("nb");
    if !sub.is_dir() {
        std::fs::create_dir_all(&sub).unwrap();
        for bits in 0..64u8 {
            std::os::unix::fs::symlink(
                stand_ins().join("fake_sim_variant.sh"),
                sub.join(format!("nb_{bits:06b}")),
            )
            .unwrap();
        }
    }
    let (root, cuda) = fake_simulator(dir);
    let mut cmd = Command::cargo_bin("advise").unwrap();
    cmd.env("GPGPUSIM_ROOT", root)
        .env("CUDA_INSTALL_PATH", cuda)
        .env(
            "STANDIN_SIM_LOG",
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/fixtures/gpgpusim/gpgpusim_SM7_QV100x2_NB_000000_512.log.gz"),
        )
        .env_remove("STANDIN_SIM_CRASH")
        .env_remove("STANDIN_SIM_BAD")
        .args([
            "collect",
            "--backend",
            "gpgpu-sim",
            "--sim-config",
            "SM7_TEST",
        ])
        .args(["--sim-set", "gpgpu_n_clusters=2", "--program", "nb"])
        .args([
            "--inputs",
            "512:1",
            "--variants",
            "000000,000001,000010,000011",
        ])
        .arg("--bin-dir")
        .arg(&bin)
        .arg("--out")
        .arg(out)
        .args(extra);
    cmd
}

#[test]
fn simulated_campaign_times_from_cycles_and_resumes_after_a_killed_simulation() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sim");
    collect_sim(dir.path(), &out, &["--jobs", "2"])
        .env("STANDIN_SIM_CRASH", "000001")
        .assert()
        .failure()
        .stdout(predicate::str::contains(
            "FAILED NB/000001/bodies=512,steps=1",
        ))
        .stdout(predicate::str::contains("truncated").or(predicate::str::contains("failed")));
    assert_eq!(timing_keys(&out).len(), 3, "the other three are kept");
    collect_sim(dir.path(), &out, &["--resume"])
        .assert()
        .success()
        .stdout(predicate::str::contains("1 collected now"));
    let keys = timing_keys(&out);
    assert_eq!(keys.len(), 4);
    assert_unique(&keys);
    let t = read_timings(&out.join("timings.csv")).unwrap();
    // The recorded log's kernels ran 191,804 and 6,126 cycles at the 1132 MHz core clock.
    let want_ms = (191_804.0 + 6_126.0) / 1132e6 * 1e3;
    assert!(
        t.iter()
            .all(|r| (r.time_ms - want_ms).abs() < 1e-9 * want_ms),
        "{t:?}"
    );
    let m = read_measurements(&out.join("measurements.csv")).unwrap();
    assert!(m.iter().any(|r| r.metric == "sm__cycles_active.sum"));
    let record = std::fs::read_to_string(out.join("simulator.json")).unwrap();
    assert!(
        record.contains("SM7_TEST with gpgpu_n_clusters=2"),
        "{record}"
    );
    assert!(record.contains("simulated, not measured"), "{record}");
    assert!(out.join("raw/sim_NB_000011_512x1.log.gz").is_file());
    // A resumed campaign keeps its configuration.
    collect_sim(
        dir.path(),
        &out,
        &["--resume", "--sim-set", "gpgpu_n_clusters=8"],
    )
    .assert()
    .failure()
    .stderr(predicate::str::contains(
        "one campaign keeps one configuration",
    ));
}

#[test]
fn simulated_variant_that_disagrees_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sim");
    collect_sim(dir.path(), &out, &[])
        .env("STANDIN_SIM_BAD", "000010")
        .assert()
        .failure()
        .stdout(predicate::str::contains(
            "MISMATCH NB/000010/bodies=512,steps=1",
        ));
    assert_eq!(timing_keys(&out).len(), 3);
}

#[test]
fn missing_simulator_says_how_to_point_at_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sim");
    collect_sim(dir.path(), &out, &[])
        .env_remove("GPGPUSIM_ROOT")
        .assert()
        .failure()
        .stderr(predicate::str::contains("GPGPUSIM_ROOT"));
}
