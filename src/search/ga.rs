//! A genetic algorithm baseline, after Kernel Tuner's `genetic_algorithm` strategy (the global
//! baseline of Li and Agrawal's shrinking-sample paper): a population of 20, parents drawn with rank weights, single-point
//! crossover, each parameter mutated to a random value with probability 1/10, and the best 20
//! of parents and children kept. A child outside the recorded space (a restricted
//! configuration) is mutated again, and after 20 tries replaced by a random configuration.

use super::evaluator::{Eval, Evaluator};
use super::space::SearchSpace;
use super::Strategy;
use advise_ml::Rng;

/// Genetic-algorithm settings.
#[derive(Debug, Clone)]
pub struct Genetic {
    pub population: usize,
    pub mutation: f64,
}

impl Default for Genetic {
    fn default() -> Self {
        Genetic {
            population: 20,
            mutation: 0.1,
        }
    }
}

fn score(e: Eval) -> f64 {
    e.time().unwrap_or(f64::INFINITY)
}

fn random_member(space: &SearchSpace, rng: &mut Rng) -> usize {
    rng.below(space.len())
}

impl Strategy for Genetic {
    fn name(&self) -> String {
        "ga".into()
    }

    fn search(&self, ev: &mut Evaluator, rng: &mut Rng) {
        let space = ev.space();
        let radix = space.radix();
        let np = space.n_params();
        let size = self.population.max(2);
        let mut pop: Vec<(f64, usize)> = Vec::with_capacity(2 * size);
        let mut ids: Vec<usize> = (0..space.len()).collect();
        rng.choose_front(&mut ids, size);
        for &id in ids.iter().take(size) {
            let e = ev.evaluate(id);
            if e == Eval::Exhausted {
                return;
            }
            pop.push((score(e), id));
        }
        let mut stale = 0usize;
        let mut child = vec![0u16; np];
        while ev.remaining() > 0 && stale < 1000 {
            pop.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            pop.dedup_by_key(|p| p.1);
            pop.truncate(size);
            // Rank weights: the best of m gets m, the worst 1.
            let m = pop.len();
            let total = m * (m + 1) / 2;
            let pick = |rng: &mut Rng| {
                let mut r = rng.below(total);
                for (i, &(_, id)) in pop.iter().enumerate() {
                    let w = m - i;
                    if r < w {
                        return id;
                    }
                    r -= w;
                }
                pop[0].1
            };
            let before = ev.used();
            let mut children = Vec::with_capacity(size);
            for _ in 0..size {
                let (a, b) = (pick(rng), pick(rng));
                let cut = rng.below(np.max(1));
                let (la, lb) = (space.levels(a), space.levels(b));
                for j in 0..np {
                    child[j] = if j < cut { la[j] } else { lb[j] };
                }
                let mut id = None;
                for _ in 0..20 {
                    for (j, l) in child.iter_mut().enumerate() {
                        if rng.chance(self.mutation) {
                            *l = rng.below(radix[j]) as u16;
                        }
                    }
                    id = space.find(&child);
                    if id.is_some() {
                        break;
                    }
                }
                let id = id.unwrap_or_else(|| random_member(space, rng));
                let e = ev.evaluate(id);
                if e == Eval::Exhausted {
                    return;
                }
                children.push((score(e), id));
            }
            pop.extend(children);
            stale = if ev.used() == before { stale + 1 } else { 0 };
        }
    }
}
