//! Parameters that make every configuration faster one way, told from the pairs of
//! configurations one change of them apart that a search has measured. A local search
//! measures a configuration's single changes at every step, so such pairs pile up; where
//! nearly all of one parameter's agree, the search stops measuring that parameter's steps the
//! other way. A GPU's clock frequency, tuned like any parameter in energy-tuning caches, is
//! one: on ccglib's complex GEMM on an RTX 4000 Ada (ten clocks, 1485-1815 MHz) the higher
//! clock is faster in 97% of the pairs, 2% a level, which a main-effects model fitted on all
//! measurements cannot tell from the 60-fold scatter the tile sizes make, so `auto` checked
//! every local minimum at every clock and climbed back level by level after each jump.

use super::Ils;
use crate::search::configuration_set::ConfigurationSet;
use crate::search::evaluator::Evaluator;
use crate::search::neighbours::{adjacent_step, one_parameter_changes, stepped};
use crate::search::space::SearchSpace;

/// A parameter is monotone where its pairs the other way are at most one in this many of
/// those its way: the higher clock is slower in 2.7% of the pairs of that GEMM (slow,
/// memory-bound configurations), and one such pair must not end it.
const CONTRARY: u32 = 20;

/// Parameters of fewer levels are never taken for monotone. The pairs a search has measured
/// come from the few regions it has visited: on convolution on an A100 a tile size of four
/// levels whose largest was faster in every early pair (two in three over the whole space)
/// kept descents from the optimum's tile of 3, and switches of two levels (`use_padding`)
/// looked monotone the same way; the clock's ten levels, a tile size of eleven (pnpoly on an
/// RTX Titan: the larger faster in 95% of all pairs) and hotspot's tiles of ten are beyond
/// such a region.
const FEWEST_LEVELS: usize = 6;

/// Per parameter, the measured pairs one change of it apart (the rest the same) where its
/// higher level was faster and where it was not. Every level is looked up, which costs a
/// search of hotspot on an A4000 (a block size of 37 levels) at 5% 1.3 times the CPU; pairs
/// of adjacent levels alone cost 1.09 times, but are fewer and found the clock later: over
/// the 70 spaces' sweep 62.2 of 63 spaces reached Kernel Tuner's best at 5% instead of 62.5,
/// the GEMM's median at 5% 0.979 instead of 0.985 (docs/search-results.md, "Monotone
/// parameters").
#[derive(Debug)]
pub(crate) struct MonotoneParameters {
    higher: Vec<(u32, u32)>,
    /// The fewest agreeing pairs that make a parameter monotone.
    at_least: u32,
    /// Whether any parameter has [`FEWEST_LEVELS`] (else nothing is ever counted).
    eligible: bool,
    /// Whether any parameter is monotone as of the last update (the callers skip their work
    /// otherwise: most spaces have none, and a search of the UCI SGEMM space at 5% runs its
    /// descent stages some 10,000 times).
    any: bool,
    /// The measurements taken in so far (a prefix of `Evaluator::evaluated`).
    taken: usize,
    /// The successful ones among them: a new one pairs with these.
    done: ConfigurationSet,
}

impl MonotoneParameters {
    /// No pairs yet, in a space; `at_least`: the fewest agreeing pairs that make a parameter
    /// monotone.
    pub(crate) fn new(space: &SearchSpace, at_least: u32) -> MonotoneParameters {
        MonotoneParameters {
            higher: vec![(0, 0); space.radix().len()],
            at_least,
            eligible: at_least > 0 && space.radix().iter().any(|&r| r >= FEWEST_LEVELS),
            any: false,
            taken: 0,
            done: ConfigurationSet::new(space.len()),
        }
    }

    /// Takes in the measurements made since the last call: each successful one pairs with
    /// every earlier successful measurement one change of one parameter away.
    pub(crate) fn update(&mut self, ev: &Evaluator) {
        let space = ev.space();
        let new = ev.evaluated().len();
        if !self.eligible || new == self.taken {
            self.taken = new;
            return;
        }
        for k in self.taken..new {
            let c = ev.evaluated()[k];
            let Some(tc) = space.time(c) else {
                continue;
            };
            let key = space.key_of(c);
            for (j, (&r, &l)) in space.radix().iter().zip(space.levels(c)).enumerate() {
                if r < FEWEST_LEVELS {
                    continue; // never monotone: its pairs are not looked up
                }
                for (m, n) in one_parameter_changes(space, key, j, l) {
                    if !self.done.contains(n) {
                        continue;
                    }
                    let Some(tn) = space.time(n) else {
                        continue;
                    };
                    // `c` is at level `l`, `n` at `m`: is the higher one faster?
                    let faster = if u64::from(l) > m { tc < tn } else { tn < tc };
                    let h = &mut self.higher[j];
                    if faster {
                        h.0 += 1;
                    } else {
                        h.1 += 1;
                    }
                }
            }
            self.done.insert(c);
        }
        self.taken = new;
        self.any = (0..self.higher.len()).any(|j| self.way(space, j).is_some());
    }

