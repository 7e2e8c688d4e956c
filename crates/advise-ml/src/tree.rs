//! Regression trees (CART, Breiman et al.): one builder, two ways of finding a split.
//!
//! A split is `x[feature] <= threshold`, chosen to minimise the squared error of the two sides
//! (the boosted-regression-tree paper of the search strategies, eqs. 2-3). The builder grows
//! depth first, left before right, from an array of row indices that it partitions in place
//! (repeats allowed, as a bootstrap sample has them); the split finder decides how a node's
//! best split is found:
//! - [`ExactSplit`] over `f64` columns: every row sorted by each column once per fit, a node
//!   scans its rows in that order; thresholds are midpoints between neighbouring values.
//! - [`HistogramSplit`] over parameter levels: a node builds a histogram of counts and sums per
//!   level and scans it, O(rows x parameters), no sorting; thresholds are levels.
//!
//! Ties go to the first feature tried and the lowest threshold, so fitting is deterministic.

use serde::{Deserialize, Serialize};

use crate::levels::{LevelSet, Levels};
use crate::rng::Rng;
use crate::{Fit, PredictRow, Result};

/// How far a tree grows.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TreeParams {
    pub max_depth: usize,
    /// Fewest rows a leaf may hold.
    pub min_leaf: usize,
    /// Fewest rows a node needs to be split.
    pub min_split: usize,
    /// Features tried at each split, drawn anew per node (0: all, in column order).
    pub max_features: usize,
    /// Leave a node whose targets are all equal unsplit (else a split is still sought; it can
    /// only win by rounding).
    pub stop_when_pure: bool,
}

impl TreeParams {
    /// Grown until leaves are pure (scikit-learn's defaults).
    pub fn full() -> Self {
        TreeParams {
            max_depth: 64,
            min_leaf: 1,
            min_split: 2,
            max_features: 0,
            stop_when_pure: true,
        }
    }
}

const LEAF: u16 = u16::MAX;

#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
struct Node<T> {
    feature: u16,
    threshold: T,
    left: u32,
    right: u32,
    value: f64,
}

/// One regression tree over rows of `T` (`f64` values or `u16` levels).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Tree<T> {
    nodes: Vec<Node<T>>,
}

impl<T: Copy + PartialOrd> Tree<T> {
    /// The number of nodes (1: a single leaf).
    pub fn size(&self) -> usize {
        self.nodes.len()
    }
}

impl<T: Copy + PartialOrd> PredictRow<T> for Tree<T> {
    fn predict_row(&self, row: &[T]) -> f64 {
        let mut k = 0usize;
        loop {
            let Some(n) = self.nodes.get(k) else {
                return 0.0;
            };
            if n.feature == LEAF {
                return n.value;
            }
            k = if row[n.feature as usize] <= n.threshold {
                n.left
            } else {
                n.right
            } as usize;
        }
    }
}

/// Finds a node's best split among the features offered. A node is a range of positions in
/// the builder's sample; the finder may keep its own per-range layout ([`SplitFinder::start`],
/// [`SplitFinder::split`]).
pub trait SplitFinder {
    /// What a threshold is (a value or a level).
    type Threshold: Copy + PartialOrd + Default;
    /// Whether the builder keeps a node's rows in sample order when it partitions them (so
    /// sums over a node run in row order), or swaps them in place.
    const STABLE_PARTITION: bool = false;
    /// The number of features.
    fn width(&self) -> usize;
    /// A new tree begins on `sample` (row indices, repeats allowed).
    fn start(&mut self, sample: &[u32]);
    /// The best split of the node at positions `range` holding `rows`, over `features`, as
    /// (feature, threshold), or `None`. `total` is the sum of `y` over `rows`.
    fn best(
        &mut self,
        range: (usize, usize),
        rows: &[u32],
        y: &[f64],
        total: f64,
        features: &[usize],
        min_leaf: usize,
    ) -> Option<(usize, Self::Threshold)>;
    /// Whether row `row` goes left at `x[feature] <= threshold`.
    fn goes_left(&self, row: u32, feature: usize, threshold: Self::Threshold) -> bool;
    /// The node at `range` was split at (feature, threshold): the rows going left come first.
    /// `grown`: whether either child will be split in turn (if not, no layout is needed).
    fn split(
        &mut self,
        range: (usize, usize),
        feature: usize,
        threshold: Self::Threshold,
        grown: bool,
    );
}

