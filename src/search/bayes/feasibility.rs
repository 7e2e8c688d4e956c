//! How a failed measurement enters the Bayesian steps. Kernel Tuner's `bayes_opt` (and these
//! steps by default, `fail=slowest`) count a failed configuration as the slowest time seen.
//! Where half the measurements failed, half the process's rows then hold that one slow value
//! and the times of the configurations that ran differ little beside it: the process learns
//! where configurations fail more than which of those that run are fast. The alternative is
//! Gelbart, Snoek and Adams's ("Bayesian Optimization with Unknown Constraints", UAI 2014):
//! the time's process learns from the configurations that ran (`fail=drop`), and the expected
//! improvement of a candidate is weighed by its probability of running (`fail=weigh`), here a
//! kernel-weighted share of the measurements near it that ran (Nadaraya and Watson's
//! estimate, with the process's kernel, or one of `failell` level steps, and the share of all
//! measurements that ran as one pseudo-measurement), raised to `failpow`.
//!
//! `auto` weighs, with the square root of that chance (docs/search-results.md, "Failed
//! configurations out of the Bayesian steps' process"): over ten seed sets of 100 runs on the
//! 21 real spaces of the sweeps where some configurations fail (the other 59 are searched bit
//! for bit as before), the mean of the medians goes from 0.9205 to 0.9247 at 1%, 0.9664 to
//! 0.9648 at 2% and 0.9850 to 0.9904 at 5% (a convolution on an MI50 at 5%, half of whose
//! configurations fail, 0.756 -> 0.878; a convolution on an A100 at 2%, a coin toss between
//! two levels, 0.867 -> 0.822, with 51% of 2,000 runs on the upper level instead of 53%). The
//! weights themselves do little: on a SYNTHETIC space whose optimum is next to a wall of
//! failures, Bayesian optimisation measured 431 failures in 600 evaluations with them, 456
//! with the failures dropped and 99 with the slowest time; on the real spaces they mostly
//! take back what dropping costs the pnpoly spaces at 1% (their runs' mean -0.015 dropped,
//! -0.007 weighed). They cost about 0.4 ms of CPU a search at 5% on those spaces (0.70 ->
//! 1.14 ms), and nothing where nothing failed.

use super::super::gp::{level_distances_into, KernelMemo};
use super::super::space::SearchSpace;

/// What the steps do with a failed measurement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failures {
    /// It counts as the slowest time seen (Kernel Tuner's way).
    Slowest,
    /// The process learns from the ones that ran only.
    Drop,
    /// As `Drop`, and each candidate's expected improvement is weighed by its estimated
    /// probability of running.
    Weigh,
}

impl Failures {
    /// The option's value, as `fail=` takes it.
    pub fn parse(v: &str) -> Option<Failures> {
        match v {
            "slowest" => Some(Failures::Slowest),
            "drop" => Some(Failures::Drop),
            "weigh" => Some(Failures::Weigh),
            _ => None,
        }
    }
}

/// Each of `c` candidates' estimated probability of running, in `out`: the kernel-weighted
/// share of the measurements that ran, with one pseudo-measurement of the share of all of them
/// that ran. `ran` says whether each of the `n` measurements ran, `d2` (`n x c`, row-major)
/// holds the squared distances of level indices between them and the candidates, and
/// `kernel` gives the kernel's value at one. Where nothing failed every weight is 1 and
/// nothing is computed.
pub(super) fn running_chance<T: Copy + Into<u32>>(
    ran: &[bool],
    d2: &[T],
    c: usize,
    mut kernel: impl FnMut(u32) -> f64,
    out: &mut Vec<f64>,
) {
    out.clear();
    let failed = ran.iter().filter(|r| !**r).count();
    if failed == 0 {
        out.resize(c, 1.0);
        return;
    }
    let prior = 1.0 - failed as f64 / ran.len() as f64;
    // Two sums per candidate: the weight of all measurements and of those that ran.
    let mut all = vec![1.0; c];
    out.resize(c, prior);
    let mut row_k = vec![0.0; c];
    for (&r, row) in ran.iter().zip(d2.chunks_exact(c.max(1))) {
        for (k, &d) in row_k.iter_mut().zip(row) {
            *k = kernel(d.into());
        }
        for (a, &k) in all.iter_mut().zip(&row_k) {
            *a += k;
        }
        if r {
            for (y, &k) in out.iter_mut().zip(&row_k) {
                *y += k;
            }
        }
    }
    for (y, a) in out.iter_mut().zip(&all) {
        *y /= a;
    }
}

