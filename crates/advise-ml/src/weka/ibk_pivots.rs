//! Pivots for `ibk`'s nearest-row scan, after LAESA (Micó, Oncina and Vidal, "A new version of
//! the nearest-neighbour approximating and eliminating search algorithm (AESA) with linear
//! preprocessing time and memory requirements", Pattern Recognition Letters 15, 1994): a few
//! training rows, chosen far apart, and every training row's distance to each. For a target,
//! the triangle inequality gives each row a lower bound on its distance, `|d(t, p) - d(x, p)|`
//! for every pivot p, at the cost of a subtraction; a row whose bound exceeds a proven upper
//! bound of the least distance cannot be among the nearest and is not scanned.
//!
//! Weka's distance on complete numeric rows (no missing value, no nominal column) is the
//! Euclidean distance of the scaled rows, a metric, so the bounds hold for the true
//! distances; every computed distance is within a relative `(width + 8) * 4 * eps` of the
//! true one (a sum of `width` non-negative terms, each rounded once, its square root rounded
//! once), and the bounds are lowered by that much on each side, and then as much again for
//! Weka's own rounding of the distance it compares, so that a row is passed over only where
//! Weka's computed distance is larger than the cutoff too.

use std::cell::Cell;

use super::ibk_scan::Scaled;

/// Targets a thread scans with pivots before it judges whether they pay.
const TRIAL: usize = 16;

/// One thread's use of the pivots over a run of targets: after `TRIAL` targets, the pivots
/// are dropped for the rest of the run unless at least a quarter of the rows' bounds were
/// above the least distance found (rows the scan could pass over). On rows unlike the
/// training rows in many dimensions the bounds are weak, and then cost about 4% of a scan.
pub struct PivotUse<'a> {
    pivots: Option<&'a Pivots>,
    seen: Cell<usize>,
    prunable: Cell<usize>,
}

impl<'a> PivotUse<'a> {
    pub fn new(pivots: Option<&'a Pivots>) -> Self {
        PivotUse {
            pivots,
            seen: Cell::new(0),
            prunable: Cell::new(0),
        }
    }

    /// The pivots, while they are worth using.
    pub fn active(&self) -> Option<&'a Pivots> {
        let p = self.pivots?;
        let seen = self.seen.get();
        if seen >= TRIAL && 4 * self.prunable.get() < seen * p.dist.first().map_or(0, Vec::len) {
            return None;
        }
        Some(p)
    }

    /// Counts a target's rows whose bound exceeded `least`, the least squared distance found.
    pub fn record(&self, bounds: &[f64], least: f64) {
        if self.seen.get() < TRIAL {
            self.seen.set(self.seen.get() + 1);
            let over = bounds.iter().filter(|&&b| b > least).count();
            self.prunable.set(self.prunable.get() + over);
        }
    }
}

/// Pivots of one scaled state: their rows and every training row's distance to each.
pub struct Pivots {
    rows: Vec<usize>,
    /// `dist[p][i]`: the distance of training row i to pivot p.
    dist: Vec<Vec<f64>>,
    /// The relative error allowed each computed distance.
    rel: f64,
}

/// The Euclidean distance of two scaled rows, its squares summed in eight lanes (the error
/// bound holds for any order of the additions).
fn distance(a: &[f64], b: &[f64]) -> f64 {
    let mut lanes = [0.0; 8];
    let mut chunks_a = a.chunks_exact(8);
    let mut chunks_b = b.chunks_exact(8);
    for (ca, cb) in (&mut chunks_a).zip(&mut chunks_b) {
        for ((l, &u), &v) in lanes.iter_mut().zip(ca).zip(cb) {
            let diff = u - v;
            *l += diff * diff;
        }
    }
    for ((l, &u), &v) in lanes
        .iter_mut()
        .zip(chunks_a.remainder())
        .zip(chunks_b.remainder())
    {
        let diff = u - v;
        *l += diff * diff;
    }
    lanes.iter().sum::<f64>().sqrt()
}

