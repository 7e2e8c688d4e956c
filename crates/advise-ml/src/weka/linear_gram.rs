//! A'A and A'y of Weka 3.6 LinearRegression's standardized columns (its normal equations
//! before the ridge). Each entry is a sum of its own, one product per row added in row
//! order from 0.0, so any subset of attributes reads its normal equations from here bit for
//! bit.
//!
//! The upper triangle is formed in register tiles of four attributes by eight: for every
//! row, the tile's 32 sums take their products at once (the row's four and eight values
//! loaded once, each sum kept in a register over all rows), instead of loading and storing
//! every sum once a row. A product `z_a * z_b` is the same number either way round, and each
//! sum still adds its rows in order. When the matrix is large the tiles are shared with the
//! helper thread, in two parts of about equal work.

use crate::helper_thread::join;

/// Attributes of a tile: `TA` by `TB`.
const TA: usize = 4;
const TB: usize = 8;

/// Rows times attributes squared from which the tiles are shared with the helper thread.
const SPLIT_WORK: usize = 1 << 20;

/// The Gram matrix (`p` by `p`, zero for columns outside `live`) and A'y of the columns
/// `live` of `cols`, each standardized by its mean and standard deviation.
pub(super) fn normal_sums(
    cols: &[Vec<f64>],
    y: &[f64],
    means: &[f64],
    std_devs: &[f64],
    live: &[usize],
) -> (Vec<Vec<f64>>, Vec<f64>) {
    let p = cols.len();
    let n = y.len();
    let w = live.len();
    if w == 0 {
        return (vec![vec![0.0; p]; p], vec![0.0; p]);
    }
    // The standardized rows, zero-padded to whole tiles.
    let wp = w.div_ceil(TB) * TB;
    let mut z = vec![0.0; n * wp];
    for (c, &j) in live.iter().enumerate() {
        let (m, sd) = (means[j], std_devs[j]);
        for (r, &v) in cols[j].iter().enumerate().take(n) {
            z[r * wp + c] = (v - m) / sd;
        }
    }
    let mut ya = vec![0.0; wp];
    for (row, &yr) in z.chunks_exact(wp).zip(y) {
        for (s, &u) in ya.iter_mut().zip(row) {
            *s += u * yr;
        }
    }
    // Tile rows (of TA attributes) in two parts of about equal work: tile row t covers the
    // attributes from its diagonal tile on.
    let tiles = wp / TA;
    let work = |t: usize| wp - (t * TA) / TB * TB;
    let total: usize = (0..tiles).map(work).sum();
    let mut split = tiles;
    if n * w * w >= SPLIT_WORK {
        let mut acc = 0;
        split = (0..tiles)
            .find(|&t| {
                acc += work(t);
                2 * acc >= total
            })
            .map_or(tiles, |t| t + 1);
    }
    let mut upper = vec![0.0; wp * wp];
    let (ua, ub) = upper.split_at_mut(split * TA * wp);
    if split < tiles {
        join(
            || tile_rows(&z, wp, 0..split, ua),
            || tile_rows(&z, wp, split..tiles, ub),
        );
    } else {
        tile_rows(&z, wp, 0..tiles, ua);
    }
    let mut gram = vec![vec![0.0; p]; p];
    let mut aty = vec![0.0; p];
    for (ia, &a) in live.iter().enumerate() {
        for (ib, &b) in live.iter().enumerate().skip(ia) {
            let v = upper[ia * wp + ib];
            gram[a][b] = v;
            gram[b][a] = v;
        }
        aty[a] = ya[ia];
    }
    (gram, aty)
}

crate::avx2_dispatch! {
    /// The tiles of tile rows `rows` (each TA attributes, from its diagonal tile to the last
    /// column), into `out` (TA rows of `wp` a tile row, the first tile row's at 0).
    fn tile_rows(z: &[f64], wp: usize, rows: std::ops::Range<usize>, out: &mut [f64])
        = tile_rows_body, avx2 tile_rows_avx2;
}

#[inline(always)]
fn tile_rows_body(z: &[f64], wp: usize, rows: std::ops::Range<usize>, out: &mut [f64]) {
    let first = rows.start;
    for t in rows {
        let a0 = t * TA;
        let mut b0 = a0 / TB * TB;
        while b0 < wp {
            let mut acc = [[0.0; TB]; TA];
            for row in z.chunks_exact(wp) {
                let (Ok(za), Ok(zb)) = (
                    <&[f64; TA]>::try_from(&row[a0..a0 + TA]),
                    <&[f64; TB]>::try_from(&row[b0..b0 + TB]),
                ) else {
                    continue;
                };
                for (s, &u) in acc.iter_mut().zip(za) {
                    for (sb, &v) in s.iter_mut().zip(zb) {
                        *sb += u * v;
                    }
                }
            }
            for (i, s) in acc.iter().enumerate() {
                let at = ((t - first) * TA + i) * wp + b0;
                out[at..at + TB].copy_from_slice(s);
            }
            b0 += TB;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every entry is the row-ordered sum of its products, as the plain loop forms it.
    #[test]
    fn same_sums_as_the_row_loop() {
        let mut rng = crate::rng::JavaRandom::new(7);
        for (n, p) in [(5, 1), (4, 3), (9, 3), (40, 13), (200, 37), (300, 70)] {
            let cols: Vec<Vec<f64>> = (0..p)
                .map(|j| {
                    (0..n)
                        .map(|_| {
                            if j == 2 {
                                1.0
                            } else {
                                rng.next_double() * 3.0 - 1.0
                            }
                        })
                        .collect()
                })
                .collect();
            let y: Vec<f64> = (0..n).map(|_| rng.next_double()).collect();
            let means: Vec<f64> = cols
                .iter()
                .map(|c| c.iter().sum::<f64>() / n as f64)
                .collect();
            let sds: Vec<f64> = (0..p)
                .map(|j| if j == 2 { 0.0 } else { 0.5 + j as f64 })
                .collect();
            let live: Vec<usize> = (0..p).filter(|&j| sds[j] != 0.0).collect();
            let (gram, aty) = normal_sums(&cols, &y, &means, &sds, &live);
            let z = |r: usize, j: usize| (cols[j][r] - means[j]) / sds[j];
            for &a in &live {
                for &b in &live {
                    let mut s = 0.0;
                    for r in 0..n {
                        s += z(r, a) * z(r, b);
                    }
                    assert_eq!(gram[a][b].to_bits(), s.to_bits(), "n {n} p {p} ({a}, {b})");
                }
                let mut s = 0.0;
                for (r, &yr) in y.iter().enumerate() {
                    s += z(r, a) * yr;
                }
                assert_eq!(aty[a].to_bits(), s.to_bits());
            }
            if p > 2 {
                assert!(gram[2].iter().all(|&v| v == 0.0));
            }
        }
    }
}
