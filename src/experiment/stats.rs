//! Uncertainty of accuracy figures: bootstrap confidence intervals (seeded SplitMix64) that
//! resample whole test tuples (the 32 samples of one input and run are not independent), of
//! accuracy and balanced accuracy; McNemar's exact test of two methods judged on the same
//! samples, and its analogue over the same tuples (a sign-flip randomization test).

use advise_ml::SplitMix64;
use serde::Serialize;

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
    let members = members(groups)?;
    let mut rng = SplitMix64::new(seed);
    let mut drawn = Vec::new();
    interval((0..resamples).filter_map(|_| {
        drawn.clear();
        for _ in 0..members.len() {
            // Most groups hold one sample (and where there are too few groups every sample is
            // its own): a push, not a copy call per sample.
            match members[rng.below(members.len())].as_slice() {
                [one] => drawn.push(*one),
                many => drawn.extend_from_slice(many),
            }
        }
        statistic(&drawn)
    }))
}

/// [`bootstrap_grouped`] of the mean of `values` (one per sample): the same draws and the
/// same sums, in the same order, as the statistic `idx.iter().map(|&i| values[i]).sum() /
/// idx.len()` (none for an empty draw), without writing the drawn samples out.
pub fn bootstrap_grouped_mean(
    groups: &[usize],
    values: &[f64],
    resamples: usize,
    seed: u64,
) -> Option<Interval> {
    let members = members(groups)?;
    let mut rng = SplitMix64::new(seed);
    interval((0..resamples).filter_map(|_| {
        let mut count = 0usize;
        let sum = (0..members.len())
            .flat_map(|_| members[rng.below(members.len())].iter())
            .map(|&i| {
                count += 1;
                values[i]
            })
            .sum::<f64>();
        (count > 0).then(|| sum / count as f64)
    }))
}

/// Balanced accuracy from counts: the mean of the true-positive rate (`tp` of `p` positives)
/// and the true-negative rate (`tn` of `n` negatives), over the classes present.
pub fn balanced_of_counts(tp: f64, p: f64, tn: f64, n: f64) -> Option<f64> {
    let rates: Vec<f64> = [(tp, p), (tn, n)]
        .into_iter()
        .filter(|&(_, t)| t > 0.0)
        .map(|(k, t)| k / t)
        .collect();
    (!rates.is_empty()).then(|| rates.iter().sum::<f64>() / rates.len() as f64)
}

/// Percentile bootstrap of the balanced accuracy of `(share right, positive)` outcomes, resampling
/// whole groups as [`bootstrap_grouped`] does, so that its interval and the accuracy's treat
/// the same samples as dependent.
pub fn bootstrap_grouped_balanced(
    groups: &[usize],
    outcomes: &[(f64, bool)],
    resamples: usize,
    seed: u64,
) -> Option<Interval> {
    // Per group: true positives, positives, true negatives, negatives.
    let sums: Vec<[f64; 4]> = members(groups)?
        .iter()
        .map(|m| {
            let mut c = [0.0; 4];
            for &i in m {
                let (right, positive) = outcomes[i];
                let k = if positive { 0 } else { 2 };
                c[k] += right;
                c[k + 1] += 1.0;
            }
            c
        })
        .collect();
    let mut rng = SplitMix64::new(seed);
    interval((0..resamples).filter_map(|_| {
        let mut c = [0.0; 4];
        for _ in 0..sums.len() {
            let g = &sums[rng.below(sums.len())];
            for k in 0..4 {
                c[k] += g[k];
            }
        }
        balanced_of_counts(c[0], c[1], c[2], c[3])
    }))
}

/// Random sign patterns [`cluster_sign_flip_p`] draws where there are more than 16 groups, and
/// the salt on the run's seed that keeps them apart from the intervals' resamples: one setting
/// for `advise experiment` and `advise bench transfer`.
pub const SIGN_FLIPS: usize = 2000;
pub const SIGN_FLIP_SALT: u64 = 0x9A1D;

