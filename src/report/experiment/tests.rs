use super::*;
use crate::experiment::run::{FoldSizes, Total};

fn result(method: &str, baseline: bool, accuracy: f64) -> ExperimentResult {
    ExperimentResult {
        name: "exp1".into(),
        method: method.into(),
        baseline,
        folds: 1,
        fold_sizes: FoldSizes {
            train_min: 1,
            train_max: 1,
            test_min: 1,
            test_max: 1,
        },
        optimizations: Vec::new(),
        total: Total {
            pp: 0.0,
            pn: 0.0,
            np: 0.0,
            nn: 0.0,
            accuracy: Some(accuracy),
            accuracy_ci: None,
            thesis_total: None,
            balanced_accuracy: None,
            clear_accuracy: None,
            unclear_share: 0.0,
            mape: None,
            mdape: None,
            rank_accuracy: None,
        },
        vs_majority: None,
        vs_best_baseline: None,
    }
}

#[test]
fn of_equals_the_first_run_is_best() {
    let rs = vec![
        result("ibk", false, 1.0),
        result("m5p", false, 0.9),
        result("knn", false, 1.0),
        result("baseline:always", true, 1.0),
        result("baseline:majority", true, 1.0),
        result("baseline:random", true, 1.0),
    ];
    assert_eq!(best(&rs, false).unwrap().method, "ibk");
    assert_eq!(best(&rs, true).unwrap().method, "baseline:always");
    let rs = vec![result("ibk", false, 0.5), result("m5p", false, 0.7)];
    assert_eq!(best(&rs, false).unwrap().method, "m5p");
    assert!(best(&rs, true).is_none());
}

#[test]
fn the_verdict_says_when_only_mcnemar_finds_a_difference() {
    use crate::experiment::run::Significance;
    let with = |p_clustered| {
        let mut m = result("linear", false, 0.72);
        m.vs_majority = Some(Significance {
            only_this: 900,
            only_majority: 300,
            p_value: 0.0001,
            p_clustered,
        });
        vec![m, result("baseline:majority", true, 0.6)]
    };
    let v = verdict(&with(Some(0.13)));
    assert!(
        v.contains("better than the majority rule by McNemar's test (p < 0.001)")
            && v.contains(
                "but not clearly when each program, input and run counts once (p = 0.130)"
            ),
        "{v}"
    );
    let v = verdict(&with(Some(0.01)));
    assert!(v.contains("significantly better than the majority rule (McNemar p < 0.001; over whole programs, inputs and runs, p = 0.010)"), "{v}");
    let v = verdict(&with(None));
    assert!(
        v.ends_with("significantly better than the majority rule (McNemar p < 0.001)"),
        "{v}"
    );
    let row = best_per_experiment(&[with(Some(0.01))]).render();
    assert!(
        row.contains("better (McNemar p < 0.001, clustered p 0.010)"),
        "{row}"
    );
    let row = best_per_experiment(&[with(Some(0.13))]).render();
    assert!(
        row.contains("better by McNemar only (McNemar p < 0.001, clustered p 0.130)"),
        "{row}"
    );
}

/// The verdict and the table test the model against the baseline they print beside it,
/// not only against the majority rule (synthetic figures).
#[test]
fn the_best_baseline_is_tested_where_it_is_not_the_majority_rule() {
    use crate::experiment::run::{BaselineSignificance, Significance};
    let test = |p_value| Significance {
        only_this: 46,
        only_majority: 73,
        p_value,
        p_clustered: None,
    };
    let mut m = result("ibk", false, 0.841);
    m.vs_majority = Some(test(0.363));
    m.vs_best_baseline = Some(BaselineSignificance {
        baseline: "baseline:always".into(),
        test: test(0.017),
    });
    let rs = vec![
        m,
        result("baseline:always", true, 0.875),
        result("baseline:majority", true, 0.828),
    ];
    let v = verdict(&rs);
    assert!(
        v.contains("does not beat the best baseline baseline:always (87.5%) (McNemar p = 0.017)"),
        "{v}"
    );
    let row = best_per_experiment(&[rs]).render();
    assert!(
        row.contains("0.017  no clear difference (p 0.363)"),
        "{row}"
    );
}
