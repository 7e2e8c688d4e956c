//! M5P's split measure (`weka.classifiers.trees.m5.Impurity` with order 5, and `Values`), and
//! a `pow`-free upper bound on it that lets the split search skip candidates that cannot beat
//! the best one found so far.

/// `Values`: sum and squared sum of the class values `ys`, and the variance of all of them.
pub(super) fn values(ys: &[f64]) -> (f64, f64, f64) {
    let (mut sum, mut sq) = (0.0, 0.0);
    for &v in ys {
        sum += v;
        sq += v * v;
    }
    // Weka updates the variance after every value; only the last one, from the same sums,
    // is kept.
    let count = ys.len();
    let va = if count > 1 {
        ((sq - sum * sum / count as f64) / count as f64).abs()
    } else {
        0.0
    };
    (sum, sq, va)
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
pub(super) struct Impurity {
    n: f64,
    nl: f64,
    nr: f64,
    sl: f64,
    sr: f64,
    s2l: f64,
    s2r: f64,
    y_all: f64,
    pub(super) impurity: f64,
}

impl Impurity {
    /// The impurity of class values `ys` split after position `partition`. Weka's
    /// constructor also forms the impurity there, which the split search never reads: it is
    /// left at zero until [`Impurity::update`].
    pub(super) fn new(partition: usize, ys: &[f64], roots: &mut FifthRoots) -> Self {
        let (_, _, va) = values(ys);
        let (sl, s2l, _) = values(&ys[..=partition]);
        let (sr, s2r, _) = values(&ys[partition + 1..]);
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

    /// An upper bound on the impurity [`Impurity::update`] would set now, without `pow` or
    /// a division: the same expression on lower bounds of its parts. The two fractions and
    /// variances are formed with `recip`'s reciprocals instead of divisions (at most 4e-16
    /// of themselves above the divided values) and lowered by 1e-15 of themselves; the roots
    /// are bounded by [`fifth_root_below`]; IEEE operations are monotone in their operands
    /// and both terms are subtracted. `None` where a root cannot be bounded.
    pub(super) fn bound(&self, recip: &Reciprocals) -> Option<f64> {
        if self.nl <= 0.0 || self.nr <= 0.0 {
            return None;
        }
        const LOWER: f64 = 1.0 - 1e-15;
        let (nl, nr) = (self.nl as usize, self.nr as usize);
        let vl = ((self.nl * self.s2l - self.sl * self.sl) * recip.inv_sq[nl]).abs() * LOWER;
        let vr = ((self.nr * self.s2r - self.sr * self.sr) * recip.inv_sq[nr]).abs() * LOWER;
        let (pl, pr) = (fifth_root_below(vl)?, fifth_root_below(vr)?);
        let tl = self.nl * recip.inv_n * LOWER;
        let tr = self.nr * recip.inv_n * LOWER;
        Some(self.y_all - tl * pl - tr * pr)
    }
}

/// The reciprocals [`Impurity::bound`] multiplies by, for a node of n rows: 1/n and 1/m^2 for
/// m = 0..=n (formed once per node, shared by every attribute).
pub(super) struct Reciprocals {
    inv_n: f64,
    inv_sq: Vec<f64>,
}

impl Reciprocals {
    pub(super) fn new(n: usize) -> Self {
        Reciprocals {
            inv_n: 1.0 / n as f64,
            inv_sq: (0..=n).map(|m| 1.0 / (m as f64 * m as f64)).collect(),
        }
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

/// A number at most the platform's `v.powf(0.2)` (glibc's `pow`, within one ulp of the exact
/// root) and within 0.08% of it; `None` for zero-free non-normal input (zero gives zero).
/// With v = m 2^e, m in [1, 2), e = 5q + r: v^(1/5) = 2^q (m 2^r)^(1/5), and m is at least
/// 1 + k/256 for its top eight bits k, so a table of (2^r (1 + k/256))^(1/5), each lowered by
/// 1e-14 of itself (more than `pow`'s one ulp and the table's own rounding), bounds the root
/// from below, the scaling by 2^q being exact.
pub(super) fn fifth_root_below(v: f64) -> Option<f64> {
    if v == 0.0 {
        return Some(0.0);
    }
    if !(v.is_normal() && v > 0.0) {
        return None;
    }
    static TABLE: std::sync::OnceLock<Vec<f64>> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        (0..5)
            .flat_map(|r| {
                (0..256).map(move |k| {
                    ((1u32 << r) as f64 * (1.0 + k as f64 / 256.0)).powf(0.2) * (1.0 - 1e-14)
                })
            })
            .collect()
    });
    let bits = v.to_bits();
    let e = ((bits >> 52) & 0x7ff) as i64 - 1023;
    let (q, r) = (e.div_euclid(5), e.rem_euclid(5));
    let k = ((bits >> 44) & 0xff) as usize;
    let scale = f64::from_bits(((q + 1023) as u64) << 52);
    Some(scale * table[r as usize * 256 + k])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fifth_root_bound_is_below_pow_and_close() {
        let mut rng = crate::rng::JavaRandom::new(7);
        let mut checked = 0;
        for _ in 0..200_000 {
            // Values over the whole normal range, and near powers of two.
            let e = (rng.next_double() * 2000.0 - 1000.0).round() as i32;
            let v = (1.0 + rng.next_double()) * 2f64.powi(e);
            let p = v.powf(0.2);
            if let Some(lo) = fifth_root_below(v) {
                assert!(lo <= p, "{v}: {lo} > {p}");
                assert!(lo >= p * (1.0 - 1e-3), "{v}: {lo} far below {p}");
                checked += 1;
            }
        }
        assert_eq!(checked, 200_000);
        // The tightest cases: the table's own bracket starts, for every residue of e mod 5.
        for e in -12..=12 {
            for k in 0..256 {
                let v = 2f64.powi(e) * (1.0 + k as f64 / 256.0);
                let lo = fifth_root_below(v).expect("a normal number");
                assert!(lo <= v.powf(0.2), "{v}");
            }
        }
        assert_eq!(fifth_root_below(0.0), Some(0.0));
        for v in [f64::NAN, f64::INFINITY, -1.0, f64::MIN_POSITIVE / 4.0] {
            assert_eq!(fifth_root_below(v), None, "{v}");
        }
        for v in [1.0, 32.0, 1e-300, 1e300, f64::MIN_POSITIVE, f64::MAX] {
            let lo = fifth_root_below(v).expect("a normal number");
            assert!(lo <= v.powf(0.2) && lo >= v.powf(0.2) * (1.0 - 1e-3), "{v}");
        }
    }

    #[test]
    fn impurity_bound_is_above_the_impurity() {
        let mut rng = crate::rng::JavaRandom::new(9);
        let y: Vec<f64> = (0..60).map(|_| rng.next_double() * 10.0).collect();
        let mut imp = Impurity::new(5, &y, &mut FifthRoots::default());
        let recip = Reciprocals::new(y.len());
        for &v in &y[6..55] {
            imp.add_left(v);
            let b = imp.bound(&recip).expect("a bound");
            imp.update();
            assert!(b >= imp.impurity, "{b} < {}", imp.impurity);
            assert!(b - imp.impurity < 1e-3 * (1.0 + imp.impurity.abs()));
        }
    }

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
