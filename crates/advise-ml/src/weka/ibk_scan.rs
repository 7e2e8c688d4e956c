//! The training rows of `ibk` scaled by the current ranges, in one flat matrix, and the
//! distance Weka's `EuclideanDistance` computes between two such rows.
//!
//! Weka scales both rows inside every distance; scaling each value once per range change gives
//! the same numbers, since the scaling of a value depends only on its column's range.
//!
//! Weka adds the squared differences one column after another and stops once the sum exceeds
//! the cutoff (the k-th smallest distance so far); a row is then not a neighbour. Whether the
//! full sequential sum exceeds the cutoff decides that (the partial sums of non-negative terms
//! never decrease), so a row can be rejected on a cheaper sum with a proven error bound: the
//! same squared differences added in 8 interleaved lanes (vectorized) differ from the
//! sequential sum of m terms by at most 2(m-1)u of their exact sum (Higham, "Accuracy and
//! Stability of Numerical Algorithms", 2nd ed., section 4.2; u = 2^-53). Rows whose lane sum
//! exceeds the cutoff by more than that margin are rejected; every other row gets Weka's
//! sequential sum, so each distance that is kept, compared or tied is Weka's to the last bit.

/// Relative margin above the cutoff before a lane sum rejects a row: more than
/// 2(m-1)u / (1 - (m-1)u) for any m below 10^6 columns.
const MARGIN: f64 = 1e-9;

/// Rows scaled by `ranges`, `width` values each, with the rows that hold no missing value.
pub struct Scaled {
    pub ranges: Vec<[f64; 3]>,
    pub width: usize,
    pub data: Vec<f64>,
    /// No missing value in the row: the fast distance applies (with no nominal column).
    pub complete: Vec<bool>,
    /// The same values rounded to `f32`, for a first test at half the memory traffic.
    pub low: Vec<f32>,
    /// Complete, and every scaled value within [-LIMIT, LIMIT]: the `f32` test applies.
    pub small: Vec<bool>,
}

impl Scaled {
    pub fn new(x: &[Vec<f64>], nominal: &[bool], ranges: Vec<[f64; 3]>) -> Self {
        let width = nominal.len();
        let mut s = Scaled {
            ranges,
            width,
            data: Vec::with_capacity(x.len() * width),
            complete: x.iter().map(|r| !r.iter().any(|v| v.is_nan())).collect(),
            low: Vec::new(),
            small: Vec::new(),
        };
        for r in x {
            let row = s.scale(nominal, r);
            s.data.extend_from_slice(&row);
        }
        s.low = s.data.iter().map(|&v| v as f32).collect();
        s.small = (0..x.len())
            .map(|i| s.complete[i] && fits(s.row(i)))
            .collect();
        s
    }

    pub fn row_low(&self, i: usize) -> &[f32] {
        &self.low[i * self.width..(i + 1) * self.width]
    }

    pub fn row(&self, i: usize) -> &[f64] {
        &self.data[i * self.width..(i + 1) * self.width]
    }

    pub fn scale(&self, nominal: &[bool], row: &[f64]) -> Vec<f64> {
        row.iter()
            .enumerate()
            .map(|(j, &v)| {
                if nominal[j] || v.is_nan() {
                    v
                } else {
                    norm(v, &self.ranges[j])
                }
            })
            .collect()
    }

    /// Whether [`Scaled::widen`] would change a range for this row.
    pub fn widens(&self, row: &[f64]) -> bool {
        row.iter()
            .zip(&self.ranges)
            .any(|(&v, r)| !v.is_nan() && (v < r[0] || v > r[1]))
    }

    /// `NormalizableDistance.updateRanges(Instance, double[][])`, as used for test rows.
    pub fn widen(&mut self, x: &[Vec<f64>], nominal: &[bool], row: &[f64]) {
        for (j, &v) in row.iter().enumerate() {
            let r = &mut self.ranges[j];
            if v.is_nan() {
                continue;
            }
            let changed = if v < r[0] {
                r[0] = v;
                r[2] = r[1] - r[0];
                true
            } else if v > r[1] {
                r[1] = v;
                r[2] = r[1] - r[0];
                true
            } else {
                false
            };
            if changed && !nominal[j] {
                let r = self.ranges[j];
                for (i, raw) in x.iter().enumerate() {
                    if !raw[j].is_nan() {
                        let v = norm(raw[j], &r);
                        self.data[i * self.width + j] = v;
                        self.low[i * self.width + j] = v as f32;
                        if v.abs() > LIMIT {
                            self.small[i] = false;
                        }
                    }
                }
            }
        }
    }
}

/// Scaled values lie in [0, 1]; the `f32` test's error bound assumes at most this magnitude.
const LIMIT: f64 = 1.0 + 1e-6;

/// Every value of a complete row within [-LIMIT, LIMIT].
pub fn fits(row: &[f64]) -> bool {
    row.iter().all(|v| v.abs() <= LIMIT)
}

