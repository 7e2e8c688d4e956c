//! Support vector machines with an RBF kernel: one kernel, two solvers.
//! - [`Svc`]: the classifier STATuner uses (Gupta et al., section 3.2): one-vs-one for many
//!   classes, trained with simplified SMO (Platt), features standardized on the training rows
//!   (those constant there dropped, as libsvm's `svm-scale` does), every random choice from the
//!   caller's seed. On the same inputs it makes libsvm's (scikit-learn's `SVC`) predictions.
//! - [`Svr`]: epsilon-support-vector regression as scikit-learn's `SVR()` defaults (C = 1,
//!   epsilon = 0.1, gamma = 1 / (features x variance of the inputs)) on targets standardized,
//!   for the search strategies' surrogate ([`LevelSvrParams`]: levels scaled to [0, 1]). The
//!   dual is solved by coordinate descent on the signed coefficients b_i in [-C, C],
//!   minimising 1/2 b'Kb - y'b + eps |b|_1, with the intercept folded into the kernel (K + 1),
//!   which removes the equality constraint of the standard dual.

use crate::data::Standardizer;
use crate::error::{MlError, Result};
use crate::levels::{LevelScale, LevelSet};
use crate::rng::SplitMix64;
use crate::{Fit, PredictRow};

/// The RBF kernel exp(-gamma |a - b|^2), plus a constant `bias` (1 folds an intercept into
/// the kernel).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rbf {
    pub gamma: f64,
    pub bias: f64,
}

impl Rbf {
    pub fn eval(&self, a: &[f64], b: &[f64]) -> f64 {
        let d: f64 = a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum();
        (-self.gamma * d).exp() + self.bias
    }

    /// The Gram matrix of `points`, row-major.
    pub fn gram(&self, points: &[Vec<f64>]) -> Vec<Vec<f64>> {
        points
            .iter()
            .map(|a| points.iter().map(|b| self.eval(a, b)).collect())
            .collect()
    }
}

/// Hyper-parameters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SvcParams {
    /// Soft-margin penalty.
    pub c: f64,
    /// RBF width; `None` = 1 / number of features (libsvm's default).
    pub gamma: Option<f64>,
    pub tol: f64,
    /// SMO stops after this many passes without a change.
    pub max_passes: usize,
    pub seed: u64,
}

impl Default for SvcParams {
    fn default() -> Self {
        SvcParams {
            c: 10.0,
            gamma: None,
            tol: 1e-3,
            max_passes: 20,
            seed: 1,
        }
    }
}

#[derive(Debug, Clone)]
struct Binary {
    /// Class voted for by a positive decision, and by a negative one.
    pos: u32,
    neg: u32,
    support: Vec<(Vec<f64>, f64)>, // (x, alpha * y)
    b: f64,
}

/// A fitted classifier.
#[derive(Debug, Clone)]
pub struct Svc {
    standardizer: Standardizer,
    gamma: f64,
    models: Vec<Binary>,
    /// Set when training saw a single class.
    only: Option<u32>,
}

fn smo(
    x: &[Vec<f64>],
    y: &[f64],
    p: &SvcParams,
    gamma: f64,
    rng: &mut SplitMix64,
) -> (Vec<f64>, f64) {
    let n = x.len();
    let k = Rbf { gamma, bias: 0.0 }.gram(x);
    let mut alpha = vec![0.0; n];
    let mut b = 0.0;
    let f = |alpha: &[f64], b: f64, i: usize| -> f64 {
        (0..n).map(|j| alpha[j] * y[j] * k[j][i]).sum::<f64>() + b
    };
    let (mut passes, mut rounds) = (0, 0);
    while passes < p.max_passes && rounds < 10_000 {
        rounds += 1;
        let mut changed = 0;
        for i in 0..n {
            let ei = f(&alpha, b, i) - y[i];
            if !((y[i] * ei < -p.tol && alpha[i] < p.c) || (y[i] * ei > p.tol && alpha[i] > 0.0)) {
                continue;
            }
            let mut j = rng.below(n - 1);
            if j >= i {
                j += 1;
            }
            let ej = f(&alpha, b, j) - y[j];
            let (ai, aj) = (alpha[i], alpha[j]);
            let (lo, hi) = if y[i] != y[j] {
                ((aj - ai).max(0.0), (p.c + aj - ai).min(p.c))
            } else {
                ((ai + aj - p.c).max(0.0), (ai + aj).min(p.c))
            };
            if (hi - lo).abs() < 1e-12 {
                continue;
            }
            let eta = 2.0 * k[i][j] - k[i][i] - k[j][j];
            if eta >= 0.0 {
                continue;
            }
            let new_j = (aj - y[j] * (ei - ej) / eta).clamp(lo, hi);
            if (new_j - aj).abs() < 1e-7 {
                continue;
            }
            let new_i = ai + y[i] * y[j] * (aj - new_j);
            let b1 = b - ei - y[i] * (new_i - ai) * k[i][i] - y[j] * (new_j - aj) * k[i][j];
            let b2 = b - ej - y[i] * (new_i - ai) * k[i][j] - y[j] * (new_j - aj) * k[j][j];
            b = if new_i > 0.0 && new_i < p.c {
                b1
            } else if new_j > 0.0 && new_j < p.c {
                b2
            } else {
                (b1 + b2) / 2.0
            };
            alpha[i] = new_i;
            alpha[j] = new_j;
            changed += 1;
        }
        passes = if changed == 0 { passes + 1 } else { 0 };
    }
    (alpha, b)
}

