//! A `pow`-free upper bound on M5P's split measure, formed for a stretch of candidates at
//! once, that lets the split search skip candidates that cannot beat the best one found so
//! far. The stretch's running sums are kept as the sequential loop forms them, so the
//! candidates that are evaluated get the very bits `Impurity.incremental` would give.

use super::m5p_impurity::Impurity;
use super::m5p_root::{root4, root_lane, root_table};

/// Multiplies the parts of the bound down: more than the reciprocals' error (at most 4e-16
/// of the divided values) and the table's.
pub(super) const LOWER: f64 = 1.0 - 1e-15;

/// The reciprocals and counts the bound multiplies by, for a node of n rows (formed once per
/// node, shared by every attribute).
pub(super) struct Reciprocals {
    n: usize,
    inv_n: f64,
    /// 1/m^2 for m = 0..=n.
    inv_sq: Vec<f64>,
    /// 1/(n - m)^2 for m = 0..=n: the right side's, in the left side's order.
    inv_sq_rest: Vec<f64>,
    /// m as f64 for m = 0..=n.
    counts: Vec<f64>,
}

impl Reciprocals {
    pub(super) fn new(n: usize) -> Self {
        let inv_sq: Vec<f64> = (0..=n).map(|m| 1.0 / (m as f64 * m as f64)).collect();
        Reciprocals {
            n,
            inv_n: 1.0 / n as f64,
            inv_sq_rest: inv_sq.iter().rev().copied().collect(),
            inv_sq,
            counts: (0..=n).map(|m| m as f64).collect(),
        }
    }
}

/// The running sums after each candidate of a stretch, and each candidate's bound.
#[derive(Default)]
pub(super) struct Stretch {
    /// Rows on the left at the stretch's first candidate.
    first_nl: usize,
    sl: Vec<f64>,
    sr: Vec<f64>,
    s2l: Vec<f64>,
    s2r: Vec<f64>,
    /// An upper bound on each candidate's impurity; NaN where none could be formed.
    pub(super) bound: Vec<f64>,
}

impl Stretch {
    /// Moves `ys` to the left of `imp` one by one, as the sequential loop does, keeping the
    /// sums after each, then bounds every candidate.
    pub(super) fn advance(&mut self, imp: &mut Impurity, ys: &[f64], recip: &Reciprocals) {
        self.first_nl = imp.nl as usize + 1;
        let m = ys.len();
        for v in [&mut self.sl, &mut self.sr, &mut self.s2l, &mut self.s2r] {
            v.resize(m, 0.0);
        }
        let sums = self.sl.iter_mut().zip(&mut self.sr);
        let squares = self.s2l.iter_mut().zip(&mut self.s2r);
        for ((&y, (sl, sr)), (s2l, s2r)) in ys.iter().zip(sums).zip(squares) {
            imp.add_left(y);
            (*sl, *sr, *s2l, *s2r) = (imp.sl, imp.sr, imp.s2l, imp.s2r);
        }
        self.bound.resize(ys.len(), 0.0);
        bound_stretch(self, imp.y_all, recip);
    }

    /// The impurity `Impurity.incremental` gives at the stretch's `j`th candidate.
    pub(super) fn impurity_at(&self, imp: &Impurity, j: usize) -> f64 {
        let mut at = imp.clone();
        at.nl = (self.first_nl + j) as f64;
        at.nr = at.n - at.nl;
        at.sl = self.sl[j];
        at.sr = self.sr[j];
        at.s2l = self.s2l[j];
        at.s2r = self.s2r[j];
        at.update();
        at.impurity
    }
}

