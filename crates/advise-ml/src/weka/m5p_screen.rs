//! A cheap test that rules a whole attribute out of an M5P node's split search: an upper bound
//! on every candidate's impurity formed from sums in any order, with a rigorous allowance for
//! how far Weka's own sums (in its order) and these can differ. Where no candidate can exceed
//! the node's floor, the attribute's exact scan (two passes of running sums in Weka's order)
//! and, for an attribute with ties, Weka's quicksort are not needed: the node keeps its split
//! whatever they would give. In a node of M5P on 250 counters most attributes end so.
//!
//! The bound, for a candidate with `m` rows on a side of sums `s` and `q` (of the squares):
//! Weka forms `d = m q - s^2` and the variance `|d| / m^2`. The exact `m q* - s*^2` of the
//! real sums is at least the same expression on any sums computed here less a bound on the
//! error of both (`NodeSums::slack`), so Weka's variance is at least that lower value over `m^2`; the
//! fifth roots and fractions are then lowered as in m5p_bound.rs, and the node's own root is
//! raised, so the result is never below the impurity Weka computes.

use super::m5p_bound::LOWER;
use super::m5p_root::{root_lane, root_table, TABLE_LEN};
use super::util::eq_small;

/// Attributes screened side by side, one per lane.
pub(super) const LANES: usize = 4;

/// The node's sums and the allowances on them; absent where they are not finite.
#[derive(Clone, Copy)]
struct NodeSums {
    total: f64,
    total_sq: f64,
    /// Twice the bound on the error of `m q - s^2` (Weka's sums and these, for any side).
    slack: f64,
    /// At least the fifth root of the class variance Weka forms in any attribute's order.
    y_all: f64,
}

impl NodeSums {
    fn of(y: &[f64], order: &[u32]) -> Option<NodeSums> {
        let (mut total, mut total_sq, mut abs) = (0.0f64, 0.0f64, 0.0f64);
        for &r in order {
            let v = y[r as usize];
            total += v;
            total_sq += v * v;
            abs += v.abs();
        }
        let n = order.len() as f64;
        let u = f64::EPSILON / 2.0;
        // Sums of at most n terms (plus at most n subtractions, as Weka's right side is kept)
        // are within 2n u of the sum of the terms' magnitudes; 5 (n + 2) u covers them, the
        // squares' own rounding and the rounding of the sums of magnitudes taken here.
        let grow = 1.0 + 5.0 * (n + 2.0) * u;
        let (a, b) = (abs * grow, total_sq * grow);
        let (d1, d2) = (5.0 * (n + 2.0) * u * a, 5.0 * (n + 2.0) * u * b);
        // |computed (m q - s^2) - exact| for m <= n, |s| <= a + d1, |q| <= b + d2.
        let err_d = 2.01 * u * (n * (b + d2) + (a + d1) * (a + d1)) + n * d2 + (2.0 * a + d1) * d1;
        // Weka's node variance, (q - s^2 / n) / n, against its exact value.
        let err_v =
            3.01 * u * (b + d2) + d2 + ((2.0 * a + d1) * d1 + 3.01 * u * (a + d1) * (a + d1)) / n;
        let exact_sse_up = ((n * total_sq - total * total) + err_d) / n;
        let var_up = ((exact_sse_up + err_v) / n).max(0.0) * (1.0 + 1e-14);
        let y_all = var_up.powf(0.2) * (1.0 + 1e-14);
        let slack = 2.0 * err_d * (1.0 + 1e-14);
        [total, total_sq, slack, y_all]
            .iter()
            .all(|v| v.is_finite())
            .then_some(NodeSums {
                total,
                total_sq,
                slack,
                y_all,
            })
    }
}

/// An attribute as the screen reads it: the node's rows in ascending order of it, its column
/// (values by row), and whether two of the node's values are tied.
pub(super) type Column<'a> = (&'a [u32], &'a [f64], bool);

/// One node's screen: its candidates (entry `c - first` for the candidate with rows `0..=c`
/// on the left), and scratch for one batch of attributes, laid out
/// lane by lane (entry `LANES * c + k` is lane k's).
pub(super) struct Screen {
    /// Rows left of the first candidate (Weka's `len`).
    first: usize,
    /// One past the last candidate.
    end: usize,
    cands: Vec<Candidate>,
    sums: Option<NodeSums>,
    ys: Vec<f64>,
    /// All bits set where Weka's scan passes a candidate by (its two values are equal).
    gate: Vec<f64>,
    /// Whether `gate` has a bit set.
    gate_set: bool,
}

