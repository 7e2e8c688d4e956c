//! The main-effects model of log time that orders a local search's neighbours (auto,
//! greedy_ils and basinhopping with `model`), refitted on the measurements so far when
//! neighbours are ordered and the measurements have grown by 1/24 since the last fit (up to
//! 50 measurements a level column), and the record of its predictions that decides whether
//! it orders them while the measurements are few.

use super::evaluator::Evaluator;
use super::space::SearchSpace;
use advise_ml::{LevelCounts, OneHotRidge};

/// Models of at most this many level columns are refitted by a fresh factorisation, larger
/// ones by conjugate gradients from the previous fit
/// ([`OneHotRidge::fit_conjugate_gradient`]). The factorisation costs O(f^3) a refit, an
/// iteration O(f^2): on a 105,412-configuration space of hotspot's shape (88 columns;
/// scripts/search/synthetic-hotspot-space.py) the factorisation's refits were 85% of a
/// search's time. 64 until 2026-11-30, when the public spaces (21 to 53 columns) measured the
/// other way (docs/search-results.md, "Fewer refits of the main-effects model"): with the
/// iterations' products vectorised, `auto`'s searches took 3-13% fewer instructions by
/// conjugate gradients (gemm on an A100 at 5% 12.7%), and 878 of 189,000 runs on 65 spaces
/// changed, no space's mean fraction by more than 0.001.
pub(crate) const FACTORISED_COLUMNS: usize = 16;

/// The conjugate gradients stop when no residual of the normal equations exceeds this share
/// of their largest right-hand side. Forced on every public space here (the 27 spaces of
/// docs/search-results.md's tables at 1%, 2% and 5%, 100 runs each), it gave the
/// factorisation's median fraction of the optimum on 79 of the 81 spaces and budgets and
/// 0.0006 and 0.0023 less on the other two (convolution on an A6000 and an MI250X at 1%), and
/// its 5th percentile on all but one (0.004 less); 1e-4 differed from the factorisation in
/// one median, 1e-2 in 11 (either way, up to 0.08). 2e-3 since 2026-11-30
/// (docs/search-results.md, "Fewer refits of the main-effects model"): 5% fewer instructions in
/// `auto`'s searches of hotspot on an RTX A4000 at 5%; of the 65 spaces measured that day only
/// hotspot's two (on the RTX A4000 and a W7800, over 64 columns) took the conjugate gradients
/// then, and 135 of the A4000's 3,000 runs (ten seed sets of 100 at 1%, 2% and 5%) changed,
/// none of the W7800's; no mean of its medians or 5th percentiles moved by more than 0.0001.
const CG_TOLERANCE: f64 = 2e-3;

/// A model is refitted once the measurements have grown by at least a 1/REFIT_SHARE share since its
/// last fit (at least one; every time below 2 x REFIT_SHARE measurements), and neighbours are
/// ordered by the last fit meanwhile: a main-effects model barely moves when a few percent more
/// measurements arrive. With 1/64 on the synthetic hotspot-shaped space at 5% (5,271 evaluations,
/// the conjugate-gradient path) this took a search from 5.9 to 3.0 ms; forced on every public
/// space, the medians were those of refitting every time, and so were the 5th percentiles but one
/// (0.9999 -> 0.9991). On the factorised path since 2026-11-28 (docs/search-results.md, "Changed on
/// 2026-11-28"): `auto` on the 12 benchmark_hub spaces at 5% 12% less CPU (3.17 -> 2.78 ms), and
/// the 15 development spaces' mean of medians at 1%, 2% and 5% unchanged with three seed sets. 1/32
/// since the same day's second change: 12% less CPU at 5% on 15 spaces (means 2.28-2.50 ->
/// 2.03-2.18 ms over five alternating rounds), medians unchanged on 31 spaces and three seed sets;
/// 1/16 cost the development spaces 0.004 at 2%. 1/24 since 2026-11-30 ("Fewer refits of the
/// main-effects model"): 4-6% fewer instructions in `auto`'s searches of gemm on an A100 and
/// hotspot on an RTX A4000 at 5%, the reach of Kernel Tuner's best on 65 spaces (ten seed sets of
/// 100 runs) the same at every budget; 1/16 that day cost 0.3 of a space at 5% (development mean of
/// medians 0.9954 -> 0.9944).
const REFIT_SHARE: usize = 24;

/// A model is fitted on at most this many measurements per level column, the first ones
/// (once it has a fit): from there on it is neither counted nor refitted, and orders
/// neighbours by its last fit. By then a parameter of r levels has on average 50 f / r
/// measurements at each of its levels (f columns, so at least 50), and a level's weight a
/// standard error of at most about a seventh of the log times' spread about the model; the
/// counting and the refits, meanwhile, cost more with every measurement. On the
/// 241,600-configuration UCI SGEMM space (40 columns, so 2,000 measurements) a search takes
/// 13% fewer instructions at 2% (4,832 evaluations) and 22% at 5%, and over ten seed sets of
/// 100 runs its medians and 5th percentiles at 1%, 2% and 5% are unchanged (1.000; the 5th
/// percentile at 1% 0.919 -> 0.922, where only a run's last 416 evaluations see another
/// model); 25 a column took the 5th percentile at 2% from 1.000 to 0.987. No other public
/// space here reaches the cap: the nearest, CLBlast's gemm (32 columns), spends 898
/// evaluations at 5%, 0.56 of it (docs/search-results.md, "A model of at most 50
/// measurements a level column").
const MOST_ROWS_PER_COLUMN: usize = 50;

/// Most conjugate-gradient iterations of one refit.
const MAX_ITERATIONS: usize = 200;

