//! The noise of a recording's runs, read from a real Kernel Tuner cache (pnpoly on an RTX
//! 2080 Ti, whose times each average 10 runs with a warm-up first:
//! tests/fixtures/spaces/PROVENANCE.md): the figure the library gives, and where `advise
//! search`, `advise search-bench` and `advise import` say it; and the note beside it on a
//! cache cut off before its end.

use std::path::Path;

use crate::common::{advise, pnpoly_space as space};
use advise::search::SearchSpace;
use predicates::prelude::*;

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

#[test]
fn a_cache_cut_off_is_searched_and_said_to_be_cut_off() {
    // The real cache cut halfway, as a Kernel Tuner run stopped mid-way leaves it: the
    // complete entries before the cut are read.
    let text = cache_text();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("half.json");
    std::fs::write(&path, &text[..text.len() / 2]).unwrap();
    let half = SearchSpace::load(&path).unwrap();
    let whole = SearchSpace::load(&space()).unwrap();
    assert!(half.cut_off && !whole.cut_off);
    assert!(
        half.len() > 100 && half.len() < whole.len(),
        "{}",
        half.len()
    );
    let note = format!(
        "note: half: the file was cut off (a Kernel Tuner run that did not finish?); its {} \
         complete entries were read",
        half.len()
    );
    let search = |p: &Path, json: bool| {
        let mut cmd = advise();
        cmd.args(["search", "--budget", "2%", "--space"]).arg(p);
        if json {
            cmd.arg("--json");
        }
        let out = cmd.assert().success().get_output().stdout.clone();
        String::from_utf8(out).unwrap()
    };
    assert!(search(&path, false).contains(&note));
    assert!(!search(&space(), false).contains("cut off"));
    let json = |p: &Path| -> serde_json::Value { serde_json::from_str(&search(p, true)).unwrap() };
    assert_eq!(json(&path)["cut_off"], true);
    assert_eq!(json(&space())["cut_off"], false);
    advise()
        .args(["search-bench", "--strategies", "random", "--budgets", "2%"])
        .args(["--repeats", "3", "--no-charts", "--space"])
        .arg(&path)
        .arg(space())
        .assert()
        .success()
        .stdout(predicate::str::contains("How the files were read"))
        .stdout(predicate::str::contains("- half: the file was cut off"))
        .stdout(predicate::str::contains("- pnpoly__RTX_2080_Ti: the file").not());
}

#[test]
fn entries_that_repeat_a_configuration_are_counted_and_said() {
    // SYNTHETIC: a CSV space whose third row repeats the first configuration, slower.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rep.csv");
    std::fs::write(&path, "bx,time\n32,2.0\n64,3.0\n32,1.0\n").unwrap();
    let json = crate::common::run_json([
        "search".as_ref(),
        "--budget".as_ref(),
        "1".as_ref(),
        "--json".as_ref(),
        "--space".as_ref(),
        path.as_os_str(),
    ]);
    assert_eq!(json["repeated_entries"], 1);
    assert_eq!(json["configurations"], 2);
    assert_eq!(
        json["optimum_time_ms"], 2.0,
        "the first entry's time stands"
    );
    advise()
        .args(["search", "--budget", "1", "--space"])
        .arg(&path)
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "note: rep: 1 entry repeats a configuration listed before it; the first entry's \
             time stands",
        ));
}
