//! `linear`: Weka 3.6's `weka.classifiers.functions.LinearRegression`. Inputs are standardized,
//! the normal equations (with a ridge added to the diagonal) are solved by JAMA's LU
//! decomposition, collinear attributes (standardized coefficient > 1.5) are dropped one at a
//! time, then M5's method removes attributes while the Akaike criterion improves. The same core
//! fits the linear models at M5P's nodes.

use serde::{Deserialize, Serialize};

use super::filters::{NominalToBinary, ReplaceMissing};
use super::linear_select::Regression;
use crate::data::Data;
use crate::error::{MlError, Result};
use crate::{Fit, Predict};

/// How attributes are selected (`-S`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Selection {
    /// `-S 0`: drop the attribute with the smallest standardized coefficient while the Akaike
    /// criterion improves (Weka's default).
    M5,
    /// `-S 1`: keep every attribute.
    None,
    /// `-S 2`: greedy removal by the Akaike criterion.
    Greedy,
}

/// Hyper-parameters of `linear`, with Weka's defaults.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LinearParams {
    pub selection: Selection,
    /// `-C` turns this off.
    pub eliminate_colinear: bool,
    /// `-R`, added to the diagonal of the standardized normal equations.
    pub ridge: f64,
}

impl Default for LinearParams {
    fn default() -> Self {
        LinearParams {
            selection: Selection::M5,
            eliminate_colinear: true,
            ridge: 1e-8,
        }
    }
}

/// A fitted linear model over the (filtered) columns it was given.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LinearFit {
    pub selected: Vec<bool>,
    /// One coefficient per selected column, in column order.
    pub coefficients: Vec<f64>,
    pub intercept: f64,
}

impl LinearFit {
    /// Weka's `regressionPrediction`.
    pub fn predict_row(&self, row: &[f64]) -> f64 {
        let mut result = 0.0;
        let mut c = 0;
        for (j, &v) in row.iter().enumerate() {
            if self.selected[j] {
                result += self.coefficients[c] * v;
                c += 1;
            }
        }
        result + self.intercept
    }

    /// Why a fit read from a file cannot be one `fit_columns` made: a coefficient count other
    /// than the selected columns'.
    pub fn check(&self) -> std::result::Result<(), String> {
        let selected = self.selected.iter().filter(|&&s| s).count();
        if selected != self.coefficients.len() {
            return Err(format!(
                "{selected} selected columns but {} coefficients",
                self.coefficients.len()
            ));
        }
        Ok(())
    }

    /// One coefficient per column, zero where not selected (Weka's `coefficients()`).
    pub fn full_coefficients(&self) -> Vec<f64> {
        let mut it = self.coefficients.iter();
        self.selected
            .iter()
            .map(|&s| if s { *it.next().unwrap_or(&0.0) } else { 0.0 })
            .collect()
    }
}

/// Fits Weka's linear regression on complete numeric columns (`cols[j][row]`).
pub fn fit_columns(cols: &[Vec<f64>], y: &[f64], params: &LinearParams) -> LinearFit {
    Regression::new(cols, y, params).find_best_model()
}

/// A fitted `linear` model: Weka's filters, then the regression.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LinearRegression {
    to_binary: NominalToBinary,
    missing: ReplaceMissing,
    fit: LinearFit,
}

impl Fit<Data> for LinearParams {
    type Model = LinearRegression;

    fn fit(&self, data: &Data) -> Result<LinearRegression> {
        let data = data.with_known_target();
        if data.y.is_empty() {
            return Err(MlError::Data("no training rows with a known target".into()));
        }
        let nominal: Vec<Option<usize>> = data.features.iter().map(|f| f.nominal_count()).collect();
        let to_binary = NominalToBinary::fit(&data.x, &data.y, &nominal);
        let rows: Vec<Vec<f64>> = data.x.iter().map(|r| to_binary.apply(r)).collect();
        let width = to_binary.width();
        // The normal equations hold a width x width matrix: refused where it would take more
        // memory than a regression of a few rows is worth (40,000 columns: 12.8 GB).
        const MAX_COLUMNS: usize = 8192;
        if width > MAX_COLUMNS {
            return Err(MlError::Data(format!(
                "linear regression over {width} columns would need a {:.1} GB matrix; keep at \
                 most {MAX_COLUMNS} columns (--ignore, or fewer features), or use another method",
                (width * width * 8) as f64 / 1e9
            )));
        }
        let missing = ReplaceMissing::fit(&rows, &vec![None; width]);
        let mut cols = vec![Vec::with_capacity(rows.len()); width];
        for mut r in rows {
            missing.apply(&mut r);
            for (c, v) in cols.iter_mut().zip(r) {
                c.push(v);
            }
        }
        Ok(LinearRegression {
            to_binary,
            missing,
            fit: fit_columns(&cols, &data.y, self),
        })
    }
}

impl LinearRegression {
    /// See [`LinearFit::check`]; the filters are checked against the model's `width`
    /// features, and the row width against the filters'.
    pub fn check(&self, width: usize) -> std::result::Result<(), String> {
        self.fit.check()?;
        if self.to_binary.input_width() != width || self.missing.width() != self.to_binary.width() {
            return Err(format!(
                "its filters cover {} and {} columns, not the model's {width} features and the \
                 {} columns they make",
                self.to_binary.input_width(),
                self.missing.width(),
                self.to_binary.width()
            ));
        }
        if self.fit.selected.len() != self.to_binary.width() {
            return Err(format!(
                "{} column flags for {} columns",
                self.fit.selected.len(),
                self.to_binary.width()
            ));
        }
        Ok(())
    }
}

impl Predict<[Vec<f64>]> for LinearRegression {
    fn predict(&self, x: &[Vec<f64>]) -> Result<Vec<f64>> {
        Ok(x.iter()
            .map(|r| {
                let mut row = self.to_binary.apply(r);
                self.missing.apply(&mut row);
                self.fit.predict_row(&row)
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recovers_an_exact_line() {
        let x: Vec<f64> = (0..10).map(f64::from).collect();
        let y: Vec<f64> = x.iter().map(|v| 3.0 * v + 1.0).collect();
        let fit = fit_columns(&[x], &y, &LinearParams::default());
        assert!((fit.coefficients[0] - 3.0).abs() < 1e-6);
        assert!((fit.intercept - 1.0).abs() < 1e-6);
    }
}
