//! `knn`: k nearest neighbours with k > 1 and inverse-distance weighting (smartcore's
//! `KNNRegressor`), on rows encoded as M5P encodes them and scaled to [0, 1] by the training
//! min/max of each column (fixed ranges, unlike IBk's, so a prediction does not depend on the
//! other test rows).

use serde::{Deserialize, Serialize};
use smartcore::algorithm::neighbour::KNNAlgorithmName;
use smartcore::linalg::basic::matrix::DenseMatrix;
use smartcore::metrics::distance::euclidian::Euclidian;
use smartcore::neighbors::knn_regressor::{KNNRegressor, KNNRegressorParameters};
use smartcore::neighbors::KNNWeightFunction;

use super::data::Data;
use super::forest::matrix;
use super::weka_filters::Encoder;
use super::{Learner, Predictor};
use crate::error::{Error, Result};

/// Hyper-parameters of `knn`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KnnParams {
    pub k: usize,
    /// Weight neighbours by 1 / distance (else equally).
    pub distance_weighting: bool,
}

impl Default for KnnParams {
    fn default() -> Self {
        KnnParams {
            k: 5,
            distance_weighting: true,
        }
    }
}

type Reg = KNNRegressor<f64, f64, DenseMatrix<f64>, Vec<f64>, Euclidian<f64>>;

/// A fitted `knn`.
#[derive(Debug, Serialize, Deserialize)]
pub struct Knn {
    encoder: Encoder,
    /// Per encoded column: min and 1 / (max - min) (0 for a constant column).
    scale: Vec<(f64, f64)>,
    model: Reg,
}

fn scaled(encoder: &Encoder, scale: &[(f64, f64)], row: &[f64]) -> Vec<f64> {
    let mut r = encoder.apply(row);
    for (v, &(min, inv)) in r.iter_mut().zip(scale) {
        *v = (*v - min) * inv;
    }
    r
}

impl Learner for KnnParams {
    type Model = Knn;

    fn fit(&self, data: &Data) -> Result<Knn> {
        let data = data.with_known_target();
        if self.k < 1 || data.y.len() < self.k {
            return Err(Error::Invalid(format!(
                "knn: k = {} needs at least k training rows with a known target (have {})",
                self.k,
                data.y.len()
            )));
        }
        let (encoder, rows) = Encoder::fit(&data);
        let width = rows.first().map_or(0, Vec::len);
        let scale: Vec<(f64, f64)> = (0..width)
            .map(|j| {
                let min = rows.iter().map(|r| r[j]).fold(f64::INFINITY, f64::min);
                let max = rows.iter().map(|r| r[j]).fold(f64::NEG_INFINITY, f64::max);
                (min, if max > min { 1.0 / (max - min) } else { 0.0 })
            })
            .collect();
        let rows: Vec<Vec<f64>> = data.x.iter().map(|r| scaled(&encoder, &scale, r)).collect();
        let weight = if self.distance_weighting {
            KNNWeightFunction::Distance
        } else {
            KNNWeightFunction::Uniform
        };
        let params = KNNRegressorParameters::default()
            .with_k(self.k)
            .with_weight(weight)
            .with_algorithm(KNNAlgorithmName::LinearSearch)
            .with_distance(Euclidian::new());
        let model = Reg::fit(&matrix(&rows, "knn")?, &data.y, params)
            .map_err(|e| Error::Invalid(format!("knn: {e}")))?;
        Ok(Knn {
            encoder,
            scale,
            model,
        })
    }
}

impl Predictor for Knn {
    fn predict(&self, x: &[Vec<f64>]) -> Result<Vec<f64>> {
        if x.is_empty() {
            return Ok(Vec::new());
        }
        let rows: Vec<Vec<f64>> = x
            .iter()
            .map(|r| scaled(&self.encoder, &self.scale, r))
            .collect();
        self.model
            .predict(&matrix(&rows, "knn")?)
            .map_err(|e| Error::Invalid(format!("knn: {e}")))
    }
}
