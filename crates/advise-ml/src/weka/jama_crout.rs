//! JAMA's Crout loop (`LUDecomposition`'s constructor) by columns, two columns at a time.
//!
//! Column j's open sums take the terms of steps k < j; column j + 1's the terms of steps
//! k < j + 1. Both read the same finished L columns for every step k + 4 <= j, so those
//! passes run for both columns at once, each L value loaded once for two sums. Each sum
//! still starts at 0.0 (or at its kept partial sum) and takes its terms in increasing k, one
//! multiply then one add, so every bit is that of JAMA's loop. Column j's pivot swap then
//! exchanges two rows of column j + 1's open state, both at or below row j (not yet
//! final), exactly as it exchanges them in the matrix column j + 1 would have been copied
//! from; partial sums are kept by attribute id, so keeping them before or after that swap
//! stores the same numbers under the same ids.

use super::jama::{Checkpoints, STEP};

/// Kept sums while a loop runs: the store and the attribute id of each row and column.
pub(super) struct Sums<'a> {
    pub(super) ids: &'a [usize],
    pub(super) store: &'a mut Checkpoints,
}

impl Sums<'_> {
    /// Keeps the open sums `s` of column j's rows at positions >= k (k a multiple of STEP).
    #[inline(always)]
    fn keep(&mut self, k: usize, j: usize, s: &[f64], piv: &[usize]) {
        let level = k / STEP - 1;
        let w = self.store.width;
        if let Some(store) = self.store.levels.get_mut(level) {
            let row = &mut store[self.ids[j] * w..(self.ids[j] + 1) * w];
            for (&p, &v) in piv[k..].iter().zip(&s[k..]) {
                row[self.ids[p]] = v;
            }
        }
    }
}

/// One column being formed: its values (rows in pivoted order) and its rows' open sums.
struct Column {
    col: Vec<f64>,
    s: Vec<f64>,
}

impl Column {
    /// Loads column j; returns the step its sums start at (`start` where rows resume from
    /// kept sums, else 0).
    #[inline(always)]
    fn begin(&mut self, j: usize, n: usize, lu: &[f64], piv: &[usize], resume: Resume) -> usize {
        self.col.copy_from_slice(&lu[j * n..(j + 1) * n]);
        self.s.iter_mut().for_each(|v| *v = 0.0);
        match resume {
            Resume::From(start, sm) => {
                // Rows below `start` are final; the others resume their sums at `start`.
                let (w, c) = (sm.ids[j], &sm.store);
                for (si, &p) in self.s[start..].iter_mut().zip(&piv[start..n]) {
                    *si = c.at(start, w, sm.ids[p]);
                }
                start
            }
            Resume::No => 0,
        }
    }

    /// Rows k..k + kb (all above the column's diagonal) take this pass's terms before them
    /// and become final; returns their values, the pass's multipliers.
    #[inline(always)]
    fn triangle(&mut self, k: usize, kb: usize, n: usize, lu: &[f64]) -> [f64; 4] {
        let mut c = [0.0; 4];
        for a in 0..kb {
            let r = k + a;
            for (t, &ct) in c.iter().enumerate().take(a) {
                self.s[r] += lu[(k + t) * n + r] * ct;
            }
            self.col[r] -= self.s[r];
            c[a] = self.col[r];
        }
        c
    }

    /// The passes of steps k.. below column j's diagonal, for this column alone.
    #[inline(always)]
    fn passes(&mut self, j: usize, mut k: usize, n: usize, lu: &[f64], ctx: &mut Ctx) {
        while k < j {
            ctx.keep_at_pass(k, j, &self.s);
            let kb = (j - k).min(4);
            let c = self.triangle(k, kb, n, lu);
            let from = k + kb;
            if kb == 4 {
                let l = four_columns(lu, n, k, from);
                for ((((si, &a0), &a1), &a2), &a3) in self.s[from..]
                    .iter_mut()
                    .zip(l[0])
                    .zip(l[1])
                    .zip(l[2])
                    .zip(l[3])
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
                    let lt = &lu[(k + t) * n + from..(k + t + 1) * n];
                    for (si, &l) in self.s[from..].iter_mut().zip(lt) {
                        *si += l * ct;
                    }
                }
            }
            k += kb;
        }
    }

    /// Column j's last step: its rows at and below the diagonal take their sums, the column
    /// is stored, the pivot row swapped into place and L's column divided by the pivot.
    /// Returns the pivot's position.
    #[inline(always)]
    fn finish(&mut self, j: usize, n: usize, lu: &mut [f64], ctx: &mut Ctx) -> usize {
        if j > ctx.start && j > 0 && j.is_multiple_of(STEP) {
            if let Some(sm) = ctx.sums.as_mut() {
                sm.keep(j, j, &self.s, ctx.piv);
            }
        }
        for i in j..n {
            self.col[i] -= self.s[i];
        }
        lu[j * n..(j + 1) * n].copy_from_slice(&self.col);
        let col = &self.col;
        let mut p = j;
        for i in j + 1..n {
            if col[i].abs() > col[p].abs() {
                p = i;
            }
        }
        if p != j {
            for c in 0..n {
                lu.swap(c * n + p, c * n + j);
            }
            ctx.piv.swap(p, j);
        }
        let d = lu[j * n + j];
        if d != 0.0 {
            for v in &mut lu[j * n + j + 1..(j + 1) * n] {
                *v /= d;
            }
        }
        p
    }
}

