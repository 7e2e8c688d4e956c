//! Histogram split finding for the regression trees of tree.rs, over parameter levels, and
//! the level tree built with it.

use crate::levels::{LevelSet, Levels};
use crate::tree::{grow, SplitFinder, Tree, TreeParams};
use crate::{Fit, Result};

/// Histogram splits over parameter levels.
#[derive(Debug)]
pub struct HistogramSplit<'a> {
    x: &'a Levels,
    radix: &'a [usize],
    counts: Vec<usize>,
    sums: Vec<f64>,
}

impl<'a> HistogramSplit<'a> {
    /// `radix[j]`: the number of levels of parameter j.
    pub fn new(x: &'a Levels, radix: &'a [usize]) -> Self {
        let max_radix = radix.iter().copied().max().unwrap_or(1);
        HistogramSplit {
            x,
            radix,
            counts: vec![0; max_radix],
            sums: vec![0.0; max_radix],
        }
    }
}

impl SplitFinder for HistogramSplit<'_> {
    type Threshold = u16;

    fn width(&self) -> usize {
        self.x.width
    }

    fn start(&mut self, _sample: &[u32]) {}

    fn best(
        &mut self,
        _range: (usize, usize),
        rows: &[u32],
        y: &[f64],
        total: f64,
        features: &[usize],
        min_leaf: usize,
    ) -> Option<(usize, u16)> {
        let n = rows.len();
        let width = self.x.width;
        let parent = total * total / n as f64;
        let mut best: Option<(f64, usize, usize)> = None;
        for &f in features {
            let r = self.radix[f];
            self.counts[..r].fill(0);
            self.sums[..r].fill(0.0);
            for &i in rows {
                let l = self.x.data[i as usize * width + f] as usize;
                self.counts[l] += 1;
                self.sums[l] += y[i as usize];
            }
            let (mut nl, mut sl) = (0usize, 0f64);
            for l in 0..r.saturating_sub(1) {
                if self.counts[l] == 0 {
                    continue;
                }
                nl += self.counts[l];
                sl += self.sums[l];
                let nr = n - nl;
                if nl < min_leaf || nr < min_leaf.max(1) {
                    continue;
                }
                let sr = total - sl;
                let gain = sl * sl / nl as f64 + sr * sr / nr as f64;
                if gain > parent + 1e-12 * parent.abs().max(1e-300)
                    && best.is_none_or(|(g, _, _)| gain > g)
                {
                    best = Some((gain, f, l));
                }
            }
        }
        best.map(|(_, f, l)| (f, l as u16))
    }

    fn goes_left(&self, row: u32, feature: usize, threshold: u16) -> bool {
        self.x.data[row as usize * self.x.width + feature] <= threshold
    }

    fn split(&mut self, _range: (usize, usize), _feature: usize, _threshold: u16, _grown: bool) {}
}

/// A tree over levels: hyper-parameters plus the levels' counts.
#[derive(Debug, Clone)]
pub struct LevelTreeParams {
    pub radix: Vec<usize>,
    pub tree: TreeParams,
}

impl Fit<LevelSet<'_>> for LevelTreeParams {
    type Model = Tree<u16>;

    fn fit(&self, set: &LevelSet<'_>) -> Result<Tree<u16>> {
        let mut sample: Vec<u32> = (0..set.x.len() as u32).collect();
        let mut finder = HistogramSplit::new(set.x, &self.radix);
        Ok(set.with_rng(|rng| grow(&mut finder, set.y, &mut sample, &self.tree, rng)))
    }
}
