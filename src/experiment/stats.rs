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
    if k > FORWARD_MOST {
        return 2.0 * binomial_half_tail_from_top(n, k).min(0.5);
    }
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

/// The largest smaller count [`mcnemar_exact`] sums term by term from 0; counts this large come
/// only from damaged or hand-made files, and summing 10^11 terms would take minutes.
const FORWARD_MOST: usize = 100_000;

/// P(X <= k) for X ~ Binomial(n, 1/2) summed from the largest term, at k, down until the terms
/// no longer change the sum: the terms shrink by i / (n - i + 1) each step, so a few times
/// sqrt(n) steps suffice. ln C(n, k) comes from Stirling's series ([`ln_factorial`]).
fn binomial_half_tail_from_top(n: usize, k: usize) -> f64 {
    let mut ln_term =
        ln_factorial(n) - ln_factorial(k) - ln_factorial(n - k) - n as f64 * std::f64::consts::LN_2;
    let mut tail = 0.0;
    let mut i = k;
    loop {
        let term = ln_term.exp();
        tail += term;
        if i == 0 || term <= tail * 1e-17 {
            return tail;
        }
        ln_term += (i as f64).ln() - ((n - i + 1) as f64).ln();
        i -= 1;
    }
}

/// ln(m!): the sum of logarithms below 20, Stirling's series with three correction terms from
/// there (its error is under 1e-14 there and shrinks as m grows).
fn ln_factorial(m: usize) -> f64 {
    if m < 20 {
        return (2..=m).map(|i| (i as f64).ln()).sum();
    }
    let x = m as f64;
    let x2 = x * x;
    x * x.ln() - x + 0.5 * (std::f64::consts::TAU * x).ln() + 1.0 / (12.0 * x)
        - 1.0 / (360.0 * x * x2)
        + 1.0 / (1260.0 * x * x2 * x2)
}

#[cfg(test)]
mod tests;