crate::avx2_dispatch! {
    /// Whether Weka's sequential `f64` distance certainly exceeds `cutoff`, judged on the rows
    /// rounded to `f32` (values within LIMIT). Each `f32` squared difference is within
    /// 5 * 2^-22 (< 1.3e-6) of the exact one (rounding each value: 2^-24; the difference: 2^-24
    /// of at most 2; the square: 2^-24 of at most 4), and an `f32` sum of m terms is within
    /// m * 2^-24 / (1 - m * 2^-24) of their exact sum (Higham, section 4.2). The row is rejected
    /// only when the `f32` sum, shrunk by both bounds, still exceeds the cutoff plus the `f64`
    /// margin; any row not rejected gets Weka's sequential sum.
    ///
    /// Compiled for AVX2 where the CPU has it (two 8-lane vectors where SSE takes four).
    pub fn rejects_low(a: &[f32], b: &[f32], cutoff: f64) -> bool
        = rejects_low_body, avx2 rejects_low_avx2;
}

/// Whether an `f32` sum `s` of `m` squared differences of `f32` copies (values within LIMIT)
/// shows that Weka's sequential `f64` distance exceeds `cutoff` ([`rejects_low`]'s test).
pub fn exceeds_low(s: f32, m: usize, cutoff: f64) -> bool {
    low_bounds(m, cutoff).is_some_and(|(bound, shrink)| f64::from(s) * shrink > bound)
}

/// The cutoff an `f32` sum must exceed once shrunk, and the shrink factor, for `m` terms;
/// `None` when no `f32` sum can decide (an infinite cutoff, or too many terms).
#[inline(always)]
fn low_bounds(m: usize, cutoff: f64) -> Option<(f64, f64)> {
    if !cutoff.is_finite() {
        return None;
    }
    let rel = f32_sum_error(m)?;
    let bound = cutoff * (1.0 + MARGIN) + m as f64 * 1.3e-6;
    Some((bound, 1.0 / (1.0 + rel / (1.0 - rel))))
}

/// `m * 2^-24`, the relative error bound of an `f32` sum of `m` terms before its
/// `1 / (1 - ...)` factor (Higham, section 4.2); `None` at 0.5 or more, where the bounds of
/// this file no longer hold.
#[inline(always)]
pub fn f32_sum_error(m: usize) -> Option<f64> {
    let rel = m as f64 * 2f64.powi(-24);
    (rel < 0.5).then_some(rel)
}

/// An upper bound of Weka's sequential `f64` distance between two rows when the squared
/// differences of their `f32` copies (values within LIMIT), `m` terms, add up to `s` in some
/// order; `None` when `m` is too large for the bound.
pub fn low_upper(s: f32, m: usize) -> Option<f64> {
    let rel = f32_sum_error(m)?;
    // The f32 sum's error (Higham, section 4.2), each f32 square's, Weka's f64 sum's, and
    // 1e-12 for the rounding of this expression itself.
    let exact = f64::from(s) / (1.0 - rel / (1.0 - rel)) + m as f64 * 1.3e-6;
    Some(exact * (1.0 + MARGIN) * (1.0 + 1e-12))
}

crate::avx2_dispatch! {
    /// The `f32` sum of squared differences, or `None` once it shows that Weka's distance exceeds
    /// `cutoff` ([`rejects_low`]'s test; with an infinite cutoff the whole sum is formed).
    pub fn low_distance(a: &[f32], b: &[f32], cutoff: f64) -> Option<f32>
        = low_distance_body, avx2 low_distance_avx2;
}

#[inline(always)]
fn rejects_low_body(a: &[f32], b: &[f32], cutoff: f64) -> bool {
    match low_bounds(a.len(), cutoff) {
        Some(bounds) => sum_within(a, b, bounds).is_none(),
        None => false,
    }
}

#[inline(always)]
fn low_distance_body(a: &[f32], b: &[f32], cutoff: f64) -> Option<f32> {
    sum_within(
        a,
        b,
        low_bounds(a.len(), cutoff).unwrap_or((f64::INFINITY, 1.0)),
    )
}

