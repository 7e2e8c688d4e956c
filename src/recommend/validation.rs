//! How far an advisor's suggestions can be trusted, measured without leaks.
//!
//! Each optimization's models are cross-validated on grouped folds: all samples of one
//! program, input and configuration family (`experiment::splits::group_key`) sit on one side,
//! so a test configuration never has its replicate or its neighbouring parameter step in the
//! training data. Every held-out prediction yields a raw score (validated accuracy x closeness
//! x agreement, as `suggest` computes it for a user's profile) and whether its direction was
//! right: the points from which calibration.rs fits the map from raw score to the share of
//! suggestions that were right, and its reliability tables.

use serde::{Deserialize, Serialize};

use super::evidence::{ranges_of, scaled_distance, typical_distance};
use crate::error::Result;
use advise_ml::SplitMix64;

use crate::experiment::stats::mcnemar_exact;
use advise_ml::{Data, Method};

/// Cross-validated quality of one optimization's primary model.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Validation {
    pub folds: usize,
    /// Folds keep program, input and configuration family together.
    #[serde(default)]
    pub grouped: bool,
    #[serde(default)]
    pub groups: usize,
    pub accuracy: f64,
    pub accuracy_low: f64,
    pub accuracy_high: f64,
    pub majority_accuracy: f64,
    /// McNemar's exact test against the majority rule.
    pub p_value: f64,
    #[serde(default)]
    pub balanced_accuracy: f64,
    /// Held-out samples by (predicted, actual) direction: P = speedup > 1.
    #[serde(default)]
    pub pp: usize,
    #[serde(default)]
    pub pn: usize,
    #[serde(default)]
    pub np: usize,
    #[serde(default)]
    pub nn: usize,
    /// The second model's accuracy on the same held-out samples.
    #[serde(default)]
    pub secondary_accuracy: Option<f64>,
}

impl Validation {
    /// Why these figures cannot be a validation's, if so: an accuracy or a p-value outside 0
    /// to 1 (a damaged or hand-edited advisor; one not computed reads NaN and passes).
    pub fn problem(&self) -> Option<String> {
        [
            ("accuracy", self.accuracy),
            ("accuracy_low", self.accuracy_low),
            ("accuracy_high", self.accuracy_high),
            ("majority_accuracy", self.majority_accuracy),
            ("p_value", self.p_value),
            ("balanced_accuracy", self.balanced_accuracy),
            ("secondary_accuracy", self.secondary_accuracy.unwrap_or(0.0)),
        ]
        .into_iter()
        .find(|(_, v)| !v.is_nan() && !(0.0..=1.0).contains(v))
        .map(|(name, v)| format!("{name} is {v}, not a share from 0 to 1"))
    }

    /// The accuracy of what answers the suggestions: the majority rule's where they follow
    /// the rule (`follows_rule`), else the model's.
    pub fn answering(&self, rule: bool) -> f64 {
        if rule {
            self.majority_accuracy
        } else {
            self.accuracy
        }
    }
}

/// One held-out prediction: its raw confidence score and whether its direction was right.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub struct Point {
    pub raw: f64,
    pub correct: bool,
    pub group: usize,
}

/// What validating one optimization produced.
pub struct Outcome {
    pub validation: Validation,
    pub points: Vec<Point>,
    /// The same held-out samples answered by the majority rule (the training folds' majority
    /// direction), with raw scores formed from the rule's accuracy: the points of an
    /// optimization whose suggestions follow the rule (`follows_rule`).
    pub rule_points: Vec<Point>,
    /// The rows the validation was judged on (`rule_basis`: the measured ones where there are
    /// any), ascending; `points` and `rule_points` cover every row.
    pub judged: Vec<usize>,
}

/// Whether suggestions should follow the majority rule rather than the model: unless the
/// validation that stands for a user's position found the model better than the rule, and
/// significantly so (McNemar's exact test, p < 0.05), the model has not earned its place.
/// The thesis's own tables show the rule beating its models across programs. Measured on the
/// shipped advisor's data (nested leave one program out, docs/results/train.txt): this choice
/// was right on 65.6% of the held-out directions, against 59.6% for following the rule only
/// where the model was significantly worse, and 54.5% for the models alone.
pub fn follows_rule(v: &Validation) -> bool {
    !(v.accuracy > v.majority_accuracy && v.p_value < 0.05)
}

