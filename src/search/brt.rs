//! Predictive auto-tuning with boosted regression trees (Boosted Regression Trees for Predictive Auto-Tuning).
//!
//! 1. Measure a random training sample (half the budget by default; the paper trains on
//!    timings of other problem configurations, which a single recorded space does not have).
//! 2. Fit boosted trees (depth 4, 100 rounds) to the log speedup over a reference
//!    configuration, y = log(t_ref / t) (eq. 1). Failed configurations get the constant
//!    y = log(a) (zeta), a = 0.5 by default: "worse than the reference", the middle of the
//!    range 0.25..0.75 the paper found best. The reference is the training sample's
//!    median-time configuration, standing in for the paper's hand-chosen default.
//! 3. Hill-climb on the model (section 2.4): start from the reference, resample each parameter
//!    with probability 0.25, move when the model predicts a speedup; 25, 50 or 75 steps (HC25,
//!    HC50, HC75). Proposals outside the recorded space are restricted configurations that
//!    cannot be built: they are rejected without asking the model, and count as steps.
//! 4. Validate: repeat the climb from the reference with fresh random draws, and measure the
//!    distinct end points with the best predictions, then the best-predicted configurations
//!    the climbs visited.
//!
//! Two departures from the paper, both because its model learnt from thousands of timings and
//! ours from a few dozen to a few hundred (see docs/search-results.md for their effect):
//! leaves hold at least 10 rows only once there are 200 training rows (a twentieth of the
//! rows, at least 2, before: with 40 rows and 10-row leaves a depth-4 tree has at most 4
//! leaves), and the validation budget is spent in 4 rounds, refitting the model on every
//! measurement so far before each. `brt:rounds=1,leaf=10` (alias `brt-paper`) is the paper's
//! one-shot procedure with its leaf size.

use std::collections::{HashMap, HashSet};

use super::evaluator::Evaluator;
use super::Strategy;
use advise_ml::boosting::{Boosted, LevelBoostParams};
use advise_ml::Rng;
use advise_ml::{Fit, LevelSet, Levels, PredictRow};

/// Boosted-tree search settings.
#[derive(Debug, Clone)]
pub struct Brt {
    /// Hill-climbing steps on the model (25, 50 or 75 in the paper).
    pub hc_steps: usize,
    /// Share of the budget spent on the random training sample.
    pub train_fraction: f64,
    /// Score a of an invalid configuration: y = log(a).
    pub invalid_score: f64,
    /// Probability of resampling each parameter in a hill-climbing step.
    pub resample: f64,
    /// Validation rounds: the model is refitted after each (1: the paper's one-shot).
    pub rounds: usize,
    /// Fewest rows a leaf; 0: the paper's 10 once there are 200 training rows, a twentieth
    /// of them (at least 2) before.
    pub min_leaf: usize,
}

impl Default for Brt {
    fn default() -> Self {
        Brt {
            hc_steps: 75,
            train_fraction: 0.5,
            invalid_score: 0.5,
            resample: 0.25,
            rounds: 4,
            min_leaf: 0,
        }
    }
}

impl Strategy for Brt {
    fn name(&self) -> String {
        let d = Brt::default();
        let mut name = String::from("brt");
        if self.hc_steps != d.hc_steps {
            name += &format!("-hc{}", self.hc_steps);
        }
        if self.rounds != d.rounds {
            name += &format!("-r{}", self.rounds);
        }
        if self.min_leaf != d.min_leaf {
            name += &format!("-leaf{}", self.min_leaf);
        }
        if self.invalid_score != d.invalid_score {
            name += &format!("-invalid{}", self.invalid_score);
        }
        if self.train_fraction != d.train_fraction {
            name += &format!("-train{}", self.train_fraction);
        }
        name
    }

