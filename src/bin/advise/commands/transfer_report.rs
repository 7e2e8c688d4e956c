//! `advise bench transfer`'s figures and table: outcomes per sample, balanced accuracy with
//! its bootstrap interval, the breakdown by optimization family of evaluations whose folds
//! are families, and the text rendering of every evaluation.

use advise::experiment::run::{ExperimentResult, SampleResult};
use advise::experiment::stats::{
    balanced_of_counts, bootstrap_grouped_balanced, cluster_sign_flip_p, mcnemar_of_shares,
    Interval, SIGN_FLIPS, SIGN_FLIP_SALT,
};
use advise::experiment::step_features::Step;
use advise::report::table::TextTable;

use serde::Serialize;

use super::bench_transfer::{Evaluation, MethodRow};

/// One optimization family of an evaluation whose folds are families (leave one program out,
/// simulator <-> hardware): its best model and best baseline on that family's test samples.
#[derive(Debug, Clone, Serialize)]
pub struct FamilyRow {
    pub family: String,
    pub samples: usize,
    pub best_model: String,
    pub model_accuracy: Option<f64>,
    pub model_balanced: Option<f64>,
    pub best_baseline: String,
    pub baseline_accuracy: Option<f64>,
    pub baseline_balanced: Option<f64>,
    /// McNemar's exact test of the best model against the best baseline on these samples.
    pub p_vs_baseline: Option<f64>,
}

/// McNemar's exact test between two methods' outcomes on the same samples.
pub(super) fn mcnemar_between(a: &[(f64, bool)], b: &[(f64, bool)]) -> f64 {
    let right = |v: &[(f64, bool)]| v.iter().map(|o| o.0).collect::<Vec<f64>>();
    mcnemar_of_shares(&right(a), &right(b))
}

/// The breakdown by family: every result's samples of each family, the most accurate model
/// and the most accurate baseline there.
pub(super) fn by_family(results: &[ExperimentResult]) -> Vec<FamilyRow> {
    let mut families: Vec<&str> = results
        .iter()
        .flat_map(|r| r.optimizations.iter().map(|o| o.name.as_str()))
        .collect();
    families.sort_unstable();
    families.dedup();
    families
        .into_iter()
        .map(|fam| {
            // (method, outcomes, accuracy, balanced) of each result on this family.
            type Scored<'a> = (
                &'a ExperimentResult,
                Vec<(f64, bool)>,
                Option<f64>,
                Option<f64>,
            );
            let scored: Vec<Scored> = results
                .iter()
                .map(|r| {
                    let v: Vec<(f64, bool)> = r
                        .optimizations
                        .iter()
                        .filter(|o| o.name == fam)
                        .flat_map(|o| o.samples.iter())
                        .map(outcome)
                        .collect();
                    let acc = (!v.is_empty())
                        .then(|| v.iter().map(|(c, _)| c).sum::<f64>() / v.len() as f64);
                    let bal = balanced(&v);
                    (r, v, acc, bal)
                })
                .collect();
            // The first of equally accurate ones (`max_by` would keep the last).
            let best = |baseline: bool| {
                scored.iter().filter(|(r, ..)| r.baseline == baseline).fold(
                    None,
                    |best: Option<&Scored>, s| match best {
                        Some(b) if b.2.unwrap_or(0.0) >= s.2.unwrap_or(0.0) => Some(b),
                        _ => Some(s),
                    },
                )
            };
            let (m, b) = (best(false), best(true));
            FamilyRow {
                family: fam.to_string(),
                samples: scored.first().map_or(0, |s| s.1.len()),
                best_model: m.map(|m| m.0.method.clone()).unwrap_or_default(),
                model_accuracy: m.and_then(|m| m.2),
                model_balanced: m.and_then(|m| m.3),
                best_baseline: b.map(|b| b.0.method.clone()).unwrap_or_default(),
                baseline_accuracy: b.and_then(|b| b.2),
                baseline_balanced: b.and_then(|b| b.3),
                p_vs_baseline: m.zip(b).map(|(m, b)| mcnemar_between(&m.1, &b.1)),
            }
        })
        .collect()
}

/// Per test sample: the share of the method's answers whose direction was right (1 or 0, or
/// for a rule averaged over seeds the share of its seeds: a majority vote of a coin's seeds
/// would be the majority rule), and whether it really helped.
pub(super) fn outcomes(r: &ExperimentResult) -> Vec<(f64, bool)> {
    r.optimizations
        .iter()
        .flat_map(|o| o.samples.iter())
        .map(outcome)
        .collect()
}

/// One test sample: (direction right, really helped).
fn outcome(s: &SampleResult) -> (f64, bool) {
    let up = s.actual > 1.0;
    (
        if up {
            s.recommended
        } else {
            1.0 - s.recommended
        },
        up,
    )
}

/// Balanced accuracy of (right, positive) pairs.
pub(super) fn balanced(v: &[(f64, bool)]) -> Option<f64> {
    let (mut tp, mut p, mut tn, mut n) = (0.0, 0.0, 0.0, 0.0);
    for &(right, pos) in v {
        if pos {
            p += 1.0;
            tp += right;
        } else {
            n += 1.0;
            tn += right;
        }
    }
    balanced_of_counts(tp, p, tn, n)
}

