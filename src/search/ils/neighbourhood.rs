//! What a descent of the iterated local search (src/search/ils.rs) measures: the order it
//! tries neighbours in, how many repairs it checks a local minimum against, and how wide a
//! configuration's single-change neighbourhood is for the budget.

use super::restart::normal;
use super::Ils;
use crate::search::evaluator::Evaluator;
use crate::search::model_rows::{ModelRecord, ModelRows};
use crate::search::neighbours::hamming;
use advise_ml::Rng;

/// Configurations [`mean_single_changes`] looks at, at most: a large budget's random share
/// holds hundreds, and a few dozen tell the mean well enough.
const WIDTH_SAMPLE: usize = 32;

/// The mean number of single changes the space holds of the first [`WIDTH_SAMPLE`]
/// configurations measured.
pub(super) fn mean_single_changes(ev: &Evaluator) -> f64 {
    let space = ev.space();
    let sample = &ev.evaluated()[..ev.evaluated().len().min(WIDTH_SAMPLE)];
    let mut nb = Vec::new();
    let mut total = 0usize;
    for &c in sample {
        nb.clear();
        hamming(space, c, &mut nb);
        total += nb.len();
    }
    total as f64 / sample.len().max(1) as f64
}

/// Repairs measured at a local minimum of the single-change neighbourhoods: `repair`, or
/// where the space holds fewer than `floor` single changes of the configuration (`singles`),
/// as many as make up the difference.
pub(super) fn repairs_to_measure(repair: usize, floor: usize, singles: usize) -> usize {
    repair.max(floor.saturating_sub(singles))
}

impl Ils {
    /// Puts neighbours in the order they are tried: predicted fastest first, or at random;
    /// while the measurements are few, `preds` gets each neighbour's prediction in the new
    /// order for the model's record (empty otherwise, and without a model).
    pub(super) fn order(
        &self,
        ev: &Evaluator,
        nb: &mut Vec<usize>,
        data: &mut ModelRows,
        record: &ModelRecord,
        preds: &mut Vec<f64>,
        rng: &mut Rng,
    ) {
        preds.clear();
        // Fewer measurements than `model_rows` per level column of the model.
        let few = (ev.used() as f64) < self.model_rows * data.columns() as f64;
        let wanted = self.model && (!few || self.gate > 0.0);
        let model = if wanted { data.fit(ev) } else { None };
        match model {
            Some(m) => {
                let space = ev.space();
                // The neighbours' levels lie scattered over a large space's table: fetched all
                // at once, their cache misses overlap.
                for &c in nb.iter() {
                    space.prefetch_levels(c);
                }
                let mut scored: Vec<(f64, usize)> = nb
                    .iter()
                    .map(|&c| {
                        let jitter = if self.noise > 0.0 {
                            self.noise * normal(rng)
                        } else {
                            0.0
                        };
                        (m.predict(space.levels(c)) + jitter, c)
                    })
                    .collect();
                if few && !record.trusted(self.gate) {
                    rng.shuffle(&mut scored);
                } else {
                    scored.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
                }
                nb.clear();
                nb.extend(scored.iter().map(|s| s.1));
                if few {
                    preds.extend(scored.iter().map(|s| s.0));
                }
            }
            None => rng.shuffle(nb),
        }
    }
}
