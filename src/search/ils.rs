//! Iterated local search, after Kernel Tuner 1.5.0's `greedy_ils` (strategies/greedy_ils.py)
//! and `basinhopping` (strategies/basinhopping.py): descend from a start by first improvement
//! over a neighbourhood (neighbours in random order, or in the order a main-effects model
//! predicts), and at a local minimum jump: change `perturb` parameters of the best
//! configuration at random and descend again. Basin hopping accepts the new local minimum as
//! the next jumping point with the Metropolis rule on the relative slowdown at temperature
//! `temp` (scipy.optimize.basinhopping's acceptance test); greedy ILS (`temp = 0`) always
//! jumps from the best. Both stop when the budget is spent, unlike scipy's basinhopping, which
//! Kernel Tuner lets end early.

use super::bayes::{BayesOpt, BoMemory};
use super::configuration_set::ConfigurationSet;
use super::evaluator::{Eval, Evaluator};
use super::mirror::{gemm_mirror_pairs, measure_transpose, mirror_pairs};
use super::model_rows::{ModelRecord, ModelRows};
use super::neighbours::{adjacent, adjacent_step, hamming, stepped, twin_steps};
use super::Strategy;
use advise_ml::Rng;
use far_starts::FarStarts;
use monotone::MonotoneParameters;
use neighbourhood::{faster_measured, mean_single_changes, repairs_to_measure, RepairMemo};
pub use neighbourhood::{FreeMoves, Neighbourhood};
use offspring::{measure_offspring, offspring_count};
use restart::{measure_jump, measure_random_share, random_share, random_start};