impl Pivots {
    /// `count` pivots by LAESA's rule (the first row, then each time the row farthest from
    /// the pivots so far), or `None` where the bounds do not hold: a row with a missing value,
    /// fewer rows than twice the pivots, or a distance that is not finite.
    pub fn new(scaled: &Scaled, count: usize) -> Option<Pivots> {
        let n = scaled.complete.len();
        if count == 0 || n < 2 * count || scaled.complete.iter().any(|&c| !c) {
            return None;
        }
        let mut rows = vec![0];
        let mut dist: Vec<Vec<f64>> = Vec::with_capacity(count);
        let mut nearest = vec![f64::INFINITY; n];
        loop {
            let p = *rows.last()?;
            let d: Vec<f64> = (0..n)
                .map(|i| distance(scaled.row(p), scaled.row(i)))
                .collect();
            if d.iter().any(|v| !v.is_finite()) {
                return None;
            }
            for (m, &v) in nearest.iter_mut().zip(&d) {
                *m = m.min(v);
            }
            dist.push(d);
            if rows.len() == count {
                break;
            }
            let far = (0..n).max_by(|&a, &b| nearest[a].total_cmp(&nearest[b]).then(b.cmp(&a)))?;
            if nearest[far] == 0.0 {
                break;
            }
            rows.push(far);
        }
        Some(Pivots {
            rows,
            dist,
            rel: (scaled.width as f64 + 8.0) * 4.0 * f64::EPSILON,
        })
    }

    /// Lower bounds of the squared distances (Weka's sums) from `target` to every training
    /// row, into `out`; zero where nothing is proven. `target` is complete and scaled.
    pub fn lower_bounds(&self, scaled: &Scaled, target: &[f64], out: &mut Vec<f64>) {
        let n = scaled.complete.len();
        out.clear();
        out.resize(n, 0.0);
        let rel = self.rel;
        for (&p, dp) in self.rows.iter().zip(&self.dist) {
            let dt = distance(target, scaled.row(p));
            if !dt.is_finite() {
                out.iter_mut().for_each(|v| *v = 0.0);
                return;
            }
            for (b, &dx) in out.iter_mut().zip(dp) {
                *b = b.max((dt - dx).abs() - 2.0 * rel * (dt + dx));
            }
        }
        // From a distance to Weka's squared sum, allowing the rounding of both.
        for b in out.iter_mut() {
            *b = *b * *b * (1.0 - 4.0 * rel);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::JavaRandom;
    use crate::weka::ibk_scan::sequential;

    #[test]
    fn bounds_never_exceed_wekas_sums() {
        let mut rng = JavaRandom::new(17);
        for (n, w) in [(12, 3), (40, 25), (120, 250)] {
            let mut x: Vec<Vec<f64>> = (0..n)
                .map(|_| (0..w).map(|_| rng.next_double()).collect())
                .collect();
            // Duplicates and near duplicates.
            x[5] = x[2].clone();
            x[7] = x[2].iter().map(|v| v + 1e-12).collect();
            let nominal = vec![false; w];
            let ranges = super::super::ibk_scan::initial_ranges(&x, w);
            let scaled = Scaled::new(&x, &nominal, ranges);
            let pivots = Pivots::new(&scaled, 4).expect("pivots");
            let mut bounds = Vec::new();
            for t in 0..n + 5 {
                let target: Vec<f64> = if t < n {
                    scaled.row(t).to_vec()
                } else {
                    (0..w).map(|_| rng.next_double() * 1.4 - 0.2).collect()
                };
                pivots.lower_bounds(&scaled, &target, &mut bounds);
                for (i, &b) in bounds.iter().enumerate() {
                    let weka = sequential(&target, scaled.row(i), f64::INFINITY);
                    assert!(b <= weka, "row {i} target {t}: bound {b} above {weka}");
                }
            }
        }
    }
}
