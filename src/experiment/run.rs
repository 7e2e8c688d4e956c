//! Runs folds through contenders and gathers, per experiment, method and optimization, the
//! confusion table, the per-sample predictions (AC and EX), MAPE, intervals and significance.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::answer::answer_all;
use super::data::SamplePool;
use super::method::{Answer, Contender};
use super::splits::Fold;
use super::stats::{
    cluster_sign_flip_p, discordant_of_shares, mcnemar_exact, SIGN_FLIPS, SIGN_FLIP_SALT,
};
use super::summary::summarize;
use crate::error::Result;

pub use super::result::{
    best, BaselineSignificance, Cells, ExperimentResult, FoldSizes, OptimizationResult,
    SampleResult, Significance, Total,
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
        add_significance(r, settings.seed);
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
                id: s.id(),
                predicted,
                actual: s.speedup,
                recommended,
                noisy: s
                    .speedup_range
                    .is_some_and(|(lo, hi)| lo <= 1.0 && hi >= 1.0),
                choice: fold.choice.clone(),
                simulated: pool.simulated.has(s),
                group: groups[i],
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

/// McNemar of every method against `baseline:majority` of the same experiment, and of every
/// model against the experiment's most accurate baseline (the one the summaries print beside
/// it), each with the sign-flip test over the test tuples the intervals resample.
fn add_significance(results: &mut [ExperimentResult], seed: u64) {
    let majority = results
        .iter()
        .find(|r| r.method == "baseline:majority")
        .map(shares_right);
    // The baseline the summaries print beside the models.
    let best = best(results, true).map(|r| (r.method.clone(), shares_right(r)));
    for r in results.iter_mut() {
        if let (Some(m), false) = (&majority, r.method == "baseline:majority") {
            r.vs_majority = Some(significance(r, m, seed));
        }
        if let (Some((name, b)), false) = (&best, r.baseline) {
            r.vs_best_baseline = Some(BaselineSignificance {
                baseline: name.clone(),
                test: significance(r, b, seed),
            });
        }
    }
}

/// Each test sample's share right, by (optimization, choice, sample): a rule averaged over
/// seeds (`baseline:random`) enters with its share of seeds, not a majority vote of them
/// (which would be the majority rule, not a coin).
type SharesRight = BTreeMap<(String, String, String), f64>;

fn shares_right(r: &ExperimentResult) -> SharesRight {
    r.optimizations
        .iter()
        .flat_map(|o| {
            o.samples.iter().map(move |s| {
                (
                    (o.name.clone(), s.choice.clone(), s.id.clone()),
                    s.correct(),
                )
            })
        })
        .collect()
}

/// McNemar's test of `r` against another method's shares right on the samples both answered
/// (expected discordant counts, the counts themselves for 0/1 shares), and the sign-flip test
/// over whole test tuples.
fn significance(r: &ExperimentResult, other: &SharesRight, seed: u64) -> Significance {
    // Per matched sample: its tuple, and the share this method and the other were right.
    let (mut tuples, mut this_right, mut other_right) = (Vec::new(), Vec::new(), Vec::new());
    for o in &r.optimizations {
        for s in &o.samples {
            let Some(&b) = other.get(&(o.name.clone(), s.choice.clone(), s.id.clone())) else {
                continue;
            };
            tuples.push(s.group);
            this_right.push(s.correct());
            other_right.push(b);
        }
    }
    let (only_this, only_majority) = discordant_of_shares(&this_right, &other_right);
    Significance {
        only_this,
        only_majority,
        p_value: mcnemar_exact(only_this, only_majority),
        p_clustered: super::summary::enough_tuples(tuples).and_then(|t| {
            cluster_sign_flip_p(
                &t,
                &this_right,
                &other_right,
                SIGN_FLIPS,
                seed ^ SIGN_FLIP_SALT,
            )
        }),
    }
}
