use super::*;

#[test]
fn recovers_main_effects() {
    // y = 1 + a_effect[a] + b_effect[b] on a full 3 x 2 grid.
    let ea = [0.0, 2.0, -1.0];
    let eb = [0.5, -0.5];
    let mut rows = Vec::new();
    let mut y = Vec::new();
    for a in 0..3u16 {
        for b in 0..2u16 {
            rows.extend([a, b]);
            y.push(1.0 + ea[a as usize] + eb[b as usize]);
        }
    }
    let m = OneHotRidge::fit(&[3, 2], &rows, &y, 1e-6).unwrap();
    for (r, want) in rows.chunks(2).zip(&y) {
        assert!((m.predict(r) - want).abs() < 1e-4);
    }
    assert!(m.predict(&[2, 1]) < m.predict(&[1, 0]));
}

#[test]
fn counts_kept_between_fits_give_the_same_model_bit_for_bit() {
    let radix = [3, 4, 1, 2];
    let mut rng = crate::Rng::new(2);
    let mut rows = Vec::new();
    let mut y = Vec::new();
    let mut counts = LevelCounts::new(&radix);
    for n in 1..=40 {
        let row: Vec<u16> = radix.iter().map(|&r| rng.below(r) as u16).collect();
        counts.add(&row).unwrap();
        rows.extend_from_slice(&row);
        y.push(rng.unit() * 3.0 - 1.0);
        let kept = OneHotRidge::fit_counted(&mut counts, &rows, &y, 1.0).unwrap();
        let fresh = OneHotRidge::fit(&radix, &rows, &y, 1.0).unwrap();
        let bits = |m: &OneHotRidge| {
            let mut b: Vec<u64> = m.weights.iter().map(|w| w.to_bits()).collect();
            b.push(m.mean.to_bits());
            b
        };
        assert_eq!(bits(&kept), bits(&fresh), "{n} rows");
    }
    // Counts of other rows than the ones given are refused, as is a level out of range.
    assert!(OneHotRidge::fit_counted(&mut counts, &rows[..4], &y[..1], 1.0).is_err());
    assert!(counts.add(&[3, 0, 0, 0]).is_err());
    assert!(counts.add(&[0, 0]).is_err());
}

/// Synthetic rows added in runs of 1 to 40 between fits, so that counting switches between
/// the whole matrix and its upper triangle (few levels a parameter: 20 columns, 8
/// parameters, so from 7 rows a run the triangle is taken): after every run the matrix is
/// the one counted from scratch, entry for entry.
#[test]
fn counting_the_upper_triangle_between_fits_gives_the_whole_matrix() {
    let radix = [2, 3, 2, 4, 2, 3, 2, 2];
    let mut rng = crate::Rng::new(9);
    let mut counts = LevelCounts::new(&radix);
    let mut rows: Vec<Vec<u16>> = Vec::new();
    let mut triangles = 0;
    for run in 0..30 {
        let k = 1 + rng.below(40);
        triangles += usize::from(counts.upper_only);
        for _ in 0..k {
            let row: Vec<u16> = radix.iter().map(|&r| rng.below(r) as u16).collect();
            counts.add(&row).unwrap();
            rows.push(row);
        }
        counts.complete();
        let mut fresh = LevelCounts::new(&radix);
        for row in &rows {
            fresh.add(row).unwrap();
        }
        assert!(!fresh.upper_only);
        assert_eq!(counts.a, fresh.a, "run {run}");
        assert_eq!(counts.rows, rows.len());
    }
    assert!(
        (5..25).contains(&triangles),
        "{triangles} runs of 30 counted the triangle"
    );
}

/// Synthetic rows of a constrained space (levels of two parameters tied, one parameter of
/// one level): the conjugate gradients reach the factorisation's predictions, from zeros
/// and, in no more iterations, from a fit on fewer rows.
#[test]
fn conjugate_gradients_agree_with_the_factorisation() {
    let radix = [7, 4, 3, 1];
    let mut rng = crate::Rng::new(5);
    let mut counts = LevelCounts::new(&radix);
    let (mut rows, mut y) = (Vec::new(), Vec::new());
    let mut sums = vec![0.0; counts.columns()];
    let mut previous: Option<OneHotRidge> = None;
    for n in 1..=300 {
        let a = rng.below(7) as u16;
        let b = ((a as usize + rng.below(2)) % 4) as u16;
        let row = [a, b, rng.below(3) as u16, 0];
        let t = (a as f64 * 0.3 - b as f64 * 0.2 + rng.unit()).sin() + 2.0;
        counts.add(&row).unwrap();
        for (j, &l) in row.iter().enumerate() {
            sums[counts.column(j, l).unwrap()] += t;
        }
        rows.extend_from_slice(&row);
        y.push(t);
        if n % 50 != 0 {
            continue;
        }
        let mean = y.iter().sum::<f64>() / y.len() as f64;
        let exact = OneHotRidge::fit_counted(&mut counts, &rows, &y, 1.0).unwrap();
        let (cold, cold_iterations) =
            OneHotRidge::fit_conjugate_gradient(&mut counts, &sums, mean, 1.0, None, 1e-12, 1_000)
                .unwrap();
        let (warm, warm_iterations) = OneHotRidge::fit_conjugate_gradient(
            &mut counts,
            &sums,
            mean,
            1.0,
            previous.as_ref(),
            1e-12,
            1_000,
        )
        .unwrap();
        for (r, _) in rows.chunks(4).zip(&y) {
            assert!(
                (cold.predict(r) - exact.predict(r)).abs() < 1e-8,
                "{n} rows"
            );
            assert!(
                (warm.predict(r) - exact.predict(r)).abs() < 1e-8,
                "{n} rows"
            );
        }
        if previous.is_some() {
            assert!(
                warm_iterations <= cold_iterations,
                "{warm_iterations} > {cold_iterations}"
            );
        }
        previous = Some(warm);
    }
    assert_eq!(counts.column(0, 7), None);
    assert!(
        OneHotRidge::fit_conjugate_gradient(&mut counts, &sums[1..], 0.0, 1.0, None, 1e-9, 5)
            .is_err()
    );
}

#[test]
fn clear_errors() {
    assert!(OneHotRidge::fit(&[2], &[0, 1], &[1.0], 1.0).is_err());
    assert!(OneHotRidge::fit(&[2], &[5], &[1.0], 1.0).is_err());
    assert!(OneHotRidge::fit(&[2], &[1], &[1.0], 0.0).is_err());
    assert!(OneHotRidge::fit(&[2], &[], &[], 1.0).is_err());
}

#[test]
fn the_dispatched_matrix_product_gives_the_portable_bits() {
    // Synthetic matrix and vector from a seeded generator; 53 columns leave a tail of five.
    let mut rng = crate::Rng::new(12);
    let f = 53;
    let a: Vec<f64> = (0..f * f).map(|_| rng.below(9) as f64).collect();
    let x: Vec<f64> = (0..f).map(|_| rng.unit() - 0.5).collect();
    let (mut fast, mut portable) = (vec![0.0; f], vec![0.0; f]);
    times_plus_ridge(&a, f, 0.7, &x, &mut fast);
    times_plus_ridge_body(&a, f, 0.7, &x, &mut portable);
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&fast), bits(&portable));
}
