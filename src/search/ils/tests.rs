//! Tests of the iterated local search (src/search/ils.rs).

use super::*;
use crate::search::testutil::{measured_on_grid, optimum_hits};

#[test]
fn momentum_repeats_an_improving_move_first() {
    let space = crate::search::testutil::ramp_space();
    let st = |momentum| Ils {
        momentum,
        ..Ils::basinhopping()
    };
    // The longest run of measurements each one x-level above the one before, y the same.
    let longest = |momentum, seed| {
        let m = crate::search::run(&space, &st(momentum), 40, seed)
            .unwrap()
            .measured;
        let (mut best, mut run) = (0, 0);
        for w in m.windows(2) {
            let (a, b) = (space.levels(w[0]), space.levels(w[1]));
            run = if b[0] == a[0] + 1 && b[1] == a[1] {
                run + 1
            } else {
                0
            };
            best = best.max(run);
        }
        best
    };
    for seed in 0..5 {
        // From a random start the descent, once it has stepped up in x, keeps stepping
        // up in x to the last level (at least 8 in a row from any start below x = 8).
        let start = space.levels(
            crate::search::run(&space, &st(true), 1, seed)
                .unwrap()
                .measured[0],
        )[0];
        if start < 8 {
            assert!(
                longest(true, seed) >= 15 - usize::from(start),
                "seed {seed}"
            );
        }
    }
    let with: usize = (0..20).map(|s| longest(true, s)).sum();
    let without: usize = (0..20).map(|s| longest(false, s)).sum();
    assert!(
        with > 2 * without,
        "runs in a row: {with} with momentum, {without} without"
    );
}

#[test]
fn the_random_share_is_at_least_its_minimum_and_at_most_half_a_small_budget() {
    // auto's 15% with at least 10: 25 evaluations give 10 (4 from the share alone),
    // 200 give the share's 30, 12 give half, 6.
    assert_eq!(random_share(0.15, 10, 0, 25), 10);
    assert_eq!(random_share(0.15, 0, 0, 25), 4);
    assert_eq!(random_share(0.15, 10, 0, 200), 30);
    assert_eq!(random_share(0.15, 10, 0, 12), 6);
    // Without a random share (greedy_ils, basinhopping) the minimum does not apply.
    assert_eq!(random_share(0.0, 10, 0, 25), 0);
    // auto's cap of 25: 200 evaluations give 25, 160 still the share's 24.
    assert_eq!(random_share(0.15, 10, 25, 200), 25);
    assert_eq!(random_share(0.15, 10, 25, 160), 24);
}

#[test]
fn a_small_budget_descends_from_the_best_of_the_minimum_random_share() {
    let st = |init_min| Ils {
        init: 0.15,
        init_min,
        model: true,
        ..Ils::basinhopping()
    };
    let measured = |s: &Ils| measured_on_grid(s, 25, 3);
    // The first 4 measurements are the same random draws; the fifth starts the descent
    // with the minimum off and is one more random draw with it on.
    let (off, on) = (measured(&st(0)), measured(&st(10)));
    assert_eq!(off[..4], on[..4]);
    assert_ne!(off[4..10], on[4..10]);
}

#[test]
fn with_few_rows_the_model_orders_only_on_a_good_record() {
    let st = |model, model_rows, gate| Ils {
        model,
        model_rows,
        gate,
        init: 0.15,
        init_min: 10,
        ..Ils::basinhopping()
    };
    let measured = |s: &Ils| measured_on_grid(s, 60, 7);
    let unordered = measured(&st(false, 0.0, 0.0));
    // 60 measurements stay under 100 per column of the grid's 26: a record never good
    // enough (no share exceeds 1), or no gate, leaves the order random, as without a model.
    assert_eq!(measured(&st(true, 100.0, 1.0)), unordered);
    assert_eq!(measured(&st(true, 100.0, 0.0)), unordered);
    // From one row per column (26 measurements) the model orders.
    let from_26 = measured(&st(true, 1.0, 1.0));
    assert_eq!(from_26[..26], unordered[..26]);
    assert_ne!(from_26, unordered);
    // The grid's times are nearly additive: the record soon earns the model its order.
    assert_ne!(measured(&st(true, 100.0, 0.65)), unordered);
    // With enough rows per column (any, at 0) the record does not matter.
    assert_eq!(measured(&st(true, 0.0, 1.0)), measured(&st(true, 0.0, 0.0)));
}

