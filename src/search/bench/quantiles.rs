//! Quantiles of the runs' fractions of the optimum, and distribution-free confidence intervals
//! for them: how far a median or 5th percentile of `--repeats` runs can be trusted.
//!
//! The number of runs at or below the true q-quantile is binomial (n, q), so the interval
//! between two order statistics of the sorted runs covers the quantile with a probability
//! that the binomial distribution gives, whatever the distribution of the fractions
//! (Conover, "Practical Nonparametric Statistics", 3rd ed., 1999, section 3.2; Hahn and
//! Meeker, "Statistical Intervals", 1991, section 5.2). The 5th percentile of 100 runs, for
//! one, lies between the smallest and the 11th smallest of them with 95% confidence: for
//! `auto` on RTE-RRTMGP's adding kernel at 1% about 0.78-0.91 of the optimum in each of ten
//! seed sets, where a 5th percentile of 0.90 decides a goal (docs/search-results.md, "Kernel
//! Tuner's strategies re-run with 300 to 2,000 seeds").

/// The two-sided interval of confidence `level` (0.95) for the q-quantile of the sorted
/// values: the order statistics x_(l) and x_(u) (1-based) with l the largest rank whose
/// P(B < l) is at most (1 - level) / 2 and u the smallest whose P(B >= u) is, B binomial
/// (n, q). Where the runs are too few for a bound at that level (no such l, or no such u
/// within n), the interval reaches the end of the fractions' range instead: `floor` below,
/// `ceiling` above (0 and 1 for fractions of the optimum). `None` for no values.
pub fn quantile_interval(
    sorted: &[f64],
    q: f64,
    level: f64,
    floor: f64,
    ceiling: f64,
) -> Option<(f64, f64)> {
    let n = sorted.len();
    if n == 0 {
        return None;
    }
    let tail = (1.0 - level) / 2.0;
    let cdf = binomial_cdf(n, q);
    // cdf[k] = P(B <= k). Lower: the largest l (1..=n) with P(B <= l - 1) <= tail.
    let lower = (1..=n)
        .rev()
        .find(|&l| cdf[l - 1] <= tail)
        .map_or(floor, |l| sorted[l - 1]);
    // Upper: the smallest u (1..=n) with P(B >= u) = 1 - P(B <= u - 1) <= tail.
    let upper = (1..=n)
        .find(|&u| 1.0 - cdf[u - 1] <= tail)
        .map_or(ceiling, |u| sorted[u - 1]);
    Some((lower, upper))
}

/// P(B <= k) for k = 0..=n, B binomial (n, q), each term computed in logarithms so that no
/// term that matters underflows (those that do are under 1e-300).
fn binomial_cdf(n: usize, q: f64) -> Vec<f64> {
    let q = q.clamp(1e-12, 1.0 - 1e-12);
    let ratio = (q / (1.0 - q)).ln();
    let mut log_pmf = n as f64 * (1.0 - q).ln();
    let mut total = 0.0;
    let mut cdf = Vec::with_capacity(n + 1);
    for k in 0..=n {
        if k > 0 {
            log_pmf += ((n - k + 1) as f64).ln() - (k as f64).ln() + ratio;
        }
        total += log_pmf.exp();
        cdf.push(total.min(1.0));
    }
    cdf
}

/// The two-sided Wilson score interval of confidence `level` (0.95) for a proportion of which
/// `k` of `n` trials were successes (Wilson, "Probable inference, the law of succession, and
/// statistical inference", JASA 1927; the interval Brown, Cai and DasGupta, "Interval
/// Estimation for a Binomial Proportion", Statistical Science 2001, recommend over the
/// normal one, which collapses to a point at 0 and n). `None` for no trials.
pub fn share_interval(k: usize, n: usize, level: f64) -> Option<(f64, f64)> {
    if n == 0 || k > n {
        return None;
    }
    let z = normal_quantile(0.5 + level / 2.0);
    let (nf, p) = (n as f64, k as f64 / n as f64);
    let z2 = z * z / nf;
    let centre = (p + z2 / 2.0) / (1.0 + z2);
    let half = z / (1.0 + z2) * (p * (1.0 - p) / nf + z2 / (4.0 * nf)).sqrt();
    Some(((centre - half).max(0.0), (centre + half).min(1.0)))
}

/// The standard normal quantile of p in [0.5, 1): Abramowitz and Stegun's rational
/// approximation 26.2.23 for the upper tail 1 - p, within 4.5e-4 (1.9604 for p = 0.975, where
/// the quantile is 1.95996): the interval's ends move by less than 0.0002 of a share.
fn normal_quantile(p: f64) -> f64 {
    let q = (1.0 - p).clamp(1e-300, 0.5);
    let t = (-2.0 * q.ln()).sqrt();
    let (c0, c1, c2) = (2.515517, 0.802853, 0.010328);
    let (d1, d2, d3) = (1.432788, 0.189269, 0.001308);
    t - (c0 + c1 * t + c2 * t * t) / (1.0 + d1 * t + d2 * t * t + d3 * t * t * t)
}

