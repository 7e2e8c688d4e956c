//! M5P's split search (`YongSplitInfo.attrSplit` over every attribute of a node) on columns
//! sorted once at the root.
//!
//! Weka sorts a node's rows by each attribute in turn with its unstable quicksort. Where an
//! attribute has no tied values in the node, any sort gives the one ascending order, so that
//! order is taken from [`SortedColumns`], which keeps every attribute's rows in ascending order
//! in one flat store and splits them down the tree by a stable partition; where it has ties,
//! Weka's quicksort runs on the order the previous attribute left, as in Weka.

use super::m5p_bound::{Reciprocals, Stretch};
use super::m5p_impurity::{FifthRoots, Impurity};
use super::util::eq_small;
use crate::helper_thread::join;

/// Candidates whose running sums and bounds are formed together.
const STRETCH: usize = 64;

/// The sort key of `Utils.sort`: missing (NaN) as `f64::MAX`.
pub(super) fn key(v: f64) -> f64 {
    if v.is_nan() {
        f64::MAX
    } else {
        v
    }
}

/// Values (columns times rows) from which the root's columns are sorted on two threads.
const PARALLEL_SORT: usize = 1 << 14;

/// A key whose integer order is `total_cmp`'s order of [`key`] (integers sort faster than
/// floats).
fn ordered_bits(x: f64) -> u64 {
    let bits = key(x).to_bits();
    if bits >> 63 == 1 {
        !bits
    } else {
        bits | 1 << 63
    }
}

/// Sorts each column of `cols` (all `len` rows) into its block of `order`.
fn sort_columns(cols: &[Vec<f64>], len: usize, order: &mut [u32]) {
    // Each row as one integer: its key's upper 32 bits above the row (one word sorts faster
    // than a pair), then every run of equal upper bits sorted by the whole key. Rows with
    // equal keys may come in any order: an attribute with ties in a node is ordered by
    // Weka's quicksort there, never by this order.
    let mut packed: Vec<u64> = Vec::with_capacity(len);
    for (col, o) in cols.iter().zip(order.chunks_exact_mut(len)) {
        packed.clear();
        packed.extend(
            (col.iter().zip(0u32..)).map(|(&x, r)| ordered_bits(x) >> 32 << 32 | u64::from(r)),
        );
        packed.sort_unstable();
        let mut start = 0;
        while start < len {
            let high = packed[start] >> 32;
            let mut end = start + 1;
            while end < len && packed[end] >> 32 == high {
                end += 1;
            }
            if end - start > 1 {
                packed[start..end].sort_unstable_by_key(|&p| ordered_bits(col[p as u32 as usize]));
            }
            start = end;
        }
        for (&p, oi) in packed.iter().zip(o.iter_mut()) {
            *oi = p as u32;
        }
    }
}

/// Every attribute's rows in ascending order of that attribute. A node owns positions
/// `lo..hi` of every attribute's block (`len` positions per attribute, one per row at the
/// root); splitting the node partitions each block's range stably, left rows first, so each
/// child again owns one range in which its rows are sorted. The values themselves stay in
/// the columns (`cols[attr][row]`), read through the rows where they are needed.
pub(super) struct SortedColumns {
    len: usize,
    order: Vec<u32>,
    goes_left: Vec<bool>,
    spill: Vec<u32>,
}

impl SortedColumns {
    /// Sorts every column (`cols[attr][row]`, all of `len` rows; `len` fits in `u32`); the
    /// second half of the columns on the helper thread when there are many.
    pub(super) fn new(cols: &[Vec<f64>], len: usize) -> Self {
        let mut order = vec![0u32; cols.len() * len];
        let half = cols.len() / 2;
        if cols.len() * len >= PARALLEL_SORT && half > 0 {
            let (oa, ob) = order.split_at_mut(half * len);
            let (ca, cb) = cols.split_at(half);
            join(|| sort_columns(ca, len, oa), || sort_columns(cb, len, ob));
        } else {
            sort_columns(cols, len, &mut order);
        }
        SortedColumns {
            len,
            order,
            goes_left: vec![false; len],
            spill: vec![0; len],
        }
    }

    /// A copy of positions `lo..hi` of every attribute's block (a node's rows), as a store
    /// of its own whose positions start at 0; rows keep their ids.
    pub(super) fn extract(&self, lo: usize, hi: usize) -> SortedColumns {
        let width = self.order.len().checked_div(self.len).unwrap_or(0);
        let mut order = Vec::with_capacity(width * (hi - lo));
        for attr in 0..width {
            order.extend_from_slice(self.order(attr, lo, hi));
        }
        SortedColumns {
            len: hi - lo,
            order,
            goes_left: vec![false; self.goes_left.len()],
            spill: vec![0; hi - lo],
        }
    }

