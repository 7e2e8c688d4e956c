//! The two reference strategies: exhaustive search (every configuration in the recorded order
//! until the budget ends) and random search (uniform sampling without replacement).

use super::evaluator::Evaluator;
use super::Strategy;
use advise_ml::Rng;

/// Every configuration in the order the space lists them; the seed plays no part.
#[derive(Debug, Clone, Default)]
pub struct Exhaustive;

impl Strategy for Exhaustive {
    fn name(&self) -> String {
        "exhaustive".into()
    }

    fn search(&self, ev: &mut Evaluator, _rng: &mut Rng) {
        for id in 0..ev.space().len() {
            if ev.remaining() == 0 {
                break;
            }
            ev.evaluate(id);
        }
    }
}

/// Uniform random sampling without replacement.
#[derive(Debug, Clone, Default)]
pub struct RandomSearch;

impl Strategy for RandomSearch {
    fn name(&self) -> String {
        "random".into()
    }

    fn search(&self, ev: &mut Evaluator, rng: &mut Rng) {
        let mut ids: Vec<usize> = (0..ev.space().len()).collect();
        let k = ev.remaining();
        rng.choose_front(&mut ids, k);
        for &id in &ids[..k.min(ids.len())] {
            ev.evaluate(id);
        }
    }
}