    fn search(&self, ev: &mut Evaluator, rng: &mut Rng) {
        let space = ev.space();
        let n = space.len();
        let n_train = ((ev.remaining() as f64 * self.train_fraction).ceil() as usize)
            .clamp(1, ev.remaining());
        let mut ids: Vec<usize> = (0..n).collect();
        rng.choose_front(&mut ids, n_train);
        for &id in &ids[..n_train] {
            ev.evaluate(id);
        }
        // The reference: the median of the measured training times.
        let mut valid: Vec<(f64, usize)> = ev
            .evaluated()
            .iter()
            .filter_map(|&id| space.time(id).map(|t| (t, id)))
            .collect();
        if valid.is_empty() {
            // Nothing to learn from: spend the rest as random search would.
            for &id in &ids[n_train..] {
                if ev.remaining() == 0 {
                    break;
                }
                ev.evaluate(id);
            }
            return;
        }
        valid.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let (t_ref, reference) = valid[(valid.len() - 1) / 2];
        let zeta = self.invalid_score.ln();
        let rounds = self.rounds.max(1);
        for round in 0..rounds {
            if ev.remaining() == 0 {
                break;
            }
            let quota = ev.remaining().div_ceil(rounds - round);
            let mut x = Levels::new(space.n_params());
            let mut y = Vec::with_capacity(ev.used());
            for &id in ev.evaluated() {
                x.push(space.levels(id));
                y.push(space.time(id).map_or(zeta, |t| (t_ref / t).ln()));
            }
            let mut params = LevelBoostParams::new(space.radix().to_vec());
            if self.min_leaf > 0 {
                params.tree.min_leaf = self.min_leaf;
            } else {
                params.tree.min_leaf = (x.len() / 20).clamp(2, 10);
            }
            let set = LevelSet::new(&x, &y, rng.clone());
            let model = match params.fit(&set) {
                Ok(m) => m,
                Err(_) => return,
            };
            *rng = set.into_rng();
            for id in self.candidates(ev, &model, reference, quota, rng) {
                if ev.remaining() == 0 {
                    break;
                }
                ev.evaluate(id);
            }
        }
    }
}

impl Brt {
    /// Up to `quota` unmeasured configurations to validate, best predicted first: the end
    /// points of repeated hill climbs from the reference, then what the climbs visited.
    fn candidates(
        &self,
        ev: &Evaluator,
        model: &Boosted<u16>,
        reference: usize,
        quota: usize,
        rng: &mut Rng,
    ) -> Vec<usize> {
        let space = ev.space();
        let mut cache: HashMap<usize, f64> = HashMap::new();
        let mut predict = |id: usize| {
            *cache
                .entry(id)
                .or_insert_with(|| model.predict_row(space.levels(id)))
        };
        let radix = space.radix();
        let mut visited: Vec<usize> = Vec::new();
        let mut seen_visit = HashSet::new();
        let mut ends: Vec<usize> = Vec::new();
        let mut seen_end = HashSet::new();
        let mut cur_levels = space.levels(reference).to_vec();
        let mut prop = cur_levels.clone();
        for _ in 0..quota + 16 {
            if ends.len() >= quota {
                break;
            }
            let mut cur = reference;
            let mut cur_pred = predict(cur);
            cur_levels.copy_from_slice(space.levels(cur));
            for _ in 0..self.hc_steps {
                prop.copy_from_slice(&cur_levels);
                for (j, l) in prop.iter_mut().enumerate() {
                    if rng.chance(self.resample) {
                        *l = rng.below(radix[j]) as u16;
                    }
                }
                let Some(id) = space.find(&prop) else {
                    continue;
                };
                if id == cur {
                    continue;
                }
                let p = predict(id);
                if !ev.is_evaluated(id) && seen_visit.insert(id) {
                    visited.push(id);
                }
                if p > cur_pred {
                    cur = id;
                    cur_pred = p;
                    cur_levels.copy_from_slice(&prop);
                }
            }
            if !ev.is_evaluated(cur) && seen_end.insert(cur) {
                ends.push(cur);
            }
        }
        let mut rank = |v: Vec<usize>| {
            let mut scored: Vec<(f64, usize)> = v.into_iter().map(|id| (predict(id), id)).collect();
            scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
            scored.into_iter().map(|s| s.1).collect::<Vec<_>>()
        };
        let mut out = rank(ends);
        let rest: Vec<usize> = rank(visited)
            .into_iter()
            .filter(|id| !seen_end.contains(id))
            .collect();
        out.extend(rest);
        out.truncate(quota);
        out
    }
}
