//! `advise collect` and `advise merge` end to end, without a GPU: the 64 variant binaries are
//! the shell stand-in tests/stand-ins/fake_variant.sh (same arguments and JSON lines as
//! variants/common/driver.cuh), and ncu is tests/stand-ins/fake_ncu.sh, which replays a real
//! recorded `ncu --csv --page raw` file.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use advise::dataset::measurements::{read_measurements, read_timings};
use assert_cmd::Command;
use predicates::prelude::*;

pub(crate) fn stand_ins() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/stand-ins")
}

/// A build folder whose 64 binaries of `program` are links to the stand-in.
pub(crate) fn fake_build(dir: &Path, program: &str) -> PathBuf {
    let bin = dir.join("bin");
    let sub = bin.join(program);
    std::fs::create_dir_all(&sub).unwrap();
    for bits in 0..64u8 {
        let link = sub.join(format!("{program}_{bits:06b}"));
        std::os::unix::fs::symlink(stand_ins().join("fake_variant.sh"), link).unwrap();
    }
    bin
}

pub(crate) fn collect(bin: &Path, out: &Path, extra: &[&str]) -> Command {
    let mut cmd = Command::cargo_bin("advise").unwrap();
    cmd.env("NCU", stand_ins().join("fake_ncu.sh"))
        .env_remove("STANDIN_BAD")
        .env_remove("STANDIN_CRASH")
        .env_remove("STANDIN_KILL_PARENT")
        .env_remove("STANDIN_NEGATIVE")
        .env_remove("STANDIN_OTHER")
        .env_remove("STANDIN_DEVICE")
        .args(["collect", "--program", "nb", "--inputs", "1000:2,2000:1"])
        .args(["--runs", "2", "--reps", "2"])
        .arg("--bin-dir")
        .arg(bin)
        .arg("--metrics")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("variants/metrics.txt"))
        .arg("--out")
        .arg(out)
        .args(extra);
    cmd
}

type TimingKey = (String, String, u32, String);

pub(crate) fn timing_keys(dir: &Path) -> Vec<TimingKey> {
    read_timings(&dir.join("timings.csv"))
        .unwrap()
        .into_iter()
        .map(|t| (t.program, t.input, t.run, t.variant))
        .collect()
}

pub(crate) fn assert_unique(keys: &[TimingKey]) {
    let set: HashSet<_> = keys.iter().collect();
    assert_eq!(set.len(), keys.len(), "duplicate timing rows");
}

#[test]
fn a_variant_that_disagrees_is_reported_and_not_timed() {
    let dir = tempfile::tempdir().unwrap();
    let bin = fake_build(dir.path(), "nb");
    let out = dir.path().join("campaign");
    collect(&bin, &out, &[])
        .env("STANDIN_BAD", "010000")
        .assert()
        .failure()
        .code(4)
        .stdout(predicate::str::contains(
            "MISMATCH NB/010000/bodies=1000,steps=2",
        ))
        .stderr(predicate::str::contains("disagree with the baseline"));
    let keys = timing_keys(&out);
    assert_eq!(
        keys.len(),
        63 * 2 * 2,
        "63 good variants x 2 inputs x 2 runs"
    );
    assert!(keys.iter().all(|k| k.3 != "010000"));
    assert_unique(&keys);
    // Profiled: one run per (variant, input), split by input from one ncu run per variant.
    let m = read_measurements(&out.join("measurements.csv")).unwrap();
    assert!(m.iter().any(|r| r.metric == "gpu__time_duration.sum"));
    let profiled: HashSet<_> = m
        .iter()
        .map(|r| (r.input.clone(), r.variant.clone()))
        .collect();
    assert_eq!(profiled.len(), 63 * 2);
    // Each NB input's profiled step has two launches (force, integrate).
    let launches: HashSet<_> = m
        .iter()
        .filter(|r| r.variant == "000000" && r.input == "bodies=2000,steps=1")
        .map(|r| r.launch)
        .collect();
    assert_eq!(launches.len(), 2);
    assert!(out.join("raw/time_NB_000000_1000x2+2000x1.jsonl").is_file());
    assert!(out
        .join("raw/ncu_NB_000000_1000x2+2000x1_run1.csv")
        .is_file());
    let ledger = std::fs::read_to_string(out.join("ledger.csv")).unwrap();
    assert!(ledger.contains("mismatch"));
}