fn bound_stretch(s: &mut Stretch, y_all: f64, recip: &Reciprocals) {
    let m = s.bound.len();
    let lo = s.first_nl;
    let hi = lo + m;
    if lo == 0 || hi > recip.n {
        // A side would be empty: `update` gives 0 there; no bound is formed.
        s.bound.iter_mut().for_each(|b| *b = f64::NAN);
        return;
    }
    let lanes = Lanes {
        y_all,
        n: recip.counts[recip.n],
        inv_n: recip.inv_n,
        sl: &s.sl[..m],
        sr: &s.sr[..m],
        s2l: &s.s2l[..m],
        s2r: &s.s2r[..m],
        counts: &recip.counts[lo..hi],
        inv_l: &recip.inv_sq[lo..hi],
        inv_r: &recip.inv_sq_rest[lo..hi],
    };
    let out = &mut s.bound[..m];
    // Candidates bounded four at a time; the rest (all of them without AVX2) one by one.
    #[cfg(target_arch = "x86_64")]
    let done = if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, the one requirement of `bound_avx2`.
        unsafe { bound_avx2(&lanes, out) }
    } else {
        0
    };
    #[cfg(not(target_arch = "x86_64"))]
    let done = 0;
    for (j, b) in out.iter_mut().enumerate().skip(done) {
        *b = lanes.bound(j);
    }
}

/// A stretch's sums and the node's reciprocals, all of the stretch's length.
struct Lanes<'a> {
    y_all: f64,
    n: f64,
    inv_n: f64,
    sl: &'a [f64],
    sr: &'a [f64],
    s2l: &'a [f64],
    s2r: &'a [f64],
    counts: &'a [f64],
    inv_l: &'a [f64],
    inv_r: &'a [f64],
}

impl Lanes<'_> {
    /// An upper bound on the impurity `Impurity.update` would set at candidate `j`, without
    /// `pow` or a division: the same expression on lower bounds of its parts. The two
    /// fractions and variances are formed with the reciprocals instead of divisions and
    /// lowered by 1e-15 of themselves; the roots are bounded by [`root_lane`]; IEEE
    /// operations are monotone in their operands and both terms are subtracted. Where a
    /// root cannot be bounded the bound is NaN, which no threshold test passes.
    fn bound(&self, j: usize) -> f64 {
        let table = root_table();
        let nl = self.counts[j];
        let nr = self.n - nl;
        let (sl, sr) = (self.sl[j], self.sr[j]);
        let vl = ((nl * self.s2l[j] - sl * sl) * self.inv_l[j]).abs() * LOWER;
        let vr = ((nr * self.s2r[j] - sr * sr) * self.inv_r[j]).abs() * LOWER;
        let (pl, pr) = (root_lane(vl, table), root_lane(vr, table));
        let tl = nl * self.inv_n * LOWER;
        let tr = nr * self.inv_n * LOWER;
        self.y_all - tl * pl - tr * pr
    }
}

/// [`Lanes::bound`] four candidates at a time, the same operations in the same order (so
/// the same bits); returns how many candidates it bounded (a multiple of four).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn bound_avx2(l: &Lanes, out: &mut [f64]) -> usize {
    use std::arch::x86_64::*;
    let table = root_table();
    let m = out.len();
    let (lower, inv_n, n, y_all) = (
        _mm256_set1_pd(LOWER),
        _mm256_set1_pd(l.inv_n),
        _mm256_set1_pd(l.n),
        _mm256_set1_pd(l.y_all),
    );
    let sign = _mm256_set1_pd(-0.0);
    let mut j = 0;
    while j + 4 <= m {
        // SAFETY: every slice of `l` and `out` has m >= j + 4 entries.
        let load = |v: &[f64]| unsafe { _mm256_loadu_pd(v.as_ptr().add(j)) };
        let nl = load(l.counts);
        let nr = _mm256_sub_pd(n, nl);
        let (sl, sr) = (load(l.sl), load(l.sr));
        let dl = _mm256_sub_pd(_mm256_mul_pd(nl, load(l.s2l)), _mm256_mul_pd(sl, sl));
        let dr = _mm256_sub_pd(_mm256_mul_pd(nr, load(l.s2r)), _mm256_mul_pd(sr, sr));
        let vl = _mm256_mul_pd(
            _mm256_andnot_pd(sign, _mm256_mul_pd(dl, load(l.inv_l))),
            lower,
        );
        let vr = _mm256_mul_pd(
            _mm256_andnot_pd(sign, _mm256_mul_pd(dr, load(l.inv_r))),
            lower,
        );
        let (pl, pr) = (root4(vl, table), root4(vr, table));
        let tl = _mm256_mul_pd(_mm256_mul_pd(nl, inv_n), lower);
        let tr = _mm256_mul_pd(_mm256_mul_pd(nr, inv_n), lower);
        let b = _mm256_sub_pd(
            _mm256_sub_pd(y_all, _mm256_mul_pd(tl, pl)),
            _mm256_mul_pd(tr, pr),
        );
        // SAFETY: as above.
        unsafe { _mm256_storeu_pd(out.as_mut_ptr().add(j), b) };
        j += 4;
    }
    j
}

