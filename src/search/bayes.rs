//! Bayesian optimisation, in the spirit of Kernel Tuner 1.5.0's `bayes_opt`
//! (strategies/bayes_opt.py: a Gaussian process with a Matern kernel and expected improvement
//! over the space's not-yet-measured configurations), written for advise's evaluator.
//! Features are the parameters' value indices scaled as Kernel Tuner scales them, every
//! parameter's levels one step of 1 / (most levels of any parameter) apart, so that a
//! two-valued switch spans one step (`scale=unit` spreads each parameter over [0, 1], as
//! advise did before 2026-11-28); the target is the log of the time (or, with `target=time`,
//! the time, as Kernel Tuner's; `auto`'s steps use it), standardised, with a failed
//! configuration counted as the slowest time observed so far (`fail=drop` or `fail=weigh`: left
//! out, or left out and each candidate weighed by its chance of running, src/search/bayes/
//! feasibility.rs; `auto`'s steps weigh). After a random initial sample
//! (10% of the budget, at least 5), each step fits a Gaussian process (Matern 5/2, unit
//! signal variance, noise 1e-3; Rasmussen and Williams, "Gaussian Processes for Machine
//! Learning", eq. 4.17 and algorithm 2.1) and measures the candidate of largest expected
//! improvement (xi = 0.01). The length scale is chosen from {0.1, 0.2, 0.4, 0.8} x
//! sqrt(parameters) by marginal likelihood every 10 measurements (`ell=` fixes it); a step
//! whose training rows are the last step's keeps the last fit. To keep the CPU per search
//! bounded, the process is fitted on at most the 100 fastest measurements, and each step
//! scores a fresh seeded sample of 500 unmeasured configurations plus the Hamming neighbours
//! of the best (all unmeasured ones when fewer than 500 remain). With `alt=L` every other
//! step (from a budget of `altfrom=` evaluations) fits with the fixed length scale L instead:
//! `auto`'s steps take Kernel Tuner's 1.5 from 200 evaluations.
//!
//! Kernel Tuner's scaling took this strategy's mean of medians (30 runs, seed 0) over the 15
//! development and 3 history spaces of docs/search-results.md from 0.894 / 0.922 / 0.963 to
//! 0.924 / 0.964 / 0.985 at 1% / 2% / 5%, and over the 16 other public spaces from 0.987 /
//! 0.993 / 0.995 to 0.990 / 0.996 / 0.996 ("Changed a fourth time" there).

use super::evaluator::{Eval, Evaluator};
use super::gp::{matern52, pairwise_squared_distances, Gp, Queries, Rows, Scratch};
use super::neighbours::hamming;
use advise_ml::Rng;
use candidates::corner_candidates;
pub use feasibility::Failures;
use feasibility::Weighing;
use features::inputs;

mod candidates;
mod feasibility;
mod features;
mod strategy;

/// Bayesian-optimisation settings.
#[derive(Debug, Clone)]
pub struct BayesOpt {
    pub init: f64,
    pub candidates: usize,
    pub max_train: usize,
    /// Kernel Tuner's scaling: every parameter's levels one step `1 / (most levels of any
    /// parameter)` apart, so a parameter with few values spans less than [0, 1].
    pub eps_scale: bool,
    /// A fixed length scale (in the scaled features); 0: chosen by marginal likelihood.
    pub fixed_ell: f64,
    /// The target is the time itself (standardised), not its log.
    pub raw_time: bool,
    /// Corners of the box the parameters span (`SearchSpace::corners`) among each step's
    /// candidates: where at most this many are unmeasured, all of them; otherwise twice this
    /// many draws (with replacement) from all corners, the unmeasured ones joining. 0: none.
    pub corners: usize,
    /// Every other step (the odd ones of these steps' count, but for a step that tunes the
    /// length scale) fits with this fixed length scale instead of the chosen one: Kernel
    /// Tuner's `bayes_opt` keeps its Matern kernel's at 1.5 (0: never).
    pub alt_ell: f64,
    /// The smallest budget (evaluations) whose searches take those steps.
    pub alt_from: usize,
    /// What a failed measurement is to the process ([`Failures`]).
    pub failures: Failures,
    /// With [`Failures::Weigh`], the power of the chance of running that weighs a
    /// candidate's expected improvement (1: the chance itself; under 1, a softer weight).
    pub fail_power: f64,
    /// With [`Failures::Weigh`], the length scale of the chance of running, in level steps
    /// (0: the process's own).
    pub fail_ell: f64,
}

impl Default for BayesOpt {
    fn default() -> Self {
        BayesOpt {
            init: 0.1,
            candidates: 500,
            max_train: 100,
            eps_scale: true,
            fixed_ell: 0.0,
            raw_time: false,
            corners: 0,
            alt_ell: 0.0,
            alt_from: 0,
            failures: Failures::Slowest,
            fail_power: 1.0,
            fail_ell: 0.0,
        }
    }
}

