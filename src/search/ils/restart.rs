//! How the local search starts and starts again: the random share of the budget, a random
//! working configuration, and a jump that changes a few parameters at random.

use super::super::evaluator::{Eval, Evaluator};
use super::super::space::SearchSpace;
use advise_ml::Rng;

/// How many of `budget` evaluations the random share measures: the share `init` of it, at
/// most `init_max` where that is above 0, and where the share is on at least `init_min` but
/// never more than half the budget (the minimum wins over the cap).
pub(crate) fn random_share(init: f64, init_min: usize, init_max: usize, budget: usize) -> usize {
    let mut share = (init * budget as f64).round() as usize;
    if init_max > 0 {
        share = share.min(init_max);
    }
    if init > 0.0 {
        share.max(init_min.min(budget / 2))
    } else {
        share
    }
}

/// Measures configurations at random until one works; `None` when nothing is left.
pub(crate) fn random_start(ev: &mut Evaluator, rng: &mut Rng) -> Option<(usize, f64)> {
    let n = ev.space().len();
    while ev.remaining() > 0 && ev.used() < n {
        let id = rng.below(n);
        if ev.is_evaluated(id) {
            continue;
        }
        if let Eval::Time(t) = ev.evaluate(id) {
            return Some((id, t));
        }
    }
    None
}

/// Draws `k` parameters of `id` (with replacement, parameters of one level included) and gives
/// each a random level, which may be its own: at most `k` changes, often fewer (a
/// configuration the space holds and other than `id`, 20 tries; else a random configuration).
/// Exactly `k` distinct changes were measured on 2026-11-29 and did no better
/// (docs/search-results.md).
pub(crate) fn jump(space: &SearchSpace, id: usize, k: usize, rng: &mut Rng) -> usize {
    let radix = space.radix();
    let p = radix.len();
    let mut probe = space.levels(id).to_vec();
    for _ in 0..20 {
        probe.copy_from_slice(space.levels(id));
        for _ in 0..k.max(1) {
            let j = rng.below(p);
            probe[j] = rng.below(radix[j]) as u16;
        }
        if let Some(c) = space.find(&probe) {
            if c != id {
                return c;
            }
        }
    }
    rng.below(space.len())
}

/// A standard normal draw (Box-Muller).
pub(crate) fn normal(rng: &mut Rng) -> f64 {
    let u = rng.unit().max(f64::MIN_POSITIVE);
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * rng.unit()).cos()
}
