//! The Gaussian process of Bayesian optimisation ([`super::bayes`]): Matern 5/2 kernel, unit
//! signal variance, noise 1e-3 (Rasmussen and Williams, "Gaussian Processes for Machine
//! Learning", eq. 4.17 and algorithm 2.1), fitted by a Cholesky factorisation, and the pick of
//! the candidate of largest expected improvement, which solves for the standard deviation only
//! where a candidate's bound could win and takes the kernel's values from a memo by distance
//! ([`memo`]); the pick is the one scoring every candidate would make, bit for bit.

use advise_ml::Cholesky;
pub(crate) use inputs::{level_distances_into, pairwise_squared_distances, Queries, Rows};
use inputs::{pairwise_into, Distances};
pub(crate) use memo::KernelMemo;

mod columns;
mod inputs;
mod memo;

/// The Matern 5/2 kernel (unit signal variance) at squared distance `d2`: with the scaled
/// distance r = sqrt(5) |x - x'| / ell, (1 + r + r^2 / 3) e^-r.
pub(crate) fn matern52(d2: f64, ell: f64) -> f64 {
    let r = 5f64.sqrt() * d2.sqrt() / ell;
    (1.0 + r + r * r / 3.0) * (-r).exp()
}

/// Standard normal cdf (Abramowitz and Stegun 7.1.26, error below 1.5e-7) and pdf.
pub(crate) fn phi_cdf(z: f64) -> f64 {
    let x = z.abs() / 2f64.sqrt();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let erf = 1.0 - poly * (-x * x).exp();
    if z >= 0.0 {
        0.5 * (1.0 + erf)
    } else {
        0.5 * (1.0 - erf)
    }
}

pub(crate) fn phi_pdf(z: f64) -> f64 {
    (-0.5 * z * z).exp() / (2.0 * std::f64::consts::PI).sqrt()
}

/// A fitted process: its `n` training rows of `p` features each, flat in `x`, in steps whose
/// square is `step2` (1: the features are the scaled inputs; Kernel Tuner's scaling passes
/// level indices, whose squared distances are whole numbers, and the square of its step).
pub(crate) struct Gp {
    x: Rows,
    p: usize,
    step2: f64,
    chol: Cholesky,
    alpha: Vec<f64>,
    pub(crate) ell: f64,
}

impl Gp {
    /// Fits on (x, y), `x` holding one row of `p` features per target in steps of square
    /// `step2`; also returns the log marginal likelihood.
    pub(crate) fn fit(x: Rows, p: usize, step2: f64, y: &[f64], ell: f64) -> Option<(Gp, f64)> {
        let d2 = pairwise_squared_distances(&x, p, y.len());
        let mut k = Vec::new();
        Gp::fit_by(x, p, step2, &d2, y, ell, &mut k, |d2| {
            matern52(d2 * step2, ell)
        })
    }

    /// [`Gp::fit`], the kernel's values taken from `scratch`'s memo ([`memo`]): the same fit,
    /// bit for bit, for fewer exponentials where the memo holds this length scale's values.
    pub(crate) fn fit_memo(
        x: Rows,
        p: usize,
        step2: f64,
        y: &[f64],
        ell: f64,
        scratch: &mut Scratch,
    ) -> Option<(Gp, f64)> {
        let mut d2 = std::mem::take(&mut scratch.pairs);
        pairwise_into(&x, p, y.len(), &mut scratch.dist, &mut d2);
        let fitted = Gp::fit_memo_with(x, p, step2, &d2, y, ell, scratch);
        scratch.pairs = d2;
        fitted
    }

    /// [`Gp::fit_memo`] on the rows' squared distances `d2` ([`pairwise_squared_distances`]),
    /// computed once for the fits of several length scales.
    pub(crate) fn fit_memo_with(
        x: Rows,
        p: usize,
        step2: f64,
        d2: &[f64],
        y: &[f64],
        ell: f64,
        scratch: &mut Scratch,
    ) -> Option<(Gp, f64)> {
        let memo = &mut scratch.memo;
        memo.for_length_scale(ell);
        Gp::fit_by(x, p, step2, d2, y, ell, &mut scratch.kernel, |d2| {
            memo.get(d2, |d| matern52(d * step2, ell))
        })
    }

    /// The fit with `kernel` giving the Matern kernel at a squared distance, `d2` holding
    /// the rows' squared distances; the kernel matrix is formed in `k` (every entry written:
    /// a buffer kept from the last fit needs no zeroing).
    #[allow(clippy::too_many_arguments)]
    fn fit_by(
        x: Rows,
        p: usize,
        step2: f64,
        d2: &[f64],
        y: &[f64],
        ell: f64,
        k: &mut Vec<f64>,
        mut kernel: impl FnMut(f64) -> f64,
    ) -> Option<(Gp, f64)> {
        let n = y.len();
        k.resize(n * n, 0.0);
        for (i, d2_row) in d2.chunks_exact(n.max(1)).take(n).enumerate() {
            for (j, &d) in d2_row[..=i].iter().enumerate() {
                let v = kernel(d) + if i == j { 1e-3 } else { 0.0 };
                k[i * n + j] = v;
                k[j * n + i] = v;
            }
        }
        let chol = Cholesky::new(&k[..n * n], n).ok()?;
        let mut alpha = y.to_vec();
        chol.solve(&mut alpha);
        let lml =
            -0.5 * y.iter().zip(&alpha).map(|(a, b)| a * b).sum::<f64>() - 0.5 * chol.log_det();
        Some((
            Gp {
                x,
                p,
                step2,
                chol,
                alpha,
                ell,
            },
            lml,
        ))
    }

