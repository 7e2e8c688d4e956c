//! The Gaussian process of Bayesian optimisation ([`super::bayes`]): Matern 5/2 kernel, unit
//! signal variance, noise 1e-3 (Rasmussen and Williams, "Gaussian Processes for Machine
//! Learning", eq. 4.17 and algorithm 2.1), fitted by a Cholesky factorisation, and the pick of
//! the candidate of largest expected improvement, which solves for the standard deviation only
//! where a candidate's bound could win and takes the kernel's values from a memo by distance
//! ([`memo`]); the pick is the one scoring every candidate would make, bit for bit.

use advise_ml::Cholesky;
use memo::KernelMemo;

mod columns;
mod memo;

/// The Matern 5/2 kernel (unit signal variance) at squared distance `d2`: with the scaled
/// distance r = sqrt(5) |x - x'| / ell, (1 + r + r^2 / 3) e^-r.
fn matern52(d2: f64, ell: f64) -> f64 {
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

/// A fitted process: its `n` training rows of `p` features each, flat in `x`.
pub(crate) struct Gp {
    x: Vec<f64>,
    p: usize,
    chol: Cholesky,
    alpha: Vec<f64>,
    pub(crate) ell: f64,
}

impl Gp {
    /// Fits on (x, y), `x` holding one row of `p` features per target; also returns the log
    /// marginal likelihood.
    pub(crate) fn fit(x: Vec<f64>, p: usize, y: &[f64], ell: f64) -> Option<(Gp, f64)> {
        Gp::fit_by(x, p, y, ell, |d2| matern52(d2, ell))
    }

    /// [`Gp::fit`], the kernel's values taken from `scratch`'s memo ([`memo`]): the same fit,
    /// bit for bit, for fewer exponentials where the memo holds this length scale's values.
    pub(crate) fn fit_memo(
        x: Vec<f64>,
        p: usize,
        y: &[f64],
        ell: f64,
        scratch: &mut Scratch,
    ) -> Option<(Gp, f64)> {
        let memo = &mut scratch.memo;
        memo.for_length_scale(ell);
        Gp::fit_by(x, p, y, ell, |d2| memo.get(d2, |d| matern52(d, ell)))
    }

    /// The fit with `kernel` giving the Matern kernel at a squared distance.
    fn fit_by(
        x: Vec<f64>,
        p: usize,
        y: &[f64],
        ell: f64,
        mut kernel: impl FnMut(f64) -> f64,
    ) -> Option<(Gp, f64)> {
        let n = y.len();
        let row = |i: usize| &x[i * p..(i + 1) * p];
        let mut k = vec![0.0; n * n];
        for i in 0..n {
            for j in 0..=i {
                let v = kernel(dist2(row(i), row(j))) + if i == j { 1e-3 } else { 0.0 };
                k[i * n + j] = v;
                k[j * n + i] = v;
            }
        }
        let chol = Cholesky::new(&k, n).ok()?;
        let mut alpha = y.to_vec();
        chol.solve(&mut alpha);
        let lml =
            -0.5 * y.iter().zip(&alpha).map(|(a, b)| a * b).sum::<f64>() - 0.5 * chol.log_det();
        Some((
            Gp {
                x,
                p,
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
        qs: &[f64],
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
    /// where the score could win: the posterior's standard deviation is at most the prior's, 1,
    /// and expected improvement grows with it, so a query's score at 1 bounds its own. The
    /// bounds are measured against the best exact score of the [`PROBES`] largest ones, less
    /// a margin far above the error of [`phi_cdf`] (which could bend the growth).
    pub(crate) fn pick_by_expected_improvement(
        &self,
        qs: &[f64],
        c: usize,
        best: f64,
        xi: f64,
        scratch: &mut Scratch,
    ) -> Option<usize> {
        if c == 0 {
            return None;
        }
        self.kernel_columns(qs, c, scratch);
        let bound: Vec<f64> = scratch
            .mean
            .iter()
            .map(|&m| expected_improvement(best, xi, m, 1.0))
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
            *slot = (q, expected_improvement(best, xi, scratch.mean[q], s));
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
            consider(q, expected_improvement(best, xi, scratch.mean[q], s));
        }
        pick
    }

    /// The kernel between every training row and each of the `c` queries, in `scratch.k`
    /// (`n x c`, row-major), and the posterior means, in `scratch.mean`.
    fn kernel_columns(&self, qs: &[f64], c: usize, scratch: &mut Scratch) {
        let (n, p) = (self.alpha.len(), self.p);
        // The queries feature by feature, so that each pass below runs along the queries (in
        // vector instructions); every query's distance still sums its features in order, as
        // `dist2` does, and the kernel is `matern52`'s, from the memo of values by distance,
        // so the values are those of one query at a time, bit for bit.
        // Every entry of `qt` and `k` is written below: resizing keeps old values unzeroed.
        let qt = &mut scratch.qt;
        qt.resize(p * c, 0.0);
        for (q, query) in qs.chunks_exact(p.max(1)).take(c).enumerate() {
            for (j, &v) in query.iter().enumerate() {
                qt[j * c + q] = v;
            }
        }
        let k = &mut scratch.k;
        k.resize(n * c, 0.0);
        let memo = &mut scratch.memo;
        memo.for_length_scale(self.ell);
        let ell = self.ell;
        columns::squared_distances_into(&self.x, p, qt, c, k);
        for d in k.iter_mut() {
            *d = memo.get(*d, |d2| matern52(d2, ell));
        }
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
    qt: Vec<f64>,
    k: Vec<f64>,
    mean: Vec<f64>,
    sum: Vec<f64>,
    kept: Vec<f64>,
    sd: Vec<f64>,
    memo: KernelMemo,
}

fn dist2(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use advise_ml::Rng;

    #[test]
    fn predictions_of_many_queries_are_those_of_one_at_a_time_bit_for_bit() {
        // Synthetic rows and queries from a seeded generator: 12 rows, 40 queries, 5 features.
        let mut rng = Rng::new(7);
        let (n, c, p) = (12, 40, 5);
        let x: Vec<f64> = (0..n * p).map(|_| rng.unit()).collect();
        let y: Vec<f64> = (0..n).map(|_| rng.unit() - 0.5).collect();
        let qs: Vec<f64> = (0..c * p).map(|_| rng.unit()).collect();
        let (gp, _) = Gp::fit(x.clone(), p, &y, 0.4).expect("a jittered kernel matrix factors");
        let mut out = Vec::new();
        gp.predict_many(&qs, c, &mut Scratch::default(), &mut out);
        assert_eq!(out.len(), c);
        for (q, &(mean, sd)) in out.iter().enumerate() {
            let query = &qs[q * p..(q + 1) * p];
            let mut k: Vec<f64> = (0..n)
                .map(|i| matern52(dist2(&x[i * p..(i + 1) * p], query), 0.4))
                .collect();
            let m = k.iter().zip(&gp.alpha).fold(-0.0, |s, (kv, a)| s + kv * a);
            gp.chol.solve_lower(&mut k);
            let v = k.iter().fold(-0.0, |s, kv| s + kv * kv);
            assert_eq!(mean.to_bits(), m.to_bits(), "mean of query {q}");
            assert_eq!(
                sd.to_bits(),
                (1.0 - v).max(1e-12).sqrt().to_bits(),
                "sd of query {q}"
            );
        }
    }

    #[test]
    fn a_fit_from_the_memo_is_the_computed_fit_bit_for_bit() {
        // Synthetic grid rows from a seeded generator (few distinct distances); the memo is
        // filled first by another process's queries at the same length scale, then at another.
        let mut rng = Rng::new(5);
        let (n, p) = (20, 4);
        let x: Vec<f64> = (0..n * p).map(|_| (rng.below(6) as f64) / 5.0).collect();
        let y: Vec<f64> = (0..n).map(|_| rng.unit() - 0.5).collect();
        let mut scratch = Scratch::default();
        for ell in [0.4, 1.5, 0.4] {
            let (plain, lml) = Gp::fit(x.clone(), p, &y, ell).expect("factors");
            let (memo, lml_memo) =
                Gp::fit_memo(x.clone(), p, &y, ell, &mut scratch).expect("factors");
            assert_eq!(lml.to_bits(), lml_memo.to_bits(), "ell {ell}");
            let bits = |gp: &Gp| gp.alpha.iter().map(|a| a.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&plain), bits(&memo), "ell {ell}");
            let mut out = Vec::new();
            memo.predict_many(&x[..5 * p], 5, &mut scratch, &mut out);
            // Now every value comes from the memo.
            let (again, _) = Gp::fit_memo(x.clone(), p, &y, ell, &mut scratch).expect("factors");
            assert_eq!(bits(&plain), bits(&again), "ell {ell}, from the memo");
        }
    }

    #[test]
    fn the_pruned_pick_is_the_full_scoring_pick() {
        // Synthetic processes and queries from a seeded generator, against scoring every query
        // of predict_many's predictions (the first of the largest scores wins); the queries
        // include copies of training rows (standard deviation near 0) and of one another.
        let mut rng = Rng::new(11);
        let mut pruned = 0;
        for case in 0..200 {
            let (n, p) = (2 + case % 29, 1 + case % 6);
            let c = 1 + (case * 7) % 120;
            let x: Vec<f64> = (0..n * p).map(|_| (rng.below(5) as f64) / 4.0).collect();
            let y: Vec<f64> = (0..n).map(|_| rng.unit() * 2.0 - 1.0).collect();
            let mut qs: Vec<f64> = (0..c * p).map(|_| (rng.below(5) as f64) / 4.0).collect();
            if c > 2 {
                qs.copy_within(0..p, p);
                qs[..p].copy_from_slice(&x[..p]);
            }
            let ell = [0.1, 0.4, 1.6][case % 3];
            let Some((gp, _)) = Gp::fit(x, p, &y, ell) else {
                continue;
            };
            let best = y.iter().copied().fold(f64::INFINITY, f64::min);
            let mut all = Vec::new();
            let mut scratch = Scratch::default();
            gp.predict_many(&qs, c, &mut scratch, &mut all);
            let mut want = None;
            let mut top = f64::NEG_INFINITY;
            for (q, &(m, s)) in all.iter().enumerate() {
                let ei = expected_improvement(best, 0.01, m, s);
                if ei > top {
                    top = ei;
                    want = Some(q);
                }
            }
            let got = gp.pick_by_expected_improvement(&qs, c, best, 0.01, &mut scratch);
            assert_eq!(got, want, "case {case}: n {n}, p {p}, c {c}");
            if scratch.sd.len() < c {
                pruned += 1;
            }
        }
        assert!(
            pruned > 50,
            "the bound left out queries in {pruned} of 200 cases"
        );
    }
}
