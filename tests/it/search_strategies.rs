//! Strategies on a real recorded space (pnpoly on an RTX 2080 Ti): every strategy stays within
//! its budget, a seed fixes the result, and the model-based strategies beat random search at a
//! 2% budget (docs/search-results.md has the full benchmark).

use std::path::Path;

use advise::search::bench::{bench, BenchSettings, Budget};
use advise::search::{run, strategies, strategy, SearchSpace, ALL};

fn space() -> SearchSpace {
    SearchSpace::load(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/spaces/pnpoly__RTX_2080_Ti.json.gz"),
    )
    .unwrap()
}

#[test]
fn within_budget_and_reproducible() {
    let s = space();
    for name in ALL
        .iter()
        .chain(&["iterml-cart", "iterml-knn", "brt-paper"])
    {
        let st = strategy(name).unwrap();
        for budget in [1, 41, 205] {
            for seed in [0, 7] {
                let a = run(&s, st.as_ref(), budget, seed).unwrap();
                let b = run(&s, st.as_ref(), budget, seed).unwrap();
                assert!(
                    a.evaluations <= budget,
                    "{name}: {} > {budget}",
                    a.evaluations
                );
                assert_eq!(a.trace.len(), a.evaluations);
                assert_eq!((a.best, a.trace), (b.best, b.trace), "{name} seed {seed}");
            }
        }
    }
}

#[test]
fn model_based_strategies_beat_random_at_two_percent() {
    let s = vec![space()];
    let st = strategies(&["random".into(), "iterml".into(), "brt".into()]).unwrap();
    let settings = BenchSettings {
        budgets: vec![Budget::Share(0.02)],
        repeats: 40,
        seed: 0,
        threads: 2,
        reach_at: Vec::new(),
    };
    let r = bench(&s, &st, &settings, &|| {}).unwrap();
    let median = |name: &str| {
        r.results
            .iter()
            .find(|row| row.strategy == name)
            .unwrap()
            .median_fraction
    };
    assert!(median("iterml") > median("random"), "{:?}", r.results);
    assert!(median("brt") > median("random"), "{:?}", r.results);
}

#[test]
fn the_whole_budget_finds_the_optimum() {
    let s = space();
    let o = run(&s, strategy("random").unwrap().as_ref(), s.len(), 3).unwrap();
    assert_eq!(o.fraction_of_optimum, 1.0);
    assert_eq!(o.evaluations, s.len());
}
