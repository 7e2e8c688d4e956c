//! A simulated-annealing baseline, after Kernel Tuner's `simulated_annealing` strategy (a
//! global baseline of Li and Agrawal's shrinking-sample paper): from a random start, step to a random neighbour (one
//! parameter moved to an adjacent value) and accept a slower one with probability
//! exp(-relative slowdown / T). The temperature falls geometrically from 1 to 0.001 over the
//! budget. A failed neighbour is never accepted; with no neighbour in the space, or after
//! many steps that only revisit measured configurations, the walk restarts at random.

use super::evaluator::{Eval, Evaluator};
use super::Strategy;
use advise_ml::Rng;

/// Annealing settings.
#[derive(Debug, Clone)]
pub struct Annealing {
    pub t_start: f64,
    pub t_end: f64,
}

impl Default for Annealing {
    fn default() -> Self {
        Annealing {
            t_start: 1.0,
            t_end: 0.001,
        }
    }
}

impl Strategy for Annealing {
    fn name(&self) -> String {
        "anneal".into()
    }

    fn search(&self, ev: &mut Evaluator, rng: &mut Rng) {
        let space = ev.space();
        let n = space.len();
        let budget = ev.budget().max(1) as f64;
        let mut current: Option<(usize, f64)> = None;
        let mut idle = 0usize;
        let mut neighbours = Vec::new();
        while ev.remaining() > 0 && ev.used() < n {
            let Some((cur, t_cur)) = current else {
                let id = rng.below(n);
                match ev.evaluate(id) {
                    Eval::Time(t) => current = Some((id, t)),
                    Eval::Failed => {}
                    Eval::Exhausted => return,
                }
                continue;
            };
            neighbours.clear();
            super::neighbours::adjacent(space, cur, &mut neighbours);
            if neighbours.is_empty() || idle > 200 {
                current = None;
                idle = 0;
                continue;
            }
            let next = neighbours[rng.below(neighbours.len())];
            let fresh = !ev.is_evaluated(next);
            let temp = self.t_start * (self.t_end / self.t_start).powf(ev.used() as f64 / budget);
            match ev.evaluate(next) {
                Eval::Time(t) => {
                    let slowdown = (t - t_cur) / t_cur;
                    if slowdown <= 0.0 || rng.chance((-slowdown / temp).exp()) {
                        current = Some((next, t));
                    }
                }
                Eval::Failed => {}
                Eval::Exhausted => return,
            }
            idle = if fresh { 0 } else { idle + 1 };
        }
    }
}