/// Two-sided p-value that methods A and B, right (`a[i]`, `b[i]`) on the same samples, are
/// equally accurate, by a randomization test over whole groups: under that hypothesis each
/// group's difference in right answers (A's minus B's) is as likely negated, so the observed
/// total difference is compared with the totals of every pattern of groups' signs flipped
/// (all 2^G patterns up to 16 groups, else `resamples` seeded random ones, counted as (1 + k)
/// / (1 + resamples)). With every sample its own group this is McNemar's test (a sign test on
/// the samples one method got right and the other not); with groups it does not count the
/// samples of one program, input and run as independent (the sign flips of Cameron, Gelbach and
/// Miller, "Bootstrap-based improvements for inference with clustered errors", 2008). With G
/// groups no p falls below 2 / 2^G: five groups can never show a difference at 0.05. 1 where
/// the two never differ; `None` without samples.
///
/// `a` and `b` are each sample's share right: 1 or 0 for a method that decides, the share of
/// its seeds for a rule averaged over seeds (`baseline:random`), whose expected difference then
/// enters (a coin's majority vote over many seeds would be the majority rule, not a coin).
pub fn cluster_sign_flip_p(
    groups: &[usize],
    a: &[f64],
    b: &[f64],
    resamples: usize,
    seed: u64,
) -> Option<f64> {
    let d: Vec<f64> = members(groups)?
        .iter()
        .map(|m| m.iter().map(|&i| a[i] - b[i]).sum())
        .collect();
    // Sums of shares are not exact: a pattern as far as the observed one within rounding
    // counts as as far.
    let observed = d.iter().sum::<f64>().abs() - 1e-9;
    if observed <= 0.0 {
        return Some(1.0);
    }
    let g = d.len();
    if g <= 16 {
        let as_far = (0u32..1 << g)
            .filter(|signs| {
                let t: f64 = d
                    .iter()
                    .enumerate()
                    .map(|(k, &x)| if signs >> k & 1 == 1 { -x } else { x })
                    .sum();
                t.abs() >= observed
            })
            .count();
        return Some(as_far as f64 / f64::from(1u32 << g));
    }
    let mut rng = SplitMix64::new(seed);
    let as_far = (0..resamples)
        .filter(|_| {
            let t: f64 = d
                .iter()
                .map(|&x| if rng.below(2) == 1 { -x } else { x })
                .sum();
            t.abs() >= observed
        })
        .count();
    Some((1 + as_far) as f64 / (1 + resamples) as f64)
}

/// McNemar's exact test of two methods' shares right on the same samples (`a`, `b`: 1 or 0 for
/// a method that decides, the share of its seeds for one averaged over seeds): the discordant
/// counts are their expected values, rounded (for 0/1 shares, the counts themselves).
pub fn mcnemar_of_shares(a: &[f64], b: &[f64]) -> f64 {
    let (only_a, only_b) = discordant_of_shares(a, b);
    mcnemar_exact(only_a, only_b)
}

/// The samples only `a` and only `b` got right, from their shares right (`mcnemar_of_shares`):
/// expected values, rounded.
pub fn discordant_of_shares(a: &[f64], b: &[f64]) -> (usize, usize) {
    let (mut only_a, mut only_b) = (0.0, 0.0);
    for (x, y) in a.iter().zip(b) {
        only_a += x * (1.0 - y);
        only_b += (1.0 - x) * y;
    }
    (only_a.round() as usize, only_b.round() as usize)
}

/// Each group's samples, the empty groups left out; `None` without samples.
fn members(groups: &[usize]) -> Option<Vec<Vec<usize>>> {
    let ngroups = groups.iter().copied().max().map(|m| m + 1)?;
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); ngroups];
    for (i, &g) in groups.iter().enumerate() {
        members[g].push(i);
    }
    members.retain(|m| !m.is_empty());
    Some(members)
}

/// The 95% percentile interval of the resamples' values; `None` without any.
fn interval(values: impl Iterator<Item = f64>) -> Option<Interval> {
    let mut values: Vec<f64> = values.collect();
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    Some(Interval {
        low: percentile(&values, 2.5),
        high: percentile(&values, 97.5),
    })
}

/// Median of some values (0 when empty), for summaries.
pub fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    percentile(&v, 50.0)
}

/// Linear-interpolated percentile of sorted values.
pub fn percentile(sorted: &[f64], p: f64) -> f64 {
    let pos = p / 100.0 * (sorted.len() - 1) as f64;
    let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
    sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
}

