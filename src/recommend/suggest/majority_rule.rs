//! Suggestions of an optimization whose model did not beat the majority rule significantly
//! (`follows_rule`): the rule answers, the model is the second opinion, and the reason says
//! why.

use crate::recommend::bundle::OptimizationModel;

/// The rule's predicted speedup: the median of the training samples' speedups, which lies on
/// the majority's side of 1.0.
pub(super) fn speedup(m: &OptimizationModel) -> f64 {
    let finite: Vec<f64> = m
        .speedups
        .iter()
        .copied()
        .filter(|s| s.is_finite())
        .collect();
    if finite.is_empty() {
        m.mean_speedup
    } else {
        crate::experiment::stats::median(finite)
    }
}

/// Why the rule answers, in words.
pub(super) fn reason(m: &OptimizationModel, model_says: f64) -> String {
    let (where_, v) = match (&m.across_programs, &m.validation) {
        (Some(a), _) => ("on programs it had not seen", a),
        (None, Some(v)) => ("in grouped validation", v),
        (None, None) => return String::new(),
    };
    format!(
        "follows the majority rule: {:.0}% of the {} training pairs got faster (median \
         speedup {}x); this optimization's model was right {:.0}% of the time {where_} \
         against the rule's {:.0}% (McNemar p {:.3}), not significantly better, so the rule \
         answers; the model predicts {}x here",
        100.0 * m.positive_rate,
        m.samples,
        crate::number_format::fmt_sig(speedup(m), 3),
        100.0 * v.accuracy,
        100.0 * v.majority_accuracy,
        v.p_value,
        crate::number_format::fmt_sig(model_says, 3),
    )
}
