//! JAMA's LU decomposition with partial pivoting and its solve (`weka.core.matrix.
//! LUDecomposition`, as Weka 3.6's LinearRegression calls it), with every floating-point
//! operation of JAMA in JAMA's order, but arranged for speed.
//!
//! JAMA's "left-looking" Crout loop forms, for column j, each row's sum
//! `s_i = sum_{k < min(i, j)} LU[i][k] * col[k]` as one sequential dot product; those are
//! latency-bound chains. Here the matrix is kept by columns and the same sums are formed by
//! columns: for k = 0, 1, .. every open sum gets its k-th term (`s_i += LU[i][k] * col[k]`,
//! a contiguous axpy the compiler vectorizes). Each `s_i` still starts at 0.0 and receives its
//! terms in increasing k, one multiply then one add, so every sum, and so every result, is
//! bit for bit JAMA's. Row k of the column is final (`col[k] -= s_k`) before its term is
//! added to the rows below it, as in JAMA, where row i < j reads the already updated col[k].

use std::cell::RefCell;

use super::jama_crout::{factor_body, Sums};

/// A square matrix stored by columns: `a[j * n + i]` is row i, column j.
pub struct ColMajor {
    pub n: usize,
    pub a: Vec<f64>,
}

impl ColMajor {
    /// A symmetric matrix `m(i, j)` (row- and column-major are then the same).
    #[cfg(test)]
    pub fn symmetric(n: usize, m: impl Fn(usize, usize) -> f64) -> Self {
        let mut a = Vec::with_capacity(n * n);
        for j in 0..n {
            for i in 0..n {
                a.push(m(i, j));
            }
        }
        ColMajor { n, a }
    }
}

/// JAMA's LU factors of a matrix: `lu` by columns with rows in pivoted order, and `piv[i]`,
/// the original row now at position i.
#[derive(Debug)]
pub struct Factors {
    pub n: usize,
    pub(super) lu: Vec<f64>,
    pub(super) piv: Vec<usize>,
    /// Partial sums kept for the next reduced decomposition ([`Factors::without`]), with
    /// the attribute ids of the rows and columns; `None` when none are kept.
    pub(super) sums: Option<(Vec<usize>, Checkpoints)>,
}

/// Solves `m x = b` as JAMA's `LUDecomposition(m).solve(b)`; `None` when a pivot is exactly
/// zero (JAMA's "Matrix is singular").
#[cfg(test)]
pub fn lu_solve(m: ColMajor, b: &[f64]) -> Option<Vec<f64>> {
    Factors::of(m).solve(b)
}

impl Factors {
    /// JAMA's decomposition of `m`.
    pub fn of(m: ColMajor) -> Factors {
        let ColMajor { n, a } = m;
        let mut f = Factors {
            n,
            lu: a,
            piv: (0..n).collect(),
            sums: None,
        };
        f.factor_from(0, 0);
        f
    }

    /// JAMA's decomposition of `m`, keeping its partial sums in `sums` (indexed by `ids`,
    /// the attribute of each row and column) so that [`Factors::without`] can start later
    /// columns from them.
    pub fn recorded(m: ColMajor, ids: Vec<usize>, sums: Checkpoints) -> Factors {
        let ColMajor { n, a } = m;
        let mut f = Factors {
            n,
            lu: a,
            piv: (0..n).collect(),
            sums: Some((ids, sums)),
        };
        f.factor_from(0, 0);
        f
    }

    /// The kept partial sums, for reuse by another decomposition.
    pub fn into_sums(self) -> Option<Checkpoints> {
        self.sums.map(|(_, c)| c)
    }

