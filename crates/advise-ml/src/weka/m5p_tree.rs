//! The model tree of Weka 3.6's M5P (`weka.classifiers.trees.m5.RuleNode`, `YongSplitInfo`,
//! `Impurity`): splits maximize the reduction of the class variance's fifth root, node models are
//! Weka linear regressions on the attributes tested below the node, pruning compares the
//! node model's and the subtree's RMSE inflated by (n + 2v) / (n - v), and smoothing blends each
//! leaf model with its ancestors' as (n * leaf + 15 * parent) / (n + 15).
//!
//! Instances are row indices. Weka sorts a node's instances in place by every attribute in turn
//! with an unstable quicksort, and all later sums follow that order, so this code sorts the same
//! way to reproduce Weka's floating-point results.

use serde::{Deserialize, Serialize};

use super::linear::{fit_columns, LinearParams};
use super::m5p_impurity::{Impurity, Reciprocals};
use super::util::{eq_small, sort_indices};

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

    fn num_parameters(&self) -> usize {
        self.coefficients.iter().filter(|&&c| c != 0.0).count()
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
    rows: Vec<usize>,
    #[serde(skip)]
    model_atts: Vec<usize>,
    #[serde(skip)]
    num_parameters: usize,
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

    fn is_leaf(&self) -> bool {
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

struct Split {
    attr: Option<usize>,
    impurity: f64,
    position: isize,
    value: f64,
}

impl Builder<'_> {
    /// Every attribute's row order for the root (see [`Builder::grow`]).
    pub fn presort(&self) -> Vec<Vec<usize>> {
        self.cols
            .iter()
            .map(|col| {
                let mut order: Vec<usize> = (0..col.len()).collect();
                order.sort_unstable_by(|&a, &b| key(col[a]).total_cmp(&key(col[b])));
                order
            })
            .collect()
    }

    /// `RuleNode.buildClassifier` and `split`, recursively. `sorted[attr]` holds the node's
    /// rows ordered by `attr` (ties in any order), passed down the tree so that no node sorts
    /// again where it need not: Weka sorts the node's rows by each attribute in turn with its
    /// unstable quicksort, and where an attribute has no tied values in the node that order
    /// is the one ascending order, whatever the sort; where it has ties, Weka's quicksort runs
    /// on the order the previous attribute left, as in Weka.
    pub fn grow(&self, mut rows: Vec<usize>, sorted: Vec<Vec<usize>>) -> Node {
        let n = rows.len();
        let leaf =
            (n as f64) < self.min_instances || std_dev(self.y, &rows) < self.global_dev * 0.05;
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
            let mut best = Split {
                attr: None,
                impurity: -1e20,
                position: -1,
                value: 0.0,
            };
            let width = self.cols.len();
            let recip = Reciprocals::new(n);
            for (attr, order) in sorted.iter().enumerate() {
                let col = &self.cols[attr];
                if order.windows(2).any(|w| key(col[w[0]]) == key(col[w[1]])) {
                    let vals: Vec<f64> = rows.iter().map(|&r| col[r]).collect();
                    rows = sort_indices(&vals).into_iter().map(|i| rows[i]).collect();
                } else {
                    rows.clone_from(order);
                }
                let cur = self.attr_split(attr, &rows, &recip);
                if (cur.impurity - best.impurity).abs() > 1e-6
                    && cur.impurity > best.impurity + 1e-6
                {
                    best = cur;
                }
            }
            match best.attr {
                Some(attr) if best.position >= 1 && best.position < n as isize => {
                    let col = &self.cols[attr];
                    let goes_left = |i: &usize| col[*i] <= best.value;
                    let (l, r): (Vec<usize>, Vec<usize>) = rows.iter().partition(|i| goes_left(i));
                    let (sl, sr): (Vec<Vec<usize>>, Vec<Vec<usize>>) = sorted
                        .into_iter()
                        .map(|o| o.into_iter().partition(goes_left))
                        .unzip();
                    node.split = Some((attr, best.value));
                    let left = self.grow(l, sl);
                    let right = self.grow(r, sr);
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

    /// `YongSplitInfo.attrSplit` on rows sorted by `attr`.
    fn attr_split(&self, attr: usize, rows: &[usize], recip: &Reciprocals) -> Split {
        let n = rows.len();
        let mut s = Split {
            attr: Some(attr),
            impurity: -1e20,
            position: -1,
            value: 0.0,
        };
        if n < 4 {
            return s;
        }
        let len = if n < 5 { 1 } else { n / 5 };
        s.position = 0;
        let mut imp = Impurity::new(len - 1, self.y, rows);
        for i in len..n - len - 1 {
            imp.add_left(self.y[rows[i]]);
            let col = &self.cols[attr];
            let (a, b) = (col[rows[i]], col[rows[i + 1]]);
            if eq_small(b, a) {
                // Weka updates the impurity here too, but never reads it: skip the powers.
                continue;
            }
            // A candidate whose impurity provably cannot exceed the best so far is never
            // taken (Weka's test is `>`), so its two powers are skipped.
            if imp.bound(recip).is_some_and(|b| b <= s.impurity) {
                continue;
            }
            imp.update();
            if imp.impurity > s.impurity {
                s.impurity = imp.impurity;
                s.value = (a + b) * 0.5;
                s.position = i as isize;
            }
        }
        s
    }

    /// `RuleNode.buildLinearModel`: Weka's default linear regression on the node's rows and
    /// the attributes tested below it (none at a leaf: the class mean).
    fn linear_model(&self, node: &Node) -> NodeModel {
        let cols: Vec<Vec<f64>> = node
            .model_atts
            .iter()
            .map(|&a| node.rows.iter().map(|&r| self.cols[a][r]).collect())
            .collect();
        let y: Vec<f64> = node.rows.iter().map(|&r| self.y[r]).collect();
        let fit = fit_columns(&cols, &y, &LinearParams::default());
        let width = self.x.first().map_or(0, Vec::len);
        let mut coefficients = vec![0.0; width];
        for (&a, c) in node.model_atts.iter().zip(fit.full_coefficients()) {
            coefficients[a] = c;
        }
        NodeModel {
            coefficients,
            intercept: fit.intercept,
        }
    }

    /// Weka's `Evaluation.rootMeanSquaredError` of `predict` on the node's rows.
    fn rmse(&self, rows: &[usize], predict: impl Fn(&[f64]) -> f64) -> f64 {
        let (mut sum, mut count) = (0.0, 0.0);
        for &r in rows {
            let p = predict(&self.x[r]);
            if p.is_nan() {
                continue;
            }
            let d = p - self.y[r];
            sum += d * d;
            count += 1.0;
        }
        (sum / count).sqrt()
    }

    /// `RuleNode.prune`.
    pub fn prune(&self, node: &mut Node) {
        if node.is_leaf() {
            node.model = Some(self.linear_model(node));
            return;
        }
        if let Some(l) = node.left.as_mut() {
            self.prune(l);
        }
        if let Some(r) = node.right.as_mut() {
            self.prune(r);
        }
        let model = self.linear_model(node);
        let n = node.num_instances;
        let rms_model = self.rmse(&node.rows, |row| model.predict(row));
        let adjusted_model = rms_model * pruning_factor(n, model.num_parameters() + 1);
        let rms_subtree = self.rmse(&node.rows, |row| node.predict(row));
        let params = |c: &Option<Box<Node>>| c.as_ref().map_or(0, |c| c.num_parameters);
        let (lp, rp) = (params(&node.left), params(&node.right));
        let adjusted_node = rms_subtree * pruning_factor(n, lp + rp + 1);
        if adjusted_model <= adjusted_node || adjusted_model < self.global_dev * 0.00001 {
            node.split = None;
            node.left = None;
            node.right = None;
            node.num_parameters = model.num_parameters() + 1;
        } else {
            node.num_parameters = lp + rp + 1;
        }
        node.model = Some(model);
    }

    /// `RuleNode.installLinearModels` (unpruned trees).
    pub fn install_models(&self, node: &mut Node) {
        if let Some(l) = node.left.as_mut() {
            self.install_models(l);
        }
        if let Some(r) = node.right.as_mut() {
            self.install_models(r);
        }
        node.model = Some(self.linear_model(node));
    }
}

/// The sort key of `Utils.sort`: missing (NaN) as `f64::MAX`.
fn key(v: f64) -> f64 {
    if v.is_nan() {
        f64::MAX
    } else {
        v
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

fn pruning_factor(num_instances: usize, num_params: usize) -> f64 {
    if num_instances <= num_params {
        return 10.0;
    }
    (num_instances as f64 + 2.0 * num_params as f64) / (num_instances as f64 - num_params as f64)
}

/// `RuleNode.installSmoothedModels`: each leaf model blended with its ancestors' models.
pub fn smooth(node: &mut Node, path: &mut Vec<(NodeModel, usize)>) {
    if node.is_leaf() {
        let Some(model) = node.model.as_mut() else {
            return;
        };
        let mut n = node.num_instances as f64;
        for (parent, pn) in path.iter().rev() {
            let k = 15.0;
            for (c, p) in model.coefficients.iter_mut().zip(&parent.coefficients) {
                *c = (*c * n) / (n + k);
                *c += (k * p) / (n + k);
            }
            model.intercept = (model.intercept * n) / (n + k);
            model.intercept += (k * parent.intercept) / (n + k);
            n = *pn as f64;
        }
        return;
    }
    if let Some(m) = node.model.clone() {
        path.push((m, node.num_instances));
    }
    if let Some(l) = node.left.as_mut() {
        smooth(l, path);
    }
    if let Some(r) = node.right.as_mut() {
        smooth(r, path);
    }
    path.pop();
}

/// Frees the build-time row lists once the tree is final.
pub fn finish(node: &mut Node) {
    node.rows = Vec::new();
    node.model_atts = Vec::new();
    for c in [&mut node.left, &mut node.right].into_iter().flatten() {
        finish(c);
    }
}
