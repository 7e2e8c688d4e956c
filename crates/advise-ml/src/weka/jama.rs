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

/// Solves `m x = b` as JAMA's `LUDecomposition(m).solve(b)`; `None` when a pivot is exactly
/// zero (JAMA's "Matrix is singular").
pub fn lu_solve(m: ColMajor, b: &[f64]) -> Option<Vec<f64>> {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, the one requirement of `lu_solve_avx2`.
        return unsafe { lu_solve_avx2(m, b) };
    }
    lu_solve_body(m, b)
}

/// [`lu_solve_body`] compiled for AVX2: wider vectors for the same operations in the same
/// order (no fused multiply-add: Rust never contracts a multiply and an add), so the same bits.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn lu_solve_avx2(m: ColMajor, b: &[f64]) -> Option<Vec<f64>> {
    lu_solve_body(m, b)
}

#[inline(always)]
fn lu_solve_body(m: ColMajor, b: &[f64]) -> Option<Vec<f64>> {
    let ColMajor { n, a: mut lu } = m;
    let mut piv: Vec<usize> = (0..n).collect();
    let mut col = vec![0.0; n];
    let mut s = vec![0.0; n];
    for j in 0..n {
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
    if (0..n).any(|j| lu[j * n + j] == 0.0) {
        return None;
    }
    let mut x: Vec<f64> = piv.iter().map(|&p| b[p]).collect();
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
            let plain = lu_solve_body(ColMajor::symmetric(n, |i, j| sym[i][j]), &b).unwrap();
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
