//! `synthetic`: a seeded, generated regression dataset for benchmarks, shaped like speedup
//! samples (rows x counters, target around 1). Columns are uniform in [0, 1) except every tenth,
//! which takes 5 integer levels (so trees and neighbours meet ties); the target depends on four
//! columns plus Gaussian noise.

use crate::data::Data;
use crate::rng::JavaRandom;

/// `rows` x `cols` features and a target `speedup`, the same for the same seed.
pub fn synthetic(rows: usize, cols: usize, seed: i64) -> Data {
    let mut rand = JavaRandom::new(seed);
    let names: Vec<String> = (0..cols).map(|j| format!("c{j:03}")).collect();
    let mut x = Vec::with_capacity(rows);
    let mut y = Vec::with_capacity(rows);
    for _ in 0..rows {
        let row: Vec<f64> = (0..cols)
            .map(|j| {
                let u = rand.next_double();
                if j % 10 == 9 {
                    (u * 5.0).floor()
                } else {
                    u
                }
            })
            .collect();
        let at = |j: usize| row.get(j).copied().unwrap_or(0.0);
        // Box-Muller from two uniforms.
        let (u1, u2) = (rand.next_double().max(1e-300), rand.next_double());
        let noise = (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos();
        y.push(1.0 + 0.5 * at(0) - 0.3 * at(1) * at(2) + 0.2 * (3.0 * at(3)).sin() + 0.05 * noise);
        x.push(row);
    }
    Data::numeric(&names, "speedup", x, y)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeded_and_shaped() {
        let a = synthetic(10, 25, 7);
        let b = synthetic(10, 25, 7);
        assert_eq!(a.x, b.x);
        assert_eq!(a.y, b.y);
        assert_eq!(a.x[0].len(), 25);
        assert!(a.x.iter().all(|r| r[9].fract() == 0.0));
    }
}
