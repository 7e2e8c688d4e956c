//! The budgeted measurement of configurations. Every strategy measures only through an
//! `Evaluator`, which enforces the budget (a strategy cannot overspend: once the budget is
//! used, `evaluate` answers `Exhausted`), counts a failed configuration as a spent evaluation,
//! answers a repeated request from its record without charging again (as Kernel Tuner's
//! cache does), and keeps the best-so-far trace that the benchmark turns into convergence
//! curves.

use super::configuration_set::ConfigurationSet;
use super::space::SearchSpace;
use advise_ml::Rng;

/// What one evaluation request gave.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Eval {
    /// The configuration's measured time (ms).
    Time(f64),
    /// The configuration failed to compile or run.
    Failed,
    /// No budget left; nothing was measured.
    Exhausted,
}

impl Eval {
    pub fn time(self) -> Option<f64> {
        match self {
            Eval::Time(t) => Some(t),
            _ => None,
        }
    }
}

/// Measures configurations of one space within a budget.
#[derive(Debug)]
pub struct Evaluator<'a> {
    space: &'a SearchSpace,
    budget: usize,
    /// The configurations measured.
    seen: ConfigurationSet,
    /// Configurations in the order they were measured.
    order: Vec<usize>,
    /// Their times, in the same order (`INFINITY` for a failure).
    times: Vec<f64>,
    /// Best time after each measurement (`INFINITY` while none succeeded).
    trace: Vec<f64>,
    best: Option<(usize, f64)>,
    /// Evaluations charged when `best` was last improved (0 while none succeeded).
    best_at: usize,
}

impl<'a> Evaluator<'a> {
    pub fn new(space: &'a SearchSpace, budget: usize) -> Self {
        Evaluator {
            space,
            budget,
            seen: ConfigurationSet::new(space.len()),
            order: Vec::with_capacity(budget),
            times: Vec::with_capacity(budget),
            trace: Vec::with_capacity(budget),
            best: None,
            best_at: 0,
        }
    }

    pub fn space(&self) -> &'a SearchSpace {
        self.space
    }

    /// Measures configuration `id` (a lookup of its recorded time), charging one evaluation
    /// unless it was measured before.
    pub fn evaluate(&mut self, id: usize) -> Eval {
        if self.is_evaluated(id) {
            return match self.space.time(id) {
                Some(t) => Eval::Time(t),
                None => Eval::Failed,
            };
        }
        if self.order.len() >= self.budget {
            return Eval::Exhausted;
        }
        self.seen.insert(id);
        self.order.push(id);
        let t = self.space.time(id);
        self.times.push(t.unwrap_or(f64::INFINITY));
        if let Some(t) = t {
            if self.best.is_none_or(|(_, b)| t < b) {
                self.best = Some((id, t));
                self.best_at = self.order.len();
            }
        }
        self.trace
            .push(self.best.map_or(f64::INFINITY, |(_, time)| time));
        match t {
            Some(t) => Eval::Time(t),
            None => Eval::Failed,
        }
    }

    /// Whether `id` has been measured.
    pub fn is_evaluated(&self, id: usize) -> bool {
        self.seen.contains(id)
    }

    /// A configuration not measured yet, drawn uniformly (draw after draw until one is new;
    /// the caller checks that one exists).
    pub(crate) fn random_unmeasured(&self, rng: &mut Rng) -> usize {
        loop {
            let id = rng.below(self.space.len());
            if !self.is_evaluated(id) {
                return id;
            }
        }
    }

    /// Evaluations still allowed.
    pub fn remaining(&self) -> usize {
        self.budget - self.order.len()
    }

    pub fn used(&self) -> usize {
        self.order.len()
    }

    pub fn budget(&self) -> usize {
        self.budget
    }

    /// Measured configurations, in order.
    pub fn evaluated(&self) -> &[usize] {
        &self.order
    }

    /// The times of [`Self::evaluated`], in the same order (`INFINITY` for a failure): a
    /// pass over all measurements reads them without a lookup in the space each.
    pub fn times(&self) -> &[f64] {
        &self.times
    }

    /// The fastest measured configuration.
    pub fn best(&self) -> Option<(usize, f64)> {
        self.best
    }

    /// Evaluations charged since the best was last improved (all of them while none
    /// succeeded).
    pub fn since_best(&self) -> usize {
        self.order.len() - self.best_at
    }

    /// Best time after each measurement.
    pub fn trace(&self) -> &[f64] {
        &self.trace
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::testutil::grid_space;

    #[test]
    fn budget_failures_and_repeats() {
        let s = grid_space();
        let failed = (0..s.len()).find(|&i| s.time(i).is_none()).unwrap();
        let ok = (0..s.len()).find(|&i| s.time(i).is_some()).unwrap();
        let mut ev = Evaluator::new(&s, 2);
        assert_eq!(ev.evaluate(failed), Eval::Failed);
        assert_eq!(ev.trace(), &[f64::INFINITY]);
        // No best yet: every evaluation counts as one without a new best.
        assert_eq!(ev.since_best(), 1);
        assert!(ev.evaluate(ok).time().is_some());
        assert_eq!(ev.since_best(), 0);
        assert_eq!(ev.remaining(), 0);
        // A repeat is answered free; anything new is refused.
        assert!(ev.evaluate(ok).time().is_some());
        let other = (0..s.len()).find(|&i| i != ok && i != failed).unwrap();
        assert_eq!(ev.evaluate(other), Eval::Exhausted);
        assert_eq!(ev.used(), 2);
        assert_eq!(ev.best().map(|b| b.0), Some(ok));
    }
}
