//! Particle swarm optimisation, after Kernel Tuner 1.5.0's `pso` (strategies/pso.py, with the
//! scaling of strategies/common.py): particles move in the space of parameter value indices
//! (each value one unit wide, position `x` meaning level `round(x)`), start at random
//! configurations of the space with velocities uniform in (-R, R) (R the largest number of
//! values, Kernel Tuner's (-1, 1) in its scaled units), and each iteration every particle is
//! measured, then `v = w v + c1 r1 (personal best - x) + c2 r2 (global best - x)` with one
//! `r1`, `r2` per particle, and `x` moves by `v`, clamped to the bounds. A position outside the
//! restricted space is snapped to the closest configuration the space holds
//! (`neighbours::snap`); a failed configuration scores as the largest float, as Kernel
//! Tuner's cost function does. Defaults are Kernel Tuner's: 50 particles (at most half the
//! space), 190 iterations, w = 0.5, c1 = 3.5, c2 = 1. The search ends when the budget is spent
//! or after `maxiter` iterations (revisits are free, so a converged swarm may stop early, as
//! Kernel Tuner's does).

use super::evaluator::{Eval, Evaluator};
use super::neighbours::snap;
use super::Strategy;
use advise_ml::Rng;

/// Particle-swarm settings.
#[derive(Debug, Clone)]
pub struct Pso {
    pub popsize: usize,
    pub maxiter: usize,
    pub w: f64,
    pub c1: f64,
    pub c2: f64,
}

impl Default for Pso {
    fn default() -> Self {
        Pso {
            popsize: 50,
            maxiter: 190,
            w: 0.5,
            c1: 3.5,
            c2: 1.0,
        }
    }
}

struct Particle {
    x: Vec<f64>,
    v: Vec<f64>,
    best_x: Vec<f64>,
    best: f64,
}

impl Strategy for Pso {
    fn name(&self) -> String {
        "pso".into()
    }

    fn search(&self, ev: &mut Evaluator, rng: &mut Rng) {
        let space = ev.space();
        let radix = space.radix();
        let np = space.n_params();
        let reach = radix.iter().copied().max().unwrap_or(1) as f64;
        // Kernel Tuner: min(round(size / 2), popsize), at least one particle here.
        let n = ((space.len() as f64 / 2.0).round() as usize)
            .min(self.popsize)
            .max(1);
        let mut ids: Vec<usize> = (0..space.len()).collect();
        rng.choose_front(&mut ids, n);
        let mut swarm: Vec<Particle> = ids[..n]
            .iter()
            .map(|&id| {
                let x: Vec<f64> = space.levels(id).iter().map(|&l| l as f64).collect();
                let v = (0..np).map(|_| reach * (2.0 * rng.unit() - 1.0)).collect();
                Particle {
                    best_x: x.clone(),
                    x,
                    v,
                    best: f64::MAX,
                }
            })
            .collect();
        let mut global_x: Vec<f64> = swarm[0].x.clone();
        let mut global = f64::MAX;
        for _ in 0..self.maxiter {
            // Measure the whole swarm, then update the bests (Kernel Tuner's eval_all).
            for p in swarm.iter_mut() {
                let id = snap(space, &p.x, rng);
                let score = match ev.evaluate(id) {
                    Eval::Time(t) => t,
                    Eval::Failed => f64::MAX,
                    Eval::Exhausted => return,
                };
                if score < p.best {
                    p.best = score;
                    p.best_x.clone_from(&p.x);
                }
                if score <= global {
                    global = score;
                    global_x.clone_from(&p.x);
                }
            }
            for p in swarm.iter_mut() {
                let (r1, r2) = (rng.unit(), rng.unit());
                for j in 0..np {
                    p.v[j] = self.w * p.v[j]
                        + self.c1 * r1 * (p.best_x[j] - p.x[j])
                        + self.c2 * r2 * (global_x[j] - p.x[j]);
                    p.x[j] = (p.x[j] + p.v[j]).clamp(-0.5, radix[j] as f64 - 0.5);
                }
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
        let hits = optimum_hits(&Pso::default(), 150, 20);
        assert!(hits >= 10, "optimum found in {hits} of 20 runs");
    }
}
