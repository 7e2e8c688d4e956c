//! `forest`: a random forest of regression trees (smartcore's `RandomForestRegressor`) on the
//! rows encoded as M5P encodes them (missing values to means and modes, nominal to binary).

use serde::{Deserialize, Serialize};
use smartcore::ensemble::random_forest_regressor::{
    RandomForestRegressor, RandomForestRegressorParameters,
};
use smartcore::linalg::basic::matrix::DenseMatrix;

use super::data::Data;
use super::weka_filters::Encoder;
use super::{Learner, Predictor};
use crate::error::{Error, Result};

/// Hyper-parameters of `forest`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ForestParams {
    pub n_trees: usize,
    /// Features tried at each split; `None`: smartcore's default.
    pub mtry: Option<usize>,
    pub max_depth: Option<u16>,
    pub min_samples_leaf: usize,
    /// Seeds the bootstrap samples and the features tried (tree i uses seed + i).
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

type Rf = RandomForestRegressor<f64, f64, DenseMatrix<f64>, Vec<f64>>;

/// A fitted `forest`.
#[derive(Debug, Serialize, Deserialize)]
pub struct Forest {
    encoder: Encoder,
    forest: Rf,
}

pub(crate) fn matrix(rows: &[Vec<f64>], what: &str) -> Result<DenseMatrix<f64>> {
    DenseMatrix::from_2d_vec(&rows.to_vec())
        .map_err(|e| Error::Invalid(format!("{what}: cannot build the matrix: {e}")))
}

impl Learner for ForestParams {
    type Model = Forest;

    fn fit(&self, data: &Data) -> Result<Forest> {
        let data = data.with_known_target();
        if data.y.len() < 2 || data.features.is_empty() {
            return Err(Error::Invalid(
                "forest needs at least 2 training rows with a known target and 1 feature".into(),
            ));
        }
        let (encoder, rows) = Encoder::fit(&data);
        let mut p = RandomForestRegressorParameters::default()
            .with_n_trees(self.n_trees)
            .with_min_samples_leaf(self.min_samples_leaf)
            .with_seed(self.seed);
        if let Some(m) = self.mtry {
            p = p.with_m(m);
        }
        if let Some(d) = self.max_depth {
            p = p.with_max_depth(d);
        }
        let forest = Rf::fit(&matrix(&rows, "forest")?, &data.y, p)
            .map_err(|e| Error::Invalid(format!("forest: {e}")))?;
        Ok(Forest { encoder, forest })
    }
}

impl Predictor for Forest {
    fn predict(&self, x: &[Vec<f64>]) -> Result<Vec<f64>> {
        if x.is_empty() {
            return Ok(Vec::new());
        }
        let rows: Vec<Vec<f64>> = x.iter().map(|r| self.encoder.apply(r)).collect();
        self.forest
            .predict(&matrix(&rows, "forest")?)
            .map_err(|e| Error::Invalid(format!("forest: {e}")))
    }
}
