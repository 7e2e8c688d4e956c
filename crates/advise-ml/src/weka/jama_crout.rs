//! JAMA's Crout loop (`LUDecomposition`'s constructor) in panels of a few steps.
//!
//! JAMA forms, for column j, each row's sum `s_ij = sum_{k < min(i, j)} LU[i][k] * LU[k][j]`
//! from 0.0 in increasing k, one multiply then one add, and stores `LU[i][j] - s_ij`. Any
//! schedule that gives every sum its terms in that order gives JAMA's bits. Here the steps
//! are taken a panel of [`PANEL`] at a time:
//!
//! - the panel's own columns are formed as JAMA forms them, one after another: their open
//!   sums take the panel's steps (four terms a pass), the rows at and below the diagonal
//!   become final, the pivot is chosen and the rows swapped, L's column divided by the pivot;
//! - then every later column takes the panel's steps at once (jama_panel.rs): a small
//!   triangle for its rows in the panel, a register-blocked update for the rows below. The
//!   later columns are independent of one another there, so when there are many they are
//!   shared with the helper thread (`helper_thread`), half each.
//!
//! The later columns' open sums live in a buffer beside the matrix; a pivot swap exchanges
//! their rows too, as it exchanges the rows those sums were formed from. At a panel's end
//! that falls on a multiple of [`STEP`] the open sums of the later columns are exactly the
//! partial sums [`Checkpoints`] keeps, so they are kept there, and a decomposition that
//! resumes from kept sums starts its later columns from them.

use std::cell::RefCell;

use super::jama::{runs, Checkpoints, STEP};
use super::jama_panel::{take_panel, take_panel_fast, Keep, PANEL, SPLIT_WORK};
use crate::helper_thread::join_fine;

/// Kept sums while a loop runs: the store and the attribute id of each row and column.
pub(super) struct Sums<'a> {
    pub(super) ids: &'a [usize],
    pub(super) store: &'a mut Checkpoints,
}

impl Sums<'_> {
    /// The kept sums of step k of columns from.. into their open sums (`open`, a column of n
    /// a column), for the rows at positions >= k: each found in the level by the attribute
    /// ids of its column and row. The rows' places in the level are the same for every
    /// column, and mostly runs of consecutive places ([`runs`]), copied run by run.
    fn load(&self, k: usize, from: usize, open: &mut [f64], piv: &[usize]) {
        let n = piv.len();
        let level = &self.store.levels[k / STEP - 1];
        let rows = level.row_ids.len();
        let mut at = vec![usize::MAX; self.store.width];
        for (i, &id) in level.row_ids.iter().enumerate() {
            at[id] = i;
        }
        let row_runs = runs(piv[k..].iter().map(|&q| at[self.ids[q]]));
        at.iter_mut().for_each(|v| *v = usize::MAX);
        for (c, &id) in level.col_ids.iter().enumerate() {
            at[id] = c;
        }
        for (j, s) in (from..n).zip(open.chunks_exact_mut(n)) {
            let c = at[self.ids[j]];
            let col = &level.sums[c * rows..(c + 1) * rows];
            for &(to, i, len) in &row_runs {
                s[k + to..k + to + len].copy_from_slice(&col[i..i + len]);
            }
        }
    }
}

/// JAMA's loop over columns `from..n`, columns before `from` being final already; with kept
/// sums and `start` > 0 (a multiple of [`STEP`], at most `from`), each column's rows at
/// positions below `start` hold their final values and the others start from the kept sums
/// of step `start`.
#[inline(always)]
pub(super) fn factor_body(
    n: usize,
    lu: &mut [f64],
    piv: &mut [usize],
    from: usize,
    start: usize,
    sums: Option<Sums>,
) {
    if from >= n {
        return;
    }
    let start = if sums.is_some() { start } else { 0 };
    // The open sums of columns from.. (column j at (j - from) * n), rows by position; the
    // buffer is kept per thread for the next decomposition (a fresh one per call costs its
    // page faults, about as much as the loop itself at 250 attributes).
    let mut open = OPEN.take();
    open.clear();
    open.resize((n - from) * n, 0.0);
    panels(n, lu, piv, from, start, sums, &mut open);
    if open.capacity() <= KEEP_OPEN {
        OPEN.set(open);
    }
}

thread_local! {
    static OPEN: RefCell<Vec<f64>> = const { RefCell::new(Vec::new()) };
}

/// The largest buffer of open sums kept for the next decomposition (values): 1,024
/// attributes.
const KEEP_OPEN: usize = 1 << 20;