    /// The node's rows (positions `lo..hi`) in ascending order of `attr`.
    pub(super) fn order(&self, attr: usize, lo: usize, hi: usize) -> &[u32] {
        &self.order[attr * self.len + lo..attr * self.len + hi]
    }

    /// Whether two of the node's rows have the same value of `attr` (as `Utils.sort` keys;
    /// `col` is the attribute's column).
    pub(super) fn has_ties(&self, attr: usize, col: &[f64], lo: usize, hi: usize) -> bool {
        self.order(attr, lo, hi)
            .windows(2)
            .any(|w| key(col[w[0] as usize]) == key(col[w[1] as usize]))
    }

    /// Splits the node at `lo..hi`: the rows for which `left` holds come first, in every
    /// attribute's range, each side keeping its order. Returns the first position of the
    /// right side.
    pub(super) fn partition(
        &mut self,
        lo: usize,
        hi: usize,
        rows: &[usize],
        left: impl Fn(usize) -> bool,
    ) -> usize {
        for &r in rows {
            self.goes_left[r] = left(r);
        }
        let mut mid = lo;
        let width = self.order.len().checked_div(self.len).unwrap_or(0);
        for attr in 0..width {
            let base = attr * self.len;
            let order = &mut self.order[base + lo..base + hi];
            // Each row is written to both sides and only its own side advances (no
            // data-dependent branch); the left side is written in place behind the reads.
            let (mut nl, mut nr) = (0, 0);
            for i in 0..order.len() {
                let o = order[i];
                let l = self.goes_left[o as usize];
                order[nl] = o;
                self.spill[nr] = o;
                nl += usize::from(l);
                nr += usize::from(!l);
            }
            order[nl..].copy_from_slice(&self.spill[..nr]);
            mid = lo + nl;
        }
        mid
    }
}

/// The best split of one attribute (or of the node so far).
#[derive(Clone)]
pub(super) struct Split {
    pub(super) attr: Option<usize>,
    pub(super) impurity: f64,
    pub(super) position: isize,
    pub(super) value: f64,
}

impl Split {
    pub(super) fn none() -> Self {
        Split {
            attr: None,
            impurity: -1e20,
            position: -1,
            value: 0.0,
        }
    }

    /// `RuleNode.split`'s test for replacing the node's best split by an attribute's.
    pub(super) fn beaten_by(&self, cur: &Split) -> bool {
        (cur.impurity - self.impurity).abs() > 1e-6 && cur.impurity > self.impurity + 1e-6
    }
}

/// `YongSplitInfo.attrSplit` for every attribute of one node of `n` rows.
pub(super) struct SplitScan<'a> {
    y: &'a [f64],
    recip: Reciprocals,
    roots: FifthRoots,
    stretch: Stretch,
    /// The class values in the order being scanned.
    ys: Vec<f64>,
    /// The attribute's values in that order.
    vs: Vec<f64>,
}

impl<'a> SplitScan<'a> {
    pub(super) fn new(y: &'a [f64], n: usize) -> Self {
        SplitScan {
            y,
            recip: Reciprocals::new(n),
            roots: FifthRoots::default(),
            stretch: Stretch::default(),
            ys: Vec::with_capacity(n),
            vs: Vec::with_capacity(n),
        }
    }

    /// The split of `attr` (values `col`) over rows in ascending order (`order`).
    pub(super) fn sorted(&mut self, attr: usize, col: &[f64], order: &[u32], floor: f64) -> Split {
        self.ys.clear();
        self.ys.extend(order.iter().map(|&r| self.y[r as usize]));
        self.vs.clear();
        self.vs.extend(order.iter().map(|&r| col[r as usize]));
        scan(
            &self.ys,
            &self.vs,
            attr,
            floor,
            &self.recip,
            &mut self.roots,
            &mut self.stretch,
        )
    }

    /// The split of `attr` (values `col`) over `rows` as Weka's quicksort ordered them.
    pub(super) fn by_rows(
        &mut self,
        attr: usize,
        col: &[f64],
        rows: &[usize],
        floor: f64,
    ) -> Split {
        self.ys.clear();
        self.ys.extend(rows.iter().map(|&r| self.y[r]));
        self.vs.clear();
        self.vs.extend(rows.iter().map(|&r| col[r]));
        scan(
            &self.ys,
            &self.vs,
            attr,
            floor,
            &self.recip,
            &mut self.roots,
            &mut self.stretch,
        )
    }
}

