//! What `advise collect` refuses from a variant program and on `--resume`, with the stand-in
//! variants of tests/stand-ins/fake_variant.sh: a time that cannot be, a record of another
//! variant, runs of another GPU or with other settings than the campaign's.

use predicates::prelude::*;

use super::harness_collect::{collect, fake_build, timing_keys};

#[test]
fn an_impossible_time_or_another_variant_record_fails_the_job() {
    let dir = tempfile::tempdir().unwrap();
    let bin = fake_build(dir.path(), "nb");
    let out = dir.path().join("campaign");
    collect(
        &bin,
        &out,
        &["--no-profile", "--variants", "000000,000011,000111"],
    )
    .env("STANDIN_NEGATIVE", "000011")
    .env("STANDIN_OTHER", "000111")
    .assert()
    .failure()
    .stdout(predicate::str::contains(
        "time_ms -5: a run's time must be a positive, finite number",
    ))
    .stdout(predicate::str::contains("nb_000011 printed"))
    .stdout(predicate::str::contains(
        "the record is of NB 111111: is the binary in --bin-dir the variant it is named after? \
         (the output of NB 000111)",
    ));
    // Only the baseline's runs were kept: 2 inputs x 2 runs.
    assert_eq!(timing_keys(&out).len(), 2 * 2);
}

#[test]
fn a_campaign_resumes_only_on_its_gpu_and_with_its_settings() {
    let dir = tempfile::tempdir().unwrap();
    let bin = fake_build(dir.path(), "nb");
    let out = dir.path().join("campaign");
    collect(&bin, &out, &["--no-profile", "--variants", "000000"])
        .env("STANDIN_DEVICE", "NVIDIA H100")
        .assert()
        .success();
    assert!(out.join("collect.json").is_file());
    let more = ["--no-profile", "--variants", "000000,000001", "--resume"];
    collect(&bin, &out, &more)
        .env("STANDIN_DEVICE", "NVIDIA A100")
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "NB/000001/bodies=1000,steps=2 ran on NVIDIA A100, but the runs already in",
        ));
    assert_eq!(timing_keys(&out).len(), 2 * 2, "nothing of the A100 kept");
    collect(&bin, &out, &[&more[..], &["--seed", "7"]].concat())
        .env("STANDIN_DEVICE", "NVIDIA H100")
        .assert()
        .failure()
        .stderr(predicate::str::contains("--seed 7 (the campaign's: 1)"));
    collect(&bin, &out, &more)
        .env("STANDIN_DEVICE", "NVIDIA H100")
        .assert()
        .success();
    assert_eq!(timing_keys(&out).len(), 2 * 2 * 2);
}

#[test]
fn profile_runs_and_timeouts_that_cannot_be_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let bin = fake_build(dir.path(), "nb");
    let out = dir.path().join("campaign");
    for (extra, said) in [
        (
            vec!["--profile-runs", "0"],
            "--profile-runs 0: give at least 1, or --no-profile",
        ),
        (
            vec!["--profile-steps", "0"],
            "--profile-steps 0: give at least 1",
        ),
        (
            vec!["--profile-runs", "5"],
            "--profile-runs 5 is more than --runs 2",
        ),
        (vec!["--timeout", "0"], "--timeout 0: give the seconds"),
        (
            vec!["--batch-inputs", "0"],
            "--batch-inputs 0: give the most inputs",
        ),
        (
            vec!["--sim-set", "foo", "--jobs", "7"],
            "--sim-set, --jobs are for --backend gpgpu-sim",
        ),
    ] {
        collect(&bin, &out, &extra)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(said));
    }
    assert!(!out.exists(), "nothing collected");
}

#[test]
fn a_folder_in_place_of_a_variant_program_is_named_as_such() {
    let dir = tempfile::tempdir().unwrap();
    let bin = fake_build(dir.path(), "nb");
    let program = bin.join("nb").join("nb_000011");
    std::fs::remove_file(&program).unwrap();
    std::fs::create_dir(&program).unwrap();
    let out = dir.path().join("campaign");
    collect(&bin, &out, &["--no-profile", "--variants", "000000,000011"])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("nb_000011: a folder (or other non-file)")
                .and(predicate::str::contains("remove it and run `advise build")),
        );
}