/// How a column's sums start.
enum Resume<'b, 'a> {
    No,
    From(usize, &'b Sums<'a>),
}

/// The loop's shared state besides the matrix.
struct Ctx<'p, 'a> {
    piv: &'p mut [usize],
    start: usize,
    sums: Option<Sums<'a>>,
}

impl Ctx<'_, '_> {
    fn resumes(&self, j: usize) -> bool {
        self.sums.is_some() && self.start > 0 && self.start <= j
    }

    fn resume(&self, j: usize) -> Resume<'_, '_> {
        match &self.sums {
            Some(sm) if self.resumes(j) => Resume::From(self.start, sm),
            _ => Resume::No,
        }
    }

    #[inline(always)]
    fn keep_at_pass(&mut self, k: usize, j: usize, s: &[f64]) {
        if k > self.start && k.is_multiple_of(STEP) {
            if let Some(sm) = self.sums.as_mut() {
                sm.keep(k, j, s, self.piv);
            }
        }
    }
}

/// L's columns k..k + 4 from row `from` down.
#[inline(always)]
fn four_columns(lu: &[f64], n: usize, k: usize, from: usize) -> [&[f64]; 4] {
    [0, 1, 2, 3].map(|t| &lu[(k + t) * n + from..(k + t + 1) * n])
}

/// JAMA's loop over columns `from..n`, columns before `from` being final already (see
/// `Factors::factor_from` for `start`).
#[inline(always)]
pub(super) fn factor_body(
    n: usize,
    lu: &mut [f64],
    piv: &mut [usize],
    from: usize,
    start: usize,
    sums: Option<Sums>,
) {
    let mut ctx = Ctx { piv, start, sums };
    let mut a = Column {
        col: vec![0.0; n],
        s: vec![0.0; n],
    };
    let mut b = Column {
        col: vec![0.0; n],
        s: vec![0.0; n],
    };
    let mut j = from;
    while j < n {
        let k0 = a.begin(j, n, lu, ctx.piv, ctx.resume(j));
        if j + 1 >= n || ctx.resumes(j) != ctx.resumes(j + 1) {
            a.passes(j, k0, n, lu, &mut ctx);
            a.finish(j, n, lu, &mut ctx);
            j += 1;
            continue;
        }
        b.begin(j + 1, n, lu, ctx.piv, ctx.resume(j + 1));
        let mut k = k0;
        while k + 4 <= j {
            ctx.keep_at_pass(k, j, &a.s);
            ctx.keep_at_pass(k, j + 1, &b.s);
            let ca = a.triangle(k, 4, n, lu);
            let cb = b.triangle(k, 4, n, lu);
            let from = k + 4;
            let l = four_columns(lu, n, k, from);
            let sums = a.s[from..].iter_mut().zip(&mut b.s[from..]);
            for (((((sa, sb), &a0), &a1), &a2), &a3) in sums.zip(l[0]).zip(l[1]).zip(l[2]).zip(l[3])
            {
                let mut v = *sa;
                v += a0 * ca[0];
                v += a1 * ca[1];
                v += a2 * ca[2];
                v += a3 * ca[3];
                *sa = v;
                let mut w = *sb;
                w += a0 * cb[0];
                w += a1 * cb[1];
                w += a2 * cb[2];
                w += a3 * cb[3];
                *sb = w;
            }
            k += 4;
        }
        a.passes(j, k, n, lu, &mut ctx);
        let p = a.finish(j, n, lu, &mut ctx);
        if p != j {
            b.col.swap(p, j);
            b.s.swap(p, j);
        }
        b.passes(j + 1, k, n, lu, &mut ctx);
        b.finish(j + 1, n, lu, &mut ctx);
        j += 2;
    }
}
