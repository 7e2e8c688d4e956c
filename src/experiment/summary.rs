//! What one experiment's per-sample results add up to for one method: per optimization and in
//! total, the confusion table, accuracy and its bootstrap interval, balanced and clear-case
//! accuracy, the mean and median absolute percentage errors, and the rank accuracy.

use std::collections::BTreeMap;

use super::confusion::thesis_total;
use super::result::{Cells, ExperimentResult, FoldSizes, OptimizationResult, SampleResult, Total};
use super::run::RunSettings;
use super::stats::{bootstrap_grouped_mean, Interval};

/// Each sample's absolute percentage error, `None` unless every sample has a prediction.
fn percentage_errors(samples: &[&SampleResult]) -> Option<Vec<f64>> {
    let errs: Vec<f64> = samples
        .iter()
        .filter_map(|s| {
            s.predicted
                .map(|p| 100.0 * ((p - s.actual) / s.actual).abs())
        })
        .collect();
    (!errs.is_empty() && errs.len() == samples.len()).then_some(errs)
}

fn mape(samples: &[&SampleResult]) -> Option<f64> {
    percentage_errors(samples).map(|e| e.iter().sum::<f64>() / e.len() as f64)
}

/// The median absolute percentage error: what a typical prediction misses by, where a few
/// wild extrapolations make the mean (MAPE) meaningless.
fn mdape(samples: &[&SampleResult]) -> Option<f64> {
    let mut e = percentage_errors(samples)?;
    e.sort_unstable_by(f64::total_cmp);
    let n = e.len();
    Some(if n % 2 == 1 {
        e[n / 2]
    } else {
        (e[n / 2 - 1] + e[n / 2]) / 2.0
    })
}

/// Bootstrap groups: the test tuples, or single samples where there are fewer than 5 tuples
/// (an imported space has one input and one run, and one group gives no interval at all).
fn boot_groups(samples: &[&SampleResult]) -> Vec<usize> {
    bootstrap_groups(samples.iter().map(|s| s.group).collect())
}

/// [`boot_groups`] from the samples' tuple ids: the ids themselves where there are at least 5
/// distinct ones, else each sample its own group.
pub(super) fn bootstrap_groups(ids: Vec<usize>) -> Vec<usize> {
    let n = ids.len();
    enough_tuples(ids).unwrap_or_else(|| (0..n).collect())
}

/// The samples' tuple ids where there are at least 5 distinct ones (enough to resample).
pub(super) fn enough_tuples(ids: Vec<usize>) -> Option<Vec<usize>> {
    let mut distinct = ids.clone();
    distinct.sort_unstable();
    distinct.dedup();
    (distinct.len() >= 5).then_some(ids)
}

fn accuracy_ci(samples: &[&SampleResult], settings: &RunSettings) -> Option<Interval> {
    let groups = boot_groups(samples);
    let right: Vec<f64> = samples.iter().map(|s| s.correct()).collect();
    bootstrap_grouped_mean(&groups, &right, settings.bootstrap, settings.seed)
}

/// An optimization's accuracy and MAPE intervals.
type AccuracyAndMape = (Option<Interval>, Option<Interval>);

/// Every optimization's bootstrap intervals (accuracy, MAPE) and the total's accuracy
/// interval, over the samples of all optimizations in order. The largest part of a summary,
/// so they run on this thread and the models' helper thread
/// (`advise_ml::helper_thread::map_each`), each taking the next interval as it finishes one:
/// every interval depends only on its samples and the seed, so the threads change no figure.
fn intervals(
    optimizations: &[OptimizationResult],
    settings: &RunSettings,
) -> (Vec<AccuracyAndMape>, Option<Interval>) {
    let sets: Vec<Vec<&SampleResult>> = optimizations
        .iter()
        .map(|o| o.samples.iter().collect())
        .collect();
    let all: Vec<&SampleResult> = sets.iter().flatten().copied().collect();
    // (set, MAPE or accuracy); `None` is all samples. The largest first.
    let mut jobs: Vec<(Option<usize>, bool)> = vec![(None, false)];
    jobs.extend((0..sets.len()).flat_map(|k| [(Some(k), false), (Some(k), true)]));
    let cis = advise_ml::helper_thread::map_each(jobs.len(), |k| {
        let (set, is_mape) = jobs[k];
        let samples = set.map_or(&all[..], |s| &sets[s][..]);
        if is_mape {
            mape_ci(samples, settings)
        } else {
            accuracy_ci(samples, settings)
        }
    });
    let mut by_optimization = vec![(None, None); sets.len()];
    let mut total = None;
    for ((set, is_mape), ci) in jobs.into_iter().zip(cis) {
        match (set, is_mape) {
            (None, _) => total = ci,
            (Some(k), false) => by_optimization[k].0 = ci,
            (Some(k), true) => by_optimization[k].1 = ci,
        }
    }
    (by_optimization, total)
}

fn mape_ci(samples: &[&SampleResult], settings: &RunSettings) -> Option<Interval> {
    // Each sample's error once; a resample's MAPE sums them in its own order, as `mape` would.
    let errs = percentage_errors(samples)?;
    bootstrap_grouped_mean(
        &boot_groups(samples),
        &errs,
        settings.bootstrap,
        settings.seed,
    )
}

/// Accuracy on clear cases and the share of unclear ones: a case is unclear when its measured
/// speedup lies within `band` of 1.0, or when its range over timing repetitions contains 1.0.
fn clear(samples: &[&SampleResult], band: f64) -> (Option<f64>, f64) {
    let clear: Vec<&SampleResult> = samples
        .iter()
        .copied()
        .filter(|s| (s.actual - 1.0).abs() >= band && !s.noisy)
        .collect();
    let share = if samples.is_empty() {
        0.0
    } else {
        1.0 - clear.len() as f64 / samples.len() as f64
    };
    (Cells::of(&clear).accuracy(), share)
}

