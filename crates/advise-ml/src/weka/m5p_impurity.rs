//! M5P's split measure (`weka.classifiers.trees.m5.Impurity` with order 5, and `Values`).

/// The variance `Values` keeps for `count` values of sum `sum` and squared sum `sq`. Weka
/// updates it after every value; only the last one, from the same sums, is kept.
fn variance_of_values(count: usize, sum: f64, sq: f64) -> f64 {
    if count > 1 {
        ((sq - sum * sum / count as f64) / count as f64).abs()
    } else {
        0.0
    }
}

/// `v.powf(0.2)` for the last few `v` asked for: a node's class variance comes out the same,
/// or within a few ulps, in every attribute's order, so its root is formed a few times per
/// node instead of once per attribute.
#[derive(Default)]
pub(super) struct FifthRoots {
    seen: Vec<(u64, f64)>,
    next: usize,
}

impl FifthRoots {
    const KEEP: usize = 8;

    pub(super) fn get(&mut self, v: f64) -> f64 {
        let bits = v.to_bits();
        if let Some(&(_, root)) = self.seen.iter().find(|(b, _)| *b == bits) {
            return root;
        }
        let root = v.powf(1.0 / 5.0);
        if self.seen.len() < Self::KEEP {
            self.seen.push((bits, root));
        } else {
            self.seen[self.next] = (bits, root);
            self.next = (self.next + 1) % Self::KEEP;
        }
        root
    }
}

/// `Impurity` with order 5.
#[derive(Clone)]
pub(super) struct Impurity {
    pub(super) n: f64,
    pub(super) nl: f64,
    pub(super) nr: f64,
    pub(super) sl: f64,
    pub(super) sr: f64,
    pub(super) s2l: f64,
    pub(super) s2r: f64,
    pub(super) y_all: f64,
    pub(super) impurity: f64,
}

impl Impurity {
    /// The impurity of class values `ys` split after position `partition`. Weka's
    /// constructor also forms the impurity there, which the split search never reads: it is
    /// left at zero until [`Impurity::update`].
    pub(super) fn new(partition: usize, ys: &[f64], roots: &mut FifthRoots) -> Self {
        // Three `Values` objects, over all values, the left ones and the right ones, each
        // summed in order; formed in one pass so that their chains of additions overlap.
        let (mut sum, mut sq) = (0.0, 0.0);
        let (mut sl, mut s2l) = (0.0, 0.0);
        for &v in &ys[..=partition] {
            sum += v;
            sq += v * v;
            sl += v;
            s2l += v * v;
        }
        let (mut sr, mut s2r) = (0.0, 0.0);
        for &v in &ys[partition + 1..] {
            sum += v;
            sq += v * v;
            sr += v;
            s2r += v * v;
        }
        let va = variance_of_values(ys.len(), sum, sq);
        Impurity {
            n: ys.len() as f64,
            nl: (partition + 1) as f64,
            nr: (ys.len() - partition - 1) as f64,
            sl,
            sr,
            s2l,
            s2r,
            y_all: roots.get(va),
            impurity: 0.0,
        }
    }

    pub(super) fn add_left(&mut self, v: f64) {
        self.nl += 1.0;
        self.nr -= 1.0;
        self.sl += v;
        self.sr -= v;
        self.s2l += v * v;
        self.s2r -= v * v;
    }

    pub(super) fn update(&mut self) {
        let vl = variance(self.nl, self.s2l, self.sl);
        let vr = variance(self.nr, self.s2r, self.sr);
        self.impurity = if self.nl <= 0.0 || self.nr <= 0.0 {
            0.0
        } else {
            self.y_all
                - (self.nl / self.n) * vl.powf(1.0 / 5.0)
                - (self.nr / self.n) * vr.powf(1.0 / 5.0)
        };
    }
}

/// Weka's variance of n values from their sum and squared sum, as `Impurity` forms it.
fn variance(n: f64, s2: f64, s: f64) -> f64 {
    if n <= 0.0 {
        0.0
    } else {
        ((n * s2 - s * s) / (n * n)).abs()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fifth_roots_memo_returns_pow_exactly() {
        let mut roots = FifthRoots::default();
        // More distinct values than the memo keeps, each asked for twice, in two orders.
        let vals: Vec<f64> = (1..=20).map(|i| i as f64 * 0.37).collect();
        for v in vals.iter().chain(vals.iter().rev()).chain(vals.iter()) {
            assert_eq!(roots.get(*v).to_bits(), v.powf(1.0 / 5.0).to_bits(), "{v}");
        }
        assert_eq!(roots.get(0.0), 0.0);
    }
}
