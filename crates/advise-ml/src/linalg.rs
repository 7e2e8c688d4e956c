//! Small dense linear algebra for the search surrogates: a Cholesky factorisation of a
//! symmetric positive-definite matrix (row-major, `n x n`) and the triangular solves that use
//! it. Sizes are tens to a few hundred rows (a ridge model's one-hot columns, a Gaussian
//! process's measured configurations), so a plain O(n^3 / 3) loop is the right tool.
//! Algorithm: Golub and Van Loan, "Matrix Computations", 4th ed., algorithm 4.2.1 (gaxpy
//! Cholesky), with a diagonal jitter retried on a non-positive pivot as in Rasmussen and
//! Williams, "Gaussian Processes for Machine Learning", section A.4.

use crate::error::{MlError, Result};

/// A lower-triangular Cholesky factor `L` with `A + jitter I = L L^T`.
#[derive(Debug, Clone)]
pub struct Cholesky {
    n: usize,
    /// Row-major; only the lower triangle is meaningful.
    l: Vec<f64>,
}

impl Cholesky {
    /// Factors `a` (row-major `n x n`, symmetric). A non-positive pivot is retried with a
    /// growing diagonal jitter (1e-10 to 1e-2 times the mean diagonal) before giving up.
    pub fn new(a: &[f64], n: usize) -> Result<Cholesky> {
        Cholesky::new_plus_diagonal(a, n, 0.0)
    }

    /// Factors `a + shift I` without forming it (a ridge model's normal equations), the same
    /// bit for bit as [`Cholesky::new`] of the shifted copy: each diagonal entry is
    /// `a_ii + shift` before any jitter is added.
    pub fn new_plus_diagonal(a: &[f64], n: usize, shift: f64) -> Result<Cholesky> {
        if a.len() != n * n {
            return Err(MlError::Data(format!(
                "a {n} x {n} matrix needs {} numbers, got {}",
                n * n,
                a.len()
            )));
        }
        let mean_diag = (0..n).map(|i| (a[i * n + i] + shift).abs()).sum::<f64>() / n.max(1) as f64;
        let scale = if mean_diag > 0.0 { mean_diag } else { 1.0 };
        let mut jitter = 0.0;
        for _ in 0..10 {
            if let Some(l) = factor(a, n, shift, jitter) {
                return Ok(Cholesky { n, l });
            }
            jitter = if jitter == 0.0 {
                1e-10 * scale
            } else {
                jitter * 10.0
            };
        }
        Err(MlError::Data(
            "the matrix is not positive definite (even with a diagonal jitter)".into(),
        ))
    }

    pub fn n(&self) -> usize {
        self.n
    }

    /// The factor's diagonal entry `L_ii`: its square is `A_ii` plus the jitter the
    /// factorisation added, if any, less the squares of the row's other entries.
    pub fn diagonal(&self, i: usize) -> f64 {
        self.l[i * self.n + i]
    }

    /// Solves `L y = b` in place.
    pub fn solve_lower(&self, b: &mut [f64]) {
        let n = self.n;
        for i in 0..n {
            let row = &self.l[i * n..i * n + i];
            let s: f64 = row.iter().zip(&b[..i]).map(|(l, y)| l * y).sum();
            b[i] = (b[i] - s) / self.l[i * n + i];
        }
    }

    /// Solves `L Y = B` in place for `cols` right-hand sides at once: `b` is row-major
    /// `n x cols`, column `c` one right-hand side. Each column comes out bit for bit as
    /// [`Cholesky::solve_lower`] would leave it (every row's sum is formed in the same order,
    /// from the same -0.0 start as `Iterator::sum`), but the inner loops run across columns,
    /// which the compiler vectorises: a Gaussian process scores its candidates this way.
    /// `sum` is scratch of at least `cols` numbers.
    pub fn solve_lower_many(&self, b: &mut [f64], cols: usize, sum: &mut [f64]) {
        assert!(b.len() >= self.n * cols && sum.len() >= cols);
        solve_lower_many_dispatched(self.n, &self.l, b, cols, sum)
    }

    /// Solves `L^T x = y` in place.
    pub fn solve_upper(&self, b: &mut [f64]) {
        let n = self.n;
        for i in (0..n).rev() {
            let s: f64 = (i + 1..n).map(|k| self.l[k * n + i] * b[k]).sum();
            b[i] = (b[i] - s) / self.l[i * n + i];
        }
    }

    /// `log det(A)`, as `2 sum(log L_ii)` (for a Gaussian process's marginal likelihood).
    pub fn log_det(&self) -> f64 {
        2.0 * (0..self.n)
            .map(|i| self.l[i * self.n + i].ln())
            .sum::<f64>()
    }

