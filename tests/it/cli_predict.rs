//! `advise predict` / `advise fit` end to end: output forms, saved models, and clear errors.

use std::path::{Path, PathBuf};

use crate::common::advise;
use predicates::prelude::*;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden/weka/data")
        .join(name)
}

fn golden(name: &str) -> Vec<f64> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden/weka")
        .join(name);
    std::fs::read_to_string(p)
        .unwrap()
        .lines()
        .map(|l| l.parse().unwrap())
        .collect()
}

fn numbers(out: &[u8]) -> Vec<f64> {
    String::from_utf8_lossy(out)
        .lines()
        .map(|l| l.parse().unwrap())
        .collect()
}

#[test]
fn predict_prints_weka_values_one_per_line() {
    let out = advise()
        .args(["predict", "--method", "ibk", "--weka-options", "-K 3"])
        .arg("--train")
        .arg(data("cpu_train.arff"))
        .arg("--test")
        .arg(data("cpu_test.arff"))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(numbers(&out), golden("cpu__IBk__K3.txt"));
}

#[test]
fn fit_then_predict_with_saved_model() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("m.json");
    advise()
        .args(["fit", "--method", "m5p", "--weka-options", "-R"])
        .arg("--train")
        .arg(data("ktt_conv_train.csv"))
        .arg("-o")
        .arg(&model)
        .assert()
        .success();
    let text = std::fs::read_to_string(&model).unwrap();
    assert!(text.contains("\"format\":\"advise-model\"") && text.contains("\"version\":2"));
    let out = advise()
        .arg("predict")
        .arg("--model")
        .arg(&model)
        .arg("--test")
        .arg(data("ktt_conv_test.csv"))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(numbers(&out), golden("ktt_conv__M5P__R.txt"));
    // The model knows its target: another --target is refused, its own accepted.
    let with_target = |target: &str| {
        let mut cmd = advise();
        cmd.args(["predict", "--target", target, "--model"])
            .arg(&model)
            .arg("--test")
            .arg(data("ktt_conv_test.csv"));
        cmd
    };
    with_target("nosuch")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("was fitted to predict"));
    let target = std::fs::read_to_string(data("ktt_conv_train.csv")).unwrap();
    let target = target
        .lines()
        .next()
        .unwrap()
        .rsplit(',')
        .next()
        .unwrap()
        .to_string();
    with_target(&target).assert().success();
}

#[test]
fn saved_model_refuses_other_columns() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("m.json");
    advise()
        .args(["fit", "--method", "linear"])
        .arg("--train")
        .arg(data("cpu_vendor_train.arff"))
        .arg("-o")
        .arg(&model)
        .assert()
        .success();
    advise()
        .arg("predict")
        .arg("--model")
        .arg(&model)
        .arg("--test")
        .arg(data("cpu_test.arff"))
        .assert()
        .code(3)
        .stderr(predicate::str::contains("needs column `vendor`"));
}

/// `fit -o m.json.gz` writes gzip, as the name says; a model compressed with gzip is read as
/// it is; an advisor given as a model says what it is.
#[test]
fn a_gzip_model_is_written_and_read_and_an_advisor_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("m.json");
    let packed = dir.path().join("m.json.gz");
    for out in [&model, &packed] {
        advise()
            .args(["fit", "--method", "linear", "--train"])
            .arg(data("cpu_train.arff"))
            .arg("-o")
            .arg(out)
            .assert()
            .success();
    }
    assert!(std::fs::read(&packed).unwrap().starts_with(&[0x1f, 0x8b]));
    assert!(std::fs::read(&model).unwrap().starts_with(b"{"));
    let predict = |m: &std::path::Path| {
        advise()
            .arg("predict")
            .arg("--model")
            .arg(m)
            .arg("--test")
            .arg(data("cpu_test.arff"))
            .output()
            .unwrap()
    };
    let (a, b) = (predict(&model), predict(&packed));
    assert!(a.status.success() && b.status.success(), "{b:?}");
    assert_eq!(a.stdout, b.stdout);
    let advisor =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("models/default.advisor.json.gz");
    let out = predict(&advisor);
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("an advisor (from `advise train`), not a model"));
}

#[test]
fn output_file_is_csv_with_test_columns_and_json_has_rows() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("p.csv");
    advise()
        .args(["predict", "--method", "linear"])
        .arg("--train")
        .arg(data("cpu_train.arff"))
        .arg("--test")
        .arg(data("cpu_test.arff"))
        .arg("-o")
        .arg(&out)
        .assert()
        .success();
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.starts_with("MYCT,MMIN,MMAX,CACH,CHMIN,CHMAX,class,predicted\n"));
    assert_eq!(text.lines().count(), 71);
    advise()
        .args(["predict", "--method", "linear", "--json"])
        .arg("--train")
        .arg(data("cpu_train.arff"))
        .arg("--test")
        .arg(data("cpu_test.arff"))
        .assert()
        .success()
        .stdout(predicate::str::contains("\"row\": 69"))
        .stdout(predicate::str::contains("\"schema_version\": 2"));
}

#[test]
fn cross_validation_matches_weka_in_row_order() {
    let out = advise()
        .args(["predict", "--method", "m5p", "--cv", "10", "--seed", "1"])
        .arg("--train")
        .arg(data("cpu.arff"))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let ours = numbers(&out);
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/weka/cv/cpu__M5P__x10_s1.csv");
    let mut weka = vec![f64::NAN; ours.len()];
    for line in std::fs::read_to_string(path).unwrap().lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        weka[f[0].parse::<usize>().unwrap()] = f[2].parse().unwrap();
    }
    assert_eq!(ours, weka);
}

