//! The core of Weka 3.6's `LinearRegression` on numeric columns: standardization, the
//! ridged normal equations solved by JAMA's LU, and the attribute selection
//! (`findBestModel`: the collinearity pass, then M5's method or greedy removal by the Akaike
//! criterion).

use std::cell::RefCell;

use super::jama::{Checkpoints, ColMajor, Factors};
use super::linear::{LinearFit, LinearParams, Selection};
use super::linear_gram::normal_sums;

pub(super) struct Regression<'a> {
    cols: &'a [Vec<f64>],
    y: &'a [f64],
    params: &'a LinearParams,
    means: Vec<f64>,
    std_devs: Vec<f64>,
    class_mean: f64,
    class_std_dev: f64,
    /// A'A and A'y of the standardized columns; each entry is the same row-ordered sum Weka
    /// forms for any subset of columns, so subsets are read from here bit for bit.
    gram: Vec<Vec<f64>>,
    aty: Vec<f64>,
    /// The last decomposition at the first ridge and the columns it covered: the next
    /// selection usually drops one of them, and JAMA's columns before it are then reused.
    last: RefCell<Option<(Vec<usize>, Factors)>>,
}

fn mean(v: &[f64]) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    let (mut sum, mut found) = (0.0, 0.0);
    for &x in v {
        found += 1.0;
        sum += x;
    }
    sum / found
}

/// `Instances.variance`: the unbiased variance, 0 for fewer than two values.
fn variance(v: &[f64]) -> f64 {
    let (mut sum, mut sq, mut n) = (0.0, 0.0, 0.0);
    for &x in v {
        sum += x;
        sq += x * x;
        n += 1.0;
    }
    if n <= 1.0 {
        return 0.0;
    }
    let r = (sq - sum * sum / n) / (n - 1.0);
    if r < 0.0 {
        0.0
    } else {
        r
    }
}

impl<'a> Regression<'a> {
    pub(super) fn new(cols: &'a [Vec<f64>], y: &'a [f64], params: &'a LinearParams) -> Self {
        let means: Vec<f64> = cols.iter().map(|c| mean(c)).collect();
        let std_devs: Vec<f64> = cols.iter().map(|c| variance(c).sqrt()).collect();
        let p = cols.len();
        let live: Vec<usize> = (0..p).filter(|&j| std_devs[j] != 0.0).collect();
        let (gram, aty) = normal_sums(cols, y, &means, &std_devs, &live);
        Regression {
            cols,
            y,
            params,
            means,
            std_devs,
            class_mean: mean(y),
            class_std_dev: variance(y).sqrt(),
            gram,
            aty,
            last: RefCell::new(None),
        }
    }

    /// The ridged normal equations of the columns `idx`, by columns (they are symmetric).
    fn normal_matrix(&self, idx: &[usize], ridge: f64) -> ColMajor {
        let k = idx.len();
        let mut a = Vec::with_capacity(k * k);
        for j in 0..k {
            a.extend((0..k).map(self.normal_column(idx, ridge, j)));
        }
        ColMajor { n: k, a }
    }

