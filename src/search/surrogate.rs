//! The surrogate models of the model-based strategies (IterML, boosted-tree search): which
//! of the learning layer's level-coded models a strategy fits ([`ModelKind`]), over the levels
//! of a recorded space ([`scale_of`]). The models themselves live in `advise_ml`.

use std::fmt;

use advise_ml::boosting::LevelBoostParams;
use advise_ml::forest::LevelForestParams;
use advise_ml::knn::LevelKnnParams;
use advise_ml::svm::LevelSvrParams;
use advise_ml::tree::{LevelTreeParams, TreeParams};
use advise_ml::{LevelModel, LevelScale, Refit};

use super::space::SearchSpace;
use crate::error::{Error, Result};

/// How a space's levels map to model inputs: each parameter's level count and its levels'
/// values scaled to [0, 1].
pub fn scale_of(space: &SearchSpace) -> LevelScale {
    LevelScale {
        radix: space.radix().to_vec(),
        scaled: LevelScale::from_values(&space.numeric).scaled,
    }
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
    /// Gradient-boosted regression trees (depth 4, 10 rows a leaf, 100 trees).
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
            other => Err(Error::Usage(format!(
                "unknown model `{other}`: use rf, cart, knn, svr or gbrt"
            ))),
        }
    }

    /// A fresh, unfitted model for a space.
    pub fn build(self, scale: &LevelScale) -> Box<dyn LevelModel> {
        let radix = scale.radix.clone();
        match self {
            ModelKind::Cart => Box::new(Refit::new(LevelTreeParams {
                radix,
                tree: TreeParams::full(),
            })),
            ModelKind::Forest { trees } => Box::new(Refit::new(LevelForestParams {
                radix,
                n_trees: trees,
            })),
            ModelKind::Knn { k } => Box::new(Refit::new(LevelKnnParams {
                scale: scale.clone(),
                k,
            })),
            ModelKind::Svr => Box::new(Refit::new(LevelSvrParams {
                scale: scale.clone(),
            })),
            ModelKind::Boosted => Box::new(Refit::new(LevelBoostParams::new(radix))),
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

#[cfg(test)]
mod tests {
    use super::*;
    use advise_ml::{Levels, Rng};

    /// y = x0 + 2 x1 on a 6 x 6 grid: every model must rank the corners right.
    fn grid() -> (LevelScale, Levels, Vec<f64>) {
        let enc = LevelScale {
            radix: vec![6, 6],
            scaled: vec![(0..6).map(|l| l as f64 / 5.0).collect(); 2],
        };
        let mut x = Levels::new(2);
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
