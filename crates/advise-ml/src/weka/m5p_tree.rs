//! The model tree of Weka 3.6's M5P (`weka.classifiers.trees.m5.RuleNode`, `YongSplitInfo`,
//! `Impurity`) and its growth: splits maximize the reduction of the class variance's fifth
//! root (pruning and smoothing: m5p_prune.rs).
//!
//! Instances are row indices. Weka sorts a node's instances in place by every attribute in turn
//! with an unstable quicksort, and all later sums follow that order, so this code reproduces
//! those orders (m5p_split.rs: presorted where an attribute has no ties in the node, Weka's
//! quicksort where it has) to reproduce Weka's floating-point results.

use std::sync::atomic::{AtomicU64, Ordering};

use serde::{Deserialize, Serialize};

use super::m5p_attribute_loop::{AttributeLoop, NodeView};
use super::m5p_split::{SortedColumns, Split};
use crate::helper_thread::{is_free, join};

/// Rows of the smaller child from which a node's children may grow on two threads.
pub(super) const PARALLEL_ROWS: usize = 16;

/// Rows of a node from which its attribute loop may run in two parts on two threads.
const PARALLEL_SCAN_ROWS: usize = 48;

/// A linear model over all (preprocessed) attributes; zero where an attribute is unused.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct NodeModel {
    pub coefficients: Vec<f64>,
    pub intercept: f64,
}

impl NodeModel {
    /// `PreConstructedLinearModel.classifyInstance`.
    pub fn predict(&self, row: &[f64]) -> f64 {
        let mut result = 0.0;
        for (c, &v) in self.coefficients.iter().zip(row) {
            if !v.is_nan() {
                result += c * v;
            }
        }
        result + self.intercept
    }

    /// [`NodeModel::predict`] summing only the terms of `used`, the attributes with a
    /// nonzero coefficient in ascending order, on a row without infinities. The same value:
    /// every skipped term is a signed zero, and adding one to a sum that starts at +0 and
    /// so is never -0 changes nothing.
    pub(super) fn predict_sparse(&self, used: &[usize], row: &[f64]) -> f64 {
        let mut result = 0.0;
        for &j in used {
            let v = row[j];
            if !v.is_nan() {
                result += self.coefficients[j] * v;
            }
        }
        result + self.intercept
    }
}

/// One node of the fitted tree.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Node {
    pub num_instances: usize,
    /// (attribute, value) of an internal node: `value <= split` goes left.
    pub split: Option<(usize, f64)>,
    pub left: Option<Box<Node>>,
    pub right: Option<Box<Node>>,
    pub model: Option<NodeModel>,
    #[serde(skip)]
    pub(super) rows: Vec<usize>,
    #[serde(skip)]
    pub(super) model_atts: Vec<usize>,
    #[serde(skip)]
    pub(super) num_parameters: usize,
}

impl Node {
    pub fn predict(&self, row: &[f64]) -> f64 {
        match (&self.split, &self.left, &self.right) {
            (Some((att, val)), Some(l), Some(r)) => {
                if row[*att] <= *val {
                    l.predict(row)
                } else {
                    r.predict(row)
                }
            }
            _ => self.model.as_ref().map_or(f64::NAN, |m| m.predict(row)),
        }
    }

    /// Why a tree read from a file cannot be one the builder grew on rows `width` wide: a
    /// split on a column past the row's end, a split without both children (or children
    /// without a split), a leaf without a linear model, or a model of another width.
    pub fn check(&self, width: usize) -> std::result::Result<(), String> {
        if let Some(m) = &self.model {
            if m.coefficients.len() != width {
                return Err(format!(
                    "a linear model of {} coefficients for {width} columns",
                    m.coefficients.len()
                ));
            }
        }
        match (&self.split, &self.left, &self.right) {
            (Some((att, value)), Some(l), Some(r)) => {
                if *att >= width {
                    return Err(format!("a split on column {att} of {width}"));
                }
                if !value.is_finite() {
                    return Err(format!("a split on column {att} at {value}"));
                }
                l.check(width)?;
                r.check(width)
            }
            (None, None, None) if self.model.is_some() => Ok(()),
            (None, None, None) => Err("a leaf without a linear model".into()),
            _ => Err("a split without both children, or children without a split".into()),
        }
    }

