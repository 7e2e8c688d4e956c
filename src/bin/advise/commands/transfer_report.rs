//! `advise bench transfer`'s figures and table: outcomes per sample, balanced accuracy with
//! its bootstrap interval, and the text rendering of every evaluation.

use advise::experiment::run::ExperimentResult;
use advise::experiment::stats::{percentile, Interval};
use advise::report::table::TextTable;
use advise_ml::SplitMix64;

use super::bench_transfer::Evaluation;

/// Per test sample: whether the method's direction was right, and whether it really helped.
/// Rules averaged over seeds count as right when most seeds were.
pub(super) fn outcomes(r: &ExperimentResult) -> Vec<(bool, bool)> {
    r.optimizations
        .iter()
        .flat_map(|o| o.samples.iter())
        .map(|s| {
            let up = s.actual > 1.0;
            ((s.recommended >= 0.5) == up, up)
        })
        .collect()
}

/// Balanced accuracy of (right, positive) pairs.
pub(super) fn balanced(v: &[(bool, bool)], idx: impl Iterator<Item = usize>) -> Option<f64> {
    let (mut tp, mut p, mut tn, mut n) = (0usize, 0usize, 0usize, 0usize);
    for i in idx {
        let (right, pos) = v[i];
        if pos {
            p += 1;
            tp += usize::from(right);
        } else {
            n += 1;
            tn += usize::from(right);
        }
    }
    let rates: Vec<f64> = [(tp, p), (tn, n)]
        .into_iter()
        .filter(|&(_, t)| t > 0)
        .map(|(k, t)| k as f64 / t as f64)
        .collect();
    (!rates.is_empty()).then(|| rates.iter().sum::<f64>() / rates.len() as f64)
}

/// 95% percentile bootstrap of the balanced accuracy over samples (500 resamples).
pub(super) fn balanced_ci(v: &[(bool, bool)], seed: u64) -> Option<Interval> {
    if v.is_empty() {
        return None;
    }
    let mut rng = SplitMix64::new(seed ^ 0xB0B);
    let mut values: Vec<f64> = (0..500)
        .filter_map(|_| balanced(v, (0..v.len()).map(|_| rng.below(v.len()))))
        .collect();
    values.sort_by(f64::total_cmp);
    (!values.is_empty()).then(|| Interval {
        low: percentile(&values, 2.5),
        high: percentile(&values, 97.5),
    })
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
            "p vs best baseline",
        ]);
        for r in &e.rows {
            t.push([
                r.method.clone(),
                r.samples.to_string(),
                pct(r.accuracy, r.accuracy_ci),
                pct(r.balanced_accuracy, r.balanced_ci),
                r.p_vs_best_baseline
                    .map(|p| format!("{p:.3}"))
                    .unwrap_or_else(|| "(best baseline)".into()),
            ]);
        }
        let winner = e
            .rows
            .iter()
            .filter(|r| !r.baseline && r.p_vs_best_baseline.is_some_and(|p| p < 0.05))
            .filter(|r| {
                let base = e.rows.iter().find(|b| b.method == e.best_baseline);
                r.accuracy.unwrap_or(0.0) > base.and_then(|b| b.accuracy).unwrap_or(1.0)
            })
            .map(|r| r.method.clone())
            .collect::<Vec<_>>();
        text.push_str(&format!(
            "== {} ({} folds; {}; {:?} features) ==\n{}: {}\n{}\n",
            e.name,
            e.folds,
            e.data,
            e.view,
            if winner.is_empty() {
                "no model beats the best baseline significantly".to_string()
            } else {
                format!(
                    "beats the best baseline ({}) with p < 0.05",
                    e.best_baseline
                )
            },
            winner.join(", "),
            t.render()
        ));
    }
    for n in notes {
        text.push_str(&format!("note: {n}\n"));
    }
    text
}
