use super::*;
use crate::search::testutil::{grid_space, optimum_hits};

/// `auto` with its local search's settings changed by `with`.
fn auto_with(with: impl FnOnce(&mut Ils)) -> Auto {
    let mut st = Auto::default();
    with(&mut st.ils);
    st
}

/// The trace of a search of the grid space.
fn trace(st: &Auto, budget: usize, seed: u64) -> Vec<f64> {
    crate::search::run(&grid_space(), st, budget, seed)
        .map(|r| r.trace)
        .unwrap()
}

#[test]
fn bayesian_steps_only_from_twenty_evaluations() {
    let plain = auto_with(|s| {
        s.bo = 0.0;
        s.bo_jump = 0;
    });
    // Under 20 evaluations `auto` is the local search alone; from 20 it is not.
    assert_eq!(trace(&Auto::default(), 19, 5), trace(&plain, 19, 5));
    assert_ne!(trace(&Auto::default(), 20, 5), trace(&plain, 20, 5));
    assert!(optimum_hits(&Auto::default(), 100, 10) >= 9);
    assert!(optimum_hits(&Auto::default(), 40, 10) >= 7);
}

#[test]
fn the_random_share_is_capped_only_where_the_budget_passes_it() {
    let uncapped = auto_with(|s| s.init_max = 0);
    // 15% of 160 is 24, under the cap; of 300, 45, over it.
    assert!(grid_space().len() > 300);
    assert_eq!(trace(&Auto::default(), 160, 3), trace(&uncapped, 160, 3));
    assert_ne!(trace(&Auto::default(), 300, 3), trace(&uncapped, 300, 3));
}

#[test]
fn bayesian_steps_only_up_to_the_largest_budget() {
    // A limit at the budget (or none) leaves the search as it is; one under it makes it the
    // search without the Bayesian phase and jumps.
    let measured = |st: &Auto, seed| {
        crate::search::run(&grid_space(), st, 60, seed)
            .unwrap()
            .measured
    };
    let upto = |budget| auto_with(|s| s.bo_budget = budget);
    let plain = auto_with(|s| {
        s.bo = 0.0;
        s.bo_jump = 0;
    });
    let mut changed = 0;
    for seed in 0..5 {
        let with = measured(&upto(0), seed);
        assert_eq!(measured(&upto(60), seed), with, "seed {seed}");
        let without = measured(&plain, seed);
        assert_eq!(measured(&upto(59), seed), without, "seed {seed}");
        changed += usize::from(with != without);
    }
    assert!(changed >= 4, "the steps changed {changed} of 5 searches");
}
