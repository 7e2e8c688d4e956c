//! Epsilon-support-vector regression with an RBF kernel, as scikit-learn's `SVR()` defaults
//! (C = 1, epsilon = 0.1, gamma = 1 / (parameters x variance of the inputs)), on inputs scaled
//! to [0, 1] and targets standardized (scikit-learn leaves targets as given; our targets vary
//! in scale from space to space, so a fixed epsilon needs them standardized).
//!
//! The dual is solved by coordinate descent on the signed coefficients b_i in [-C, C],
//! minimising 1/2 b'Kb - y'b + eps |b|_1, with the intercept folded into the kernel (K + 1),
//! which removes the equality constraint of the standard dual.

use super::rng::Rng;
use super::surrogate::{Encoding, Rows, Surrogate};

const C: f64 = 1.0;
const EPSILON: f64 = 0.1;
const SWEEPS: usize = 200;

/// A fitted (or empty) SVR.
#[derive(Debug, Clone)]
pub struct Svr {
    enc: Encoding,
    gamma: f64,
    support: Vec<Vec<f64>>,
    coef: Vec<f64>,
    y_mean: f64,
    y_std: f64,
}

impl Svr {
    pub fn new(enc: Encoding) -> Self {
        Svr {
            enc,
            gamma: 1.0,
            support: Vec::new(),
            coef: Vec::new(),
            y_mean: 0.0,
            y_std: 1.0,
        }
    }

    fn kernel(&self, a: &[f64], b: &[f64]) -> f64 {
        let d: f64 = a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum();
        (-self.gamma * d).exp() + 1.0
    }
}

impl Surrogate for Svr {
    fn fit(&mut self, x: &Rows, y: &[f64], _rng: &mut Rng) {
        let n = x.len();
        self.support.clear();
        self.coef.clear();
        if n == 0 {
            return;
        }
        let pts: Vec<Vec<f64>> = (0..n)
            .map(|i| {
                let mut p = Vec::new();
                self.enc.point(x.row(i), &mut p);
                p
            })
            .collect();
        let width = x.width.max(1);
        let all: Vec<f64> = pts.iter().flatten().copied().collect();
        let mean = all.iter().sum::<f64>() / all.len().max(1) as f64;
        let var = all.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / all.len().max(1) as f64;
        self.gamma = if var > 0.0 {
            1.0 / (width as f64 * var)
        } else {
            1.0
        };
        self.y_mean = y.iter().sum::<f64>() / n as f64;
        let sd = (y.iter().map(|v| (v - self.y_mean).powi(2)).sum::<f64>() / n as f64).sqrt();
        self.y_std = if sd > 0.0 { sd } else { 1.0 };
        let t: Vec<f64> = y.iter().map(|v| (v - self.y_mean) / self.y_std).collect();
        let k: Vec<f64> = (0..n * n)
            .map(|ij| self.kernel(&pts[ij / n], &pts[ij % n]))
            .collect();
        let mut b = vec![0.0; n];
        let mut kb = vec![0.0; n]; // K b
        for _ in 0..SWEEPS {
            let mut change = 0f64;
            for i in 0..n {
                let kii = k[i * n + i];
                let g = kb[i] - t[i];
                let z = kii * b[i] - g;
                let new = (z.signum() * (z.abs() - EPSILON).max(0.0) / kii).clamp(-C, C);
                let d = new - b[i];
                if d != 0.0 {
                    b[i] = new;
                    for (j, v) in kb.iter_mut().enumerate() {
                        *v += d * k[i * n + j];
                    }
                    change = change.max(d.abs());
                }
            }
            if change < 1e-6 {
                break;
            }
        }
        for (i, p) in pts.into_iter().enumerate() {
            if b[i] != 0.0 {
                self.support.push(p);
                self.coef.push(b[i]);
            }
        }
    }

    fn predict(&self, row: &[u16]) -> f64 {
        let mut q = Vec::with_capacity(row.len());
        self.enc.point(row, &mut q);
        let s: f64 = self
            .support
            .iter()
            .zip(&self.coef)
            .map(|(p, c)| c * self.kernel(p, &q))
            .sum();
        self.y_mean + self.y_std * s
    }
}
