//! What a suggestion says: the optimization, its predicted speedup and second opinion, its
//! confidence and validation, the counters that decided, and what the step model said (the
//! output of recommend::suggest, in JSON as printed).

use serde::Serialize;

use crate::number_format::fmt_sig;

/// One suggestion.
#[derive(Debug, Clone, Serialize)]
pub struct Suggestion {
    pub optimization: String,
    pub predicted_speedup: f64,
    /// The second model's prediction.
    pub second_opinion: f64,
    pub confidence: f64,
    pub confidence_label: &'static str,
    /// `recommend`, `no clear effect`, `not recommended`, or, before any of those, `uncertain`
    /// where the confidence is below even odds (`suggest::EVEN_ODDS`), the validation behind
    /// it is no better than a coin toss (`validation::beats_coin_toss`), or the profile shows a
    /// problem the training data never had (`profile_checks::unseen_problem`).
    pub verdict: &'static str,
    pub extrapolation: bool,
    pub reason: String,
    /// Cross-validated accuracy of this optimization's model, and of the majority rule.
    pub validated_accuracy: Option<f64>,
    pub majority_accuracy: Option<f64>,
    /// Accuracy on programs it had not seen (leave one program out), where two or more
    /// programs have the optimization; it, not `validated_accuracy`, enters the confidence.
    /// Of what answers: the model's, or the majority rule's where `follows_rule`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub across_programs_accuracy: Option<f64>,
    /// The same leave one program out: the model's accuracy (the step model's where it
    /// answered) and the majority rule's, whichever answers, so the two can be read side by
    /// side as the grouped validation's are.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub across_programs_model_accuracy: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub across_programs_majority_accuracy: Option<f64>,
    /// The grouped validation's confusion table (counts; P = speedup > 1, first letter the
    /// prediction).
    pub validation_table: Option<[usize; 4]>,
    /// The uncalibrated score and the share of the model's counters the profile has.
    pub raw_score: f64,
    pub coverage: f64,
    /// The model learned only from simulated data.
    pub simulated_only: bool,
    /// For an optimization whose effect depends on how the GPU is attached to its host: the
    /// link of the measurements it learned from (recommend::suggest::host_choice).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host_link: Option<crate::dataset::host_link::HostLink>,
    /// `host_link` is not the profile's: the model learned only on another link, so its
    /// confidence was measured there, not on this kind of host (the verdict is uncertain).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub other_host_link: bool,
    /// The majority rule answered, not the model (`OptimizationModel::follows_rule`): the
    /// predicted speedup is the training samples' median, the second opinion the model's.
    pub follows_rule: bool,
    /// Where the rule answers and learned from two or more programs: each program's pairs and
    /// median speedup (`RuleBasis::by_program`), so a reader can see whether they agree.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rule_by_program: Vec<crate::recommend::bundle::ProgramMedian>,
    /// The counters that decided (M5P path) and that lie furthest outside the training range.
    pub deciding_counters: Vec<CounterEvidence>,
    /// Where the step model answered (recommend::step_model): the level the profile shows,
    /// the level proposed, and both models' accuracy on programs they had not seen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step: Option<StepUse>,
}

/// A suggestion the step model made: raise the family's level from `level` to `to` (or lower
/// it, where raising it would not launch: `lowered_because` says why).
#[derive(Debug, Clone, Serialize)]
pub struct StepUse {
    pub level: f64,
    pub to: f64,
    pub meaning: &'static str,
    /// Theoretical occupancy after the step over before, where the profile gave the GPU and
    /// the registers per thread (experiment::step_features).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub occupancy_change: Option<f64>,
    /// How evenly a block's warps fill the warp schedulers, after over before.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warp_fill_change: Option<f64>,
    pub step_accuracy_across: f64,
    pub counters_accuracy_across: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lowered_because: Option<String>,
}

/// A counter of the user's profile next to the training data's range.
#[derive(Debug, Clone, Serialize)]
pub struct CounterEvidence {
    pub counter: String,
    pub value: f64,
    pub train_min: f64,
    pub train_max: f64,
    /// For a decision of the M5P tree: the threshold it was compared with.
    pub threshold: Option<f64>,
    /// For a decision of the M5P tree on a counter the profile lacks (`value` NaN): the value
    /// the tree compared instead, the training data's mean (Weka's ReplaceMissingValues).
    pub taken_as: Option<f64>,
}

impl CounterEvidence {
    /// The value the model's test saw: the profile's, or the training mean where it has none.
    pub fn compared_value(&self) -> f64 {
        self.taken_as.unwrap_or(self.value)
    }

    /// The profile's value as text, saying so where it lacks the counter.
    pub fn value_text(&self) -> String {
        match self.taken_as {
            Some(m) if self.value.is_nan() => {
                format!(
                    "missing (the model took the training mean, {})",
                    fmt_sig(m, 3)
                )
            }
            _ => fmt_sig(self.value, 3),
        }
    }
}

/// The suggestion a report leads with: the first recommendation of a ranked list, else the
/// first that predicts a speedup at under even odds (a guess, and reported as one).
pub fn headline(list: &[Suggestion]) -> Option<&Suggestion> {
    list.iter().find(|s| s.verdict == "recommend").or_else(|| {
        list.iter()
            .find(|s| s.verdict == super::suggest::UNCERTAIN && s.predicted_speedup > 1.0)
    })
}