    /// Solves `A x = b` in place.
    pub fn solve(&self, b: &mut [f64]) {
        self.solve_lower(b);
        self.solve_upper(b);
    }
}

/// [`Cholesky::solve_lower_many`]'s loops.
#[inline(always)]
fn solve_lower_many_body(n: usize, l: &[f64], b: &mut [f64], cols: usize, sum: &mut [f64]) {
    let sum = &mut sum[..cols];
    for i in 0..n {
        sum.fill(-0.0);
        let (done, rest) = b.split_at_mut(i * cols);
        for k in 0..i {
            let lik = l[i * n + k];
            for (s, y) in sum.iter_mut().zip(&done[k * cols..(k + 1) * cols]) {
                *s += lik * y;
            }
        }
        let d = l[i * n + i];
        for (y, s) in rest[..cols].iter_mut().zip(sum.iter()) {
            *y = (*y - s) / d;
        }
    }
}

crate::avx2_dispatch! {
    /// [`solve_lower_many_body`], compiled for AVX2 where the CPU has it (the same bits).
    fn solve_lower_many_dispatched(n: usize, l: &[f64], b: &mut [f64], cols: usize, sum: &mut [f64])
        = solve_lower_many_body, avx2 solve_lower_many_avx2;
}

crate::avx2_dispatch! {
    /// [`factor_body`], compiled for AVX2 where the CPU has it (the same bits).
    fn factor(a: &[f64], n: usize, shift: f64, jitter: f64) -> Option<Vec<f64>>
        = factor_body, avx2 factor_avx2;
}

