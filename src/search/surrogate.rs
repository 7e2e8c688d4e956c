//! Surrogate models for the model-based strategies (IterML, boosted-tree search): one small
//! trait so the models here can later be swapped for the project's Weka-compatible ones in
//! `model/`. A model sees a configuration as its parameter levels (`u16` per parameter);
//! trees split on levels directly (levels are in value order, so this equals splitting on
//! values), distance- and kernel-based models use the values scaled to [0, 1].
//!
//! The models are written here, not taken from smartcore: a search benchmark fits thousands of
//! small models, and histogram splits over a handful of levels are far faster than generic
//! float-matrix code.

use std::fmt;

use super::rng::Rng;
use super::space::SearchSpace;
use super::surrogate_boost::Boosted;
use super::surrogate_svr::Svr;
use super::surrogate_tree::{Forest, Tree, TreeParams};
use crate::error::{Error, Result};

/// Configurations as rows of levels, row-major.
#[derive(Debug, Clone, Default)]
pub struct Rows {
    pub data: Vec<u16>,
    pub width: usize,
}

impl Rows {
    pub fn new(width: usize) -> Self {
        Rows {
            data: Vec::new(),
            width,
        }
    }

    pub fn push(&mut self, row: &[u16]) {
        debug_assert_eq!(row.len(), self.width);
        self.data.extend_from_slice(row);
    }

    pub fn len(&self) -> usize {
        self.data.len().checked_div(self.width).unwrap_or(0)
    }

    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    pub fn row(&self, i: usize) -> &[u16] {
        &self.data[i * self.width..(i + 1) * self.width]
    }
}

/// How a space's levels map to model inputs.
#[derive(Debug, Clone)]
pub struct Encoding {
    /// Number of levels of each parameter.
    pub radix: Vec<usize>,
    /// Each level's value scaled to [0, 1] over the parameter's range.
    pub scaled: Vec<Vec<f64>>,
}

impl Encoding {
    pub fn of(space: &SearchSpace) -> Self {
        let scaled = space
            .numeric
            .iter()
            .map(|vals| {
                let lo = vals.iter().copied().fold(f64::INFINITY, f64::min);
                let hi = vals.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                let span = if hi > lo { hi - lo } else { 1.0 };
                vals.iter().map(|v| (v - lo) / span).collect()
            })
            .collect();
        Encoding {
            radix: space.radix(),
            scaled,
        }
    }

    /// The scaled values of one row.
    pub fn point(&self, row: &[u16], out: &mut Vec<f64>) {
        out.clear();
        out.extend(
            row.iter()
                .enumerate()
                .map(|(j, &l)| self.scaled[j][l as usize]),
        );
    }
}

/// A regression model over configurations.
pub trait Surrogate: Send + Sync {
    /// Fits the model to rows `x` with targets `y`; `rng` drives any random choice.
    fn fit(&mut self, x: &Rows, y: &[f64], rng: &mut Rng);
    /// Predicts one row.
    fn predict(&self, row: &[u16]) -> f64;
}

/// The models a strategy can ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModelKind {
    /// One regression tree grown to full depth (scikit-learn's DecisionTreeRegressor defaults).
    Cart,
    /// Bagged full-depth trees (scikit-learn's RandomForestRegressor, all features per split).
    Forest { trees: usize },
    /// Mean of the k nearest rows (Euclidean on scaled values).
    Knn { k: usize },
    /// Epsilon-SVR with an RBF kernel.
    Svr,
    /// Gradient-boosted regression trees (seed 003: depth 4, 10 rows a leaf, 100 trees).
    Boosted,
}

impl ModelKind {
    /// Parses `rf`, `forest`, `cart`, `knn`, `svr`, `gbrt`.
    pub fn parse(name: &str) -> Result<ModelKind> {
        match name.to_ascii_lowercase().as_str() {
            "rf" | "forest" | "random-forest" => Ok(ModelKind::Forest { trees: 20 }),
            "cart" | "tree" => Ok(ModelKind::Cart),
            "knn" => Ok(ModelKind::Knn { k: 5 }),
            "svr" | "svm" => Ok(ModelKind::Svr),
            "gbrt" | "brt" | "boosted" => Ok(ModelKind::Boosted),
            other => Err(Error::Invalid(format!(
                "unknown model `{other}`: use rf, cart, knn, svr or gbrt"
            ))),
        }
    }

