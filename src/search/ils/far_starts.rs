//! Where the local search starts again when it keeps falling back into one basin (`rebest`):
//! the fastest configuration measured so far that differs from the best in at least half the
//! parameters and has not been started from, a region the search has already found fast.

use super::super::evaluator::Evaluator;
use super::super::space::SearchSpace;

/// Measurements a block of [`FarStarts`]' minima covers.
const BLOCK: usize = 64;

/// The new starts of one search. A search of thousands of evaluations starts again hundreds
/// of times (the 241,600-configuration UCI SGEMM space at 5%: 12,080 evaluations), and a
/// pass over every measurement at each new start was a third of its instructions; so the
/// fastest time among each block of [`BLOCK`] measurements (in the order they were made)
/// that is still a candidate is kept, and a new start reads the blocks fastest first, only
/// while one may hold a faster candidate than the fastest found so far. A measurement stops
/// being a candidate once started from, and while the best stays the same, once found near it
/// (most of the fast measurements are: the descents measure the best's neighbours). The answer
/// is the plain pass's: the first of the fastest, in measurement order.
#[derive(Debug, Default)]
pub(crate) struct FarStarts {
    /// What each measurement is, by its position in the evaluator's order.
    marks: Vec<Mark>,
    /// The best the `Near` marks were made against.
    near_of: Option<usize>,
    /// The fastest time of each block's candidates (`INFINITY`: none, or only failures).
    block_min: Vec<f64>,
    /// Which blocks [`FarStarts::next`] has read (kept between calls for its allocation).
    visited: Vec<bool>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mark {
    Candidate,
    /// Started from: never again.
    Used,
    /// Within half the parameters of the best `near_of`.
    Near,
}

impl FarStarts {
    /// The fastest measured configuration that differs from `best` in at least half the
    /// parameters and has not been returned before; it is marked as started from.
    pub(crate) fn next(&mut self, ev: &Evaluator, best: usize) -> Option<(usize, f64)> {
        let ids = ev.evaluated();
        let times = ev.times();
        for (i, &t) in times.iter().enumerate().skip(self.marks.len()) {
            if i % BLOCK == 0 {
                self.block_min.push(t);
            } else if let Some(m) = self.block_min.last_mut() {
                *m = m.min(t);
            }
            self.marks.push(Mark::Candidate);
        }
        if self.near_of != Some(best) {
            if self.near_of.is_some() {
                for m in &mut self.marks {
                    if *m == Mark::Near {
                        *m = Mark::Candidate;
                    }
                }
                for b in 0..self.block_min.len() {
                    self.block_min[b] = self.candidates_min(times, b);
                }
            }
            self.near_of = Some(best);
        }
        let space = ev.space();
        // Times are finite and positive (`SearchSpace`), failures infinite: `<` orders them
        // as `total_cmp` would, and a failure is never taken. The answer is the far candidate
        // first in (time, position) order; blocks are read fastest first, so that the first
        // block read usually holds it, and only while one may hold a candidate before the
        // answer so far.
        let mut found: Option<usize> = None;
        let mut bound = f64::INFINITY;
        self.visited.clear();
        self.visited.resize(self.block_min.len(), false);
        loop {
            let mut next: Option<usize> = None;
            for (b, (&m, &seen)) in self.block_min.iter().zip(&self.visited).enumerate() {
                if !seen && next.is_none_or(|n| m < self.block_min[n]) {
                    next = Some(b);
                }
            }
            let Some(b) = next else { break };
            if !precedes(self.block_min[b], b * BLOCK, bound, found) {
                break;
            }
            self.visited[b] = true;
            let mut marked = false;
            for i in block(b, times.len()) {
                if precedes(times[i], i, bound, found) && self.marks[i] == Mark::Candidate {
                    if is_far(space, ids[i], best) {
                        found = Some(i);
                        bound = times[i];
                    } else {
                        self.marks[i] = Mark::Near;
                        marked = true;
                    }
                }
            }
            if marked {
                self.block_min[b] = self.candidates_min(times, b);
            }
        }
        let i = found?;
        self.marks[i] = Mark::Used;
        self.block_min[i / BLOCK] = self.candidates_min(times, i / BLOCK);
        Some((ids[i], times[i]))
    }