    /// Whether any parameter was monotone at the last update.
    pub(crate) fn any(&self) -> bool {
        self.any
    }

    /// The way parameter `j` (of [`FEWEST_LEVELS`] or more) makes configurations faster, +1
    /// (higher levels) or -1, where at least `at_least` measured pairs agree and at most one
    /// in [`CONTRARY`] disagrees; else None (always, where `at_least` is 0).
    pub(crate) fn way(&self, space: &SearchSpace, j: usize) -> Option<i64> {
        if self.at_least == 0 || space.radix()[j] < FEWEST_LEVELS {
            return None;
        }
        let at_least = self.at_least;
        let (up, down) = self.higher[j];
        if up >= at_least && down * CONTRARY <= up {
            Some(1)
        } else if down >= at_least && up * CONTRARY <= down {
            Some(-1)
        } else {
            None
        }
    }

    /// Whether moving parameter `j` by `step` levels goes against its way.
    pub(crate) fn against(&self, space: &SearchSpace, j: usize, step: i64) -> bool {
        self.way(space, j).is_some_and(|w| step * w < 0)
    }
}

impl Ils {
    /// Leaves out of `nb` (single changes of `cur`) those that move a monotone parameter
    /// against its way; returns whether any was left out.
    pub(super) fn keep_monotone_ways(
        &self,
        ev: &Evaluator,
        cur: usize,
        nb: &mut Vec<usize>,
        mono: &mut MonotoneParameters,
    ) -> bool {
        mono.update(ev);
        if !mono.any() {
            return false;
        }
        let space = ev.space();
        let before = nb.len();
        nb.retain(|&c| {
            adjacent_step(space, cur, c).is_none_or(|(j, d)| !mono.against(space, j, d))
        });
        nb.len() < before
    }