/// The `f32` sum of squared differences, or `None` once, shrunk, it exceeds the bound.
#[inline(always)]
fn sum_within(a: &[f32], b: &[f32], (bound, shrink): (f64, f64)) -> Option<f32> {
    let mut lanes = [0.0f32; 16];
    // Checked after every 128 values: on `bench models` (250 counters, 1920 rows) checks
    // every 32 or 64 values cost more than the rows they rejected early (0.091 and 0.070 s
    // against 0.044 s), and one check at the end more again (0.057 s).
    let mut ca = a.chunks_exact(128);
    let mut cb = b.chunks_exact(128);
    for (x, y) in (&mut ca).zip(&mut cb) {
        for (x16, y16) in x.chunks_exact(16).zip(y.chunks_exact(16)) {
            for l in 0..16 {
                let diff = x16[l] - y16[l];
                lanes[l] += diff * diff;
            }
        }
        let s: f32 = lanes.iter().sum();
        if f64::from(s) * shrink > bound {
            return None;
        }
    }
    // The rest in runs of 16 into the same lanes, then the last few one by one (the bounds
    // hold for any order of the additions).
    let mut ra = ca.remainder().chunks_exact(16);
    let mut rb = cb.remainder().chunks_exact(16);
    for (x16, y16) in (&mut ra).zip(&mut rb) {
        for l in 0..16 {
            let diff = x16[l] - y16[l];
            lanes[l] += diff * diff;
        }
    }
    let mut s: f32 = lanes.iter().sum();
    for (&u, &v) in ra.remainder().iter().zip(rb.remainder()) {
        let diff = u - v;
        s += diff * diff;
    }
    if f64::from(s) * shrink > bound {
        None
    } else {
        Some(s)
    }
}

/// Weka's squared distance between two complete numeric rows with its early exit: the
/// sequential sum, or infinity once it exceeds `cutoff`.
pub fn sequential(a: &[f64], b: &[f64], cutoff: f64) -> f64 {
    let mut d = 0.0;
    for (&u, &v) in a.iter().zip(b) {
        let diff = u - v;
        d += diff * diff;
        if d > cutoff {
            return f64::INFINITY;
        }
    }
    d
}

/// [`sequential`], after a vectorized lane sum has shown the row may be within the cutoff.
pub fn complete_distance(a: &[f64], b: &[f64], cutoff: f64) -> f64 {
    if cutoff.is_finite() {
        let bound = cutoff * (1.0 + MARGIN);
        let mut lanes = [0.0f64; 8];
        let mut ca = a.chunks_exact(64);
        let mut cb = b.chunks_exact(64);
        for (x, y) in (&mut ca).zip(&mut cb) {
            for (x8, y8) in x.chunks_exact(8).zip(y.chunks_exact(8)) {
                for l in 0..8 {
                    let diff = x8[l] - y8[l];
                    lanes[l] += diff * diff;
                }
            }
            let s: f64 = lanes.iter().sum();
            if s > bound && s.is_finite() {
                return f64::INFINITY;
            }
        }
        let mut s: f64 = lanes.iter().sum();
        for (&u, &v) in ca.remainder().iter().zip(cb.remainder()) {
            let diff = u - v;
            s += diff * diff;
        }
        if s > bound && s.is_finite() {
            return f64::INFINITY;
        }
    }
    sequential(a, b, cutoff)
}

/// Per feature: min, max and width of the training rows (Weka's `NormalizableDistance`
/// ranges before any test row widens them).
pub fn initial_ranges(x: &[Vec<f64>], width: usize) -> Vec<[f64; 3]> {
    let mut ranges = vec![[f64::INFINITY, f64::NEG_INFINITY, f64::INFINITY]; width];
    let Some(first) = x.first() else {
        return ranges;
    };
    for (r, &v) in ranges.iter_mut().zip(first) {
        if !v.is_nan() {
            *r = [v, v, 0.0];
        }
    }
    for row in &x[1..] {
        for (r, &v) in ranges.iter_mut().zip(row) {
            if v.is_nan() {
                continue;
            }
            if v < r[0] {
                r[0] = v;
                r[2] = r[1] - r[0];
                if v > r[1] {
                    r[1] = v;
                    r[2] = r[1] - r[0];
                }
            } else if v > r[1] {
                r[1] = v;
                r[2] = r[1] - r[0];
            }
        }
    }
    ranges
}

fn norm(x: f64, r: &[f64; 3]) -> f64 {
    if r[0].is_nan() || r[1] == r[0] {
        0.0
    } else {
        (x - r[0]) / r[2]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::JavaRandom;

    #[test]
    fn rejects_only_rows_weka_rejects() {
        let mut rng = JavaRandom::new(3);
        for width in [1, 7, 64, 250, 300] {
            for _ in 0..200 {
                let a: Vec<f64> = (0..width).map(|_| rng.next_double()).collect();
                let b: Vec<f64> = (0..width).map(|_| rng.next_double()).collect();
                let exact = sequential(&a, &b, f64::INFINITY);
                // Cutoffs at, just below and just above the exact distance.
                for cutoff in [
                    exact,
                    exact * (1.0 - 1e-15),
                    exact * (1.0 + 1e-15),
                    exact / 2.0,
                ] {
                    let want = sequential(&a, &b, cutoff);
                    let got = complete_distance(&a, &b, cutoff);
                    assert_eq!(
                        got.to_bits(),
                        want.to_bits(),
                        "width {width} cutoff {cutoff}"
                    );
                }
            }
        }
    }
}