/// Grows a tree on the rows listed in `sample` (indices, repeats allowed; partitioned in
/// place), targets `y`; `rng` draws the features tried when `params.max_features` limits them.
pub fn grow<S: SplitFinder>(
    finder: &mut S,
    y: &[f64],
    sample: &mut [u32],
    params: &TreeParams,
    rng: &mut Rng,
) -> Tree<S::Threshold> {
    let width = finder.width();
    finder.start(sample);
    let mut nodes = vec![leaf(0.0)];
    let mut features: Vec<usize> = (0..width).collect();
    let mut right = Vec::new();
    // (start, end, depth, node index)
    let mut stack = vec![(0usize, sample.len(), 0usize, 0usize)];
    while let Some((start, end, depth, node)) = stack.pop() {
        let rows = &mut sample[start..end];
        let n = rows.len();
        let total: f64 = rows.iter().map(|&i| y[i as usize]).sum();
        nodes[node].value = if n > 0 { total / n as f64 } else { 0.0 };
        if !splittable(rows, depth, y, params) {
            continue;
        }
        let tried = if params.max_features == 0 || params.max_features >= width {
            width
        } else {
            rng.choose_front(&mut features, params.max_features);
            params.max_features
        };
        let range = (start, end);
        let Some((f, t)) = finder.best(range, rows, y, total, &features[..tried], params.min_leaf)
        else {
            continue;
        };
        // Partition rows: x <= t to the front.
        let mut mid = 0;
        if S::STABLE_PARTITION {
            right.clear();
            for k in 0..n {
                let i = rows[k];
                if finder.goes_left(i, f, t) {
                    rows[mid] = i;
                    mid += 1;
                } else {
                    right.push(i);
                }
            }
            rows[mid..].copy_from_slice(&right);
        } else {
            for k in 0..n {
                if finder.goes_left(rows[k], f, t) {
                    rows.swap(k, mid);
                    mid += 1;
                }
            }
        }
        let grown = splittable(&rows[..mid], depth + 1, y, params)
            || splittable(&rows[mid..], depth + 1, y, params);
        finder.split(range, f, t, grown);
        let left = nodes.len();
        nodes.push(leaf(0.0));
        nodes.push(leaf(0.0));
        nodes[node].feature = f as u16;
        nodes[node].threshold = t;
        nodes[node].left = left as u32;
        nodes[node].right = left as u32 + 1;
        stack.push((start + mid, end, depth + 1, left + 1));
        stack.push((start, start + mid, depth + 1, left));
    }
    Tree { nodes }
}

/// Whether the builder seeks a split for a node holding `rows` at `depth`.
fn splittable(rows: &[u32], depth: usize, y: &[f64], params: &TreeParams) -> bool {
    let n = rows.len();
    if depth >= params.max_depth || n < params.min_split.max(2) || n < 2 * params.min_leaf {
        return false;
    }
    let first = y[rows[0] as usize];
    !(params.stop_when_pure && rows.iter().all(|&i| y[i as usize] == first))
}

fn leaf<T: Default>(value: f64) -> Node<T> {
    Node {
        feature: LEAF,
        threshold: T::default(),
        left: 0,
        right: 0,
        value,
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Predict;

    fn level_tree(x: &Levels, y: &[f64], radix: Vec<usize>, tree: TreeParams) -> Tree<u16> {
        LevelTreeParams { radix, tree }
            .fit(&LevelSet::new(x, y, Rng::new(0)))
            .unwrap()
    }

    #[test]
    fn a_tree_finds_the_step() {
        // y jumps where parameter 1 goes past level 2; parameter 0 is noise-free filler.
        let mut x = Levels::new(2);
        let mut y = Vec::new();
        for a in 0..4u16 {
            for b in 0..5u16 {
                x.push(&[a, b]);
                y.push(if b > 2 { 10.0 } else { 1.0 });
            }
        }
        let t = level_tree(&x, &y, vec![4, 5], TreeParams::full());
        assert_eq!(t.size(), 3, "one split suffices");
        assert_eq!(t.predict_row(&[0, 2]), 1.0);
        assert_eq!(t.predict_row(&[3, 3]), 10.0);
        assert_eq!(t.predict(&x).unwrap(), y);
    }

    #[test]
    fn min_leaf_and_depth_are_respected() {
        let mut x = Levels::new(1);
        let y: Vec<f64> = (0..20).map(|i| i as f64).collect();
        for i in 0..20u16 {
            x.push(&[i]);
        }
        let params = TreeParams {
            max_depth: 1,
            min_leaf: 10,
            min_split: 2,
            max_features: 0,
            stop_when_pure: true,
        };
        let t = level_tree(&x, &y, vec![20], params);
        assert_eq!(t.predict_row(&[0]), 4.5);
        assert_eq!(t.predict_row(&[19]), 14.5);
    }

    #[test]
    fn exact_and_histogram_splits_agree_on_levels() {
        let mut x = Levels::new(2);
        let mut rows = Vec::new();
        let mut y = Vec::new();
        for a in 0..6u16 {
            for b in 0..4u16 {
                x.push(&[a, b]);
                rows.push(vec![a as f64, b as f64]);
                y.push((a as f64 - 2.0).powi(2) + b as f64);
            }
        }
        let p = TreeParams::full();
        let h = level_tree(&x, &y, vec![6, 4], p);
        let mut sample: Vec<u32> = (0..rows.len() as u32).collect();
        let e = grow(
            &mut ExactSplit::new(&rows),
            &y,
            &mut sample,
            &p,
            &mut Rng::new(0),
        );
        for (lv, r) in (0..x.len()).map(|i| x.row(i)).zip(&rows) {
            assert_eq!(h.predict_row(lv), e.predict_row(r));
        }
    }

    #[test]
    fn neighbouring_large_values_split_cleanly() {
        // 1e19 and the next float up: their midpoint rounds to one of them.
        let a = 1e19f64;
        let b = f64::from_bits(a.to_bits() + 1);
        let x: Vec<Vec<f64>> = (0..40).map(|i| vec![if i < 20 { a } else { b }]).collect();
        let y: Vec<f64> = (0..40).map(|i| if i < 20 { 1.0 } else { 3.0 }).collect();
        let mut sample: Vec<u32> = (0..40).collect();
        let t = grow(
            &mut ExactSplit::new(&x),
            &y,
            &mut sample,
            &TreeParams::full(),
            &mut Rng::new(0),
        );
        assert_eq!((t.predict_row(&[a]), t.predict_row(&[b])), (1.0, 3.0));
    }
}
