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
    let ci = bootstrap_grouped(&groups, 200, 1, |s| Some(s.len() as f64 / s.len() as f64)).unwrap();
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

/// Counts beyond the term-by-term sum (as a damaged advisor file gives) return at once and
/// agree with it where both apply.
#[test]
fn mcnemar_of_huge_counts_is_quick_and_agrees() {
    for (a, b) in [(100_001, 100_001), (100_001, 101_000), (120_000, 100_500)] {
        let k = a.min(b);
        let forward = {
            let n = a + b;
            let ln_half_n = -(n as f64) * std::f64::consts::LN_2;
            let (mut ln_c, mut tail) = (0.0, 0.0);
            for i in 0..=k {
                if i > 0 {
                    ln_c += ((n - i + 1) as f64).ln() - (i as f64).ln();
                }
                tail += (ln_c + ln_half_n).exp();
            }
            (2.0 * tail).min(1.0)
        };
        let p = mcnemar_exact(a, b);
        assert!(
            (p - forward).abs() < 1e-7 * forward.max(1e-300),
            "{a} {b}: {p} {forward}"
        );
    }
    assert!(mcnemar_exact(99_999_999_999, 99_999_999_999) > 0.99);
    assert!(mcnemar_exact(99_999_999_999, 99_000_000_000) < 1e-100);
}
