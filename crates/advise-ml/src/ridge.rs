//! An additive model of parameter levels: ridge regression on a one-hot coding of every
//! parameter's level, y ~ mean + sum_j w\[j\]\[level_j\]. It is the cheapest model that tells a
//! search which value of each parameter tends to be fast (a main-effects model, as in the
//! design-of-experiments view of tuning spaces used by Kernel Tuner's `greedy_mls`/`mls`
//! neighbourhood ordering), and it fits in microseconds: the normal equations have one
//! column per level (tens), solved with [`crate::linalg::Cholesky`].

use crate::error::{MlError, Result};
use crate::linalg::Cholesky;

/// A fitted main-effects model over level vectors.
#[derive(Debug, Clone)]
pub struct OneHotRidge {
    /// Column offset of each parameter's first level.
    offsets: Vec<usize>,
    mean: f64,
    weights: Vec<f64>,
}

/// The normal equations' level co-occurrence counts of a growing set of level rows: entry
/// (c, d) counts the rows that hold both level columns c and d. Counts are whole numbers,
/// exact in `f64` whatever the order rows are added in, so a search that measures one
/// configuration at a time adds each row once instead of recounting every row at every
/// refit, and the fit comes out bit for bit as from scratch.
#[derive(Debug, Clone)]
pub struct LevelCounts {
    radix: Vec<usize>,
    offsets: Vec<usize>,
    /// Level columns in all (the sum of the radixes).
    f: usize,
    a: Vec<f64>,
    rows: usize,
    cols: Vec<usize>,
    /// Whether [`LevelCounts::add`] counts only the upper triangle (c <= d), into `pending`,
    /// which [`LevelCounts::complete`] adds to both triangles of `a` before a fit reads it.
    upper_only: bool,
    /// The upper-triangle counts of the rows since the last [`LevelCounts::complete`], as
    /// integers: an increment is one instruction on a memory operand where an `f64` is a
    /// load, an addition and a store. f x f entries from the first time `upper_only` is set,
    /// empty until then.
    pending: Vec<u32>,
    /// Rows added since the last [`LevelCounts::complete`].
    since: usize,
}

impl LevelCounts {
    pub fn new(radix: &[usize]) -> LevelCounts {
        let mut offsets = Vec::with_capacity(radix.len());
        let mut f = 0;
        for &r in radix {
            offsets.push(f);
            f += r;
        }
        LevelCounts {
            radix: radix.to_vec(),
            offsets,
            f,
            a: vec![0.0; f * f],
            rows: 0,
            cols: vec![0; radix.len()],
            upper_only: false,
            pending: Vec::new(),
            since: 0,
        }
    }

    /// Counts one more row of levels (one per parameter).
    pub fn add(&mut self, row: &[u16]) -> Result<()> {
        let p = self.radix.len();
        if row.len() != p {
            return Err(MlError::Data(format!(
                "a row needs {p} levels, got {}",
                row.len()
            )));
        }
        for (j, ((&l, &r), (col, &o))) in row
            .iter()
            .zip(&self.radix)
            .zip(self.cols.iter_mut().zip(&self.offsets))
            .enumerate()
        {
            let l = l as usize;
            if l >= r {
                return Err(level_outside(l, j, r));
            }
            *col = o + l;
        }
        if self.since >= u32::MAX as usize {
            // No pending count may overflow: the rows so far are made whole now, as a fit
            // would do.
            self.complete();
        }
        let f = self.f;
        // The columns ascend (one per parameter, at increasing offsets): those from the
        // i-th on are the upper triangle's part of row `cols[i]`.
        if self.upper_only {
            let pending = self.pending.as_mut_ptr();
            let mut rest = &self.cols[..];
            while let Some(&c) = rest.first() {
                // SAFETY: every column is offsets[j] + level with level < radix[j] (checked
                // above), so below f, and c * f + d below f * f = pending.len() (allocated by
                // `complete` when it set `upper_only`).
                let line = unsafe { pending.add(c * f) };
                for &d in rest {
                    unsafe { *line.add(d) += 1 };
                }
                rest = &rest[1..];
            }
        } else {
            for &c in &self.cols {
                let line = &mut self.a[c * f..(c + 1) * f];
                for &d in &self.cols {
                    line[d] += 1.0;
                }
            }
        }
        self.rows += 1;
        self.since += 1;
        Ok(())
    }

    /// The level columns of the row added last (by an [`LevelCounts::add`] that succeeded),
    /// one per parameter: those that row's target adds to in the normal equations'
    /// right-hand side.
    pub fn last_columns(&self) -> &[usize] {
        &self.cols
    }

