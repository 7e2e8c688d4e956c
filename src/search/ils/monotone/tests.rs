//! Tests of the monotone parameters (src/search/ils/monotone.rs).

use super::*;
use crate::dataset::import::Config;
use crate::search::testutil::{grid_space, space_of};

/// Synthetic: a clock of 8 levels, each one 2% faster than the one below, times a tile
/// size of 6 levels whose third is fastest (a bowl).
fn clocked() -> SearchSpace {
    let mut configs = Vec::new();
    for clock in 0..8 {
        for tile in 0..6 {
            let t = (1.0 + f64::from(tile - 2).powi(2)) * 0.98f64.powi(clock);
            configs.push(Config {
                values: vec![(1000 + 100 * clock).to_string(), (1 << tile).to_string()],
                time_ms: Some(t),
                failure: None,
                counters: vec![],
            });
        }
    }
    space_of("clocked", &["clock", "tile"], configs)
}

fn measured(space: &SearchSpace, n: usize) -> Evaluator<'_> {
    let mut ev = Evaluator::new(space, n);
    for c in 0..n {
        ev.evaluate(c);
    }
    ev
}

#[test]
fn a_clock_is_monotone_and_a_bowl_is_not() {
    let space = clocked();
    let ev = measured(&space, space.len());
    let mut mono = MonotoneParameters::new(&space, 4);
    mono.update(&ev);
    let counts = mono.higher.clone();
    // Taken in twice, nothing counts twice.
    mono.update(&ev);
    assert_eq!(mono.higher, counts);
    // Every pair of two clocks at each of the 6 tiles: 6 x 28.
    assert_eq!(counts[0], (168, 0));
    assert_eq!(mono.way(&space, 0), Some(1));
    assert!(mono.against(&space, 0, -5));
    assert!(!mono.against(&space, 0, 5));
    // The tile is a bowl: both ways win pairs.
    assert_eq!(mono.way(&space, 1), None);
    assert!(counts[1].0 > 0 && counts[1].1 > 0);
}

#[test]
fn pairs_count_only_once_both_are_measured() {
    let space = clocked();
    // The first configuration alone pairs with nothing.
    let mut mono = MonotoneParameters::new(&space, 4);
    mono.update(&measured(&space, 1));
    assert_eq!(mono.higher, vec![(0, 0); 2]);
}

#[test]
fn the_counts_are_those_of_every_measured_pair_taken_in_any_steps() {
    // The grid space measured in a seeded random order, taken in a few at a time: the
    // counts equal a count over all pairs of measured configurations one parameter apart.
    let space = grid_space();
    let mut rng = advise_ml::Rng::new(3);
    let n = 300;
    let mut ev = Evaluator::new(&space, n);
    let mut mono = MonotoneParameters::new(&space, 4);
    for k in 0..n {
        ev.evaluate(ev.random_unmeasured(&mut rng));
        if k % 7 == 0 {
            mono.update(&ev);
        }
    }
    mono.update(&ev);
    let mut want = vec![(0, 0); space.radix().len()];
    let done = ev.evaluated();
    for (i, &a) in done.iter().enumerate() {
        for &b in &done[..i] {
            let (la, lb) = (space.levels(a), space.levels(b));
            let apart: Vec<usize> = (0..la.len()).filter(|&j| la[j] != lb[j]).collect();
            let (Some(ta), Some(tb)) = (space.time(a), space.time(b)) else {
                continue;
            };
            if let [j] = apart[..] {
                if space.radix()[j] >= FEWEST_LEVELS {
                    let faster = if la[j] > lb[j] { ta < tb } else { tb < ta };
                    if faster {
                        want[j].0 += 1;
                    } else {
                        want[j].1 += 1;
                    }
                }
            }
        }
    }
    assert_eq!(mono.higher, want);
    assert!(want[0].0 + want[0].1 > 50, "few pairs: {want:?}");
}

#[test]
fn parameters_of_few_levels_are_not_counted() {
    let space = grid_space(); // bx 12 levels, tile 10, unroll 4 (time rises with it)
    let mut mono = MonotoneParameters::new(&space, 4);
    mono.update(&measured(&space, space.len()));
    assert_eq!(mono.higher[2], (0, 0));
    assert_eq!(mono.way(&space, 2), None);
    assert!(mono.higher[0].0 > 0 && mono.higher[0].1 > 0, "bx: a bowl");
}

#[test]
fn the_way_needs_enough_pairs_and_few_contrary_ones() {
    let space = grid_space(); // bx has 12 levels, unroll 4
    let mut mono = MonotoneParameters::new(&space, 4);
    mono.higher[0] = (40, 2);
    assert_eq!(mono.way(&space, 0), Some(1));
    mono.at_least = 41;
    assert_eq!(mono.way(&space, 0), None, "too few pairs");
    mono.at_least = 4;
    mono.higher[0] = (40, 3);
    assert_eq!(
        mono.way(&space, 0),
        None,
        "3 in 40 against: more than one in 20"
    );
    mono.higher[0] = (0, 5);
    assert_eq!(mono.way(&space, 0), Some(-1));
    assert!(mono.against(&space, 0, 2));
    mono.higher[2] = (50, 0);
    assert_eq!(mono.way(&space, 2), None, "4 levels: under the fewest");
}

/// Synthetic: a clock of 10 levels, each 2% faster than the one below, times a kernel of
/// three parameters of 5 levels whose times are drawn (seeded) between 1 and 3.
fn clocked_kernel() -> SearchSpace {
    let mut rng = advise_ml::Rng::new(5);
    let kernel: Vec<f64> = (0..125).map(|_| 1.0 + 2.0 * rng.unit()).collect();
    let mut configs = Vec::new();
    for clock in 0..10 {
        for (k, &t) in kernel.iter().enumerate() {
            configs.push(Config {
                values: vec![
                    (1000 + 50 * clock).to_string(),
                    (k / 25).to_string(),
                    (k / 5 % 5).to_string(),
                    (k % 5).to_string(),
                ],
                time_ms: Some(t * 0.98f64.powi(clock)),
                failure: None,
                counters: vec![],
            });
        }
    }
    space_of("clocked-kernel", &["clock", "a", "b", "c"], configs)
}

#[test]
fn a_search_that_finds_the_clock_monotone_measures_fewer_slow_clocks() {
    let space = clocked_kernel();
    let auto = |monotone| Ils {
        monotone,
        ..crate::search::auto::Auto::default().ils
    };
    let slow_clocks = |st: &Ils| -> usize {
        (0..10)
            .map(|seed| {
                let run = crate::search::run(&space, st, 150, seed).unwrap();
                run.measured
                    .iter()
                    .filter(|&&c| space.levels(c)[0] < 9)
                    .count()
            })
            .sum()
    };
    let (on, off) = (slow_clocks(&auto(4)), slow_clocks(&auto(0)));
    assert!(
        (on as f64) < 0.75 * off as f64,
        "measurements below the top clock in 10 runs of 150: {on} monotone, {off} not"
    );
}