/// The q-quantile of sorted values, interpolating linearly between ranks (NumPy's default).
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let pos = q * (sorted.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = pos.ceil() as usize;
    if lo == hi || sorted[hi] == sorted[lo] {
        return sorted[lo];
    }
    if !sorted[hi].is_finite() {
        return sorted[hi];
    }
    sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use advise_ml::Rng;

    fn ranks(n: usize, q: f64) -> (f64, f64) {
        let values: Vec<f64> = (1..=n).map(|i| i as f64).collect();
        quantile_interval(&values, q, 0.95, 0.0, f64::INFINITY).unwrap()
    }

    #[test]
    fn the_median_of_100_runs_lies_between_the_40th_and_61st() {
        // The textbook ranks for n = 100 (Conover, table A3): 40 and 61.
        assert_eq!(ranks(100, 0.5), (40.0, 61.0));
    }

    #[test]
    fn a_5th_percentile_of_100_runs_lies_between_the_1st_and_10th() {
        // P(B = 0) = 0.95^100 = 0.006 <= 0.025 < P(B <= 1) = 0.037; P(B >= 10) = 0.028,
        // P(B >= 11) = 0.011.
        assert_eq!(ranks(100, 0.05), (1.0, 11.0));
    }

    #[test]
    fn too_few_runs_reach_the_ends_of_the_range() {
        // Of 20 runs none is the 5th percentile's lower bound at 95%: 0.95^20 = 0.36.
        let v: Vec<f64> = (1..=20).map(|i| 0.5 + i as f64 / 100.0).collect();
        let (lo, hi) = quantile_interval(&v, 0.05, 0.95, 0.0, 1.0).unwrap();
        assert_eq!(lo, 0.0);
        assert!(hi > 0.5 && hi < 0.6, "{hi}");
        // Of three runs the median has neither bound.
        assert_eq!(
            quantile_interval(&[0.7, 0.8, 0.9], 0.5, 0.95, 0.0, 1.0),
            Some((0.0, 1.0))
        );
        assert_eq!(quantile_interval(&[], 0.5, 0.95, 0.0, 1.0), None);
    }

    #[test]
    fn the_intervals_cover_the_true_quantile_at_least_as_often_as_claimed() {
        // Uniform draws on [0, 1): the q-quantile is q. 2,000 samples of 100 runs each,
        // seeded; an interval that missed more often than 5% plus three standard errors
        // (about 1.5%) would fail.
        let mut rng = Rng::new(7);
        for q in [0.05, 0.5] {
            let mut covered = 0;
            for _ in 0..2000 {
                let mut v: Vec<f64> = (0..100).map(|_| rng.unit()).collect();
                v.sort_by(f64::total_cmp);
                let (lo, hi) = quantile_interval(&v, q, 0.95, 0.0, 1.0).unwrap();
                covered += usize::from(lo <= q && q <= hi);
            }
            assert!(covered >= 1870, "q {q}: {covered} of 2000 covered");
        }
    }

    #[test]
    fn wilson_intervals_match_the_textbook() {
        // Wilson's formula with z = 1.959964, worked by hand: 52 of 100 at 95%, 0.4232-0.6154.
        let (lo, hi) = share_interval(52, 100, 0.95).unwrap();
        assert!(
            (lo - 0.4232).abs() < 5e-4 && (hi - 0.6154).abs() < 5e-4,
            "{lo} {hi}"
        );
        // None of 10 and all of 10: one end at the range's end, the other inside it.
        let (lo, hi) = share_interval(0, 10, 0.95).unwrap();
        assert_eq!(lo, 0.0);
        assert!((hi - 0.2775).abs() < 5e-4, "{hi}");
        let (lo, hi) = share_interval(10, 10, 0.95).unwrap();
        assert!((lo - 0.7225).abs() < 5e-4 && hi == 1.0, "{lo} {hi}");
        assert_eq!(share_interval(0, 0, 0.95), None);
        assert_eq!(share_interval(3, 2, 0.95), None);
        assert!((normal_quantile(0.975) - 1.959964).abs() < 5e-4);
    }

    #[test]
    fn the_cdf_of_a_large_binomial_does_not_underflow_to_nothing() {
        let cdf = binomial_cdf(20_000, 0.5);
        assert!((cdf[10_000] - 0.5).abs() < 0.01, "{}", cdf[10_000]);
        assert!((cdf[20_000] - 1.0).abs() < 1e-9);
    }
}
