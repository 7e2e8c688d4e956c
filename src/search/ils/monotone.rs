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
use crate::search::evaluator::Evaluator;
use crate::search::key_index::KeyMap;
use crate::search::neighbours::{adjacent_step, stepped};
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
/// higher level was faster and where it was not. Pairs of any two levels count: pairs of
/// adjacent levels alone are fewer and found the clock later (over the 70 spaces' sweep 62.2
/// of 63 spaces reached Kernel Tuner's best at 5% instead of 62.5, the GEMM's median at 5%
/// 0.979 instead of 0.985; docs/search-results.md, "Monotone parameters"). A new
/// measurement finds its partners in its lines, the measurements that differ from it in one
/// parameter alone: looking up each of its single changes instead took 29% of the
/// instructions of a search at 5% of a 105,412-configuration space of hotspot's shape
/// (a block size of 37 levels and four parameters of 10; docs/search-results.md, "Monotone
/// pairs read from the measured lines, the same searches").
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
    /// Per parameter of [`FEWEST_LEVELS`] or more, the successful measurements taken in, by
    /// line (the key with the parameter at its first level): the last one's node. A new one
    /// pairs with those on its lines.
    lines: Vec<KeyMap<u32>>,
    nodes: Vec<Node>,
}

/// A successful measurement on one of its lines: its level of the line's parameter, its time,
/// and the one taken in before it on the same line (`NO_NODE`: none). Lines are chains
/// through one arena: most hold one measurement, and a vector per line took 1.14 times the
/// instructions of these chains in searches at 2% and 5% of a 105,412-configuration space of
/// hotspot's shape, in allocations and frees.
#[derive(Debug, Clone, Copy)]
struct Node {
    level: u16,
    time: f64,
    next: u32,
}

const NO_NODE: u32 = u32::MAX;

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
            lines: vec![KeyMap::default(); space.radix().len()],
            nodes: Vec::new(),
        }
    }

    /// Takes in the measurements made since the last call: each successful one pairs with
    /// every earlier successful measurement one change of one parameter away (in any order:
    /// the counts are sums).
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
                    continue; // never monotone: its pairs are not counted
                }
                let head = self.lines[j]
                    .entry(key - u64::from(l) * space.stride(j))
                    .or_insert(NO_NODE);
                // `c` is at level `l`, another at `m`: the pair counts where the levels differ,
                // the higher level's way where that one is faster.
                let h = &mut self.higher[j];
                let mut at = *head;
                while let Some(n) = self.nodes.get(at as usize) {
                    let (m, tn) = (n.level, n.time);
                    if m != l {
                        let faster = if l > m { tc < tn } else { tn < tc };
                        if faster {
                            h.0 += 1;
                        } else {
                            h.1 += 1;
                        }
                    }
                    at = n.next;
                }
                let Some(node) = u32::try_from(self.nodes.len())
                    .ok()
                    .filter(|&n| n != NO_NODE)
                else {
                    continue; // over 4 billion nodes: no search measures that many
                };
                self.nodes.push(Node {
                    level: l,
                    time: tc,
                    next: *head,
                });
                *head = node;
            }
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
mod tests;
