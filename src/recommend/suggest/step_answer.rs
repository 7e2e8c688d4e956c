//! A step model's answer inside a suggestion (recommend::suggest): where the step starts and
//! ends, and what it does to occupancy in words.

use super::{ProfileLaunch, StepValues, STEP_FACTOR};

/// A step model's answer for one suggestion: the level the profile shows, what it counts,
/// the predicted speedup of one doubling (or, where the doubled level would not launch, of
/// one halving, with why), the features of the raise it judges and the validation that
/// speaks for them (recommend::step_model::StepModel::validation_for).
#[derive(Clone, Copy)]
pub(super) struct StepAnswer<'a> {
    pub(super) model: &'a crate::recommend::step_model::StepModel,
    pub(super) level: f64,
    pub(super) meaning: &'static str,
    pub(super) predicted: f64,
    pub(super) values: StepValues,
    pub(super) validation: &'a crate::recommend::validation::Validation,
    /// The doubled level would not launch: the answer is for halving it.
    pub(super) lowered: bool,
}

impl StepAnswer<'_> {
    /// Where the raise the features describe starts: the level, or half of it when lowering.
    pub(super) fn from(&self) -> f64 {
        if self.lowered {
            self.level / STEP_FACTOR
        } else {
            self.level
        }
    }

    /// The level the suggestion moves to.
    pub(super) fn to(&self) -> f64 {
        if self.lowered {
            self.level / STEP_FACTOR
        } else {
            self.level * STEP_FACTOR
        }
    }

    /// A log2 change of the raise, as the suggestion's own (negated when lowering).
    pub(super) fn signed(&self, log2_change: f64) -> f64 {
        if self.lowered {
            -log2_change
        } else {
            log2_change
        }
    }
}

/// What the step does to theoretical occupancy, where known; where the model learned
/// occupancy and the profile cannot give it, that it is unknown and how to give it.
pub(super) fn occupancy_phrase(
    model: &crate::recommend::step_model::StepModel,
    step: &StepValues,
    launch: &ProfileLaunch,
    lowering: bool,
) -> String {
    match step.occupancy.map(|o| if lowering { -o } else { o }) {
        None if model.across_programs_unknown_gpu.is_some() => format!(
            " (its effect on occupancy unknown: {})",
            launch.missing().unwrap_or_else(|| format!(
                "a block of {} threads does not fit the GPU's SM",
                (step.level + step.factor).exp2()
            ))
        ),
        Some(o) if !crate::recommend::step_model::occupancy_unchanged(o) => format!(
            " (theoretical occupancy x{} with the registers per thread unchanged)",
            crate::number_format::fmt_sig(o.exp2(), 3)
        ),
        Some(_) => " (theoretical occupancy unchanged)".to_string(),
        None => String::new(),
    }
}
