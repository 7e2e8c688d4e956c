//! What a run of folds yields: per test sample, per optimization and per experiment, the
//! confusion tables, accuracies with their intervals, errors and significance.

use std::collections::BTreeMap;

use serde::Serialize;

use super::splits::Fold;
use super::stats::Interval;

/// One test sample's outcome.
#[derive(Debug, Clone, Serialize)]
pub struct SampleResult {
    /// `program/input/run/variant`.
    pub id: String,
    /// The predicted speedup (EX); `null` for rules that only decide.
    pub predicted: Option<f64>,
    /// The measured speedup (AC).
    pub actual: f64,
    /// The share of seeds that recommended (1 or 0 for deterministic methods).
    pub recommended: f64,
    pub choice: String,
    /// The measured speedup's range over timing repetitions contains 1.0.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub noisy: bool,
    /// Measured in a simulator (GPGPU-Sim), not on a GPU.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub simulated: bool,
    #[serde(skip)]
    pub(super) group: usize,
}

impl SampleResult {
    pub(super) fn correct(&self) -> f64 {
        if self.actual > 1.0 {
            self.recommended
        } else {
            1.0 - self.recommended
        }
    }
}

/// Cells as fractions of samples may be averaged over seeds, hence `f64`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Cells {
    pub pp: f64,
    pub pn: f64,
    pub np: f64,
    pub nn: f64,
}

impl Cells {
    pub(super) fn of(samples: &[&SampleResult]) -> Cells {
        let mut c = Cells::default();
        for s in samples {
            if s.actual > 1.0 {
                c.pp += s.recommended;
                c.np += 1.0 - s.recommended;
            } else {
                c.pn += s.recommended;
                c.nn += 1.0 - s.recommended;
            }
        }
        c
    }
    pub(super) fn total(&self) -> f64 {
        self.pp + self.pn + self.np + self.nn
    }
    pub(super) fn accuracy(&self) -> Option<f64> {
        (self.total() > 0.0).then(|| (self.pp + self.nn) / self.total())
    }
    pub(super) fn balanced(&self) -> Option<f64> {
        super::stats::balanced_of_counts(self.pp, self.pp + self.np, self.nn, self.pn + self.nn)
    }
}

/// Results of one optimization.
#[derive(Debug, Clone, Serialize)]
pub struct OptimizationResult {
    pub name: String,
    pub pp: f64,
    pub pn: f64,
    pub np: f64,
    pub nn: f64,
    pub accuracy: Option<f64>,
    pub accuracy_ci: Option<Interval>,
    pub balanced_accuracy: Option<f64>,
    /// Accuracy on samples outside the no-clear-effect band, and the share inside it.
    pub clear_accuracy: Option<f64>,
    pub unclear_share: f64,
    pub mape: Option<f64>,
    pub mape_ci: Option<Interval>,
    /// Median absolute percentage error.
    pub mdape: Option<f64>,
    /// Accuracy per open choice (run, input): the spread behind the pooled figure.
    pub choice_accuracy: BTreeMap<String, f64>,
    pub samples: Vec<SampleResult>,
}

/// Totals over an experiment's optimizations.
#[derive(Debug, Clone, Serialize)]
pub struct Total {
    pub pp: f64,
    pub pn: f64,
    pub np: f64,
    pub nn: f64,
    /// Sample-weighted accuracy: every test sample counts once.
    pub accuracy: Option<f64>,
    pub accuracy_ci: Option<Interval>,
    /// The thesis's total: the unweighted mean of the optimizations' accuracies.
    pub thesis_total: Option<f64>,
    /// The unweighted mean of the optimizations' balanced accuracies, as `thesis_total` is of
    /// their accuracies (`advise bench transfer` pools the samples instead).
    pub balanced_accuracy: Option<f64>,
    pub clear_accuracy: Option<f64>,
    pub unclear_share: f64,
    pub mape: Option<f64>,
    /// Median absolute percentage error.
    pub mdape: Option<f64>,
    /// Share of test variants where the optimization ranked first by prediction is the one
    /// that helped most (models only; variants with at least two candidate optimizations).
    pub rank_accuracy: Option<f64>,
}