/// The factorisation's loops.
#[inline(always)]
fn factor_body(a: &[f64], n: usize, shift: f64, jitter: f64) -> Option<Vec<f64>> {
    let mut l = vec![0.0; n * n];
    for j in 0..n {
        let mut d = (a[j * n + j] + shift) + jitter;
        for k in 0..j {
            d -= l[j * n + k] * l[j * n + k];
        }
        if d <= 0.0 || !d.is_finite() {
            return None;
        }
        let d = d.sqrt();
        l[j * n + j] = d;
        // Column j below the diagonal. Each entry subtracts its terms in increasing k, as a
        // row at a time would; four rows at once only interleave independent chains.
        let mut i = j + 1;
        let (above, below) = l.split_at_mut((j + 1) * n);
        let lj = &above[j * n..j * n + j];
        let mut rows = below.chunks_exact_mut(n);
        while i + 4 <= n {
            let (Some(r0), Some(r1), Some(r2), Some(r3)) =
                (rows.next(), rows.next(), rows.next(), rows.next())
            else {
                break;
            };
            let mut s = [
                a[i * n + j],
                a[(i + 1) * n + j],
                a[(i + 2) * n + j],
                a[(i + 3) * n + j],
            ];
            for (k, &ljk) in lj.iter().enumerate() {
                s[0] -= r0[k] * ljk;
                s[1] -= r1[k] * ljk;
                s[2] -= r2[k] * ljk;
                s[3] -= r3[k] * ljk;
            }
            r0[j] = s[0] / d;
            r1[j] = s[1] / d;
            r2[j] = s[2] / d;
            r3[j] = s[3] / d;
            i += 4;
        }
        for i in i..n {
            let (above, below) = l.split_at_mut(i * n);
            let lj = &above[j * n..j * n + j];
            let row = &mut below[..n];
            let mut s = a[i * n + j];
            for k in 0..j {
                s -= row[k] * lj[k];
            }
            row[j] = s / d;
        }
    }
    Some(l)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The row-at-a-time Cholesky–Banachiewicz loop [`factor`] interleaves.
    fn factor_one_row_at_a_time(a: &[f64], n: usize) -> Vec<f64> {
        let mut l = vec![0.0; n * n];
        for j in 0..n {
            let mut d = a[j * n + j];
            for k in 0..j {
                d -= l[j * n + k] * l[j * n + k];
            }
            let d = d.sqrt();
            l[j * n + j] = d;
            for i in j + 1..n {
                let mut s = a[i * n + j];
                for k in 0..j {
                    s -= l[i * n + k] * l[j * n + k];
                }
                l[i * n + j] = s / d;
            }
        }
        l
    }

    #[test]
    fn four_rows_at_once_factor_bit_for_bit_as_one() {
        let mut rng = crate::Rng::new(4);
        for n in (1..=13).chain([30, 38]) {
            let m: Vec<f64> = (0..n * n).map(|_| rng.unit() - 0.5).collect();
            let mut a = vec![0.0; n * n];
            for i in 0..n {
                for j in 0..n {
                    a[i * n + j] = (0..n).map(|k| m[i * n + k] * m[j * n + k]).sum::<f64>()
                        + if i == j { 0.1 } else { 0.0 };
                }
            }
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            // The dispatched build (AVX2 where the CPU has it) and the portable one.
            let want = bits(&factor_one_row_at_a_time(&a, n));
            assert_eq!(bits(&factor(&a, n, 0.0, 0.0).unwrap()), want, "n = {n}");
            assert_eq!(
                bits(&factor_body(&a, n, 0.0, 0.0).unwrap()),
                want,
                "n = {n}"
            );
        }
    }

    #[test]
    fn many_right_hand_sides_equal_one_at_a_time_bit_for_bit() {
        let mut rng = crate::Rng::new(9);
        for n in [1, 2, 7, 30] {
            // A = M M^T + n I.
            let m: Vec<f64> = (0..n * n).map(|_| rng.unit() - 0.5).collect();
            let mut a = vec![0.0; n * n];
            for i in 0..n {
                for j in 0..n {
                    a[i * n + j] = (0..n).map(|k| m[i * n + k] * m[j * n + k]).sum::<f64>()
                        + if i == j { n as f64 } else { 0.0 };
                }
            }
            let chol = Cholesky::new(&a, n).unwrap();
            let cols = 13;
            let mut many: Vec<f64> = (0..n * cols).map(|_| rng.unit() * 4.0 - 2.0).collect();
            many[0] = -0.0;
            let mut one_by_one = many.clone();
            let mut portable = many.clone();
            let mut sum = vec![0.0; cols];
            chol.solve_lower_many(&mut many, cols, &mut sum);
            solve_lower_many_body(n, &chol.l, &mut portable, cols, &mut sum);
            for c in 0..cols {
                let mut col: Vec<f64> = (0..n).map(|i| one_by_one[i * cols + c]).collect();
                chol.solve_lower(&mut col);
                for i in 0..n {
                    one_by_one[i * cols + c] = col[i];
                }
            }
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&many), bits(&one_by_one), "n = {n}");
            assert_eq!(
                bits(&portable),
                bits(&one_by_one),
                "portable build, n = {n}"
            );
        }
    }

    #[test]
    fn a_shifted_diagonal_factors_as_the_shifted_copy_bit_for_bit() {
        let mut rng = crate::Rng::new(6);
        for n in [1, 5, 17] {
            // Co-occurrence-like counts (singular without the shift) and a ridge shift.
            let m: Vec<f64> = (0..n * n).map(|_| rng.below(3) as f64).collect();
            let mut a = vec![0.0; n * n];
            for i in 0..n {
                for j in 0..n {
                    a[i * n + j] = (0..n).map(|k| m[k * n + i] * m[k * n + j]).sum::<f64>();
                }
            }
            for shift in [0.0, 1e-3, 0.7] {
                let mut copy = a.clone();
                for i in 0..n {
                    copy[i * n + i] += shift;
                }
                let bits = |c: &Cholesky| c.l.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                let want = Cholesky::new(&copy, n).map(|c| bits(&c)).ok();
                let got = Cholesky::new_plus_diagonal(&a, n, shift)
                    .map(|c| bits(&c))
                    .ok();
                assert_eq!(got, want, "n = {n}, shift {shift}");
            }
        }
    }

    #[test]
    fn solves_a_small_system() {
        // A = [[4, 2, 0], [2, 5, 1], [0, 1, 3]], x = [1, -1, 2] -> b = A x.
        let a = [4.0, 2.0, 0.0, 2.0, 5.0, 1.0, 0.0, 1.0, 3.0];
        let mut b = vec![2.0, -1.0, 5.0];
        let c = Cholesky::new(&a, 3).unwrap();
        assert!((c.log_det() - 44f64.ln()).abs() < 1e-12, "det A = 44");
        c.solve(&mut b);
        for (x, want) in b.iter().zip([1.0, -1.0, 2.0]) {
            assert!((x - want).abs() < 1e-12, "{x} vs {want}");
        }
    }

    #[test]
    fn singular_matrix_gets_jitter_and_bad_shape_an_error() {
        let a = [1.0, 1.0, 1.0, 1.0];
        assert!(Cholesky::new(&a, 2).is_ok());
        assert!(Cholesky::new(&a, 3).is_err());
        assert!(Cholesky::new(&[-1.0], 1).is_err());
    }
}