/// Whether held-out directions right a share `accuracy` of the time, of the samples `v` counts,
/// tell the answer from a coin toss: more right than wrong, and significantly so (the sign
/// test, the binomial test at p = 1/2, two-sided p < 0.05, McNemar's exact test with the wrong
/// directions as the other side). Block-size doublings that leave occupancy unchanged were
/// right 50.4% of the time across programs (780 of 1,548): a confidence of 0.50 that is not
/// even odds in favour. The test counts samples, not programs, so it is lenient: what fails it
/// says nothing. A validation without counts (an advisor file older than them) passes.
pub fn beats_coin_toss(accuracy: f64, v: &Validation) -> bool {
    let n = v.pp + v.pn + v.np + v.nn;
    if n == 0 {
        return true;
    }
    let right = (accuracy * n as f64).round() as usize;
    let right = right.min(n);
    right > n - right && mcnemar_exact(right, n - right) < 0.05
}

/// The factors of the raw score for one prediction.
pub fn raw_score(accuracy: f64, distance: f64, typical: f64, agree: bool) -> f64 {
    let closeness = if distance <= typical || distance == 0.0 {
        1.0
    } else {
        typical / distance
    };
    accuracy * closeness * if agree { 1.0 } else { 0.75 }
}

/// The rows the majority rule learns from: those of `rows` that were measured (`measured[i]`)
/// where there are any, else all of them (`measured` empty: all count as measured). Simulated
/// speedups disagree with hardware on some optimizations (docs/gpu-results.md: BH's WARP sped
/// up every simulated pair and half of the H200's), so where hardware has spoken the rule
/// follows it.
pub fn rule_basis(rows: &[usize], measured: &[bool]) -> Vec<usize> {
    let hardware: Vec<usize> = rows
        .iter()
        .copied()
        .filter(|&i| measured.get(i).copied().unwrap_or(true))
        .collect();
    if hardware.is_empty() {
        rows.to_vec()
    } else {
        hardware
    }
}

