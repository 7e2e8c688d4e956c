//! Tests of the search benchmark on SYNTHETIC spaces.

use super::*;
use crate::search::strategies;
use crate::search::testutil::grid_space;

#[test]
fn quantiles() {
    assert_eq!(quantile(&[1.0, 2.0, 3.0, 4.0], 0.5), 2.5);
    assert_eq!(quantile(&[0.0, 10.0], 0.05), 0.5);
    assert_eq!(quantile(&[1.0, f64::INFINITY], 0.5), f64::INFINITY);
}

#[test]
fn thread_count_does_not_change_results() {
    let s = vec![grid_space()];
    let st = strategies(&["random".into(), "iterml".into()]).unwrap();
    let settings = |threads| BenchSettings {
        budgets: vec![Budget::Share(0.05), Budget::Count(30)],
        repeats: 6,
        seed: 3,
        threads,
        reach_at: vec![0.9],
    };
    let a = bench(&s, &st, &settings(1), &|| {}).unwrap();
    let b = bench(&s, &st, &settings(3), &|| {}).unwrap();
    // Everything but the time a search took.
    let key = |r: &BenchReport| {
        let mut rows = r.results.clone();
        for row in &mut rows {
            assert!(row.mean_run_ms > 0.0);
            row.mean_run_ms = 0.0;
        }
        serde_json::to_string(&rows).unwrap()
    };
    assert_eq!(key(&a), key(&b));
    // Each row's share of runs at 0.9 of the optimum or better is its runs' count.
    for row in &a.results {
        let mine: Vec<&RunRow> = a
            .runs
            .iter()
            .filter(|r| {
                r.space == row.space && r.strategy == row.strategy && r.budget == row.budget
            })
            .collect();
        assert_eq!(mine.len(), 6);
        let k = mine.iter().filter(|r| r.fraction >= 0.9).count();
        assert_eq!(row.reach.len(), 1);
        assert_eq!(row.reach[0].at, 0.9);
        assert_eq!(row.reach[0].share, k as f64 / 6.0);
        let [lo, hi] = row.reach[0].interval;
        assert!(
            lo <= row.reach[0].share && row.reach[0].share <= hi,
            "{lo} {hi}"
        );
    }
    assert!(
        !s[0].indexed_for_repairs(),
        "random and iterml look no repair up"
    );
    bench(
        &s,
        &strategies(&["auto".into()]).unwrap(),
        &settings(1),
        &|| {},
    )
    .unwrap();
    assert!(s[0].indexed_for_repairs(), "auto does");
    assert_eq!(a.results.len(), 4);
    assert_eq!(a.standards.len(), 2);
    assert_eq!(a.curves.len(), 2);
    assert_eq!(a.curves[0].median_fraction.len(), 30);
    // Each summary's mean is the mean of its runs' fractions.
    for r in &a.results {
        let f: Vec<f64> = a
            .runs
            .iter()
            .filter(|x| (&x.space, &x.strategy, &x.budget) == (&r.space, &r.strategy, &r.budget))
            .map(|x| x.fraction)
            .collect();
        assert_eq!(f.len(), 6);
        assert!((r.mean_fraction - f.iter().sum::<f64>() / 6.0).abs() < 1e-12);
    }
}

#[test]
fn a_budget_larger_than_a_space_leaves_that_cell_out() {
    let s = vec![grid_space()];
    let st = strategies(&["random".into()]).unwrap();
    let settings = |budgets| BenchSettings {
        budgets,
        repeats: 3,
        seed: 1,
        threads: 1,
        reach_at: Vec::new(),
    };
    let report = bench(
        &s,
        &st,
        &settings(vec![Budget::Count(30), Budget::Count(100_000)]),
        &|| {},
    )
    .unwrap();
    assert_eq!(report.results.len(), 1);
    assert_eq!(report.results[0].budget_evaluations, 30);
    assert_eq!(
        report.skipped,
        vec![SkippedCell {
            space: "bowl".into(),
            budget: "100000".into(),
            budget_evaluations: 100_000,
            configurations: s[0].len(),
        }]
    );
    // The curve is drawn at the last budget the space ran.
    assert_eq!(report.curves.len(), 1);
    assert_eq!(report.curves[0].budget, 30);
    // A space none of whose budgets ran has no standards: nothing was tried.
    let two = vec![grid_space(), crate::search::testutil::sparse_space()];
    let report = bench(
        &two,
        &st,
        &settings(vec![Budget::Count(two[1].len() + 1)]),
        &|| {},
    )
    .unwrap();
    assert!(
        two[1].len() < two[0].len(),
        "the sparse space is the smaller"
    );
    assert_eq!(report.standards.len(), 1);
    assert_eq!(report.standards[0].space, "bowl");
    // Nothing left to run is the error a single search gives.
    let e = bench(&s, &st, &settings(vec![Budget::Count(100_000)]), &|| {})
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("budget 100000 is larger than the space `bowl`"),
        "{e}"
    );
}
