//! More bad input the command line refuses with the file and the fix: a feature table built
//! from a header alone, a JSON file given as a profile.

use std::path::Path;

use predicates::prelude::*;

use crate::common::advise;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn a_header_alone_builds_no_feature_table() {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("m.csv");
    std::fs::write(
        &m,
        "program,input,run,variant,kernel,launch,invocations,metric,unit,value\n",
    )
    .unwrap();
    advise()
        .args(["features", "--measurements"])
        .arg(&m)
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "m.csv: no measurements (only the header)",
        ));
}

#[test]
fn a_json_file_is_not_a_profile() {
    advise()
        .args(["parse"])
        .arg(root().join("tests/fixtures/spaces/pnpoly__RTX_2080_Ti.json.gz"))
        .assert()
        .failure()
        .stderr(
            predicate::str::contains("this is JSON").and(predicate::str::contains(
                "`advise search --space` reads tuning spaces",
            )),
        );
}
