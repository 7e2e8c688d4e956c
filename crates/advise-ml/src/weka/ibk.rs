//! `ibk`: Weka 3.6's `weka.classifiers.lazy.IBk` with `LinearNNSearch` and `EuclideanDistance`.
//!
//! What decides Weka's numbers, and is reproduced here:
//! - numeric differences are taken on values scaled by each attribute's min/max range, and
//!   every test row widens those ranges *before* it is scored, so a prediction depends on the
//!   test rows before it (one `predict` call is one such sequence, starting from the training
//!   ranges);
//! - a nominal difference is 0 or 1; a missing value is 1 from anything nominal, and for a
//!   numeric attribute 1 if both are missing, else the larger of the known value's scaled
//!   distance to 0 and to 1;
//! - all neighbours tied with the k-th distance are kept (Weka's heap and its tie list, in its
//!   order), and the prediction is their (weighted) mean class.

use serde::{Deserialize, Serialize};

use super::ibk_heap::Heap;
use super::ibk_nearest::nearest_one;
use super::ibk_pivots::PivotUse;
use super::ibk_scan::{complete_distance, fits, initial_ranges, rejects_low, sequential, Scaled};
use crate::data::Data;
use crate::error::{MlError, Result};
use crate::Fit;

/// How neighbours are weighted (`-I`, `-F`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Weighting {
    None,
    /// `-I`: 1 / (distance + 0.001).
    Inverse,
    /// `-F`: 1 - distance.
    Similarity,
}

/// Hyper-parameters of `ibk`, with Weka's defaults.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IbkParams {
    /// `-K`: the number of neighbours (the upper limit with `-X`).
    pub k: usize,
    pub weighting: Weighting,
    /// `-X`: choose k in 1..=k by hold-one-out on the training rows.
    pub cross_validate: bool,
    /// `-E`: with `-X`, minimize the squared instead of the absolute error.
    pub mean_squared: bool,
    /// `-W`: keep only the last W training rows (0: all).
    pub window: usize,
}

impl Default for IbkParams {
    fn default() -> Self {
        IbkParams {
            k: 1,
            weighting: Weighting::None,
            cross_validate: false,
            mean_squared: false,
            window: 0,
        }
    }
}

/// A fitted `ibk` model: the training rows and their ranges.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Ibk {
    nominal: Vec<bool>,
    x: Vec<Vec<f64>>,
    y: Vec<f64>,
    /// Per feature: min, max, width (max - min), as Weka's `NormalizableDistance` keeps them.
    ranges: Vec<[f64; 3]>,
    k: usize,
    weighting: Weighting,
    mean: f64,
}

impl Ibk {
    /// Why a model read from a file cannot be one `fit` made: its rows, targets, ranges and
    /// nominal flags disagree in count (a damaged or hand-edited file), which would make a
    /// prediction index past their end; or a width other than the model's `width` features.
    pub fn check(&self, width: usize) -> std::result::Result<(), String> {
        if self.nominal.len() != width {
            return Err(format!(
                "{} nominal flags for the model's {width} features",
                self.nominal.len()
            ));
        }
        if self.y.len() != self.x.len() {
            return Err(format!(
                "{} training rows but {} targets",
                self.x.len(),
                self.y.len()
            ));
        }
        if self.ranges.len() != width || self.x.iter().any(|r| r.len() != width) {
            return Err(format!(
                "rows, ranges and nominal flags are not all {width} wide"
            ));
        }
        if self.k == 0 {
            return Err("k is 0".into());
        }
        if self.x.is_empty() {
            return Err("it holds no training rows".into());
        }
        Ok(())
    }
}

impl Fit<Data> for IbkParams {
    type Model = Ibk;

    fn fit(&self, data: &Data) -> Result<Ibk> {
        if self.k == 0 {
            return Err(MlError::Parameter("ibk: k must be at least 1".into()));
        }
        let mut all = data.with_known_target();
        // Without a known target the mean is 0, as Weka's ZeroR leaves it: not the -0.0 that
        // an empty floating-point sum gives.
        let mean = if all.y.is_empty() {
            0.0
        } else {
            all.y.iter().sum::<f64>() / all.y.len() as f64
        };
        let start = if self.window > 0 && all.y.len() > self.window {
            all.y.len() - self.window
        } else {
            0
        };
        let x = all.x.split_off(start);
        let ranges = initial_ranges(&x, data.features.len());
        let mut model = Ibk {
            nominal: (0..data.features.len())
                .map(|j| data.is_nominal(j))
                .collect(),
            y: all.y.split_off(start),
            x,
            ranges,
            k: self.k,
            weighting: self.weighting,
            mean,
        };
        if self.cross_validate {
            model.k = model.hold_one_out_k(self.k, self.mean_squared);
        }
        Ok(model)
    }
}

impl Ibk {
    /// The squared distance between two rows already scaled by [`Scaled`], or infinity once
    /// it exceeds `cutoff` (Weka stops early too; both give the same neighbours).
    fn distance(&self, a: &[f64], b: &[f64], cutoff: f64) -> f64 {
        let mut d = 0.0;
        for j in 0..a.len() {
            let (v1, v2) = (a[j], b[j]);
            let diff = if self.nominal[j] {
                if v1.is_nan() || v2.is_nan() || v1 as i64 != v2 as i64 {
                    1.0
                } else {
                    0.0
                }
            } else if v1.is_nan() || v2.is_nan() {
                if v1.is_nan() && v2.is_nan() {
                    1.0
                } else {
                    let known = if v2.is_nan() { v1 } else { v2 };
                    if known < 0.5 {
                        1.0 - known
                    } else {
                        known
                    }
                }
            } else {
                v1 - v2
            };
            d += diff * diff;
            if d > cutoff {
                return f64::INFINITY;
            }
        }
        d
    }