    pub(super) fn is_leaf(&self) -> bool {
        self.left.is_none()
    }
}

/// `Rule.stdDev`: the population standard deviation of the class.
pub fn std_dev(y: &[f64], rows: &[usize]) -> f64 {
    let (mut sum, mut sq, mut count) = (0.0, 0.0, 0usize);
    for &r in rows {
        count += 1;
        sum += y[r];
        sq += y[r] * y[r];
    }
    if count > 1 {
        let c = count as f64;
        ((sq - sum * sum / c) / c).abs().sqrt()
    } else {
        0.0
    }
}

/// Grows, prunes and smooths one tree.
pub struct Builder<'a> {
    pub x: &'a [Vec<f64>],
    /// The same values by column (`cols[attr][row]`).
    pub cols: &'a [Vec<f64>],
    pub y: &'a [f64],
    pub min_instances: f64,
    pub regression_tree: bool,
    pub global_dev: f64,
}

impl Builder<'_> {
    /// `RuleNode.buildClassifier` and `split`, recursively, for the node owning positions
    /// `lo..hi` of `sorted` (see [`SortedColumns`]); `rows` are the node's rows in the order
    /// Weka's last sort left them, `parent_ties` whether each attribute has tied values in
    /// the parent (all true at the root: a node's rows are some of its parent's, so an
    /// attribute without ties there has none here).
    pub fn grow(
        &self,
        sorted: &mut SortedColumns,
        lo: usize,
        hi: usize,
        mut rows: Vec<usize>,
        parent_ties: &[bool],
    ) -> Node {
        let n = rows.len();
        let leaf = self.stays_leaf(&rows);
        let mut node = Node {
            num_instances: n,
            split: None,
            left: None,
            right: None,
            model: None,
            rows: Vec::new(),
            model_atts: Vec::new(),
            num_parameters: 1,
        };
        if !leaf {
            let width = self.cols.len();
            let ties: Vec<bool> = (parent_ties.iter().enumerate())
                .map(|(a, &t)| t && sorted.has_ties(a, &self.cols[a], lo, hi))
                .collect();
            let (best, sorted_rows) = match self.scan_split_point(&ties, n) {
                Some(at) => self.scan_in_two(sorted, lo, hi, rows, &ties, at),
                None => {
                    let node = self.view(sorted, lo, hi);
                    let mut one = AttributeLoop::new(node, &ties, rows, None, width);
                    let best = one.best(node, 0..width, None);
                    (best, one.finish(node))
                }
            };
            rows = sorted_rows;
            match best.attr {
                Some(attr) if best.position >= 1 && best.position < n as isize => {
                    let col = &self.cols[attr];
                    let goes_left = |i: usize| col[i] <= best.value;
                    let (l, r): (Vec<usize>, Vec<usize>) =
                        rows.iter().partition(|&&i| goes_left(i));
                    if l.is_empty() || r.is_empty() {
                        // Two neighbouring values so close that their midpoint rounds to
                        // one of them put every row on one side: splitting again would
                        // repeat this node forever (Weka's recursion overflows its stack
                        // there), so the node stays a leaf.
                        node.rows = rows;
                        return node;
                    }
                    let mid = sorted.partition(lo, hi, &rows, goes_left);
                    node.split = Some((attr, best.value));
                    let (left, right) = self.children(sorted, (lo, mid, hi), l, r, &ties);
                    if !self.regression_tree {
                        let mut below = vec![false; width];
                        tested_below(&left, &mut below);
                        tested_below(&right, &mut below);
                        below[attr] = true;
                        node.model_atts = (0..width).filter(|&j| below[j]).collect();
                    }
                    node.left = Some(Box::new(left));
                    node.right = Some(Box::new(right));
                }
                // No useful split: the node stays a leaf.
                _ => {}
            }
        }
        node.rows = rows;
        node
    }

    /// Whether a node of `rows` (in the order Weka's last sort left them) is a leaf before
    /// any split is tried: too few rows, or a class deviation below 5% of the whole data's.
    fn stays_leaf(&self, rows: &[usize]) -> bool {
        (rows.len() as f64) < self.min_instances || std_dev(self.y, rows) < self.global_dev * 0.05
    }

    /// The node at `lo..hi` of `sorted`, as its attribute loop reads it.
    fn view<'v>(&'v self, sorted: &'v SortedColumns, lo: usize, hi: usize) -> NodeView<'v> {
        NodeView {
            builder: self,
            sorted,
            lo,
            hi,
        }
    }

    /// Where a node's attribute loop may be cut in two, one part on the helper thread: an
    /// attribute near the middle after one without ties in the node (whose presorted order
    /// is then the row order the second part starts from), when the node is large and the
    /// helper free.
    fn scan_split_point(&self, ties: &[bool], n: usize) -> Option<usize> {
        let width = self.cols.len();
        if n < PARALLEL_SCAN_ROWS || width < 8 || !is_free() {
            return None;
        }
        (width / 2..width * 3 / 4)
            .chain((width / 4..width / 2).rev())
            .find(|&at| !ties[at - 1])
    }

    /// `RuleNode.split`'s attribute loop in two parts, attributes `..at` here and `at..` on
    /// the helper thread, with the same result as one loop. The second part starts from the
    /// presorted order of attribute `at - 1` (tie-free, so every sort gives it) and skips
    /// candidates only at or below the larger of its own best so far and the first part's
    /// best so far (published as it rises), with no margin: an attribute the whole loop would
    /// take beats the node's best before it by more than 1e-6, and that best is at least the
    /// first part's whole best and never below any attribute's best less 1e-6, so it is above
    /// both and is scanned in full, whenever the first part's best is read. Its splits are
    /// then taken in order by Weka's test, as one loop takes them.
    fn scan_in_two(
        &self,
        sorted: &SortedColumns,
        lo: usize,
        hi: usize,
        rows: Vec<usize>,
        ties: &[bool],
        at: usize,
    ) -> (Split, Vec<usize>) {
        let width = self.cols.len();
        let n = rows.len();
        let node = self.view(sorted, lo, hi);
        let mut first = AttributeLoop::new(node, ties, rows, None, at);
        let mut second = AttributeLoop::new(node, ties, Vec::with_capacity(n), Some(at - 1), width);
        let published = AtomicU64::new(Split::none().impurity.to_bits());
        let (mut best, splits) = join(
            || first.best(node, 0..at, Some(&published)),
            || {
                let mut own = Split::none();
                let mut splits = Vec::with_capacity(width - at);
                for attr in at..width {
                    let theirs = f64::from_bits(published.load(Ordering::Relaxed));
                    let floor = own.impurity.max(theirs);
                    let cur = second.split(node, attr, floor);
                    if own.beaten_by(&cur) {
                        own = cur.clone();
                    }
                    splits.push(cur);
                }
                splits
            },
        );
        for cur in splits {
            if best.beaten_by(&cur) {
                best = cur;
            }
        }
        (best, second.finish(node))
    }

    /// The two children of the node at `lo..hi` split at `mid`. When the helper thread is
    /// free and both children are large, the smaller one grows there from a copy of its
    /// sorted rows while this thread grows the other (the tree is the same: a subtree reads
    /// only its own rows).
    fn children(
        &self,
        sorted: &mut SortedColumns,
        (lo, mid, hi): (usize, usize, usize),
        l: Vec<usize>,
        r: Vec<usize>,
        ties: &[bool],
    ) -> (Node, Node) {
        if (mid - lo).min(hi - mid) < PARALLEL_ROWS || !is_free() {
            let left = self.grow(sorted, lo, mid, l, ties);
            let right = self.grow(sorted, mid, hi, r, ties);
            return (left, right);
        }
        if mid - lo <= hi - mid {
            let mut own = sorted.extract(lo, mid);
            let (right, left) = join(
                || self.grow(sorted, mid, hi, r, ties),
                || self.grow(&mut own, 0, mid - lo, l, ties),
            );
            (left, right)
        } else {
            let mut own = sorted.extract(mid, hi);
            join(
                || self.grow(sorted, lo, mid, l, ties),
                || self.grow(&mut own, 0, hi - mid, r, ties),
            )
        }
    }
}

fn tested_below(node: &Node, atts: &mut [bool]) {
    if let Some((a, _)) = node.split {
        atts[a] = true;
    }
    for c in [&node.left, &node.right].into_iter().flatten() {
        tested_below(c, atts);
    }
}
