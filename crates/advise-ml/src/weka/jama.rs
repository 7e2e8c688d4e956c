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
#[derive(Debug, Clone)]
pub struct Factors {
    pub n: usize,
    lu: Vec<f64>,
    piv: Vec<usize>,
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
        };
        f.factor_from(0);
        f
    }

    /// JAMA's decomposition of `reduced`, this matrix without row and column `r`. JAMA's first columns are taken from
    /// these factors where they are provably the same. Row r starts at position r and moves
    /// only when it is chosen as a pivot (a swap displaces only the row at the current step's
    /// position, and the steps before r never sit at r). So until a step picks it, every
    /// other row keeps its value (formed from its own entries and the pivot rows') and its
    /// order relative to the rest (rows after r shift down together), and each step picks
    /// the same pivot, ties included. The steps j < min(r, final position of row r) are
    /// reused; JAMA's loop forms the rest, so every bit is that of a fresh decomposition.
    pub fn without(&self, r: usize, reduced: &ColMajor) -> Factors {
        let n = self.n;
        let m = n - 1;
        debug_assert!(r < n && reduced.n == m);
        let keep = self
            .piv
            .iter()
            .position(|&id| id == r)
            .map_or(r, |p| p.min(r));
        // The reduced rows' order after `keep` steps: JAMA's swaps replayed on the rows
        // without r (ids in the reduced numbering).
        let reduced_id = |id: usize| if id < r { id } else { id - 1 };
        let mut piv: Vec<usize> = (0..m).collect();
        let mut pos: Vec<usize> = (0..m).collect();
        for j in 0..keep {
            let p = pos[reduced_id(self.piv[j])];
            piv.swap(j, p);
            pos[piv[j]] = j;
            pos[piv[p]] = p;
        }
        let mut final_pos = vec![0; n];
        for (i, &id) in self.piv.iter().enumerate() {
            final_pos[id] = i;
        }
        // Where each reduced row's reused entries sit in these factors.
        let src: Vec<usize> = piv
            .iter()
            .map(|&id| final_pos[if id < r { id } else { id + 1 }])
            .collect();
        let mut lu = Vec::with_capacity(m * m);
        for k in 0..keep {
            let old = &self.lu[k * n..(k + 1) * n];
            lu.extend(src.iter().map(|&i| old[i]));
        }
        for j in keep..m {
            let col = &reduced.a[j * m..(j + 1) * m];
            lu.extend(piv.iter().map(|&id| col[id]));
        }
        let mut f = Factors { n: m, lu, piv };
        f.factor_from(keep);
        f
    }

    fn factor_from(&mut self, from: usize) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2, the one requirement of `factor_avx2`.
            unsafe { factor_avx2(self.n, &mut self.lu, &mut self.piv, from) };
            return;
        }
        factor_body(self.n, &mut self.lu, &mut self.piv, from)
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
unsafe fn factor_avx2(n: usize, lu: &mut [f64], piv: &mut [usize], from: usize) {
    factor_body(n, lu, piv, from)
}

