//! Weka's cross-validation (`Evaluation.crossValidateModel`, what `-x K -s S` does for a numeric
//! class): shuffle a copy of the data with `new Random(S)`, then for each fold build a fresh
//! model on `trainCV(K, i, rand)` (which shuffles the training part again with the same
//! generator) and predict `testCV(K, i)` in order.

use serde::Serialize;

use crate::data::Data;
use crate::error::{MlError, Result};
use crate::rng::JavaRandom;
use crate::{Params, Predict};

/// One cross-validated prediction.
#[derive(Debug, Clone, Serialize)]
pub struct CvPrediction {
    /// 0-based index of the row in the input data.
    pub row: usize,
    pub fold: usize,
    pub predicted: f64,
}

/// Weka's fold layout for `n` rows: per fold, the training rows in the order Weka trains on
/// them and the test rows in the order it classifies them (`Instances.randomize`,
/// `trainCV(K, i, rand)` with its second shuffle, `testCV(K, i)`). Needs 2 <= folds <= n.
pub fn weka_folds(n: usize, folds: usize, seed: i64) -> Vec<(Vec<usize>, Vec<usize>)> {
    let mut rand = JavaRandom::new(seed);
    let mut order: Vec<usize> = (0..n).collect();
    rand.shuffle(&mut order);
    (0..folds)
        .map(|fold| {
            let mut size = n / folds;
            let offset = if fold < n % folds {
                size += 1;
                fold
            } else {
                n % folds
            };
            let first = fold * (n / folds) + offset;
            let mut train: Vec<usize> = order[..first]
                .iter()
                .chain(&order[first + size..])
                .copied()
                .collect();
            rand.shuffle(&mut train);
            (train, order[first..first + size].to_vec())
        })
        .collect()
}

/// Per-instance predictions in Weka's output order (fold by fold).
pub fn cross_validate(
    params: &Params,
    data: &Data,
    folds: usize,
    seed: i64,
) -> Result<Vec<CvPrediction>> {
    let n = data.y.len();
    if folds < 2 || folds > n {
        return Err(MlError::Parameter(format!(
            "-x/--cv {folds}: cross-validation needs from 2 folds to as many as there are \
             rows ({n})"
        )));
    }
    let mut out = Vec::with_capacity(n);
    for (fold, (train, test)) in weka_folds(n, folds, seed).into_iter().enumerate() {
        let model = params.fit(&data.subset(&train))?;
        let predicted = model.model.predict(&data.subset(&test).x)?;
        out.extend(
            test.iter()
                .zip(predicted)
                .map(|(&row, predicted)| CvPrediction {
                    row,
                    fold,
                    predicted,
                }),
        );
    }
    Ok(out)
}
