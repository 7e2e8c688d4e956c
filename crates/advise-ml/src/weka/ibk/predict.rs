//! IBk's predictions: test rows in order, each widening the attribute ranges first as Weka
//! does, runs of rows that widen nothing shared between threads.

use super::Ibk;
use crate::error::Result;
use crate::helper_thread::join;
use crate::weka::ibk_pivots::{PivotUse, Pivots};
use crate::weka::ibk_scan::Scaled;
use crate::Predict;

/// Pivots of the one-neighbour scan (ibk_pivots.rs), and the run of targets from which they
/// are formed.
const PIVOTS: usize = 2;
const PIVOT_RUN: usize = 32;

/// Work (training rows x test rows x columns) above which a run of test rows is shared
/// between threads.
const PARALLEL_WORK: usize = 1_000_000;

impl Ibk {
    /// The prediction for one test row against the current scaled state.
    fn predict_scaled(
        &self,
        scaled: &Scaled,
        pivots: &PivotUse,
        numeric: bool,
        row: &[f64],
    ) -> f64 {
        let target = scaled.scale(&self.nominal, row);
        let fast = numeric && !row.iter().any(|v| v.is_nan());
        let pivots = Some(pivots).filter(|_| fast);
        let neigh = self.neighbours(scaled, &target, fast, None, self.k, pivots);
        let mut d: Vec<f64> = neigh.iter().map(|n| n.1).collect();
        self.combine(&neigh, &mut d)
    }
}

impl Predict<[Vec<f64>]> for Ibk {
    /// Test rows in order, each widening the ranges first (as Weka does). A run of rows that
    /// widens nothing sees one and the same scaled state, so its rows are independent and,
    /// when the run is large, are shared between the machine's cores.
    fn predict(&self, x: &[Vec<f64>]) -> Result<Vec<f64>> {
        self.predict_sharing(x, PARALLEL_WORK)
    }
}

impl Ibk {
    /// [`Predict::predict`], sharing runs of at least `parallel_work` between threads.
    fn predict_sharing(&self, x: &[Vec<f64>], parallel_work: usize) -> Result<Vec<f64>> {
        if self.x.is_empty() {
            return Ok(vec![self.mean; x.len()]);
        }
        let mut scaled = Scaled::new(&self.x, &self.nominal, self.ranges.clone());
        let numeric = !self.nominal.iter().any(|&n| n);
        let mut out = Vec::with_capacity(x.len());
        let mut t = 0;
        while t < x.len() {
            scaled.widen(&self.x, &self.nominal, &x[t]);
            let mut end = t + 1;
            while end < x.len() && !scaled.widens(&x[end]) {
                end += 1;
            }
            let run = &x[t..end];
            // Pivots pay for their distances (a few rows' worth a training row) over a run of
            // targets of the one-neighbour scan.
            let pivots = (self.k == 1 && numeric && run.len() >= PIVOT_RUN)
                .then(|| Pivots::new(&scaled, PIVOTS))
                .flatten();
            let pivots = pivots.as_ref();
            let work = run.len() * self.x.len() * scaled.width;
            // Each thread judges the pivots on its own targets.
            let predict = |rows: &[Vec<f64>]| {
                let usage = PivotUse::new(pivots);
                rows.iter()
                    .map(|r| self.predict_scaled(&scaled, &usage, numeric, r))
                    .collect::<Vec<f64>>()
            };
            if work < parallel_work {
                out.extend(predict(run));
            } else {
                // Half the run on the helper thread (when it is free).
                let (first, second) = run.split_at(run.len() / 2);
                let (a, b) = join(|| predict(first), || predict(second));
                out.extend(a);
                out.extend(b);
            }
            t = end;
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use crate::synthetic::synthetic;
    use crate::weka::ibk::IbkParams;
    use crate::Fit;

    #[test]
    fn threads_give_the_sequential_predictions() {
        let train = synthetic(120, 12, 4);
        let mut test = synthetic(60, 12, 9).x;
        for (i, row) in test.iter_mut().enumerate() {
            if i % 9 == 4 {
                row[2] = 1.0 + i as f64 / 10.0;
            }
        }
        let model = IbkParams::default().fit(&train).unwrap();
        let one = model.predict_sharing(&test, usize::MAX).unwrap();
        let shared = model.predict_sharing(&test, 0).unwrap();
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&one), bits(&shared));
    }

    /// Synthetic rows whose targets are all missing: the prediction is 0, not -0.
    #[test]
    fn no_known_target_predicts_a_plain_zero() {
        let mut train = synthetic(10, 3, 4);
        train.y.iter_mut().for_each(|y| *y = f64::NAN);
        let model = IbkParams::default().fit(&train).unwrap();
        let p = model.predict_sharing(&train.x, usize::MAX).unwrap();
        assert!(p.iter().all(|v| v.to_bits() == 0.0f64.to_bits()), "{p:?}");
    }

    /// Synthetic rows: a k far beyond the training rows (as `-K 99999999999` asks) predicts
    /// as k = all rows does, with and without hold-one-out selection, instead of reserving
    /// memory for k rows.
    #[test]
    fn a_k_beyond_the_rows_predicts_as_all_rows() {
        let train = synthetic(30, 4, 2);
        let test = synthetic(8, 4, 5).x;
        let fit = |k: usize, cross_validate: bool| {
            let params = IbkParams {
                k,
                cross_validate,
                ..IbkParams::default()
            };
            let model = params.fit(&train).unwrap();
            model.predict_sharing(&test, usize::MAX).unwrap()
        };
        assert_eq!(fit(99_999_999_999, false), fit(30, false));
        assert_eq!(fit(99_999_999_999, true), fit(29, true));
    }
}