    /// Makes the matrix whole for a fit: where rows were counted in the upper triangle only,
    /// adds their pending counts to both triangles. Then picks how the rows until the next
    /// fit are counted: the upper triangle alone halves an addition's p^2 increments but costs
    /// a pass over f^2 / 2 entries at the fit, so it is taken where as many rows came since
    /// the last fit as make their saving larger (rows x p^2 >= f^2: a search of thousands of
    /// evaluations with few levels a parameter; a space of many levels keeps whole-matrix
    /// counting). The counts are whole numbers either way, so a fit reads the same matrix bit
    /// for bit.
    pub fn complete(&mut self) {
        self.fold();
        let (p, f) = (self.radix.len(), self.f);
        self.upper_only = self.since * p * p >= f * f;
        if self.upper_only && self.pending.is_empty() {
            self.pending = vec![0; f * f];
        }
        self.since = 0;
    }

    /// Adds the pending upper-triangle counts to both triangles of the matrix.
    fn fold(&mut self) {
        if !self.upper_only || self.since == 0 {
            return;
        }
        let f = self.f;
        for c in 0..f {
            for d in c..f {
                let v = self.a[c * f + d] + f64::from(std::mem::take(&mut self.pending[c * f + d]));
                self.a[c * f + d] = v;
                self.a[d * f + c] = v;
            }
        }
    }

    /// Level columns in all (the sum of the radixes): the normal equations' size.
    pub fn columns(&self) -> usize {
        self.f
    }

    /// The column of level `level` of parameter `param`.
    pub fn column(&self, param: usize, level: u16) -> Option<usize> {
        let r = *self.radix.get(param)?;
        ((level as usize) < r).then(|| self.offsets[param] + level as usize)
    }
}

impl OneHotRidge {
    /// Fits `y` on the level rows (`rows.len() == y.len() * radix.len()`, row-major) with
    /// ridge penalty `lambda` (> 0) on the level weights; the mean is not penalised.
    pub fn fit(radix: &[usize], rows: &[u16], y: &[f64], lambda: f64) -> Result<OneHotRidge> {
        let p = radix.len();
        if rows.len() != y.len() * p {
            return Err(MlError::Data(format!(
                "{} targets need {} level numbers, got {}",
                y.len(),
                y.len() * p,
                rows.len()
            )));
        }
        let mut counts = LevelCounts::new(radix);
        if p == 0 {
            counts.rows = y.len(); // no levels: the model is the mean
        }
        for row in rows.chunks_exact(p.max(1)).take(y.len()) {
            counts.add(row)?;
        }
        OneHotRidge::fit_counted(&mut counts, rows, y, lambda)
    }

    /// [`OneHotRidge::fit`] with the rows' co-occurrence counts already formed: `counts` must
    /// have counted exactly `rows` (checked by number; the caller keeps them the same rows).
    pub fn fit_counted(
        counts: &mut LevelCounts,
        rows: &[u16],
        y: &[f64],
        lambda: f64,
    ) -> Result<OneHotRidge> {
        let p = counts.radix.len();
        if rows.len() != y.len() * p || counts.rows != y.len() {
            return Err(MlError::Data(format!(
                "{} targets need {} level numbers and as many counted rows, got {} and {}",
                y.len(),
                y.len() * p,
                rows.len(),
                counts.rows
            )));
        }
        if y.is_empty() {
            return Err(MlError::Data("no rows to fit".into()));
        }
        check_penalty(lambda)?;
        counts.complete();
        let f = counts.f;
        let offsets = &counts.offsets;
        let mean = y.iter().sum::<f64>() / y.len() as f64;
        let mut b = vec![0.0; f];
        for (row, &yi) in rows.chunks_exact(p.max(1)).zip(y) {
            for (&l, &o) in row.iter().zip(offsets) {
                b[o + l as usize] += yi - mean;
            }
        }
        let chol = Cholesky::new_plus_diagonal(&counts.a, f, lambda)?;
        chol.solve(&mut b);
        Ok(OneHotRidge {
            offsets: offsets.clone(),
            mean,
            weights: b,
        })
    }

