//! A trained advisor (`advise train`): per optimization, a fitted primary model (IBk by
//! default, the thesis's best) and a second model (M5P) whose agreement feeds the confidence,
//! the training rows (for the nearest-neighbour reason and the extrapolation check), and the
//! optimization's cross-validated accuracy against the majority rule. One JSON file (`.gz`
//! allowed) with the feature list, the normalization and the training data's provenance.
//! `recommend::training` trains one.
//!
//! An "optimization" is a kind of change a programmer can make in any code: an optimization
//! family (dataset::families: NB's UNROLL bit and a space's INNER_UNROLL_FACTOR steps are both
//! UNROLL; a many-valued parameter's family means "raise it"), pooled over the datasets'
//! programs. Only families the catalogue explains are kept: a program's private algorithm
//! choices (pnpoly's USE_METHOD) mean nothing for another program.

use serde::{Deserialize, Serialize};

use advise_ml::{FittedModel, Method};

use super::calibration::{Calibration, ReliabilityRow};
pub use super::training::{train, train_reporting, usable_columns, TrainSettings};
pub use super::validation::Validation;

pub const FORMAT: &str = "advise-advisor";
pub const VERSION: u32 = 2;

/// Everything about one optimization.
#[derive(Debug, Serialize, Deserialize)]
pub struct OptimizationModel {
    pub name: String,
    /// The host link its samples were all measured on, for an optimization the catalogue
    /// says depends on it (`catalogue::Entry::per_host_link`): the advisor then has one
    /// model per link, and `suggest` answers with the profile's own. `None` for the others.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host_link: Option<crate::dataset::host_link::HostLink>,
    pub samples: usize,
    pub positive_rate: f64,
    pub mean_speedup: f64,
    pub primary: FittedModel,
    pub secondary: FittedModel,
    pub validation: Option<Validation>,
    /// Training rows (NaN = missing), their sample ids and measured speedups.
    pub rows: Vec<Vec<f64>>,
    pub ids: Vec<String>,
    pub speedups: Vec<f64>,
    /// Per feature: minimum and maximum over the training rows.
    pub ranges: Vec<(f64, f64)>,
    /// Median distance of a training row to its nearest other training row (scaled space).
    pub typical_distance: f64,
    /// The same over the portable features only (the extrapolation check's space).
    #[serde(default)]
    pub typical_portable_distance: f64,
    /// The programs its samples come from, and whether all of them were simulated (then no
    /// measurement on a GPU backs it).
    #[serde(default)]
    pub programs: Vec<String>,
    #[serde(default)]
    pub simulated_only: bool,
    /// Leave one program out over its programs (two or more): trained on the others, tested
    /// on each in turn, against the majority rule of the others. A user's program is new to
    /// the advisor, so this says more about it than the grouped validation within programs.
    #[serde(default)]
    pub across_programs: Option<Validation>,
    /// For a many-valued family: LinearRegression on where a step starts and how far it goes
    /// (and, for block sizes, the occupancy change; recommend::step_model), with its own
    /// accuracy across programs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<super::step_model::StepModel>,
    /// Suggestions follow the majority rule (the training samples' majority direction), not
    /// the model: the validation that stands for a user's program (across programs where
    /// measured, else grouped within programs) did not find the model significantly better
    /// than the rule (`validation::follows_rule`).
    #[serde(default)]
    pub follows_rule: bool,
    /// Leave one program out with that choice made without the held-out program
    /// (`nested::nested_choice`): held-out directions right, and all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub across_nested: Option<[usize; 2]>,
    /// The same held-out directions counted with the verdicts a suggestion would give them
    /// (the inner validation's answer beat a coin toss, `validation::beats_coin_toss`; see
    /// `nested::NestedChoice`). `None` in advisors trained before it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub across_nested_verdicts: Option<super::nested::NestedChoice>,
    /// What the majority rule learned: from the measured training samples where there are
    /// any (`validation::rule_basis`). `None` in advisors trained before it existed: then all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<RuleBasis>,
}

impl OptimizationModel {
    /// Its name for a reader, with the host link where it has one: "UM_MANAGED (PCIe host)".
    pub fn label(&self) -> String {
        match self.host_link {
            Some(l) => format!("{} ({} host)", self.name, l.label()),
            None => self.name.clone(),
        }
    }

