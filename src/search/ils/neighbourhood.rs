//! What a descent of the iterated local search (src/search/ils.rs) measures: the order it
//! tries neighbours in, whether it moves to a measured one without measuring, how many repairs
//! it checks a local minimum against (and those it found, kept for the next visit), how many
//! single changes of one parameter it measures, and how wide a configuration's single-change
//! neighbourhood is for the budget.

use super::restart::normal;
use super::Ils;
use crate::search::evaluator::Evaluator;
use crate::search::key_index::KeyMap;
use crate::search::model_rows::{ModelRecord, ModelRows};
use crate::search::neighbours::{hamming, repairs, stepped};
use crate::search::space::SearchSpace;
use advise_ml::Rng;

/// Configurations [`mean_single_changes`] looks at, at most: a large budget's random share
/// holds hundreds, and a few dozen tell the mean well enough.
const WIDTH_SAMPLE: usize = 32;

/// The mean number of single changes the space holds of the first [`WIDTH_SAMPLE`]
/// configurations measured (the random share's, and its offspring where it has some).
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

/// Which configurations are neighbours.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Neighbourhood {
    Hamming,
    Adjacent,
    /// Variable neighbourhood descent (Mladenovic and Hansen, "Variable neighborhood search",
    /// 1997): adjacent neighbours first, the rest of the Hamming neighbourhood only at an
    /// adjacent local minimum.
    Vnd,
}

/// Which descent stages move, without measuring, to a measured neighbour faster than the
/// current configuration before they measure the unmeasured ones.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum FreeMoves {
    /// None: a descent measures its configuration's unmeasured neighbours whatever the
    /// measured ones hold.
    Off,
    /// The adjacent stage only (`auto`'s default, once [`Ils::free_from`] of the space is
    /// measured).
    Adjacent,
    /// Every stage, as Kernel Tuner's strategies do, whose cache answers a configuration
    /// measured before at no cost.
    All,
}

/// The fastest of the measured configurations among `nb` where it is faster than `time`.
pub(super) fn faster_measured(ev: &Evaluator, nb: &[usize], time: f64) -> Option<(usize, f64)> {
    let space = ev.space();
    nb.iter()
        .filter(|&&c| ev.is_evaluated(c))
        .filter_map(|&c| space.time(c).map(|t| (c, t)))
        .filter(|&(_, t)| t < time)
        .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)))
}

/// Repairs measured at a local minimum of the single-change neighbourhoods: `repair`, or
/// where the space holds fewer than `floor` single changes of the configuration (`singles`),
/// as many as make up the difference.
pub(super) fn repairs_to_measure(repair: usize, floor: usize, singles: usize) -> usize {
    repair.max(floor.saturating_sub(singles))
}

/// The repairs ([`repairs`]) of the configurations one search has looked them up for. A
/// descent comes back to a local minimum whose repairs it measured only in part (a few at each
/// visit, [`repairs_to_measure`]); on the SYNTHETIC hotspot-shaped space
/// (scripts/search/synthetic-hotspot-space.py) four in ten lookups at 5% were of a
/// configuration looked up before, and a lookup reads about 200 lines.
#[derive(Debug, Default)]
pub(super) struct RepairMemo {
    /// Per configuration, where its repairs lie in `found` (start, count).
    at: KeyMap<(usize, usize)>,
    found: Vec<usize>,
}

impl RepairMemo {
    /// Appends the repairs of `id` to `out`, as [`repairs`] gives them.
    pub(super) fn repairs(&mut self, space: &SearchSpace, id: usize, out: &mut Vec<usize>) {
        let found = &mut self.found;
        let (start, count) = *self.at.entry(id as u64).or_insert_with(|| {
            let start = found.len();
            repairs(space, id, found);
            (start, found.len() - start)
        });
        out.extend_from_slice(&found[start..start + count]);
    }
}