#[test]
fn bad_input_names_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.arff");
    std::fs::write(
        &bad,
        "@relation r\n@attribute a numeric\n@attribute y numeric\n@data\n1,2\nx,3\n",
    )
    .unwrap();
    advise()
        .args(["predict", "--method", "ibk"])
        .arg("--train")
        .arg(&bad)
        .arg("--test")
        .arg(&bad)
        .assert()
        .code(3)
        .stderr(predicate::str::contains("bad.arff:6:"));
    advise()
        .args(["predict", "--method", "m5p", "--weka-options", "-Q"])
        .arg("--train")
        .arg(data("cpu_train.arff"))
        .arg("--test")
        .arg(data("cpu_test.arff"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("options not understood"));
}

#[test]
fn other_methods_run() {
    for method in ["forest", "gbrt", "knn"] {
        let out = advise()
            .args(["predict", "--method", method])
            .arg("--train")
            .arg(data("labor_wage_train.arff"))
            .arg("--test")
            .arg(data("labor_wage_test.arff"))
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let p = numbers(&out);
        assert_eq!(p.len(), 19, "{method}");
        assert!(p.iter().all(|v| v.is_finite()), "{method}: {p:?}");
    }
}

#[test]
fn more_than_one_model_or_an_empty_training_file_is_said_as_such() {
    for command in ["predict", "fit"] {
        advise()
            .args([command, "--method", "all", "-o", "/dev/null"])
            .arg("--train")
            .arg(data("cpu_train.arff"))
            .assert()
            .code(2)
            .stderr(predicate::str::contains(
                "--method: name one model (ibk, m5p",
            ));
    }
    // A CSV of a header alone (SYNTHETIC).
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("header.csv");
    std::fs::write(&empty, "a,b,y\n").unwrap();
    advise()
        .args(["predict", "--method", "ibk", "--train"])
        .arg(&empty)
        .assert()
        .code(3)
        .stderr(predicate::str::contains(
            "header.csv: no data rows to learn from",
        ));
}

/// A model file whose state was damaged (a coefficient dropped) is an error at load, not a
/// panic at prediction; one whose numbers make an infinite prediction is an error naming the
/// row; a linear fit over more columns than its matrix can hold is refused.
/// (Synthetic data, written here.)
#[test]
fn a_damaged_model_and_a_too_wide_linear_fit_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let train = dir.path().join("t.csv");
    let mut text = String::from("a,b,y\n");
    for i in 0..12 {
        text += &format!("{i},{},{}\n", (i * 7) % 5, 2 * i + (i * 7) % 5);
    }
    std::fs::write(&train, text).unwrap();
    let test = dir.path().join("test.csv");
    std::fs::write(&test, "a,b\n1,1\n20,3\n").unwrap();
    let model = dir.path().join("m.json");
    advise()
        .args(["fit", "-q", "--method", "linear", "-t"])
        .arg(&train)
        .arg("-o")
        .arg(&model)
        .assert()
        .success();
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&model).unwrap()).unwrap();
    let mut predict_with = |coefficients: serde_json::Value| {
        v["model"]["state"]["fit"]["coefficients"] = coefficients;
        std::fs::write(&model, v.to_string()).unwrap();
        advise()
            .args(["predict", "--model"])
            .arg(&model)
            .arg("-T")
            .arg(&test)
            .assert()
            .code(3)
    };
    predict_with(serde_json::json!([1.0])).stderr(predicate::str::contains("damaged model"));
    // Coefficients of the right count but too large for a finite prediction.
    predict_with(serde_json::json!([1e308, 1e308]))
        .stderr(predicate::str::contains("predicts inf for data row 1"))
        .stderr(predicate::str::contains("the model file is damaged"));
    let wide = dir.path().join("wide.csv");
    let header: Vec<String> = (0..8200).map(|i| format!("c{i}")).collect();
    let mut text = header.join(",") + ",y\n";
    for r in 0..3 {
        text += &(vec![format!("{r}.5"); 8200].join(",") + &format!(",{r}\n"));
    }
    std::fs::write(&wide, text).unwrap();
    advise()
        .args(["predict", "--method", "linear", "-x", "2", "-t"])
        .arg(&wide)
        .assert()
        .code(3)
        .stderr(predicate::str::contains("would need a"));
}

/// Synthetic: training values near 1e308 overflow a linear regression into NaN coefficients.
/// `fit` refuses to write that model, and cross-validation and `--test` refuse to print NaN,
/// each naming the training file and the fix (not "the model file is damaged").
#[test]
fn a_model_overflowed_by_its_data_is_refused_where_it_is_fitted() {
    let dir = tempfile::tempdir().unwrap();
    let train = dir.path().join("huge.csv");
    let mut text = String::from("a,b,y\n");
    for i in 0..30 {
        text.push_str(&format!("{},{},{}\n", i, 2 * i, 3 * i + 1));
    }
    text.push_str("1e308,1e308,1e308\n-1e308,1e308,-1e308\n");
    std::fs::write(&train, text).unwrap();
    let says = "the model fitted on it predicts NaN for its data row";
    for extra in [
        &["fit", "-o"][..],
        &["predict", "--test"][..],
        &["predict"][..],
    ] {
        let mut cmd = advise();
        cmd.args(extra);
        if extra.len() == 2 {
            cmd.arg(dir.path().join(if extra[0] == "fit" {
                "m.json"
            } else {
                "huge.csv"
            }));
        }
        cmd.args(["--method", "linear", "--train"])
            .arg(&train)
            .assert()
            .code(3)
            .stderr(predicate::str::contains(says))
            .stderr(predicate::str::contains("scale the columns"));
    }
    assert!(!dir.path().join("m.json").exists());
}