#[cfg(test)]
mod tests {
    use super::super::m5p_impurity::FifthRoots;
    use super::*;

    #[test]
    fn stretch_bounds_are_above_the_impurities_it_reproduces() {
        let mut rng = crate::rng::JavaRandom::new(9);
        let y: Vec<f64> = (0..60).map(|_| rng.next_double() * 10.0).collect();
        let recip = Reciprocals::new(y.len());
        let mut sequential = Impurity::new(5, &y, &mut FifthRoots::default());
        let mut imp = sequential.clone();
        let mut stretch = Stretch::default();
        // Two stretches of candidates 6..30 and 30..55, as the split search walks them.
        for (a, b) in [(6, 30), (30, 55)] {
            stretch.advance(&mut imp, &y[a..b], &recip);
            for (j, &v) in y[a..b].iter().enumerate() {
                sequential.add_left(v);
                sequential.update();
                let bound = stretch.bound[j];
                let got = stretch.impurity_at(&imp, j);
                assert_eq!(
                    got.to_bits(),
                    sequential.impurity.to_bits(),
                    "candidate {}",
                    a + j
                );
                assert!(bound >= got, "{bound} < {got}");
                assert!(bound - got < 1e-3 * (1.0 + got.abs()));
            }
        }
    }

    #[test]
    fn vector_bounds_are_the_scalar_bounds() {
        let mut rng = crate::rng::JavaRandom::new(5);
        let n = 50;
        let recip = Reciprocals::new(n);
        let mut stretch = Stretch {
            first_nl: 3,
            ..Stretch::default()
        };
        let specials = [
            0.0,
            -0.0,
            f64::MIN_POSITIVE / 8.0,
            f64::NAN,
            f64::INFINITY,
            1e300,
        ];
        for j in 0..37 {
            let mut v = [0.0; 4];
            for x in &mut v {
                *x = (rng.next_double() - 0.3) * 10f64.powi((rng.next_double() * 8.0) as i32);
            }
            if j % 5 == 4 {
                v[j % 4] = specials[j % specials.len()];
            }
            stretch.sl.push(v[0]);
            stretch.sr.push(v[1]);
            stretch.s2l.push(v[2]);
            stretch.s2r.push(v[3].abs());
        }
        stretch.bound.resize(37, 0.0);
        bound_stretch(&mut stretch, 2.5, &recip);
        let lanes = Lanes {
            y_all: 2.5,
            n: n as f64,
            inv_n: recip.inv_n,
            sl: &stretch.sl,
            sr: &stretch.sr,
            s2l: &stretch.s2l,
            s2r: &stretch.s2r,
            counts: &recip.counts[3..40],
            inv_l: &recip.inv_sq[3..40],
            inv_r: &recip.inv_sq_rest[3..40],
        };
        let mut nan = 0;
        for (j, &b) in stretch.bound.iter().enumerate() {
            let want = lanes.bound(j);
            nan += usize::from(want.is_nan());
            assert!(
                b.to_bits() == want.to_bits() || (b.is_nan() && want.is_nan()),
                "{j}"
            );
        }
        assert!(nan > 0, "the special values reach the NaN lanes");
    }
}
