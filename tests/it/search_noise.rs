//! The noise of a recording's runs, read from a real Kernel Tuner cache (pnpoly on an RTX
//! 2080 Ti, whose times each average 10 runs with a warm-up first:
//! tests/fixtures/spaces/PROVENANCE.md): the figure the library gives, and where `advise
//! search`, `advise search-bench` and `advise import` say it.

use std::path::{Path, PathBuf};

use crate::common::advise;
use advise::search::SearchSpace;
use predicates::prelude::*;

fn space() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/spaces/pnpoly__RTX_2080_Ti.json.gz")
}

fn cache_text() -> String {
    crate::common::gunzipped_text(&space())
}

#[test]
fn a_kernel_tuner_cache_tells_how_noisy_its_fastest_configurations_are() {
    // Measured on the real file (tests/fixtures/spaces/PROVENANCE.md): each time is the mean
    // of 10 runs whose first is a warm-up, so the fastest ten are known only to about 15%.
    let s = SearchSpace::load(&space()).unwrap();
    let n = s.run_noise.expect("the cache keeps its runs");
    assert_eq!(
        (n.configurations, n.runs, n.warm_up_first_runs),
        (10, 10, 10)
    );
    assert!((0.14..0.16).contains(&n.standard_error), "{n:?}");
    // A file without runs has no such figure: the cache with every `times` taken out.
    let text = cache_text();
    let cut: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut cut = cut;
    for entry in cut["cache"].as_object_mut().unwrap().values_mut() {
        entry.as_object_mut().unwrap().remove("times");
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("no_runs.json");
    std::fs::write(&path, cut.to_string()).unwrap();
    assert_eq!(SearchSpace::load(&path).unwrap().run_noise, None);
}

#[test]
fn a_noisy_recording_is_named_beside_the_results() {
    let noise = "pnpoly__RTX_2080_Ti: the recorded runs give the mean times of its 10 fastest \
                 configurations a standard error of 14.9% (10 runs each; in 10 of them the \
                 first run is a warm-up";
    advise()
        .args(["search-bench", "--strategies", "random", "--budgets", "1%"])
        .args(["--repeats", "3", "--no-charts", "--space"])
        .arg(space())
        .assert()
        .success()
        .stdout(predicate::str::contains("Recorded noise of 1% or more"))
        .stdout(predicate::str::contains(noise));
    advise()
        .args(["search", "--budget", "1%", "--space"])
        .arg(space())
        .assert()
        .success()
        .stdout(predicate::str::contains(format!("note: {noise}")));
}

#[test]
fn an_imported_cache_records_the_noise_in_its_provenance() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("pnpoly");
    advise()
        .args(["-q", "import", "kernel-tuner"])
        .arg(space())
        .arg("--out-dir")
        .arg(&out)
        .assert()
        .success();
    let provenance = std::fs::read_to_string(out.join("PROVENANCE.md")).unwrap();
    assert!(
        provenance.contains(
            "- recorded runs: the mean times of the 10 fastest configurations have a standard \
             error of 14.90% (10 runs each; a warm-up first run in 10)"
        ),
        "{provenance}"
    );
}
