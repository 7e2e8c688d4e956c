use super::super::m5p_impurity::{FifthRoots, Impurity};
use super::super::m5p_split::key;
use super::*;
use crate::rng::JavaRandom;

/// The largest impurity Weka's scan evaluates over `ys` (class values in Weka's order of
/// the attribute) and `vs` (the attribute's values in that order).
fn weka_best(ys: &[f64], vs: &[f64]) -> f64 {
    let n = ys.len();
    let first = if n < 5 { 1 } else { n / 5 };
    let mut imp = Impurity::new(first - 1, ys, &mut FifthRoots::default());
    let mut best = f64::NEG_INFINITY;
    for c in first..n - first - 1 {
        imp.add_left(ys[c]);
        imp.update();
        if !eq_small(vs[c + 1], vs[c]) {
            best = best.max(imp.impurity);
        }
    }
    best
}

/// Synthetic nodes (seeded): class values around means from 0 to 1e6 with spreads from
/// 1e-11 to 1 of them (at 1e-11 rounding decides Weka's variances, so only the slack
/// keeps the bound above them), attributes with and without ties, and Weka's order of tied rows
/// taken as the screen's reversed within each tie.
#[test]
fn never_rules_out_a_candidate_above_the_floor_and_rules_out_clear_cases() {
    let mut rng = JavaRandom::new(11);
    let (mut clear, mut clear_ruled) = (0, 0);
    for trial in 0..4000 {
        let n = 4 + (rng.next_double() * 70.0) as usize;
        let mean: f64 = [0.0, 1.0, 1e3, 1e6][trial % 4];
        let spread = [1e-11, 1e-5, 1e-2, 1.0][trial / 4 % 4] * mean.max(1.0);
        let y: Vec<f64> = (0..n)
            .map(|_| mean + spread * (rng.next_double() - 0.5))
            .collect();
        let cols: Vec<Vec<f64>> = (0..LANES)
            .map(|k| {
                (0..n)
                    .map(|r| {
                        let u = rng.next_double();
                        // Lane 1 has ties; lane 2 follows the class, so it splits well.
                        match k {
                            1 => (u * 4.0).floor(),
                            2 => y[r] + spread * 0.1 * u,
                            _ => u,
                        }
                    })
                    .collect()
            })
            .collect();
        let orders: Vec<Vec<u32>> = cols
            .iter()
            .map(|col| {
                let mut o: Vec<u32> = (0..n as u32).collect();
                o.sort_by(|&a, &b| key(col[a as usize]).total_cmp(&key(col[b as usize])));
                o
            })
            .collect();
        let ties: Vec<bool> = (0..LANES)
            .map(|k| {
                (orders[k].windows(2)).any(|w| cols[k][w[0] as usize] == cols[k][w[1] as usize])
            })
            .collect();
        let Some(mut screen) = Screen::new(&y, &orders[0]) else {
            continue;
        };
        let best: Vec<f64> = (0..LANES)
            .map(|k| {
                // Weka's order: the screen's with each run of tied values reversed.
                let mut o = orders[k].clone();
                let col = &cols[k];
                let mut s = 0;
                while s < n {
                    let mut e = s + 1;
                    while e < n && col[o[e] as usize] == col[o[s] as usize] {
                        e += 1;
                    }
                    o[s..e].reverse();
                    s = e;
                }
                let ys: Vec<f64> = o.iter().map(|&r| y[r as usize]).collect();
                let vs: Vec<f64> = o.iter().map(|&r| col[r as usize]).collect();
                weka_best(&ys, &vs)
            })
            .collect();
        let columns: Vec<Column> = (0..LANES)
            .map(|k| (&orders[k][..], &cols[k][..], ties[k]))
            .collect();
        if !best[2].is_finite() {
            continue;
        }
        let scale = (best.iter().filter(|b| b.is_finite()))
            .fold(0.0f64, |a, b| a.max(b.abs()))
            .max(1e-300);
        for shift in [-1e-3, -1e-9, 0.0, 1e-9, 1e-3, 0.05] {
            let floor = best[2] + shift * scale;
            let ruled = screen.rules_out(&y, &columns, floor);
            let scalar = screen.rules_out_with(&y, &columns, floor, false);
            for (k, &b) in best.iter().enumerate() {
                for r in [ruled, scalar] {
                    if r >> k & 1 == 1 {
                        assert!(b <= floor, "trial {trial} lane {k}: {b} > floor {floor}");
                    }
                }
            }
            if shift == 0.05 && mean == 1.0 && spread == 1.0 {
                clear += 1;
                clear_ruled += (ruled >> 2 & 1) as usize;
            }
        }
    }
    // Five per cent of the best impurity above the attribute's best: ruled out nearly
    // always where the class values are not far from zero relative to their spread.
    assert!(
        clear > 100 && clear_ruled * 10 >= clear * 9,
        "{clear_ruled} of {clear}"
    );
}