/// What the Bayesian steps keep from one call to the next, so that a search calling them
/// now and then (`auto` at each local minimum) tunes the length scale every 10 of its own
/// measurements, not at every call, and reuses a fit whose rows have not changed.
#[derive(Default)]
pub(crate) struct BoMemory {
    /// The length scale last chosen by marginal likelihood.
    ell: Option<f64>,
    /// Measurements these steps have made, in all calls.
    made: usize,
    /// How many there were when the length scale was chosen (`None`: never).
    tuned_at: Option<usize>,
    /// The last fit and the rows it was fitted on: a step whose fastest rows are the same
    /// (a measurement slower than all of them leaves them as they were) refits nothing.
    last: Option<(Vec<(usize, f64)>, Gp)>,
    /// The same for the steps with the alternate length scale ([`BayesOpt::alt_ell`]).
    last_alt: Option<(Vec<(usize, f64)>, Gp)>,
    /// Buffers and the kernel's memo, kept from one call of the steps to the next.
    scratch: Scratch,
    /// Those of the alternate length scale's steps (the kernel's memo holds one scale).
    scratch_alt: Scratch,
    /// Those of the length-scale tuning's four fits, one per scale ([`TUNE_SCALES`]).
    scratch_tune: [Scratch; 4],
}

/// The length scales the marginal likelihood chooses from, times sqrt(parameters).
const TUNE_SCALES: [f64; 4] = [0.1, 0.2, 0.4, 0.8];

impl BayesOpt {
    /// `n` steps more ([`BayesOpt::steps`]) on every measurement the evaluator holds.
    pub(crate) fn more_steps(
        &self,
        ev: &mut Evaluator,
        rng: &mut Rng,
        n: usize,
        memory: &mut BoMemory,
    ) {
        let space = ev.space();
        let mut seen: Vec<(usize, Option<f64>)> = ev
            .evaluated()
            .iter()
            .map(|&id| (id, space.time(id).map(f64::ln)))
            .collect();
        let until = ev.used() + n;
        self.steps(ev, rng, &mut seen, until, memory);
    }

