//! `gbrt`: gradient-boosted regression trees with squared loss: start from the mean, then each
//! tree (depth <= 4, >= 10 rows per leaf, exact best splits) fits the residuals and is added
//! with a learning rate. Rows are encoded as M5P encodes them. With `subsample` < 1 each tree
//! sees a random part of the rows, drawn from `seed`.

use serde::{Deserialize, Serialize};

use super::data::Data;
use super::weka_filters::Encoder;
use super::weka_util::JavaRandom;
use super::{Learner, Predictor};
use crate::error::{Error, Result};

/// Hyper-parameters of `gbrt`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GbrtParams {
    pub n_trees: usize,
    pub max_depth: usize,
    pub min_samples_leaf: usize,
    pub learning_rate: f64,
    /// Fraction of rows each tree is fitted on (1: all rows, no randomness).
    pub subsample: f64,
    pub seed: u64,
}

impl Default for GbrtParams {
    fn default() -> Self {
        GbrtParams {
            n_trees: 100,
            max_depth: 4,
            min_samples_leaf: 10,
            learning_rate: 0.1,
            subsample: 1.0,
            seed: 3,
        }
    }
}

/// A node of one boosted tree.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum Tree {
    Leaf(f64),
    Split {
        feature: usize,
        threshold: f64,
        left: Box<Tree>,
        right: Box<Tree>,
    },
}

impl Tree {
    fn predict(&self, row: &[f64]) -> f64 {
        match self {
            Tree::Leaf(v) => *v,
            Tree::Split {
                feature,
                threshold,
                left,
                right,
            } => {
                if row[*feature] <= *threshold {
                    left.predict(row)
                } else {
                    right.predict(row)
                }
            }
        }
    }
}

/// A fitted `gbrt`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Gbrt {
    encoder: Encoder,
    base: f64,
    learning_rate: f64,
    trees: Vec<Tree>,
}

struct Grower<'a> {
    x: &'a [Vec<f64>],
    r: &'a [f64],
    p: &'a GbrtParams,
    /// Every row, sorted by each feature once per fit; a node scans these in order.
    sorted: &'a [Vec<usize>],
}

impl Grower<'_> {
    fn grow(&self, rows: &[usize], depth: usize) -> Tree {
        let n = rows.len();
        let sum: f64 = rows.iter().map(|&i| self.r[i]).sum();
        let mean = sum / n as f64;
        if depth >= self.p.max_depth || n < 2 * self.p.min_samples_leaf {
            return Tree::Leaf(mean);
        }
        // The split maximizing sumL^2/nL + sumR^2/nR (the squared-error reduction).
        let base = sum * sum / n as f64;
        let mut best: Option<(f64, usize, f64)> = None;
        let mut member = vec![false; self.x.len()];
        for &i in rows {
            member[i] = true;
        }
        let mut sorted = Vec::with_capacity(n);
        for (f, order) in self.sorted.iter().enumerate() {
            sorted.clear();
            sorted.extend(order.iter().copied().filter(|&i| member[i]));
            let mut left = 0.0;
            for k in 0..n - 1 {
                left += self.r[sorted[k]];
                let nl = k + 1;
                let (a, b) = (self.x[sorted[k]][f], self.x[sorted[k + 1]][f]);
                if nl < self.p.min_samples_leaf || n - nl < self.p.min_samples_leaf || a == b {
                    continue;
                }
                let right = sum - left;
                let gain = left * left / nl as f64 + right * right / (n - nl) as f64 - base;
                if gain > 1e-12 && best.is_none_or(|(g, _, _)| gain > g) {
                    // Between two neighbouring large floats the midpoint can round up to b,
                    // which would send b's rows left too; then split at a itself.
                    let mid = a + (b - a) * 0.5;
                    best = Some((gain, f, if mid < b { mid } else { a }));
                }
            }
        }
        let Some((_, feature, threshold)) = best else {
            return Tree::Leaf(mean);
        };
        let (l, r): (Vec<usize>, Vec<usize>) =
            rows.iter().partition(|&&i| self.x[i][feature] <= threshold);
        if l.is_empty() || r.is_empty() {
            return Tree::Leaf(mean);
        }
        Tree::Split {
            feature,
            threshold,
            left: Box::new(self.grow(&l, depth + 1)),
            right: Box::new(self.grow(&r, depth + 1)),
        }
    }
}