#[inline(always)]
fn panels(
    n: usize,
    lu: &mut [f64],
    piv: &mut [usize],
    from: usize,
    start: usize,
    mut sums: Option<Sums>,
    open: &mut [f64],
) {
    if start > 0 {
        if let Some(sm) = &sums {
            sm.load(start, from, open, piv);
        }
    }
    let mut k0 = start;
    while k0 < n {
        let k1 = ((k0 / PANEL + 1) * PANEL).min(n);
        // The panel's row swaps reach the later columns when they take the panel's steps
        // (each thread swaps the columns it owns, in order).
        let mut swaps = Vec::new();
        for j in from.max(k0)..k1 {
            panel_column(n, lu, piv, open, from, j, (k0, k1), &mut swaps);
        }
        let first = from.max(k1);
        if first < n {
            let (l, later) = lu.split_at_mut(first * n);
            let open_later = &mut open[(first - from) * n..];
            // At a kept step the later columns keep their open sums of the rows below it
            // in the level, laid out as they stand, with their attribute ids.
            let mut keep = None;
            if k1.is_multiple_of(STEP) {
                if let Some(sm) = sums.as_mut() {
                    let ids = sm.ids;
                    if let Some(level) = sm.store.levels.get_mut(k1 / STEP - 1) {
                        level.col_ids.clear();
                        level.col_ids.extend_from_slice(&ids[first..]);
                        level.row_ids.clear();
                        level.row_ids.extend(piv[k1..].iter().map(|&p| ids[p]));
                        // Every value is written below before any is read.
                        level.sums.resize((n - first) * (n - k1), 0.0);
                        keep = Some(Keep {
                            sums: &mut level.sums,
                            k1,
                        });
                    }
                }
            }
            let m = n - first;
            if m >= 8 && m * (n - k1) >= SPLIT_WORK {
                // Two halves of the later columns (groups of four), one on the helper thread.
                let half = m.div_ceil(8) * 4;
                let (la, lb) = later.split_at_mut(half * n);
                let (oa, ob) = open_later.split_at_mut(half * n);
                let (ka, kb) = match keep {
                    Some(k) => {
                        let (a, b) = k.split(half, n);
                        (Some(a), Some(b))
                    }
                    None => (None, None),
                };
                join_fine(
                    || take_panel_fast(n, l, la, oa, (k0, k1), &swaps, ka),
                    || take_panel_fast(n, l, lb, ob, (k0, k1), &swaps, kb),
                );
            } else {
                take_panel(n, l, later, open_later, (k0, k1), &swaps, keep);
            }
        }
        k0 = k1;
    }
}

/// Column j of the panel of steps k0..k1: its open sums take steps k0..j (each row above
/// the diagonal final before its term reaches the rows below), then its rows at and below
/// the diagonal are final, the pivot row is swapped into place (in the columns up to the
/// panel's end and their open sums; later columns get the swap from `swaps`, in order) and
/// L's column divided by the pivot.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn panel_column(
    n: usize,
    lu: &mut [f64],
    piv: &mut [usize],
    open: &mut [f64],
    from: usize,
    j: usize,
    (k0, k1): (usize, usize),
    swaps: &mut Vec<(usize, usize)>,
) {
    {
        let (l, rest) = lu.split_at_mut(j * n);
        let col = &mut rest[..n];
        let s = &mut open[(j - from) * n..(j - from + 1) * n];
        let mut k = k0;
        while k < j {
            // Rows k..k + kb become final (each before its term reaches the next), then
            // the rows below take the kb terms in increasing k.
            let kb = (j - k).min(4);
            let mut c = [0.0; 4];
            for a in 0..kb {
                let r = k + a;
                for (t, &ct) in c.iter().enumerate().take(a) {
                    s[r] += l[(k + t) * n + r] * ct;
                }
                col[r] -= s[r];
                c[a] = col[r];
            }
            let below = k + kb;
            if kb == 4 {
                let l0 = &l[k * n + below..(k + 1) * n];
                let l1 = &l[(k + 1) * n + below..(k + 2) * n];
                let l2 = &l[(k + 2) * n + below..(k + 3) * n];
                let l3 = &l[(k + 3) * n + below..(k + 4) * n];
                for ((((si, &a0), &a1), &a2), &a3) in
                    s[below..].iter_mut().zip(l0).zip(l1).zip(l2).zip(l3)
                {
                    let mut v = *si;
                    v += a0 * c[0];
                    v += a1 * c[1];
                    v += a2 * c[2];
                    v += a3 * c[3];
                    *si = v;
                }
            } else {
                for (t, &ct) in c.iter().enumerate().take(kb) {
                    let lt = &l[(k + t) * n + below..(k + t + 1) * n];
                    for (si, &lv) in s[below..].iter_mut().zip(lt) {
                        *si += lv * ct;
                    }
                }
            }
            k += kb;
        }
        for (c, &si) in col[j..].iter_mut().zip(&s[j..]) {
            *c -= si;
        }
    }
    let col = &lu[j * n..(j + 1) * n];
    let mut p = j;
    for i in j + 1..n {
        if col[i].abs() > col[p].abs() {
            p = i;
        }
    }
    if p != j {
        for c in 0..k1 {
            lu.swap(c * n + p, c * n + j);
        }
        for s in open[..(k1 - from) * n].chunks_exact_mut(n) {
            s.swap(p, j);
        }
        piv.swap(p, j);
        swaps.push((j, p));
    }
    let d = lu[j * n + j];
    if d != 0.0 {
        for v in &mut lu[j * n + j + 1..(j + 1) * n] {
            *v /= d;
        }
    }
}