    /// Measures the candidate of largest expected improvement, step after step, until
    /// `until` evaluations are used (or the budget or space ends). `seen` holds the
    /// measurements so far (log time; `None`: failed) and gains every new one.
    pub(crate) fn steps(
        &self,
        ev: &mut Evaluator,
        rng: &mut Rng,
        seen: &mut Vec<(usize, Option<f64>)>,
        until: usize,
        memory: &mut BoMemory,
    ) {
        let space = ev.space();
        let radix = space.radix();
        let p = space.n_params();
        let scale = (p.max(1) as f64).sqrt();
        let mut ell = if self.fixed_ell > 0.0 {
            self.fixed_ell
        } else {
            memory.ell.unwrap_or(0.2 * scale)
        };
        let eps = if self.eps_scale {
            1.0 / radix.iter().copied().max().unwrap_or(1).max(1) as f64
        } else {
            0.0
        };
        // The square of the inputs' step: level indices are `eps` apart in Kernel Tuner's
        // scaling (whole squared distances, which the kernel's memo indexes directly).
        let step2 = if eps > 0.0 { eps * eps } else { 1.0 };
        // Those indices as 16-bit whole numbers where every squared distance of the space fits:
        // the same kernel values, summed sixteen to a vector.
        let whole = eps > 0.0 && Rows::levels_fit(radix);
        let BoMemory {
            ell: kept_ell,
            made,
            tuned_at,
            last,
            last_alt,
            scratch,
            scratch_alt,
            scratch_tune,
        } = memory;
        let mut queries = Vec::new();
        let mut query_levels = Vec::new();
        let mut cands = Vec::new();
        let mut weights = Vec::new();
        let mut weighing = Weighing::default();
        while ev.remaining() > 0 && ev.used() < space.len() && ev.used() < until {
            *made += 1;
            let worst = seen.iter().filter_map(|s| s.1).fold(f64::MIN, f64::max);
            if worst == f64::MIN {
                // Nothing succeeded yet: keep sampling at random.
                let id = ev.random_unmeasured(rng);
                match ev.evaluate(id) {
                    Eval::Time(t) => seen.push((id, Some(t.ln()))),
                    Eval::Failed => seen.push((id, None)),
                    Eval::Exhausted => return,
                }
                continue;
            }
            let mut train: Vec<(usize, f64)> = if self.failures == Failures::Slowest {
                seen.iter()
                    .map(|&(id, y)| (id, y.unwrap_or(worst)))
                    .collect()
            } else {
                seen.iter()
                    .filter_map(|&(id, y)| y.map(|y| (id, y)))
                    .collect()
            };
            // The fastest rows, fastest first (a total order: indices are distinct).
            let order =
                |a: &(usize, f64), b: &(usize, f64)| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0));
            if train.len() > self.max_train {
                train.select_nth_unstable_by(self.max_train, order);
                train.truncate(self.max_train);
            }
            train.sort_unstable_by(order);
            if self.raw_time {
                for t in &mut train {
                    t.1 = t.1.exp();
                }
            }
            let mean = train.iter().map(|t| t.1).sum::<f64>() / train.len() as f64;
            let sd = (train.iter().map(|t| (t.1 - mean).powi(2)).sum::<f64>() / train.len() as f64)
                .sqrt()
                .max(1e-9);
            let y: Vec<f64> = train.iter().map(|t| (t.1 - mean) / sd).collect();
            let best_y = y[0];
            // Every 10 of these steps' measurements, the length scale of largest marginal
            // likelihood; its fit is the step's. Otherwise the last fit serves again where its
            // rows are these, bit for bit, with the same length scale: a fresh fit would be the
            // same.
            let tune = self.fixed_ell == 0.0 && tuned_at.is_none_or(|at| *made >= at + 10);
            let alt_step =
                self.alt_ell > 0.0 && ev.budget() >= self.alt_from && *made % 2 == 1 && !tune;
            let (step_ell, kept, step_scratch) = if alt_step {
                (self.alt_ell, &mut *last_alt, &mut *scratch_alt)
            } else {
                (ell, &mut *last, &mut *scratch)
            };
            let same = |rows: &[(usize, f64)], gp: &Gp| {
                gp.ell.to_bits() == step_ell.to_bits()
                    && rows.len() == train.len()
                    && rows
                        .iter()
                        .zip(&train)
                        .all(|(a, b)| a.0 == b.0 && a.1.to_bits() == b.1.to_bits())
            };
            let gp = match kept.take() {
                Some((rows, gp)) if !tune && same(&rows, &gp) => gp,
                _ => {
                    let size = train.len() * p;
                    let (mut numbers, mut levels) = if whole {
                        (Vec::new(), Vec::with_capacity(size))
                    } else {
                        (Vec::with_capacity(size), Vec::new())
                    };
                    for t in &train {
                        inputs(space, (radix, eps, whole), t.0, &mut numbers, &mut levels);
                    }
                    let x = if whole {
                        Rows::Levels(levels)
                    } else {
                        Rows::Numbers(numbers)
                    };
                    let fitted = if tune {
                        *tuned_at = Some(*made);
                        let d2 = pairwise_squared_distances(&x, p, y.len());
                        let tuned = TUNE_SCALES
                            .iter()
                            .zip(scratch_tune.iter_mut())
                            .filter_map(|(&c, memo)| {
                                Gp::fit_memo_with(x.clone(), p, step2, &d2, &y, c * scale, memo)
                            })
                            .max_by(|a, b| a.1.total_cmp(&b.1));
                        if let Some((gp, _)) = &tuned {
                            ell = gp.ell;
                            *kept_ell = Some(ell);
                        }
                        tuned.or_else(|| Gp::fit(x, p, step2, &y, ell))
                    } else {
                        Gp::fit_memo(x, p, step2, &y, step_ell, step_scratch)
                    };
                    let Some((gp, _)) = fitted else {
                        return;
                    };
                    gp
                }
            };
            // Candidates: a seeded sample of unmeasured configurations and the best's neighbours.
            cands.clear();
            let unmeasured = space.len() - ev.used();
            if unmeasured <= self.candidates {
                cands.extend((0..space.len()).filter(|&i| !ev.is_evaluated(i)));
            } else {
                for _ in 0..2 * self.candidates {
                    let i = rng.below(space.len());
                    if !ev.is_evaluated(i) {
                        cands.push(i);
                        if cands.len() == self.candidates {
                            break;
                        }
                    }
                }
                hamming(space, train[0].0, &mut cands);
                if self.corners > 0 {
                    corner_candidates(ev, rng, self.corners, &mut cands);
                }
                cands.retain(|&i| !ev.is_evaluated(i));
            }
            queries.clear();
            query_levels.clear();
            for &c in &cands {
                inputs(
                    space,
                    (radix, eps, whole),
                    c,
                    &mut queries,
                    &mut query_levels,
                );
            }
            let qs = if whole {
                Queries::Levels(&query_levels)
            } else {
                Queries::Numbers(&queries)
            };
            if self.failures == Failures::Weigh {
                // The chance's length scale in level steps, or the process's.
                let (ell_w, step_w) = if self.fail_ell > 0.0 {
                    (self.fail_ell, 1.0)
                } else {
                    (gp.ell, step2)
                };
                // Each candidate's chance of running, from the distances of its level indices
                // to every measurement (in the vector loops where they fit 16 bits).
                weighing.weigh(
                    space,
                    seen,
                    (&cands, whole.then_some(&query_levels[..])),
                    (ell_w, |d2| matern52(d2 * step_w, ell_w)),
                    &mut weights,
                );
                if self.fail_power != 1.0 {
                    for w in &mut weights {
                        *w = w.powf(self.fail_power);
                    }
                }
            }
            let w = (self.failures == Failures::Weigh).then_some(&weights[..]);
            let pick = gp
                .pick_by_expected_improvement(qs, cands.len(), (best_y, 0.01), w, step_scratch)
                .map(|q| cands[q]);
            let id = pick.unwrap_or_else(|| ev.random_unmeasured(rng));
            *kept = Some((train, gp));
            match ev.evaluate(id) {
                Eval::Time(t) => seen.push((id, Some(t.ln()))),
                Eval::Failed => seen.push((id, None)),
                Eval::Exhausted => return,
            }
        }
    }
}

#[cfg(test)]
mod tests;