/// A candidate's rows on each side, 1/rows^2 of each and the fractions of the node's rows,
/// lowered as in m5p_bound.rs.
#[derive(Clone, Copy)]
struct Candidate {
    nl: f64,
    nr: f64,
    inv_l: f64,
    inv_r: f64,
    tl: f64,
    tr: f64,
}

fn all_ones() -> f64 {
    f64::from_bits(u64::MAX)
}

impl Screen {
    /// The screen of a node whose rows are `order` (in any order); `None` where the node has
    /// no candidate to screen (fewer than four rows, or none between the ends Weka keeps).
    pub(super) fn new(y: &[f64], order: &[u32]) -> Option<Screen> {
        let n = order.len();
        if n < 4 {
            return None;
        }
        let first = if n < 5 { 1 } else { n / 5 };
        let end = n - first - 1;
        if end <= first {
            return None;
        }
        let inv_n = 1.0 / n as f64;
        let cands = (first..end)
            .map(|c| {
                // Candidate c has rows 0..=c on the left.
                let (nl, nr) = ((c + 1) as f64, (n - c - 1) as f64);
                Candidate {
                    nl,
                    nr,
                    inv_l: 1.0 / (nl * nl),
                    inv_r: 1.0 / (nr * nr),
                    tl: nl * inv_n * LOWER,
                    tr: nr * inv_n * LOWER,
                }
            })
            .collect();
        Some(Screen {
            first,
            end,
            cands,
            sums: NodeSums::of(y, order),
            ys: vec![0.0; LANES * end],
            gate: vec![0.0; LANES * (end - first)],
            gate_set: false,
        })
    }

    /// For each of up to [`LANES`] attributes (see [`Column`]), whether no
    /// candidate split of it can have an impurity above `floor` as Weka computes it (bit k
    /// for the k-th attribute). Where there are ties only the candidates Weka's scan
    /// evaluates count, those between two values that differ; elsewhere every candidate does
    /// (a few more than Weka's, which also passes values within 1e-10 of each other by).
    pub(super) fn rules_out(&mut self, y: &[f64], attrs: &[Column], floor: f64) -> u32 {
        self.rules_out_with(y, attrs, floor, true)
    }

    /// [`Screen::rules_out`], with the vector walk where `vector` and the CPU has AVX2.
    fn rules_out_with(&mut self, y: &[f64], attrs: &[Column], floor: f64, vector: bool) -> u32 {
        let Some(sums) = self.sums else {
            return 0;
        };
        let Some(&last) = attrs.last() else {
            return 0;
        };
        // A short batch repeats its last attribute; those lanes' answers are dropped.
        let lanes: [Column; LANES] = std::array::from_fn(|k| attrs.get(k).copied().unwrap_or(last));
        let end = self.end;
        let orders: [&[u32]; LANES] = std::array::from_fn(|k| &lanes[k].0[..end]);
        for (c, slot) in self.ys[..LANES * end].chunks_exact_mut(LANES).enumerate() {
            for (v, order) in slot.iter_mut().zip(&orders) {
                *v = y[order[c] as usize];
            }
        }
        let tied = lanes.iter().any(|l| l.2);
        if tied || self.gate_set {
            for (k, &(order, col, ties)) in lanes.iter().enumerate() {
                let gates = self.gate[k..].iter_mut().step_by(LANES);
                for (g, w) in gates.zip(order[self.first..=end].windows(2)) {
                    *g = if ties && eq_small(col[w[1] as usize], col[w[0] as usize]) {
                        all_ones()
                    } else {
                        0.0
                    };
                }
            }
            self.gate_set = tied;
        }
        let walk = Walk {
            sums,
            floor,
            screen: self,
        };
        #[cfg(target_arch = "x86_64")]
        let ruled = if vector && std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2, the one requirement of `walk_avx2`.
            unsafe { walk_avx2(&walk) }
        } else {
            walk.walk()
        };
        #[cfg(not(target_arch = "x86_64"))]
        let ruled = {
            let _ = vector;
            walk.walk()
        };
        ruled & ((1 << attrs.len()) - 1)
    }
}

/// One batch's lanes over a node's tables.
struct Walk<'a> {
    sums: NodeSums,
    floor: f64,
    screen: &'a Screen,
}