/// The squared distances of level indices between each of the configurations `rows` and each
/// of `cands`, `rows.len() x cands.len()`, row-major, one pair at a time (where they may not
/// fit the 16 bits of [`super::super::gp::level_distances_into`]).
pub(super) fn level_distances<'a>(
    rows: impl Iterator<Item = &'a [u16]>,
    cands: &[&[u16]],
    out: &mut Vec<u32>,
) {
    out.clear();
    for row in rows {
        out.extend(cands.iter().map(|at| {
            row.iter()
                .zip(*at)
                .map(|(&a, &b)| {
                    let d = u32::from(a.abs_diff(b));
                    d * d
                })
                .sum::<u32>()
        }));
    }
}

/// What the weights of one call of the steps keep from step to step: the measurements' level
/// indices and whether each ran (the steps only add measurements), the distances' buffers and
/// the kernel's values by distance.
#[derive(Default)]
pub(super) struct Weighing {
    levels: Vec<u16>,
    ran: Vec<bool>,
    t16: Vec<u16>,
    d16: Vec<u16>,
    d32: Vec<u32>,
    memo: KernelMemo,
}

impl Weighing {
    /// Each candidate's chance of running ([`running_chance`]) given the measurements `seen`
    /// (which hold those of the last call and more after them), in `out`. `cands` are the
    /// candidates and, where every squared distance of the space fits 16 bits, their level
    /// indices, flat; `kernel` gives the kernel's value at a squared distance of level
    /// indices for length scale `ell`.
    pub(super) fn weigh(
        &mut self,
        space: &SearchSpace,
        seen: &[(usize, Option<f64>)],
        (cands, cand_levels): (&[usize], Option<&[u16]>),
        (ell, kernel): (f64, impl Fn(f64) -> f64),
        out: &mut Vec<f64>,
    ) {
        let (p, c) = (space.n_params(), cands.len());
        for &(id, y) in seen.get(self.ran.len()..).unwrap_or_default() {
            self.levels.extend_from_slice(space.levels(id));
            self.ran.push(y.is_some());
        }
        if p == 0 || self.ran.iter().all(|&r| r) {
            out.clear();
            out.resize(c, 1.0);
            return;
        }
        // The kernel's values by distance, once per length scale: 16-bit distances from the
        // memo's direct table, filled first, then looked up; others one at a time.
        let memo = &mut self.memo;
        memo.for_length_scale(ell);
        match cand_levels {
            Some(q) => {
                let shape = (self.ran.len(), p, c);
                level_distances_into((&self.levels, q), shape, &mut self.t16, &mut self.d16);
                let table = memo.direct_table(self.d16.iter().map(|&d| usize::from(d)), kernel);
                running_chance(&self.ran, &self.d16, c, |d| table[d as usize], out);
            }
            None => {
                let at: Vec<&[u16]> = cands.iter().map(|&i| space.levels(i)).collect();
                level_distances(self.levels.chunks_exact(p), &at, &mut self.d32);
                let kernel = |d: u32| memo.get(f64::from(d), &kernel);
                running_chance(&self.ran, &self.d32, c, kernel, out);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_candidate_next_to_failures_weighs_less_than_one_next_to_runs() {
        // One parameter of 12 levels: failures at its high end, runs at its low end.
        let rows: Vec<[u16; 1]> = (0..12).map(|l| [l]).collect();
        let seen = [11, 10, 0, 1];
        let ran = [false, false, true, true];
        let distances = |cands: &[usize]| {
            let at: Vec<&[u16]> = cands.iter().map(|&c| &rows[c][..]).collect();
            let mut d2 = Vec::new();
            level_distances(seen.iter().map(|&i| &rows[i][..]), &at, &mut d2);
            d2
        };
        let kernel = |d2: u32| (-f64::from(d2) / 2.0).exp();
        let mut w = Vec::new();
        running_chance(&ran, &distances(&[9, 2]), 2, kernel, &mut w);
        assert!(w[0] < 0.3, "next to failures: {}", w[0]);
        assert!(w[1] > 0.7, "next to runs: {}", w[1]);
        assert_eq!(distances(&[9, 2]), vec![4, 81, 1, 64, 81, 4, 64, 1]);
        // Far from everything: the share of all measurements that ran.
        running_chance(&ran, &distances(&[5]), 1, |_| 0.0, &mut w);
        assert_eq!(w, vec![0.5]);
        // Nothing failed: every weight is 1.
        running_chance(&[true; 4], &distances(&[9, 3]), 2, kernel, &mut w);
        assert_eq!(w, vec![1.0, 1.0]);
        assert_eq!(Failures::parse("weigh"), Some(Failures::Weigh));
        assert_eq!(Failures::parse("nope"), None);
    }
}