impl Svc {
    /// Fits on rows `x` with class labels `y`.
    pub fn fit(x: &[Vec<f64>], y: &[u32], p: &SvcParams) -> Result<Svc> {
        if x.is_empty() || x.len() != y.len() {
            return Err(MlError::Data(
                "SVC needs as many labels as rows, and at least one row".into(),
            ));
        }
        if p.c.is_nan() || p.c <= 0.0 {
            return Err(MlError::Parameter(format!(
                "SVC: C must be > 0, not {}",
                p.c
            )));
        }
        let standardizer = Standardizer::fit_dropping_constant(x);
        // libsvm's default gamma: 1 / the number of features (those that vary).
        let gamma = p.gamma.unwrap_or(1.0 / standardizer.kept().max(1) as f64);
        let mut classes: Vec<u32> = y.to_vec();
        classes.sort_unstable();
        classes.dedup();
        let mut svc = Svc {
            standardizer,
            gamma,
            models: Vec::new(),
            only: (classes.len() == 1).then_some(classes[0]),
        };
        let z: Vec<Vec<f64>> = x.iter().map(|r| svc.standardize(r)).collect();
        let mut rng = SplitMix64::new(p.seed);
        for (ia, &a) in classes.iter().enumerate() {
            for &bcls in &classes[ia + 1..] {
                let idx: Vec<usize> = (0..y.len())
                    .filter(|&i| y[i] == a || y[i] == bcls)
                    .collect();
                let xs: Vec<Vec<f64>> = idx.iter().map(|&i| z[i].clone()).collect();
                let ys: Vec<f64> = idx
                    .iter()
                    .map(|&i| if y[i] == a { 1.0 } else { -1.0 })
                    .collect();
                let (alpha, b) = smo(&xs, &ys, p, gamma, &mut rng);
                let support = xs
                    .into_iter()
                    .zip(alpha.iter().zip(&ys))
                    .filter(|(_, (a, _))| **a > 1e-12)
                    .map(|(x, (a, y))| (x, a * y))
                    .collect();
                svc.models.push(Binary {
                    pos: a,
                    neg: bcls,
                    support,
                    b,
                });
            }
        }
        Ok(svc)
    }

    fn standardize(&self, r: &[f64]) -> Vec<f64> {
        self.standardizer.apply(r)
    }

    /// The predicted class of one row: most one-vs-one votes; ties go to the class with the
    /// larger summed decision margin, then to the smaller label.
    pub fn predict(&self, row: &[f64]) -> u32 {
        if let Some(c) = self.only {
            return c;
        }
        let z = self.standardize(row);
        let kernel = Rbf {
            gamma: self.gamma,
            bias: 0.0,
        };
        let mut score: Vec<(u32, usize, f64)> = Vec::new();
        let mut add = |c: u32, margin: f64| match score.iter_mut().find(|s| s.0 == c) {
            Some(s) => {
                s.1 += 1;
                s.2 += margin;
            }
            None => score.push((c, 1, margin)),
        };
        for m in &self.models {
            let d: f64 = m
                .support
                .iter()
                .map(|(x, ay)| ay * kernel.eval(x, &z))
                .sum::<f64>()
                + m.b;
            if d >= 0.0 {
                add(m.pos, d.abs());
            } else {
                add(m.neg, d.abs());
            }
        }
        score.sort_by(|a, b| b.1.cmp(&a.1).then(b.2.total_cmp(&a.2)).then(a.0.cmp(&b.0)));
        score.first().map_or(0, |s| s.0)
    }
}

