//! An advisor whose unified-memory models learned on one kind of host only (XPlacer's bfs on
//! a PCIe-attached V100 in AWS, datasets/xplacer-bfs-v100) asked about a GPU on a coherent
//! link (XPlacer's Lassen details page, tests/fixtures/ncu, with `--host-link coherent`): every
//! such verdict is uncertain, the table and JSON say whose host the confidence was measured
//! on, and the footer does not claim measurements on the profile's link.

use predicates::prelude::*;

use crate::common::advise;

const LASSEN_PAGE: &str = "tests/fixtures/ncu/ncu_details_V100_xplacer_bfs_graph4096_lassen.csv";

#[test]
fn advice_learned_on_another_host_link_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("aws.json");
    advise()
        .args([
            "-q",
            "train",
            "--dataset",
            "datasets/xplacer-bfs-v100",
            "-o",
        ])
        .arg(&model)
        .assert()
        .success();
    let suggest = |link: &str, json: bool| {
        let mut cmd = advise();
        cmd.args([
            "-q",
            "suggest",
            "--profile",
            LASSEN_PAGE,
            "--host-link",
            link,
        ])
        .arg("--model")
        .arg(&model);
        if json {
            cmd.arg("--json");
        }
        cmd.assert().success()
    };
    let out = suggest("coherent", true).get_output().stdout.clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let list = v["suggestions"].as_array().unwrap();
    assert!(list.iter().any(|s| s["optimization"] == "UM_MANAGED"));
    for s in list {
        assert_eq!(s["host_link"], "pcie", "{s}");
        assert_eq!(s["other_host_link"], true, "{s}");
        assert_eq!(s["verdict"], "uncertain", "{s}");
    }
    suggest("coherent", false)
        .stdout(predicate::str::contains("other host link)"))
        .stdout(predicate::str::contains(format!(
            "expected to speed this code up, and all {} verdicts are uncertain",
            list.len()
        )))
        .stdout(predicate::str::contains(
            "the advisor has no measurements on a GPU on a cache-coherent link",
        ))
        .stdout(predicate::str::contains("unified-memory advice comes from measurements on").not());
    // On the advisor's own link the same page is answered by its models, without the marks.
    let out = suggest("pcie", true).get_output().stdout.clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    for s in v["suggestions"].as_array().unwrap() {
        assert!(s.get("other_host_link").is_none(), "{s}");
    }
    suggest("pcie", false)
        .stdout(predicate::str::contains("other host link").not())
        .stdout(predicate::str::contains(
            "unified-memory advice comes from measurements on a PCIe-attached GPU",
        ));
}
