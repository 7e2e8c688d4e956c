//! How far an advisor's suggestions can be trusted, measured without leaks, and the map from
//! its raw confidence score to the share of suggestions that were right.
//!
//! Each optimization's models are cross-validated on grouped folds: all samples of one
//! program, input and configuration family (`experiment::splits::group_key`) sit on one side,
//! so a test configuration never has its replicate or its neighbouring parameter step in the
//! training data. Every held-out prediction yields a raw score (validated accuracy x closeness
//! x agreement, as `suggest` computes it for a user's profile) and whether its direction was
//! right. An isotonic regression of right-or-wrong on the raw score (pool adjacent violators)
//! is the calibration map; the reliability table is computed on predictions the map was not
//! fitted on (two halves, by group).

use serde::{Deserialize, Serialize};

use super::evidence::{ranges_of, scaled_distance, typical_distance};
use crate::error::Result;
use advise_ml::SplitMix64;

use crate::experiment::stats::{mcnemar_exact, percentile};
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

/// Grouped k-fold validation of `primary` (and `secondary`, for agreement) on rows `x` with
/// speedups `y` and group numbers `groups`. The test rows lose the columns `unknown_in_test`
/// (set missing): how the models do where a user's profile lacks them.
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
        let up = ty.iter().filter(|&&v| v > 1.0).count() * 2 >= ty.len();
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
    let (mut pp, mut pn, mut np, mut nn) = (0, 0, 0, 0);
    let (mut only_model, mut only_majority) = (0, 0);
    let mut right = vec![false; n];
    for i in 0..n {
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
    let accuracy = (pp + nn) as f64 / n as f64;
    let majority_accuracy =
        (0..n).filter(|&i| majority[i] == (y[i] > 1.0)).count() as f64 / n as f64;
    let rates: Vec<f64> = [(pp, pp + np), (nn, nn + pn)]
        .into_iter()
        .filter(|&(_, t)| t > 0)
        .map(|(k, t)| k as f64 / t as f64)
        .collect();
    let (low, high) = bootstrap(&right, groups, seed);
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
    let mut distinct: Vec<usize> = groups.to_vec();
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
            secondary_accuracy: Some(
                (0..n)
                    .filter(|&i| (second[i] > 1.0) == (y[i] > 1.0))
                    .count() as f64
                    / n as f64,
            ),
        },
        points,
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

/// The fewest held-out predictions a step of the calibration map may rest on.
const MIN_STEP: f64 = 30.0;

/// A monotone map from raw score to the probability that a suggestion's direction is right.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Calibration {
    /// Upper raw-score bounds of the steps, ascending, and each step's probability.
    pub bounds: Vec<f64>,
    pub values: Vec<f64>,
}

impl Calibration {
    /// Isotonic (non-decreasing) least-squares fit of correctness on raw score, each step's
    /// share smoothed as (right + 1) / (predictions + 2).
    pub fn fit(points: &[Point]) -> Calibration {
        let mut sorted: Vec<(f64, f64)> = points
            .iter()
            .map(|p| (p.raw, if p.correct { 1.0 } else { 0.0 }))
            .collect();
        sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
        // Pool adjacent violators: blocks of (sum, count, upper bound).
        let mut blocks: Vec<(f64, f64, f64)> = Vec::new();
        for (x, y) in sorted {
            blocks.push((y, 1.0, x));
            while blocks.len() > 1 {
                let (s1, c1, _) = blocks[blocks.len() - 2];
                let (s2, c2, b2) = blocks[blocks.len() - 1];
                // Equal shares pool too: a run of right predictions is one step, not many
                // steps of one that Laplace's rule would each put at 2/3.
                if s1 / c1 < s2 / c2 {
                    break;
                }
                blocks.pop();
                let last = blocks.len() - 1;
                blocks[last] = (s1 + s2, c1 + c2, b2);
            }
        }
        // A step of a handful of predictions says little about the scores near it, yet it
        // sets the probability of every score below the lowest (or above the highest) bound:
        // steps of fewer than MIN_STEP predictions join their neighbour (the pooled share lies
        // between the two, so the map stays non-decreasing).
        while blocks.len() > 1 {
            let Some(i) = (0..blocks.len()).find(|&i| blocks[i].1 < MIN_STEP) else {
                break;
            };
            let j = if i == 0 {
                1
            } else if i + 1 == blocks.len() {
                i - 1
            } else {
                // The neighbour whose share is closer.
                let share = |k: usize| blocks[k].0 / blocks[k].1;
                if (share(i - 1) - share(i)).abs() <= (share(i + 1) - share(i)).abs() {
                    i - 1
                } else {
                    i + 1
                }
            };
            let (lo, hi) = (i.min(j), i.max(j));
            let merged = (
                blocks[lo].0 + blocks[hi].0,
                blocks[lo].1 + blocks[hi].1,
                blocks[hi].2,
            );
            blocks[lo] = merged;
            blocks.remove(hi);
        }
        // Laplace's rule of succession per step: a step of few predictions that were all
        // right (or all wrong) does not claim certainty.
        Calibration {
            bounds: blocks.iter().map(|b| b.2).collect(),
            values: blocks.iter().map(|b| (b.0 + 1.0) / (b.1 + 2.0)).collect(),
        }
    }

