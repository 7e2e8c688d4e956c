//! The map from an advisor's raw confidence score to the share of suggestions that were
//! right: an isotonic regression of right-or-wrong on the raw score of held-out predictions
//! (pool adjacent violators), and the reliability tables that check it on predictions it was
//! not fitted on.

use serde::{Deserialize, Serialize};

use super::validation::Point;

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
        // Equal scores are one point of their pooled share: many held-out predictions share a
        // score (an optimization's accuracy wherever the profile lies close to its training
        // data), and `apply` maps a score to one step, so a run of equal scores split over two
        // steps by the order of its right and wrong predictions would all be given the lower.
        let mut ties: Vec<(f64, f64, f64)> = Vec::new();
        for (x, y) in sorted {
            match ties.last_mut() {
                Some(last) if last.2 == x => {
                    last.0 += y;
                    last.1 += 1.0;
                }
                _ => ties.push((y, 1.0, x)),
            }
        }
        // Pool adjacent violators: blocks of (sum, count, upper bound).
        let mut blocks: Vec<(f64, f64, f64)> = Vec::new();
        for block in ties {
            blocks.push(block);
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

    /// Why a map read from a file cannot be one `fit` made: steps and probabilities of
    /// different counts, bounds not ascending, or probabilities outside 0..=1 or decreasing.
    pub fn problem(&self) -> Option<String> {
        if self.bounds.len() != self.values.len() {
            return Some(format!(
                "{} bounds but {} probabilities",
                self.bounds.len(),
                self.values.len()
            ));
        }
        if self.bounds.iter().any(|b| b.is_nan()) || self.bounds.windows(2).any(|w| w[0] > w[1]) {
            return Some("its bounds are not in ascending order".into());
        }
        if self.values.iter().any(|v| !(0.0..=1.0).contains(v))
            || self.values.windows(2).any(|w| w[0] > w[1])
        {
            return Some("its probabilities are not non-decreasing values in 0..=1".into());
        }
        None
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_map_that_fit_could_not_make_is_named() {
        let map = |bounds: &[f64], values: &[f64]| Calibration {
            bounds: bounds.to_vec(),
            values: values.to_vec(),
        };
        assert_eq!(map(&[0.2, 0.5], &[0.4, 0.7]).problem(), None);
        assert!(map(&[0.5, 0.2], &[0.4, 0.7])
            .problem()
            .unwrap()
            .contains("ascending"));
        assert!(map(&[0.2, 0.5], &[0.7, 0.4])
            .problem()
            .unwrap()
            .contains("non-decreasing"));
        assert!(map(&[0.2], &[0.4, 0.7])
            .problem()
            .unwrap()
            .contains("1 bounds"));
        assert!(map(&[0.2], &[1.5]).problem().is_some());
    }
    use advise_ml::SplitMix64;

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
    fn equal_scores_share_one_step_whatever_the_order_of_their_outcomes() {
        // 60 predictions at one score, the 30 wrong ones first, then 30 right ones at a higher
        // score: the equal scores are right half the time, and the map says so.
        let mut pts: Vec<Point> = (0..60).map(|i| pt(0.6, i >= 30, i)).collect();
        pts.extend((0..30).map(|i| pt(0.9, true, 60 + i)));
        let c = Calibration::fit(&pts);
        assert!((c.apply(0.6) - 31.0 / 62.0).abs() < 1e-12, "{c:?}");
        assert!((c.apply(0.9) - 31.0 / 32.0).abs() < 1e-12, "{c:?}");
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
