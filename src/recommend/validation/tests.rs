//! Unit tests of recommend::validation.

use super::*;

#[test]
fn the_model_answers_only_where_it_beat_the_rule_significantly() {
    let v = |accuracy: f64, majority_accuracy: f64, p_value: f64| Validation {
        folds: 10,
        grouped: true,
        groups: 50,
        accuracy,
        accuracy_low: accuracy,
        accuracy_high: accuracy,
        majority_accuracy,
        p_value,
        balanced_accuracy: 0.5,
        pp: 0,
        pn: 0,
        np: 0,
        nn: 0,
        secondary_accuracy: None,
    };
    assert!(follows_rule(&v(0.48, 0.86, 0.001)));
    // Figures no validation gives are said (a damaged advisor); NaN is "not computed".
    assert_eq!(v(0.48, 0.86, 0.001).problem(), None);
    assert_eq!(v(0.48, 0.86, f64::NAN).problem(), None);
    assert_eq!(
        v(5.0, 0.86, 0.001).problem().as_deref(),
        Some("accuracy is 5, not a share from 0 to 1")
    );
    assert!(v(0.5, 0.5, -3.0)
        .problem()
        .unwrap()
        .starts_with("p_value is -3"));
    // Worse or better within chance: the model has not earned its place.
    assert!(follows_rule(&v(0.53, 0.58, 0.28)));
    assert!(follows_rule(&v(0.62, 0.58, 0.28)));
    // Significantly better: the model.
    assert!(!follows_rule(&v(0.9, 0.8, 0.001)));
}

#[test]
fn a_coin_toss_is_told_by_the_counts() {
    let v = |pp: usize, nn: usize, wrong: usize| Validation {
        folds: 4,
        grouped: true,
        groups: 4,
        accuracy: (pp + nn) as f64 / (pp + nn + wrong) as f64,
        accuracy_low: 0.0,
        accuracy_high: 1.0,
        majority_accuracy: 0.5,
        p_value: 1.0,
        balanced_accuracy: 0.5,
        pp,
        pn: wrong,
        np: 0,
        nn,
        secondary_accuracy: None,
    };
    // The block doublings that leave occupancy unchanged: 780 of 1,548.
    let same = v(775, 5, 768);
    assert!(!beats_coin_toss(same.accuracy, &same));
    // 60% of 1,000 is no coin toss; 60% of 10 may be.
    let many = v(600, 0, 400);
    assert!(beats_coin_toss(many.accuracy, &many));
    let few = v(6, 0, 4);
    assert!(!beats_coin_toss(few.accuracy, &few));
    // Significantly wrong is no better than a coin toss either.
    assert!(!beats_coin_toss(0.3, &many));
    // The majority rule's share of the same samples is judged the same way.
    assert!(beats_coin_toss(0.7, &same));
    // Without counts, nothing to judge by.
    assert!(beats_coin_toss(0.51, &v(0, 0, 0)));
}

#[test]
fn the_rule_learns_from_measured_rows_where_there_are_any() {
    // Rows 0-3 simulated, 4-5 measured.
    let measured = [false, false, false, false, true, true];
    assert_eq!(rule_basis(&[0, 1, 4, 5], &measured), vec![4, 5]);
    assert_eq!(rule_basis(&[0, 1, 2], &measured), vec![0, 1, 2]);
    assert_eq!(rule_basis(&[0, 5], &[]), vec![0, 5]);
    // Simulated pairs all sped up, the measured ones mostly not: the rule says no.
    let y = [1.5, 1.4, 1.3, 1.2, 0.9, 0.95];
    let b = crate::recommend::bundle::RuleBasis::of(&y, &measured, &[]);
    assert!(b.by_program.is_empty());
    assert_eq!(b.samples, 2);
    assert!(b.measured_only);
    assert_eq!(b.positive_rate, 0.0);
    assert!((b.median_speedup - 0.925).abs() < 1e-12);
    let all = crate::recommend::bundle::RuleBasis::of(&y, &[], &[]);
    assert!(!all.measured_only && all.samples == 6 && all.median_speedup > 1.0);
}

#[test]
fn validation_judges_on_the_measured_rows_with_the_rule_they_teach() {
    // Two groups of simulated rows that speed up, three of measured rows that mostly
    // slow down: in every fold the rule says "no", and only the measured rows are
    // judged: right on 5 of their 6.
    let features = vec!["f".to_string()];
    let x: Vec<Vec<f64>> = (0..10).map(|i| vec![i as f64]).collect();
    let y = [1.5, 1.5, 1.4, 1.4, 0.9, 0.9, 0.8, 0.8, 0.7, 1.1];
    let groups = [0, 0, 1, 1, 2, 2, 3, 3, 4, 4];
    let measured: Vec<bool> = (0..10).map(|i| i >= 4).collect();
    let run = |m: &[bool]| {
        validate(
            &features,
            &x,
            &y,
            &groups,
            Method::Ibk,
            Method::Ibk,
            5,
            1,
            &[],
            m,
        )
        .unwrap()
        .unwrap()
        .validation
        .majority_accuracy
    };
    assert!(
        (run(&measured) - 5.0 / 6.0).abs() < 1e-12,
        "{}",
        run(&measured)
    );
    // Every row counted and judged: the rule's direction depends on the fold.
    assert!((run(&[]) - 5.0 / 6.0).abs() > 1e-12, "{}", run(&[]));
}

#[test]
fn grouped_split_keeps_groups_whole() {
    let groups = vec![0, 0, 1, 1, 1, 2, 3, 3, 4, 5, 5];
    let parts = split(&groups, 3, 7);
    for p in &parts {
        for q in &parts {
            if std::ptr::eq(p, q) {
                continue;
            }
            for &i in p {
                assert!(q.iter().all(|&j| groups[j] != groups[i]));
            }
        }
    }
    assert_eq!(parts.iter().map(Vec::len).sum::<usize>(), groups.len());
}
