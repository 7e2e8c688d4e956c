//! The Gaussian process of Bayesian optimisation ([`super::bayes`]): Matern 5/2 kernel, unit
//! signal variance, noise 1e-3 (Rasmussen and Williams, "Gaussian Processes for Machine
//! Learning", eq. 4.17 and algorithm 2.1), fitted by a Cholesky factorisation, and the normal
//! distribution's cdf and pdf for expected improvement.

use advise_ml::Cholesky;

fn matern52(d2: f64, ell: f64) -> f64 {
    matern52_of_r(matern52_r(d2, ell))
}

/// The Matern 5/2 kernel's scaled distance, sqrt(5) |x - x'| / ell, from the squared distance.
fn matern52_r(d2: f64, ell: f64) -> f64 {
    5f64.sqrt() * d2.sqrt() / ell
}

/// The Matern 5/2 kernel at scaled distance `r` (unit signal variance).
fn matern52_of_r(r: f64) -> f64 {
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
        let n = y.len();
        let row = |i: usize| &x[i * p..(i + 1) * p];
        let mut k = vec![0.0; n * n];
        for i in 0..n {
            for j in 0..=i {
                let v = matern52(dist2(row(i), row(j)), ell) + if i == j { 1e-3 } else { 0.0 };
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
    /// together ([`Cholesky::solve_lower_many`]).
    pub(crate) fn predict_many(
        &self,
        qs: &[f64],
        c: usize,
        scratch: &mut Scratch,
        out: &mut Vec<(f64, f64)>,
    ) {
        let (n, p) = (self.alpha.len(), self.p);
        out.clear();
        if c == 0 {
            return;
        }
        // The queries feature by feature, so that each pass below runs along the queries (the
        // square roots and divisions in vector instructions); every query's distance still
        // sums its features in order, as `dist2` does, and the kernel is `matern52`'s two
        // halves, so the values are those of one query at a time, bit for bit.
        let qt = &mut scratch.qt;
        qt.clear();
        qt.resize(p * c, 0.0);
        for (q, query) in qs.chunks_exact(p.max(1)).take(c).enumerate() {
            for (j, &v) in query.iter().enumerate() {
                qt[j * c + q] = v;
            }
        }
        let k = &mut scratch.k;
        k.clear();
        k.resize(n * c, 0.0);
        for (i, row) in k.chunks_exact_mut(c).enumerate() {
            let xi = &self.x[i * p..(i + 1) * p];
            for (&x, column) in xi.iter().zip(qt.chunks_exact(c)) {
                for (d, &y) in row.iter_mut().zip(column) {
                    *d += (x - y) * (x - y);
                }
            }
            for d in row.iter_mut() {
                *d = matern52_r(*d, self.ell);
            }
            for r in row.iter_mut() {
                *r = matern52_of_r(*r);
            }
        }
        let mean = &mut scratch.mean;
        mean.clear();
        mean.resize(c, -0.0);
        for (row, a) in k.chunks_exact(c).zip(&self.alpha) {
            for (m, kv) in mean.iter_mut().zip(row) {
                *m += kv * a;
            }
        }
        scratch.sum.resize(c, 0.0);
        self.chol.solve_lower_many(k, c, &mut scratch.sum);
        let sq = &mut scratch.sum;
        sq.fill(-0.0);
        for row in k.chunks_exact(c).take(n) {
            for (s, v) in sq.iter_mut().zip(row) {
                *s += v * v;
            }
        }
        out.extend(
            mean.iter()
                .zip(sq.iter())
                .map(|(&m, &s)| (m, (1.0 - s).max(1e-12).sqrt())),
        );
    }
}

/// Buffers reused from one step's predictions to the next.
#[derive(Default)]
pub(crate) struct Scratch {
    qt: Vec<f64>,
    k: Vec<f64>,
    mean: Vec<f64>,
    sum: Vec<f64>,
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
}
