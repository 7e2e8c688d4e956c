//! Golden tests: our `ibk`, `m5p` and `linear` against Weka 3.6.14's predictions on the same
//! train/test files (tests/golden/weka, see its PROVENANCE.md). Weka is not needed to run them.

use std::path::{Path, PathBuf};

use advise::dataset::instances::Instances;
use advise::dataset::matrix::{data_from_instances, data_like};
use advise_ml::weka::cv::cross_validate;
use advise_ml::weka::options as weka_options;
use advise_ml::Method;

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/weka")
}

fn read_golden(name: &str) -> Vec<f64> {
    let text = std::fs::read_to_string(golden_dir().join(name)).expect("golden file");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.trim().parse::<f64>().expect("number"))
        .collect()
}

/// The largest relative difference (exactly equal values count as 0).
fn max_rel_error(ours: &[f64], weka: &[f64]) -> (f64, usize) {
    assert_eq!(ours.len(), weka.len(), "number of predictions");
    let mut worst = (0.0, 0);
    for (i, (&a, &b)) in ours.iter().zip(weka).enumerate() {
        let rel = if a == b {
            0.0
        } else {
            (a - b).abs() / a.abs().max(b.abs())
        };
        if rel.is_nan() || rel > worst.0 {
            worst = (if rel.is_nan() { f64::INFINITY } else { rel }, i);
        }
    }
    worst
}

fn check(dataset: &str, ext: &str, classifier: &str, options: &str, slug: &str, tol: f64) {
    let dir = golden_dir().join("data");
    let train = Instances::read(&dir.join(format!("{dataset}_train.{ext}"))).unwrap();
    let test = Instances::read(&dir.join(format!("{dataset}_test.{ext}"))).unwrap();
    let train = data_from_instances(&train).unwrap();
    let test = data_like(&test, "test", &train.features, &train.target).unwrap();
    let method = match classifier {
        "IBk" => Method::Ibk,
        "M5P" => Method::M5p,
        _ => Method::Linear,
    };
    let params = weka_options::parse(method, options).unwrap();
    let model = params.fit(&train).unwrap();
    let ours = model.predict(&test).unwrap();
    let weka = read_golden(&format!("{dataset}__{classifier}__{slug}.txt"));
    let (err, row) = max_rel_error(&ours, &weka);
    eprintln!("{dataset} {classifier} {slug}: max relative error {err:e} (row {row})");
    assert!(
        err <= tol,
        "{dataset} {classifier} `{options}`: row {row}: ours {} weka {} (relative error {err:e} > {tol:e})",
        ours[row],
        weka[row]
    );
}