/// Spearman's rank correlation of paired values (ties get their mean rank); `None` with
/// fewer than three pairs or where either side is constant.
pub fn rank_correlation(a: &[f64], b: &[f64]) -> Option<f64> {
    fn ranks(v: &[f64]) -> Vec<f64> {
        let mut order: Vec<usize> = (0..v.len()).collect();
        order.sort_by(|&i, &j| v[i].total_cmp(&v[j]));
        let mut r = vec![0.0; v.len()];
        let mut i = 0;
        while i < order.len() {
            let mut j = i;
            while j + 1 < order.len() && v[order[j + 1]] == v[order[i]] {
                j += 1;
            }
            let mean = (i + j) as f64 / 2.0 + 1.0;
            for &k in &order[i..=j] {
                r[k] = mean;
            }
            i = j + 1;
        }
        r
    }
    if a.len() != b.len() || a.len() < 3 {
        return None;
    }
    let (ra, rb) = (ranks(a), ranks(b));
    let n = a.len() as f64;
    let (ma, mb) = (ra.iter().sum::<f64>() / n, rb.iter().sum::<f64>() / n);
    let (mut sab, mut saa, mut sbb) = (0.0, 0.0, 0.0);
    for (x, y) in ra.iter().zip(&rb) {
        sab += (x - ma) * (y - mb);
        saa += (x - ma) * (x - ma);
        sbb += (y - mb) * (y - mb);
    }
    (saa > 0.0 && sbb > 0.0).then(|| sab / (saa * sbb).sqrt())
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
    fn mcnemar_known_values() {
        assert_eq!(mcnemar_exact(0, 0), 1.0);
        // n = 10, k = 1: 2 * (1 + 10) / 1024
        assert!((mcnemar_exact(9, 1) - 22.0 / 1024.0).abs() < 1e-12);
        assert!((mcnemar_exact(5, 5) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn balanced_counts_average_the_classes_present() {
        assert_eq!(balanced_of_counts(3.0, 4.0, 1.0, 4.0), Some(0.5));
        assert_eq!(balanced_of_counts(3.0, 4.0, 0.0, 0.0), Some(0.75));
        assert_eq!(balanced_of_counts(0.0, 0.0, 0.0, 0.0), None);
    }

    #[test]
    fn grouped_balanced_interval_widens_with_the_groups() {
        // Synthetic: 40 groups of 50 samples; a group is right on all its samples or on none.
        let groups: Vec<usize> = (0..2000).map(|i| i / 50).collect();
        let outcomes: Vec<(f64, bool)> = (0..2000)
            .map(|i| (f64::from(u8::from((i / 50) % 3 != 0)), (i / 25) % 2 == 0))
            .collect();
        let single: Vec<usize> = (0..2000).collect();
        let g = bootstrap_grouped_balanced(&groups, &outcomes, 500, 3).unwrap();
        let s = bootstrap_grouped_balanced(&single, &outcomes, 500, 3).unwrap();
        let point = 26.0 / 40.0;
        assert!(g.low <= point && point <= g.high, "{g:?}");
        assert!(g.high - g.low > 2.0 * (s.high - s.low), "{g:?} {s:?}");
    }

    #[test]
    fn sign_flips_tell_a_real_difference_from_clustered_luck() {
        // Synthetic. A beats B on one sample in every group of ten, 40 groups: a difference
        // everywhere.
        let groups: Vec<usize> = (0..400).map(|i| i / 10).collect();
        let b: Vec<f64> = (0..400).map(|i| share(i % 2 == 0)).collect();
        let a: Vec<f64> = (0..400)
            .map(|i| share(b[i] == 1.0 || i % 10 == 1))
            .collect();
        let p = cluster_sign_flip_p(&groups, &a, &b, 2000, 5).unwrap();
        assert!(p < 0.01, "{p}");
        // A beats B on every sample of 2 groups of 40 and loses on every sample of one, ten
        // groups in all: McNemar sees 80 against 40, the groups three differences.
        let a: Vec<f64> = (0..400).map(|i| share(i < 80)).collect();
        let b: Vec<f64> = (0..400).map(|i| share((80..120).contains(&i))).collect();
        let groups: Vec<usize> = (0..400).map(|i| i / 40).collect();
        assert!(mcnemar_exact(80, 40) < 0.001);
        let p = cluster_sign_flip_p(&groups, &a, &b, 2000, 5).unwrap();
        // Exact over 2^10 patterns: |40 s1 + 40 s2 - 40 s3| >= 40 always.
        assert_eq!(p, 1.0);
        assert_eq!(cluster_sign_flip_p(&groups, &a, &a, 100, 5), Some(1.0));
    }

    #[test]
    fn sign_flips_over_single_samples_are_mcnemars_test() {
        // Synthetic: 12 samples only A got right, 3 only B, 10 both, 5 neither.
        let a: Vec<f64> = (0..30)
            .map(|i| share(i < 12 || (15..25).contains(&i)))
            .collect();
        let b: Vec<f64> = (0..30).map(|i| share((12..25).contains(&i))).collect();
        let singles: Vec<usize> = (0..30).collect();
        let p = cluster_sign_flip_p(&singles, &a, &b, 200_000, 7).unwrap();
        let exact = mcnemar_exact(12, 3);
        assert!((p - exact).abs() < 0.005, "{p} {exact}");
        // Ten groups of three: exact enumeration, and never below 2 / 2^10.
        let tens: Vec<usize> = (0..30).map(|i| i / 3).collect();
        let p = cluster_sign_flip_p(&tens, &a, &b, 0, 7).unwrap();
        assert!((2.0 / 1024.0..=1.0).contains(&p), "{p}");
    }

    fn share(right: bool) -> f64 {
        f64::from(u8::from(right))
    }

    /// Synthetic: a coin right on half the seeds of every sample against a rule right on 90 of
    /// 100 samples is tested on its expected discordant counts (5 against 45), not on a
    /// majority vote of its seeds (which ties at 0.5 and would count as right everywhere).
    #[test]
    fn shares_of_seeds_enter_the_tests_as_expected_counts() {
        let coin = vec![0.5; 100];
        let rule: Vec<f64> = (0..100).map(|i| share(i < 90)).collect();
        let p = mcnemar_of_shares(&coin, &rule);
        assert!((p - mcnemar_exact(5, 45)).abs() < 1e-15, "{p}");
        assert!(p < 1e-8);
        // 0/1 shares are the counts themselves.
        let a: Vec<f64> = (0..30).map(|i| share(i < 12)).collect();
        let b: Vec<f64> = (0..30).map(|i| share((10..13).contains(&i))).collect();
        assert_eq!(mcnemar_of_shares(&a, &b), mcnemar_exact(10, 1));
        // The sign flips over single samples agree with it.
        let singles: Vec<usize> = (0..100).collect();
        let q = cluster_sign_flip_p(&singles, &coin, &rule, 20_000, 3).unwrap();
        assert!(q < 0.001, "{q}");
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

    #[test]
    fn the_mean_bootstrap_is_the_generic_one_bit_for_bit() {
        let mut rng = SplitMix64::new(9);
        for n in [1usize, 7, 40, 300] {
            let values: Vec<f64> = (0..n).map(|_| rng.next_f64() * 3.0 - 1.0).collect();
            for groups in [
                (0..n).collect::<Vec<usize>>(),
                (0..n).map(|i| i / 3).collect(),
                (0..n).map(|i| (i * 7) % 5).collect(),
            ] {
                let generic = bootstrap_grouped(&groups, 300, 4, |idx| {
                    (!idx.is_empty())
                        .then(|| idx.iter().map(|&i| values[i]).sum::<f64>() / idx.len() as f64)
                });
                let mean = bootstrap_grouped_mean(&groups, &values, 300, 4);
                let bits = |c: Option<Interval>| c.map(|c| (c.low.to_bits(), c.high.to_bits()));
                assert_eq!(bits(generic), bits(mean), "n {n}");
            }
        }
    }

    #[test]
    fn rank_correlation_of_monotone_reversed_and_tied_pairs() {
        let a = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(rank_correlation(&a, &[10.0, 20.0, 30.0, 40.0]), Some(1.0));
        assert_eq!(rank_correlation(&a, &[4.0, 3.0, 2.0, 1.0]), Some(-1.0));
        // Ties share their mean rank: ranks 1, 2.5, 2.5, 4 against 1..4.
        let r = rank_correlation(&a, &[1.0, 2.0, 2.0, 3.0]).unwrap();
        assert!((r - 0.948_683_298).abs() < 1e-6, "{r}");
        assert_eq!(rank_correlation(&a, &[1.0; 4]), None);
        assert_eq!(rank_correlation(&a[..2], &a[..2]), None);
    }
}