    /// Mean and standard deviation at each of the `c` queries in `qs` (`p` features each, flat;
    /// as one prediction at a time would give them, bit for bit: every sum runs over the
    /// training rows in order), in `out`. The kernel columns of all queries are solved
    /// together ([`Cholesky::solve_lower_many`]). The searches pick with
    /// [`Gp::pick_by_expected_improvement`]; its tests compare with this.
    #[cfg(test)]
    pub(crate) fn predict_many(
        &self,
        qs: Queries,
        c: usize,
        scratch: &mut Scratch,
        out: &mut Vec<(f64, f64)>,
    ) {
        out.clear();
        if c == 0 {
            return;
        }
        self.kernel_columns(qs, c, scratch);
        let all: Vec<usize> = (0..c).collect();
        self.sds(&all, c, scratch);
        out.extend(scratch.mean.iter().zip(&scratch.sd).map(|(&m, &s)| (m, s)));
    }

    /// The query of `qs` (`c` of `p` features each) of largest [`expected_improvement`] on
    /// `best` by `xi`, the first of equals; None where no score is a number. It is the query
    /// that scoring all of [`Gp::predict_many`]'s predictions picks, bit for bit, but the
    /// triangular solve for the standard deviation, most of a prediction's work, runs only
    /// where the score could win: the posterior's standard deviation is at most the one given
    /// the query's nearest training row alone ([`sd_bound`]; at most the prior's, 1), and
    /// expected improvement grows with it, so a query's score at that bound bounds its own
    /// (Rasmussen and Williams, eq. 2.26: conditioning on more rows never adds variance). The
    /// bounds are measured against the best exact score of the [`PROBES`] largest ones, less
    /// a margin far above the error of [`phi_cdf`] (which could bend the growth). With
    /// `weights` (one of at least 0 per query) each score is the expected improvement times its
    /// weight (a candidate's chance of running: [`super::bayes`]'s `fail=weigh`).
    pub(crate) fn pick_by_expected_improvement(
        &self,
        qs: Queries,
        c: usize,
        (best, xi): (f64, f64),
        weights: Option<&[f64]>,
        scratch: &mut Scratch,
    ) -> Option<usize> {
        let weight = |q: usize| weights.map_or(1.0, |w| w[q]);
        if c == 0 {
            return None;
        }
        self.kernel_columns(qs, c, scratch);
        // Each query's standard deviation given its nearest training row alone, which bounds
        // the one given all of them (conditioning on more rows never adds variance): 1 -
        // k^2 / K_ii, where K_ii, the same for every row, is the first row's diagonal entry
        // as factored (jitter included), L_00^2.
        let nearest = &mut scratch.nearest;
        nearest.clear();
        nearest.resize(c, 0.0);
        for row in scratch.k.chunks_exact(c) {
            for (m, &v) in nearest.iter_mut().zip(row) {
                *m = if v > *m { v } else { *m };
            }
        }
        let k_ii = if self.alpha.is_empty() {
            1.0 // no rows: every bound is the prior's
        } else {
            self.chol.diagonal(0).powi(2)
        };
        let bound: Vec<f64> = scratch
            .mean
            .iter()
            .zip(nearest.iter())
            .enumerate()
            .map(|(q, (&m, &near))| {
                weight(q) * expected_improvement(best, xi, m, sd_bound(near, k_ii))
            })
            .collect();
        let mut probes: Vec<usize> = (0..c).collect();
        let larger = |a: &usize, b: &usize| bound[*b].total_cmp(&bound[*a]).then(a.cmp(b));
        if c > PROBES {
            probes.select_nth_unstable_by(PROBES, larger);
            probes.truncate(PROBES);
        }
        probes.sort_unstable();
        self.sds(&probes, c, scratch);
        // The probes' scores, kept: a column's solve does not depend on the others solved
        // with it, so they need no second solve.
        let mut scored = [(0, f64::NEG_INFINITY); PROBES];
        for ((slot, &q), &s) in scored.iter_mut().zip(&probes).zip(&scratch.sd) {
            *slot = (
                q,
                weight(q) * expected_improvement(best, xi, scratch.mean[q], s),
            );
        }
        let scored = &scored[..probes.len()];
        let floor = scored
            .iter()
            .fold(f64::NEG_INFINITY, |a, &(_, e)| if e > a { e } else { a });
        let margin = |q: usize| 1e-6 * (1.0 + (best - scratch.mean[q] - xi).abs());
        let kept: Vec<usize> = (0..c)
            .filter(|&q| {
                // A bound that is not a number is kept: nothing shows it loses.
                let reach = bound[q] + margin(q);
                (reach >= floor || reach.is_nan()) && probes.binary_search(&q).is_err()
            })
            .collect();
        if !kept.is_empty() {
            self.sds(&kept, c, scratch);
        }
        // The largest score, the first query of it where several tie (a query whose bound
        // misses the floor scores below it and is never picked).
        let mut pick: Option<usize> = None;
        let mut best_ei = f64::NEG_INFINITY;
        let mut consider = |q: usize, ei: f64| {
            if ei > best_ei || (ei == best_ei && pick.is_some_and(|p| q < p)) {
                best_ei = ei;
                pick = Some(q);
            }
        };
        for &(q, ei) in scored {
            consider(q, ei);
        }
        for (&q, &s) in kept.iter().zip(&scratch.sd) {
            consider(
                q,
                weight(q) * expected_improvement(best, xi, scratch.mean[q], s),
            );
        }
        pick
    }

