//! A decomposition of the same symmetric system with one attribute dropped, reusing what
//! JAMA's loop would compute again: LinearRegression's attribute elimination drops one
//! attribute per step and refits (Weka 3.6's `LinearRegression.findBestModel`).

use super::jama::{runs, Factors, STEP};

impl Factors {
    /// JAMA's decomposition of the reduced matrix, this matrix without row and column `r`,
    /// whose entry at row i and column j (reduced numbering) is `reduced(j)(i)`; only the
    /// entries JAMA's loop still reads are asked for. JAMA's
    /// first columns are taken from these factors where they are provably the same. Row r
    /// starts at position r and moves only when it is chosen as a pivot (a swap displaces
    /// only the row at the current step's position, and the steps before r never sit at r).
    /// So until a step picks it, every other row keeps its value (formed from its own
    /// entries and the pivot rows') and its order relative to the rest (rows after r shift
    /// down together), and each step picks the same pivot, ties included. The steps j <
    /// keep = min(r, final position of row r) are reused whole; in the later columns the
    /// pivot rows of steps below the last kept level K <= keep keep their values too, and
    /// every other row resumes its sum from the kept sum over steps k < K, which those same
    /// steps formed. JAMA's loop forms the rest, so every bit is that of a fresh
    /// decomposition.
    pub fn without<C: Fn(usize) -> f64>(self, r: usize, reduced: impl Fn(usize) -> C) -> Factors {
        let n = self.n;
        let m = n - 1;
        debug_assert!(r < n);
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
        let start = if self.sums.is_some() {
            keep / STEP * STEP
        } else {
            0
        };
        // Each reused column is copied run by run.
        let src_runs = runs(src.iter().copied());
        let mut lu = Vec::with_capacity(m * m);
        for k in 0..keep {
            let old = &self.lu[k * n..(k + 1) * n];
            for &(_, from, len) in &src_runs {
                lu.extend_from_slice(&old[from..from + len]);
            }
        }
        for j in keep..m {
            // Rows at positions below `start` (< keep) have not moved since their step.
            let old = &self.lu[(if j < r { j } else { j + 1 }) * n..][..start];
            lu.extend_from_slice(old);
            let col = reduced(j);
            lu.extend(piv[start..].iter().map(|&id| col(id)));
        }
        let sums = self.sums.map(|(mut ids, c)| {
            ids.remove(r);
            (ids, c)
        });
        let mut f = Factors {
            n: m,
            lu,
            piv,
            sums,
        };
        f.factor_from(keep, start);
        f
    }
}

#[cfg(test)]
mod tests {
    use super::super::jama::{lu_solve, Checkpoints, ColMajor};
    use super::*;

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

    /// A decomposition that keeps its partial sums (attribute ids 0..n).
    fn recorded_rows(m: &[Vec<f64>]) -> Factors {
        let n = m.len();
        Factors::recorded(
            ColMajor::symmetric(n, |i, j| m[i][j]),
            (0..n).collect(),
            Checkpoints::new(n),
        )
    }

    fn bits(v: &[f64]) -> Vec<u64> {
        v.iter().map(|x| x.to_bits()).collect()
    }

    /// Removing one row and column from a factored matrix gives the bits of a fresh
    /// decomposition, on Gram-like matrices (little pivoting), on random symmetric ones (much
    /// pivoting) and on matrices with repeated columns (tied pivot candidates), down to 1 x 1.
    #[test]
    fn without_is_a_fresh_decomposition() {
        let mut rng = crate::rng::JavaRandom::new(11);
        let mut reused = 0;
        let cases = [
            (0, 12),
            (1, 12),
            (2, 12),
            (0, 40),
            (1, 33),
            (2, 25),
            (0, 100),
            (1, 80),
            (2, 70),
        ];
        for ((shape, n), recorded) in cases.into_iter().flat_map(|c| [(c, false), (c, true)]) {
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
            let mut f = if recorded {
                recorded_rows(&cur)
            } else {
                of_rows(&cur)
            };
            let mut step = 0;
            while cur.len() > 1 {
                let r = (step * 7 + 3) % cur.len();
                let next = minor(&cur, r);
                reused += usize::from(r > 0 && f.piv[0] != r);
                let g = f.without(r, |j| {
                    let next = &next;
                    move |i| next[i][j]
                });
                let fresh = of_rows(&next);
                let what = format!("shape {shape} n {n} r {r} recorded {recorded}");
                assert_eq!(bits(&g.lu), bits(&fresh.lu), "{what}");
                assert_eq!(g.piv, fresh.piv, "{what}");
                let b: Vec<f64> = (0..next.len()).map(|i| i as f64 * 0.25 - 1.0).collect();
                match (
                    g.solve(&b),
                    lu_solve(ColMajor::symmetric(next.len(), |i, j| next[i][j]), &b),
                ) {
                    (Some(a), Some(c)) => assert_eq!(bits(&a), bits(&c)),
                    (a, c) => assert_eq!(a.is_none(), c.is_none()),
                }
                cur = next;
                f = g;
                step += 1;
            }
        }
        assert!(reused > 50, "too few steps reused a prefix: {reused}");
    }

    /// Small integer matrices tie pivot candidates often; the reused steps still pick JAMA's
    /// pivot among tied rows, as the rows keep their relative order; larger ones also start
    /// later columns from kept sums.
    #[test]
    fn without_handles_tied_pivots() {
        let mut rng = crate::rng::JavaRandom::new(3);
        for trial in 0..3030 {
            let n = if trial < 3000 {
                4 + trial % 6
            } else {
                40 + trial % 40
            };
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
            for r in 0..n {
                let next = minor(&m, r);
                let fresh = of_rows(&next);
                for f in [of_rows(&m), recorded_rows(&m)] {
                    let g = f.without(r, |j| {
                        let next = &next;
                        move |i| next[i][j]
                    });
                    assert_eq!(bits(&g.lu), bits(&fresh.lu), "trial {trial} r {r}");
                    assert_eq!(g.piv, fresh.piv, "trial {trial} r {r}");
                }
            }
        }
    }
}