const SVR_C: f64 = 1.0;
const SVR_EPSILON: f64 = 0.1;
const SVR_SWEEPS: usize = 200;

/// A fitted epsilon-SVR.
#[derive(Debug, Clone)]
pub struct Svr {
    kernel: Rbf,
    support: Vec<Vec<f64>>,
    coef: Vec<f64>,
    y_mean: f64,
    y_std: f64,
}

impl Svr {
    /// Fits points (inputs already scaled) to targets `y`.
    pub fn fit(points: Vec<Vec<f64>>, y: &[f64]) -> Svr {
        let n = points.len();
        let mut svr = Svr {
            kernel: Rbf {
                gamma: 1.0,
                bias: 1.0,
            },
            support: Vec::new(),
            coef: Vec::new(),
            y_mean: 0.0,
            y_std: 1.0,
        };
        if n == 0 {
            return svr;
        }
        let width = points[0].len().max(1);
        let all: Vec<f64> = points.iter().flatten().copied().collect();
        let mean = all.iter().sum::<f64>() / all.len().max(1) as f64;
        let var = all.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / all.len().max(1) as f64;
        svr.kernel.gamma = if var > 0.0 {
            1.0 / (width as f64 * var)
        } else {
            1.0
        };
        svr.y_mean = y.iter().sum::<f64>() / n as f64;
        let sd = (y.iter().map(|v| (v - svr.y_mean).powi(2)).sum::<f64>() / n as f64).sqrt();
        svr.y_std = if sd > 0.0 { sd } else { 1.0 };
        let t: Vec<f64> = y.iter().map(|v| (v - svr.y_mean) / svr.y_std).collect();
        let k: Vec<f64> = (0..n * n)
            .map(|ij| svr.kernel.eval(&points[ij / n], &points[ij % n]))
            .collect();
        let mut b = vec![0.0; n];
        let mut kb = vec![0.0; n]; // K b
        for _ in 0..SVR_SWEEPS {
            let mut change = 0f64;
            for i in 0..n {
                let kii = k[i * n + i];
                let g = kb[i] - t[i];
                let z = kii * b[i] - g;
                let new =
                    (z.signum() * (z.abs() - SVR_EPSILON).max(0.0) / kii).clamp(-SVR_C, SVR_C);
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
        for (i, p) in points.into_iter().enumerate() {
            if b[i] != 0.0 {
                svr.support.push(p);
                svr.coef.push(b[i]);
            }
        }
        svr
    }

    /// The prediction for one scaled point.
    pub fn predict_point(&self, q: &[f64]) -> f64 {
        let s: f64 = self
            .support
            .iter()
            .zip(&self.coef)
            .map(|(p, c)| c * self.kernel.eval(p, q))
            .sum();
        self.y_mean + self.y_std * s
    }
}

/// The search strategies' SVR over levels (values scaled to [0, 1]).
#[derive(Debug, Clone)]
pub struct LevelSvrParams {
    pub scale: LevelScale,
}

/// A fitted level-coded SVR.
#[derive(Debug, Clone)]
pub struct LevelSvr {
    scale: LevelScale,
    svr: Svr,
}

impl Fit<LevelSet<'_>> for LevelSvrParams {
    type Model = LevelSvr;

    fn fit(&self, set: &LevelSet<'_>) -> Result<LevelSvr> {
        let points = (0..set.x.len())
            .map(|i| {
                let mut p = Vec::new();
                self.scale.point(set.x.row(i), &mut p);
                p
            })
            .collect();
        Ok(LevelSvr {
            scale: self.scale.clone(),
            svr: Svr::fit(points, set.y),
        })
    }
}

impl PredictRow<u16> for LevelSvr {
    fn predict_row(&self, row: &[u16]) -> f64 {
        let mut q = Vec::with_capacity(row.len());
        self.scale.point(row, &mut q);
        self.svr.predict_point(&q)
    }
}

#[cfg(test)]
mod tests;
