//! Iterated local search, after Kernel Tuner 1.5.0's `greedy_ils` (strategies/greedy_ils.py)
//! and `basinhopping` (strategies/basinhopping.py): descend from a start by first improvement
//! over a neighbourhood (neighbours in random order, or in the order a main-effects model
//! predicts), and at a local minimum jump: change `perturb` parameters of the best
//! configuration at random and descend again. Basin hopping accepts the new local minimum as
//! the next jumping point with the Metropolis rule on the relative slowdown at temperature
//! `temp` (scipy.optimize.basinhopping's acceptance test); greedy ILS (`temp = 0`) always
//! jumps from the best. Both stop when the budget is spent, unlike scipy's basinhopping, which
//! Kernel Tuner lets end early.

use super::bayes::BayesOpt;
use super::evaluator::{Eval, Evaluator};
use super::model_rows::{ModelRecord, ModelRows};
use super::neighbours::{adjacent, hamming, repairs};
use super::space::SearchSpace;
use super::Strategy;
use advise_ml::Rng;

/// Which configurations are neighbours.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Neighbourhood {
    Hamming,
    Adjacent,
    /// Variable neighbourhood descent (Mladenovic and Hansen, "Variable neighborhood search",
    /// 1997): adjacent neighbours first, the rest of the Hamming neighbourhood only at an
    /// adjacent local minimum.
    Vnd,
}

/// Iterated-local-search settings.
#[derive(Debug, Clone)]
pub struct Ils {
    pub name: String,
    pub neighbourhood: Neighbourhood,
    /// Parameters changed at random by a jump.
    pub perturb: usize,
    /// Metropolis temperature on the relative slowdown of a new local minimum (0: greedy).
    pub temp: f64,
    /// Order neighbours by a main-effects model of log time instead of at random.
    pub model: bool,
    /// Fewest measurements per level column of that model before it orders neighbours
    /// (random order before; 0: the model orders from the first descent).
    pub model_rows: f64,
    /// Below `model_rows` measurements per column, the model still orders neighbours where
    /// its track record ([`ModelRecord`]) ranks more than this share of measured pairs alike
    /// (0: never).
    pub gate: f64,
    /// Most unimproving neighbours measured in one descent step (0: all).
    pub scan: usize,
    /// Jumps in a row that do not improve the best before a restart from a fresh random
    /// configuration (0: never restart).
    pub restart: usize,
    /// Share of the budget measured at random before the first descent, which starts from
    /// the fastest of them.
    pub init: f64,
    /// Fewest configurations that random share measures where it is on (`init` > 0), at most
    /// half the budget: a small budget's share would leave the descent a start drawn from 3
    /// or 4 configurations.
    pub init_min: usize,
    /// Noise added to the model's predictions (standard deviations of log time), so that
    /// repeated runs do not all follow the same path.
    pub noise: f64,
    /// Share of the budget spent, after the random share, on Bayesian-optimisation steps
    /// (a Gaussian process and expected improvement, [`BayesOpt::steps`]) before the first
    /// descent (0: none).
    pub bo: f64,
    /// The Bayesian-optimisation phase's settings (candidates scored per step, most rows).
    pub bo_opt: BayesOpt,
    /// Smallest budget (evaluations) that gets the Bayesian-optimisation phase.
    pub bo_min: usize,
    /// Most Bayesian-optimisation steps (they cost far more CPU than the local search's).
    pub bo_max: usize,
    /// Repairs ([`repairs`]) measured per descent step, in the model's order, where the other
    /// neighbourhoods find nothing faster (0: no repair stage).
    pub repair: usize,
    /// After an adjacent move that improved, try the same move again first (a pattern move,
    /// after Hooke and Jeeves, "Direct search solution of numerical and statistical
    /// problems", 1961).
    pub momentum: bool,
}

/// One stage of a descent: a neighbourhood, and how many of its configurations to measure.
#[derive(Clone, Copy)]
enum Stage {
    Adjacent,
    Hamming,
    Repair,
}

impl Ils {
    pub fn greedy() -> Ils {
        Ils {
            name: "greedy_ils".into(),
            neighbourhood: Neighbourhood::Hamming,
            perturb: 3,
            temp: 0.0,
            model: false,
            model_rows: 0.0,
            gate: 0.0,
            scan: 0,
            restart: 0,
            init: 0.0,
            init_min: 0,
            noise: 0.0,
            bo: 0.0,
            bo_opt: BayesOpt::default(),
            bo_min: 0,
            bo_max: usize::MAX,
            repair: 0,
            momentum: false,
        }
    }

