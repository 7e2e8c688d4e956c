//! The indexes a search space keeps for the repair neighbourhood (src/search/line_repairs.rs
//! and src/search/plane_repairs.rs): per parameter the configurations that differ in it
//! alone (lines), per pair of parameters those that differ in the pair alone where the space
//! is sparse (planes), and which parameters are looked up neither way but level by level in
//! the space's bitmap.

use super::SearchSpace;
use crate::search::key_index::Line;
use crate::search::plane::{self, Planes};

/// A parameter whose levels a repair tests in the space's bitmap: its number, its number of
/// levels and its place value in the keys.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ProbedParam {
    pub(crate) param: usize,
    pub(crate) levels: u64,
    pub(crate) stride: u64,
}

/// The parameters of a space as a repair looks them up, each list in increasing order.
#[derive(Debug, Clone)]
pub(crate) struct RepairParams {
    /// Those whose nearest levels are found through their lines.
    pub(crate) lined: Vec<usize>,
    /// Those whose levels are tested in the bitmap one distance at a time
    /// ([`SearchSpace::probes_levels`]).
    pub(crate) probed: Vec<ProbedParam>,
    /// Where the keys are in a bitmap, every parameter, whose levels one step away are
    /// tested before any line is read; empty otherwise.
    pub(crate) every: Vec<ProbedParam>,
}

/// Parameters of at most this many levels are not looked up through their lines by a repair
/// where the space's keys are in a bitmap: a bit test per level costs less than a line's
/// hashed lookup.
pub(crate) const PROBED_LEVELS: usize = 4;

impl SearchSpace {
    /// The configurations whose key, without parameter `j`'s place, is `masked`: (level of `j`,
    /// index) in increasing level.
    pub(crate) fn line(&self, j: usize, masked: u64) -> &[(u16, u32)] {
        self.lines()[j].get(masked)
    }

    /// Asks the processor to fetch what [`SearchSpace::line`] of `(j, masked)` reads first.
    #[inline]
    pub(crate) fn prefetch_line_group(&self, j: usize, masked: u64) {
        self.lines()[j].prefetch(masked);
    }

    /// Builds the indexes that repairs look up, lines and planes (once; the first repair does
    /// it otherwise), so that a benchmark can time it apart from the searches.
    pub fn index_for_repairs(&self) {
        self.lines();
        self.planes();
    }

    /// Whether the repairs' lines are built.
    #[cfg(test)]
    pub(crate) fn indexed_for_repairs(&self) -> bool {
        self.lines.get().is_some()
    }

    /// The planes of every pair of parameters where the space holds under
    /// 1/[`plane::SPARSE_SHARE`] of its parameters' combinations and the planes hold at most
    /// [`plane::MAX_MEMBERS`] members in all; `None` elsewhere, where the lines serve.
    pub(crate) fn planes(&self) -> Option<&Planes> {
        self.planes
            .get_or_init(|| {
                let p = self.n_params();
                let pairs = p * p.saturating_sub(1) / 2;
                let sparse =
                    (self.len() as u64).saturating_mul(plane::SPARSE_SHARE) < self.key_bound();
                (sparse && pairs.saturating_mul(self.len()) <= plane::MAX_MEMBERS)
                    .then(|| Planes::new(self))
            })
            .as_ref()
    }

    /// Whether a repair finds parameter `k`'s nearest levels by looking up each of its levels'
    /// keys in the space's bitmap ([`PROBED_LEVELS`]) rather than through its line.
    pub(crate) fn probes_levels(&self, k: usize) -> bool {
        self.index.is_bitmap() && self.radix[k] <= PROBED_LEVELS
    }

    /// How a repair finds each parameter's nearest levels ([`RepairParams`]).
    pub(crate) fn repair_params(&self) -> &RepairParams {
        self.repair_params.get_or_init(|| {
            let bitmap = self.index.is_bitmap();
            let every: Vec<ProbedParam> = (0..self.n_params())
                .map(|k| ProbedParam {
                    param: k,
                    levels: self.radix[k] as u64,
                    stride: self.stride(k),
                })
                .collect();
            RepairParams {
                lined: (0..self.n_params())
                    .filter(|&k| !self.probes_levels(k))
                    .collect(),
                probed: (every.iter().copied())
                    .filter(|p| self.probes_levels(p.param))
                    .collect(),
                every: if bitmap { every } else { Vec::new() },
            }
        })
    }

    /// The bitmap of the space's keys, where keys are found by a bitmap's word.
    pub(crate) fn key_bitmap(&self) -> Option<&[u64]> {
        self.index.bitmap()
    }

    fn lines(&self) -> &[Line] {
        self.lines.get_or_init(|| {
            (0..self.n_params())
                .map(|j| match self.probes_levels(j) {
                    true => Line::empty(),
                    false => Line::new(self, j),
                })
                .collect()
        })
    }
}
