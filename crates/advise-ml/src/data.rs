//! The matrices models see: feature columns (numeric, or nominal with a value list), rows of
//! `f64` with NaN for a missing value (as Weka stores them), and a numeric target. Reading a
//! file into this shape is the dataset layer's business, never a model's.

use serde::{Deserialize, Serialize};

/// One input column of a model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Feature {
    pub name: String,
    /// The labels of a nominal feature (a row holds the label's index); `None` when numeric.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub values: Option<Vec<String>>,
}

impl Feature {
    pub fn numeric(name: impl Into<String>) -> Self {
        Feature {
            name: name.into(),
            values: None,
        }
    }

    /// The number of labels of a nominal feature.
    pub fn nominal_count(&self) -> Option<usize> {
        self.values.as_ref().map(Vec::len)
    }
}

/// Training or test data: `x[row][feature]` and `y[row]` (NaN: missing or unknown).
#[derive(Debug, Clone)]
pub struct Data {
    pub features: Vec<Feature>,
    pub target: String,
    pub x: Vec<Vec<f64>>,
    pub y: Vec<f64>,
}

impl Data {
    /// All-numeric data from plain matrices.
    pub fn numeric(names: &[String], target: &str, x: Vec<Vec<f64>>, y: Vec<f64>) -> Data {
        Data {
            features: names.iter().map(|n| Feature::numeric(n.clone())).collect(),
            target: target.to_string(),
            x,
            y,
        }
    }

    /// Keeps the rows whose target is known, as every Weka learner does before training.
    pub fn with_known_target(&self) -> Data {
        let keep: Vec<usize> = (0..self.y.len()).filter(|&i| !self.y[i].is_nan()).collect();
        Data {
            features: self.features.clone(),
            target: self.target.clone(),
            x: keep.iter().map(|&i| self.x[i].clone()).collect(),
            y: keep.iter().map(|&i| self.y[i]).collect(),
        }
    }

    /// The rows `idx`, in that order.
    pub fn subset(&self, idx: &[usize]) -> Data {
        Data {
            features: self.features.clone(),
            target: self.target.clone(),
            x: idx.iter().map(|&i| self.x[i].clone()).collect(),
            y: idx.iter().map(|&i| self.y[i]).collect(),
        }
    }

    /// Whether feature `j` is nominal.
    pub fn is_nominal(&self, j: usize) -> bool {
        self.features[j].values.is_some()
    }
}

/// Standardization fitted on training rows: each column minus its mean, divided by its
/// standard deviation (population; 1 for a constant column, which then stays at 0).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Standardizer {
    pub mean: Vec<f64>,
    pub scale: Vec<f64>,
}

impl Standardizer {
    pub fn fit(rows: &[Vec<f64>]) -> Self {
        let d = rows.first().map_or(0, Vec::len);
        let n = rows.len().max(1) as f64;
        let mean: Vec<f64> = (0..d)
            .map(|j| rows.iter().map(|r| r[j]).sum::<f64>() / n)
            .collect();
        let scale = (0..d)
            .map(|j| {
                let v = rows.iter().map(|r| (r[j] - mean[j]).powi(2)).sum::<f64>() / n;
                if v > 1e-24 {
                    v.sqrt()
                } else {
                    1.0
                }
            })
            .collect();
        Standardizer { mean, scale }
    }

    /// As [`Standardizer::fit`], but a column constant on the training rows is dropped (it
    /// standardizes to 0 for every row, new ones too), as libsvm's `svm-scale` drops it: a
    /// test row that differs there would otherwise lie arbitrarily far from all training rows.
    pub fn fit_dropping_constant(rows: &[Vec<f64>]) -> Self {
        let mut s = Standardizer::fit(rows);
        for (j, scale) in s.scale.iter_mut().enumerate() {
            let first = rows.first().map(|r| r[j]);
            if rows.iter().all(|r| Some(r[j]) == first) {
                *scale = f64::INFINITY;
            }
        }
        s
    }

    /// The columns that carry information (not dropped as constant).
    pub fn kept(&self) -> usize {
        self.scale.iter().filter(|s| s.is_finite()).count()
    }

    pub fn apply(&self, row: &[f64]) -> Vec<f64> {
        row.iter()
            .zip(self.mean.iter().zip(&self.scale))
            .map(|(v, (m, s))| (v - m) / s)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constant_columns_can_be_dropped() {
        let rows = vec![vec![1.0, 5.0], vec![3.0, 5.0]];
        let plain = Standardizer::fit(&rows);
        assert_eq!(plain.apply(&[2.0, 9.0]), vec![0.0, 4.0]);
        let dropping = Standardizer::fit_dropping_constant(&rows);
        assert_eq!(dropping.kept(), 1);
        assert_eq!(dropping.apply(&[2.0, 9.0]), vec![0.0, 0.0]);
        assert_eq!(dropping.apply(&[3.0, 5.0]), vec![1.0, 0.0]);
    }
}