/// Iterated-local-search settings.
#[derive(Debug, Clone)]
pub struct Ils {
    pub name: String,
    pub neighbourhood: Neighbourhood,
    /// Parameters a jump draws and sets to random levels (at most this many change; see
    /// `restart::jump`).
    pub perturb: usize,
    /// Metropolis temperature on the relative slowdown of a new local minimum (0: greedy).
    pub temp: f64,
    /// Order neighbours by a main-effects model of log time instead of at random.
    pub model: bool,
    /// Fewest measurements per level column of that model before it orders neighbours
    /// (random order before; 0: the model orders from the first descent).
    pub model_rows: f64,
    /// Below `model_rows` measurements per column, the model still orders neighbours where
    /// its track record (`ModelRecord`) ranks more than this share of measured pairs alike
    /// (0: never).
    pub gate: f64,
    /// Most unimproving neighbours measured in one descent step (0: all).
    pub scan: usize,
    /// Most neighbours of the Hamming stage that change any one parameter, the first in the
    /// model's order (0: all; `cap_lines` in src/search/ils/neighbourhood.rs).
    pub line_cap: usize,
    /// With `line_cap`, only the lines of parameters whose measured levels one step either
    /// way are within this share of the configuration's time are cut (0: every line).
    pub line_flat: f64,
    /// Jumps in a row that do not improve the best before a restart from a fresh random
    /// configuration (0: never restart).
    pub restart: usize,
    /// Local minima in a row that do not improve the best before the descent starts again
    /// from the fastest measured configuration that differs from the best in at least half
    /// the parameters, each such configuration once (`FarStarts`; 0: never).
    pub rebest: usize,
    /// Share of the budget measured at random before the first descent, which starts from
    /// the fastest of them.
    pub init: f64,
    /// Fewest configurations that random share measures where it is on (`init` > 0), at most
    /// half the budget: a small budget's share would leave the descent a start drawn from 3
    /// or 4 configurations.
    pub init_min: usize,
    /// Most configurations that random share measures (0: no cap).
    pub init_max: usize,
    /// Share of the budget bred from the fastest of the random share instead of drawn at
    /// random, at most all of it over `offspring_keep` configurations, and only where the
    /// share is under `init_max` (`offspring::offspring_count`; 0: none).
    pub offspring: f64,
    /// Random configurations kept before any are bred.
    pub offspring_keep: usize,
    /// Draws per random-share configuration after the first, the farthest kept (1: one draw).
    pub spread: usize,
    /// Noise added to the model's predictions (standard deviations of log time), so that
    /// repeated runs do not all follow the same path.
    pub noise: f64,
    /// Share of the budget spent, after the random share, on Bayesian-optimisation steps
    /// (a Gaussian process and expected improvement, `BayesOpt::steps`) before the first
    /// descent (0: none).
    pub bo: f64,
    /// The Bayesian-optimisation phase's settings (candidates scored per step, most rows).
    pub bo_opt: BayesOpt,
    /// Smallest budget (evaluations) that gets the Bayesian-optimisation phase.
    pub bo_min: usize,
    /// Largest budget (evaluations) that gets Bayesian-optimisation steps, the phase's and
    /// the jumps' (0: any): their CPU is the same whatever the budget, their share of it
    /// shrinks as it grows.
    pub bo_budget: usize,
    /// Most Bayesian-optimisation steps (they cost far more CPU than the local search's).
    pub bo_max: usize,
    /// Where the configurations measured before the Bayesian phase (the random share) hold
    /// on average at least this many single changes per evaluation of the budget (checking
    /// one local minimum would cost that share of it), the phase takes `bo_wide` of the
    /// budget, at most `bo_wide_max` steps, instead of `bo` and `bo_max` (0: never).
    pub bo_wide_at: f64,
    /// The Bayesian phase's share of the budget where the neighbourhood is wide.
    pub bo_wide: f64,
    /// Its most steps there.
    pub bo_wide_max: usize,
    /// Repairs ([`repairs`](super::neighbours::repairs)) measured per descent step, in the
    /// model's order, where the other neighbourhoods find nothing faster (0: no repair stage).
    pub repair: usize,
    /// Where the single changes find nothing faster, twin parameters at the same level moved
    /// one level together ([`twin_steps`]), before the repairs.
    pub twins: bool,
    /// The fewest neighbours a local minimum of the single-change neighbourhoods is checked
    /// against: where the space holds fewer single changes of it, up to that many more
    /// repairs are measured (at least `repair`; 0: `repair` alone). In a sparse space (gemm
    /// on an A100 holds 1.5% of its combinations; a configuration has 1.7 of its 25 single
    /// changes on average) one repair a step leaves most local minima unchecked.
    pub repair_floor: usize,
    /// After an adjacent move that improved, try the same move again first (a pattern move,
    /// after Hooke and Jeeves, "Direct search solution of numerical and statistical
    /// problems", 1961).
    pub momentum: bool,
    /// Bayesian-optimisation steps measured at each local minimum before the jump (0: none);
    /// where one finds a faster configuration than the best, the descent goes on from it.
    pub bo_jump: usize,
    /// Most Bayesian-optimisation steps in one search, the first phase's included.
    pub bo_jump_max: usize,
    /// At a local minimum, before a random jump, its transpose (every x and y pair of
    /// parameters' values swapped, and every M and N pair of a matrix multiply's:
    /// `mirror::transposed`) where the space holds it unmeasured, in searches of at least
    /// `mirror_from` evaluations.
    pub mirror: bool,
    pub mirror_from: usize,
    /// The smallest budget whose searches transpose a matrix multiply's M and N pairs alone
    /// (`mirror::gemm_mirror_pairs`), where it is under `mirror_from`.
    pub mirror_gemm_from: usize,
    /// Stop once this share of the budget, and at least `stall_min` evaluations, passed
    /// without a new best (checked at each local minimum; 0: spend the whole budget).
    pub stall: f64,
    pub stall_min: usize,
    /// Which descent stages move to a faster measured neighbour without measuring.
    pub free_moves: FreeMoves,
    /// Share of the space (all its entries, failures too) measured before free moves start
    /// (0: from the first descent). Early free moves pull descents into the few basins
    /// measured so far; once the measured share is dense, descents that rejoin a known basin
    /// otherwise spend their measurements on its rim.
    pub free_from: f64,
    /// Pairs of measured configurations one change of a parameter apart, at least this many
    /// nearly all agreeing which way it makes configurations faster, make it monotone
    /// (`MonotoneParameters`, src/search/ils/monotone.rs): no descent step or jump moves it
    /// the other way, and the adjacent stage first tries the farthest level its way (0:
    /// never).
    pub monotone: u32,
}

