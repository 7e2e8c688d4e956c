//! `ibk` with one neighbour (Weka's default, `-K 1`): the same neighbours as Weka's heap scan,
//! with one exact distance per target where Weka's scan needs several.
//!
//! With k = 1, Weka's `LinearNNSearch` returns every training row at the least distance, in
//! scan order: the heap keeps the first row to reach the least distance and its tie list the
//! later ones (a strictly smaller distance clears the list; see `Heap` in ibk_heap.rs). No row
//! farther than the least distance changes that answer, so any cutoff at least the least
//! distance may stand in for Weka's running minimum. Weka forms the exact sequential `f64`
//! distance of every row that beats the minimum so far (about ln n rows per target when rows
//! come in no particular order), 250 dependent additions each on `bench models`. Here the
//! cutoff is the least proven upper bound of the `f32` sums (ibk_scan.rs's rounding bounds),
//! rows are rejected against it as before, and only the rows whose lower bound stays within
//! the final cutoff (the nearest row, and rows within the bounds' slack of it: about 1e-5 of
//! the distance) get Weka's exact distance; so every distance compared is Weka's to the bit.

use super::ibk_scan::{exceeds_low, f32_sum_error, low_distance, low_upper, sequential, Scaled};

/// A row that may be the nearest: its `f32` sum, or its exact distance (rows outside the
/// `f32` copy).
enum Candidate {
    Low(f32),
    Exact(f64),
}

