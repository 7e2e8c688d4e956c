//! The loops of the Gaussian process's kernel columns that run along the queries, compiled
//! twice: for any x86-64 and, picked at run time where the CPU has it, for AVX2
//! ([`advise_ml::avx2_dispatch`]; the same bits, which the test below checks).

advise_ml::avx2_dispatch! {
    /// Sets row `i` of `k` (`c` wide) to the squared distances between training row `i` of `x`
    /// (`p` features each) and each of the `c` queries of `qt` (feature-major: feature `j` of
    /// all queries, then feature `j + 1`), summed feature by feature in order: the first
    /// feature's square is stored (as adding it to 0.0 would: squares are never -0.0), so `k`
    /// needs no zeroing first.
    pub(super) fn squared_distances_into(x: &[f64], p: usize, qt: &[f64], c: usize, k: &mut [f64])
        = squared_distances, avx2 squared_distances_avx2;
}

#[inline(always)]
fn squared_distances(x: &[f64], p: usize, qt: &[f64], c: usize, k: &mut [f64]) {
    for (i, row) in k.chunks_exact_mut(c).enumerate() {
        let xi = &x[i * p..(i + 1) * p];
        let mut features = xi.iter().zip(qt.chunks_exact(c));
        match features.next() {
            Some((&v, column)) => {
                for (d, &y) in row.iter_mut().zip(column) {
                    *d = (v - y) * (v - y);
                }
            }
            None => row.fill(0.0),
        }
        for (&v, column) in features {
            for (d, &y) in row.iter_mut().zip(column) {
                *d += (v - y) * (v - y);
            }
        }
    }
}

advise_ml::avx2_dispatch! {
    /// [`squared_distances_into`] of level indices in 16-bit whole numbers (sixteen to a
    /// vector where `f64`s go four): exact where every squared distance is below 2^16, as the
    /// caller ensures (the wrapping arithmetic then wraps nowhere in the sums, and a negative
    /// difference's square is the positive one's).
    pub(super) fn whole_squared_distances_into(x: &[u16], p: usize, qt: &[u16], c: usize, k: &mut [u16])
        = whole_squared_distances, avx2 whole_squared_distances_avx2;
}

#[inline(always)]
fn whole_squared_distances(x: &[u16], p: usize, qt: &[u16], c: usize, k: &mut [u16]) {
    for (i, row) in k.chunks_exact_mut(c.max(1)).enumerate() {
        row.fill(0);
        let xi = &x[i * p..(i + 1) * p];
        for (&v, column) in xi.iter().zip(qt.chunks_exact(c.max(1))) {
            for (d, &y) in row.iter_mut().zip(column) {
                let e = v.wrapping_sub(y);
                *d = d.wrapping_add(e.wrapping_mul(e));
            }
        }
    }
}

advise_ml::avx2_dispatch! {
    /// Adds to each of the `c` entries of `sums` the entries of the rows of `k` (`c` wide)
    /// times the rows' weights `w`, row by row in order.
    pub(super) fn add_weighted_rows(k: &[f64], c: usize, w: &[f64], sums: &mut [f64])
        = weighted_rows, avx2 weighted_rows_avx2;
}

#[inline(always)]
fn weighted_rows(k: &[f64], c: usize, w: &[f64], sums: &mut [f64]) {
    for (row, a) in k.chunks_exact(c).zip(w) {
        for (m, kv) in sums.iter_mut().zip(row) {
            *m += kv * a;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use advise_ml::Rng;

    #[test]
    fn dispatched_loops_give_the_portable_loops_bits() {
        // Synthetic rows and queries from a seeded generator; odd widths leave vector tails.
        let mut rng = Rng::new(5);
        for (n, p, c) in [(1, 1, 1), (2, 0, 3), (7, 3, 13), (30, 10, 103)] {
            let x: Vec<f64> = (0..n * p).map(|_| rng.unit()).collect();
            let qt: Vec<f64> = (0..p * c).map(|_| rng.unit()).collect();
            let w: Vec<f64> = (0..n).map(|_| rng.unit() - 0.5).collect();
            // Filled with garbage first: every entry is set; and as summing from 0.0 gives.
            let (mut k1, mut k2) = (vec![7.0; n * c], vec![-3.0; n * c]);
            squared_distances_into(&x, p, &qt, c, &mut k1);
            squared_distances(&x, p, &qt, c, &mut k2);
            let mut from_zero = vec![0.0; n * c];
            for (i, row) in from_zero.chunks_exact_mut(c).enumerate() {
                for j in 0..p {
                    for (q, d) in row.iter_mut().enumerate() {
                        *d += (x[i * p + j] - qt[j * c + q]) * (x[i * p + j] - qt[j * c + q]);
                    }
                }
            }
            let (mut s1, mut s2) = (vec![-0.0; c], vec![-0.0; c]);
            add_weighted_rows(&k1, c, &w, &mut s1);
            weighted_rows(&k2, c, &w, &mut s2);
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&k1), bits(&k2), "distances, n {n} p {p} c {c}");
            assert_eq!(bits(&k1), bits(&from_zero), "from 0.0, n {n} p {p} c {c}");
            assert_eq!(bits(&s1), bits(&s2), "sums, n {n} p {p} c {c}");
        }
    }

    #[test]
    fn whole_distances_of_level_indices_are_the_numbers_distances() {
        // Synthetic level indices from a seeded generator, up to 37 levels (hotspot's most),
        // and the largest difference 2^8 - 1 whose square fits; odd widths leave vector tails.
        let mut rng = Rng::new(8);
        for (n, p, c, levels) in [
            (1, 1, 1, 2),
            (7, 3, 13, 37),
            (30, 11, 103, 37),
            (3, 1, 5, 256),
        ] {
            let x: Vec<u16> = (0..n * p).map(|_| rng.below(levels) as u16).collect();
            let mut qt: Vec<u16> = (0..p * c).map(|_| rng.below(levels) as u16).collect();
            if levels == 256 {
                qt[0] = 0;
                qt[1] = 255;
            }
            let as_numbers = |v: &[u16]| v.iter().map(|&l| f64::from(l)).collect::<Vec<_>>();
            let mut want = vec![0.0; n * c];
            squared_distances(&as_numbers(&x), p, &as_numbers(&qt), c, &mut want);
            let (mut k1, mut k2) = (vec![9u16; n * c], vec![1u16; n * c]);
            whole_squared_distances_into(&x, p, &qt, c, &mut k1);
            whole_squared_distances(&x, p, &qt, c, &mut k2);
            assert_eq!(k1, k2, "n {n} p {p} c {c}");
            let got: Vec<f64> = k1.iter().map(|&d| f64::from(d)).collect();
            assert_eq!(got, want, "n {n} p {p} c {c}");
        }
    }
}
