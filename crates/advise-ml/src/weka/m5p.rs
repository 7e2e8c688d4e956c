//! `m5p`: Weka 3.6's `weka.classifiers.trees.M5P` (an M5 model tree). Before growing the tree
//! Weka replaces missing values by means and modes, turns nominal attributes into binary ones
//! (ordered by mean class), drops constant columns and shuffles the rows with
//! `new Random(1)`; the fitted model replays the same filters on every test row.

use serde::{Deserialize, Serialize};

use super::filters::{NominalToBinary, RemoveUseless, ReplaceMissing};
use super::m5p_prune::{finish, smooth};
use super::m5p_split::SortedColumns;
use super::m5p_tree::{std_dev, Builder, Node};
use crate::data::Data;
use crate::error::{MlError, Result};
use crate::rng::JavaRandom;
use crate::{Fit, Predict};

/// Hyper-parameters of `m5p`, with Weka's defaults.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct M5pParams {
    /// `-N`: do not prune.
    pub unpruned: bool,
    /// `-U`: do not smooth the leaf models.
    pub unsmoothed: bool,
    /// `-R`: constant leaves (a regression tree) instead of linear models.
    pub regression_tree: bool,
    /// `-M`: a node with fewer instances is not split.
    pub min_instances: f64,
}

impl Default for M5pParams {
    fn default() -> Self {
        M5pParams {
            unpruned: false,
            unsmoothed: false,
            regression_tree: false,
            min_instances: 4.0,
        }
    }
}

/// A fitted `m5p` model.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct M5p {
    missing: ReplaceMissing,
    to_binary: NominalToBinary,
    useless: RemoveUseless,
    root: Node,
}

/// One test on a row's path through the tree.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RuleStep {
    /// The input column tested.
    pub feature: usize,
    pub threshold: f64,
    /// The row's value (after missing values are replaced).
    pub value: f64,
    /// `value <= threshold`.
    pub left: bool,
}

impl M5p {
    /// The tests on a row's path from the root to its leaf. `None` when an input column is
    /// nominal (its binary columns would not name one input).
    pub fn rule_path(&self, row: &[f64]) -> Option<Vec<RuleStep>> {
        if self.to_binary.has_nominal() {
            return None;
        }
        let mut r = row.to_vec();
        self.missing.apply(&mut r);
        let kept = self.useless.kept();
        let x = self.useless.apply(&r);
        let mut steps = Vec::new();
        let mut node = &self.root;
        while let (Some((att, val)), Some(l), Some(rt)) = (&node.split, &node.left, &node.right) {
            let left = x[*att] <= *val;
            steps.push(RuleStep {
                feature: kept[*att],
                threshold: *val,
                value: x[*att],
                left,
            });
            node = if left { l } else { rt };
        }
        Some(steps)
    }

    /// The filters' input width, and whether nominal-to-binary and remove-useless would copy
    /// a row of that width unchanged (as in `fit`, they are skipped then).
    fn copying_filters(&self) -> (usize, bool, bool) {
        let width = self.to_binary.width();
        (
            width,
            !self.to_binary.has_nominal(),
            self.useless.kept().len() == width,
        )
    }

    /// The row through the filters; `filters` is [`M5p::copying_filters`].
    fn transform(&self, row: &[f64], filters: (usize, bool, bool)) -> Vec<f64> {
        let (width, binary_copies, useless_copies) = filters;
        let mut r = row.to_vec();
        self.missing.apply(&mut r);
        let r = if binary_copies && r.len() == width {
            r
        } else {
            self.to_binary.apply(&r)
        };
        if useless_copies && r.len() == width {
            r
        } else {
            self.useless.apply(&r)
        }
    }

    /// The number of leaves (Weka's "Number of Rules").
    pub fn num_leaves(&self) -> usize {
        fn count(n: &Node) -> usize {
            match (&n.left, &n.right) {
                (Some(l), Some(r)) => count(l) + count(r),
                _ => 1,
            }
        }
        count(&self.root)
    }
}

/// `x` (rows of `width` values) by column, eight rows at a time: the eight rows' values and
/// the columns' current eight entries stay in the first-level cache together.
fn by_column(x: &[Vec<f64>], width: usize) -> Vec<Vec<f64>> {
    const BLOCK: usize = 8;
    let mut cols = vec![vec![0.0; x.len()]; width];
    for (b, rows) in x.chunks(BLOCK).enumerate() {
        for (j, col) in cols.iter_mut().enumerate() {
            for (c, row) in col[b * BLOCK..].iter_mut().zip(rows) {
                *c = row[j];
            }
        }
    }
    cols
}

impl Fit<Data> for M5pParams {
    type Model = M5p;