/// The rows at the least distance from `target`, in scan order, with their distances (the
/// square root of Weka's squared sum), or `None` where this scan does not apply: the first
/// row scanned is not in the `f32` copy (so Weka's first distance might not be finite) or the
/// rows are too wide for the `f32` bounds. `low` is `target` rounded to `f32`, every value
/// within the `f32` test's limit; `distance(i, cutoff)` is Weka's distance to row `i` with its
/// early exit (infinity beyond `cutoff`), used for rows outside the `f32` copy.
///
/// With `bounds` (lower bounds of every row's squared distance, ibk_pivots.rs) the row with
/// the least bound is scanned first, so that the cutoff is small from the start, and a row
/// whose bound exceeds the cutoff is passed over: it is farther than the nearest row.
pub fn nearest_one(
    scaled: &Scaled,
    target: &[f64],
    low: &[f32],
    skip: Option<usize>,
    bounds: Option<&[f64]>,
    distance: impl Fn(usize, f64) -> f64,
) -> Option<Vec<(usize, f64)>> {
    let n = scaled.complete.len();
    let width = scaled.width;
    let first = (0..n).find(|&i| Some(i) != skip)?;
    if !scaled.small[first] || f32_sum_error(width).is_none() {
        return None;
    }
    let start = bounds.and_then(|b| {
        (0..n)
            .filter(|&i| Some(i) != skip)
            .min_by(|&x, &y| b[x].total_cmp(&b[y]))
    });
    let mut cutoff = f64::INFINITY;
    let mut kept: Vec<(usize, Candidate)> = Vec::new();
    for i in start
        .into_iter()
        .chain((0..n).filter(|&i| Some(i) != start))
    {
        if Some(i) == skip {
            continue;
        }
        if bounds.is_some_and(|b| b[i] > cutoff) {
            continue;
        }
        if scaled.small[i] {
            let Some(s) = low_distance(low, scaled.row_low(i), cutoff) else {
                continue;
            };
            cutoff = cutoff.min(low_upper(s, width)?);
            kept.push((i, Candidate::Low(s)));
        } else {
            let d = distance(i, cutoff);
            if d <= cutoff {
                cutoff = d;
                kept.push((i, Candidate::Exact(d)));
            }
        }
    }
    let mut exact = Vec::with_capacity(kept.len());
    for (i, c) in kept {
        let d = match c {
            Candidate::Exact(d) => d,
            Candidate::Low(s) if exceeds_low(s, width, cutoff) => continue,
            Candidate::Low(_) => sequential(target, scaled.row(i), cutoff),
        };
        if d <= cutoff {
            exact.push((i, d));
        }
    }
    // In scan order (the row with the least bound may have come first).
    exact.sort_by_key(|k| k.0);
    let least = exact.iter().fold(f64::INFINITY, |m, k| m.min(k.1));
    Some(
        exact
            .into_iter()
            .filter(|k| k.1 == least)
            .map(|(i, d)| (i, d.sqrt()))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::JavaRandom;
    use crate::weka::ibk_heap::Heap;
    use crate::weka::ibk_pivots::Pivots;
    use crate::weka::ibk_scan::{complete_distance, fits};

    /// Weka's k = 1 scan as `LinearNNSearch` runs it: every exact distance, the heap and its
    /// tie list, in its output order.
    fn weka_scan(scaled: &Scaled, target: &[f64], skip: Option<usize>) -> Vec<(usize, f64)> {
        let mut heap = Heap::new(1);
        let mut filled = false;
        for i in 0..scaled.complete.len() {
            if Some(i) == skip {
                continue;
            }
            let d = sequential(target, scaled.row(i), f64::INFINITY);
            if !filled {
                heap.put(i, d);
                filled = true;
            } else if d < heap.peek() {
                heap.put_by_substitute(i, d);
            } else if d == heap.peek() {
                heap.ties.push((i, d));
            }
        }
        let mut out = Vec::new();
        while let Some(t) = heap.ties.pop() {
            out.push(t);
        }
        while heap.size() > 0 {
            out.push(heap.get());
        }
        out.reverse();
        out.into_iter().map(|(i, d)| (i, d.sqrt())).collect()
    }

    #[test]
    fn finds_weka_nearest_rows_and_ties() {
        let mut rng = JavaRandom::new(11);
        for width in [1, 5, 16, 130, 250] {
            for trial in 0..30 {
                let n = 40;
                let mut x: Vec<Vec<f64>> = (0..n)
                    .map(|_| (0..width).map(|_| rng.next_double()).collect())
                    .collect();
                // Duplicate rows (exact ties) and rows on a coarse grid (ties by rounding).
                for i in (0..n).step_by(7) {
                    x[i] = x[(i * 3 + 1) % n].clone();
                }
                if trial % 3 == 0 {
                    for row in &mut x {
                        for v in row.iter_mut() {
                            *v = (*v * 4.0).round() / 4.0;
                        }
                    }
                }
                // Rows outside the f32 copy's limit take the exact distance; a first row
                // outside it turns the scan off.
                if trial % 4 == 1 {
                    x[3][0] = 2.0;
                }
                if trial % 8 == 5 {
                    x[0][width - 1] = -1.5;
                }
                let ranges = vec![[0.0, 1.0, 1.0]; width];
                let scaled = Scaled::new(&x, &vec![false; width], ranges);
                let pivots = Pivots::new(&scaled, 1 + trial % 4);
                let mut bounds = Vec::new();
                for (t, row) in x.iter().enumerate() {
                    // Targets are within the f32 test's limit (the caller's precondition).
                    let target: Vec<f64> = if t % 2 == 0 && fits(row) {
                        row.clone()
                    } else {
                        (0..width).map(|_| rng.next_double()).collect()
                    };
                    let low: Vec<f32> = target.iter().map(|&v| v as f32).collect();
                    let skip = (t % 5 == 0).then_some(t);
                    let got = nearest_one(&scaled, &target, &low, skip, None, |i, c| {
                        complete_distance(&target, scaled.row(i), c)
                    });
                    let first_small = scaled.small[if skip == Some(0) { 1 } else { 0 }];
                    assert_eq!(got.is_some(), first_small, "trial {trial} row {t}");
                    let Some(got) = got else { continue };
                    let want = weka_scan(&scaled, &target, skip);
                    let bits = |v: &[(usize, f64)]| -> Vec<(usize, u64)> {
                        v.iter().map(|&(i, d)| (i, d.to_bits())).collect()
                    };
                    assert_eq!(
                        bits(&got),
                        bits(&want),
                        "width {width} trial {trial} row {t}"
                    );
                    // With pivots' bounds (rows passed over, the likely nearest first):
                    // the same rows and distances.
                    if let Some(p) = &pivots {
                        p.lower_bounds(&scaled, &target, &mut bounds);
                        let pruned =
                            nearest_one(&scaled, &target, &low, skip, Some(&bounds), |i, c| {
                                complete_distance(&target, scaled.row(i), c)
                            });
                        assert_eq!(
                            pruned.map(|v| bits(&v)),
                            Some(bits(&want)),
                            "pivots: width {width} trial {trial} row {t}"
                        );
                    }
                }
            }
        }
    }
}
