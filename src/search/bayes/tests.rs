use super::*;
use crate::search::testutil::optimum_hits;
use crate::search::Strategy;

#[test]
fn alternate_length_scale_steps_only_from_their_budget() {
    // Every other step with a fixed length scale: no change to a search whose budget is
    // under `alt_from`; a change to some from it.
    let alt = |alt_from| BayesOpt {
        alt_ell: 1.5,
        alt_from,
        ..BayesOpt::default()
    };
    let trace = |st: &BayesOpt, seed| crate::search::testutil::measured_on_grid(st, 60, seed);
    let mut changed = 0;
    for seed in 0..5 {
        let plain = trace(&BayesOpt::default(), seed);
        assert_eq!(trace(&alt(61), seed), plain, "seed {seed}");
        changed += usize::from(trace(&alt(60), seed) != plain);
    }
    assert!(
        changed >= 3,
        "alternate steps changed {changed} of 5 searches"
    );
    assert_eq!(alt(200).name(), "bayes_opt-alt1.5from200");
}

#[test]
fn reproducible_within_budget_and_often_optimal() {
    let hits = optimum_hits(&BayesOpt::default(), 60, 10);
    assert!(hits >= 7, "optimum found in {hits} of 10 runs");
    let unit = BayesOpt {
        eps_scale: false,
        raw_time: true,
        ..BayesOpt::default()
    };
    let hits = optimum_hits(&unit, 60, 10);
    assert!(
        hits >= 7,
        "unit scaling, time: optimum found in {hits} of 10 runs"
    );
    assert!((super::super::gp::phi_cdf(1.0) - 0.841_344_7).abs() < 1e-6);
}

#[test]
fn failures_change_only_the_searches_of_spaces_where_something_failed() {
    let with = |failures| BayesOpt {
        failures,
        fail_power: 0.5,
        ..BayesOpt::default()
    };
    // A space where nothing fails is searched the same whatever failures would be.
    let sparse = crate::search::testutil::sparse_space();
    for seed in 0..3 {
        let run = |f| {
            crate::search::run(&sparse, &with(f), 40, seed)
                .unwrap()
                .measured
        };
        assert_eq!(run(Failures::Weigh), run(Failures::Slowest), "seed {seed}");
        assert_eq!(run(Failures::Drop), run(Failures::Slowest), "seed {seed}");
    }
    // The grid space has failures: dropping or weighing them changes some of its searches.
    let grid = crate::search::testutil::measured_on_grid;
    for f in [Failures::Drop, Failures::Weigh] {
        let changed = (0..5)
            .filter(|&seed| grid(&with(f), 40, seed) != grid(&with(Failures::Slowest), 40, seed))
            .count();
        assert!(changed >= 1, "{f:?} changed no search of the grid space");
    }
    let weigh = BayesOpt {
        fail_ell: 1.0,
        ..with(Failures::Weigh)
    };
    assert_eq!(weigh.name(), "bayes_opt-failweigh-failpow0.5-failell1");
    assert!(optimum_hits(&with(Failures::Weigh), 60, 10) >= 7);
}