#[test]
fn a_killed_campaign_resumes_without_losing_or_repeating_jobs() {
    let dir = tempfile::tempdir().unwrap();
    let bin = fake_build(dir.path(), "nb");
    let out = dir.path().join("campaign");
    // The stand-in for variant 000101 kills advise mid-campaign.
    collect(&bin, &out, &["--no-profile"])
        .env("STANDIN_KILL_PARENT", "000101")
        .assert()
        .failure();
    let before = timing_keys(&out);
    assert_eq!(
        before.len(),
        5 * 2 * 2,
        "variants 000000..000100 were finished"
    );
    // A half-written row, as a kill during a write would leave.
    let mut t = std::fs::read_to_string(out.join("timings.csv")).unwrap();
    t.push_str("NB,bodies=1000,steps=2,1,000101,9.9");
    std::fs::write(out.join("timings.csv"), t).unwrap();
    // Without --resume the folder is protected.
    collect(&bin, &out, &["--no-profile"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("--resume"));
    collect(&bin, &out, &["--no-profile", "--resume"])
        .assert()
        .success()
        .stdout(predicate::str::contains("10 already done"));
    let after = timing_keys(&out);
    assert_eq!(after.len(), 64 * 2 * 2);
    assert_unique(&after);
    // A second resume has nothing left to do.
    collect(&bin, &out, &["--no-profile", "--resume"])
        .assert()
        .success()
        .stdout(predicate::str::contains("128 already done, 0 collected"));
}

#[test]
fn a_crashing_variant_fails_alone_and_is_retried_on_resume() {
    let dir = tempfile::tempdir().unwrap();
    let bin = fake_build(dir.path(), "nb");
    let out = dir.path().join("campaign");
    collect(
        &bin,
        &out,
        &["--no-profile", "--variants", "000000,000011,000111"],
    )
    .env("STANDIN_CRASH", "000011")
    .assert()
    .failure()
    .stdout(predicate::str::contains("illegal memory access"));
    assert_eq!(timing_keys(&out).len(), 2 * 2 * 2);
    collect(
        &bin,
        &out,
        &[
            "--no-profile",
            "--variants",
            "000000,000011,000111",
            "--resume",
        ],
    )
    .assert()
    .success();
    assert_eq!(timing_keys(&out).len(), 3 * 2 * 2);
}

#[test]
fn shards_merge_into_the_full_campaign_without_duplicates() {
    let dir = tempfile::tempdir().unwrap();
    let bin = fake_build(dir.path(), "nb");
    let camp = dir.path().join("campaign");
    // 12 variants keep the test short (12 is a multiple of 3, so each shard gets whole
    // variants and runs each as one batch).
    let some =
        "000000,000001,000010,000011,000100,000101,001000,010000,100000,110000,111110,111111";
    for k in 1..=3 {
        collect(
            &bin,
            &camp,
            &["--shard", &format!("{k}/3"), "--variants", some],
        )
        .assert()
        .success();
    }
    let shards: Vec<PathBuf> = (1..=3)
        .map(|k| camp.join(format!("shard-{k}-of-3")))
        .collect();
    let merged = dir.path().join("merged");
    for _ in 0..2 {
        // Merging twice (or a shard twice) adds nothing.
        Command::cargo_bin("advise")
            .unwrap()
            .arg("merge")
            .args(&shards)
            .arg(&shards[0])
            .arg("--out")
            .arg(&merged)
            .assert()
            .success()
            .stdout(predicate::str::contains("timings.csv"));
    }
    let keys = timing_keys(&merged);
    assert_eq!(keys.len(), 12 * 2 * 2);
    assert_unique(&keys);
    let m = read_measurements(&merged.join("measurements.csv")).unwrap();
    let mk: HashSet<_> = m
        .iter()
        .map(|r| {
            (
                r.input.clone(),
                r.variant.clone(),
                r.launch,
                r.metric.clone(),
            )
        })
        .collect();
    assert_eq!(mk.len(), m.len(), "duplicate measurement rows");
    let per_shard: usize = shards
        .iter()
        .map(|s| {
            read_measurements(&s.join("measurements.csv"))
                .unwrap()
                .len()
        })
        .sum();
    assert_eq!(m.len(), per_shard);
}

/// A committed campaign keeps `measurements.csv.gz`: `merge` reads it, and `collect --resume`
/// refuses to append beside it.
#[test]
fn a_compressed_campaign_merges_and_is_not_resumed() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let bin = fake_build(dir.path(), "nb");
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    collect(&bin, &a, &["--variants", "000000,000001"])
        .assert()
        .success();
    collect(&bin, &b, &["--variants", "000010,000011"])
        .assert()
        .success();
    let plain = a.join("measurements.csv");
    let rows_a = read_measurements(&plain).unwrap().len();
    let mut gz = flate2::write::GzEncoder::new(
        std::fs::File::create(a.join("measurements.csv.gz")).unwrap(),
        flate2::Compression::fast(),
    );
    gz.write_all(&std::fs::read(&plain).unwrap()).unwrap();
    gz.finish().unwrap();
    std::fs::remove_file(&plain).unwrap();

    collect(&bin, &a, &["--variants", "000000,000001", "--resume"])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "measurements.csv.gz is compressed",
        ));
    let merged = dir.path().join("merged");
    Command::cargo_bin("advise")
        .unwrap()
        .args(["merge", "--out-dir"])
        .arg(&merged)
        .arg(&a)
        .arg(&b)
        .assert()
        .success();
    let rows_b = read_measurements(&b.join("measurements.csv"))
        .unwrap()
        .len();
    let m = read_measurements(&merged.join("measurements.csv")).unwrap();
    assert_eq!(m.len(), rows_a + rows_b);
    // Merged into the compressed campaign itself, its table stays compressed, and a second
    // merge of the same shard changes no byte.
    let merge_into_a = || {
        Command::cargo_bin("advise")
            .unwrap()
            .args(["merge", "--out-dir"])
            .arg(&a)
            .arg(&a)
            .arg(&b)
            .assert()
            .success();
        std::fs::read(a.join("measurements.csv.gz")).unwrap()
    };
    let first = merge_into_a();
    assert!(!plain.exists(), "no plain table beside the compressed one");
    let m = read_measurements(&a.join("measurements.csv.gz")).unwrap();
    assert_eq!(m.len(), rows_a + rows_b);
    assert_eq!(merge_into_a(), first);
}

