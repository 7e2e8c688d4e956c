//! One panel's steps for the later columns of JAMA's Crout loop (see jama_crout.rs): each
//! later column's rows in the panel become final one after another (a small triangle, four
//! columns side by side), then each of its rows below the panel takes the panel's terms in
//! increasing k in a register-blocked update (four columns by eight rows, each sum held in a
//! register for the panel: L's values are loaded once for four columns, the sums once a
//! panel). At a kept step each column then keeps its open sums in the level's run of its
//! attribute.

/// Steps per panel (`jama::STEP` is a multiple of it, so kept sums fall on panel ends).
pub(super) const PANEL: usize = 8;

/// Where later columns keep their open sums at a kept step k1: the rows at positions k1..n
/// of the c-th column handled at `sums[c * (n - k1)..]`.
pub(super) struct Keep<'a> {
    pub(super) sums: &'a mut [f64],
    pub(super) k1: usize,
}

impl<'a> Keep<'a> {
    /// The targets of the first `c` columns and of the rest, for a matrix of n.
    pub(super) fn split(self, c: usize, n: usize) -> (Keep<'a>, Keep<'a>) {
        let (a, b) = self.sums.split_at_mut(c * (n - self.k1));
        (
            Keep {
                sums: a,
                k1: self.k1,
            },
            Keep {
                sums: b,
                k1: self.k1,
            },
        )
    }

    /// Keeps the open sums `s` (by position) of the c-th column.
    #[inline(always)]
    fn column(&mut self, c: usize, s: &[f64]) {
        let rows = s.len() - self.k1;
        self.sums[c * rows..(c + 1) * rows].copy_from_slice(&s[self.k1..]);
    }
}

/// Later columns times rows below the panel from which the later columns are shared with
/// the helper thread (below it the hand-over costs more than the half it saves).
pub(super) const SPLIT_WORK: usize = 8192;

/// [`take_panel`] compiled for AVX2 where the CPU has it (the helper thread runs it outside
/// the caller's AVX2 function).
pub(super) fn take_panel_fast(
    n: usize,
    l: &[f64],
    cols: &mut [f64],
    open: &mut [f64],
    (k0, k1): (usize, usize),
    swaps: &[(usize, usize)],
    keep: Option<Keep>,
) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, the one requirement of `take_panel_avx2`.
        unsafe { take_panel_avx2(n, l, cols, open, (k0, k1), swaps, keep) };
        return;
    }
    take_panel(n, l, cols, open, (k0, k1), swaps, keep)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn take_panel_avx2(
    n: usize,
    l: &[f64],
    cols: &mut [f64],
    open: &mut [f64],
    (k0, k1): (usize, usize),
    swaps: &[(usize, usize)],
    keep: Option<Keep>,
) {
    take_panel(n, l, cols, open, (k0, k1), swaps, keep)
}

/// Rows a register block of the update covers.
const R: usize = 8;