    /// `LinearNNSearch.kNearestNeighbours`: (training row, distance) pairs in Weka's order.
    /// `fast`: the target row is complete and no column is nominal.
    fn neighbours(
        &self,
        scaled: &Scaled,
        target: &[f64],
        fast: bool,
        skip: Option<usize>,
        k: usize,
        pivots: Option<&PivotUse>,
    ) -> Vec<(usize, f64)> {
        let low_target: Option<Vec<f32>> =
            (fast && fits(target)).then(|| target.iter().map(|&v| v as f32).collect());
        let low = low_target.as_deref();
        if let (1, Some(t)) = (k, low) {
            let slow = |i: usize, cutoff: f64| {
                let row = scaled.row(i);
                if scaled.complete[i] {
                    complete_distance(target, row, cutoff)
                } else {
                    self.distance(target, row, cutoff)
                }
            };
            let mut bounds = Vec::new();
            let active = pivots.and_then(PivotUse::active);
            let bounds = active.map(|p| {
                p.lower_bounds(scaled, target, &mut bounds);
                bounds.as_slice()
            });
            if let Some(out) = nearest_one(scaled, target, t, skip, bounds, slow) {
                if let (Some(usage), Some(b), Some(first)) = (pivots, bounds, out.first()) {
                    usage.record(b, first.1 * first.1);
                }
                return out;
            }
        }
        // No search returns more rows than there are (Weka's neither), so a k larger than the
        // training set only reserves room for the rows.
        let mut heap = Heap::new(k.min(self.x.len()));
        let mut filled = 0;
        for i in 0..self.x.len() {
            if Some(i) == skip {
                continue;
            }
            let row = scaled.row(i);
            if filled < k {
                let d = self.distance(target, row, f64::INFINITY);
                heap.put(i, d);
                filled += 1;
            } else {
                let top = heap.peek();
                let d = if fast && scaled.complete[i] {
                    match low {
                        Some(t) if scaled.small[i] => {
                            if rejects_low(t, scaled.row_low(i), top) {
                                f64::INFINITY
                            } else {
                                sequential(target, row, top)
                            }
                        }
                        _ => complete_distance(target, row, top),
                    }
                } else {
                    self.distance(target, row, top)
                };
                if d < top {
                    heap.put_by_substitute(i, d);
                } else if d == top {
                    heap.ties.push((i, d));
                }
            }
        }
        let mut out = Vec::with_capacity(heap.size() + heap.ties.len());
        while let Some(t) = heap.ties.pop() {
            out.push(t);
        }
        while heap.size() > 0 {
            out.push(heap.get());
        }
        out.reverse();
        for o in &mut out {
            o.1 = o.1.sqrt();
        }
        out
    }

    /// `IBk.makeDistribution` for a numeric class; `distances` are changed as Weka does.
    fn combine(&self, neighbours: &[(usize, f64)], distances: &mut [f64]) -> f64 {
        let used = self.nominal.len() as f64;
        let (mut sum, mut total) = (0.0, 0.0);
        for (i, &(row, _)) in neighbours.iter().enumerate() {
            distances[i] = distances[i] * distances[i];
            distances[i] = (distances[i] / used).sqrt();
            let w = match self.weighting {
                Weighting::Inverse => 1.0 / (distances[i] + 0.001),
                Weighting::Similarity => 1.0 - distances[i],
                Weighting::None => 1.0,
            };
            sum += self.y[row] * w;
            total += w;
        }
        if total > 0.0 {
            sum / total
        } else {
            sum
        }
    }

    /// `IBk.crossValidate`: the k in 1..=upper with the least hold-one-out error.
    fn hold_one_out_k(&self, upper: usize, mean_squared: bool) -> usize {
        // Held out, a row has n - 1 others: every k from n - 1 on sees them all and predicts
        // the same, and the strict comparison below keeps the smallest of equal k, so the
        // upper bound is cut there (a huge -K would otherwise size two vectors by it).
        let upper = upper.min(self.x.len().saturating_sub(1)).max(1);
        let mut abs = vec![0.0; upper];
        let mut sq = vec![0.0; upper];
        let scaled = Scaled::new(&self.x, &self.nominal, self.ranges.clone());
        let numeric = !self.nominal.iter().any(|&n| n);
        for i in 0..self.x.len() {
            let fast = numeric && scaled.complete[i];
            let mut neigh = self.neighbours(&scaled, scaled.row(i), fast, Some(i), upper, None);
            let orig: Vec<f64> = neigh.iter().map(|n| n.1).collect();
            for j in (0..upper).rev() {
                let mut conv = orig.clone();
                let pred = self.combine(&neigh, &mut conv);
                let err = pred - self.y[i];
                sq[j] += err * err;
                abs[j] += err.abs();
                if j >= 1 {
                    // IBk.pruneToK with the converted distances.
                    let mut keep = neigh.len();
                    for m in 0..neigh.len() {
                        if m + 1 > j && conv[m] != conv[m - 1] {
                            keep = m;
                            break;
                        }
                    }
                    neigh.truncate(keep);
                }
            }
        }
        let stats = if mean_squared { &sq } else { &abs };
        let mut best = 0;
        for i in 1..upper {
            if stats[best] > stats[i] {
                best = i;
            }
        }
        best + 1
    }
}

mod predict;
