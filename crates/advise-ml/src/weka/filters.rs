//! The three Weka filters that M5P and LinearRegression run inside themselves, fitted on the
//! training rows and replayed on every test row: `ReplaceMissingValues` (means and modes),
//! supervised `NominalToBinary` for a numeric class (labels ordered by their mean class value,
//! k labels become k-1 cumulative 0/1 columns) and `RemoveUseless` (constant columns).

use serde::{Deserialize, Serialize};

use super::util::{max_index, sort_indices};
use crate::data::Data;

/// Replaces a missing value with the training mean (numeric) or mode (nominal).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ReplaceMissing {
    fill: Vec<f64>,
}

impl ReplaceMissing {
    /// `nominal[j]` is the label count of a nominal column, `None` for a numeric one.
    pub fn fit(x: &[Vec<f64>], nominal: &[Option<usize>]) -> Self {
        let n = x.len() as f64;
        // Every column's sum and count of known values, row by row (each column's additions
        // in Weka's row order). Adding 0.0 for a missing value changes no sum: a sum that
        // starts at +0 is never -0.
        let mut sums = vec![0.0; nominal.len()];
        let mut counts = vec![n; nominal.len()];
        for row in x {
            for ((s, c), &v) in sums.iter_mut().zip(&mut counts).zip(row) {
                let missing = v.is_nan();
                *s += if missing { 0.0 } else { v };
                *c -= if missing { 1.0 } else { 0.0 };
            }
        }
        let fill = nominal
            .iter()
            .enumerate()
            .map(|(j, kind)| match kind {
                Some(0) => f64::NAN,
                Some(k) => {
                    // Weka starts label 0 at the number of rows and moves counts out of it.
                    let mut counts = vec![0.0; *k];
                    counts[0] = n;
                    for row in x {
                        let v = row[j];
                        if !v.is_nan() {
                            counts[v as usize] += 1.0;
                        }
                        counts[0] -= 1.0;
                    }
                    max_index(&counts) as f64
                }
                None => {
                    if counts[j] > 1e-6 {
                        sums[j] / counts[j]
                    } else {
                        0.0
                    }
                }
            })
            .collect();
        ReplaceMissing { fill }
    }

    /// The number of columns it fills.
    pub fn width(&self) -> usize {
        self.fill.len()
    }

    pub fn apply(&self, row: &mut [f64]) {
        for (v, &f) in row.iter_mut().zip(&self.fill) {
            if v.is_nan() {
                *v = f;
            }
        }
    }
}

/// Supervised NominalToBinary for a numeric class.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct NominalToBinary {
    /// Per input column: `None` if numeric, else its labels sorted by mean class value.
    order: Vec<Option<Vec<usize>>>,
}

impl NominalToBinary {
    pub fn fit(x: &[Vec<f64>], y: &[f64], nominal: &[Option<usize>]) -> Self {
        let order = nominal
            .iter()
            .enumerate()
            .map(|(j, kind)| {
                let k = (*kind)?;
                let mut avg = vec![0.0; k];
                let mut counts = vec![0.0; k];
                for (row, &c) in x.iter().zip(y) {
                    if !c.is_nan() && !row[j].is_nan() {
                        counts[row[j] as usize] += 1.0;
                        avg[row[j] as usize] += c;
                    }
                }
                let sum: f64 = avg.iter().fold(0.0, |a, b| a + b);
                let total: f64 = counts.iter().fold(0.0, |a, b| a + b);
                if total > 1e-6 {
                    for v in 0..k {
                        if counts[v] > 1e-6 {
                            avg[v] /= counts[v];
                        } else {
                            avg[v] = sum / total;
                        }
                    }
                }
                Some(sort_indices(&avg))
            })
            .collect();
        NominalToBinary { order }
    }

    /// Whether any input column is nominal.
    pub fn has_nominal(&self) -> bool {
        self.order.iter().any(Option::is_some)
    }

    /// The number of input columns.
    pub fn input_width(&self) -> usize {
        self.order.len()
    }

    /// The number of output columns.
    pub fn width(&self) -> usize {
        self.order
            .iter()
            .map(|o| o.as_ref().map_or(1, |l| l.len().saturating_sub(1)))
            .sum()
    }

    pub fn apply(&self, row: &[f64]) -> Vec<f64> {
        let mut out = Vec::with_capacity(self.width());
        for (&v, o) in row.iter().zip(&self.order) {
            match o {
                None => out.push(v),
                Some(labels) => {
                    let width = labels.len().saturating_sub(1);
                    if v.is_nan() {
                        out.extend(std::iter::repeat_n(f64::NAN, width));
                        continue;
                    }
                    let rank = labels.iter().position(|&l| l == v as usize).unwrap_or(0);
                    out.extend((0..width).map(|k| if k < rank { 1.0 } else { 0.0 }));
                }
            }
        }
        out
    }
}