/// One experiment run with one method.
#[derive(Debug, Clone, Serialize)]
pub struct ExperimentResult {
    pub name: String,
    pub method: String,
    pub baseline: bool,
    pub folds: usize,
    /// Training and test sizes of the folds, in speedup samples (each sample is one variant
    /// without the optimization; Table 4.3 counts variants, twice as many).
    pub fold_sizes: FoldSizes,
    pub optimizations: Vec<OptimizationResult>,
    pub total: Total,
    /// McNemar's exact test against `baseline:majority` on the same samples.
    pub vs_majority: Option<Significance>,
    /// For a model: the same against the experiment's most accurate baseline, the one the
    /// summaries print beside it (`only_majority` then counts that baseline's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vs_best_baseline: Option<BaselineSignificance>,
}

/// A model's test against the experiment's most accurate baseline.
#[derive(Debug, Clone, Serialize)]
pub struct BaselineSignificance {
    pub baseline: String,
    #[serde(flatten)]
    pub test: Significance,
}

impl ExperimentResult {
    /// The bootstrap group of every test sample, in the order of the optimizations and their
    /// samples: the groups the accuracy intervals resample (test tuples, or single samples
    /// where there are fewer than 5 tuples), for further intervals and tests on the same
    /// samples.
    pub fn bootstrap_groups(&self) -> Vec<usize> {
        super::summary::bootstrap_groups(self.tuple_ids())
    }

    /// Every test sample's tuple (program, input and run), in the same order, where there are
    /// at least 5 tuples: the clusters a test across programs resamples. `None` with fewer
    /// (one imported space has one tuple), where no such test can be made.
    pub fn tuples(&self) -> Option<Vec<usize>> {
        super::summary::enough_tuples(self.tuple_ids())
    }

    /// Test samples over all optimizations.
    pub fn test_samples(&self) -> usize {
        self.optimizations.iter().map(|o| o.samples.len()).sum()
    }

    /// What its test samples are (the module's `data_label`): the label every table and chart of it
    /// carries.
    pub fn data_label(&self) -> &'static str {
        let simulated = self
            .optimizations
            .iter()
            .flat_map(|o| &o.samples)
            .filter(|s| s.simulated)
            .count();
        data_label(simulated, self.test_samples())
    }

    fn tuple_ids(&self) -> Vec<usize> {
        self.optimizations
            .iter()
            .flat_map(|o| o.samples.iter().map(|s| s.group))
            .collect()
    }
}

/// "SIMULATED" where all of `samples` were simulated, "SIMULATED and measured" where some
/// were, "measured" where none was.
pub fn data_label(simulated: usize, samples: usize) -> &'static str {
    match simulated {
        0 => "measured",
        n if n == samples => "SIMULATED",
        _ => "SIMULATED and measured",
    }
}

/// The smallest and largest training and test set of an experiment's folds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct FoldSizes {
    pub train_min: usize,
    pub train_max: usize,
    pub test_min: usize,
    pub test_max: usize,
}

impl FoldSizes {
    pub fn of(folds: &[Fold]) -> FoldSizes {
        let sizes = |f: fn(&Fold) -> usize| {
            let v: Vec<usize> = folds.iter().map(f).collect();
            (
                v.iter().copied().min().unwrap_or(0),
                v.iter().copied().max().unwrap_or(0),
            )
        };
        let (train_min, train_max) = sizes(|f| f.train.len());
        let (test_min, test_max) = sizes(|f| f.test.len());
        FoldSizes {
            train_min,
            train_max,
            test_min,
            test_max,
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Significance {
    /// Samples only this method got right, and only the majority rule got right.
    pub only_this: usize,
    pub only_majority: usize,
    /// McNemar's exact test: every sample counted as independent.
    pub p_value: f64,
    /// McNemar's question asked of whole test tuples (program, input and run), the groups the
    /// accuracy intervals resample (`stats::cluster_sign_flip_p`); `None` with fewer than 5
    /// tuples (then the intervals resample single samples, and McNemar's test is the one).
    pub p_clustered: Option<f64>,
}

/// The best model and the best baseline of one experiment, by sample-weighted accuracy; of
/// equals, the first in the order run (so a tie of every baseline names "always recommend",
/// the simplest rule, not the coin flip listed last).
pub fn best(results: &[ExperimentResult], baseline: bool) -> Option<&ExperimentResult> {
    let acc = |r: &ExperimentResult| r.total.accuracy.unwrap_or(0.0);
    results.iter().filter(|r| r.baseline == baseline).fold(
        None,
        |best: Option<&ExperimentResult>, r| match best {
            Some(b) if acc(b) >= acc(r) => Some(b),
            _ => Some(r),
        },
    )
}