macro_rules! golden {
    ($($(#[$attr:meta])* $name:ident: $ds:literal $ext:literal $cls:literal $opts:literal $slug:literal $tol:literal;)*) => {
        $(
            #[test]
            $(#[$attr])*
            fn $name() {
                check($ds, $ext, $cls, $opts, $slug, $tol);
            }
        )*
    };
}

golden! {
    cpu_ibk_default: "cpu" "arff" "IBk" "" "default" 1e-9;
    cpu_ibk_k3: "cpu" "arff" "IBk" "-K 3" "K3" 1e-9;
    cpu_ibk_k3i: "cpu" "arff" "IBk" "-K 3 -I" "K3I" 1e-9;
    cpu_ibk_k3f: "cpu" "arff" "IBk" "-K 3 -F" "K3F" 1e-9;
    cpu_m5p_default: "cpu" "arff" "M5P" "" "default" 1e-6;
    cpu_m5p_n: "cpu" "arff" "M5P" "-N" "N" 1e-6;
    cpu_m5p_u: "cpu" "arff" "M5P" "-U" "U" 1e-6;
    cpu_m5p_r: "cpu" "arff" "M5P" "-R" "R" 1e-6;
    cpu_m5p_m10: "cpu" "arff" "M5P" "-M 10" "M10" 1e-6;
    cpu_linear_default: "cpu" "arff" "LinearRegression" "" "default" 1e-6;
    cpu_linear_s1: "cpu" "arff" "LinearRegression" "-S 1" "S1" 1e-6;
    cpu_linear_c: "cpu" "arff" "LinearRegression" "-C" "C" 1e-6;
    cpu_vendor_ibk_default: "cpu_vendor" "arff" "IBk" "" "default" 1e-9;
    cpu_vendor_ibk_k3: "cpu_vendor" "arff" "IBk" "-K 3" "K3" 1e-9;
    cpu_vendor_ibk_k3i: "cpu_vendor" "arff" "IBk" "-K 3 -I" "K3I" 1e-9;
    cpu_vendor_ibk_k3f: "cpu_vendor" "arff" "IBk" "-K 3 -F" "K3F" 1e-9;
    cpu_vendor_m5p_default: "cpu_vendor" "arff" "M5P" "" "default" 1e-6;
    cpu_vendor_m5p_n: "cpu_vendor" "arff" "M5P" "-N" "N" 1e-6;
    cpu_vendor_m5p_u: "cpu_vendor" "arff" "M5P" "-U" "U" 1e-6;
    cpu_vendor_m5p_r: "cpu_vendor" "arff" "M5P" "-R" "R" 1e-6;
    cpu_vendor_m5p_m10: "cpu_vendor" "arff" "M5P" "-M 10" "M10" 1e-6;
    cpu_vendor_linear_default: "cpu_vendor" "arff" "LinearRegression" "" "default" 1e-6;
    cpu_vendor_linear_s1: "cpu_vendor" "arff" "LinearRegression" "-S 1" "S1" 1e-6;
    cpu_vendor_linear_c: "cpu_vendor" "arff" "LinearRegression" "-C" "C" 1e-6;
    labor_wage_ibk_default: "labor_wage" "arff" "IBk" "" "default" 1e-9;
    labor_wage_ibk_k3: "labor_wage" "arff" "IBk" "-K 3" "K3" 1e-9;
    labor_wage_ibk_k3i: "labor_wage" "arff" "IBk" "-K 3 -I" "K3I" 1e-9;
    labor_wage_ibk_k3f: "labor_wage" "arff" "IBk" "-K 3 -F" "K3F" 1e-9;
    labor_wage_m5p_default: "labor_wage" "arff" "M5P" "" "default" 1e-6;
    labor_wage_m5p_n: "labor_wage" "arff" "M5P" "-N" "N" 1e-6;
    labor_wage_m5p_u: "labor_wage" "arff" "M5P" "-U" "U" 1e-6;
    labor_wage_m5p_r: "labor_wage" "arff" "M5P" "-R" "R" 1e-6;
    labor_wage_m5p_m10: "labor_wage" "arff" "M5P" "-M 10" "M10" 1e-6;
    labor_wage_linear_default: "labor_wage" "arff" "LinearRegression" "" "default" 1e-6;
    labor_wage_linear_s1: "labor_wage" "arff" "LinearRegression" "-S 1" "S1" 1e-6;
    labor_wage_linear_c: "labor_wage" "arff" "LinearRegression" "-C" "C" 1e-6;
    nvcc_flags_ibk_default: "nvcc_flags" "arff" "IBk" "" "default" 1e-9;
    nvcc_flags_ibk_k3: "nvcc_flags" "arff" "IBk" "-K 3" "K3" 1e-9;
    nvcc_flags_ibk_k3i: "nvcc_flags" "arff" "IBk" "-K 3 -I" "K3I" 1e-9;
    nvcc_flags_ibk_k3f: "nvcc_flags" "arff" "IBk" "-K 3 -F" "K3F" 1e-9;
    nvcc_flags_m5p_default: "nvcc_flags" "arff" "M5P" "" "default" 1e-6;
    nvcc_flags_m5p_n: "nvcc_flags" "arff" "M5P" "-N" "N" 1e-6;
    nvcc_flags_m5p_u: "nvcc_flags" "arff" "M5P" "-U" "U" 1e-6;
    nvcc_flags_m5p_r: "nvcc_flags" "arff" "M5P" "-R" "R" 1e-6;
    nvcc_flags_m5p_m10: "nvcc_flags" "arff" "M5P" "-M 10" "M10" 1e-6;
    nvcc_flags_linear_default: "nvcc_flags" "arff" "LinearRegression" "" "default" 1e-6;
    nvcc_flags_linear_s1: "nvcc_flags" "arff" "LinearRegression" "-S 1" "S1" 1e-6;
    nvcc_flags_linear_c: "nvcc_flags" "arff" "LinearRegression" "-C" "C" 1e-6;
    ktt_conv_ibk_default: "ktt_conv" "csv" "IBk" "" "default" 1e-9;
    ktt_conv_ibk_k3: "ktt_conv" "csv" "IBk" "-K 3" "K3" 1e-9;
    ktt_conv_ibk_k3i: "ktt_conv" "csv" "IBk" "-K 3 -I" "K3I" 1e-9;
    ktt_conv_ibk_k3f: "ktt_conv" "csv" "IBk" "-K 3 -F" "K3F" 1e-9;
    ktt_conv_m5p_default: "ktt_conv" "csv" "M5P" "" "default" 1e-6;
    ktt_conv_m5p_n: "ktt_conv" "csv" "M5P" "-N" "N" 1e-6;
    ktt_conv_m5p_u: "ktt_conv" "csv" "M5P" "-U" "U" 1e-6;
    ktt_conv_m5p_r: "ktt_conv" "csv" "M5P" "-R" "R" 1e-6;
    ktt_conv_m5p_m10: "ktt_conv" "csv" "M5P" "-M 10" "M10" 1e-6;
    ktt_conv_linear_default: "ktt_conv" "csv" "LinearRegression" "" "default" 1e-6;
    ktt_conv_linear_s1: "ktt_conv" "csv" "LinearRegression" "-S 1" "S1" 1e-6;
    ktt_conv_linear_c: "ktt_conv" "csv" "LinearRegression" "-C" "C" 1e-6;
    nvprof_hotspot_ibk_default: "nvprof_hotspot" "csv" "IBk" "" "default" 1e-9;
    nvprof_hotspot_ibk_k3: "nvprof_hotspot" "csv" "IBk" "-K 3" "K3" 1e-9;
    nvprof_hotspot_ibk_k3i: "nvprof_hotspot" "csv" "IBk" "-K 3 -I" "K3I" 1e-9;
    nvprof_hotspot_ibk_k3f: "nvprof_hotspot" "csv" "IBk" "-K 3 -F" "K3F" 1e-9;
    nvprof_hotspot_m5p_default: "nvprof_hotspot" "csv" "M5P" "" "default" 1e-6;
    nvprof_hotspot_m5p_n: "nvprof_hotspot" "csv" "M5P" "-N" "N" 1e-6;
    nvprof_hotspot_m5p_u: "nvprof_hotspot" "csv" "M5P" "-U" "U" 1e-6;
    nvprof_hotspot_m5p_r: "nvprof_hotspot" "csv" "M5P" "-R" "R" 1e-6;
    nvprof_hotspot_m5p_m10: "nvprof_hotspot" "csv" "M5P" "-M 10" "M10" 1e-6;
    nvprof_hotspot_linear_default: "nvprof_hotspot" "csv" "LinearRegression" "" "default" 1e-6;
    nvprof_hotspot_linear_s1: "nvprof_hotspot" "csv" "LinearRegression" "-S 1" "S1" 1e-6;
    nvprof_hotspot_linear_c: "nvprof_hotspot" "csv" "LinearRegression" "-C" "C" 1e-6;
}

/// Weka's `-x 10 -s 1` per-instance predictions (cv/*.csv: row,fold,predicted in Weka's order).
fn check_cv(dataset: &str, ext: &str, classifier: &str, tol: f64) {
    let data = Instances::read(&golden_dir().join(format!("data/{dataset}.{ext}"))).unwrap();
    let data = data_from_instances(&data).unwrap();
    let method = match classifier {
        "IBk" => Method::Ibk,
        "M5P" => Method::M5p,
        _ => Method::Linear,
    };
    let params = method.default_params();
    let ours = cross_validate(&params, &data, 10, 1).unwrap();
    let path = golden_dir().join(format!("cv/{dataset}__{classifier}__x10_s1.csv"));
    let text = std::fs::read_to_string(path).unwrap();
    let weka: Vec<(usize, usize, f64)> = text
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (
                f[0].parse().unwrap(),
                f[1].parse().unwrap(),
                f[2].parse().unwrap(),
            )
        })
        .collect();
    assert_eq!(ours.len(), weka.len());
    for (o, w) in ours.iter().zip(&weka) {
        assert_eq!((o.row, o.fold), (w.0, w.1), "row/fold order");
    }
    let ours_p: Vec<f64> = ours.iter().map(|o| o.predicted).collect();
    let weka_p: Vec<f64> = weka.iter().map(|w| w.2).collect();
    let (err, i) = max_rel_error(&ours_p, &weka_p);
    eprintln!("cv {dataset} {classifier}: max relative error {err:e}");
    assert!(
        err <= tol,
        "cv {dataset} {classifier}: position {i}: ours {} weka {}",
        ours_p[i],
        weka_p[i]
    );
}

macro_rules! golden_cv {
    ($($name:ident: $ds:literal $ext:literal $cls:literal $tol:literal;)*) => {
        $(
            #[test]
            fn $name() {
                check_cv($ds, $ext, $cls, $tol);
            }
        )*
    };
}

golden_cv! {
    cv_cpu_ibk: "cpu" "arff" "IBk" 1e-9;
    cv_cpu_m5p: "cpu" "arff" "M5P" 1e-6;
    cv_cpu_linear: "cpu" "arff" "LinearRegression" 1e-6;
    cv_cpu_vendor_ibk: "cpu_vendor" "arff" "IBk" 1e-9;
    cv_cpu_vendor_m5p: "cpu_vendor" "arff" "M5P" 1e-6;
    cv_cpu_vendor_linear: "cpu_vendor" "arff" "LinearRegression" 1e-6;
    cv_labor_wage_ibk: "labor_wage" "arff" "IBk" 1e-9;
    cv_labor_wage_m5p: "labor_wage" "arff" "M5P" 1e-6;
    cv_labor_wage_linear: "labor_wage" "arff" "LinearRegression" 1e-6;
    cv_ktt_conv_ibk: "ktt_conv" "csv" "IBk" 1e-9;
    cv_ktt_conv_m5p: "ktt_conv" "csv" "M5P" 1e-6;
    cv_ktt_conv_linear: "ktt_conv" "csv" "LinearRegression" 1e-6;
}