/// Drops columns with fewer than two distinct values (or only missing values).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RemoveUseless {
    keep: Vec<usize>,
}

impl RemoveUseless {
    pub fn fit(x: &[Vec<f64>], width: usize) -> Self {
        let keep = (0..width)
            .filter(|&j| {
                let mut first = None;
                x.iter().any(|row| {
                    let v = row[j];
                    if v.is_nan() {
                        return false;
                    }
                    match first {
                        None => {
                            first = Some(v);
                            false
                        }
                        Some(f) => v != f,
                    }
                })
            })
            .collect();
        RemoveUseless { keep }
    }

    pub fn apply(&self, row: &[f64]) -> Vec<f64> {
        self.keep.iter().map(|&j| row[j]).collect()
    }

    /// The input column of each output column.
    pub fn kept(&self) -> &[usize] {
        &self.keep
    }

    /// Why a filter read from a file cannot be one fitted on rows `width` wide: it keeps a
    /// column past their end, or one twice or out of order. Else the width it leaves.
    pub fn check(&self, width: usize) -> std::result::Result<usize, String> {
        if self.keep.windows(2).any(|w| w[0] >= w[1]) || self.keep.last() >= Some(&width) {
            return Err(format!(
                "it keeps columns {:?} of {width}, not ascending within them",
                self.keep
            ));
        }
        Ok(self.keep.len())
    }
}

/// Missing values to means/modes, then nominal to binary: the all-numeric, complete matrix that
/// `forest`, `gbrt` and `knn` need, built the way M5P builds its own.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Encoder {
    missing: ReplaceMissing,
    to_binary: NominalToBinary,
}

impl Encoder {
    /// Fits on rows with a known target and returns the encoded training rows too.
    pub fn fit(data: &Data) -> (Encoder, Vec<Vec<f64>>) {
        let nominal: Vec<Option<usize>> = data.features.iter().map(|f| f.nominal_count()).collect();
        let missing = ReplaceMissing::fit(&data.x, &nominal);
        let filled: Vec<Vec<f64>> = data
            .x
            .iter()
            .map(|r| {
                let mut r = r.clone();
                missing.apply(&mut r);
                r
            })
            .collect();
        let to_binary = NominalToBinary::fit(&filled, &data.y, &nominal);
        let rows = filled.iter().map(|r| to_binary.apply(r)).collect();
        (Encoder { missing, to_binary }, rows)
    }

    pub fn apply(&self, row: &[f64]) -> Vec<f64> {
        let mut r = row.to_vec();
        self.missing.apply(&mut r);
        self.to_binary.apply(&r)
    }

    /// Why an encoder read from a file cannot be one `fit` made for rows `width` wide (see
    /// [`check_filters`]); else the width of the rows it makes.
    pub fn check(&self, width: usize) -> std::result::Result<usize, String> {
        check_filters(&self.missing, &self.to_binary, width)
    }
}

/// Why missing-value and nominal filters read from a file cannot be ones fitted on rows
/// `width` wide: either is another width (its rows would come out short, and a model would
/// index past their end). Else the width of the rows they make.
pub fn check_filters(
    missing: &ReplaceMissing,
    to_binary: &NominalToBinary,
    width: usize,
) -> std::result::Result<usize, String> {
    if missing.fill.len() != width || to_binary.order.len() != width {
        return Err(format!(
            "its filters cover {} and {} columns, not the model's {width}",
            missing.fill.len(),
            to_binary.order.len()
        ));
    }
    Ok(to_binary.width())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nominal_to_binary_orders_labels_by_class_mean() {
        // label 0 has mean 5, label 1 mean 1, label 2 mean 3: order 1, 2, 0.
        let x = vec![vec![0.0], vec![1.0], vec![2.0], vec![f64::NAN]];
        let y = vec![5.0, 1.0, 3.0, 9.0];
        let f = NominalToBinary::fit(&x, &y, &[Some(3)]);
        assert_eq!(f.width(), 2);
        assert_eq!(f.apply(&[1.0]), vec![0.0, 0.0]);
        assert_eq!(f.apply(&[2.0]), vec![1.0, 0.0]);
        assert_eq!(f.apply(&[0.0]), vec![1.0, 1.0]);
        assert!(f.apply(&[f64::NAN]).iter().all(|v| v.is_nan()));
    }

    #[test]
    fn replace_missing_uses_mean_and_mode() {
        let x = vec![vec![1.0, 1.0], vec![f64::NAN, 1.0], vec![3.0, f64::NAN]];
        let r = ReplaceMissing::fit(&x, &[None, Some(2)]);
        let mut row = vec![f64::NAN, f64::NAN];
        r.apply(&mut row);
        assert_eq!(row, vec![2.0, 1.0]);
    }
}
