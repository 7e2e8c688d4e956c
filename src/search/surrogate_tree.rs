//! Regression trees (CART, Breiman et al.) and random forests over parameter levels.
//!
//! A split is `level <= t` on one parameter, chosen to minimise the squared error of the two
//! sides (seed 003, eqs. 2-3). Parameters have few levels (at most a few dozen), so each node
//! builds a histogram of counts and sums per level and scans it: O(rows x parameters) a node,
//! no sorting. Ties go to the first parameter and the lowest threshold, so fitting is
//! deterministic.

use super::rng::Rng;
use super::surrogate::{Rows, Surrogate};

/// How far a tree grows.
#[derive(Debug, Clone, Copy)]
pub struct TreeParams {
    pub max_depth: usize,
    /// Fewest rows a leaf may hold.
    pub min_leaf: usize,
    /// Fewest rows a node needs to be split.
    pub min_split: usize,
    /// Parameters tried at each split (0: all).
    pub max_features: usize,
}

impl TreeParams {
    /// Grown until leaves are pure (scikit-learn's defaults).
    pub fn full() -> Self {
        TreeParams {
            max_depth: 64,
            min_leaf: 1,
            min_split: 2,
            max_features: 0,
        }
    }
}

const LEAF: u16 = u16::MAX;

#[derive(Debug, Clone, Copy)]
struct Node {
    feature: u16,
    threshold: u16,
    left: u32,
    right: u32,
    value: f64,
}

/// One regression tree.
#[derive(Debug, Clone)]
pub struct Tree {
    radix: Vec<usize>,
    params: TreeParams,
    nodes: Vec<Node>,
}

impl Tree {
    pub fn new(radix: Vec<usize>, params: TreeParams) -> Self {
        Tree {
            radix,
            params,
            nodes: Vec::new(),
        }
    }