    /// The kernel between every training row and each of the `c` queries, in `scratch.k`
    /// (`n x c`, row-major), and the posterior means, in `scratch.mean`.
    fn kernel_columns(&self, qs: Queries, c: usize, scratch: &mut Scratch) {
        let (n, p) = (self.alpha.len(), self.p);
        // The kernel is `matern52`'s, from the memo of values by distance, so the values are
        // those of one query at a time, bit for bit.
        let memo = &mut scratch.memo;
        memo.for_length_scale(self.ell);
        let (ell, step2) = (self.ell, self.step2);
        let kernel = |d2: f64| matern52(d2 * step2, ell);
        let k = &mut scratch.k;
        inputs::kernel_values_into(&self.x, qs, (n, p, c), &mut scratch.dist, memo, kernel, k);
        let mean = &mut scratch.mean;
        mean.clear();
        mean.resize(c, -0.0);
        columns::add_weighted_rows(k, c, &self.alpha, mean);
    }

    /// The posterior standard deviations of the queries `cols` (of the `c` whose kernel
    /// columns [`Gp::kernel_columns`] left in `scratch.k`), in `scratch.sd`: their columns
    /// gathered and solved together.
    fn sds(&self, cols: &[usize], c: usize, scratch: &mut Scratch) {
        let n = self.alpha.len();
        let m = cols.len();
        let kept = &mut scratch.kept;
        kept.clear();
        for row in scratch.k.chunks_exact(c).take(n) {
            kept.extend(cols.iter().map(|&q| row[q]));
        }
        scratch.sum.resize(m, 0.0);
        self.chol.solve_lower_many(kept, m, &mut scratch.sum);
        let sq = &mut scratch.sum;
        sq.fill(-0.0);
        for row in kept.chunks_exact(m.max(1)).take(n) {
            for (s, v) in sq.iter_mut().zip(row) {
                *s += v * v;
            }
        }
        scratch.sd.clear();
        scratch
            .sd
            .extend(sq.iter().map(|&s| (1.0 - s).max(1e-12).sqrt()));
    }
}

/// An upper bound of a query's posterior standard deviation from its largest kernel value
/// `near` with a training row whose prior variance (noise and jitter included) is `k_ii`:
/// the standard deviation given that row alone, widened far beyond the rounding of the
/// triangular solve that gives the exact one, and never below its floor (1e-6) or above the
/// prior's 1.
fn sd_bound(near: f64, k_ii: f64) -> f64 {
    let var = 1.0 - near * near / (k_ii * (1.0 + 1e-9));
    (var.max(0.0) + 1e-9).sqrt().min(1.0)
}

/// How many queries of the largest bounds [`Gp::pick_by_expected_improvement`] scores first.
const PROBES: usize = 4;

/// Expected improvement below `best` by at least `xi` (minimising) of a prediction of mean `mu`
/// and standard deviation `s` (Jones, Schonlau and Welch, "Efficient global optimization of
/// expensive black-box functions", 1998, eq. 15, with the margin `xi` of Lizotte's thesis).
pub(crate) fn expected_improvement(best: f64, xi: f64, mu: f64, s: f64) -> f64 {
    let imp = best - mu - xi;
    let z = imp / s;
    imp * phi_cdf(z) + s * phi_pdf(z)
}

/// Buffers reused from one step's predictions to the next.
#[derive(Default)]
pub(crate) struct Scratch {
    dist: Distances,
    k: Vec<f64>,
    mean: Vec<f64>,
    sum: Vec<f64>,
    kept: Vec<f64>,
    sd: Vec<f64>,
    nearest: Vec<f64>,
    /// The training rows' squared distances and kernel matrix of the last fit.
    pairs: Vec<f64>,
    kernel: Vec<f64>,
    memo: KernelMemo,
}

#[cfg(test)]
mod tests;
