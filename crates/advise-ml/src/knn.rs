//! k nearest neighbours (Euclidean) with uniform or inverse-distance weights. One kNN serves
//! both input kinds: `knn` over `f64` rows ([`KnnParams`]: encoded as M5P encodes them, scaled
//! to [0, 1] by the training min/max of each column, fixed ranges unlike IBk's so a prediction
//! does not depend on the other test rows) and the search strategies' level-coded kNN
//! ([`LevelKnnParams`]: scikit-learn's KNeighborsRegressor, k = 5, uniform weights, on the
//! levels' values scaled to [0, 1]). Weka's IBk, with its own tie and range rules, is
//! `weka::ibk`.
//!
//! The two weightings keep the neighbour search their published figures were computed with:
//! uniform takes the k smallest distances (ties to the earlier row) and averages them;
//! inverse-distance keeps smartcore 0.7's `KNNRegressor` search (a bounded max-heap, whose
//! order decides which of equally distant rows is kept and the order of the weighted sum).

use serde::{Deserialize, Serialize};

use crate::data::Data;
use crate::levels::{LevelScale, LevelSet};
use crate::weka::filters::Encoder;
use crate::{Fit, MlError, Predict, PredictRow, Result};

/// How neighbours are weighted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Weights {
    Uniform,
    /// 1 / distance; neighbours at distance 0, if any, share all the weight.
    InverseDistance,
}

/// Training points and their targets.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Neighbours {
    width: usize,
    points: Vec<f64>,
    y: Vec<f64>,
    k: usize,
    weights: Weights,
}

impl Neighbours {
    /// `points` row-major, `width` values a row.
    pub fn new(width: usize, points: Vec<f64>, y: Vec<f64>, k: usize, weights: Weights) -> Self {
        Neighbours {
            width,
            points,
            y,
            k: k.max(1),
            weights,
        }
    }

    /// Why neighbours read from a file cannot be ones built for points `width` wide: another
    /// width, points and targets of different counts (a prediction would read past the
    /// points' end), or k = 0.
    pub fn check(&self, width: usize) -> std::result::Result<(), String> {
        if self.width != width || self.points.len() != width * self.y.len() {
            return Err(format!(
                "{} values for {} points {} wide, not {width}",
                self.points.len(),
                self.y.len(),
                self.width
            ));
        }
        if self.k == 0 {
            return Err("k is 0".into());
        }
        if self.y.is_empty() {
            return Err("it holds no training points".into());
        }
        Ok(())
    }

    fn distance2(&self, i: usize, q: &[f64]) -> f64 {
        let p = &self.points[i * self.width..(i + 1) * self.width];
        p.iter().zip(q).map(|(a, b)| (a - b) * (a - b)).sum()
    }

    /// The prediction for point `q` from its k nearest training rows.
    pub fn predict_point(&self, q: &[f64]) -> f64 {
        if self.y.is_empty() {
            return 0.0;
        }
        if self.weights == Weights::InverseDistance {
            return self.inverse_distance(q);
        }
        let mut d: Vec<(f64, usize)> = if self.width == 0 {
            (0..self.y.len()).map(|i| (0.0, i)).collect()
        } else {
            self.points
                .chunks_exact(self.width)
                .enumerate()
                .map(|(i, p)| (p.iter().zip(q).map(|(a, b)| (a - b) * (a - b)).sum(), i))
                .collect()
        };
        let k = self.k.min(d.len());
        d.select_nth_unstable_by(k - 1, |a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        d[..k].iter().map(|&(_, i)| self.y[i]).sum::<f64>() / k as f64
    }

    /// Inverse-distance weighting over the k nearest as a bounded max-heap finds them.
    fn inverse_distance(&self, q: &[f64]) -> f64 {
        let k = self.k.min(self.y.len());
        let mut heap: Vec<(f64, Option<usize>)> = vec![(f64::INFINITY, None); k];
        for i in 0..self.y.len() {
            let d = self.distance2(i, q).sqrt();
            if d < heap[0].0 {
                heap[0] = (d, Some(i));
                heapify(&mut heap);
            }
        }
        let near: Vec<(f64, usize)> = heap
            .into_iter()
            .filter_map(|(d, i)| i.map(|i| (d, i)))
            .collect();
        let w: Vec<f64> = if near.iter().any(|&(d, _)| d == 0.0) {
            near.iter()
                .map(|&(d, _)| if d == 0.0 { 1.0 } else { 0.0 })
                .collect()
        } else {
            near.iter().map(|&(d, _)| 1.0 / d).collect()
        };
        let total: f64 = w.iter().sum();
        near.iter()
            .zip(&w)
            .map(|(&(_, i), wi)| self.y[i] * (wi / total))
            .sum()
    }
}

/// Restores the max-heap on distance (children of `i` at `2i` and `2i + 1`, as smartcore's
/// `HeapSelection` lays them out).
fn heapify(heap: &mut [(f64, Option<usize>)]) {
    let n = heap.len();
    if n <= 1 {
        return;
    }
    for i in (0..=(n / 2 - 1)).rev() {
        let last = n - 1;
        let mut kk = i;
        while 2 * kk <= last {
            let mut j = 2 * kk;
            if j < last && heap[j].0 < heap[j + 1].0 {
                j += 1;
            }
            if heap[kk].0 >= heap[j].0 {
                break;
            }
            heap.swap(kk, j);
            kk = j;
        }
    }
}

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

/// A fitted `knn`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Knn {
    encoder: Encoder,
    /// Per encoded column: min and 1 / (max - min) (0 for a constant column).
    scale: Vec<(f64, f64)>,
    neighbours: Neighbours,
}