    /// The calibrated probability of a raw score (the step it falls in; the last step above).
    pub fn apply(&self, raw: f64) -> f64 {
        if self.values.is_empty() {
            return raw;
        }
        let i = self.bounds.partition_point(|&b| b < raw);
        self.values[i.min(self.values.len() - 1)]
    }
}

/// One row of a reliability table.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ReliabilityRow {
    pub low: f64,
    pub high: f64,
    pub suggestions: usize,
    pub mean_confidence: f64,
    pub share_right: f64,
}

/// Reliability of the calibrated confidence on held-out predictions: the map is fitted on
/// the points of even groups and applied to odd ones, and the reverse; rows by confidence.
pub fn reliability(points: &[Point]) -> Vec<ReliabilityRow> {
    let half = |parity: usize| -> Vec<Point> {
        points
            .iter()
            .filter(|p| p.group % 2 == parity)
            .copied()
            .collect()
    };
    let (even, odd) = (half(0), half(1));
    let mut scored: Vec<(f64, bool)> = Vec::new();
    for (fit_on, apply_to) in [(&even, &odd), (&odd, &even)] {
        let map = Calibration::fit(fit_on);
        scored.extend(apply_to.iter().map(|p| (map.apply(p.raw), p.correct)));
    }
    binned(&scored)
}

/// A reliability table of (confidence, right) pairs: rows by confidence band.
pub fn binned(scored: &[(f64, bool)]) -> Vec<ReliabilityRow> {
    let edges = [0.0, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0 + 1e-9];
    edges
        .windows(2)
        .filter_map(|w| {
            let inside: Vec<&(f64, bool)> = scored
                .iter()
                .filter(|(c, _)| *c >= w[0] && *c < w[1])
                .collect();
            (!inside.is_empty()).then(|| ReliabilityRow {
                low: w[0],
                high: w[1].min(1.0),
                suggestions: inside.len(),
                mean_confidence: inside.iter().map(|(c, _)| c).sum::<f64>() / inside.len() as f64,
                share_right: inside.iter().filter(|(_, r)| *r).count() as f64 / inside.len() as f64,
            })
        })
        .collect()
}

/// Median of some values (0 when empty), for summaries.
pub fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    percentile(&v, 50.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(raw: f64, correct: bool, group: usize) -> Point {
        Point {
            raw,
            correct,
            group,
        }
    }

    #[test]
    fn isotonic_map_is_monotone_and_matches_step_frequencies() {
        // Each point 30 times, so that every step rests on enough predictions.
        let pts: Vec<Point> = [
            (0.1, false),
            (0.2, true),
            (0.3, false),
            (0.8, true),
            (0.9, true),
        ]
        .iter()
        .flat_map(|&(r, c)| (0..30).map(move |g| pt(r, c, g)))
        .collect();
        let c = Calibration::fit(&pts);
        assert!(c.values.windows(2).all(|w| w[0] <= w[1]), "{c:?}");
        // Steps: {0.1 wrong} -> 1/32, {0.2 right, 0.3 wrong} -> 31/62, {0.8 and 0.9 right}
        // -> 61/62; above the last bound the last step holds.
        assert_eq!(c.values.len(), 3, "{c:?}");
        assert!((c.apply(0.05) - 1.0 / 32.0).abs() < 1e-12, "{c:?}");
        assert!((c.apply(0.25) - 0.5).abs() < 1e-12, "{c:?}");
        assert!((c.apply(0.95) - 61.0 / 62.0).abs() < 1e-12, "{c:?}");
    }

    #[test]
    fn a_step_of_few_predictions_joins_its_neighbour() {
        // Two wrong predictions at the lowest scores, then 60 that are right half the time:
        // alone, the two would give every lower score 1/4.
        let mut pts = vec![pt(0.1, false, 0), pt(0.15, false, 1)];
        pts.extend((0..60).map(|i| pt(0.5 + i as f64 / 1000.0, i % 2 == 0, i + 2)));
        let c = Calibration::fit(&pts);
        assert!(c.values.windows(2).all(|w| w[0] <= w[1]), "{c:?}");
        assert!(c.apply(0.0) > 0.4, "{c:?}");
    }

    #[test]
    fn grouped_split_keeps_groups_whole() {
        let groups = vec![0, 0, 1, 1, 1, 2, 3, 3, 4, 5, 5];
        let parts = split(&groups, 3, 7);
        for p in &parts {
            for q in &parts {
                if std::ptr::eq(p, q) {
                    continue;
                }
                for &i in p {
                    assert!(q.iter().all(|&j| groups[j] != groups[i]));
                }
            }
        }
        assert_eq!(parts.iter().map(Vec::len).sum::<usize>(), groups.len());
    }

    #[test]
    fn reliability_of_an_informative_score_rises() {
        // Synthetic points: a raw score r is right with probability r.
        let mut rng = SplitMix64::new(3);
        let pts: Vec<Point> = (0..4000)
            .map(|i| {
                let r = rng.next_f64();
                pt(r, rng.next_f64() < r, i)
            })
            .collect();
        let rows = reliability(&pts);
        assert!(rows.len() >= 3);
        let first = rows.first().unwrap();
        let last = rows.last().unwrap();
        assert!(last.share_right > first.share_right + 0.2, "{rows:?}");
        for r in &rows {
            assert!((r.share_right - r.mean_confidence).abs() < 0.1, "{r:?}");
        }
    }
}
