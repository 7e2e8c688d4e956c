//! IterML (Cui and Feng, Algorithm 1): iterative sampling and pruning with a regression model.
//!
//! Each iteration picks a fixed number of configurations at random from what is left of the
//! space (the pick ratio), measures them, fits the model to everything measured so far,
//! predicts the rest and prunes the worst-predicted part of it (the cut ratio, 50% as in the
//! paper). The search ends when the budget is spent or nothing is left; the answer is the best
//! configuration measured. The model predicts performance, as the paper does: here the best
//! time seen over the configuration's time, in (0, 1], and 0 for a failed configuration.

use super::evaluator::Evaluator;
use advise_ml::Levels;
use advise_ml::Rng;

use super::surrogate::{scale_of, ModelKind};
use super::Strategy;

/// IterML settings.
#[derive(Debug, Clone)]
pub struct IterMl {
    pub model: ModelKind,
    /// Share of the whole space measured in each iteration (0.4%, the paper's Fig. 14).
    pub pick_ratio: f64,
    /// Share of the remaining space pruned after each iteration.
    pub cut_ratio: f64,
    /// At least this many picks an iteration, so the model has data on small spaces.
    pub min_pick: usize,
}

impl Default for IterMl {
    fn default() -> Self {
        IterMl {
            model: ModelKind::Forest { trees: 20 },
            pick_ratio: 0.004,
            cut_ratio: 0.5,
            min_pick: 10,
        }
    }
}

impl Strategy for IterMl {
    fn name(&self) -> String {
        match self.model {
            ModelKind::Forest { .. } => "iterml".into(),
            m => format!("iterml-{m}"),
        }
    }

    fn search(&self, ev: &mut Evaluator, rng: &mut Rng) {
        let space = ev.space();
        let n = space.len();
        let pick = ((self.pick_ratio * n as f64).ceil() as usize).max(self.min_pick);
        let enc = scale_of(space);
        let mut model = self.model.build(&enc);
        let mut remaining: Vec<usize> = (0..n).collect();
        let mut preds: Vec<(f64, usize)> = Vec::with_capacity(n);
        loop {
            let k = pick.min(ev.remaining()).min(remaining.len());
            if k == 0 {
                break;
            }
            rng.choose_front(&mut remaining, k);
            for id in remaining.drain(..k) {
                ev.evaluate(id);
            }
            if ev.remaining() == 0 || remaining.is_empty() {
                break;
            }
            let (x, y) = training_set(ev);
            model.fit(&x, &y, rng);
            preds.clear();
            preds.extend(
                remaining
                    .iter()
                    .map(|&id| (model.predict(space.levels(id)), id)),
            );
            let first = preds[0].0;
            if preds.iter().all(|p| p.0 == first) {
                continue; // the model cannot tell the rest apart: prune nothing
            }
            preds.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
            let keep = ((preds.len() as f64) * (1.0 - self.cut_ratio)).ceil() as usize;
            remaining.clear();
            remaining.extend(preds[..keep.max(1)].iter().map(|p| p.1));
        }
    }
}

/// Everything measured so far, with performance targets (best time / time, failed = 0).
fn training_set(ev: &Evaluator) -> (Levels, Vec<f64>) {
    let space = ev.space();
    let best = ev.best().map(|b| b.1);
    let mut x = Levels::new(space.n_params());
    let mut y = Vec::with_capacity(ev.used());
    for &id in ev.evaluated() {
        x.push(space.levels(id));
        y.push(match (space.time(id), best) {
            (Some(t), Some(b)) => b / t,
            _ => 0.0,
        });
    }
    (x, y)
}