    /// Grows the tree on the rows listed in `sample` (indices into `x`, repeats allowed).
    pub fn grow(&mut self, x: &Rows, y: &[f64], sample: &mut [u32], rng: &mut Rng) {
        self.nodes.clear();
        let p = self.params;
        let width = x.width;
        let max_radix = self.radix.iter().copied().max().unwrap_or(1);
        let mut counts = vec![0usize; max_radix];
        let mut sums = vec![0f64; max_radix];
        let mut features: Vec<usize> = (0..width).collect();
        // (start, end, depth, node index)
        let mut stack = vec![(0usize, sample.len(), 0usize, 0usize)];
        self.nodes.push(leaf(0.0));
        while let Some((start, end, depth, node)) = stack.pop() {
            let rows = &mut sample[start..end];
            let n = rows.len();
            let total: f64 = rows.iter().map(|&i| y[i as usize]).sum();
            self.nodes[node].value = if n > 0 { total / n as f64 } else { 0.0 };
            if depth >= p.max_depth || n < p.min_split.max(2) || n < 2 * p.min_leaf {
                continue;
            }
            let first = y[rows[0] as usize];
            if rows.iter().all(|&i| y[i as usize] == first) {
                continue;
            }
            let tried = if p.max_features == 0 || p.max_features >= width {
                width
            } else {
                rng.choose_front(&mut features, p.max_features);
                p.max_features
            };
            let parent = total * total / n as f64;
            let mut best: Option<(f64, usize, usize)> = None;
            for &f in &features[..tried] {
                let r = self.radix[f];
                counts[..r].fill(0);
                sums[..r].fill(0.0);
                for &i in rows.iter() {
                    let l = x.data[i as usize * width + f] as usize;
                    counts[l] += 1;
                    sums[l] += y[i as usize];
                }
                let (mut nl, mut sl) = (0usize, 0f64);
                for l in 0..r.saturating_sub(1) {
                    if counts[l] == 0 {
                        continue;
                    }
                    nl += counts[l];
                    sl += sums[l];
                    let nr = n - nl;
                    if nl < p.min_leaf || nr < p.min_leaf.max(1) {
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
            let Some((_, f, t)) = best else { continue };
            // Partition rows: level <= t to the front.
            let mut mid = 0;
            for k in 0..n {
                if x.data[rows[k] as usize * width + f] as usize <= t {
                    rows.swap(k, mid);
                    mid += 1;
                }
            }
            let left = self.nodes.len();
            self.nodes.push(leaf(0.0));
            self.nodes.push(leaf(0.0));
            self.nodes[node].feature = f as u16;
            self.nodes[node].threshold = t as u16;
            self.nodes[node].left = left as u32;
            self.nodes[node].right = left as u32 + 1;
            stack.push((start + mid, end, depth + 1, left + 1));
            stack.push((start, start + mid, depth + 1, left));
        }
    }

    pub fn predict_row(&self, row: &[u16]) -> f64 {
        let mut k = 0usize;
        loop {
            let n = &self.nodes[k];
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

    /// Number of nodes (for tests and diagnostics).
    pub fn size(&self) -> usize {
        self.nodes.len()
    }
}

fn leaf(value: f64) -> Node {
    Node {
        feature: LEAF,
        threshold: 0,
        left: 0,
        right: 0,
        value,
    }
}

impl Surrogate for Tree {
    fn fit(&mut self, x: &Rows, y: &[f64], rng: &mut Rng) {
        let mut sample: Vec<u32> = (0..x.len() as u32).collect();
        self.grow(x, y, &mut sample, rng);
    }

    fn predict(&self, row: &[u16]) -> f64 {
        if self.nodes.is_empty() {
            return 0.0;
        }
        self.predict_row(row)
    }
}

/// Bootstrap-aggregated full-depth trees (Breiman's random forest as scikit-learn's
/// RandomForestRegressor runs it by default: every parameter is a split candidate).
#[derive(Debug, Clone)]
pub struct Forest {
    radix: Vec<usize>,
    n_trees: usize,
    trees: Vec<Tree>,
}

impl Forest {
    pub fn new(radix: Vec<usize>, n_trees: usize) -> Self {
        Forest {
            radix,
            n_trees: n_trees.max(1),
            trees: Vec::new(),
        }
    }
}

impl Surrogate for Forest {
    fn fit(&mut self, x: &Rows, y: &[f64], rng: &mut Rng) {
        let n = x.len();
        self.trees.clear();
        let mut sample = vec![0u32; n];
        for _ in 0..self.n_trees {
            for s in sample.iter_mut() {
                *s = rng.below(n.max(1)) as u32;
            }
            let mut t = Tree::new(self.radix.clone(), TreeParams::full());
            t.grow(x, y, &mut sample, rng);
            self.trees.push(t);
        }
    }

    fn predict(&self, row: &[u16]) -> f64 {
        if self.trees.is_empty() {
            return 0.0;
        }
        self.trees.iter().map(|t| t.predict_row(row)).sum::<f64>() / self.trees.len() as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tree_finds_the_step() {
        // y jumps where parameter 1 goes past level 2; parameter 0 is noise-free filler.
        let mut x = Rows::new(2);
        let mut y = Vec::new();
        for a in 0..4u16 {
            for b in 0..5u16 {
                x.push(&[a, b]);
                y.push(if b > 2 { 10.0 } else { 1.0 });
            }
        }
        let mut t = Tree::new(vec![4, 5], TreeParams::full());
        t.fit(&x, &y, &mut Rng::new(0));
        assert_eq!(t.size(), 3, "one split suffices");
        assert_eq!(t.predict(&[0, 2]), 1.0);
        assert_eq!(t.predict(&[3, 3]), 10.0);
    }

    #[test]
    fn min_leaf_and_depth_are_respected() {
        let mut x = Rows::new(1);
        let y: Vec<f64> = (0..20).map(|i| i as f64).collect();
        for i in 0..20u16 {
            x.push(&[i]);
        }
        let params = TreeParams {
            max_depth: 1,
            min_leaf: 10,
            min_split: 2,
            max_features: 0,
        };
        let mut t = Tree::new(vec![20], params);
        t.fit(&x, &y, &mut Rng::new(0));
        assert_eq!(t.predict(&[0]), 4.5);
        assert_eq!(t.predict(&[19]), 14.5);
    }

    #[test]
    fn forest_is_reproducible() {
        let mut x = Rows::new(1);
        let mut y = Vec::new();
        for i in 0..30u16 {
            x.push(&[i]);
            y.push((i as f64 - 15.0).powi(2));
        }
        let fit = |seed| {
            let mut f = Forest::new(vec![30], 10);
            f.fit(&x, &y, &mut Rng::new(seed));
            f.predict(&[7])
        };
        assert_eq!(fit(1), fit(1));
    }
}
