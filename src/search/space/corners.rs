//! The corners of the box a search space's parameters span that the space holds: the
//! Bayesian steps' candidates.

use super::SearchSpace;

impl SearchSpace {
    /// The configurations whose every parameter is at its first or last level (the corners
    /// of the box the parameters span that the space holds), in increasing index. Where the
    /// box has fewer corners than the space has configurations, each corner's key is looked up
    /// (2^14 lookups on the 241,600-configuration UCI SGEMM space, where a pass over every
    /// configuration's levels took 9.7 M instructions, most of a search's cache misses, and
    /// three milliseconds of a single search); a pass over the configurations otherwise.
    pub(crate) fn corners(&self) -> &[u32] {
        self.corners.get_or_init(|| {
            let p = self.n_params();
            if p < usize::BITS as usize - 1 && 1usize << p < self.len() {
                return self.corners_by_key();
            }
            (0..self.len())
                .filter(|&i| {
                    self.levels(i)
                        .iter()
                        .zip(&self.radix)
                        .all(|(&l, &r)| l == 0 || l as usize + 1 == r)
                })
                .map(|i| i as u32)
                .collect()
        })
    }

    /// Finds the corners of the box the parameters span (the Bayesian steps' candidates) once,
    /// so that a benchmark can time it apart from the searches (the first search that wants
    /// them does it otherwise).
    pub fn index_corners(&self) {
        self.corners();
    }

    /// [`SearchSpace::corners`] by looking up each of the box's 2^p corners' keys: corner
    /// `m` has parameter `j` at its last level where bit `j` of `m` is set.
    fn corners_by_key(&self) -> Vec<u32> {
        let p = self.n_params();
        // What setting parameter j at its last level adds to a key whose place for j is 0.
        let tops: Vec<u64> = (0..p)
            .map(|j| (self.radix[j] as u64 - 1) * self.strides[j])
            .collect();
        let mut found: Vec<u32> = (0..1u64 << p)
            .filter_map(|m| {
                let key = (0..p).filter(|&j| m >> j & 1 == 1).map(|j| tops[j]).sum();
                self.find_key(key).map(|i| i as u32)
            })
            .collect();
        found.sort_unstable();
        found
    }
}