/// The measurements a main-effects model of log time is fitted on, kept from one refit to the
/// next (a search's measurements only grow): their levels, their log times and the levels'
/// co-occurrence counts, so that each refit reads only the new measurements.
pub(crate) struct ModelRows {
    counts: LevelCounts,
    rows: Vec<u16>,
    /// Log time of each measurement; `None`: failed.
    logs: Vec<Option<f64>>,
    /// The slowest time measured.
    worst: f64,
    y: Vec<f64>,
    /// For the conjugate gradients: per level column, the sum of the log times of the successful
    /// measurements holding it and the number of failed ones; the previous fit.
    level_logs: Vec<f64>,
    level_failures: Vec<f64>,
    /// For the conjugate gradients: the sum of all successful log times, the failures.
    log_total: f64,
    failures: f64,
    previous: Option<OneHotRidge>,
    /// Measurements the previous fit saw.
    fitted_rows: usize,
}

impl ModelRows {
    pub(crate) fn new(space: &SearchSpace) -> ModelRows {
        let counts = LevelCounts::new(space.radix());
        let f = counts.columns();
        ModelRows {
            counts,
            rows: Vec::new(),
            logs: Vec::new(),
            worst: f64::NEG_INFINITY,
            y: Vec::new(),
            level_logs: vec![0.0; f],
            level_failures: vec![0.0; f],
            log_total: 0.0,
            failures: 0.0,
            previous: None,
            fitted_rows: 0,
        }
    }

    /// The model's level columns (one per level of each parameter).
    pub(crate) fn columns(&self) -> usize {
        self.counts.columns()
    }

    /// A main-effects model of log time on the measurements (failures: twice the slowest),
    /// all but at most the last 1/[`REFIT_SHARE`] of them, or of the first
    /// [`MOST_ROWS_PER_COLUMN`] per column: up to [`FACTORISED_COLUMNS`]
    /// columns the same bit for bit as [`OneHotRidge::fit`] on those, above that the same to
    /// [`CG_TOLERANCE`].
    pub(crate) fn fit(&mut self, ev: &Evaluator) -> Option<&OneHotRidge> {
        let space = ev.space();
        let iterative = self.counts.columns() > FACTORISED_COLUMNS;
        let room = match self.previous {
            Some(_) => {
                (MOST_ROWS_PER_COLUMN * self.counts.columns()).saturating_sub(self.logs.len())
            }
            None => usize::MAX,
        };
        if room == 0 {
            return self.previous.as_ref();
        }
        let new = ev.evaluated().get(self.logs.len()..).unwrap_or(&[]);
        for &id in new.iter().take(room) {
            let levels = space.levels(id);
            self.counts.add(levels).ok()?;
            let t = space.time(id);
            if let Some(t) = t {
                self.worst = self.worst.max(t);
            }
            let log = t.map(f64::ln);
            if iterative {
                // A success adds its log time to its levels' sums, a failure one to their
                // failure counts.
                let (sums, add) = match log {
                    Some(l) => {
                        self.log_total += l;
                        (&mut self.level_logs, l)
                    }
                    None => {
                        self.failures += 1.0;
                        (&mut self.level_failures, 1.0)
                    }
                };
                for &c in self.counts.last_columns() {
                    sums[c] += add;
                }
            } else {
                self.rows.extend_from_slice(levels);
            }
            self.logs.push(log);
        }
        if !self.worst.is_finite() {
            return None;
        }
        let n = self.logs.len();
        if self.previous.is_some() && n - self.fitted_rows < (n / REFIT_SHARE).max(1) {
            return self.previous.as_ref();
        }
        let failed = (2.0 * self.worst).ln();
        let model = if iterative {
            self.fit_iteratively(failed)?
        } else {
            self.y.clear();
            self.y.extend(self.logs.iter().map(|l| l.unwrap_or(failed)));
            OneHotRidge::fit_counted(&mut self.counts, &self.rows, &self.y, 1.0).ok()?
        };
        self.fitted_rows = n;
        self.previous = Some(model);
        self.previous.as_ref()
    }

    fn fit_iteratively(&mut self, failed: f64) -> Option<OneHotRidge> {
        let n = self.logs.len();
        let mean = (self.log_total + self.failures * failed) / n as f64;
        let sums: Vec<f64> = self
            .level_logs
            .iter()
            .zip(&self.level_failures)
            .map(|(s, k)| s + k * failed)
            .collect();
        let (model, _) = OneHotRidge::fit_conjugate_gradient(
            &mut self.counts,
            &sums,
            mean,
            1.0,
            self.previous.as_ref(),
            CG_TOLERANCE,
            MAX_ITERATIONS,
        )
        .ok()?;
        Some(model)
    }
}

/// A model's track record while it has few measurements (how [`super::ils::Ils`] decides
/// whether the model orders neighbours): Kendall's concordance between the
/// log times it predicted for the neighbours measured since the first descent (each by the
/// fit of the moment, whatever order they were tried in) and the log times measured; a
/// failure ranks slowest. Pairs tied on either side count neither way.
#[derive(Default)]
pub(crate) struct ModelRecord {
    seen: Vec<(f64, f64)>,
    concordant: usize,
    discordant: usize,
}

impl ModelRecord {
    pub(crate) fn add(&mut self, pred: f64, actual: f64) {
        for &(p, a) in &self.seen {
            let s = (pred - p) * (actual - a);
            if s > 0.0 {
                self.concordant += 1;
            } else if s < 0.0 {
                self.discordant += 1;
            }
        }
        self.seen.push((pred, actual));
    }

    /// Whether at least 10 pairs are ranked and more than the share `gate` of them alike.
    pub(crate) fn trusted(&self, gate: f64) -> bool {
        let n = self.concordant + self.discordant;
        n >= 10 && self.concordant as f64 > gate * n as f64
    }
}

#[cfg(test)]
mod tests;
