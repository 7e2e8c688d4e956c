//! The thesis's accuracy table (Taheri's thesis, section 5.2): for each optimization, how often the
//! predicted and the actual speedup fall on the same side of 1.0. PP, PN, NP, NN: first letter
//! predicted, second actual; P = speedup above the threshold (1.0).
//!
//! Two totals exist and both are reported: the thesis's "Total" is the unweighted mean of the
//! per-optimization accuracies (Table 5.1: 97.3 = mean of 100, 100, 100, 94.4, 89.1, 100); the
//! sample-weighted total counts every test sample once. Balanced accuracy (the mean of the
//! true-positive and true-negative rates) keeps a one-sided optimization, such as WARP that
//! always helps, from inflating the figure.

use serde::Serialize;

/// Counts of one confusion table, plus samples left out as "no clear effect".
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Confusion {
    pub pp: usize,
    pub pn: usize,
    pub np: usize,
    pub nn: usize,
    /// Samples whose actual speedup lies in the no-clear-effect band (not in the four cells).
    pub unclear: usize,
}

impl Confusion {
    /// Adds one sample. `band` is the half-width of the no-clear-effect band around 1.0
    /// (0 for the thesis's plain rule); an actual speedup inside it is counted as unclear.
    pub fn add(&mut self, predicted: f64, actual: f64, band: f64) {
        if band > 0.0 && (actual - 1.0).abs() < band {
            self.unclear += 1;
            return;
        }
        self.add_decision(predicted > 1.0, actual > 1.0);
    }

    /// Adds one decision (for baselines that only say yes or no).
    pub fn add_decision(&mut self, predicted_positive: bool, actual_positive: bool) {
        match (predicted_positive, actual_positive) {
            (true, true) => self.pp += 1,
            (true, false) => self.pn += 1,
            (false, true) => self.np += 1,
            (false, false) => self.nn += 1,
        }
    }

    /// Samples in the four cells.
    pub fn total(&self) -> usize {
        self.pp + self.pn + self.np + self.nn
    }

    /// (PP + NN) / all; `None` without samples.
    pub fn accuracy(&self) -> Option<f64> {
        let n = self.total();
        (n > 0).then(|| (self.pp + self.nn) as f64 / n as f64)
    }

    /// Mean of the true-positive and true-negative rates; a class absent from the actual
    /// outcomes is left out of the mean.
    pub fn balanced_accuracy(&self) -> Option<f64> {
        let pos = self.pp + self.np;
        let neg = self.pn + self.nn;
        let rates: Vec<f64> = [(self.pp, pos), (self.nn, neg)]
            .into_iter()
            .filter(|&(_, n)| n > 0)
            .map(|(k, n)| k as f64 / n as f64)
            .collect();
        (!rates.is_empty()).then(|| rates.iter().sum::<f64>() / rates.len() as f64)
    }

    /// The four cells as percentages of the samples in them.
    pub fn rates(&self) -> Option<Rates> {
        let n = self.total() as f64;
        (n > 0.0).then(|| Rates {
            pp: 100.0 * self.pp as f64 / n,
            pn: 100.0 * self.pn as f64 / n,
            np: 100.0 * self.np as f64 / n,
            nn: 100.0 * self.nn as f64 / n,
        })
    }

    /// Cell-wise sum.
    pub fn merged(tables: &[Confusion]) -> Confusion {
        tables.iter().fold(Confusion::default(), |a, t| Confusion {
            pp: a.pp + t.pp,
            pn: a.pn + t.pn,
            np: a.np + t.np,
            nn: a.nn + t.nn,
            unclear: a.unclear + t.unclear,
        })
    }
}

/// A confusion table in percent, as the thesis prints it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Rates {
    pub pp: f64,
    pub pn: f64,
    pub np: f64,
    pub nn: f64,
}

impl Rates {
    pub fn accuracy(&self) -> f64 {
        self.pp + self.nn
    }

    /// Share of actual positives.
    pub fn actual_positive(&self) -> f64 {
        self.pp + self.np
    }

    /// The accuracy of always recommending the optimization: the share of actual positives.
    pub fn always_baseline(&self) -> f64 {
        self.actual_positive()
    }

    /// The accuracy of predicting the majority outcome. The thesis publishes test tables only,
    /// so this is the test set's majority (an optimistic stand-in for the training majority).
    pub fn majority_baseline(&self) -> f64 {
        let p = self.actual_positive();
        p.max(100.0 - p)
    }
}

/// The thesis's total: the unweighted mean of per-optimization accuracies.
pub fn thesis_total(accuracies: &[f64]) -> Option<f64> {
    (!accuracies.is_empty()).then(|| accuracies.iter().sum::<f64>() / accuracies.len() as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_accuracy_and_balance() {
        let mut c = Confusion::default();
        for (p, a) in [(1.2, 1.1), (1.2, 0.9), (0.9, 1.1), (0.8, 0.9), (1.3, 1.2)] {
            c.add(p, a, 0.0);
        }
        assert_eq!((c.pp, c.pn, c.np, c.nn), (2, 1, 1, 1));
        assert_eq!(c.accuracy(), Some(0.6));
        // TPR 2/3, TNR 1/2.
        assert!((c.balanced_accuracy().unwrap() - (2.0 / 3.0 + 0.5) / 2.0).abs() < 1e-12);
    }

    #[test]
    fn band_counts_unclear_apart() {
        let mut c = Confusion::default();
        c.add(1.5, 1.01, 0.02);
        c.add(1.5, 1.03, 0.02);
        assert_eq!((c.unclear, c.total()), (1, 1));
    }

    #[test]
    fn one_sided_optimization_has_balanced_accuracy_of_its_only_class() {
        let mut c = Confusion::default();
        c.add(1.5, 1.4, 0.0);
        c.add(0.5, 1.4, 0.0);
        assert_eq!(c.balanced_accuracy(), Some(0.5));
        assert_eq!(Confusion::default().accuracy(), None);
    }
}