#[test]
fn merging_a_folder_without_a_campaign_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let merged = dir.path().join("merged");
    Command::cargo_bin("advise")
        .unwrap()
        .arg("merge")
        .arg(&empty)
        .arg("--out")
        .arg(&merged)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("empty holds no campaign"));
    assert!(!merged.exists(), "nothing is written");
}

#[test]
fn a_failing_profiler_marks_jobs_failed_with_its_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let bin = fake_build(dir.path(), "nb");
    let out = dir.path().join("campaign");
    collect(&bin, &out, &["--variants", "000000"])
        .env("STANDIN_NCU_FAIL", "1")
        .assert()
        .failure()
        .stdout(predicate::str::contains("Failed to profile kernel"));
}

/// An ncu that does not know a metric of the list stops at it; the campaign leaves it out,
/// profiles every job with the rest, and lists it as missing.
#[test]
fn a_metric_ncu_does_not_know_is_left_out_and_reported() {
    let dir = tempfile::tempdir().unwrap();
    let bin = fake_build(dir.path(), "nb");
    let out = dir.path().join("campaign");
    let assert = collect(&bin, &out, &["--variants", "000000,100000", "--json"])
        .env("STANDIN_NCU_UNKNOWN", "sm__cycles_elapsed.avg")
        .assert()
        .success();
    let v: serde_json::Value = serde_json::from_slice(&assert.get_output().stdout).unwrap();
    assert_eq!(v["ok"], 4, "{v}");
    let missing: Vec<&str> = v["missing_metrics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert!(missing.contains(&"sm__cycles_elapsed.avg"), "{missing:?}");
}

/// An ncu that stops at a metric advise did not ask for by that name fails the job with what
/// to do, rather than dropping metrics blindly.
#[test]
fn a_metric_ncu_names_but_was_not_asked_for_fails_with_the_remedy() {
    let dir = tempfile::tempdir().unwrap();
    let bin = fake_build(dir.path(), "nb");
    let out = dir.path().join("campaign");
    collect(&bin, &out, &["--variants", "000000"])
        .env("STANDIN_NCU_UNKNOWN_ALWAYS", "smsp__made_up.sum")
        .assert()
        .failure()
        .stdout(predicate::str::contains(
            "this ncu does not know the metric `smsp__made_up.sum`",
        ))
        .stdout(predicate::str::contains(
            "take the metric out of metrics.txt",
        ));
}

#[test]
fn missing_binaries_point_to_advise_build() {
    let dir = tempfile::tempdir().unwrap();
    // A missing file, exit 5, with the command that makes it.
    collect(&dir.path().join("nothing"), &dir.path().join("c"), &[])
        .assert()
        .failure()
        .code(5)
        .stderr(predicate::str::contains("advise build --program nb"));
    // Nothing ran, so the campaign folder it would have filled is not left behind.
    assert!(!dir.path().join("c").exists());
}

#[test]
fn json_summary_lists_counts() {
    let dir = tempfile::tempdir().unwrap();
    let bin = fake_build(dir.path(), "nb");
    let out = dir.path().join("campaign");
    let assert = collect(&bin, &out, &["--variants", "000000,100000", "--json"])
        .assert()
        .success();
    let v: serde_json::Value = serde_json::from_slice(&assert.get_output().stdout).unwrap();
    assert_eq!(v["ok"], 4);
    assert_eq!(v["max_passes"], 7);
}
