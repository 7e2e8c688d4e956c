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

use crate::rng::Rng;
use crate::PredictRow;

pub use crate::tree_exact::ExactSplit;
pub use crate::tree_histogram::{HistogramSplit, LevelTreeParams};

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

    /// Why a tree read from a file cannot be one [`grow`] made for rows `width` wide: no
    /// node, a split on a column past the row's end, or a child that is not a later node
    /// (the builder appends children after their parent), which a prediction would follow
    /// past the end or round a loop for ever.
    pub fn check(&self, width: usize) -> std::result::Result<(), String> {
        if self.nodes.is_empty() {
            return Err("a tree without nodes".into());
        }
        for (k, n) in self.nodes.iter().enumerate() {
            if n.feature == LEAF {
                if !n.value.is_finite() {
                    return Err(format!("leaf {k} predicts {}", n.value));
                }
                continue;
            }
            // A threshold no value compares with (NaN, written as null) sends every row right.
            if n.threshold.partial_cmp(&n.threshold).is_none() {
                return Err(format!("node {k} splits at no number"));
            }
            if n.feature as usize >= width {
                return Err(format!("node {k} splits column {} of {width}", n.feature));
            }
            for child in [n.left as usize, n.right as usize] {
                if child <= k || child >= self.nodes.len() {
                    return Err(format!(
                        "node {k} has child {child}, not a later node of {}",
                        self.nodes.len()
                    ));
                }
            }
        }
        Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::levels::{LevelSet, Levels};
    use crate::{Fit, Predict};

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