#[test]
fn bayesian_jumps_stop_at_the_searchs_cap() {
    // A Bayesian phase of 20% of 60 evaluations (12 steps), then up to 3 Bayesian steps at
    // each local minimum until the search's steps, the phase's included, reach the cap: a
    // cap of 12 leaves the search as it is without jumps; a higher one changes it.
    let st = |bo_jump, bo_jump_max| Ils {
        bo: 0.2,
        bo_min: 0,
        bo_max: 20,
        bo_jump,
        bo_jump_max,
        ..Ils::basinhopping()
    };
    let trace = |st: &Ils, seed| measured_on_grid(st, 60, seed);
    let mut changed = 0;
    for seed in 0..5 {
        let plain = trace(&st(0, usize::MAX), seed);
        assert_eq!(trace(&st(3, 12), seed), plain, "seed {seed}");
        changed += usize::from(trace(&st(3, 30), seed) != plain);
    }
    assert!(changed >= 4, "jumps changed {changed} of 5 searches");
    assert!(optimum_hits(&st(3, 30), 60, 10) >= 8);
}

#[test]
fn a_local_minimum_with_few_single_changes_is_checked_against_more_repairs() {
    assert_eq!(repairs_to_measure(1, 8, 20), 1);
    assert_eq!(repairs_to_measure(1, 8, 3), 5);
    assert_eq!(repairs_to_measure(1, 8, 0), 8);
    assert_eq!(repairs_to_measure(2, 0, 0), 2);
    // Hamming stage not reached: the floor adds nothing.
    assert_eq!(repairs_to_measure(1, 8, usize::MAX), 1);
    let st = |repair_floor| Ils {
        repair: 1,
        repair_floor,
        ..Ils::greedy()
    };
    let measured = |space: &crate::search::SearchSpace, st: &Ils, seed| {
        crate::search::run(space, st, 60, seed).unwrap().measured
    };
    // Every configuration of the grid space has at least 8 single changes: nothing changes.
    let grid = crate::search::testutil::grid_space();
    for seed in 0..5 {
        assert_eq!(measured(&grid, &st(8), seed), measured(&grid, &st(0), seed));
    }
    // The sparse space holds few: the searches measure more repairs, and differ.
    let sparse = crate::search::testutil::sparse_space();
    let changed = (0..5)
        .filter(|&seed| measured(&sparse, &st(8), seed) != measured(&sparse, &st(0), seed))
        .count();
    assert!(changed >= 4, "the floor changed {changed} of 5 searches");
}

#[test]
fn a_wide_neighbourhood_for_the_budget_gets_a_longer_bayesian_phase() {
    let space = crate::search::testutil::grid_space();
    // The grid space's configurations hold 19-22 single changes each.
    let mut ev = crate::search::evaluator::Evaluator::new(&space, 10);
    for id in [0, 100, 200, 300] {
        ev.evaluate(id);
    }
    let mean = mean_single_changes(&ev);
    assert!((19.0..=23.0).contains(&mean), "mean single changes {mean}");
    let st = |bo_wide_at| Ils {
        bo: 0.2,
        bo_min: 0,
        bo_max: 20,
        bo_wide_at,
        bo_wide: 0.5,
        bo_wide_max: 40,
        init: 0.15,
        init_min: 10,
        ..Ils::basinhopping()
    };
    let measured = |st: &Ils, budget, seed| {
        crate::search::run(&space, st, budget, seed)
            .unwrap()
            .measured
    };
    for seed in 0..3 {
        // 60 evaluations: about 20 single changes are a third of the budget, so a threshold
        // of a quarter lengthens the Bayesian phase (12 -> 30 steps) and one of a half does not.
        assert_ne!(measured(&st(0.25), 60, seed), measured(&st(0.0), 60, seed));
        assert_eq!(measured(&st(0.5), 60, seed), measured(&st(0.0), 60, seed));
    }
}

