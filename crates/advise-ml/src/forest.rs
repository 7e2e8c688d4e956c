//! Random forests (Breiman): trees grown on bootstrap samples, each split choosing among a
//! random subset of the features, predictions averaged. One forest serves both input kinds:
//! `forest` over `f64` rows ([`ForestParams`], exact splits on rows encoded as M5P encodes them)
//! and the search strategies' level-coded forest ([`LevelForestParams`], histogram splits,
//! every parameter a candidate, as scikit-learn's RandomForestRegressor runs by default).
//! Every random draw comes from [`Rng`]: a seed gives the same forest on every platform.

use serde::{Deserialize, Serialize};

use crate::data::Data;
use crate::levels::LevelSet;
use crate::rng::Rng;
use crate::tree::{grow, ExactSplit, HistogramSplit, SplitFinder, Tree, TreeParams};
use crate::weka::filters::Encoder;
use crate::{Fit, MlError, Predict, PredictRow, Result};

/// A bagged ensemble of trees over rows of `T`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Bagged<T> {
    trees: Vec<Tree<T>>,
}

impl<T: Copy + PartialOrd + Default> Bagged<T> {
    /// Grows `n_trees` trees, each on `n` rows drawn with replacement from `rng`.
    pub fn grow<S: SplitFinder<Threshold = T>>(
        finder: &mut S,
        y: &[f64],
        n_trees: usize,
        params: &TreeParams,
        rng: &mut Rng,
    ) -> Self {
        let n = y.len();
        let mut sample = vec![0u32; n];
        let trees = (0..n_trees.max(1))
            .map(|_| {
                for s in sample.iter_mut() {
                    *s = rng.below(n.max(1)) as u32;
                }
                grow(finder, y, &mut sample, params, rng)
            })
            .collect();
        Bagged { trees }
    }
}

impl<T: Copy + PartialOrd> Bagged<T> {
    /// Why an ensemble read from a file cannot be one [`Bagged::grow`] made for rows `width`
    /// wide: no tree, or a tree that fails [`Tree::check`].
    pub fn check(&self, width: usize) -> std::result::Result<(), String> {
        if self.trees.is_empty() {
            return Err("no tree".into());
        }
        for (i, t) in self.trees.iter().enumerate() {
            t.check(width).map_err(|e| format!("tree {i}: {e}"))?;
        }
        Ok(())
    }
}

impl<T: Copy + PartialOrd> PredictRow<T> for Bagged<T> {
    fn predict_row(&self, row: &[T]) -> f64 {
        if self.trees.is_empty() {
            return 0.0;
        }
        self.trees.iter().map(|t| t.predict_row(row)).sum::<f64>() / self.trees.len() as f64
    }
}

/// Hyper-parameters of `forest`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ForestParams {
    pub n_trees: usize,
    /// Features tried at each split; `None`: a third of them (Breiman's choice for
    /// regression), at least one.
    pub mtry: Option<usize>,
    pub max_depth: Option<usize>,
    pub min_samples_leaf: usize,
    /// Seeds the bootstrap samples and the features tried.
    pub seed: u64,
}

impl Default for ForestParams {
    fn default() -> Self {
        ForestParams {
            n_trees: 100,
            mtry: None,
            max_depth: None,
            min_samples_leaf: 1,
            seed: 1,
        }
    }
}

/// A fitted `forest`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Forest {
    encoder: Encoder,
    forest: Bagged<f64>,
}

impl Fit<Data> for ForestParams {
    type Model = Forest;

    fn fit(&self, data: &Data) -> Result<Forest> {
        let data = data.with_known_target();
        if data.y.len() < 2 || data.features.is_empty() {
            return Err(MlError::Data(
                "forest needs at least 2 training rows with a known target and 1 feature".into(),
            ));
        }
        if self.n_trees == 0 || self.min_samples_leaf == 0 {
            return Err(MlError::Parameter(
                "forest: n_trees and min_samples_leaf must be at least 1".into(),
            ));
        }
        let (encoder, rows) = Encoder::fit(&data);
        let width = rows.first().map_or(0, Vec::len);
        let params = TreeParams {
            max_depth: self.max_depth.unwrap_or(usize::MAX),
            min_leaf: self.min_samples_leaf,
            min_split: 2,
            max_features: self.mtry.unwrap_or(width / 3).clamp(1, width.max(1)),
            stop_when_pure: true,
        };
        let mut rng = Rng::new(self.seed);
        let forest = Bagged::grow(
            &mut ExactSplit::new(&rows),
            &data.y,
            self.n_trees,
            &params,
            &mut rng,
        );
        Ok(Forest { encoder, forest })
    }
}

impl Forest {
    /// Why a forest read from a file cannot be one `fit` made for rows of `width` features.
    pub fn check(&self, width: usize) -> std::result::Result<(), String> {
        self.forest.check(self.encoder.check(width)?)
    }
}

impl Predict<[Vec<f64>]> for Forest {
    fn predict(&self, x: &[Vec<f64>]) -> Result<Vec<f64>> {
        Ok(x.iter()
            .map(|r| self.forest.predict_row(&self.encoder.apply(r)))
            .collect())
    }
}

/// The search strategies' forest over levels: full-depth trees, every parameter a candidate.
#[derive(Debug, Clone)]
pub struct LevelForestParams {
    pub radix: Vec<usize>,
    pub n_trees: usize,
}

impl Fit<LevelSet<'_>> for LevelForestParams {
    type Model = Bagged<u16>;

    fn fit(&self, set: &LevelSet<'_>) -> Result<Bagged<u16>> {
        let mut finder = HistogramSplit::new(set.x, &self.radix);
        Ok(set.with_rng(|rng| {
            Bagged::grow(&mut finder, set.y, self.n_trees, &TreeParams::full(), rng)
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::levels::Levels;
    use crate::synthetic::synthetic;

    #[test]
    fn level_forest_is_reproducible() {
        let mut x = Levels::new(1);
        let mut y = Vec::new();
        for i in 0..30u16 {
            x.push(&[i]);
            y.push((i as f64 - 15.0).powi(2));
        }
        let fit = |seed| {
            let p = LevelForestParams {
                radix: vec![30],
                n_trees: 10,
            };
            p.fit(&LevelSet::new(&x, &y, Rng::new(seed)))
                .unwrap()
                .predict_row(&[7])
        };
        assert_eq!(fit(1), fit(1));
    }

    #[test]
    fn forest_is_fixed_by_its_seed_and_beats_the_mean() {
        let data = synthetic(200, 8, 3);
        let fit = |seed| {
            ForestParams {
                seed,
                n_trees: 30,
                ..ForestParams::default()
            }
            .fit(&data)
            .unwrap()
            .predict(&data.x)
            .unwrap()
        };
        let p = fit(5);
        assert_eq!(p, fit(5));
        assert_ne!(p, fit(6));
        let mean = data.y.iter().sum::<f64>() / data.y.len() as f64;
        let sse = |f: &dyn Fn(usize) -> f64| {
            (0..data.y.len())
                .map(|i| (f(i) - data.y[i]).powi(2))
                .sum::<f64>()
        };
        assert!(sse(&|i| p[i]) < 0.5 * sse(&|_| mean));
    }
}
