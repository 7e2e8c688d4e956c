//! The Gaussian process's tests: its predictions, fits and picks against one query, one
//! pair and one candidate at a time.

use super::*;
use advise_ml::Rng;

fn dist2(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum()
}

#[test]
fn predictions_of_many_queries_are_those_of_one_at_a_time_bit_for_bit() {
    // Synthetic rows and queries from a seeded generator: 12 rows, 40 queries, 5 features.
    let mut rng = Rng::new(7);
    let (n, c, p) = (12, 40, 5);
    let x: Vec<f64> = (0..n * p).map(|_| rng.unit()).collect();
    let y: Vec<f64> = (0..n).map(|_| rng.unit() - 0.5).collect();
    let qs: Vec<f64> = (0..c * p).map(|_| rng.unit()).collect();
    let (gp, _) = Gp::fit(Rows::Numbers(x.clone()), p, 1.0, &y, 0.4)
        .expect("a jittered kernel matrix factors");
    let mut out = Vec::new();
    gp.predict_many(Queries::Numbers(&qs), c, &mut Scratch::default(), &mut out);
    assert_eq!(out.len(), c);
    for (q, &(mean, sd)) in out.iter().enumerate() {
        let query = &qs[q * p..(q + 1) * p];
        let mut k: Vec<f64> = (0..n)
            .map(|i| matern52(dist2(&x[i * p..(i + 1) * p], query), 0.4))
            .collect();
        let m = k.iter().zip(&gp.alpha).fold(-0.0, |s, (kv, a)| s + kv * a);
        gp.chol.solve_lower(&mut k);
        let v = k.iter().fold(-0.0, |s, kv| s + kv * kv);
        assert_eq!(mean.to_bits(), m.to_bits(), "mean of query {q}");
        assert_eq!(
            sd.to_bits(),
            (1.0 - v).max(1e-12).sqrt().to_bits(),
            "sd of query {q}"
        );
    }
}

#[test]
fn a_fit_from_the_memo_is_the_computed_fit_bit_for_bit() {
    // Synthetic grid rows from a seeded generator (few distinct distances); the memo is
    // filled first by another process's queries at the same length scale, then at another.
    let mut rng = Rng::new(5);
    let (n, p) = (20, 4);
    let x: Vec<f64> = (0..n * p).map(|_| (rng.below(6) as f64) / 5.0).collect();
    let y: Vec<f64> = (0..n).map(|_| rng.unit() - 0.5).collect();
    let mut scratch = Scratch::default();
    for ell in [0.4, 1.5, 0.4] {
        let (plain, lml) = Gp::fit(Rows::Numbers(x.clone()), p, 1.0, &y, ell).expect("factors");
        let (memo, lml_memo) =
            Gp::fit_memo(Rows::Numbers(x.clone()), p, 1.0, &y, ell, &mut scratch).expect("factors");
        assert_eq!(lml.to_bits(), lml_memo.to_bits(), "ell {ell}");
        let bits = |gp: &Gp| gp.alpha.iter().map(|a| a.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&plain), bits(&memo), "ell {ell}");
        let mut out = Vec::new();
        memo.predict_many(Queries::Numbers(&x[..5 * p]), 5, &mut scratch, &mut out);
        // Now every value comes from the memo.
        let (again, _) =
            Gp::fit_memo(Rows::Numbers(x.clone()), p, 1.0, &y, ell, &mut scratch).expect("factors");
        assert_eq!(bits(&plain), bits(&again), "ell {ell}, from the memo");
    }
}

#[test]
fn pairwise_distances_are_those_of_one_pair_at_a_time_bit_for_bit() {
    // Synthetic rows from a seeded generator; 7 rows leave vector tails.
    let mut rng = Rng::new(9);
    for (n, p) in [(1, 3), (7, 5), (30, 11)] {
        let x: Vec<f64> = (0..n * p).map(|_| rng.unit()).collect();
        let d2 = pairwise_squared_distances(&Rows::Numbers(x.clone()), p, n);
        for i in 0..n {
            for j in 0..n {
                let want = dist2(&x[i * p..(i + 1) * p], &x[j * p..(j + 1) * p]);
                assert_eq!(
                    d2[i * n + j].to_bits(),
                    want.to_bits(),
                    "n {n} p {p} ({i}, {j})"
                );
            }
        }
    }
}