    /// The same ridge normal equations as [`OneHotRidge::fit_counted`], solved by conjugate
    /// gradients with a diagonal (Jacobi) preconditioner (Golub and Van Loan, "Matrix
    /// Computations", the preconditioned conjugate-gradient method) instead of a
    /// factorisation: O(f^2) an iteration against O(f^3), for a search that refits a model of
    /// many level columns after every few measurements. The right-hand side comes as
    /// `level_sums` (per level column, the sum of the targets of the rows holding it) and the
    /// targets' `mean`; iterations start from `start` (the previous fit, or zeros) and stop
    /// when no residual exceeds `tol` times the largest right-hand side, or after
    /// `max_iterations`. The matrix (counts plus `lambda` on the diagonal) has its smallest
    /// eigenvalue at least `lambda`, so the weights are within about the residuals over
    /// `lambda` of the factorisation's: not the same bit for bit. Returns the model and the
    /// iterations taken.
    pub fn fit_conjugate_gradient(
        counts: &mut LevelCounts,
        level_sums: &[f64],
        mean: f64,
        lambda: f64,
        start: Option<&OneHotRidge>,
        tol: f64,
        max_iterations: usize,
    ) -> Result<(OneHotRidge, usize)> {
        let f = counts.f;
        if level_sums.len() != f {
            return Err(MlError::Data(format!(
                "{f} level columns need as many sums, got {}",
                level_sums.len()
            )));
        }
        if counts.rows == 0 {
            return Err(MlError::Data("no rows to fit".into()));
        }
        check_penalty(lambda)?;
        counts.complete();
        let a = &counts.a;
        let times = |x: &[f64], out: &mut [f64]| times_plus_ridge(a, f, lambda, x, out);
        let diag: Vec<f64> = (0..f).map(|c| a[c * f + c] + lambda).collect();
        let b: Vec<f64> = (0..f)
            .map(|c| level_sums[c] - a[c * f + c] * mean)
            .collect();
        let scale = b.iter().fold(1.0f64, |m, v| m.max(v.abs()));
        let mut x = match start {
            Some(m) if m.weights.len() == f => m.weights.clone(),
            _ => vec![0.0; f],
        };
        let mut q = vec![0.0; f];
        times(&x, &mut q);
        let mut r: Vec<f64> = b.iter().zip(&q).map(|(b, q)| b - q).collect();
        let mut z: Vec<f64> = r.iter().zip(&diag).map(|(r, d)| r / d).collect();
        let mut p = z.clone();
        let mut rz = dot(&r, &z);
        let mut iterations = 0;
        while iterations < max_iterations {
            let worst = r.iter().fold(0.0f64, |m, v| m.max(v.abs()));
            if !worst.is_finite() {
                return Err(MlError::Data("a target is not finite".into()));
            }
            if worst <= tol * scale {
                break;
            }
            iterations += 1;
            times(&p, &mut q);
            let pq = dot(&p, &q);
            if pq <= 0.0 {
                break;
            }
            let alpha = rz / pq;
            // Zipped, not indexed: the same operations on each column, without bounds checks.
            for (x, (p, (r, (q, (z, d))))) in x.iter_mut().zip(
                p.iter()
                    .zip(r.iter_mut().zip(q.iter().zip(z.iter_mut().zip(&diag)))),
            ) {
                *x += alpha * p;
                *r -= alpha * q;
                *z = *r / d;
            }
            let next = dot(&r, &z);
            let beta = next / rz;
            rz = next;
            for (p, z) in p.iter_mut().zip(&z) {
                *p = z + beta * *p;
            }
        }
        Ok((
            OneHotRidge {
                offsets: counts.offsets.clone(),
                mean,
                weights: x,
            },
            iterations,
        ))
    }

    /// The predicted target of a level vector.
    pub fn predict(&self, levels: &[u16]) -> f64 {
        self.mean
            + levels
                .iter()
                .zip(&self.offsets)
                .map(|(&l, &o)| self.weights.get(o + l as usize).copied().unwrap_or(0.0))
                .sum::<f64>()
    }
}

/// The error of a level out of its parameter's range (apart, so that the counting loop keeps
/// its registers).
#[cold]
fn level_outside(level: usize, param: usize, radix: usize) -> MlError {
    MlError::Data(format!(
        "level {level} of parameter {param} is outside its {radix} levels"
    ))
}

/// A ridge penalty both fits accept: a positive, finite number.
fn check_penalty(lambda: f64) -> Result<()> {
    if lambda > 0.0 && lambda.is_finite() {
        Ok(())
    } else {
        Err(MlError::Parameter(format!(
            "ridge penalty {lambda} must be a positive number"
        )))
    }
}

crate::avx2_dispatch! {
    /// `out = (A + lambda I) x` for the `f x f` row-major `a`, each row's product a [`dot`]
    /// ([`times_plus_ridge_body`], compiled for AVX2 where the CPU has it: the same bits).
    fn times_plus_ridge(a: &[f64], f: usize, lambda: f64, x: &[f64], out: &mut [f64])
        = times_plus_ridge_body, avx2 times_plus_ridge_avx2;
}

#[inline(always)]
fn times_plus_ridge_body(a: &[f64], f: usize, lambda: f64, x: &[f64], out: &mut [f64]) {
    for (c, o) in out.iter_mut().enumerate() {
        *o = dot(&a[c * f..(c + 1) * f], x) + lambda * x[c];
    }
}

/// The dot product summed in eight interleaved partial sums, so that the additions do not
/// wait on one another (and vectorise); for the conjugate gradients, whose results need not
/// match a sequential sum bit for bit.
#[inline(always)]
fn dot(a: &[f64], b: &[f64]) -> f64 {
    let mut acc = [0.0f64; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f64 = ca
        .remainder()
        .iter()
        .zip(cb.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in ca.zip(cb) {
        for k in 0..8 {
            acc[k] += x[k] * y[k];
        }
    }
    acc.iter().sum::<f64>() + tail
}

#[cfg(test)]
mod tests;