/// JAMA's loop over columns `from..n`, columns before `from` being final already.
#[inline(always)]
fn factor_body(n: usize, lu: &mut [f64], piv: &mut [usize], from: usize) {
    let mut col = vec![0.0; n];
    let mut s = vec![0.0; n];
    for j in from..n {
        col.copy_from_slice(&lu[j * n..(j + 1) * n]);
        s.iter_mut().for_each(|v| *v = 0.0);
        let mut k = 0;
        while k < j {
            // Four terms per pass over the open sums: each sum is loaded and stored once for
            // its terms k..k+4, still added one after another in increasing k.
            let kb = (j - k).min(4);
            let mut c = [0.0; 4];
            for a in 0..kb {
                // Row k + a (< j) first takes its terms k..k+a of this pass, then is final.
                let r = k + a;
                for (t, &ct) in c.iter().enumerate().take(a) {
                    s[r] += lu[(k + t) * n + r] * ct;
                }
                col[r] -= s[r];
                c[a] = col[r];
            }
            let from = k + kb;
            if kb == 4 {
                let l0 = &lu[k * n + from..(k + 1) * n];
                let l1 = &lu[(k + 1) * n + from..(k + 2) * n];
                let l2 = &lu[(k + 2) * n + from..(k + 3) * n];
                let l3 = &lu[(k + 3) * n + from..(k + 4) * n];
                for ((((si, &a0), &a1), &a2), &a3) in
                    s[from..].iter_mut().zip(l0).zip(l1).zip(l2).zip(l3)
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
                    for (si, &l) in s[from..].iter_mut().zip(lt) {
                        *si += l * ct;
                    }
                }
            }
            k += kb;
        }
        for i in j..n {
            col[i] -= s[i];
        }
        lu[j * n..(j + 1) * n].copy_from_slice(&col);
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
            piv.swap(p, j);
        }
        let d = lu[j * n + j];
        if d != 0.0 {
            for v in &mut lu[j * n + j + 1..(j + 1) * n] {
                *v /= d;
            }
        }
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
        for n in [1, 2, 3, 7, 8, 9, 16, 17, 33, 70] {
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
            };
            factor_body(n, &mut plain.lu, &mut plain.piv, 0);
            let plain = plain.solve(&b).unwrap();
            let slow = jama_rows(sym.clone(), &b).unwrap();
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&fast), bits(&slow), "n = {n}");
            assert_eq!(bits(&plain), bits(&slow), "n = {n}");
        }
    }

    /// `m` without row and column `r`.
    fn minor(m: &[Vec<f64>], r: usize) -> Vec<Vec<f64>> {
        m.iter()
            .enumerate()
            .filter(|&(i, _)| i != r)
            .map(|(_, row)| {
                row.iter()
                    .enumerate()
                    .filter(|&(j, _)| j != r)
                    .map(|(_, &v)| v)
                    .collect()
            })
            .collect()
    }

    fn of_rows(m: &[Vec<f64>]) -> Factors {
        Factors::of(ColMajor::symmetric(m.len(), |i, j| m[i][j]))
    }

    /// Removing one row and column from a factored matrix gives the bits of a fresh
    /// decomposition, on Gram-like matrices (little pivoting), on random symmetric ones (much
    /// pivoting) and on matrices with repeated columns (tied pivot candidates), down to 1 x 1.
    #[test]
    fn without_is_a_fresh_decomposition() {
        let mut rng = crate::rng::JavaRandom::new(11);
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        let mut reused = 0;
        for (shape, n) in [(0, 12), (1, 12), (2, 12), (0, 40), (1, 33), (2, 25)] {
            let rows = n + 5;
            let mut x: Vec<Vec<f64>> = (0..rows)
                .map(|_| (0..n).map(|_| rng.next_double() - 0.5).collect())
                .collect();
            if shape == 2 {
                for row in &mut x {
                    row[3] = row[1];
                    row[n - 1] = -row[1];
                    row[5] = row[2] * 2.0;
                }
            }
            let mut m: Vec<Vec<f64>> = (0..n)
                .map(|i| {
                    (0..n)
                        .map(|j| x.iter().map(|row| row[i] * row[j]).sum::<f64>())
                        .collect()
                })
                .collect();
            if shape == 1 {
                m = (0..n)
                    .map(|i| (0..n).map(|j| x[i][j] + x[j][i]).collect())
                    .collect();
            }
            for (i, row) in m.iter_mut().enumerate() {
                row[i] += 1e-8;
            }
            // Remove rows one after another (each step from the previous factors), taking
            // every position in turn.
            let mut cur = m.clone();
            let mut f = of_rows(&cur);
            let mut step = 0;
            while cur.len() > 1 {
                let r = (step * 7 + 3) % cur.len();
                let next = minor(&cur, r);
                let g = f.without(r, &ColMajor::symmetric(next.len(), |i, j| next[i][j]));
                let fresh = of_rows(&next);
                assert_eq!(bits(&g.lu), bits(&fresh.lu), "shape {shape} n {n} r {r}");
                assert_eq!(g.piv, fresh.piv, "shape {shape} n {n} r {r}");
                let b: Vec<f64> = (0..next.len()).map(|i| i as f64 * 0.25 - 1.0).collect();
                match (
                    g.solve(&b),
                    lu_solve(ColMajor::symmetric(next.len(), |i, j| next[i][j]), &b),
                ) {
                    (Some(a), Some(c)) => assert_eq!(bits(&a), bits(&c)),
                    (a, c) => assert_eq!(a.is_none(), c.is_none()),
                }
                reused += usize::from(r > 0 && f.piv[0] != r);
                cur = next;
                f = g;
                step += 1;
            }
        }
        assert!(reused > 50, "too few steps reused a prefix: {reused}");
    }

    /// Small integer matrices tie pivot candidates often; the reused steps still pick JAMA's
    /// pivot among tied rows, as the rows keep their relative order.
    #[test]
    fn without_handles_tied_pivots() {
        let mut rng = crate::rng::JavaRandom::new(3);
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        for trial in 0..3000 {
            let n = 4 + trial % 6;
            let lower: Vec<Vec<f64>> = (0..n)
                .map(|i| {
                    (0..=i)
                        .map(|_| (rng.next_double() * 5.0).floor() - 2.0)
                        .collect()
                })
                .collect();
            let m: Vec<Vec<f64>> = (0..n)
                .map(|i| (0..n).map(|j| lower[i.max(j)][i.min(j)]).collect())
                .collect();
            let f = of_rows(&m);
            for r in 0..n {
                let next = minor(&m, r);
                let g = f.without(r, &ColMajor::symmetric(next.len(), |i, j| next[i][j]));
                let fresh = of_rows(&next);
                assert_eq!(bits(&g.lu), bits(&fresh.lu), "trial {trial} r {r}");
                assert_eq!(g.piv, fresh.piv, "trial {trial} r {r}");
            }
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
