//! Runs folds through contenders and gathers, per experiment, method and optimization, the
//! confusion table, the per-sample predictions (AC and EX), MAPE, intervals and significance.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::answer::answer_all;
use super::confusion::thesis_total;
use super::data::SamplePool;
use super::method::{Answer, Contender};
use super::splits::Fold;
use super::stats::{bootstrap_grouped, mcnemar_exact, Interval};
use crate::error::Result;

pub use super::result::{
    Cells, ExperimentResult, FoldSizes, OptimizationResult, SampleResult, Significance, Total,
};

/// Settings shared by every fold.
#[derive(Debug, Clone)]
pub struct RunSettings {
    pub seed: u64,
    /// Half-width of the no-clear-effect band around 1.0 (0.02 = 2%).
    pub band: f64,
    pub bootstrap: usize,
}

impl Default for RunSettings {
    fn default() -> Self {
        RunSettings {
            seed: 1,
            band: 0.02,
            bootstrap: 1000,
        }
    }
}

/// Runs every fold with every predictor. `progress(done, total)` is called after each fit.
pub fn run(
    pool: &SamplePool,
    experiment: &str,
    folds: &[Fold],
    contenders: &[&dyn Contender],
    settings: &RunSettings,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Vec<ExperimentResult>> {
    let mut all = run_all(pool, &[(experiment, folds)], contenders, settings, progress)?;
    Ok(all.pop().unwrap_or_default())
}

/// Runs several experiments, given as (name, folds), with every predictor; one result list
/// per experiment, in order. Folds with the same training samples share one fit across the
/// experiments too (the thesis's experiments 1 and 2 train on the same runs); each test set
/// is still answered alone, so every result is that of separate runs.
/// `progress(done, total)` counts fits over all experiments.
pub fn run_all(
    pool: &SamplePool,
    experiments: &[(&str, &[Fold])],
    contenders: &[&dyn Contender],
    settings: &RunSettings,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Vec<Vec<ExperimentResult>>> {
    let groups = group_ids(pool);
    let flat: Vec<&Fold> = experiments.iter().flat_map(|(_, f)| f.iter()).collect();
    let total_work = flat.len() * contenders.len();
    let done = AtomicUsize::new(0);
    let mut results: Vec<Vec<ExperimentResult>> = experiments.iter().map(|_| Vec::new()).collect();
    for p in contenders {
        let answers = answer_all(pool, &flat, *p, settings.seed, &|| {
            let d = done.fetch_add(1, Ordering::Relaxed) + 1;
            progress(d, total_work);
        })?;
        let mut answers = answers.into_iter();
        for (&(name, folds), out) in experiments.iter().zip(&mut results) {
            let mine: Vec<Answer> = answers.by_ref().take(folds.len()).collect();
            out.push(result_of(pool, &groups, name, folds, mine, *p, settings));
        }
    }
    for r in &mut results {
        add_significance(r);
    }
    Ok(results)
}

/// One experiment's result for contender `p` from its folds' answers.
fn result_of(
    pool: &SamplePool,
    groups: &[usize],
    experiment: &str,
    folds: &[Fold],
    answers: Vec<Answer>,
    p: &dyn Contender,
    settings: &RunSettings,
) -> ExperimentResult {
    let mut by_switch: BTreeMap<String, Vec<SampleResult>> = BTreeMap::new();
    for (fold, answer) in folds.iter().zip(answers) {
        let out = by_switch.entry(fold.switch.clone()).or_default();
        for (j, &i) in fold.test.iter().enumerate() {
            let s = &pool.samples[i];
            let (predicted, recommended) = match &answer {
                Answer::Speedups(v) => (Some(v[j]), if v[j] > 1.0 { 1.0 } else { 0.0 }),
                Answer::Decisions(d) => (
                    None,
                    d.iter().filter(|seed| seed[j]).count() as f64 / d.len() as f64,
                ),
            };
            out.push(SampleResult {
                id: format!(
                    "{}/{}/{}/{}",
                    s.key.program, s.key.input, s.key.run, s.key.variant
                ),
                predicted,
                actual: s.speedup,
                recommended,
                noisy: s
                    .speedup_range
                    .is_some_and(|(lo, hi)| lo <= 1.0 && hi >= 1.0),
                choice: fold.choice.clone(),
                group: groups[i],
                variant_key: format!(
                    "{}|{}/{}/{}/{}",
                    fold.choice, s.key.program, s.key.input, s.key.run, s.key.variant
                ),
            });
        }
    }
    let mut r = summarize(
        experiment,
        &p.name(),
        p.is_baseline(),
        folds.len(),
        by_switch,
        settings,
    );
    r.fold_sizes = FoldSizes::of(folds);
    r
}

/// Each sample's test tuple (program, input, run) as a group number for the bootstrap.
fn group_ids(pool: &SamplePool) -> Vec<usize> {
    let tuples = pool.tuples();
    pool.samples
        .iter()
        .map(|s| {
            tuples
                .iter()
                .position(|(p, i, r)| *p == s.key.program && *i == s.key.input && *r == s.key.run)
                .unwrap_or(0)
        })
        .collect()
}

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
    let mut distinct: Vec<usize> = samples.iter().map(|s| s.group).collect();
    distinct.sort_unstable();
    distinct.dedup();
    if distinct.len() >= 5 {
        samples.iter().map(|s| s.group).collect()
    } else {
        (0..samples.len()).collect()
    }
}

fn accuracy_ci(samples: &[&SampleResult], settings: &RunSettings) -> Option<Interval> {
    let groups = boot_groups(samples);
    bootstrap_grouped(&groups, settings.bootstrap, settings.seed, |idx| {
        (!idx.is_empty())
            .then(|| idx.iter().map(|&i| samples[i].correct()).sum::<f64>() / idx.len() as f64)
    })
}

fn mape_ci(samples: &[&SampleResult], settings: &RunSettings) -> Option<Interval> {
    mape(samples)?;
    let groups = boot_groups(samples);
    bootstrap_grouped(&groups, settings.bootstrap, settings.seed, |idx| {
        let drawn: Vec<&SampleResult> = idx.iter().map(|&i| samples[i]).collect();
        mape(&drawn)
    })
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

fn summarize(
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
            accuracy_ci: accuracy_ci(&refs, settings),
            balanced_accuracy: c.balanced(),
            clear_accuracy,
            unclear_share,
            mape: mape(&refs),
            mape_ci: mape_ci(&refs, settings),
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
        accuracy_ci: accuracy_ci(&all, settings),
        thesis_total: thesis_total(&accuracies),
        balanced_accuracy: thesis_total(&balanced),
        clear_accuracy,
        unclear_share,
        mape: mape(&all),
        mdape: mdape(&all),
        rank_accuracy: if baseline { None } else { rank_accuracy(&all) },
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
    }
}

/// For each test variant with predictions for two or more optimizations: is the one predicted
/// best also the one measured best?
fn rank_accuracy(all: &[&SampleResult]) -> Option<f64> {
    let mut by_variant: BTreeMap<&str, Vec<&SampleResult>> = BTreeMap::new();
    for s in all {
        s.predicted?;
        by_variant
            .entry(s.variant_key.as_str())
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

/// McNemar of every method against `baseline:majority` of the same experiment.
fn add_significance(results: &mut [ExperimentResult]) {
    let Some(majority) = results
        .iter()
        .find(|r| r.method == "baseline:majority")
        .cloned()
    else {
        return;
    };
    let base: BTreeMap<(String, String, String), bool> = majority
        .optimizations
        .iter()
        .flat_map(|o| {
            o.samples.iter().map(move |s| {
                (
                    (o.name.clone(), s.choice.clone(), s.id.clone()),
                    s.correct() >= 0.5,
                )
            })
        })
        .collect();
    for r in results
        .iter_mut()
        .filter(|r| r.method != "baseline:majority")
    {
        let (mut only_this, mut only_majority) = (0, 0);
        for o in &r.optimizations {
            for s in &o.samples {
                let Some(&b) = base.get(&(o.name.clone(), s.choice.clone(), s.id.clone())) else {
                    continue;
                };
                let m = s.correct() >= 0.5;
                match (m, b) {
                    (true, false) => only_this += 1,
                    (false, true) => only_majority += 1,
                    _ => {}
                }
            }
        }
        r.vs_majority = Some(Significance {
            only_this,
            only_majority,
            p_value: mcnemar_exact(only_this, only_majority),
        });
    }
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
            group: 0,
            variant_key: String::new(),
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