/// One stage of a descent: a neighbourhood, and how many of its configurations to measure.
#[derive(Clone, Copy)]
enum Stage {
    Adjacent,
    Hamming,
    Twin,
    Repair,
}

impl Strategy for Ils {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn repairs(&self) -> bool {
        self.repair > 0
    }

    fn search(&self, ev: &mut Evaluator, rng: &mut Rng) {
        let space = ev.space();
        let n0 = random_share(self.init, self.init_min, self.init_max, ev.remaining());
        let (m, k) = (self.offspring, self.offspring_keep);
        let bred = offspring_count(m, k, n0, self.init_max, ev.budget());
        measure_random_share(ev, rng, n0 - bred, self.spread);
        measure_offspring(ev, rng, bred);
        let mut bo_memory = BoMemory::default();
        let mut jump_steps = 0;
        let mirrors = if !self.mirror {
            Vec::new()
        } else if ev.budget() >= self.mirror_from {
            mirror_pairs(space)
        } else if ev.budget() >= self.mirror_gemm_from {
            gemm_mirror_pairs(space)
        } else {
            Vec::new()
        };
        if self.bo > 0.0 && self.bayesian_budget(ev.budget()) {
            let (share, most) = if self.bo_wide_at > 0.0
                && mean_single_changes(ev) >= self.bo_wide_at * ev.budget() as f64
            {
                (self.bo_wide, self.bo_wide_max)
            } else {
                (self.bo, self.bo_max)
            };
            let steps = ((share * ev.budget() as f64).round() as usize).min(most);
            jump_steps = steps;
            self.bo_opt.more_steps(ev, rng, steps, &mut bo_memory);
        }
        let Some(mut cur) = ev.best().or_else(|| random_start(ev, rng)) else {
            return;
        };
        let mut home = cur; // the jumping point
        let mut best_seen = f64::INFINITY;
        let mut stale = 0usize;
        let mut far_starts = FarStarts::default();
        let mut nb = Vec::new();
        let mut repair_memo = RepairMemo::default();
        // The configurations whose every neighbour a descent has measured, none faster (with
        // free moves on, once they had started): a descent that comes back to one (a free
        // move, a new start from a measured configuration) would find nothing to measure and
        // nothing to move to, and goes straight to the jump.
        let mut settled = ConfigurationSet::new(space.len());
        let mut data = ModelRows::new(space);
        let mut mono = MonotoneParameters::new(space, self.monotone);
        let mut track = ModelRecord::default();
        let mut preds = Vec::new();
        let mut stages = match self.neighbourhood {
            Neighbourhood::Vnd => vec![Stage::Adjacent, Stage::Hamming],
            Neighbourhood::Hamming => vec![Stage::Hamming],
            Neighbourhood::Adjacent => vec![Stage::Adjacent],
        };
        if self.twins {
            stages.push(Stage::Twin);
        }
        if self.repair > 0 {
            stages.push(Stage::Repair);
        }
        let stall = if self.stall > 0.0 {
            ((self.stall * ev.budget() as f64).ceil() as usize).max(self.stall_min)
        } else {
            usize::MAX
        };
        while ev.remaining() > 0 && ev.used() < space.len() && ev.since_best() < stall {
            // The descent's last improving adjacent move: its parameter and level step.
            let mut last_move: Option<(usize, i64)> = None;
            // First-improvement descent from `cur`.
            'descent: loop {
                if settled.contains(cur.0) {
                    break;
                }
                // Single changes the space holds of `cur` (known after the Hamming stage).
                let mut singles = usize::MAX;
                // Whether every stage measures all its neighbours of `cur` this pass; and
                // whether free moves, where they are on, have started (a configuration settled
                // before then may still have a faster measured neighbour to move to).
                let mut whole = self.free_moves == FreeMoves::Off || self.frees_now(ev);
                for &stage in &stages {
                    nb.clear();
                    match stage {
                        Stage::Adjacent => adjacent(space, cur.0, &mut nb),
                        Stage::Hamming => {
                            hamming(space, cur.0, &mut nb);
                            singles = nb.len();
                        }
                        Stage::Twin => twin_steps(space, cur.0, &mut nb),
                        Stage::Repair => repair_memo.repairs(space, cur.0, &mut nb),
                    }
                    let free = match self.free_moves {
                        FreeMoves::Off => false,
                        FreeMoves::Adjacent => matches!(stage, Stage::Adjacent),
                        FreeMoves::All => true,
                    } && self.frees_now(ev);
                    if let Some(known) = free.then(|| faster_measured(ev, &nb, cur.1)).flatten() {
                        last_move = None;
                        cur = known;
                        continue 'descent;
                    }
                    nb.retain(|&c| !ev.is_evaluated(c));
                    if matches!(stage, Stage::Adjacent | Stage::Hamming) {
                        whole &= !self.keep_monotone_ways(ev, cur.0, &mut nb, &mut mono);
                    }
                    if nb.is_empty() {
                        continue;
                    }
                    self.order(ev, &mut nb, &mut data, &track, &mut preds, rng);
                    // The pattern move: the last improving step again, first.
                    if let (true, Stage::Adjacent, Some((j, d))) = (self.momentum, stage, last_move)
                    {
                        let again = stepped(space, cur.0, j, d);
                        if let Some(i) = nb.iter().position(|&c| Some(c) == again) {
                            nb[..=i].rotate_right(1);
                            if i < preds.len() {
                                preds[..=i].rotate_right(1);
                            }
                        }
                    }
                    if matches!(stage, Stage::Adjacent) {
                        self.leap_first(ev, cur.0, &mut nb, &mut preds, &mono);
                    }
                    if matches!(stage, Stage::Hamming) {
                        whole &= !self.cap_hamming_lines(ev, cur.0, &mut nb, &mut preds);
                    }
                    let limit = match stage {
                        Stage::Repair => {
                            repairs_to_measure(self.repair, self.repair_floor, singles)
                        }
                        _ if self.scan > 0 => self.scan,
                        _ => nb.len(),
                    };
                    whole &= limit >= nb.len();
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
                                    Stage::Adjacent if self.momentum => {
                                        adjacent_step(space, cur.0, c)
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
                if whole {
                    settled.insert(cur.0);
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
            if self.bo_jump > 0
                && self.bayesian_budget(ev.budget())
                && jump_steps < self.bo_jump_max
                && ev.remaining() > 0
            {
                let n = self.bo_jump.min(self.bo_jump_max - jump_steps);
                jump_steps += n;
                self.bo_opt.more_steps(ev, rng, n, &mut bo_memory);
                if let Some(b) = ev.best().filter(|b| b.1 < best.1) {
                    (next, home) = (Some(b), b);
                }
            }
            if self.rebest > 0 && stale >= self.rebest && next.is_none() {
                stale = 0;
                if let Some(b) = far_starts.next(ev, best.0) {
                    (next, home) = (Some(b), b);
                }
            }
            if self.restart > 0 && stale >= self.restart {
                stale = 0;
                next = random_start(ev, rng);
                if let Some(n) = next {
                    home = n;
                }
            }
            if next.is_none() {
                match measure_transpose(ev, cur.0, &mirrors) {
                    Some((t, Eval::Time(time))) => next = Some((t, time)),
                    Some((_, Eval::Exhausted)) => return,
                    _ => {}
                }
            }
            if next.is_none() {
                match measure_jump(ev, from.0, self.perturb, rng, &mut mono) {
                    Some(jumped) => next = jumped,
                    None => return,
                }
            }
            match next.or_else(|| random_start(ev, rng)) {
                Some(n) => cur = n,
                None => return,
            }
        }
    }
}

mod far_starts;
mod kernel_tuner;
mod monotone;
mod neighbourhood;
mod offspring;
mod restart;
#[cfg(test)]
mod tests;
