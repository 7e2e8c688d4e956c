//! A step model's answer inside a suggestion (recommend::suggest): where the step starts and
//! ends, and what it does to occupancy in words.

use super::{ProfileLaunch, StepValues, STEP_FACTOR};

/// A step model's answer for one suggestion: the level the profile shows, what it counts,
/// the predicted speedup of one doubling (or, where the doubled level would not launch, of
/// one halving, with why), the features of the raise it judges and the validation that
/// speaks for them (recommend::step_model::StepModel::validation_for).
#[derive(Clone)]
pub(super) struct StepAnswer<'a> {
    pub(super) model: &'a crate::recommend::step_model::StepModel,
    pub(super) level: f64,
    pub(super) meaning: &'static str,
    pub(super) predicted: f64,
    pub(super) values: StepValues,
    pub(super) validation: &'a crate::recommend::validation::Validation,
    /// Why the doubled level would not launch, where it would not: the answer is then for
    /// halving it.
    pub(super) lowered_because: Option<String>,
}

impl<'a> StepAnswer<'a> {
    /// The answer of `m`'s step model where `levels` give its family a level (`None` where
    /// they do not, or where `m` has no step model that answers); where the doubled level
    /// would not launch, for halving it, the reverse of raising it from half.
    pub(super) fn of(
        m: &'a crate::recommend::bundle::OptimizationModel,
        levels: &std::collections::BTreeMap<String, f64>,
        launch: &ProfileLaunch,
    ) -> crate::error::Result<Option<StepAnswer<'a>>> {
        let Some((model, level, meaning)) = crate::recommend::step_model::applies(m, levels) else {
            return Ok(None);
        };
        let lowered_because = launch.cannot_step(&m.name, level, STEP_FACTOR);
        let lowered = lowered_because.is_some();
        let from = if lowered { level / STEP_FACTOR } else { level };
        let values = launch.step(&m.name, from, STEP_FACTOR);
        let raising = model.predict(&values)?;
        let answer = StepAnswer {
            model,
            level,
            meaning,
            predicted: if lowered { 1.0 / raising } else { raising },
            validation: model.validation_for(&values),
            values,
            lowered_because,
        };
        Ok(Some(answer))
    }

    /// The doubled level would not launch: the answer is for halving it.
    pub(super) fn lowered(&self) -> bool {
        self.lowered_because.is_some()
    }

    /// Where the raise the features describe starts: the level, or half of it when lowering.
    pub(super) fn from(&self) -> f64 {
        if self.lowered() {
            self.level / STEP_FACTOR
        } else {
            self.level
        }
    }

    /// The level the suggestion moves to.
    pub(super) fn to(&self) -> f64 {
        if self.lowered() {
            self.level / STEP_FACTOR
        } else {
            self.level * STEP_FACTOR
        }
    }

    /// Why the step model answers as it does, in words: the step, what it does to occupancy,
    /// why it lowers where raising cannot be done, how the step model and the counter model
    /// did on programs they had not seen, what the majority rule says where it answers
    /// (`follows_rule`), and the counter model's prediction of raising the level with its
    /// reason (`counter`; `None` where the profile lacks its counters).
    pub(super) fn reason(
        &self,
        m: &crate::recommend::bundle::OptimizationModel,
        launch: &ProfileLaunch,
        counter: Option<(f64, String)>,
        follows_rule: bool,
    ) -> String {
        let counters = match counter {
            Some((p, why)) => format!(
                "the counter model predicts {}x{}; {why}",
                crate::number_format::fmt_sig(p, 3),
                if self.lowered() {
                    " for raising it (so lowering is the reverse)"
                } else {
                    ""
                },
            ),
            None => "the profile lacks most of the counter model's counters".to_string(),
        };
        let counters = if follows_rule {
            format!(
                "{}; {counters}",
                super::majority_rule::step_reason(m, self.predicted, self.lowered())
            )
        } else {
            counters
        };
        format!(
            "{} {} from {} to {}{}{}: the step model (LinearRegression on where a \
             step starts and how far it goes and, for block sizes, what it does to \
             occupancy) was right {:.0}% of the time{} on a program it had not seen \
             (balanced {:.0}%, the majority rule's {:.0}%{}), the counter model {}; \
             {counters}",
            if self.lowered() {
                "lowering"
            } else {
                "raising"
            },
            self.meaning,
            self.level,
            self.to(),
            occupancy_phrase(self.model, &self.values, launch, self.lowered()),
            self.lowered_because
                .as_ref()
                .map(|why| format!(" (raising it cannot be done: {why})"))
                .unwrap_or_default(),
            100.0 * self.validation.accuracy,
            self.model.judged_on(&self.values),
            100.0 * self.validation.balanced_accuracy,
            100.0 * self.validation.majority_accuracy,
            // The occupancy rule has nothing to say where occupancy stays.
            match (self.model.occupancy_rule_accuracy, self.values.occupancy) {
                (Some(r), Some(o)) if !crate::recommend::step_model::occupancy_unchanged(o) =>
                    format!(", the untrained occupancy rule's {:.0}%", 100.0 * r),
                _ => String::new(),
            },
            m.across_programs.as_ref().map_or(
                "was not validated across programs".into(),
                |a| format!("{:.0}%", 100.0 * a.accuracy)
            ),
        )
    }

    /// A log2 change of the raise, as the suggestion's own (negated when lowering).
    pub(super) fn signed(&self, log2_change: f64) -> f64 {
        if self.lowered() {
            -log2_change
        } else {
            log2_change
        }
    }
}

/// What the step does to theoretical occupancy, where known; where the model learned
/// occupancy and the profile cannot give it, that it is unknown and how to give it.
fn occupancy_phrase(
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