    /// A fresh, unfitted model for a space.
    pub fn build(self, enc: &Encoding) -> Box<dyn Surrogate> {
        match self {
            ModelKind::Cart => Box::new(Tree::new(enc.radix.clone(), TreeParams::full())),
            ModelKind::Forest { trees } => Box::new(Forest::new(enc.radix.clone(), trees)),
            ModelKind::Knn { k } => Box::new(Knn::new(enc.clone(), k)),
            ModelKind::Svr => Box::new(Svr::new(enc.clone())),
            ModelKind::Boosted => Box::new(Boosted::new(enc.radix.clone())),
        }
    }
}

impl fmt::Display for ModelKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModelKind::Cart => write!(f, "cart"),
            ModelKind::Forest { .. } => write!(f, "rf"),
            ModelKind::Knn { .. } => write!(f, "knn"),
            ModelKind::Svr => write!(f, "svr"),
            ModelKind::Boosted => write!(f, "gbrt"),
        }
    }
}

/// k-nearest-neighbour regression (scikit-learn's KNeighborsRegressor: k = 5, uniform
/// weights), on values scaled to [0, 1] so no parameter dominates by its units.
#[derive(Debug, Clone)]
pub struct Knn {
    enc: Encoding,
    k: usize,
    points: Vec<f64>,
    y: Vec<f64>,
    width: usize,
}

impl Knn {
    pub fn new(enc: Encoding, k: usize) -> Self {
        let width = enc.radix.len();
        Knn {
            enc,
            k: k.max(1),
            points: Vec::new(),
            y: Vec::new(),
            width,
        }
    }
}

impl Surrogate for Knn {
    fn fit(&mut self, x: &Rows, y: &[f64], _rng: &mut Rng) {
        let mut p = Vec::new();
        self.points.clear();
        for i in 0..x.len() {
            self.enc.point(x.row(i), &mut p);
            self.points.extend_from_slice(&p);
        }
        self.y = y.to_vec();
    }

    fn predict(&self, row: &[u16]) -> f64 {
        if self.y.is_empty() {
            return 0.0;
        }
        let q: Vec<f64> = row
            .iter()
            .enumerate()
            .map(|(j, &l)| self.enc.scaled[j][l as usize])
            .collect();
        let mut d: Vec<(f64, usize)> = self
            .points
            .chunks_exact(self.width)
            .enumerate()
            .map(|(i, p)| (p.iter().zip(&q).map(|(a, b)| (a - b) * (a - b)).sum(), i))
            .collect();
        let k = self.k.min(d.len());
        d.select_nth_unstable_by(k - 1, |a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        d[..k].iter().map(|&(_, i)| self.y[i]).sum::<f64>() / k as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// y = x0 + 2 x1 on a 6 x 6 grid: every model must rank the corners right.
    fn grid() -> (Encoding, Rows, Vec<f64>) {
        let enc = Encoding {
            radix: vec![6, 6],
            scaled: vec![(0..6).map(|l| l as f64 / 5.0).collect(); 2],
        };
        let mut x = Rows::new(2);
        let mut y = Vec::new();
        for a in 0..6u16 {
            for b in 0..6u16 {
                x.push(&[a, b]);
                y.push(a as f64 + 2.0 * b as f64);
            }
        }
        (enc, x, y)
    }

    #[test]
    fn every_model_learns_a_plane() {
        let (enc, x, y) = grid();
        for name in ["cart", "rf", "knn", "svr", "gbrt"] {
            let mut m = ModelKind::parse(name).unwrap().build(&enc);
            m.fit(&x, &y, &mut Rng::new(3));
            let lo = m.predict(&[0, 0]);
            let mid = m.predict(&[3, 2]);
            let hi = m.predict(&[5, 5]);
            assert!(lo < mid && mid < hi, "{name}: {lo} {mid} {hi}");
        }
        assert!(ModelKind::parse("mlp").is_err());
    }
}
