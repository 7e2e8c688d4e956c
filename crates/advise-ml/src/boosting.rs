//! Gradient-boosted regression trees with squared loss (Friedman): start from the mean, then
//! each round fits a small tree to the residuals of the rounds before and adds it with a
//! learning rate. One boosting serves both input kinds: `gbrt` over `f64` rows ([`GbrtParams`],
//! exact splits on rows encoded as M5P encodes them) and the search strategies' level-coded
//! boosting ([`LevelBoostParams`]: the boosted-regression-tree paper's trees of depth at most
//! 4 with at least 10 rows a leaf, 100 rounds; it names no shrinkage, so we use the customary
//! learning rate 0.1, every round on all rows).

use serde::{Deserialize, Serialize};

use crate::data::Data;
use crate::levels::LevelSet;
use crate::rng::{JavaRandom, Rng};
use crate::tree::{grow, ExactSplit, HistogramSplit, SplitFinder, Tree, TreeParams};
use crate::weka::filters::Encoder;
use crate::{Fit, MlError, Predict, PredictRow, Result};

/// A boosted ensemble over rows of `T`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Boosted<T> {
    base: f64,
    learning_rate: f64,
    trees: Vec<Tree<T>>,
    sum: Summation,
}

/// The order of a prediction's floating-point sum. Both give the same value up to rounding;
/// each model keeps the order its published figures were computed with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Summation {
    /// base + rate * t1 + rate * t2 + ..., as training accumulates it (`gbrt`).
    RoundByRound,
    /// base + rate * (t1 + t2 + ...) (the search strategies' boosting).
    TreesFirst,
}

/// How a boosting run goes, besides its trees.
#[derive(Debug, Clone, Copy)]
pub struct BoostSettings {
    pub rounds: usize,
    pub learning_rate: f64,
    /// Stop when a round's tree is a single leaf with nothing left to explain.
    pub early_stop: bool,
    pub sum: Summation,
}

/// How a round picks its rows: all of them, or a random part (`gbrt`'s `subsample`).
pub enum RoundRows<'a> {
    /// Every row, in index order each round.
    All,
    /// Every row, in the order the previous round's tree left them (the search strategies'
    /// boosting, whose trees partition rows in place).
    Carried,
    /// `take` rows, a fresh shuffle of all rows per round.
    Part {
        take: usize,
        rand: &'a mut JavaRandom,
    },
}

impl<T: Copy + PartialOrd + Default> Boosted<T> {
    /// Boosts up to `settings.rounds` trees on targets `y`.
    pub fn fit<S: SplitFinder<Threshold = T>>(
        finder: &mut S,
        rows_of: impl Fn(usize) -> Vec<T>,
        y: &[f64],
        settings: BoostSettings,
        tree: &TreeParams,
        mut pick: RoundRows<'_>,
        rng: &mut Rng,
    ) -> Self {
        let n = y.len();
        let learning_rate = settings.learning_rate;
        if n == 0 {
            return Boosted {
                base: 0.0,
                learning_rate,
                trees: Vec::new(),
                sum: settings.sum,
            };
        }
        let base = y.iter().sum::<f64>() / n as f64;
        let rows: Vec<Vec<T>> = (0..n).map(rows_of).collect();
        let mut fitted = vec![base; n];
        let mut residual = vec![0.0; n];
        let mut sample: Vec<u32> = (0..n as u32).collect();
        let mut trees = Vec::with_capacity(settings.rounds);
        for _ in 0..settings.rounds {
            for i in 0..n {
                residual[i] = y[i] - fitted[i];
            }
            match &mut pick {
                RoundRows::All => {
                    sample.clear();
                    sample.extend(0..n as u32);
                }
                RoundRows::Carried => {}
                RoundRows::Part { take, rand } => {
                    sample = (0..n as u32).collect();
                    rand.shuffle(&mut sample);
                    sample.truncate(*take);
                }
            }
            let t = grow(finder, &residual, &mut sample, tree, rng);
            if settings.early_stop && t.size() == 1 && t.predict_row(&rows[0]).abs() < 1e-15 {
                break; // nothing left to explain
            }
            for (f, row) in fitted.iter_mut().zip(&rows) {
                *f += learning_rate * t.predict_row(row);
            }
            trees.push(t);
        }
        Boosted {
            base,
            learning_rate,
            trees,
            sum: settings.sum,
        }
    }
}

impl<T: Copy + PartialOrd> Boosted<T> {
    /// Why an ensemble read from a file cannot be one boosting made for rows `width` wide: a
    /// tree that fails [`Tree::check`].
    pub fn check(&self, width: usize) -> std::result::Result<(), String> {
        if !(self.learning_rate.is_finite()
            && self.learning_rate > 0.0
            && self.learning_rate <= 1.0)
        {
            return Err(format!(
                "learning rate {:e}, where boosting takes one in (0, 1]",
                self.learning_rate
            ));
        }
        if !self.base.is_finite() {
            return Err(format!("base prediction {}", self.base));
        }
        for (i, t) in self.trees.iter().enumerate() {
            t.check(width).map_err(|e| format!("tree {i}: {e}"))?;
        }
        Ok(())
    }
}

impl<T: Copy + PartialOrd> PredictRow<T> for Boosted<T> {
    fn predict_row(&self, row: &[T]) -> f64 {
        let rate = self.learning_rate;
        match self.sum {
            Summation::RoundByRound => self
                .trees
                .iter()
                .fold(self.base, |acc, t| acc + rate * t.predict_row(row)),
            Summation::TreesFirst => {
                self.base + rate * self.trees.iter().map(|t| t.predict_row(row)).sum::<f64>()
            }
        }
    }
}

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