/// Grouped k-fold validation of `primary` (and `secondary`, for agreement) on rows `x` with
/// speedups `y` and group numbers `groups`. The test rows lose the columns `unknown_in_test`
/// (set missing): how the models do where a user's profile lacks them. The majority rule
/// learns from the measured training rows, and both are judged on the measured held-out rows
/// (`rule_basis`); the points cover every row, in order.
#[allow(clippy::too_many_arguments)]
pub fn validate(
    features: &[String],
    x: &[Vec<f64>],
    y: &[f64],
    groups: &[usize],
    primary: Method,
    secondary: Method,
    folds: usize,
    seed: u64,
    unknown_in_test: &[usize],
    measured: &[bool],
) -> Result<Option<Outcome>> {
    let parts = split(groups, folds, seed);
    if parts.iter().filter(|p| !p.is_empty()).count() < 2 {
        return Ok(None);
    }
    let n = y.len();
    let mut predicted = vec![f64::NAN; n];
    let mut second = vec![f64::NAN; n];
    let mut majority = vec![false; n];
    let mut closeness = vec![(0.0, 0.0); n];
    for test in &parts {
        if test.is_empty() {
            continue;
        }
        let train: Vec<usize> = (0..n).filter(|i| test.binary_search(i).is_err()).collect();
        let tx: Vec<Vec<f64>> = train.iter().map(|&i| x[i].clone()).collect();
        let ty: Vec<f64> = train.iter().map(|&i| y[i]).collect();
        let data = Data::numeric(features, "speedup", tx.clone(), ty.clone());
        let a = primary.default_params().fit(&data)?;
        let b = secondary.default_params().fit(&data)?;
        let test_x: Vec<Vec<f64>> = test
            .iter()
            .map(|&i| {
                let mut row = x[i].clone();
                for &c in unknown_in_test {
                    row[c] = f64::NAN;
                }
                row
            })
            .collect();
        let td = Data::numeric(features, "speedup", test_x, vec![f64::NAN; test.len()]);
        let pa = a.predict(&td)?;
        let pb = b.predict(&td)?;
        let basis = rule_basis(&train, measured);
        let up = basis.iter().filter(|&&i| y[i] > 1.0).count() * 2 >= basis.len();
        let ranges = ranges_of(&tx, features.len());
        let typical = typical_distance(&tx, &ranges);
        for (j, &i) in test.iter().enumerate() {
            predicted[i] = pa[j];
            second[i] = pb[j];
            majority[i] = up;
            let d = tx
                .iter()
                .map(|r| scaled_distance(&x[i], r, &ranges))
                .fold(f64::INFINITY, f64::min);
            closeness[i] = (d, typical);
        }
    }
    // Judged on the measured rows where there are any: a user's program runs on hardware.
    let judged = rule_basis(&(0..n).collect::<Vec<_>>(), measured);
    let (mut pp, mut pn, mut np, mut nn) = (0, 0, 0, 0);
    let (mut only_model, mut only_majority) = (0, 0);
    let mut right = vec![false; n];
    for &i in &judged {
        let (p, a) = (predicted[i] > 1.0, y[i] > 1.0);
        match (p, a) {
            (true, true) => pp += 1,
            (true, false) => pn += 1,
            (false, true) => np += 1,
            (false, false) => nn += 1,
        }
        right[i] = p == a;
        let m = majority[i] == a;
        if right[i] && !m {
            only_model += 1;
        } else if m && !right[i] {
            only_majority += 1;
        }
    }
    let share = |hit: &dyn Fn(usize) -> bool| {
        judged.iter().filter(|&&i| hit(i)).count() as f64 / judged.len() as f64
    };
    let accuracy = (pp + nn) as f64 / judged.len() as f64;
    let majority_accuracy = share(&|i| majority[i] == (y[i] > 1.0));
    let rates: Vec<f64> = [(pp, pp + np), (nn, nn + pn)]
        .into_iter()
        .filter(|&(_, t)| t > 0)
        .map(|(k, t)| k as f64 / t as f64)
        .collect();
    let (low, high) = bootstrap(
        &judged.iter().map(|&i| right[i]).collect::<Vec<_>>(),
        &judged.iter().map(|&i| groups[i]).collect::<Vec<_>>(),
        seed,
    );
    let points = (0..n)
        .map(|i| Point {
            raw: raw_score(
                accuracy,
                closeness[i].0,
                closeness[i].1,
                (predicted[i] > 1.0) == (second[i] > 1.0),
            ),
            correct: right[i],
            group: groups[i],
        })
        .collect();
    let rule_points = (0..n)
        .map(|i| Point {
            raw: raw_score(majority_accuracy, closeness[i].0, closeness[i].1, true),
            correct: majority[i] == (y[i] > 1.0),
            group: groups[i],
        })
        .collect();
    let mut distinct: Vec<usize> = judged.iter().map(|&i| groups[i]).collect();
    distinct.sort_unstable();
    distinct.dedup();
    Ok(Some(Outcome {
        validation: Validation {
            folds,
            grouped: true,
            groups: distinct.len(),
            accuracy,
            accuracy_low: low,
            accuracy_high: high,
            majority_accuracy,
            p_value: mcnemar_exact(only_model, only_majority),
            balanced_accuracy: rates.iter().sum::<f64>() / rates.len().max(1) as f64,
            pp,
            pn,
            np,
            nn,
            secondary_accuracy: Some(share(&|i| (second[i] > 1.0) == (y[i] > 1.0))),
        },
        points,
        rule_points,
        judged,
    }))
}

/// Whole groups dealt to `k` folds after a seeded shuffle, largest groups first.
fn split(groups: &[usize], k: usize, seed: u64) -> Vec<Vec<usize>> {
    let mut members: std::collections::BTreeMap<usize, Vec<usize>> = Default::default();
    for (i, &g) in groups.iter().enumerate() {
        members.entry(g).or_default().push(i);
    }
    let mut list: Vec<Vec<usize>> = members.into_values().collect();
    let mut rng = SplitMix64::new(seed);
    for j in (1..list.len()).rev() {
        list.swap(j, rng.below(j + 1));
    }
    list.sort_by_key(|m| std::cmp::Reverse(m.len()));
    let mut folds = vec![Vec::new(); k.max(2)];
    for m in list {
        let f = (0..folds.len())
            .min_by_key(|&f| folds[f].len())
            .unwrap_or(0);
        folds[f].extend(m);
    }
    for f in &mut folds {
        f.sort_unstable();
    }
    folds
}

/// 95% percentile-bootstrap interval of the accuracy, resampling groups (500 resamples).
fn bootstrap(right: &[bool], groups: &[usize], seed: u64) -> (f64, f64) {
    let ci = crate::experiment::stats::bootstrap_grouped(groups, 500, seed, |idx| {
        (!idx.is_empty())
            .then(|| idx.iter().filter(|&&i| right[i]).count() as f64 / idx.len() as f64)
    });
    let acc = right.iter().filter(|&&r| r).count() as f64 / right.len().max(1) as f64;
    ci.map_or((acc, acc), |c| (c.low, c.high))
}

#[cfg(test)]
mod tests;