#[test]
fn twin_steps_leave_the_trap_single_changes_cannot() {
    // (8, 8, 4) is a local minimum of every single change; (16, 16, 4), the optimum, is one
    // twin step away. A greedy descent from any start ends in the trap or at the optimum.
    let space = crate::search::testutil::twin_trap_space();
    let st = |twins| Ils {
        twins,
        perturb: 0,
        ..Ils::greedy()
    };
    let hits = |twins| {
        (0..30)
            .filter(|&seed| {
                let r = crate::search::run(&space, &st(twins), 14, seed).unwrap();
                r.fraction_of_optimum == 1.0
            })
            .count()
    };
    // 14 of the 27 configurations: every run with twin steps, 11 of 30 without.
    assert_eq!(hits(true), 30);
    assert!(
        hits(false) < 20,
        "most descents end in the trap without twin steps"
    );
}

/// A synthetic space with a basin and its mirror image: block sizes x and y of 1..128 and
/// tiles x and y of 1..4; the optimum at block 128 x 2, tile 1 x 4, and a basin 5% slower at
/// its transpose, block 2 x 128, tile 4 x 1, which no single change leaves.
fn mirror_trap_space() -> crate::search::space::SearchSpace {
    mirror_trap_space_named(["block_size_x", "block_size_y", "tile_size_x", "tile_size_y"])
}

/// [`mirror_trap_space`] with other names for its four parameters.
fn mirror_trap_space_named(params: [&str; 4]) -> crate::search::space::SearchSpace {
    use crate::dataset::import::space::Config;
    let (a, b) = ([7i32, 1, 0, 3], [1i32, 7, 3, 0]);
    let dist = |c: &[i32; 4], l: &[i32; 4]| -> f64 {
        c.iter()
            .zip(l)
            .map(|(x, y)| f64::from((x - y).abs()))
            .sum::<f64>()
            * 0.5
    };
    let mut configs = Vec::new();
    for bx in 0..8 {
        for by in 0..8 {
            for tx in 0..4 {
                for ty in 0..4 {
                    let l = [bx, by, tx, ty];
                    let t = (1.0 + dist(&a, &l)).min(1.05 + dist(&b, &l));
                    configs.push(Config {
                        values: vec![
                            (1 << bx).to_string(),
                            (1 << by).to_string(),
                            (tx + 1).to_string(),
                            (ty + 1).to_string(),
                        ],
                        time_ms: Some(t),
                        failure: None,
                        counters: vec![],
                    });
                }
            }
        }
    }
    crate::search::testutil::space_of("mirror", &params, configs)
}

/// Runs of 60 evaluations, seeds 0-29, that end at the optimum of `space`.
fn trap_hits(space: &crate::search::space::SearchSpace, st: &Ils) -> usize {
    (0..30)
        .filter(|&seed| {
            let r = crate::search::run(space, st, 60, seed).unwrap();
            r.fraction_of_optimum == 1.0
        })
        .count()
}

#[test]
fn transposes_leave_a_mirrored_basin_and_only_from_their_budget() {
    let space = mirror_trap_space();
    // Free moves (on from 2.5% of the space measured) leave this trap too: without them the
    // transposes are what does.
    let auto = |mirror, mirror_from| Ils {
        mirror,
        mirror_from,
        free_moves: FreeMoves::Off,
        ..crate::search::auto::Auto::default().ils
    };
    let hits = |st: &Ils| trap_hits(&space, st);
    let (with, without) = (hits(&auto(true, 1)), hits(&auto(false, 1)));
    assert!(
        with > without && with >= 25,
        "optimum in {with} of 30 runs with transposes, {without} without"
    );
    // Under its budget the search is the one without transposes.
    for seed in 0..5 {
        let run = |st: &Ils| crate::search::run(&space, st, 60, seed).unwrap().measured;
        assert_eq!(run(&auto(true, 61)), run(&auto(false, 1)), "seed {seed}");
    }
}

