//! Differential evolution, after Kernel Tuner 1.5.0's `diff_evo` (strategies/diff_evo.py) with
//! its defaults: DE/best/1/bin on parameter value indices, a population of 16 per tunable
//! parameter, F = 0.7, CR = 0.6. Each generation builds one trial per member: donor
//! `best + F (b - c)` from two other members drawn without replacement, rounded and clipped to
//! the levels, binomial crossover with the member (at least one donor parameter), repaired
//! when the space does not hold it to one of the closest configurations it does hold
//! (`closest-param-indices`, `neighbours::snap`). A trial already in the generation is drawn
//! again, and after 20 such draws replaced by a random configuration. The whole generation is
//! measured, then a trial replaces its member if it is no slower and not already in the
//! population. After three generations without a change every later generation is a fresh
//! random population, as in Kernel Tuner (its `stabilized` counter is never reset). Kernel
//! Tuner starts from a Latin hypercube sample of the space; here the first population is a
//! uniform random sample without replacement. A failed configuration scores as the largest
//! float.

use super::evaluator::{Eval, Evaluator};
use super::neighbours::snap;
use super::Strategy;
use advise_ml::Rng;

/// Differential-evolution settings.
#[derive(Debug, Clone)]
pub struct DiffEvo {
    /// Members per tunable parameter.
    pub popsize: usize,
    pub f: f64,
    pub cr: f64,
}

impl Default for DiffEvo {
    fn default() -> Self {
        DiffEvo {
            popsize: 16,
            f: 0.7,
            cr: 0.6,
        }
    }
}

fn random_population(n_space: usize, size: usize, rng: &mut Rng) -> Vec<usize> {
    let mut ids: Vec<usize> = (0..n_space).collect();
    rng.choose_front(&mut ids, size);
    ids.truncate(size);
    ids
}

/// Measures `ids` in order; `None` once the budget is spent.
fn measure(ev: &mut Evaluator, ids: &[usize]) -> Option<Vec<f64>> {
    ids.iter()
        .map(|&id| match ev.evaluate(id) {
            Eval::Time(t) => Some(t),
            Eval::Failed => Some(f64::MAX),
            Eval::Exhausted => None,
        })
        .collect()
}

impl Strategy for DiffEvo {
    fn name(&self) -> String {
        "diff_evo".into()
    }

    fn search(&self, ev: &mut Evaluator, rng: &mut Rng) {
        let space = ev.space();
        let radix = space.radix();
        let np = space.n_params();
        let size = (self.popsize * np.max(1)).min(space.len()).max(1);
        let mut pop = random_population(space.len(), size, rng);
        let Some(mut cost) = measure(ev, &pop) else {
            return;
        };
        let b = (0..size)
            .min_by(|&i, &j| cost[i].total_cmp(&cost[j]))
            .unwrap();
        let (mut best, mut best_cost) = (pop[b], cost[b]);
        let mut stabilized = 0usize;
        let mut donor = vec![0.0; np];
        for _generation in 0..space.len() {
            let mut trials: Vec<usize> = if stabilized > 2 {
                random_population(space.len(), size, rng)
            } else {
                Vec::with_capacity(size)
            };
            let mut stuck = 0;
            while trials.len() < size {
                let i = trials.len();
                // Two distinct members other than i (with replacement if too few).
                let others = size - 1;
                let (rb, rc) = if others >= 2 {
                    let x = rng.below(others);
                    let mut y = rng.below(others - 1);
                    if y >= x {
                        y += 1;
                    }
                    (x, y)
                } else {
                    (0, 0)
                };
                let skip = |r: usize| if r >= i { (r + 1).min(size - 1) } else { r };
                let (lb, lc, lbest) = (
                    space.levels(pop[skip(rb)]),
                    space.levels(pop[skip(rc)]),
                    space.levels(best),
                );
                let target = space.levels(pop[i]);
                let forced = rng.below(np.max(1));
                for j in 0..np {
                    let d = (lbest[j] as f64 + self.f * (lb[j] as f64 - lc[j] as f64))
                        .round()
                        .clamp(0.0, (radix[j] - 1) as f64);
                    donor[j] = if rng.chance(self.cr) || j == forced {
                        d
                    } else {
                        target[j] as f64
                    };
                }
                let trial = snap(space, &donor, rng);
                if !trials.contains(&trial) {
                    trials.push(trial);
                    stuck = 0;
                } else {
                    stuck += 1;
                    if stuck >= 20 {
                        trials.push(rng.below(space.len()));
                        stuck = 0;
                    }
                }
            }
            let Some(trial_cost) = measure(ev, &trials) else {
                return;
            };
            let mut changed = false;
            for i in 0..size {
                if trial_cost[i] <= cost[i] {
                    if !pop.contains(&trials[i]) {
                        pop[i] = trials[i];
                        cost[i] = trial_cost[i];
                        changed = true;
                    }
                    if trial_cost[i] < best_cost {
                        best_cost = trial_cost[i];
                        best = trials[i];
                    }
                }
            }
            if !changed {
                stabilized += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::testutil::optimum_hits;

    #[test]
    fn reproducible_within_budget_and_often_optimal() {
        let hits = optimum_hits(&DiffEvo::default(), 120, 20);
        assert!(hits >= 14, "optimum found in {hits} of 20 runs");
    }
}