impl Ils {
    /// Whether enough of the space is measured for free moves (`free_from`).
    pub(super) fn frees_now(&self, ev: &Evaluator) -> bool {
        ev.used() as f64 >= self.free_from * ev.space().len() as f64
    }

    /// Whether a search of this budget takes Bayesian steps (`bo_min`, `bo_budget`).
    pub(super) fn bayesian_budget(&self, budget: usize) -> bool {
        budget >= self.bo_min && (self.bo_budget == 0 || budget <= self.bo_budget)
    }

    /// [`cap_lines`] with the search's `line_cap` and `line_flat`, where `line_cap` is on:
    /// whether any neighbour was left out.
    pub(super) fn cap_hamming_lines(
        &self,
        ev: &Evaluator,
        from: usize,
        nb: &mut Vec<usize>,
        preds: &mut Vec<f64>,
    ) -> bool {
        self.line_cap > 0 && cap_lines(ev, from, nb, preds, self.line_cap, self.line_flat)
    }

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

/// Keeps, of single-change neighbours of `from` in the order they are to be tried, at most
/// `cap` that change any one parameter (with their predictions, where `preds` holds one per
/// neighbour); with `flat` > 0 only for parameters whose measured adjacent levels (one step
/// either way from `from`) are within that share of `from`'s time, at least one of them
/// measured. Returns whether any was left out.
pub(super) fn cap_lines(
    ev: &Evaluator,
    from: usize,
    nb: &mut Vec<usize>,
    preds: &mut Vec<f64>,
    cap: usize,
    flat: f64,
) -> bool {
    let space = ev.space();
    let base = space.levels(from);
    let with_preds = preds.len() == nb.len();
    let mut per = vec![0usize; base.len()];
    // Per parameter, once a neighbour past the cap asks: whether its line is cut.
    let mut cut_line: Vec<Option<bool>> = vec![None; base.len()];
    let t0 = space.time(from);
    let mut keep = 0;
    for i in 0..nb.len() {
        let c = nb[i];
        let levels = space.levels(c);
        let kept = match (0..base.len()).find(|&j| levels[j] != base[j]) {
            Some(j) => {
                per[j] += 1;
                per[j] <= cap
                    || !*cut_line[j]
                        .get_or_insert_with(|| flat <= 0.0 || flat_line(ev, from, j, t0, flat))
            }
            None => true,
        };
        if kept {
            nb[keep] = c;
            if with_preds {
                preds[keep] = preds[i];
            }
            keep += 1;
        }
    }
    let cut = keep < nb.len();
    nb.truncate(keep);
    if with_preds {
        preds.truncate(keep);
    }
    cut
}

/// Whether the levels of parameter `j` one step either way from `from` that are measured
/// (at least one) are all within the share `flat` of `from`'s time `t0`.
fn flat_line(ev: &Evaluator, from: usize, j: usize, t0: Option<f64>, flat: f64) -> bool {
    let Some(t0) = t0 else { return false };
    let space = ev.space();
    let mut seen = 0;
    for d in [-1i64, 1] {
        if let Some(c) = stepped(space, from, j, d) {
            if ev.is_evaluated(c) {
                match space.time(c) {
                    Some(t) if (t - t0).abs() <= flat * t0 => seen += 1,
                    _ => return false,
                }
            }
        }
    }
    seen > 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::testutil::{grid_space, mixed_space};

    #[test]
    fn the_fastest_measured_neighbour_that_beats_the_time_and_no_unmeasured_one() {
        let space = grid_space();
        let working: Vec<usize> = (0..space.len())
            .filter(|&c| space.time(c).is_some())
            .take(6)
            .collect();
        let time = |c: usize| space.time(c).unwrap();
        let mut ev = Evaluator::new(&space, 10);
        // The fastest of the six stays unmeasured: it must not be chosen.
        let fastest = *working
            .iter()
            .min_by(|&&a, &&b| time(a).total_cmp(&time(b)))
            .unwrap();
        for &c in working.iter().filter(|&&c| c != fastest) {
            ev.evaluate(c);
        }
        let slowest = *working
            .iter()
            .max_by(|&&a, &&b| time(a).total_cmp(&time(b)))
            .unwrap();
        let found = faster_measured(&ev, &working, time(slowest)).unwrap();
        assert_ne!(found.0, fastest);
        assert!(working
            .iter()
            .filter(|&&c| c != fastest)
            .all(|&c| time(c) >= found.1));
        // Nothing measured beats the fastest measured one itself.
        assert_eq!(faster_measured(&ev, &working, found.1), None);
    }

    /// At most `cap` neighbours a parameter are kept, in the order given and with their
    /// predictions; with `flat`, only a line whose measured adjacent levels are that close to
    /// the configuration's time is cut (SYNTHETIC bowl, 12 x 10 x 4 levels).
    #[test]
    fn lines_are_cut_to_the_cap_where_they_are_flat() {
        let space = grid_space();
        let at = |a: u16, b: u16, c: u16| space.find(&[a, b, c]).unwrap();
        // The bowl's bottom (a 8, b 2, unroll 0; time 1): a step of bx costs 1 (to 2), of
        // tile 0.5 (to 1.5).
        let from = at(8, 2, 0);
        let mut all = Vec::new();
        hamming(&space, from, &mut all);
        let line = |nb: &[usize], j: usize| {
            nb.iter()
                .filter(|&&c| space.levels(c)[j] != space.levels(from)[j])
                .count()
        };
        assert_eq!((line(&all, 0), line(&all, 1), line(&all, 2)), (9, 8, 3));
        let ev = Evaluator::new(&space, 100);
        let (mut nb, mut preds) = (all.clone(), (0..all.len()).map(|i| i as f64).collect());
        assert!(cap_lines(&ev, from, &mut nb, &mut preds, 2, 0.0));
        assert_eq!((line(&nb, 0), line(&nb, 1), line(&nb, 2)), (2, 2, 2));
        assert!(nb.iter().zip(&preds).all(|(c, &p)| all[p as usize] == *c));
        // Nothing measured beside it: no line counts as flat.
        let mut nb = all.clone();
        assert!(!cap_lines(&ev, from, &mut nb, &mut Vec::new(), 2, 1.5));
        assert_eq!(nb, all);
        // Its measured bx steps are 100% slower, its tile steps 50%.
        let mut ev = Evaluator::new(&space, 100);
        for c in [at(7, 2, 0), at(9, 2, 0), at(8, 1, 0), at(8, 3, 0), from] {
            ev.evaluate(c);
        }
        for (flat, cut) in [(0.6, (9, 2, 3)), (1.5, (2, 2, 3)), (0.3, (9, 8, 3))] {
            let mut nb = all.clone();
            assert_eq!(
                cap_lines(&ev, from, &mut nb, &mut Vec::new(), 2, flat),
                cut != (9, 8, 3)
            );
            assert_eq!(
                (line(&nb, 0), line(&nb, 1), line(&nb, 2)),
                cut,
                "flat {flat}"
            );
        }
    }

    /// A memo answers as [`repairs`] does, a configuration asked for again included, and
    /// appends after what `out` holds (SYNTHETIC mixed space, two thirds of its combinations
    /// missing).
    #[test]
    fn a_memo_gives_the_repairs_again() {
        let space = mixed_space();
        let mut memo = RepairMemo::default();
        let mut rng = Rng::new(7);
        let (mut asked, mut some) = (0, 0);
        while asked < 3 * space.len() {
            let id = rng.below(space.len());
            let mut want = vec![usize::MAX];
            repairs(&space, id, &mut want);
            let mut got = vec![usize::MAX];
            memo.repairs(&space, id, &mut got);
            assert_eq!(got, want, "configuration {id}");
            some += usize::from(want.len() > 1);
            asked += 1;
        }
        assert!(
            memo.at.len() < asked && some > space.len(),
            "{some} with repairs"
        );
    }
}
