//! The caveats a suggestion's reason ends with: what caps its confidence or makes its verdict
//! "uncertain" (never validated, no better than a coin toss, a problem its training data never
//! showed, another host's data), where its training data came from when any of it was
//! simulated, and how its model fared against the majority rule and on programs it had not
//! seen.

use crate::recommend::bundle::OptimizationModel;
use crate::recommend::validation::Validation;

/// What decides a suggestion's caveats, as `suggest` worked it out.
pub(super) struct Caveats<'a> {
    pub model: &'a OptimizationModel,
    /// The pooled accuracy on unseen programs that capped an extrapolation's confidence.
    pub pooled_cap: Option<f64>,
    /// The validation that could not tell the direction from a coin toss, where the verdict
    /// is "uncertain" for that reason and not for a confidence under even odds.
    pub coin_toss: Option<&'a Validation>,
    /// Whether the majority rule answers.
    pub rule: bool,
    /// Its training pairs fell in fewer than two groups, so nothing validated it.
    pub unvalidated: bool,
    /// The problem the profile shows and the training data never did.
    pub unseen: Option<&'a str>,
    /// Which host's data answered, where that needs saying.
    pub host: Option<String>,
    /// The counter model answers (no step model).
    pub counters_answer: bool,
}

impl Caveats<'_> {
    /// The caveats, each starting with "; ", in the order a reader needs them.
    pub(super) fn text(&self) -> String {
        let m = self.model;
        let mut out = String::new();
        if let Some(a) = self.pooled_cap {
            out.push_str(&format!(
                "; never validated on a program the advisor had not seen, so its confidence is at \
                 most the {:.0}% its models reached on such programs",
                100.0 * a
            ));
        }
        if let Some(v) = self.coin_toss {
            out.push_str(&format!(
                "; uncertain: right on {:.1}% of {} held-out directions, no better than a coin \
                 toss by the sign test",
                100.0 * v.answering(self.rule),
                v.pp + v.pn + v.np + v.nn
            ));
        }
        if self.unvalidated {
            out.push_str(&format!(
                "; uncertain: never validated (its {} training pairs fall in fewer than two \
                 groups, so none could be held out)",
                m.samples
            ));
        }
        if let Some(u) = self.unseen {
            out.push_str(&format!("; uncertain: {u}"));
        }
        if let Some(h) = &self.host {
            out.push_str(h);
        }
        if m.simulated_only {
            out.push_str(&format!(
                "; learned only from SIMULATED data ({} on GPGPU-Sim): no GPU measurement backs it",
                m.programs.join(", ")
            ));
        } else if m.programs.iter().any(|p| p.contains("(SIMULATED")) {
            out.push_str(&format!(
                "; learned partly from SIMULATED data (GPGPU-Sim): {}",
                m.programs.join(", ")
            ));
        }
        if !self.counters_answer {
            return out;
        }
        let beats_majority = m
            .validation
            .as_ref()
            .is_some_and(|v| v.accuracy > v.majority_accuracy);
        if let (false, false, Some(v)) = (self.rule, beats_majority, &m.validation) {
            out.push_str(&format!(
                "; validated accuracy {:.0}% is no better than the majority rule's ({:.0}%)",
                100.0 * v.accuracy,
                100.0 * v.majority_accuracy
            ));
        }
        if let Some(a) = &m.across_programs {
            let second = a
                .secondary_accuracy
                .map(|s| format!(" (the second model's {:.0}%)", 100.0 * s))
                .unwrap_or_default();
            out.push_str(&format!(
                "; on a program it had not seen (leave one program out over {}) its direction \
                 was right {:.0}% of the time{second}, the majority rule's {:.0}%",
                m.programs.join(", "),
                100.0 * a.accuracy,
                100.0 * a.majority_accuracy
            ));
        }
        out
    }
}