impl Walk<'_> {
    /// The bound of candidate entry `i` for a side's sums `s` and `q`.
    fn bound(&self, i: usize, s: f64, q: f64, table: &[f64; TABLE_LEN]) -> f64 {
        let NodeSums {
            total,
            total_sq,
            slack,
            y_all,
        } = self.sums;
        let c = &self.screen.cands[i];
        let (sr, qr) = (total - s, total_sq - q);
        let dl = (c.nl * q - s * s) - slack;
        let dr = (c.nr * qr - sr * sr) - slack;
        let vl = dl.max(0.0) * c.inv_l * LOWER;
        let vr = dr.max(0.0) * c.inv_r * LOWER;
        y_all - c.tl * root_lane(vl, table) - c.tr * root_lane(vr, table)
    }

    /// The lanes, one value at a time: bit k set where every candidate of lane k is passed
    /// by or bounded by the floor.
    fn walk(&self) -> u32 {
        let table = root_table();
        let sc = self.screen;
        let (mut s, mut q) = ([0.0; LANES], [0.0; LANES]);
        let mut ruled = (1u32 << LANES) - 1;
        for c in 0..sc.end {
            for k in 0..LANES {
                let y = sc.ys[LANES * c + k];
                s[k] += y;
                q[k] += y * y;
                if c < sc.first {
                    continue;
                }
                let i = c - sc.first;
                let passed = sc.gate[LANES * i + k].to_bits() != 0;
                let bounded = self.bound(i, s[k], q[k], table) <= self.floor;
                if !passed && !bounded {
                    ruled &= !(1 << k);
                }
            }
            if ruled == 0 {
                break;
            }
        }
        ruled
    }
}

/// [`Walk::walk`] with the four lanes in one vector (the bounds may differ from the scalar
/// ones in the last bits: each is an upper bound on its own).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn walk_avx2(w: &Walk) -> u32 {
    use super::m5p_root::root4_nonnegative as root4;
    use std::arch::x86_64::*;
    let table = root_table();
    let sc = w.screen;
    let NodeSums {
        total,
        total_sq,
        slack,
        y_all,
    } = w.sums;
    let (total, total_sq, slack, y_all) = (
        _mm256_set1_pd(total),
        _mm256_set1_pd(total_sq),
        _mm256_set1_pd(slack),
        _mm256_set1_pd(y_all),
    );
    let (lower, floor, zero) = (
        _mm256_set1_pd(LOWER),
        _mm256_set1_pd(w.floor),
        _mm256_setzero_pd(),
    );
    let (mut s, mut q) = (zero, zero);
    // SAFETY (every load): `ys` has LANES entries for each c < end.
    let ys = |c: usize| unsafe { _mm256_loadu_pd(sc.ys.as_ptr().add(LANES * c)) };
    for c in 0..sc.first {
        let y = ys(c);
        s = _mm256_add_pd(s, y);
        q = _mm256_add_pd(q, _mm256_mul_pd(y, y));
    }
    let mut ruled = _mm256_castsi256_pd(_mm256_set1_epi64x(-1));
    for (i, cand) in sc.cands.iter().enumerate() {
        let y = ys(sc.first + i);
        s = _mm256_add_pd(s, y);
        q = _mm256_add_pd(q, _mm256_mul_pd(y, y));
        let (sr, qr) = (_mm256_sub_pd(total, s), _mm256_sub_pd(total_sq, q));
        let nl = _mm256_set1_pd(cand.nl);
        let nr = _mm256_set1_pd(cand.nr);
        let dl = _mm256_sub_pd(
            _mm256_sub_pd(_mm256_mul_pd(nl, q), _mm256_mul_pd(s, s)),
            slack,
        );
        let dr = _mm256_sub_pd(
            _mm256_sub_pd(_mm256_mul_pd(nr, qr), _mm256_mul_pd(sr, sr)),
            slack,
        );
        // max(d, 0) is 0 where d is NaN, as `f64::max` gives.
        let vl = _mm256_mul_pd(
            _mm256_mul_pd(_mm256_max_pd(dl, zero), _mm256_set1_pd(cand.inv_l)),
            lower,
        );
        let vr = _mm256_mul_pd(
            _mm256_mul_pd(_mm256_max_pd(dr, zero), _mm256_set1_pd(cand.inv_r)),
            lower,
        );
        let b = _mm256_sub_pd(
            _mm256_sub_pd(
                y_all,
                _mm256_mul_pd(_mm256_set1_pd(cand.tl), root4(vl, table)),
            ),
            _mm256_mul_pd(_mm256_set1_pd(cand.tr), root4(vr, table)),
        );
        // SAFETY: `gate` has LANES entries for each candidate.
        let passed = unsafe { _mm256_loadu_pd(sc.gate.as_ptr().add(LANES * i)) };
        let ok = _mm256_or_pd(_mm256_cmp_pd::<_CMP_LE_OQ>(b, floor), passed);
        ruled = _mm256_and_pd(ruled, ok);
        if _mm256_movemask_pd(ruled) == 0 {
            return 0;
        }
    }
    _mm256_movemask_pd(ruled) as u32
}

#[cfg(test)]
mod tests;
