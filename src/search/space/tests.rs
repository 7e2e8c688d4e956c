//! Tests of the search space: levels, lookups, corners and names.

use super::*;
use crate::dataset::import::Config;

pub(crate) fn tiny() -> SearchSpace {
    let cfg = |v: &[&str], t: Option<f64>| Config {
        values: v.iter().map(|s| s.to_string()).collect(),
        time_ms: t,
        failure: t.is_none().then(|| "CompilationFailedConfig".into()),
        counters: vec![],
    };
    let t = TuningSpace {
        tool: "test",
        device: "gpu".into(),
        kernel: "k".into(),
        params: vec!["N".into(), "bx".into(), "ro".into()],
        configs: vec![
            cfg(&["1", "32", "0"], Some(4.0)),
            cfg(&["1", "64", "0"], Some(2.0)),
            cfg(&["1", "128", "1"], None),
            cfg(&["1", "64", "1"], Some(1.5)),
            cfg(&["1", "64", "1"], Some(9.0)),
        ],
        notes: vec![],
        run_noise: None,
    };
    SearchSpace::from_tuning("tiny".into(), &t).unwrap()
}

#[test]
fn levels_lookup_and_optimum() {
    let s = tiny();
    assert_eq!(s.params, vec!["bx", "ro"]);
    assert_eq!(s.len(), 4, "duplicate dropped");
    assert_eq!(s.repeated, 1, "and counted");
    assert!(!s.cut_off);
    assert_eq!(s.levels(1), &[1, 0]);
    assert_eq!(s.find(&[1, 1]), Some(3));
    assert_eq!(s.find(&[0, 1]), None);
    assert_eq!(s.optimum(), (3, 1.5));
    assert_eq!(s.time(2), None);
    assert_eq!(s.failed(), 1);
    assert_eq!(s.describe(3), "bx=64,ro=1");
    assert_eq!(s.numeric[0], vec![32.0, 64.0, 128.0]);
}

/// Synthetic: a time outside a picosecond to 30 years (old Kernel Tuner versions wrote 1e20
/// for a failure) is a failed configuration, not the slowest one; a space of only such times
/// has no optimum, said as such.
#[test]
fn times_outside_a_picosecond_to_30_years_are_failures() {
    let cfg = |v: &str, t: f64| Config {
        values: vec![v.to_string()],
        time_ms: Some(t),
        failure: None,
        counters: vec![],
    };
    let space = |configs| TuningSpace {
        tool: "test",
        device: "gpu".into(),
        kernel: "k".into(),
        params: vec!["bx".into()],
        configs,
        notes: vec![],
        run_noise: None,
    };
    let s = SearchSpace::from_tuning(
        "t".into(),
        &space(vec![cfg("32", 1e20), cfg("64", 2.0), cfg("128", 1e-12)]),
    )
    .unwrap();
    assert_eq!((s.time(0), s.time(1), s.time(2)), (None, Some(2.0), None));
    assert_eq!(s.failed(), 2);
    let e = SearchSpace::from_tuning("t".into(), &space(vec![cfg("32", 1e20), cfg("64", 1e20)]))
        .unwrap_err()
        .to_string();
    assert!(e.contains("outside 1e-9 to 1e12 ms"), "{e}");
}

#[test]
fn corners_hold_every_parameter_at_an_end() {
    // bx 32/64/128, ro 0/1: (32, 0) and (128, 1) are corners, failed or not; the
    // configurations with bx = 64 are not, and (32, 1), (128, 0) are not in the space.
    assert_eq!(tiny().corners(), &[0, 2]);
    // Synthetic spaces with fewer corners than configurations, found by key: the
    // corners a pass over every configuration finds, in the same order.
    for s in [
        crate::search::testutil::grid_space(),
        crate::search::testutil::mixed_space(),
    ] {
        assert!(1 << s.n_params() < s.len());
        let by_pass: Vec<u32> = (0..s.len())
            .filter(|&i| {
                (s.levels(i).iter().zip(s.radix())).all(|(&l, &r)| l == 0 || l as usize + 1 == r)
            })
            .map(|i| i as u32)
            .collect();
        assert!(!by_pass.is_empty());
        assert_eq!(s.corners(), by_pass);
    }
}

