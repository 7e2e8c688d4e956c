//! Level-coded rows: a tuning configuration as the level (index in value order) of each of
//! its parameters. Trees split on levels directly (levels are in value order, so this equals
//! splitting on values); distance- and kernel-based models use the levels' values scaled to
//! [0, 1] ([`LevelScale`]).

use std::cell::RefCell;

use crate::rng::Rng;
use crate::{Fit, Predict, PredictRow};

/// Configurations as rows of levels, row-major.
#[derive(Debug, Clone, Default)]
pub struct Levels {
    pub data: Vec<u16>,
    pub width: usize,
}

impl Levels {
    pub fn new(width: usize) -> Self {
        Levels {
            data: Vec::new(),
            width,
        }
    }

    pub fn push(&mut self, row: &[u16]) {
        debug_assert_eq!(row.len(), self.width);
        self.data.extend_from_slice(row);
    }

    pub fn len(&self) -> usize {
        self.data.len().checked_div(self.width).unwrap_or(0)
    }

    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    pub fn row(&self, i: usize) -> &[u16] {
        &self.data[i * self.width..(i + 1) * self.width]
    }
}

/// How levels map to numbers: the level count of each parameter and each level's value
/// scaled to [0, 1] over the parameter's range.
#[derive(Debug, Clone)]
pub struct LevelScale {
    pub radix: Vec<usize>,
    pub scaled: Vec<Vec<f64>>,
}

impl LevelScale {
    /// From each parameter's values in level order.
    pub fn from_values(values: &[Vec<f64>]) -> Self {
        let scaled = values
            .iter()
            .map(|vals| {
                let lo = vals.iter().copied().fold(f64::INFINITY, f64::min);
                let hi = vals.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                let span = if hi > lo { hi - lo } else { 1.0 };
                vals.iter().map(|v| (v - lo) / span).collect()
            })
            .collect();
        LevelScale {
            radix: values.iter().map(Vec::len).collect(),
            scaled,
        }
    }

    /// The scaled values of one row.
    pub fn point(&self, row: &[u16], out: &mut Vec<f64>) {
        out.clear();
        out.extend(
            row.iter()
                .enumerate()
                .map(|(j, &l)| self.scaled[j][l as usize]),
        );
    }
}

/// Training data of the level-coded models: rows, targets, and the generator that drives any
/// random choice of the fit (the caller's, so a search's whole run follows one seeded stream;
/// [`LevelSet::into_rng`] hands it back advanced).
#[derive(Debug)]
pub struct LevelSet<'a> {
    pub x: &'a Levels,
    pub y: &'a [f64],
    rng: RefCell<Rng>,
}

impl<'a> LevelSet<'a> {
    pub fn new(x: &'a Levels, y: &'a [f64], rng: Rng) -> Self {
        LevelSet {
            x,
            y,
            rng: RefCell::new(rng),
        }
    }

    /// Runs `f` with the set's generator.
    pub fn with_rng<T>(&self, f: impl FnOnce(&mut Rng) -> T) -> T {
        f(&mut self.rng.borrow_mut())
    }

    /// The generator, advanced by whatever the fit drew.
    pub fn into_rng(self) -> Rng {
        self.rng.into_inner()
    }
}

/// A level-coded model a search strategy can hold and refit (object-safe): it fits in place
/// from the strategy's generator and predicts one configuration at a time.
pub trait LevelModel: Send + Sync {
    /// Fits the model to rows `x` with targets `y`; `rng` drives any random choice.
    fn fit(&mut self, x: &Levels, y: &[f64], rng: &mut Rng);
    /// Predicts one row (0 before the first fit).
    fn predict(&self, row: &[u16]) -> f64;
}

/// A [`LevelModel`] made of hyper-parameters `P` and, once fitted, their model `M`.
#[derive(Debug, Clone)]
pub struct Refit<P, M> {
    pub params: P,
    model: Option<M>,
}

impl<P, M> Refit<P, M> {
    pub fn new(params: P) -> Self {
        Refit {
            params,
            model: None,
        }
    }

    /// The fitted model, if any.
    pub fn model(&self) -> Option<&M> {
        self.model.as_ref()
    }
}

impl<P, M> LevelModel for Refit<P, M>
where
    P: for<'a> Fit<LevelSet<'a>, Model = M> + Send + Sync,
    M: PredictRow<u16> + Send + Sync,
{
    fn fit(&mut self, x: &Levels, y: &[f64], rng: &mut Rng) {
        let set = LevelSet::new(x, y, rng.clone());
        // Level-coded fits cannot fail: every model falls back to a constant on too few rows.
        self.model = self.params.fit(&set).ok();
        *rng = set.into_rng();
    }

    fn predict(&self, row: &[u16]) -> f64 {
        self.model.as_ref().map_or(0.0, |m| m.predict_row(row))
    }
}

impl<M: PredictRow<u16>> Predict<Levels> for M {
    fn predict(&self, rows: &Levels) -> crate::Result<Vec<f64>> {
        Ok((0..rows.len())
            .map(|i| self.predict_row(rows.row(i)))
            .collect())
    }
}