/// 95% percentile bootstrap of the balanced accuracy (500 resamples), resampling the groups
/// the accuracy's interval resamples (`ExperimentResult::bootstrap_groups`).
pub(super) fn balanced_ci(v: &[(f64, bool)], groups: &[usize], seed: u64) -> Option<Interval> {
    bootstrap_grouped_balanced(groups, v, 500, seed ^ 0xB0B)
}

/// The sign-flip test of two methods' outcomes on the same samples over whole test tuples
/// (exact up to 16 tuples, else 2,000 random flips): McNemar's question without taking every
/// sample as independent.
pub(super) fn clustered_p(
    a: &[(f64, bool)],
    b: &[(f64, bool)],
    groups: &[usize],
    seed: u64,
) -> Option<f64> {
    let right = |v: &[(f64, bool)]| v.iter().map(|o| o.0).collect::<Vec<f64>>();
    cluster_sign_flip_p(
        groups,
        &right(a),
        &right(b),
        SIGN_FLIPS,
        seed ^ SIGN_FLIP_SALT,
    )
}

pub(super) fn pct(v: Option<f64>, ci: Option<Interval>) -> String {
    match (v, ci) {
        (Some(v), Some(c)) => format!(
            "{:.1} [{:.1}, {:.1}]",
            100.0 * v,
            100.0 * c.low,
            100.0 * c.high
        ),
        (Some(v), None) => format!("{:.1}", 100.0 * v),
        _ => "-".into(),
    }
}

/// The terminal tables.
pub fn render(evals: &[Evaluation], notes: &[String]) -> String {
    let mut text = String::new();
    for e in evals {
        let mut t = TextTable::new([
            "method",
            "samples",
            "accuracy %",
            "balanced %",
            "p McNemar",
            "p clustered",
        ]);
        let p_text = |p: Option<f64>| {
            p.map(advise::number_format::fmt_p)
                .unwrap_or_else(|| "(best baseline)".into())
        };
        for r in &e.rows {
            t.push([
                r.method.clone(),
                r.samples.to_string(),
                pct(r.accuracy, r.accuracy_ci),
                pct(r.balanced_accuracy, r.balanced_ci),
                p_text(r.p_vs_best_baseline),
                match (r.p_vs_best_baseline, r.p_clustered_vs_best_baseline) {
                    (None, _) => String::new(),
                    (Some(_), None) => "-".into(),
                    (Some(_), p) => p_text(p),
                },
            ]);
        }
        // The models more accurate than the best baseline with p < 0.05 by one test.
        let winners = |p: fn(&MethodRow) -> Option<f64>| {
            let base = e.rows.iter().find(|b| b.method == e.best_baseline);
            e.rows
                .iter()
                .filter(|r| !r.baseline && p(r).is_some_and(|p| p < 0.05))
                .filter(|r| {
                    r.accuracy.unwrap_or(0.0) > base.and_then(|b| b.accuracy).unwrap_or(1.0)
                })
                .map(|r| r.method.clone())
                .collect::<Vec<_>>()
        };
        let by_samples = winners(|r| r.p_vs_best_baseline);
        let by_groups = winners(|r| r.p_clustered_vs_best_baseline);
        let clustered = if e
            .rows
            .iter()
            .all(|r| r.p_clustered_vs_best_baseline.is_none())
        {
            "not tested (fewer than 5 tuples)".to_string()
        } else if by_groups.is_empty() {
            "none".to_string()
        } else {
            by_groups.join(", ")
        };
        let verdict = if by_samples.is_empty() {
            format!(
                "no model beats the best baseline ({}) significantly",
                e.best_baseline
            )
        } else {
            format!(
                "beats the best baseline ({}) with p < 0.05: {} (McNemar, every sample counted as \
                 independent); over whole programs, inputs and runs: {clustered}",
                e.best_baseline,
                by_samples.join(", "),
            )
        };
        text.push_str(&format!(
            "== {} ({} folds; {}; {} features) ==\n{}\n{}\n",
            e.name,
            e.folds,
            e.data,
            match e.step {
                Step::Off => format!("{:?}", e.view),
                Step::Add => format!("{:?} + step", e.view),
                Step::Only => "step".to_string(),
            },
            verdict,
            t.render()
        ));
        if !e.by_family.is_empty() {
            let mut f = TextTable::new([
                "family",
                "samples",
                "best model",
                "accuracy %",
                "balanced %",
                "best baseline",
                "accuracy %",
                "balanced %",
                "p",
            ]);
            for r in &e.by_family {
                f.push([
                    r.family.clone(),
                    r.samples.to_string(),
                    r.best_model.clone(),
                    pct(r.model_accuracy, None),
                    pct(r.model_balanced, None),
                    r.best_baseline.clone(),
                    pct(r.baseline_accuracy, None),
                    pct(r.baseline_balanced, None),
                    r.p_vs_baseline
                        .map(advise::number_format::fmt_p)
                        .unwrap_or_else(|| "-".into()),
                ]);
            }
            text.push_str(&format!("by family:\n{}\n", f.render()));
        }
    }
    for n in notes {
        text.push_str(&format!("note: {n}\n"));
    }
    text
}