    /// Puts first in `nb` (the adjacent stage's neighbours of `cur`, in the order they are
    /// tried), for each monotone parameter, the unmeasured configuration that moves it
    /// farthest its way (two levels or more: a clock is climbed in one step, not level by
    /// level); `preds`, which must follow `nb`'s order, is then emptied.
    pub(super) fn leap_first(
        &self,
        ev: &Evaluator,
        cur: usize,
        nb: &mut Vec<usize>,
        preds: &mut Vec<f64>,
        mono: &MonotoneParameters,
    ) {
        if !mono.any() {
            return;
        }
        let space = ev.space();
        for j in 0..space.radix().len() {
            let Some(w) = mono.way(space, j) else {
                continue;
            };
            let l = i64::from(space.levels(cur)[j]);
            let room = if w > 0 {
                space.radix()[j] as i64 - 1 - l
            } else {
                l
            };
            let far = (2..=room)
                .rev()
                .filter_map(|k| stepped(space, cur, j, k * w))
                .find(|&c| !ev.is_evaluated(c));
            if let Some(far) = far {
                nb.insert(0, far);
                preds.clear();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::import::Config;
    use crate::search::testutil::{grid_space, space_of};

    /// Synthetic: a clock of 8 levels, each one 2% faster than the one below, times a tile
    /// size of 6 levels whose third is fastest (a bowl).
    fn clocked() -> SearchSpace {
        let mut configs = Vec::new();
        for clock in 0..8 {
            for tile in 0..6 {
                let t = (1.0 + f64::from(tile - 2).powi(2)) * 0.98f64.powi(clock);
                configs.push(Config {
                    values: vec![(1000 + 100 * clock).to_string(), (1 << tile).to_string()],
                    time_ms: Some(t),
                    failure: None,
                    counters: vec![],
                });
            }
        }
        space_of("clocked", &["clock", "tile"], configs)
    }

    fn measured(space: &SearchSpace, n: usize) -> Evaluator<'_> {
        let mut ev = Evaluator::new(space, n);
        for c in 0..n {
            ev.evaluate(c);
        }
        ev
    }

    #[test]
    fn a_clock_is_monotone_and_a_bowl_is_not() {
        let space = clocked();
        let ev = measured(&space, space.len());
        let mut mono = MonotoneParameters::new(&space, 4);
        mono.update(&ev);
        let counts = mono.higher.clone();
        // Taken in twice, nothing counts twice.
        mono.update(&ev);
        assert_eq!(mono.higher, counts);
        // Every pair of two clocks at each of the 6 tiles: 6 x 28.
        assert_eq!(counts[0], (168, 0));
        assert_eq!(mono.way(&space, 0), Some(1));
        assert!(mono.against(&space, 0, -5));
        assert!(!mono.against(&space, 0, 5));
        // The tile is a bowl: both ways win pairs.
        assert_eq!(mono.way(&space, 1), None);
        assert!(counts[1].0 > 0 && counts[1].1 > 0);
    }

    #[test]
    fn pairs_count_only_once_both_are_measured() {
        let space = clocked();
        // The first configuration alone pairs with nothing.
        let mut mono = MonotoneParameters::new(&space, 4);
        mono.update(&measured(&space, 1));
        assert_eq!(mono.higher, vec![(0, 0); 2]);
    }

    #[test]
    fn parameters_of_few_levels_are_not_counted() {
        let space = grid_space(); // bx 12 levels, tile 10, unroll 4 (time rises with it)
        let mut mono = MonotoneParameters::new(&space, 4);
        mono.update(&measured(&space, space.len()));
        assert_eq!(mono.higher[2], (0, 0));
        assert_eq!(mono.way(&space, 2), None);
        assert!(mono.higher[0].0 > 0 && mono.higher[0].1 > 0, "bx: a bowl");
    }

    #[test]
    fn the_way_needs_enough_pairs_and_few_contrary_ones() {
        let space = grid_space(); // bx has 12 levels, unroll 4
        let mut mono = MonotoneParameters::new(&space, 4);
        mono.higher[0] = (40, 2);
        assert_eq!(mono.way(&space, 0), Some(1));
        mono.at_least = 41;
        assert_eq!(mono.way(&space, 0), None, "too few pairs");
        mono.at_least = 4;
        mono.higher[0] = (40, 3);
        assert_eq!(
            mono.way(&space, 0),
            None,
            "3 in 40 against: more than one in 20"
        );
        mono.higher[0] = (0, 5);
        assert_eq!(mono.way(&space, 0), Some(-1));
        assert!(mono.against(&space, 0, 2));
        mono.higher[2] = (50, 0);
        assert_eq!(mono.way(&space, 2), None, "4 levels: under the fewest");
    }

    /// Synthetic: a clock of 10 levels, each 2% faster than the one below, times a kernel of
    /// three parameters of 5 levels whose times are drawn (seeded) between 1 and 3.
    fn clocked_kernel() -> SearchSpace {
        let mut rng = advise_ml::Rng::new(5);
        let kernel: Vec<f64> = (0..125).map(|_| 1.0 + 2.0 * rng.unit()).collect();
        let mut configs = Vec::new();
        for clock in 0..10 {
            for (k, &t) in kernel.iter().enumerate() {
                configs.push(Config {
                    values: vec![
                        (1000 + 50 * clock).to_string(),
                        (k / 25).to_string(),
                        (k / 5 % 5).to_string(),
                        (k % 5).to_string(),
                    ],
                    time_ms: Some(t * 0.98f64.powi(clock)),
                    failure: None,
                    counters: vec![],
                });
            }
        }
        space_of("clocked-kernel", &["clock", "a", "b", "c"], configs)
    }

    #[test]
    fn a_search_that_finds_the_clock_monotone_measures_fewer_slow_clocks() {
        let space = clocked_kernel();
        let auto = |monotone| Ils {
            monotone,
            ..crate::search::auto::Auto::default().ils
        };
        let slow_clocks = |st: &Ils| -> usize {
            (0..10)
                .map(|seed| {
                    let run = crate::search::run(&space, st, 150, seed).unwrap();
                    run.measured
                        .iter()
                        .filter(|&&c| space.levels(c)[0] < 9)
                        .count()
                })
                .sum()
        };
        let (on, off) = (slow_clocks(&auto(4)), slow_clocks(&auto(0)));
        assert!(
            (on as f64) < 0.75 * off as f64,
            "measurements below the top clock in 10 runs of 150: {on} monotone, {off} not"
        );
    }
}