    /// JAMA's loop over columns `from..`, the columns before being final; with kept sums and
    /// `start` > 0 (a multiple of [`STEP`]), each column's rows at positions below `start`
    /// hold their final values and the others start from the sums over steps `..start`.
    pub(super) fn factor_from(&mut self, from: usize, start: usize) {
        let mut kept = self.sums.as_mut().map(|(ids, c)| (ids.as_slice(), c));
        let sums = kept.as_mut().map(|(ids, c)| Sums { ids, store: c });
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2, the one requirement of `factor_avx2`.
            unsafe { factor_avx2(self.n, &mut self.lu, &mut self.piv, from, start, sums) };
            return;
        }
        factor_body(self.n, &mut self.lu, &mut self.piv, from, start, sums)
    }

    /// JAMA's `solve`; `None` when the matrix is singular (a zero pivot).
    pub fn solve(&self, b: &[f64]) -> Option<Vec<f64>> {
        let (n, lu) = (self.n, &self.lu);
        if (0..n).any(|j| lu[j * n + j] == 0.0) {
            return None;
        }
        let mut x: Vec<f64> = self.piv.iter().map(|&p| b[p]).collect();
        for k in 0..n {
            let xk = x[k];
            for (xi, &l) in x[k + 1..].iter_mut().zip(&lu[k * n + k + 1..(k + 1) * n]) {
                *xi -= xk * l;
            }
        }
        for k in (0..n).rev() {
            x[k] /= lu[k * n + k];
            let xk = x[k];
            for (xi, &l) in x[..k].iter_mut().zip(&lu[k * n..k * n + k]) {
                *xi -= xk * l;
            }
        }
        Some(x)
    }
}

/// [`factor_body`] compiled for AVX2: wider vectors for the same operations in the same
/// order (no fused multiply-add: Rust never contracts a multiply and an add), so the same bits.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn factor_avx2(
    n: usize,
    lu: &mut [f64],
    piv: &mut [usize],
    from: usize,
    start: usize,
    sums: Option<Sums>,
) {
    factor_body(n, lu, piv, from, start, sums)
}

/// The runs of consecutive values in `sources` (rows mostly keep their order: they move only
/// where JAMA swapped them): `(at, from, len)` where `sources[at..at + len]` is
/// `from..from + len`, so that a gather through `sources` copies run by run.
pub(super) fn runs(sources: impl IntoIterator<Item = usize>) -> Vec<(usize, usize, usize)> {
    let mut runs: Vec<(usize, usize, usize)> = Vec::new();
    for (at, from) in sources.into_iter().enumerate() {
        match runs.last_mut() {
            Some((_, start, len)) if *start + *len == from => *len += 1,
            _ => runs.push((at, from, 1)),
        }
    }
    runs
}

/// Partial sums of JAMA's dot products, kept at every [`STEP`]th step: level l holds, for
/// K = STEP (l + 1), each entry's sum of its terms k < K (as JAMA adds them, from 0.0 in
/// increasing k) for the columns and rows at positions >= K of the decomposition that wrote
/// it last, laid out as that decomposition had them, with their attribute ids. Sums over
/// steps that a reduced decomposition repeats are the same numbers, so its later columns
/// start from them, found by attribute id.
#[derive(Debug)]
pub struct Checkpoints {
    pub(super) width: usize,
    pub(super) levels: Vec<Level>,
}

/// One level of [`Checkpoints`]: `sums[c * rows + i]` is the sum of column `col_ids[c]`
/// and row `row_ids[i]` (attribute ids), columns and rows in the writer's order.
#[derive(Debug, Default)]
pub(super) struct Level {
    pub(super) col_ids: Vec<usize>,
    pub(super) row_ids: Vec<usize>,
    pub(super) sums: Vec<f64>,
}

impl Drop for Checkpoints {
    fn drop(&mut self) {
        let levels = std::mem::take(&mut self.levels);
        SPARE_LEVELS.with_borrow_mut(|spare| {
            for v in levels {
                let held: usize = spare.iter().map(|l| l.sums.capacity()).sum();
                if held + v.sums.capacity() <= SPARE_VALUES {
                    spare.push(v);
                }
            }
        });
    }
}

thread_local! {
    static SPARE_LEVELS: RefCell<Vec<Level>> = const { RefCell::new(Vec::new()) };
}

/// The most values of level buffers kept per thread for reuse (32 MiB).
const SPARE_VALUES: usize = 1 << 22;

/// Steps between kept partial sums (a multiple of the loop's panels).
pub const STEP: usize = 32;