/// `YongSplitInfo.attrSplit` on class values `ys` and attribute values `vs` in ascending order
/// of the attribute. Only the result's use is Weka's: where the attribute's best impurity
/// cannot exceed `floor` (the node's best so far plus 1e-6, the margin `RuleNode.split`
/// requires), the node keeps its split whatever this returns, so candidates whose impurity
/// provably stays at or below `floor`, or at or below this attribute's best so far (Weka's
/// test is `>`), are skipped without their two powers. Every candidate that can be the
/// attribute's first largest impurity above `floor` is still evaluated in order.
fn scan(
    ys: &[f64],
    vs: &[f64],
    attr: usize,
    floor: f64,
    recip: &Reciprocals,
    roots: &mut FifthRoots,
    stretch: &mut Stretch,
) -> Split {
    let n = ys.len();
    let mut s = Split {
        attr: Some(attr),
        ..Split::none()
    };
    if n < 4 {
        return s;
    }
    let len = if n < 5 { 1 } else { n / 5 };
    s.position = 0;
    let mut imp = Impurity::new(len - 1, ys, roots);
    let mut skip_at_or_below = floor.max(s.impurity);
    let end = n - len - 1;
    let mut i = len;
    while i < end {
        let stop = (i + STRETCH).min(end);
        stretch.advance(&mut imp, &ys[i..stop], recip);
        for (j, &bound) in stretch.bound.iter().enumerate() {
            let (a, b) = (vs[i + j], vs[i + j + 1]);
            // Weka updates the impurity at tied values too, but never reads it there.
            if eq_small(b, a) || bound <= skip_at_or_below {
                continue;
            }
            let impurity = stretch.impurity_at(&imp, j);
            if impurity > s.impurity {
                s.impurity = impurity;
                s.value = (a + b) * 0.5;
                s.position = (i + j) as isize;
                skip_at_or_below = floor.max(s.impurity);
            }
        }
        i = stop;
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partition_keeps_every_column_sorted_and_stable() {
        let mut rng = crate::rng::JavaRandom::new(3);
        let n = 40;
        // Column 0 has ties and a missing value; column 1 is tie-free.
        let mut c0: Vec<f64> = (0..n).map(|_| (rng.next_double() * 6.0).floor()).collect();
        c0[7] = f64::NAN;
        let c1: Vec<f64> = (0..n).map(|_| rng.next_double()).collect();
        let cols = vec![c0, c1];
        let mut sorted = SortedColumns::new(&cols, n);
        assert!(sorted.has_ties(0, &cols[0], 0, n));
        assert!(!sorted.has_ties(1, &cols[1], 0, n));
        let before: Vec<Vec<u32>> = (0..2).map(|a| sorted.order(a, 0, n).to_vec()).collect();
        let rows: Vec<usize> = (0..n).collect();
        let left = |r: usize| r.is_multiple_of(3);
        let mid = sorted.partition(0, n, &rows, left);
        assert_eq!(mid, (0..n).filter(|&r| left(r)).count());
        for (attr, col) in cols.iter().enumerate() {
            // Each side is the old order filtered: a stable partition.
            let want_left: Vec<u32> = before[attr]
                .iter()
                .copied()
                .filter(|&r| left(r as usize))
                .collect();
            let want_right: Vec<u32> = before[attr]
                .iter()
                .copied()
                .filter(|&r| !left(r as usize))
                .collect();
            assert_eq!(sorted.order(attr, 0, mid), &want_left[..]);
            assert_eq!(sorted.order(attr, mid, n), &want_right[..]);
            for (lo, hi) in [(0, mid), (mid, n)] {
                let keys: Vec<f64> = sorted
                    .order(attr, lo, hi)
                    .iter()
                    .map(|&r| key(col[r as usize]))
                    .collect();
                assert!(
                    keys.windows(2).all(|w| w[0] <= w[1]),
                    "attr {attr} unsorted"
                );
            }
        }
        // A child splits again inside its own range only.
        let right_rows: Vec<usize> = sorted
            .order(1, mid, n)
            .iter()
            .map(|&r| r as usize)
            .collect();
        let outside = sorted.order(0, 0, mid).to_vec();
        sorted.partition(mid, n, &right_rows, |r| r.is_multiple_of(2));
        assert_eq!(sorted.order(0, 0, mid), &outside[..]);
    }
}