fn scaled(encoder: &Encoder, scale: &[(f64, f64)], row: &[f64]) -> Vec<f64> {
    let mut r = encoder.apply(row);
    for (v, &(min, inv)) in r.iter_mut().zip(scale) {
        *v = (*v - min) * inv;
    }
    r
}

impl Fit<Data> for KnnParams {
    type Model = Knn;

    fn fit(&self, data: &Data) -> Result<Knn> {
        let data = data.with_known_target();
        if self.k < 1 || data.y.len() < self.k {
            return Err(MlError::Data(format!(
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
        let points: Vec<f64> = data
            .x
            .iter()
            .flat_map(|r| scaled(&encoder, &scale, r))
            .collect();
        let weights = if self.distance_weighting {
            Weights::InverseDistance
        } else {
            Weights::Uniform
        };
        let neighbours = Neighbours::new(width, points, data.y.clone(), self.k, weights);
        Ok(Knn {
            encoder,
            scale,
            neighbours,
        })
    }
}

impl Knn {
    /// Why a model read from a file cannot be one `fit` made for rows of `width` features.
    pub fn check(&self, width: usize) -> std::result::Result<(), String> {
        let encoded = self.encoder.check(width)?;
        if self.scale.len() != encoded {
            return Err(format!(
                "{} column scales for {encoded} columns",
                self.scale.len()
            ));
        }
        self.neighbours.check(encoded)
    }
}

impl Predict<[Vec<f64>]> for Knn {
    fn predict(&self, x: &[Vec<f64>]) -> Result<Vec<f64>> {
        Ok(x.iter()
            .map(|r| {
                self.neighbours
                    .predict_point(&scaled(&self.encoder, &self.scale, r))
            })
            .collect())
    }
}

/// The search strategies' kNN over levels.
#[derive(Debug, Clone)]
pub struct LevelKnnParams {
    pub scale: LevelScale,
    pub k: usize,
}

/// A fitted level-coded kNN.
#[derive(Debug, Clone)]
pub struct LevelKnn {
    scale: LevelScale,
    neighbours: Neighbours,
}

impl Fit<LevelSet<'_>> for LevelKnnParams {
    type Model = LevelKnn;

    fn fit(&self, set: &LevelSet<'_>) -> Result<LevelKnn> {
        let mut p = Vec::new();
        let mut points = Vec::with_capacity(set.x.data.len());
        for i in 0..set.x.len() {
            self.scale.point(set.x.row(i), &mut p);
            points.extend_from_slice(&p);
        }
        let neighbours = Neighbours::new(
            set.x.width,
            points,
            set.y.to_vec(),
            self.k,
            Weights::Uniform,
        );
        Ok(LevelKnn {
            scale: self.scale.clone(),
            neighbours,
        })
    }
}

impl PredictRow<u16> for LevelKnn {
    fn predict_row(&self, row: &[u16]) -> f64 {
        let mut q = Vec::with_capacity(row.len());
        self.scale.point(row, &mut q);
        self.neighbours.predict_point(&q)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_follow_distance_and_exact_matches_win() {
        let n = Neighbours::new(
            1,
            vec![0.0, 1.0, 3.0],
            vec![10.0, 20.0, 30.0],
            2,
            Weights::InverseDistance,
        );
        // Distances 0.5 and 0.5 from 0.5: equal weights.
        assert!((n.predict_point(&[0.5]) - 15.0).abs() < 1e-12);
        // An exact match takes all the weight.
        assert_eq!(n.predict_point(&[1.0]), 20.0);
        let u = Neighbours::new(
            1,
            vec![0.0, 1.0, 3.0],
            vec![10.0, 20.0, 30.0],
            2,
            Weights::Uniform,
        );
        assert_eq!(u.predict_point(&[2.9]), 25.0);
    }
}