    /// Column j of [`Regression::normal_matrix`], as its entry of each row: the Gram entry of
    /// the two attributes, plus the ridge on the diagonal.
    fn normal_column<'b>(
        &'b self,
        idx: &'b [usize],
        ridge: f64,
        j: usize,
    ) -> impl Fn(usize) -> f64 + 'b {
        let g = &self.gram[idx[j]];
        move |i| {
            let v = g[idx[i]];
            if i == j {
                v + ridge
            } else {
                v
            }
        }
    }

    /// JAMA's decomposition of the normal equations of `idx` at the first ridge, from the
    /// last one where `idx` is its columns less one; it keeps its partial sums for the next.
    fn first_factors(&self, idx: &[usize]) -> Factors {
        let ridge = self.params.ridge;
        let last = self.last.borrow_mut().take();
        let mut store = None;
        if let Some((last, f)) = last {
            if last.len() == idx.len() + 1 {
                let r = (0..idx.len())
                    .find(|&i| last[i] != idx[i])
                    .unwrap_or(idx.len());
                if last[r + 1..] == idx[r..] {
                    return f.without(r, |j| self.normal_column(idx, ridge, j));
                }
            }
            store = f.into_sums();
        }
        let store = store.unwrap_or_else(|| Checkpoints::new(self.gram.len()));
        Factors::recorded(self.normal_matrix(idx, ridge), idx.to_vec(), store)
    }

    fn do_regression(&self, selected: &[bool]) -> Vec<f64> {
        let idx: Vec<usize> = (0..selected.len()).filter(|&j| selected[j]).collect();
        let k = idx.len();
        let mut coef = vec![0.0; k + 1];
        if k > 0 {
            let bb: Vec<f64> = idx.iter().map(|&a| self.aty[a]).collect();
            let first = self.first_factors(&idx);
            let mut solution = first.solve(&bb);
            *self.last.borrow_mut() = Some((idx.clone(), first));
            // Weka's retry: the ridge ten times larger while the equations are singular.
            let mut ridge = self.params.ridge;
            let solution = loop {
                if let Some(s) = solution {
                    break s;
                }
                ridge *= 10.0;
                solution = Factors::of(self.normal_matrix(&idx, ridge)).solve(&bb);
            };
            coef[..k].copy_from_slice(&solution);
        }
        coef[k] = self.class_mean;
        for (c, &j) in idx.iter().enumerate() {
            coef[c] /= self.std_devs[j];
            coef[k] -= coef[c] * self.means[j];
        }
        coef
    }

    fn squared_error(&self, selected: &[bool], coef: &[f64]) -> f64 {
        // Weka adds each row's terms in column order, then the intercept; accumulating whole
        // columns in that order gives every row the same sum.
        let mut pred = vec![0.0; self.y.len()];
        let mut c = 0;
        for (j, col) in self.cols.iter().enumerate() {
            if selected[j] {
                let w = coef[c];
                for (p, &v) in pred.iter_mut().zip(col) {
                    *p += w * v;
                }
                c += 1;
            }
        }
        let mut se = 0.0;
        for (p, &y) in pred.iter().zip(self.y) {
            let e = (p + coef[c]) - y;
            se += e * e;
        }
        se
    }

    /// The standardized coefficient of each selected column, in order.
    fn standardized(&self, selected: &[bool], coef: &[f64]) -> Vec<(usize, f64)> {
        (0..selected.len())
            .filter(|&j| selected[j])
            .enumerate()
            .map(|(c, j)| (j, (coef[c] * self.std_devs[j] / self.class_std_dev).abs()))
            .collect()
    }

    pub(super) fn find_best_model(self) -> LinearFit {
        let n = self.y.len() as f64;
        let mut selected: Vec<bool> = self.std_devs.iter().map(|&s| s != 0.0).collect();
        let mut coef = loop {
            let coef = self.do_regression(&selected);
            if !self.params.eliminate_colinear {
                break coef;
            }
            let mut max_sc = 1.5;
            let mut max_attr = None;
            for (j, sc) in self.standardized(&selected, &coef) {
                if sc > max_sc {
                    max_sc = sc;
                    max_attr = Some(j);
                }
            }
            match max_attr {
                Some(j) => selected[j] = false,
                None => break coef,
            }
        };
        let num_attributes = selected.iter().filter(|&&s| s).count() as f64 + 1.0;
        let full_mse = self.squared_error(&selected, &coef);
        let mut akaike = (n - num_attributes) + 2.0 * num_attributes;
        let mut current_num = num_attributes;
        match self.params.selection {
            Selection::None => {}
            Selection::M5 => loop {
                current_num -= 1.0;
                let mut min: Option<(usize, f64)> = None;
                for (j, sc) in self.standardized(&selected, &coef) {
                    if min.is_none_or(|(_, m)| sc < m) {
                        min = Some((j, sc));
                    }
                }
                let Some((j, _)) = min else { break };
                selected[j] = false;
                let current = self.do_regression(&selected);
                let mse = self.squared_error(&selected, &current);
                let current_akaike = mse / full_mse * (n - num_attributes) + 2.0 * current_num;
                if current_akaike < akaike {
                    akaike = current_akaike;
                    coef = current;
                } else {
                    selected[j] = true;
                    break;
                }
            },
            Selection::Greedy => loop {
                let mut current_selected = selected.clone();
                let mut improved = false;
                current_num -= 1.0;
                for j in 0..selected.len() {
                    if !current_selected[j] {
                        continue;
                    }
                    current_selected[j] = false;
                    let current = self.do_regression(&current_selected);
                    let mse = self.squared_error(&current_selected, &current);
                    let current_akaike = mse / full_mse * (n - num_attributes) + 2.0 * current_num;
                    if current_akaike < akaike {
                        improved = true;
                        akaike = current_akaike;
                        selected.clone_from(&current_selected);
                        coef = current;
                    }
                    current_selected[j] = true;
                }
                if !improved {
                    break;
                }
            },
        }
        let k = coef.len() - 1;
        LinearFit {
            selected,
            intercept: coef[k],
            coefficients: coef[..k].to_vec(),
        }
    }
}
