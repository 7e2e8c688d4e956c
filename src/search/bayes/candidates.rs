//! Candidates of the Bayesian steps beside the seeded random sample and the best's
//! neighbours: the corners of the parameters' box.

use super::super::evaluator::Evaluator;
use advise_ml::Rng;

/// Appends to `cands` the unmeasured corners of the space where at most `k` are left, else
/// those among `2 k` draws (with replacement) from all its corners, each once (a repeat would
/// be scored again and never picked: the first of equal scores is).
pub(super) fn corner_candidates(ev: &Evaluator, rng: &mut Rng, k: usize, cands: &mut Vec<usize>) {
    let corners = ev.space().corners();
    let fresh = || {
        corners
            .iter()
            .map(|&i| i as usize)
            .filter(|&i| !ev.is_evaluated(i))
    };
    // Counting stops at k + 1: a space of many parameters has thousands of corners.
    if fresh().take(k + 1).count() <= k {
        cands.extend(fresh());
    } else {
        let from = cands.len();
        for _ in 0..2 * k {
            let i = corners[rng.below(corners.len())] as usize;
            if !ev.is_evaluated(i) && !cands[from..].contains(&i) {
                cands.push(i);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::evaluator::Eval;

    #[test]
    fn corner_candidates_are_the_unmeasured_corners_or_draws_among_them() {
        // Of the grid space's 8 corners (12 x 10 x 4 levels) its restriction drops the two
        // with the last levels of the first two parameters.
        let space = crate::search::testutil::grid_space();
        let corners: Vec<usize> = space.corners().iter().map(|&i| i as usize).collect();
        assert_eq!(corners.len(), 6);
        let k = corners
            .iter()
            .position(|&c| space.levels(c) == [11, 0, 3])
            .unwrap();
        let mut ev = Evaluator::new(&space, 10);
        assert!(matches!(ev.evaluate(corners[k]), Eval::Time(_)));
        let mut rng = Rng::new(1);
        let mut cands = Vec::new();
        corner_candidates(&ev, &mut rng, 8, &mut cands);
        let mut want = corners.clone();
        want.remove(k);
        assert_eq!(cands, want, "5 unmeasured, at most 8 wanted: all of them");
        cands.clear();
        corner_candidates(&ev, &mut rng, 2, &mut cands);
        assert!(!cands.is_empty() && cands.len() <= 4, "4 draws: {cands:?}");
        let mut once = cands.clone();
        once.sort_unstable();
        once.dedup();
        assert_eq!(once.len(), cands.len(), "each drawn corner once: {cands:?}");
        assert!(cands.iter().all(|c| want.contains(c)), "{cands:?}");
    }
}
