//! Uncertainty of accuracy figures: a seeded generator, bootstrap confidence intervals that
//! resample whole test tuples (the 32 samples of one input and run are not independent), and
//! McNemar's exact test of two methods judged on the same samples.

use serde::Serialize;

/// SplitMix64: a small, fast generator whose output is fixed by its seed on every platform.
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in 0..n (n > 0), without modulo bias worth speaking of for n << 2^64.
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }
}

/// A 95% interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Interval {
    pub low: f64,
    pub high: f64,
}

/// Percentile bootstrap over groups: each resample draws as many groups as there are, with
/// replacement, and evaluates `statistic` on the samples of the drawn groups. `groups[i]` is
/// the group of sample i. Resamples where the statistic is undefined are skipped.
pub fn bootstrap_grouped(
    groups: &[usize],
    resamples: usize,
    seed: u64,
    statistic: impl Fn(&[usize]) -> Option<f64>,
) -> Option<Interval> {
    let ngroups = groups.iter().copied().max().map(|m| m + 1)?;
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); ngroups];
    for (i, &g) in groups.iter().enumerate() {
        members[g].push(i);
    }
    members.retain(|m| !m.is_empty());
    let mut rng = SplitMix64::new(seed);
    let mut values = Vec::with_capacity(resamples);
    let mut drawn = Vec::new();
    for _ in 0..resamples {
        drawn.clear();
        for _ in 0..members.len() {
            drawn.extend_from_slice(&members[rng.below(members.len())]);
        }
        if let Some(v) = statistic(&drawn) {
            values.push(v);
        }
    }
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    Some(Interval {
        low: percentile(&values, 2.5),
        high: percentile(&values, 97.5),
    })
}

/// Linear-interpolated percentile of sorted values.
pub fn percentile(sorted: &[f64], p: f64) -> f64 {
    let pos = p / 100.0 * (sorted.len() - 1) as f64;
    let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
    sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
}

/// McNemar's exact test: `a_only` samples only method A got right, `b_only` only B. Returns
/// the two-sided p-value of the binomial test of a_only vs b_only at p = 1/2.
pub fn mcnemar_exact(a_only: usize, b_only: usize) -> f64 {
    let n = a_only + b_only;
    if n == 0 {
        return 1.0;
    }
    let k = a_only.min(b_only);
    // P(X <= k) for X ~ Binomial(n, 1/2), in log space to stay exact enough for large n.
    let ln_half_n = -(n as f64) * std::f64::consts::LN_2;
    let mut ln_c = 0.0; // ln C(n, 0)
    let mut tail = 0.0;
    for i in 0..=k {
        if i > 0 {
            ln_c += ((n - i + 1) as f64).ln() - (i as f64).ln();
        }
        tail += (ln_c + ln_half_n).exp();
    }
    (2.0 * tail).min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generator_is_fixed_by_its_seed() {
        let a: Vec<u64> = (0..3)
            .map({
                let mut r = SplitMix64::new(7);
                move |_| r.next_u64()
            })
            .collect();
        let b: Vec<u64> = (0..3)
            .map({
                let mut r = SplitMix64::new(7);
                move |_| r.next_u64()
            })
            .collect();
        assert_eq!(a, b);
        // Reference value of SplitMix64 for seed 0 (Vigna's reference implementation).
        assert_eq!(SplitMix64::new(0).next_u64(), 0xE220_A839_7B1D_CDAF);
    }

    #[test]
    fn mcnemar_known_values() {
        assert_eq!(mcnemar_exact(0, 0), 1.0);
        // n = 10, k = 1: 2 * (1 + 10) / 1024
        assert!((mcnemar_exact(9, 1) - 22.0 / 1024.0).abs() < 1e-12);
        assert!((mcnemar_exact(5, 5) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn bootstrap_of_a_constant_is_that_constant() {
        let groups = vec![0, 0, 1, 1, 2, 2];
        let ci =
            bootstrap_grouped(&groups, 200, 1, |s| Some(s.len() as f64 / s.len() as f64)).unwrap();
        assert_eq!((ci.low, ci.high), (1.0, 1.0));
        let ci = bootstrap_grouped(&groups, 500, 1, |s| {
            Some(s.iter().filter(|&&i| i < 2).count() as f64 / s.len() as f64)
        })
        .unwrap();
        assert!(ci.low <= 1.0 / 3.0 && ci.high >= 1.0 / 3.0, "{ci:?}");
    }
}