impl Checkpoints {
    /// Room for decompositions of at most `width` attributes (ids below `width`). The level
    /// buffers of a dropped store are reused by the next on the same thread (a fresh store
    /// costs its page faults); a level is read only after a decomposition of the same fit
    /// wrote it.
    pub fn new(width: usize) -> Checkpoints {
        let count = (1..).map(|l| l * STEP).take_while(|&k| k < width).count();
        let mut spare = SPARE_LEVELS.take();
        let levels = (0..count)
            .map(|_| spare.pop().unwrap_or_default())
            .collect();
        SPARE_LEVELS.set(spare);
        Checkpoints { width, levels }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// JAMA's loops as written (rows, sequential dot products): the reference.
    fn jama_rows(mut lu: Vec<Vec<f64>>, b: &[f64]) -> Option<Vec<f64>> {
        let n = lu.len();
        let mut piv: Vec<usize> = (0..n).collect();
        let mut col = vec![0.0; n];
        for j in 0..n {
            for i in 0..n {
                col[i] = lu[i][j];
            }
            for i in 0..n {
                let mut s = 0.0;
                for k in 0..i.min(j) {
                    s += lu[i][k] * col[k];
                }
                col[i] -= s;
                lu[i][j] = col[i];
            }
            let mut p = j;
            for i in j + 1..n {
                if col[i].abs() > col[p].abs() {
                    p = i;
                }
            }
            if p != j {
                lu.swap(p, j);
                piv.swap(p, j);
            }
            if lu[j][j] != 0.0 {
                for i in j + 1..n {
                    lu[i][j] /= lu[j][j];
                }
            }
        }
        if (0..n).any(|j| lu[j][j] == 0.0) {
            return None;
        }
        let mut x: Vec<f64> = piv.iter().map(|&p| b[p]).collect();
        for k in 0..n {
            for i in k + 1..n {
                x[i] -= x[k] * lu[i][k];
            }
        }
        for k in (0..n).rev() {
            x[k] /= lu[k][k];
            for i in 0..k {
                x[i] -= x[k] * lu[i][k];
            }
        }
        Some(x)
    }

    #[test]
    fn same_bits_as_jamas_row_loops() {
        let mut rng = crate::rng::JavaRandom::new(5);
        for n in [1, 2, 3, 7, 8, 9, 16, 17, 33, 65, 70, 100, 131] {
            let m: Vec<Vec<f64>> = (0..n)
                .map(|_| (0..n).map(|_| rng.next_double() - 0.5).collect())
                .collect();
            let sym: Vec<Vec<f64>> = (0..n)
                .map(|i| (0..n).map(|j| m[i][j] + m[j][i]).collect())
                .collect();
            let b: Vec<f64> = (0..n).map(|i| i as f64 - 1.5).collect();
            let fast = lu_solve(ColMajor::symmetric(n, |i, j| sym[i][j]), &b).unwrap();
            let mut plain = Factors {
                n,
                lu: ColMajor::symmetric(n, |i, j| sym[i][j]).a,
                piv: (0..n).collect(),
                sums: None,
            };
            factor_body(n, &mut plain.lu, &mut plain.piv, 0, 0, None);
            let plain = plain.solve(&b).unwrap();
            let slow = jama_rows(sym.clone(), &b).unwrap();
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&fast), bits(&slow), "n = {n}");
            assert_eq!(bits(&plain), bits(&slow), "n = {n}");
        }
    }

    #[test]
    fn detects_singular() {
        let m = [[1.0, 2.0], [2.0, 4.0]];
        assert!(lu_solve(ColMajor::symmetric(2, |i, j| m[i][j]), &[1.0, 2.0]).is_none());
        let m = [[2.0, 1.0], [1.0, 3.0]];
        let s = lu_solve(ColMajor::symmetric(2, |i, j| m[i][j]), &[3.0, 5.0]).unwrap();
        assert!((s[0] - 0.8).abs() < 1e-12 && (s[1] - 1.4).abs() < 1e-12);
    }
}
