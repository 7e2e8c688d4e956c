//! An additive model of parameter levels: ridge regression on a one-hot coding of every
//! parameter's level, y ~ mean + sum_j w[j][level_j]. It is the cheapest model that tells a
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
        if y.is_empty() {
            return Err(MlError::Data("no rows to fit".into()));
        }
        if !(lambda > 0.0 && lambda.is_finite()) {
            return Err(MlError::Parameter(format!(
                "ridge penalty {lambda} must be a positive number"
            )));
        }
        let mut offsets = Vec::with_capacity(p);
        let mut f = 0;
        for &r in radix {
            offsets.push(f);
            f += r;
        }
        let mean = y.iter().sum::<f64>() / y.len() as f64;
        let mut a = vec![0.0; f * f];
        let mut b = vec![0.0; f];
        let mut cols = vec![0usize; p];
        for (row, &yi) in rows.chunks_exact(p.max(1)).zip(y) {
            for j in 0..p {
                let l = row[j] as usize;
                if l >= radix[j] {
                    return Err(MlError::Data(format!(
                        "level {l} of parameter {j} is outside its {} levels",
                        radix[j]
                    )));
                }
                cols[j] = offsets[j] + l;
            }
            for &c in &cols {
                b[c] += yi - mean;
                for &d in &cols {
                    a[c * f + d] += 1.0;
                }
            }
        }
        for c in 0..f {
            a[c * f + c] += lambda;
        }
        let chol = Cholesky::new(&a, f)?;
        chol.solve(&mut b);
        Ok(OneHotRidge {
            offsets,
            mean,
            weights: b,
        })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recovers_main_effects() {
        // y = 1 + a_effect[a] + b_effect[b] on a full 3 x 2 grid.
        let ea = [0.0, 2.0, -1.0];
        let eb = [0.5, -0.5];
        let mut rows = Vec::new();
        let mut y = Vec::new();
        for a in 0..3u16 {
            for b in 0..2u16 {
                rows.extend([a, b]);
                y.push(1.0 + ea[a as usize] + eb[b as usize]);
            }
        }
        let m = OneHotRidge::fit(&[3, 2], &rows, &y, 1e-6).unwrap();
        for (r, want) in rows.chunks(2).zip(&y) {
            assert!((m.predict(r) - want).abs() < 1e-4);
        }
        assert!(m.predict(&[2, 1]) < m.predict(&[1, 0]));
    }

    #[test]
    fn clear_errors() {
        assert!(OneHotRidge::fit(&[2], &[0, 1], &[1.0], 1.0).is_err());
        assert!(OneHotRidge::fit(&[2], &[5], &[1.0], 1.0).is_err());
        assert!(OneHotRidge::fit(&[2], &[1], &[1.0], 0.0).is_err());
        assert!(OneHotRidge::fit(&[2], &[], &[], 1.0).is_err());
    }
}