    /// Why a model read from a file cannot be one `train` made (a damaged or hand-edited
    /// file), where its state says so: its fitted models' own checks, training rows, ids and
    /// speedups of different counts, none at all, or rows and ranges of another width than
    /// the advisor's `features`.
    pub fn problem(&self, features: &[String]) -> Option<String> {
        for (which, m) in [("primary", &self.primary), ("secondary", &self.secondary)] {
            if let Err(e) = m.check() {
                return Some(e);
            }
            // Each model reads the advisor's features, in their order: named otherwise, it
            // would refuse every profile (or, swapped, read one counter as another).
            let at = (0..features.len().max(m.features.len()))
                .find(|&i| m.features.get(i).map(|f| &f.name) != features.get(i));
            if let Some(i) = at {
                let name = |n: Option<&String>| n.map_or("nothing".to_string(), |n| n.clone());
                return Some(format!(
                    "its {which} model reads feature {} as {}, where the advisor lists {}",
                    i + 1,
                    name(m.features.get(i).map(|f| &f.name)),
                    name(features.get(i))
                ));
            }
        }
        let features = features.len();
        let n = self.rows.len();
        if n == 0 || self.ids.len() != n || self.speedups.len() != n {
            return Some(format!(
                "{n} training rows, {} ids and {} speedups",
                self.ids.len(),
                self.speedups.len()
            ));
        }
        if self.ranges.len() != features || self.rows.iter().any(|r| r.len() != features) {
            return Some(format!("training rows or ranges are not {features} wide"));
        }
        // A range is (minimum, maximum); NaN where the rows hold no value of the feature.
        if let Some(i) = self.ranges.iter().position(|&(lo, hi)| lo > hi) {
            let (lo, hi) = self.ranges[i];
            return Some(format!(
                "the range of feature {} runs from {lo} down to {hi}",
                i + 1
            ));
        }
        // Each validation holds every training row out at most once.
        for (what, v) in [
            ("validation", &self.validation),
            ("across_programs", &self.across_programs),
        ] {
            let Some(v) = v else { continue };
            if let Some(p) = v.problem() {
                return Some(format!("its {what}: {p}"));
            }
            let held_out = [v.pp, v.pn, v.np, v.nn]
                .into_iter()
                .try_fold(0usize, usize::checked_add);
            if held_out.is_none_or(|h| h > n) {
                return Some(format!(
                    "its {what} counts more held-out samples (pp, pn, np, nn) than its {n} \
                     training rows"
                ));
            }
        }
        if let Some([right, all]) = self.across_nested {
            if right > all || all > n {
                return Some(format!(
                    "across_nested says {right} of {all} right, over {n} training rows"
                ));
            }
        }
        None
    }
}

/// The training samples the majority rule answers from, summed up.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RuleBasis {
    /// How many samples, and whether they are the measured ones only (some were simulated).
    pub samples: usize,
    pub measured_only: bool,
    /// The share that got faster, and their median speedup (the rule's prediction).
    pub positive_rate: f64,
    pub median_speedup: f64,
    /// The same samples program by program, where they come from two or more: whether the
    /// programs agree is evidence the pooled share cannot give (the coin-toss test counts
    /// pairs, and one program can hold most of them). Empty in advisors trained before it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub by_program: Vec<ProgramMedian>,
}

/// One program's training pairs of an optimization and their median speedup.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProgramMedian {
    pub program: String,
    pub samples: usize,
    pub median_speedup: f64,
}