/// A fitted `gbrt`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Gbrt {
    encoder: Encoder,
    boosted: Boosted<f64>,
}

impl Fit<Data> for GbrtParams {
    type Model = Gbrt;

    fn fit(&self, data: &Data) -> Result<Gbrt> {
        let data = data.with_known_target();
        if data.y.is_empty() {
            return Err(MlError::Data("no training rows with a known target".into()));
        }
        if !(self.subsample > 0.0 && self.subsample <= 1.0) || self.max_depth == 0 {
            return Err(MlError::Parameter(
                "gbrt: subsample must be in (0, 1] and max_depth at least 1".into(),
            ));
        }
        let (encoder, x) = Encoder::fit(&data);
        let n = data.y.len();
        let take = ((n as f64 * self.subsample).round() as usize).clamp(1, n);
        let mut rand = JavaRandom::new(self.seed as i64);
        let pick = if take < n {
            RoundRows::Part {
                take,
                rand: &mut rand,
            }
        } else {
            RoundRows::All
        };
        let tree = TreeParams {
            max_depth: self.max_depth,
            min_leaf: self.min_samples_leaf,
            min_split: 2,
            max_features: 0,
            stop_when_pure: false,
        };
        let settings = BoostSettings {
            rounds: self.n_trees,
            learning_rate: self.learning_rate,
            early_stop: false,
            sum: Summation::RoundByRound,
        };
        let boosted = Boosted::fit(
            &mut ExactSplit::new(&x),
            |i| x[i].clone(),
            &data.y,
            settings,
            &tree,
            pick,
            &mut Rng::new(self.seed),
        );
        Ok(Gbrt { encoder, boosted })
    }
}

impl Gbrt {
    /// Why a model read from a file cannot be one `fit` made for rows of `width` features.
    pub fn check(&self, width: usize) -> std::result::Result<(), String> {
        self.boosted.check(self.encoder.check(width)?)
    }
}

impl Predict<[Vec<f64>]> for Gbrt {
    fn predict(&self, x: &[Vec<f64>]) -> Result<Vec<f64>> {
        Ok(x.iter()
            .map(|r| self.boosted.predict_row(&self.encoder.apply(r)))
            .collect())
    }
}

/// The search strategies' boosting over levels.
#[derive(Debug, Clone)]
pub struct LevelBoostParams {
    pub radix: Vec<usize>,
    pub rounds: usize,
    pub learning_rate: f64,
    pub tree: TreeParams,
}

impl LevelBoostParams {
    /// The paper's settings: depth at most 4, at least 10 rows a leaf, 100 rounds, rate 0.1.
    pub fn new(radix: Vec<usize>) -> Self {
        LevelBoostParams {
            radix,
            rounds: 100,
            learning_rate: 0.1,
            tree: TreeParams {
                max_depth: 4,
                min_leaf: 10,
                min_split: 2,
                max_features: 0,
                stop_when_pure: true,
            },
        }
    }
}

impl Fit<LevelSet<'_>> for LevelBoostParams {
    type Model = Boosted<u16>;

    fn fit(&self, set: &LevelSet<'_>) -> Result<Boosted<u16>> {
        let mut finder = HistogramSplit::new(set.x, &self.radix);
        Ok(set.with_rng(|rng| {
            Boosted::fit(
                &mut finder,
                |i| set.x.row(i).to_vec(),
                set.y,
                BoostSettings {
                    rounds: self.rounds,
                    learning_rate: self.learning_rate,
                    early_stop: true,
                    sum: Summation::TreesFirst,
                },
                &self.tree,
                RoundRows::Carried,
                rng,
            )
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::levels::Levels;

    #[test]
    fn boosting_reduces_training_error() {
        let mut x = Levels::new(2);
        let mut y = Vec::new();
        for a in 0..8u16 {
            for b in 0..8u16 {
                x.push(&[a, b]);
                y.push(((a as f64) - 3.0).powi(2) + (b as f64) * 0.5);
            }
        }
        let mse = |rounds| {
            let p = LevelBoostParams {
                rounds,
                ..LevelBoostParams::new(vec![8, 8])
            };
            let m = p.fit(&LevelSet::new(&x, &y, Rng::new(0))).unwrap();
            (0..x.len())
                .map(|i| (m.predict_row(x.row(i)) - y[i]).powi(2))
                .sum::<f64>()
                / x.len() as f64
        };
        assert!(mse(100) < mse(10) && mse(10) < mse(1));
    }

    #[test]
    fn fits_a_step() {
        let x: Vec<Vec<f64>> = (0..40).map(|i| vec![i as f64]).collect();
        let y: Vec<f64> = (0..40).map(|i| if i < 20 { 1.0 } else { 3.0 }).collect();
        let data = Data::numeric(&["a".into()], "y", x, y);
        for subsample in [1.0, 0.7] {
            let m = GbrtParams {
                subsample,
                ..GbrtParams::default()
            }
            .fit(&data)
            .unwrap();
            let p = m.predict(&[vec![5.0], vec![35.0]]).unwrap();
            assert!(
                (p[0] - 1.0).abs() < 0.05 && (p[1] - 3.0).abs() < 0.05,
                "{p:?}"
            );
        }
    }
}