#[test]
fn names_without_extensions() {
    assert_eq!(file_stem(Path::new("a/pnpoly__X.json.gz")), "pnpoly__X");
    assert_eq!(file_stem(Path::new("b.csv")), "b");
    assert_eq!(file_stem(Path::new("c/coulomb.t4.json")), "coulomb");
    assert_eq!(file_stem(Path::new("d/gemm__A100.json.bz2")), "gemm__A100");
}

#[test]
fn a_space_of_one_configuration_is_described_as_such() {
    let t = TuningSpace {
        tool: "test",
        device: "gpu".into(),
        kernel: "k".into(),
        params: vec!["bx".into()],
        configs: vec![Config {
            values: vec!["32".into()],
            time_ms: Some(1.5),
            failure: None,
            counters: vec![],
        }],
        notes: vec![],
        run_noise: None,
    };
    let s = SearchSpace::from_tuning("one".into(), &t).unwrap();
    assert_eq!(s.n_params(), 0);
    assert_eq!(s.describe(0), "the only configuration: no parameter varies");
}

/// Texts of one number (`1`, `1.0`, `01`) are one level, spelt as the shortest; the entry
/// written the second way repeats the first (whose time stands); a parameter whose texts are
/// all one number does not vary; text values stay apart.
#[test]
fn spellings_of_one_number_are_one_level() {
    let cfg = |v: &[&str], t: f64| Config {
        values: v.iter().map(|s| s.to_string()).collect(),
        time_ms: Some(t),
        failure: None,
        counters: vec![],
    };
    let t = TuningSpace {
        tool: "test",
        device: "gpu".into(),
        kernel: "k".into(),
        params: vec!["bx".into(), "n".into(), "kind".into()],
        configs: vec![
            cfg(&["1.0", "4", "a"], 2.0),
            cfg(&["1", "4.0", "a"], 1.0),
            cfg(&["01", "04", "b"], 3.0),
            cfg(&["2", "4", "a"], 5.0),
            cfg(&["nan", "4", "a"], 6.0),
        ],
        notes: vec![],
        run_noise: None,
    };
    let s = SearchSpace::from_tuning("spellings".into(), &t).unwrap();
    assert_eq!(s.params, vec!["bx", "kind"]);
    assert_eq!(s.len(), 4);
    assert_eq!(s.repeated, 1);
    assert_eq!(s.describe(0), "bx=1,kind=a");
    assert_eq!(s.time(0), Some(2.0));
    assert_eq!(s.describe(1), "bx=1,kind=b");
    assert_eq!(s.describe(3), "bx=nan,kind=a");
    assert_eq!(s.radix(), &[3, 2]);
}

#[test]
fn times_no_measurement_gives_count_as_failed_and_are_counted() {
    // A CSV space's times reach the search space as they were written: 1e20 ms (an old
    // Kernel Tuner failure mark) and 1e-12 ms are failures, counted; a reader's own count
    // (a Kernel Tuner cache's note) adds to them.
    let cfg = |v: &str, t: f64| Config {
        values: vec![v.into()],
        time_ms: Some(t),
        failure: None,
        counters: vec![],
    };
    let mut t = TuningSpace {
        tool: "test",
        device: "gpu".into(),
        kernel: "k".into(),
        params: vec!["bx".into()],
        configs: vec![
            cfg("32", 1e20),
            cfg("64", 2.0),
            cfg("128", 1e-12),
            cfg("256", 3.0),
        ],
        notes: vec![],
        run_noise: None,
    };
    let s = SearchSpace::from_tuning("marks".into(), &t).unwrap();
    assert_eq!((s.times_out_of_range, s.failed()), (2, 2));
    t.notes.push((
        crate::dataset::import::space::UNUSABLE_TIMES_NOTE.into(),
        "5 of 9 configurations recorded a time ...".into(),
    ));
    let s = SearchSpace::from_tuning("marks".into(), &t).unwrap();
    assert_eq!(s.times_out_of_range, 7);
}