/// Later columns (`cols`, each n values, their open sums in `open`) take the steps k0..k1 of
/// a finished panel whose L columns are in `l` (the matrix from column 0).
#[inline(always)]
pub(super) fn take_panel(
    n: usize,
    l: &[f64],
    cols: &mut [f64],
    open: &mut [f64],
    (k0, k1): (usize, usize),
    swaps: &[(usize, usize)],
    mut keep: Option<Keep>,
) {
    // The rows below the last full block of R, zero-padded to R: one copy a panel instead of
    // one strided load a term.
    let tail = k1 + (n - k1) / R * R;
    let mut below = [[0.0; R]; PANEL];
    for (k, b) in (k0..k1).zip(&mut below) {
        b[..n - tail].copy_from_slice(&l[k * n + tail..(k + 1) * n]);
    }
    let below = &below[..k1 - k0];
    let mut u = [[0.0; 4]; PANEL];
    for (gi, (group, sums)) in cols
        .chunks_mut(4 * n)
        .zip(open.chunks_mut(4 * n))
        .enumerate()
    {
        // The panel's row swaps, in order, in the group's values and open sums.
        for (col, s) in group.chunks_exact_mut(n).zip(sums.chunks_exact_mut(n)) {
            for &(j, p) in swaps {
                col.swap(j, p);
                s.swap(j, p);
            }
        }
        // The triangle: rows k0..k1 become final, each before its term reaches the rows
        // below it in the panel; the group's sums of those rows side by side (`t[i][g]`).
        let width = group.len() / n;
        let mut t = [[0.0; 4]; PANEL];
        for (g, s) in sums.chunks_exact(n).enumerate() {
            for (ti, &si) in t.iter_mut().zip(&s[k0..k1]) {
                ti[g] = si;
            }
        }
        for k in k0..k1 {
            let mut v = [0.0; 4];
            for (g, vg) in v.iter_mut().enumerate().take(width) {
                *vg = group[g * n + k] - t[k - k0][g];
                group[g * n + k] = *vg;
            }
            u[k - k0] = v;
            for (i, ti) in (k + 1..k1).zip(&mut t[k + 1 - k0..]) {
                let li = l[k * n + i];
                for (tg, &vg) in ti.iter_mut().zip(&v) {
                    *tg += li * vg;
                }
            }
        }
        let u = &u[..k1 - k0];
        if width == 4 {
            rows_below::<4>(n, l, sums, u, below, k0, k1);
        } else {
            for (g, s) in sums.chunks_exact_mut(n).enumerate() {
                let mut ug = [[0.0; 1]; PANEL];
                for (a, r) in ug.iter_mut().zip(u) {
                    a[0] = r[g];
                }
                rows_below::<1>(n, l, s, &ug[..u.len()], below, k0, k1);
            }
        }
        if let Some(keep) = keep.as_mut() {
            for (g, s) in sums.chunks_exact(n).enumerate() {
                keep.column(gi * 4 + g, s);
            }
        }
    }
}

/// The rows k1.. of G columns' open sums (`sums`, G columns of n) take the terms of steps
/// k0..k1 in increasing k, `u[k - k0][g]` being column g's final value at row k; `below`
/// holds L's rows after the last full block of R, zero-padded.
#[inline(always)]
fn rows_below<const G: usize>(
    n: usize,
    l: &[f64],
    sums: &mut [f64],
    u: &[[f64; G]],
    below: &[[f64; R]],
    k0: usize,
    k1: usize,
) {
    let mut i = k1;
    while i + R <= n {
        let mut acc = [[0.0; R]; G];
        for (g, a) in acc.iter_mut().enumerate() {
            a.copy_from_slice(&sums[g * n + i..g * n + i + R]);
        }
        for (k, ug) in (k0..k1).zip(u) {
            let Ok(lk) = <&[f64; R]>::try_from(&l[k * n + i..k * n + i + R]) else {
                continue;
            };
            for (a, &ugv) in acc.iter_mut().zip(ug) {
                for (ar, &lr) in a.iter_mut().zip(lk) {
                    *ar += lr * ugv;
                }
            }
        }
        for (g, a) in acc.iter().enumerate() {
            sums[g * n + i..g * n + i + R].copy_from_slice(a);
        }
        i += R;
    }
    if i < n {
        let t = n - i;
        let mut acc = [[0.0; R]; G];
        for (g, a) in acc.iter_mut().enumerate() {
            a[..t].copy_from_slice(&sums[g * n + i..(g + 1) * n]);
        }
        for (lk, ug) in below.iter().zip(u) {
            for (a, &ugv) in acc.iter_mut().zip(ug) {
                for (ar, &lr) in a.iter_mut().zip(lk) {
                    *ar += lr * ugv;
                }
            }
        }
        for (g, a) in acc.iter().enumerate() {
            sums[g * n + i..(g + 1) * n].copy_from_slice(&a[..t]);
        }
    }
}