pub(super) fn summarize(
    experiment: &str,
    method: &str,
    baseline: bool,
    folds: usize,
    by_switch: BTreeMap<String, Vec<SampleResult>>,
    settings: &RunSettings,
) -> ExperimentResult {
    let mut optimizations = Vec::new();
    for (name, samples) in by_switch {
        let refs: Vec<&SampleResult> = samples.iter().collect();
        let c = Cells::of(&refs);
        let (clear_accuracy, unclear_share) = clear(&refs, settings.band);
        let mut choices: BTreeMap<String, Vec<&SampleResult>> = BTreeMap::new();
        for s in &refs {
            choices.entry(s.choice.clone()).or_default().push(s);
        }
        let choice_accuracy = choices
            .into_iter()
            .filter_map(|(k, v)| Cells::of(&v).accuracy().map(|a| (k, a)))
            .collect();
        optimizations.push(OptimizationResult {
            name,
            pp: c.pp,
            pn: c.pn,
            np: c.np,
            nn: c.nn,
            accuracy: c.accuracy(),
            // Filled in below, with the other intervals, on two threads where the helper is free.
            accuracy_ci: None,
            balanced_accuracy: c.balanced(),
            clear_accuracy,
            unclear_share,
            mape: mape(&refs),
            mape_ci: None,
            mdape: mdape(&refs),
            choice_accuracy,
            samples,
        });
    }
    let all: Vec<&SampleResult> = optimizations
        .iter()
        .flat_map(|o| o.samples.iter())
        .collect();
    let c = Cells::of(&all);
    let accuracies: Vec<f64> = optimizations.iter().filter_map(|o| o.accuracy).collect();
    let balanced: Vec<f64> = optimizations
        .iter()
        .filter_map(|o| o.balanced_accuracy)
        .collect();
    let (clear_accuracy, unclear_share) = clear(&all, settings.band);
    let total = Total {
        pp: c.pp,
        pn: c.pn,
        np: c.np,
        nn: c.nn,
        accuracy: c.accuracy(),
        accuracy_ci: None,
        thesis_total: thesis_total(&accuracies),
        balanced_accuracy: thesis_total(&balanced),
        clear_accuracy,
        unclear_share,
        mape: mape(&all),
        mdape: mdape(&all),
        rank_accuracy: if baseline { None } else { rank_accuracy(&all) },
    };
    let (by_optimization, total_ci) = intervals(&optimizations, settings);
    for (o, (acc, mape)) in optimizations.iter_mut().zip(by_optimization) {
        o.accuracy_ci = acc;
        o.mape_ci = mape;
    }
    let total = Total {
        accuracy_ci: total_ci,
        ..total
    };
    ExperimentResult {
        name: experiment.to_string(),
        method: method.to_string(),
        baseline,
        folds,
        fold_sizes: FoldSizes {
            train_min: 0,
            train_max: 0,
            test_min: 0,
            test_max: 0,
        },
        optimizations,
        total,
        vs_majority: None,
        vs_best_baseline: None,
    }
}

/// For each test variant with predictions for two or more optimizations: is the one predicted
/// best also the one measured best?
fn rank_accuracy(all: &[&SampleResult]) -> Option<f64> {
    // A test variant is a sample id within one fold's choice.
    let mut by_variant: BTreeMap<(&str, &str), Vec<&SampleResult>> = BTreeMap::new();
    for s in all {
        s.predicted?;
        by_variant
            .entry((s.choice.as_str(), s.id.as_str()))
            .or_default()
            .push(s);
    }
    let mut hits = 0usize;
    let mut n = 0usize;
    for group in by_variant.values().filter(|g| g.len() >= 2) {
        let best_pred = group.iter().max_by(|a, b| {
            a.predicted
                .unwrap_or(0.0)
                .total_cmp(&b.predicted.unwrap_or(0.0))
        });
        let best_act = group.iter().max_by(|a, b| a.actual.total_cmp(&b.actual));
        if let (Some(p), Some(a)) = (best_pred, best_act) {
            n += 1;
            if std::ptr::eq(*p, *a) {
                hits += 1;
            }
        }
    }
    (n > 0).then(|| hits as f64 / n as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(predicted: Option<f64>, actual: f64) -> SampleResult {
        SampleResult {
            id: String::new(),
            predicted,
            actual,
            recommended: 1.0,
            choice: String::new(),
            noisy: false,
            simulated: false,
            group: 0,
        }
    }

    /// Synthetic: errors of 10%, 20% and 1000% (a wild extrapolation): the mean is 343%, the
    /// median 20%; with a fourth of 30% the median is the middle two's mean, 25%.
    #[test]
    fn the_median_error_is_not_moved_by_one_wild_prediction() {
        let s = [
            result(Some(1.1), 1.0),
            result(Some(2.4), 2.0),
            result(Some(11.0), 1.0),
        ];
        let refs: Vec<&SampleResult> = s.iter().collect();
        assert!((mape(&refs).unwrap() - 343.333_333_333_333_3).abs() < 1e-9);
        assert!((mdape(&refs).unwrap() - 20.0).abs() < 1e-9);
        let four = [
            s[0].clone(),
            s[1].clone(),
            s[2].clone(),
            result(Some(1.3), 1.0),
        ];
        let refs: Vec<&SampleResult> = four.iter().collect();
        assert!((mdape(&refs).unwrap() - 25.0).abs() < 1e-9);
        // A rule that only decides has no error at all.
        let rule = [result(None, 1.0)];
        let refs: Vec<&SampleResult> = rule.iter().collect();
        assert_eq!(mdape(&refs), None);
    }
}
