//! M5P's pruning and smoothing (`weka.classifiers.trees.m5.RuleNode.prune`,
//! `installLinearModels`, `installSmoothedModels`): each node's Weka linear regression on the
//! attributes tested below it, the subtree kept where its RMSE inflated by (n + 2v) / (n - v)
//! beats the node model's, and each leaf model blended with its ancestors' as
//! (n * leaf + 15 * parent) / (n + 15).

use super::linear::{fit_columns, LinearParams};
use super::m5p_tree::{Builder, Node, NodeModel};

use crate::helper_thread::map_each;

/// Scratch of [`Builder::prune`].
struct Pruning<'a> {
    /// Whether a row has no infinite value (the sparse prediction is exact there).
    finite: &'a [bool],
    /// Each row's prediction by the pruned subtree of the deepest node done that holds it.
    subtree: Vec<f64>,
    /// The node model's predictions of the node's rows.
    own: Vec<f64>,
    /// Every node's model in preorder (see [`Builder::all_models`]), taken as it is used.
    models: Vec<Option<NodeModel>>,
    /// The preorder number of the next node visited.
    next: usize,
}

impl Builder<'_> {
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

    /// Every node's linear model in preorder, formed on both threads: a node's model reads
    /// only its own rows and the attributes tested below it, fixed when the tree grew, and
    /// nothing of its children's pruning, so all can be formed before pruning starts, on
    /// both threads.
    fn all_models(&self, root: &Node) -> Vec<Option<NodeModel>> {
        fn preorder<'n>(node: &'n Node, out: &mut Vec<&'n Node>) {
            out.push(node);
            for c in [&node.left, &node.right].into_iter().flatten() {
                preorder(c, out);
            }
        }
        let mut nodes = Vec::new();
        preorder(root, &mut nodes);
        // The largest first (rows times attributes squared, a guess), each thread taking
        // the next node left as it finishes one.
        let cost = |n: &Node| n.rows.len() * (n.model_atts.len() + 1).pow(2);
        let mut by_cost: Vec<usize> = (0..nodes.len()).collect();
        by_cost.sort_by_key(|&i| std::cmp::Reverse(cost(nodes[i])));
        let fitted = map_each(by_cost.len(), |k| self.linear_model(nodes[by_cost[k]]));
        let mut models: Vec<Option<NodeModel>> = vec![None; nodes.len()];
        for (&i, m) in by_cost.iter().zip(fitted) {
            models[i] = Some(m);
        }
        models
    }

    /// `RuleNode.prune` over the whole tree.
    pub fn prune(&self, node: &mut Node) {
        let finite: Vec<bool> = self
            .x
            .iter()
            .map(|r| r.iter().all(|v| !v.is_infinite()))
            .collect();
        let mut pruning = Pruning {
            finite: &finite,
            subtree: vec![f64::NAN; self.y.len()],
            own: Vec::new(),
            models: self.all_models(node),
            next: 0,
        };
        self.prune_at(node, &mut pruning);
    }

    /// `RuleNode.prune` at `node`. Weka scores a node's subtree by routing each of its rows
    /// down to a leaf; the subtree's prediction of a row is its child's, so each pruned
    /// child leaves its predictions of its rows in `pruning.subtree` and the node reads
    /// them (the same values, summed in the same order) instead of descending again.
    fn prune_at(&self, node: &mut Node, pruning: &mut Pruning) {
        let id = pruning.next;
        pruning.next += 1;
        if let (Some(l), Some(r)) = (node.left.as_mut(), node.right.as_mut()) {
            self.prune_at(l, pruning);
            self.prune_at(r, pruning);
        }
        let model = match pruning.models[id].take() {
            Some(m) => m,
            None => self.linear_model(node),
        };
        // The attributes with a nonzero coefficient: the model's parameters.
        let used: Vec<usize> = (0..model.coefficients.len())
            .filter(|&j| model.coefficients[j] != 0.0)
            .collect();
        pruning.own.clear();
        for &r in &node.rows {
            let row = &self.x[r];
            pruning.own.push(if pruning.finite[r] {
                model.predict_sparse(&used, row)
            } else {
                model.predict(row)
            });
        }
        let keep_split = !node.is_leaf() && {
            let n = node.num_instances;
            let rms_model = self.rmse(&node.rows, |i, _| pruning.own[i]);
            let adjusted_model = rms_model * pruning_factor(n, used.len() + 1);
            let rms_subtree = self.rmse(&node.rows, |_, r| pruning.subtree[r]);
            let params = |c: &Option<Box<Node>>| c.as_ref().map_or(0, |c| c.num_parameters);
            let (lp, rp) = (params(&node.left), params(&node.right));
            let adjusted_node = rms_subtree * pruning_factor(n, lp + rp + 1);
            if adjusted_model <= adjusted_node || adjusted_model < self.global_dev * 0.00001 {
                node.num_parameters = used.len() + 1;
                false
            } else {
                node.num_parameters = lp + rp + 1;
                true
            }
        };
        if !keep_split {
            node.split = None;
            node.left = None;
            node.right = None;
            for (&r, &p) in node.rows.iter().zip(&pruning.own) {
                pruning.subtree[r] = p;
            }
        }
        node.model = Some(model);
    }

    /// Weka's `Evaluation.rootMeanSquaredError` on the node's rows, `predicted(i, row)` being
    /// the prediction of the i-th of them.
    fn rmse(&self, rows: &[usize], predicted: impl Fn(usize, usize) -> f64) -> f64 {
        let (mut sum, mut count) = (0.0, 0.0);
        for (i, &r) in rows.iter().enumerate() {
            let p = predicted(i, r);
            if p.is_nan() {
                continue;
            }
            let d = p - self.y[r];
            sum += d * d;
            count += 1.0;
        }
        (sum / count).sqrt()
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
