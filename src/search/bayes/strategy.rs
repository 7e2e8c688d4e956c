//! Bayesian optimisation as a strategy of its own: its name (each setting off its default
//! marked) and its search (a random initial sample, then [`BayesOpt::steps`]).

use super::super::evaluator::{Eval, Evaluator};
use super::super::Strategy;
use super::{BayesOpt, BoMemory, Failures};
use advise_ml::Rng;

impl Strategy for BayesOpt {
    fn name(&self) -> String {
        let mut name = String::from("bayes_opt");
        if !self.eps_scale {
            name += "-unit";
        }
        if self.fixed_ell > 0.0 {
            name += &format!("-ell{}", self.fixed_ell);
        }
        if self.raw_time {
            name += "-time";
        }
        if self.alt_ell > 0.0 {
            name += &format!("-alt{}from{}", self.alt_ell, self.alt_from);
        }
        match self.failures {
            Failures::Slowest => {}
            Failures::Drop => name += "-faildrop",
            Failures::Weigh => name += "-failweigh",
        }
        if self.fail_power != 1.0 {
            name += &format!("-failpow{}", self.fail_power);
        }
        if self.fail_ell > 0.0 {
            name += &format!("-failell{}", self.fail_ell);
        }
        name
    }

    fn search(&self, ev: &mut Evaluator, rng: &mut Rng) {
        let space = ev.space();
        let n_init = ((self.init * ev.budget() as f64).round() as usize).max(5);
        let mut ids: Vec<usize> = (0..space.len()).collect();
        rng.choose_front(&mut ids, n_init);
        // Measured configurations and log time (None: failed).
        let mut seen: Vec<(usize, Option<f64>)> = Vec::new();
        for &id in ids.iter().take(n_init) {
            match ev.evaluate(id) {
                Eval::Time(t) => seen.push((id, Some(t.ln()))),
                Eval::Failed => seen.push((id, None)),
                Eval::Exhausted => return,
            }
        }
        self.steps(ev, rng, &mut seen, usize::MAX, &mut BoMemory::default());
    }
}
