//! Gradient-boosted regression trees with squared loss (Friedman; seed 003, section 2.3): each
//! round fits a small tree to the residuals of the rounds before. Seed 003's settings: trees
//! of depth at most 4, at least 10 rows a leaf, 100 rounds. The seed names no shrinkage; we use
//! the customary learning rate 0.1 and fit every round on all rows (no subsampling), so a fit
//! is deterministic.

use super::rng::Rng;
use super::surrogate::{Rows, Surrogate};
use super::surrogate_tree::{Tree, TreeParams};

/// Boosting settings.
#[derive(Debug, Clone, Copy)]
pub struct BoostParams {
    pub rounds: usize,
    pub learning_rate: f64,
    pub tree: TreeParams,
}

impl Default for BoostParams {
    fn default() -> Self {
        BoostParams {
            rounds: 100,
            learning_rate: 0.1,
            tree: TreeParams {
                max_depth: 4,
                min_leaf: 10,
                min_split: 2,
                max_features: 0,
            },
        }
    }
}

/// A boosted ensemble.
#[derive(Debug, Clone)]
pub struct Boosted {
    radix: Vec<usize>,
    params: BoostParams,
    base: f64,
    trees: Vec<Tree>,
}

impl Boosted {
    pub fn new(radix: Vec<usize>) -> Self {
        Boosted::with(radix, BoostParams::default())
    }

    pub fn with(radix: Vec<usize>, params: BoostParams) -> Self {
        Boosted {
            radix,
            params,
            base: 0.0,
            trees: Vec::new(),
        }
    }
}

impl Surrogate for Boosted {
    fn fit(&mut self, x: &Rows, y: &[f64], rng: &mut Rng) {
        self.trees.clear();
        let n = x.len();
        if n == 0 {
            self.base = 0.0;
            return;
        }
        self.base = y.iter().sum::<f64>() / n as f64;
        let mut fitted = vec![self.base; n];
        let mut residual = vec![0.0; n];
        let mut sample: Vec<u32> = (0..n as u32).collect();
        let lr = self.params.learning_rate;
        for _ in 0..self.params.rounds {
            for i in 0..n {
                residual[i] = y[i] - fitted[i];
            }
            let mut t = Tree::new(self.radix.clone(), self.params.tree);
            t.grow(x, &residual, &mut sample, rng);
            if t.size() == 1 && t.predict_row(x.row(0)).abs() < 1e-15 {
                break; // nothing left to explain
            }
            for (i, f) in fitted.iter_mut().enumerate() {
                *f += lr * t.predict_row(x.row(i));
            }
            self.trees.push(t);
        }
    }

    fn predict(&self, row: &[u16]) -> f64 {
        self.base
            + self.params.learning_rate * self.trees.iter().map(|t| t.predict_row(row)).sum::<f64>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boosting_reduces_training_error() {
        let mut x = Rows::new(2);
        let mut y = Vec::new();
        for a in 0..8u16 {
            for b in 0..8u16 {
                x.push(&[a, b]);
                y.push(((a as f64) - 3.0).powi(2) + (b as f64) * 0.5);
            }
        }
        let mse = |rounds| {
            let params = BoostParams {
                rounds,
                ..BoostParams::default()
            };
            let mut m = Boosted::with(vec![8, 8], params);
            m.fit(&x, &y, &mut Rng::new(0));
            (0..x.len())
                .map(|i| (m.predict(x.row(i)) - y[i]).powi(2))
                .sum::<f64>()
                / x.len() as f64
        };
        assert!(mse(100) < mse(10) && mse(10) < mse(1));
    }
}