    fn fit(&self, data: &Data) -> Result<M5p> {
        let mut data = data.with_known_target();
        if data.y.is_empty() {
            return Err(MlError::Data("no training rows with a known target".into()));
        }
        if u32::try_from(data.y.len()).is_err() {
            return Err(MlError::Data(format!(
                "m5p: {} training rows; at most {} are supported",
                data.y.len(),
                u32::MAX
            )));
        }
        if self.min_instances.is_nan() || self.min_instances < 1.0 {
            return Err(MlError::Parameter("m5p: -M must be at least 1".into()));
        }
        let nominal: Vec<Option<usize>> = data.features.iter().map(|f| f.nominal_count()).collect();
        // The filters in Weka's order, each on the rows the last left; a filter that would
        // copy every row unchanged (no nominal column, no useless column) is skipped.
        let missing = ReplaceMissing::fit(&data.x, &nominal);
        for r in &mut data.x {
            missing.apply(r);
        }
        let filled = std::mem::take(&mut data.x);
        let to_binary = NominalToBinary::fit(&filled, &data.y, &nominal);
        let binary: Vec<Vec<f64>> = if to_binary.has_nominal() {
            filled.iter().map(|r| to_binary.apply(r)).collect()
        } else {
            filled
        };
        let useless = RemoveUseless::fit(&binary, to_binary.width());
        let mut x: Vec<Vec<f64>> = if useless.kept().len() == to_binary.width() {
            binary
        } else {
            binary.iter().map(|r| useless.apply(r)).collect()
        };
        let mut y = data.y.clone();
        // m_instances.randomize(new Random(1)): shuffle rows and classes together.
        let mut order: Vec<usize> = (0..y.len()).collect();
        JavaRandom::new(1).shuffle(&mut order);
        x = order.iter().map(|&i| std::mem::take(&mut x[i])).collect();
        y = order.iter().map(|&i| y[i]).collect();
        let rows: Vec<usize> = (0..y.len()).collect();
        let width = x.first().map_or(0, Vec::len);
        let cols = by_column(&x, width);
        let builder = Builder {
            x: &x,
            cols: &cols,
            y: &y,
            min_instances: self.min_instances,
            regression_tree: self.regression_tree,
            global_dev: std_dev(&y, &rows),
        };
        let mut sorted = SortedColumns::new(&cols, rows.len());
        let mut root = builder.grow(&mut sorted, 0, rows.len(), rows, &vec![true; width]);
        if self.unpruned {
            builder.install_models(&mut root);
        } else {
            builder.prune(&mut root);
        }
        if !self.unsmoothed {
            smooth(&mut root, &mut Vec::new());
        }
        finish(&mut root);
        Ok(M5p {
            missing,
            to_binary,
            useless,
            root,
        })
    }
}

impl M5p {
    /// Why a model read from a file cannot be one `fit` made for rows of `width` features:
    /// filters of another width, or a tree whose nodes fail their check on the rows they make.
    pub fn check(&self, width: usize) -> std::result::Result<(), String> {
        let encoded = super::filters::check_filters(&self.missing, &self.to_binary, width)?;
        self.root.check(self.useless.check(encoded)?)
    }
}

impl Predict<[Vec<f64>]> for M5p {
    fn predict(&self, x: &[Vec<f64>]) -> Result<Vec<f64>> {
        let filters = self.copying_filters();
        Ok(x.iter()
            .map(|r| self.root.predict(&self.transform(r, filters)))
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(x: Vec<Vec<f64>>, y: Vec<f64>) -> Data {
        let names: Vec<String> = (0..x.first().map_or(0, Vec::len))
            .map(|j| format!("c{j}"))
            .collect();
        Data::numeric(&names, "y", x, y)
    }

    /// Degenerate training sets (seeded where random): each fit either succeeds or says why,
    /// and never panics, whatever the screen and the split search meet.
    #[test]
    fn degenerate_data_fits_without_panicking() {
        let mut rng = JavaRandom::new(21);
        let mut rows = |n: usize, w: usize| -> Vec<Vec<f64>> {
            (0..n)
                .map(|_| (0..w).map(|_| rng.next_double()).collect())
                .collect()
        };
        let ramp = |n: usize| -> Vec<f64> { (0..n).map(|i| i as f64).collect() };
        let mut cases: Vec<Data> = vec![
            data(rows(1, 3), vec![1.0]),
            data(vec![vec![2.0]; 4], ramp(4)),
            data(rows(40, 12), vec![1.0; 40]),
        ];
        let mut with_inf = ramp(40);
        with_inf[7] = f64::INFINITY;
        cases.push(data(rows(40, 12), with_inf));
        // Squares that overflow: the screen has no finite sums and stands aside.
        cases.push(data(
            rows(60, 12),
            ramp(60).iter().map(|v| v * 1e300).collect(),
        ));
        let mut x = rows(60, 12);
        for r in x.iter_mut().step_by(3) {
            r[2] = f64::NEG_INFINITY;
            r[5] = f64::NAN;
        }
        cases.push(data(x, ramp(60)));
        for (i, d) in cases.iter().enumerate() {
            if let Ok(model) = M5pParams::default().fit(d) {
                let p = model.predict(&d.x).expect("predict");
                assert_eq!(p.len(), d.x.len(), "case {i}");
            }
        }
    }

    /// Synthetic: a column holding two neighbouring floats, 2^53 + 2 and 2^53 + 4 (apart by
    /// more than the 1e-10 under which Weka's split search treats values as tied), whose
    /// midpoint rounds to the larger, so that a split there would put every row on one side.
    /// The node stays a leaf instead of splitting again forever (which overflowed the stack:
    /// a split otherwise leaves each child at least a fifth of the node's rows, so a tree is
    /// at most about log(n) / log(5/4) deep).
    #[test]
    fn splits_that_separate_nothing_and_deep_trees_end() {
        let big = 2f64.powi(53);
        let (a, b) = (big + 2.0, big + 4.0);
        assert_eq!((a + b) * 0.5, b);
        let x: Vec<Vec<f64>> = (0..64)
            .map(|i| vec![if i % 2 == 0 { a } else { b }])
            .collect();
        let y: Vec<f64> = (0..64).map(|i| (i % 2) as f64).collect();
        let model = M5pParams::default().fit(&data(x.clone(), y)).unwrap();
        assert!(model.predict(&x).unwrap().iter().all(|p| p.is_finite()));
    }
}