    /// The fastest time among block `b`'s candidates.
    fn candidates_min(&self, times: &[f64], b: usize) -> f64 {
        block(b, times.len())
            .filter(|&j| self.marks[j] == Mark::Candidate)
            .map(|j| times[j])
            .fold(f64::INFINITY, f64::min)
    }
}

/// Whether time `t` at position `i` comes before the answer so far, `bound` at position
/// `found`, in (time, position) order; with no answer yet, whether `t` is finite (a failure
/// is never an answer).
#[inline]
fn precedes(t: f64, i: usize, bound: f64, found: Option<usize>) -> bool {
    t < bound || found.is_some_and(|f| t == bound && i < f)
}

/// The positions of block `b` among `n` measurements.
fn block(b: usize, n: usize) -> std::ops::Range<usize> {
    b * BLOCK..((b + 1) * BLOCK).min(n)
}

/// Whether `id` differs from `best` in at least half the parameters.
pub(crate) fn is_far(space: &SearchSpace, id: usize, best: usize) -> bool {
    let d = space
        .levels(id)
        .iter()
        .zip(space.levels(best))
        .filter(|(x, y)| x != y)
        .count();
    2 * d >= space.n_params()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::evaluator::Eval;
    use crate::search::testutil::grid_space;
    use advise_ml::Rng;

    /// The plain pass over every measurement that [`FarStarts`] stands for.
    fn far_best_plain(ev: &Evaluator, best: usize, used: &[usize]) -> Option<(usize, f64)> {
        ev.evaluated()
            .iter()
            .zip(ev.times())
            .filter(|(&id, &t)| {
                t.is_finite() && !used.contains(&id) && is_far(ev.space(), id, best)
            })
            .map(|(&id, &t)| (id, t))
            .min_by(|a, b| a.1.total_cmp(&b.1))
    }

    #[test]
    fn the_fastest_measured_configuration_half_the_parameters_away() {
        // The grid space: 3 parameters, so "far" is at least 2 of them different.
        let space = grid_space();
        let at = |l: [u16; 3]| space.find(&l).unwrap();
        let best = at([8, 2, 0]);
        let mut ev = Evaluator::new(&space, 10);
        for l in [[8, 2, 0], [8, 3, 0], [7, 3, 0], [2, 8, 3], [8, 8, 3]] {
            assert!(matches!(ev.evaluate(at(l)), Eval::Time(_)));
        }
        // Two far configurations that failed: never a start.
        for l in [[0, 0, 0], [0, 3, 1]] {
            assert!(matches!(ev.evaluate(at(l)), Eval::Failed));
        }
        // [8, 3, 0] differs in one parameter; [7, 3, 0] in two and is faster than the others.
        let mut starts = FarStarts::default();
        assert_eq!(starts.next(&ev, best).map(|b| b.0), Some(at([7, 3, 0])));
        assert_eq!(starts.next(&ev, best).map(|b| b.0), Some(at([8, 8, 3])));
        assert_eq!(starts.next(&ev, best).map(|b| b.0), Some(at([2, 8, 3])));
        assert_eq!(starts.next(&ev, best), None);
    }

    #[test]
    fn blocks_give_the_plain_pass_answer_as_measurements_grow() {
        // Random measurement orders over several blocks, failures among them (synthetic grid
        // space), queried every few measurements against changing bests.
        let space = grid_space();
        for seed in 0..20 {
            let mut rng = Rng::new(seed);
            let mut ev = Evaluator::new(&space, 400);
            let mut starts = FarStarts::default();
            let mut used = Vec::new();
            let mut answers = 0;
            let mut best = 0;
            while ev.remaining() > 0 && ev.used() < space.len() {
                let id = rng.below(space.len());
                if ev.is_evaluated(id) {
                    continue;
                }
                ev.evaluate(id);
                if rng.chance(0.2) {
                    // The best changes now and then, as a search's does.
                    if rng.chance(0.3) {
                        best = ev.evaluated()[rng.below(ev.used())];
                    }
                    let want = far_best_plain(&ev, best, &used);
                    assert_eq!(starts.next(&ev, best), want, "seed {seed}");
                    if let Some((id, _)) = want {
                        used.push(id);
                        answers += 1;
                    }
                }
            }
            assert!(answers > 50, "seed {seed}: {answers} answers");
        }
    }
}