impl RuleBasis {
    /// From the training speedups `y`, per sample whether it was measured, and per sample its
    /// program (empty where unknown: then no `by_program`).
    pub fn of(y: &[f64], measured: &[bool], programs: &[String]) -> Self {
        let all: Vec<usize> = (0..y.len()).collect();
        let basis = super::validation::rule_basis(&all, measured);
        let speedups: Vec<f64> = basis
            .iter()
            .map(|&i| y[i])
            .filter(|s| s.is_finite())
            .collect();
        let mut of_program: std::collections::BTreeMap<&str, Vec<f64>> = Default::default();
        for &i in &basis {
            if let Some(p) = programs.get(i).filter(|_| y[i].is_finite()) {
                of_program.entry(p.as_str()).or_default().push(y[i]);
            }
        }
        let by_program = if of_program.len() < 2 {
            Vec::new()
        } else {
            of_program
                .into_iter()
                .map(|(p, ys)| ProgramMedian {
                    program: p.to_string(),
                    samples: ys.len(),
                    median_speedup: crate::experiment::stats::median(ys),
                })
                .collect()
        };
        RuleBasis {
            by_program,
            samples: basis.len(),
            measured_only: basis.len() < y.len(),
            positive_rate: basis.iter().filter(|&&i| y[i] > 1.0).count() as f64
                / basis.len().max(1) as f64,
            median_speedup: if speedups.is_empty() {
                f64::NAN
            } else {
                crate::experiment::stats::median(speedups)
            },
        }
    }
}

/// The whole advisor.
#[derive(Debug, Serialize, Deserialize)]
pub struct Advisor {
    pub format: String,
    pub version: u32,
    pub method: Method,
    pub features: Vec<String>,
    /// The metric counts were divided by (C = 1e6), and whether all metrics were divided.
    pub normalizer: Option<String>,
    pub datasets: Vec<String>,
    pub provenance: String,
    pub optimizations: Vec<OptimizationModel>,
    /// The feature view the advisor was trained on.
    #[serde(default)]
    pub view: crate::dataset::features::View,
    /// Raw confidence score -> share of held-out suggestions that were right.
    #[serde(default)]
    pub calibration: Calibration,
    /// The calibrated confidence against the share right, on held-out predictions.
    #[serde(default)]
    pub reliability: Vec<ReliabilityRow>,
    /// The same on programs it had not seen (leave one program out), confidence capped as
    /// `suggest` caps it.
    #[serde(default)]
    pub reliability_across: Vec<ReliabilityRow>,
    /// The settings it was trained with, so that a reader can train it again (`None`: an
    /// advisor written before they were recorded).
    #[serde(default)]
    pub trained_with: Option<TrainedWith>,
}

/// The settings of `advise train` that change an advisor beyond its data and method: the seed
/// of the per-optimization subsample and of the validation folds, the subsample's cap and the
/// number of folds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrainedWith {
    pub seed: u64,
    pub max_samples: usize,
    pub folds: usize,
}

impl Advisor {
    /// The Nsight Compute metrics a profile needs for this advisor: its counter features,
    /// the inputs of its portable features, the normalizer and active cycles; no duplicates.
    pub fn metrics_to_profile(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let mut add = |m: &str| {
            if !out.iter().any(|o| o == m) {
                out.push(m.to_string());
            }
        };
        for f in &self.features {
            if f.starts_with("portable__") {
                continue;
            }
            add(f);
        }
        if self.features.iter().any(|f| f.starts_with("portable__")) {
            for m in crate::dataset::portable::ncu_inputs() {
                add(m);
            }
        }
        if let Some(n) = &self.normalizer {
            add(n);
        }
        add("sm__cycles_active.sum");
        // Where the code stands for the step models (threads per block).
        if self.optimizations.iter().any(|m| m.step.is_some()) {
            add("launch__block_size");
        }
        out
    }

    /// The share of held-out directions its counter models got right on programs they had
    /// not seen (leave one program out), pooled over every optimization validated so; `None`
    /// where none was (fewer than two programs per optimization). The models', not the
    /// majority rule's where that answers (`follows_rule`): it caps the extrapolations of
    /// optimizations never validated so, whose models answer.
    pub fn across_programs_accuracy(&self) -> Option<f64> {
        let (right, all) = self
            .optimizations
            .iter()
            .filter_map(|m| m.across_programs.as_ref())
            .fold((0usize, 0usize), |(r, a), v| {
                (r + v.pp + v.nn, a + v.pp + v.pn + v.np + v.nn)
            });
        (all > 0).then(|| right as f64 / all as f64)
    }

    /// Indices of the portable features; all features when the advisor has none.
    pub fn extrapolation_columns(&self) -> Vec<usize> {
        let portable: Vec<usize> = (0..self.features.len())
            .filter(|&j| self.features[j].starts_with("portable__"))
            .collect();
        if portable.is_empty() {
            (0..self.features.len()).collect()
        } else {
            portable
        }
    }
}