    pub fn basinhopping() -> Ils {
        Ils {
            name: "basinhopping".into(),
            neighbourhood: Neighbourhood::Adjacent,
            perturb: 2,
            temp: 0.1,
            model: false,
            model_rows: 0.0,
            gate: 0.0,
            scan: 0,
            restart: 0,
            init: 0.0,
            init_min: 0,
            noise: 0.0,
            bo: 0.0,
            bo_opt: BayesOpt::default(),
            bo_min: 0,
            bo_max: usize::MAX,
            repair: 0,
            momentum: false,
        }
    }
}

/// How many of `budget` evaluations the random share measures: the share `init` of it, and
/// where that is on at least `init_min` but never more than half the budget.
pub(crate) fn random_share(init: f64, init_min: usize, budget: usize) -> usize {
    let share = (init * budget as f64).round() as usize;
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

/// Changes `k` parameters of `id` to random levels (a configuration the space holds, 20
/// tries; else a random configuration).
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

impl Ils {
    /// Puts neighbours in the order they are tried: predicted fastest first, or at random;
    /// while the measurements are few, `preds` gets each neighbour's prediction in the new
    /// order for the model's record (empty otherwise, and without a model).
    fn order(
        &self,
        ev: &Evaluator,
        nb: &mut Vec<usize>,
        data: &mut ModelRows,
        record: &ModelRecord,
        preds: &mut Vec<f64>,
        rng: &mut Rng,
    ) {
        preds.clear();
        // Fewer measurements than `model_rows` per level column of the model.
        let few = (ev.used() as f64) < self.model_rows * data.columns() as f64;
        let wanted = self.model && (!few || self.gate > 0.0);
        let model = if wanted { data.fit(ev) } else { None };
        match model {
            Some(m) => {
                let space = ev.space();
                let mut scored: Vec<(f64, usize)> = nb
                    .iter()
                    .map(|&c| {
                        let jitter = if self.noise > 0.0 {
                            self.noise * normal(rng)
                        } else {
                            0.0
                        };
                        (m.predict(space.levels(c)) + jitter, c)
                    })
                    .collect();
                if few && !record.trusted(self.gate) {
                    rng.shuffle(&mut scored);
                } else {
                    scored.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
                }
                nb.clear();
                nb.extend(scored.iter().map(|s| s.1));
                if few {
                    preds.extend(scored.iter().map(|s| s.0));
                }
            }
            None => rng.shuffle(nb),
        }
    }
}

impl Strategy for Ils {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn search(&self, ev: &mut Evaluator, rng: &mut Rng) {
        let space = ev.space();
        let n0 = random_share(self.init, self.init_min, ev.remaining());
        for _ in 0..n0 {
            if random_start(ev, rng).is_none() {
                break;
            }
        }
        if self.bo > 0.0 && ev.budget() >= self.bo_min {
            let mut seen: Vec<(usize, Option<f64>)> = ev
                .evaluated()
                .iter()
                .map(|&id| (id, space.time(id).map(f64::ln)))
                .collect();
            let steps = ((self.bo * ev.budget() as f64).round() as usize).min(self.bo_max);
            let until = ev.used() + steps;
            self.bo_opt.steps(ev, rng, &mut seen, until);
        }
        let Some(mut cur) = ev.best().or_else(|| random_start(ev, rng)) else {
            return;
        };
        let mut home = cur; // the jumping point
        let mut best_seen = f64::INFINITY;
        let mut stale = 0usize;
        let mut nb = Vec::new();
        let mut data = ModelRows::new(space);
        let mut track = ModelRecord::default();
        let mut preds = Vec::new();
        let mut stages = match self.neighbourhood {
            Neighbourhood::Vnd => vec![Stage::Adjacent, Stage::Hamming],
            Neighbourhood::Hamming => vec![Stage::Hamming],
            Neighbourhood::Adjacent => vec![Stage::Adjacent],
        };
        if self.repair > 0 {
            stages.push(Stage::Repair);
        }
        while ev.remaining() > 0 && ev.used() < space.len() {
            // The descent's last improving adjacent move: its parameter and level step.
            let mut last_move: Option<(usize, i64)> = None;
            // First-improvement descent from `cur`.
            'descent: loop {
                for &stage in &stages {
                    nb.clear();
                    match stage {
                        Stage::Adjacent => adjacent(space, cur.0, &mut nb),
                        Stage::Hamming => hamming(space, cur.0, &mut nb),
                        Stage::Repair => repairs(space, cur.0, &mut nb),
                    }
                    nb.retain(|&c| !ev.is_evaluated(c));
                    self.order(ev, &mut nb, &mut data, &track, &mut preds, rng);
                    if let (true, Stage::Adjacent, Some((j, d))) = (self.momentum, stage, last_move)
                    {
                        let l = space.levels(cur.0)[j] as i64;
                        let r = space.radix()[j] as i64;
                        let key = space.key_of(cur.0) as i64;
                        let stride = space.stride(j) as i64;
                        if (0..r).contains(&(l + d)) {
                            if let Some(next) = space.find_key((key + d * stride) as u64) {
                                if let Some(i) = nb.iter().position(|&c| c == next) {
                                    nb[..=i].rotate_right(1);
                                    if i < preds.len() {
                                        preds[..=i].rotate_right(1);
                                    }
                                }
                            }
                        }
                    }
                    let limit = match stage {
                        Stage::Repair => self.repair,
                        _ if self.scan > 0 => self.scan,
                        _ => nb.len(),
                    };
                    for (i, &c) in nb.iter().enumerate().take(limit) {
                        let e = ev.evaluate(c);
                        match (e, preds.get(i)) {
                            (Eval::Time(t), Some(&p)) => track.add(p, t.ln()),
                            (Eval::Failed, Some(&p)) => track.add(p, f64::MAX),
                            _ => {}
                        }
                        match e {
                            Eval::Time(t) if t < cur.1 => {
                                last_move = match stage {
                                    Stage::Adjacent => {
                                        let (a, b) = (space.levels(cur.0), space.levels(c));
                                        a.iter()
                                            .zip(b)
                                            .position(|(x, y)| x != y)
                                            .map(|j| (j, i64::from(b[j]) - i64::from(a[j])))
                                    }
                                    _ => None,
                                };
                                cur = (c, t);
                                continue 'descent;
                            }
                            Eval::Exhausted => return,
                            _ => {}
                        }
                    }
                }
                break;
            }
            // A local minimum: accept it as the jumping point or keep the old one.
            let slowdown = (cur.1 - home.1) / home.1;
            if slowdown <= 0.0 || (self.temp > 0.0 && rng.chance((-slowdown / self.temp).exp())) {
                home = cur;
            }
            let best = ev.best().unwrap_or(home);
            if best.1 < best_seen {
                best_seen = best.1;
                stale = 0;
            } else {
                stale += 1;
            }
            let from = if self.temp > 0.0 { home } else { best };
            let mut next = None;
            if self.restart > 0 && stale >= self.restart {
                stale = 0;
                next = random_start(ev, rng);
                if let Some(n) = next {
                    home = n;
                }
            }
            for _ in 0..50 {
                if next.is_some() {
                    break;
                }
                let c = jump(space, from.0, self.perturb, rng);
                if ev.is_evaluated(c) {
                    continue;
                }
                match ev.evaluate(c) {
                    Eval::Time(t) => {
                        next = Some((c, t));
                        break;
                    }
                    Eval::Failed => {}
                    Eval::Exhausted => return,
                }
            }
            match next.or_else(|| random_start(ev, rng)) {
                Some(n) => cur = n,
                None => return,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Synthetic: x in 0..17 and y in 0..5, time 100 - 5x + y, so every step up in x helps.
    fn ramp() -> SearchSpace {
        use crate::dataset::import::{Config, TuningSpace};
        let mut configs = Vec::new();
        for x in 0..17 {
            for y in 0..5 {
                configs.push(Config {
                    values: vec![x.to_string(), y.to_string()],
                    time_ms: Some(100.0 - 5.0 * f64::from(x) + f64::from(y)),
                    failure: None,
                    counters: vec![],
                });
            }
        }
        let t = TuningSpace {
            tool: "test",
            device: "gpu".into(),
            kernel: "ramp".into(),
            params: vec!["x".into(), "y".into()],
            configs,
            notes: vec![],
        };
        SearchSpace::from_tuning("ramp".into(), &t).unwrap()
    }

    #[test]
    fn momentum_repeats_an_improving_move_first() {
        let space = ramp();
        let st = |momentum| Ils {
            momentum,
            ..Ils::basinhopping()
        };
        // The longest run of measurements each one x-level above the one before, y the same.
        let longest = |momentum, seed| {
            let m = crate::search::run(&space, &st(momentum), 40, seed)
                .unwrap()
                .measured;
            let (mut best, mut run) = (0, 0);
            for w in m.windows(2) {
                let (a, b) = (space.levels(w[0]), space.levels(w[1]));
                run = if b[0] == a[0] + 1 && b[1] == a[1] {
                    run + 1
                } else {
                    0
                };
                best = best.max(run);
            }
            best
        };
        for seed in 0..5 {
            // From a random start the descent, once it has stepped up in x, keeps stepping
            // up in x to the last level (at least 8 in a row from any start below x = 8).
            let start = space.levels(
                crate::search::run(&space, &st(true), 1, seed)
                    .unwrap()
                    .measured[0],
            )[0];
            if start < 8 {
                assert!(
                    longest(true, seed) >= 15 - usize::from(start),
                    "seed {seed}"
                );
            }
        }
        let with: usize = (0..20).map(|s| longest(true, s)).sum();
        let without: usize = (0..20).map(|s| longest(false, s)).sum();
        assert!(
            with > 2 * without,
            "runs in a row: {with} with momentum, {without} without"
        );
    }

    #[test]
    fn the_random_share_is_at_least_its_minimum_and_at_most_half_a_small_budget() {
        // auto's 15% with at least 10: 25 evaluations give 10 (4 from the share alone),
        // 200 give the share's 30, 12 give half, 6.
        assert_eq!(random_share(0.15, 10, 25), 10);
        assert_eq!(random_share(0.15, 0, 25), 4);
        assert_eq!(random_share(0.15, 10, 200), 30);
        assert_eq!(random_share(0.15, 10, 12), 6);
        // Without a random share (greedy_ils, basinhopping) the minimum does not apply.
        assert_eq!(random_share(0.0, 10, 25), 0);
    }

    #[test]
    fn a_small_budget_descends_from_the_best_of_the_minimum_random_share() {
        let space = crate::search::testutil::grid_space();
        let st = |init_min| Ils {
            init: 0.15,
            init_min,
            model: true,
            ..Ils::basinhopping()
        };
        let measured = |s: &Ils| crate::search::run(&space, s, 25, 3).unwrap().measured;
        // The first 4 measurements are the same random draws; the fifth starts the descent
        // with the minimum off and is one more random draw with it on.
        let (off, on) = (measured(&st(0)), measured(&st(10)));
        assert_eq!(off[..4], on[..4]);
        assert_ne!(off[4..10], on[4..10]);
    }

    #[test]
    fn with_few_rows_the_model_orders_only_on_a_good_record() {
        let space = crate::search::testutil::grid_space();
        let st = |model, model_rows, gate| Ils {
            model,
            model_rows,
            gate,
            init: 0.15,
            init_min: 10,
            ..Ils::basinhopping()
        };
        let measured = |s: &Ils| crate::search::run(&space, s, 60, 7).unwrap().measured;
        let unordered = measured(&st(false, 0.0, 0.0));
        // 60 measurements stay under 100 per column of the grid's 26: a record never good
        // enough (no share exceeds 1), or no gate, leaves the order random, as without a model.
        assert_eq!(measured(&st(true, 100.0, 1.0)), unordered);
        assert_eq!(measured(&st(true, 100.0, 0.0)), unordered);
        // From one row per column (26 measurements) the model orders.
        let from_26 = measured(&st(true, 1.0, 1.0));
        assert_eq!(from_26[..26], unordered[..26]);
        assert_ne!(from_26, unordered);
        // The grid's times are nearly additive: the record soon earns the model its order.
        assert_ne!(measured(&st(true, 100.0, 0.65)), unordered);
        // With enough rows per column (any, at 0) the record does not matter.
        assert_eq!(measured(&st(true, 0.0, 1.0)), measured(&st(true, 0.0, 0.0)));
    }
}
