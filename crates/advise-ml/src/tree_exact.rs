//! Exact split finding for the regression trees of tree.rs, over `f64` columns.

use crate::tree::SplitFinder;

/// Exact splits over `f64` columns (no missing values: encode them first). Every row is
/// sorted by each column once per fit; each tree keeps, per column, its sample in that order,
/// partitioned stably with every split, so a node scans its own rows in sorted order.
#[derive(Debug)]
pub struct ExactSplit<'a> {
    x: &'a [Vec<f64>],
    /// The same values by column (`cols[feature][row]`): a node's scan reads one column.
    cols: Vec<Vec<f64>>,
    /// Per row: goes left at the split being made.
    left: Vec<bool>,
    sorted: Vec<Vec<u32>>,
    /// Per column: the current tree's sample in sorted order, node by node.
    layout: Vec<Vec<u32>>,
    count: Vec<u32>,
    scratch: Vec<u32>,
}

impl<'a> ExactSplit<'a> {
    pub fn new(x: &'a [Vec<f64>]) -> Self {
        let width = x.first().map_or(0, Vec::len);
        let sorted = (0..width)
            .map(|f| {
                let mut order: Vec<u32> = (0..x.len() as u32).collect();
                order.sort_by(|&a, &b| x[a as usize][f].total_cmp(&x[b as usize][f]));
                order
            })
            .collect();
        let cols = (0..width)
            .map(|f| x.iter().map(|r| r[f]).collect())
            .collect();
        ExactSplit {
            x,
            cols,
            left: vec![false; x.len()],
            sorted,
            layout: vec![Vec::new(); width],
            count: vec![0; x.len()],
            scratch: Vec::new(),
        }
    }
}

impl SplitFinder for ExactSplit<'_> {
    type Threshold = f64;
    const STABLE_PARTITION: bool = true;

    fn width(&self) -> usize {
        self.sorted.len()
    }

    fn start(&mut self, sample: &[u32]) {
        for &i in sample {
            self.count[i as usize] += 1;
        }
        // Each row is written to the next four places whatever its count (0 to 4 of them are
        // kept), so no branch depends on the bootstrap's counts; larger counts are rare.
        let n = sample.len();
        for (layout, order) in self.layout.iter_mut().zip(&self.sorted) {
            layout.clear();
            layout.resize(n + 4, 0);
            let mut w = 0;
            for &i in order {
                let c = self.count[i as usize] as usize;
                layout[w..w + 4].copy_from_slice(&[i; 4]);
                if c > 4 {
                    layout[w..w + c].fill(i);
                }
                w += c;
            }
            layout.truncate(n);
        }
        for &i in sample {
            self.count[i as usize] = 0;
        }
    }

    fn best(
        &mut self,
        (start, end): (usize, usize),
        _rows: &[u32],
        y: &[f64],
        total: f64,
        features: &[usize],
        min_leaf: usize,
    ) -> Option<(usize, f64)> {
        let n = end - start;
        // The split maximizing sumL^2/nL + sumR^2/nR (the squared-error reduction).
        let base = total * total / n as f64;
        let mut best: Option<(f64, usize, f64)> = None;
        // Candidates: positions k (nl = k + 1 rows left) with at least min_leaf rows a side.
        let lo = min_leaf.saturating_sub(1);
        let hi = (n - 1).min(n.saturating_sub(min_leaf));
        if lo >= hi {
            return None;
        }
        for &f in features {
            let sorted = &self.layout[f][start..end];
            let col = &self.cols[f];
            // The same sums in the same order as one pass from the first row.
            let mut left = 0.0;
            for &i in &sorted[..lo] {
                left += y[i as usize];
            }
            let mut b = col[sorted[lo] as usize];
            for (k, pair) in (lo..hi).zip(sorted[lo..=hi].windows(2)) {
                left += y[pair[0] as usize];
                let a = b;
                b = col[pair[1] as usize];
                if a == b {
                    continue;
                }
                let nl = k + 1;
                let right = total - left;
                let gain = left * left / nl as f64 + right * right / (n - nl) as f64 - base;
                if gain > 1e-12 && best.is_none_or(|(g, _, _)| gain > g) {
                    // Between two neighbouring large floats the midpoint can round up to b,
                    // which would send b's rows left too; then split at a itself.
                    let mid = a + (b - a) * 0.5;
                    best = Some((gain, f, if mid < b { mid } else { a }));
                }
            }
        }
        best.map(|(_, f, t)| (f, t))
    }

    fn goes_left(&self, row: u32, feature: usize, threshold: f64) -> bool {
        self.x[row as usize][feature] <= threshold
    }

    fn split(&mut self, (start, end): (usize, usize), feature: usize, threshold: f64, grown: bool) {
        if !grown {
            return; // neither child is scanned again
        }
        // The side of each of the node's rows, decided once, then every column's segment is
        // partitioned stably by it. Each row is written to both sides and only the side it
        // belongs to advances: no branch depends on the data.
        let col = &self.cols[feature];
        for &i in &self.layout[feature][start..end] {
            self.left[i as usize] = col[i as usize] <= threshold;
        }
        let left = &self.left;
        let n = end - start;
        self.scratch.resize(n, 0);
        for layout in &mut self.layout {
            let seg = &mut layout[start..end];
            let (mut keep, mut gone) = (0, 0);
            for k in 0..n {
                let i = seg[k];
                let l = left[i as usize] as usize;
                seg[keep] = i;
                self.scratch[gone] = i;
                keep += l;
                gone += 1 - l;
            }
            seg[keep..].copy_from_slice(&self.scratch[..gone]);
        }
    }
}