#[test]
fn a_matrix_multiply_is_transposed_under_the_budget_of_the_other_pairs() {
    // The same trap with a matrix multiply's names (CLBlast's work-group tile and vector
    // widths in M and N): auto transposes it at 60 evaluations, under the 100 of x and y pairs.
    let space = mirror_trap_space_named(["MWG", "NWG", "VWM", "VWN"]);
    let auto = |mirror_gemm_from| Ils {
        mirror_gemm_from,
        free_moves: FreeMoves::Off,
        ..crate::search::auto::Auto::default().ils
    };
    let defaults = crate::search::auto::Auto::default().ils;
    assert!(defaults.mirror_gemm_from <= 60 && defaults.mirror_from > 60);
    let (with, without) = (trap_hits(&space, &auto(0)), trap_hits(&space, &auto(61)));
    assert!(
        with > without && with >= 25,
        "optimum in {with} of 30 runs with transposes, {without} without"
    );
}

#[test]
fn a_stalled_search_stops_where_the_full_one_would_have_gone_on() {
    let space = crate::search::testutil::grid_space();
    let full = crate::search::auto::Auto::default().ils;
    assert!(full.stall > 0.0 && full.stall_min > space.len());
    let stalling = Ils {
        stall: 0.1,
        stall_min: 15,
        ..full.clone()
    };
    let mut stopped = 0;
    for seed in 0..10 {
        let a = crate::search::run(&space, &full, 300, seed).unwrap();
        let b = crate::search::run(&space, &stalling, 300, seed).unwrap();
        // The same search up to the stop: its measurements are the first ones of the full
        // search's.
        assert_eq!(a.measured[..b.evaluations], b.measured[..], "seed {seed}");
        if b.evaluations < 300 {
            stopped += 1;
            // Stopped only after 30 evaluations (a tenth of 300, over the floor) without a
            // new best.
            let last = b.trace[b.evaluations - 1];
            let found = b.trace.iter().position(|&t| t == last).unwrap() + 1;
            assert!(b.evaluations - found >= 30, "seed {seed}");
        }
    }
    assert!(stopped > 0, "no search stopped early");
    // auto's floor of 4,000 evaluations leaves every smaller budget whole.
    assert_eq!(
        crate::search::run(&space, &full, 300, 1)
            .unwrap()
            .evaluations,
        300
    );
}

#[test]
fn free_moves_wait_for_their_share_of_the_space_and_then_leave_a_trap() {
    let space = mirror_trap_space();
    let auto = |free_moves, free_from| Ils {
        mirror: false,
        free_moves,
        free_from,
        ..crate::search::auto::Auto::default().ils
    };
    let measured = |st: &Ils, seed| crate::search::run(&space, st, 60, seed).unwrap().measured;
    // Never reached at 60 of 1,024: the search is the one without free moves.
    for seed in 0..5 {
        assert_eq!(
            measured(&auto(FreeMoves::Adjacent, 0.1), seed),
            measured(&auto(FreeMoves::Off, 0.0), seed),
            "seed {seed}"
        );
    }
    let hits = |st: &Ils| trap_hits(&space, st);
    let default = crate::search::auto::Auto::default().ils;
    let (free, off) = (
        hits(&auto(default.free_moves, default.free_from)),
        hits(&auto(FreeMoves::Off, 0.0)),
    );
    assert!(
        free > off,
        "optimum in {free} of 30 runs with free moves, {off} without"
    );
}