impl Learner for GbrtParams {
    type Model = Gbrt;

    fn fit(&self, data: &Data) -> Result<Gbrt> {
        let data = data.with_known_target();
        if data.y.is_empty() {
            return Err(Error::Invalid(
                "no training rows with a known target".into(),
            ));
        }
        if !(self.subsample > 0.0 && self.subsample <= 1.0) || self.max_depth == 0 {
            return Err(Error::Invalid(
                "gbrt: subsample must be in (0, 1] and max_depth at least 1".into(),
            ));
        }
        let (encoder, x) = Encoder::fit(&data);
        let n = data.y.len();
        let base = data.y.iter().sum::<f64>() / n as f64;
        let mut pred = vec![base; n];
        let mut rand = JavaRandom::new(self.seed as i64);
        let mut trees = Vec::with_capacity(self.n_trees);
        let take = ((n as f64 * self.subsample).round() as usize).clamp(1, n);
        let width = x.first().map_or(0, Vec::len);
        let sorted: Vec<Vec<usize>> = (0..width)
            .map(|f| {
                let mut order: Vec<usize> = (0..n).collect();
                order.sort_by(|&a, &b| x[a][f].total_cmp(&x[b][f]));
                order
            })
            .collect();
        for _ in 0..self.n_trees {
            let resid: Vec<f64> = data.y.iter().zip(&pred).map(|(y, p)| y - p).collect();
            let mut rows: Vec<usize> = (0..n).collect();
            if take < n {
                rand.shuffle(&mut rows);
                rows.truncate(take);
            }
            let tree = Grower {
                x: &x,
                r: &resid,
                p: self,
                sorted: &sorted,
            }
            .grow(&rows, 0);
            for (p, row) in pred.iter_mut().zip(&x) {
                *p += self.learning_rate * tree.predict(row);
            }
            trees.push(tree);
        }
        Ok(Gbrt {
            encoder,
            base,
            learning_rate: self.learning_rate,
            trees,
        })
    }
}

impl Predictor for Gbrt {
    fn predict(&self, x: &[Vec<f64>]) -> Result<Vec<f64>> {
        Ok(x.iter()
            .map(|r| {
                let row = self.encoder.apply(r);
                self.trees.iter().fold(self.base, |acc, t| {
                    acc + self.learning_rate * t.predict(&row)
                })
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbouring_large_values_split_cleanly() {
        // 1e19 and the next float up: their midpoint rounds to one of them.
        let a = 1e19f64;
        let b = f64::from_bits(a.to_bits() + 1);
        let x: Vec<Vec<f64>> = (0..40).map(|i| vec![if i < 20 { a } else { b }]).collect();
        let y: Vec<f64> = (0..40).map(|i| if i < 20 { 1.0 } else { 3.0 }).collect();
        let m = GbrtParams::default()
            .fit(&Data::numeric(&["a".into()], "y", x, y))
            .unwrap();
        let p = m.predict(&[vec![a], vec![b]]).unwrap();
        assert!(p.iter().all(|v| v.is_finite()), "{p:?}");
        assert!(
            (p[0] - 1.0).abs() < 0.01 && (p[1] - 3.0).abs() < 0.01,
            "{p:?}"
        );
    }

    #[test]
    fn fits_a_step() {
        let x: Vec<Vec<f64>> = (0..40).map(|i| vec![i as f64]).collect();
        let y: Vec<f64> = (0..40).map(|i| if i < 20 { 1.0 } else { 3.0 }).collect();
        let data = Data::numeric(&["a".into()], "y", x, y);
        let m = GbrtParams::default().fit(&data).unwrap();
        let p = m.predict(&[vec![5.0], vec![35.0]]).unwrap();
        assert!(
            (p[0] - 1.0).abs() < 0.01 && (p[1] - 3.0).abs() < 0.01,
            "{p:?}"
        );
    }
}
