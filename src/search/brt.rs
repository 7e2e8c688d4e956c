//! Predictive auto-tuning with boosted regression trees (seed 003).
//!
//! 1. Measure a random training sample (half the budget by default; the paper trains on
//!    timings of other problem configurations, which a single recorded space does not have).
//! 2. Fit boosted trees (depth 4, 10 rows a leaf, 100 rounds) to the log speedup over a
//!    reference configuration, y = log(t_ref / t) (eq. 1). Failed configurations get the
//!    constant y = log(a) (zeta), a = 0.5 by default: "worse than the reference", the middle
//!    of the range 0.25..0.75 the paper found best. The reference is the training sample's
//!    median-time configuration, standing in for the paper's hand-chosen default.
//! 3. Hill-climb on the model (section 2.4): start from the reference, resample each parameter
//!    with probability 0.25, move when the model predicts a speedup; 25, 50 or 75 steps (HC25,
//!    HC50, HC75). Proposals outside the recorded space are restricted configurations that
//!    cannot be built: they are rejected without asking the model, and count as steps.
//! 4. Validate: repeat the climb from the reference with fresh random draws, and measure the
//!    distinct end points with the best predictions, then the best-predicted configurations
//!    the climbs visited, until the budget is spent.

use std::collections::HashSet;

use super::evaluator::Evaluator;
use super::rng::Rng;
use super::surrogate::{Rows, Surrogate};
use super::surrogate_boost::Boosted;
use super::Strategy;

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
}

impl Default for Brt {
    fn default() -> Self {
        Brt {
            hc_steps: 75,
            train_fraction: 0.5,
            invalid_score: 0.5,
            resample: 0.25,
        }
    }
}

impl Strategy for Brt {
    fn name(&self) -> String {
        if self.hc_steps == 75 {
            "brt".into()
        } else {
            format!("brt-hc{}", self.hc_steps)
        }
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
        let mut x = Rows::new(space.n_params());
        let mut y = Vec::with_capacity(ev.used());
        for &id in ev.evaluated() {
            x.push(space.levels(id));
            y.push(space.time(id).map_or(zeta, |t| (t_ref / t).ln()));
        }
        let mut model = Boosted::new(space.radix());
        model.fit(&x, &y, rng);

        let mut cache = vec![f64::NAN; n];
        let mut predict = |id: usize| {
            if cache[id].is_nan() {
                cache[id] = model.predict(space.levels(id));
            }
            cache[id]
        };
        let radix = space.radix();
        let mut visited: Vec<usize> = Vec::new();
        let mut seen_visit = HashSet::new();
        let mut ends: Vec<usize> = Vec::new();
        let mut seen_end = HashSet::new();
        let climbs = ev.remaining() + 16;
        let mut cur_levels = space.levels(reference).to_vec();
        let mut prop = cur_levels.clone();
        for _ in 0..climbs {
            if ends.len() >= ev.remaining() {
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
        let by_prediction = |v: &mut Vec<usize>, predict: &mut dyn FnMut(usize) -> f64| {
            let mut scored: Vec<(f64, usize)> = v.iter().map(|&id| (predict(id), id)).collect();
            scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
            *v = scored.into_iter().map(|s| s.1).collect();
        };
        by_prediction(&mut ends, &mut predict);
        by_prediction(&mut visited, &mut predict);
        for id in ends.into_iter().chain(visited) {
            if ev.remaining() == 0 {
                break;
            }
            ev.evaluate(id);
        }
    }
}