#[test]
fn level_indices_with_their_step_predict_as_the_scaled_inputs() {
    // Synthetic level indices from a seeded generator (up to 12 levels, step 1/12): the
    // process on the indices with the step's square applied in the kernel (whole squared
    // distances, the memo's direct table) and on the scaled inputs agree to rounding.
    let mut rng = Rng::new(3);
    let (n, c, p, step) = (25, 60, 4, 1.0 / 12.0);
    let levels: Vec<f64> = (0..(n + c) * p).map(|_| rng.below(12) as f64).collect();
    let y: Vec<f64> = (0..n).map(|_| rng.unit() - 0.5).collect();
    let scaled: Vec<f64> = levels.iter().map(|l| l * step).collect();
    let mut scratch = Scratch::default();
    let fit_levels = |scratch: &mut Scratch| {
        Gp::fit_memo(
            Rows::Numbers(levels[..n * p].to_vec()),
            p,
            step * step,
            &y,
            0.4,
            scratch,
        )
        .expect("factors")
    };
    let (by_level, lml) = fit_levels(&mut scratch);
    let (by_scaled, lml_scaled) =
        Gp::fit(Rows::Numbers(scaled[..n * p].to_vec()), p, 1.0, &y, 0.4).expect("factors");
    assert!((lml - lml_scaled).abs() < 1e-9, "{lml} {lml_scaled}");
    let (mut a, mut b) = (Vec::new(), Vec::new());
    by_level.predict_many(Queries::Numbers(&levels[n * p..]), c, &mut scratch, &mut a);
    by_scaled.predict_many(
        Queries::Numbers(&scaled[n * p..]),
        c,
        &mut Scratch::default(),
        &mut b,
    );
    for (q, (x, z)) in a.iter().zip(&b).enumerate() {
        assert!((x.0 - z.0).abs() < 1e-9, "mean of query {q}: {x:?} {z:?}");
        assert!((x.1 - z.1).abs() < 1e-9, "sd of query {q}: {x:?} {z:?}");
    }
    // A fit from the filled memo is the computed one, bit for bit.
    let (again, _) = fit_levels(&mut scratch);
    let (plain, _) = Gp::fit(
        Rows::Numbers(levels[..n * p].to_vec()),
        p,
        step * step,
        &y,
        0.4,
    )
    .expect("factors");
    let bits = |gp: &Gp| gp.alpha.iter().map(|a| a.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&again), bits(&plain));
}

#[test]
fn the_pruned_pick_is_the_full_scoring_pick() {
    // Synthetic processes and queries from a seeded generator, against scoring every query
    // of predict_many's predictions (the first of the largest scores wins); the queries
    // include copies of training rows (standard deviation near 0) and of one another.
    let mut rng = Rng::new(11);
    let mut pruned = 0;
    for case in 0..200 {
        let (n, p) = (2 + case % 29, 1 + case % 6);
        let c = 1 + (case * 7) % 120;
        let x: Vec<f64> = (0..n * p).map(|_| (rng.below(5) as f64) / 4.0).collect();
        let y: Vec<f64> = (0..n).map(|_| rng.unit() * 2.0 - 1.0).collect();
        let mut qs: Vec<f64> = (0..c * p).map(|_| (rng.below(5) as f64) / 4.0).collect();
        if c > 2 {
            qs.copy_within(0..p, p);
            qs[..p].copy_from_slice(&x[..p]);
        }
        let ell = [0.1, 0.4, 1.6][case % 3];
        let Some((gp, _)) = Gp::fit(Rows::Numbers(x), p, 1.0, &y, ell) else {
            continue;
        };
        let best = y.iter().copied().fold(f64::INFINITY, f64::min);
        let mut all = Vec::new();
        let mut scratch = Scratch::default();
        gp.predict_many(Queries::Numbers(&qs), c, &mut scratch, &mut all);
        let mut want = None;
        let mut top = f64::NEG_INFINITY;
        for (q, &(m, s)) in all.iter().enumerate() {
            let ei = expected_improvement(best, 0.01, m, s);
            if ei > top {
                top = ei;
                want = Some(q);
            }
        }
        let got = gp.pick_by_expected_improvement(
            Queries::Numbers(&qs),
            c,
            (best, 0.01),
            None,
            &mut scratch,
        );
        assert_eq!(got, want, "case {case}: n {n}, p {p}, c {c}");
        if scratch.sd.len() < c {
            pruned += 1;
        }
    }
    assert!(
        pruned > 50,
        "the bound left out queries in {pruned} of 200 cases"
    );
}

