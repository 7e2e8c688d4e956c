//! `advise predict` and `fit` on columns the user leaves out (`--ignore`) and on model files
//! that were damaged or edited (synthetic tables and models written by the tests).

use std::path::Path;

use predicates::prelude::*;

use crate::common::advise;

/// A synthetic training table (a, b -> y) and a test table with one more column, `c`.
fn tables(dir: &Path) {
    let mut train = String::from("a,b,y\n");
    for i in 0..12 {
        train += &format!("{i},{},{}\n", 12 - i, 2 * i + 1);
    }
    std::fs::write(dir.join("train.csv"), train).unwrap();
    std::fs::write(dir.join("test.csv"), "a,b,c,y\n1.5,2,9,\n").unwrap();
}

#[test]
fn a_column_only_the_test_file_has_can_be_ignored() {
    let dir = tempfile::tempdir().unwrap();
    tables(dir.path());
    let predict = |extra: &[&str]| {
        let mut cmd = advise();
        cmd.current_dir(dir.path())
            .args(["-q", "predict", "--method", "ibk", "-t", "train.csv"])
            .args(["-T", "test.csv"])
            .args(extra);
        cmd.assert()
    };
    predict(&[])
        .code(3)
        .stderr(predicate::str::contains("column `c`").and(predicate::str::contains("--ignore")));
    predict(&["--ignore", "c"])
        .success()
        .stdout(predicate::str::is_match(r"^[0-9.]+\n$").unwrap());
    // A name neither file has is still an error.
    predict(&["--ignore", "d"])
        .code(3)
        .stderr(predicate::str::contains("no column `d`"));
}

#[test]
fn a_saved_model_names_what_ignore_and_damage_did() {
    let dir = tempfile::tempdir().unwrap();
    tables(dir.path());
    let model = dir.path().join("m.json");
    advise()
        .current_dir(dir.path())
        .args(["-q", "fit", "--method", "ibk", "-t", "train.csv", "-o"])
        .arg(&model)
        .assert()
        .success();
    advise()
        .current_dir(dir.path())
        .args([
            "predict", "--model", "m.json", "-T", "test.csv", "--ignore", "b",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--ignore b removes a column the model was fitted on (a, b)",
        ));
    advise()
        .current_dir(dir.path())
        .args(["predict", "--model", "m.json"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--test is required with --model"));
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&model).unwrap()).unwrap();
    for (name, edit, says) in [
        (
            "version.json",
            &(|d: &mut serde_json::Value| d["version"] = 99.into()) as &dyn Fn(&mut _),
            "model format version 99, this advise reads version",
        ),
        (
            "kneg.json",
            &|d: &mut serde_json::Value| d["params"]["k"] = (-3).into(),
            "damaged model: its JSON is not what `advise fit` writes",
        ),
        (
            "empty.json",
            &|d: &mut serde_json::Value| {
                d["model"]["state"]["x"] = serde_json::json!([]);
                d["model"]["state"]["y"] = serde_json::json!([]);
            },
            "damaged model: it holds no training rows",
        ),
    ] {
        let mut d = doc.clone();
        edit(&mut d);
        std::fs::write(dir.path().join(name), d.to_string()).unwrap();
        advise()
            .current_dir(dir.path())
            .args([
                "predict", "--model", name, "-T", "test.csv", "--ignore", "c",
            ])
            .assert()
            .code(3)
            .stderr(predicate::str::contains(says));
    }
    advise()
        .current_dir(dir.path())
        .args(["fit", "--method", "ibk", "-t", "train.csv", "-o", "m.csv"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("fit writes the model as JSON"));
}

/// Synthetic: a target with no value in any row is refused by every model (IBk had predicted
/// 0 from it), before any model is fitted.
#[test]
fn a_target_without_values_is_refused_by_predict_and_fit() {
    let dir = tempfile::tempdir().unwrap();
    let mut train = String::from("a,b,y\n");
    for i in 0..6 {
        train += &format!("{i},{},?\n", 6 - i);
    }
    std::fs::write(dir.path().join("train.csv"), train).unwrap();
    std::fs::write(dir.path().join("test.csv"), "a,b,y\n1,2,\n").unwrap();
    for method in ["ibk", "m5p", "linear", "forest", "knn", "gbrt"] {
        for args in [
            vec!["predict", "-T", "test.csv"],
            vec!["fit", "-o", "m.json"],
        ] {
            advise()
                .current_dir(dir.path())
                .args(["-q", args[0], "--method", method, "-t", "train.csv"])
                .args(&args[1..])
                .assert()
                .code(3)
                .stderr(predicate::str::contains(
                    "train.csv: the target column `y` has no value in any row",
                ));
        }
    }
    assert!(!dir.path().join("m.json").exists());
}

/// Synthetic: a target made nominal by a cell that is not a plain number names that cell.
#[test]
fn a_nominal_target_names_the_cell_that_made_it_so() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("t.csv"), "a,y\n1,2\n2,1_000\n3,4\n").unwrap();
    advise()
        .current_dir(dir.path())
        .args(["-q", "predict", "--method", "ibk", "-t", "t.csv", "-x", "2"])
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "target `y` is nominal (`1_000` on line 3 is not a number)",
        ));
}

/// Weka's cpu data (tests/golden/weka/data): `--target` picks a column by name and
/// `--ignore` leaves two out; one prediction per test row.
#[test]
fn target_and_ignore_select_columns() {
    let weka_data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/weka/data");
    let out = advise()
        .args([
            "predict",
            "--method",
            "linear",
            "--target",
            "MMAX",
            "--ignore",
            "class,CACH",
        ])
        .arg("--train")
        .arg(weka_data.join("cpu_train.arff"))
        .arg("--test")
        .arg(weka_data.join("cpu_test.arff"))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let predictions = String::from_utf8_lossy(&out)
        .lines()
        .filter(|l| l.parse::<f64>().is_ok())
        .count();
    assert_eq!(predictions, 70);
}