#[test]
fn level_rows_fit_predict_and_pick_as_their_indices_as_numbers_bit_for_bit() {
    // Synthetic level indices from a seeded generator (37 levels, hotspot's most, step 1/37):
    // the process on 16-bit level rows (whole distances summed in integers) and on the same
    // indices as numbers fit, predict and pick the same, bit for bit.
    let mut rng = Rng::new(13);
    let step2 = (1.0f64 / 37.0).powi(2);
    for case in 0..40 {
        let (n, p) = (2 + case % 29, 1 + case % 9);
        let c = 1 + (case * 11) % 150;
        let levels: Vec<u16> = (0..(n + c) * p).map(|_| rng.below(37) as u16).collect();
        let numbers: Vec<f64> = levels.iter().map(|&l| f64::from(l)).collect();
        let y: Vec<f64> = (0..n).map(|_| rng.unit() * 2.0 - 1.0).collect();
        let ell = [0.3, 0.9, 1.5][case % 3];
        let (mut s1, mut s2) = (Scratch::default(), Scratch::default());
        let rows = Rows::Levels(levels[..n * p].to_vec());
        let Some((a, la)) = Gp::fit_memo(rows, p, step2, &y, ell, &mut s1) else {
            continue;
        };
        let rows = Rows::Numbers(numbers[..n * p].to_vec());
        let (b, lb) = Gp::fit_memo(rows, p, step2, &y, ell, &mut s2).expect("the same factors");
        let bits = |v: &[f64]| v.iter().map(|a| a.to_bits()).collect::<Vec<_>>();
        assert_eq!(la.to_bits(), lb.to_bits(), "case {case}");
        assert_eq!(bits(&a.alpha), bits(&b.alpha), "case {case}");
        let (ql, qn) = (
            Queries::Levels(&levels[n * p..]),
            Queries::Numbers(&numbers[n * p..]),
        );
        let (mut pa, mut pb) = (Vec::new(), Vec::new());
        a.predict_many(ql, c, &mut s1, &mut pa);
        b.predict_many(qn, c, &mut s2, &mut pb);
        let flat = |v: &[(f64, f64)]| {
            v.iter()
                .map(|m| (m.0.to_bits(), m.1.to_bits()))
                .collect::<Vec<_>>()
        };
        assert_eq!(flat(&pa), flat(&pb), "case {case}");
        let best = y.iter().copied().fold(f64::INFINITY, f64::min);
        assert_eq!(
            a.pick_by_expected_improvement(ql, c, (best, 0.01), None, &mut s1),
            b.pick_by_expected_improvement(qn, c, (best, 0.01), None, &mut s2),
            "case {case}"
        );
    }
}

#[test]
fn level_rows_fit_while_the_largest_squared_distance_is_below_2_to_the_16() {
    // hotspot on the RTX A4000: 1,662 at most; one parameter of 256 levels: 255^2 = 65,025;
    // of 257: 65,536, which 16 bits do not hold.
    assert!(Rows::levels_fit(&[1, 1, 37, 6, 10, 10, 10, 1, 10, 2, 5]));
    assert!(Rows::levels_fit(&[256]));
    assert!(!Rows::levels_fit(&[257]));
    assert!(!Rows::levels_fit(&[200, 200]));
    assert!(!Rows::levels_fit(&[usize::MAX, 2]), "no overflow");
}
