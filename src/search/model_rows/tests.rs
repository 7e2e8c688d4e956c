//! Tests of the main-effects model's rows: refits against the factorisation, the cap on rows, the
//! refit share, and the record of predictions.

use super::*;
use crate::dataset::import::{Config, TuningSpace};
use advise_ml::Rng;

/// Synthetic: a space of `na` x `nb` x `nc` levels with a failing corner.
fn space(na: usize, nb: usize, nc: usize) -> SearchSpace {
    let mut configs = Vec::new();
    for a in 0..na {
        for b in 0..nb {
            for c in 0..nc {
                let t = 1.0 + (a as f64 * 0.2).sin().abs() + 0.1 * b as f64 + (c % 5) as f64;
                let failed = a + 5 > na && b + 5 > nb;
                configs.push(Config {
                    values: vec![a.to_string(), b.to_string(), c.to_string()],
                    time_ms: (!failed).then_some(t),
                    failure: failed.then(|| "RuntimeFailedConfig".into()),
                    counters: vec![],
                });
            }
        }
    }
    let t = TuningSpace {
        tool: "test",
        device: "gpu".into(),
        kernel: "k".into(),
        params: vec!["a".into(), "b".into(), "c".into()],
        configs,
        notes: vec![],
        run_noise: None,
    };
    SearchSpace::from_tuning("k".into(), &t).unwrap()
}

/// New measurements a model fitted on `n` waits for: the fewest k with k >= (n + k) /
/// REFIT_SHARE.
fn rows_a_refit_needs(n: usize) -> usize {
    (1..).find(|&k| k >= (n + k) / REFIT_SHARE).unwrap_or(1)
}

/// A factorised fit on every measurement so far (failures: twice `worst`), and the
/// measurements' levels.
fn fit_on_every_measurement(
    space: &SearchSpace,
    ev: &Evaluator,
    worst: f64,
) -> (OneHotRidge, Vec<u16>) {
    let failed = (2.0 * worst).ln();
    let mut rows = Vec::new();
    let mut y = Vec::new();
    for &id in ev.evaluated() {
        rows.extend_from_slice(space.levels(id));
        y.push(space.time(id).map_or(failed, f64::ln));
    }
    (
        OneHotRidge::fit(space.radix(), &rows, &y, 1.0).unwrap(),
        rows,
    )
}

/// Measured in a seeded random order, a 30 x 25 x 12 space (67 columns, so refitted
/// iteratively): the iterative refits predict every measured configuration within ten
/// times the tolerance in log time (1% of its time) of a factorisation on the same rows,
/// and a refit waits for 1/REFIT_SHARE more rows.
#[test]
fn iterative_refits_match_the_factorisation() {
    let space = space(30, 25, 12);
    let mut ev = Evaluator::new(&space, 1_000);
    let mut data = ModelRows::new(&space);
    assert!(data.counts.columns() > FACTORISED_COLUMNS);
    let mut rng = Rng::new(3);
    let mut worst_gap = 0.0f64;
    for round in 0..12 {
        for _ in 0..50 {
            ev.evaluate(rng.below(space.len()));
        }
        let model = data.fit(&ev).cloned().unwrap();
        let (exact, rows) = fit_on_every_measurement(&space, &ev, data.worst);
        for r in rows.chunks(3) {
            worst_gap = worst_gap.max((model.predict(r) - exact.predict(r)).abs());
        }
        assert!(
            worst_gap < 10.0 * CG_TOLERANCE,
            "round {round}: {worst_gap}"
        );
    }
    // Fewer new measurements than 1/REFIT_SHARE of them all: the last fit stands; as many:
    // a new one.
    let probe = space.levels(0).to_vec();
    let last = data.fit(&ev).unwrap().predict(&probe);
    let n = ev.evaluated().len();
    let need = rows_a_refit_needs(n);
    while ev.evaluated().len() < n + need - 1 {
        ev.evaluate(rng.below(space.len()));
    }
    assert_eq!(
        data.fit(&ev).unwrap().predict(&probe).to_bits(),
        last.to_bits()
    );
    while ev.evaluated().len() < n + need {
        ev.evaluate(rng.below(space.len()));
    }
    assert_ne!(
        data.fit(&ev).unwrap().predict(&probe).to_bits(),
        last.to_bits()
    );
}

/// A 20 x 20 x 20 space (60 columns, so at most 3,000 measurements): past the cap no
/// measurement is counted and the model stays the last one fitted, bit for bit.
#[test]
fn a_model_stops_at_its_measurements_per_column() {
    let space = space(20, 20, 20);
    let mut ev = Evaluator::new(&space, space.len());
    let mut data = ModelRows::new(&space);
    let cap = MOST_ROWS_PER_COLUMN * data.columns();
    assert_eq!(cap, 3_000);
    let mut order: Vec<usize> = (0..space.len()).collect();
    Rng::new(8).shuffle(&mut order);
    let mut next = order.into_iter();
    let probe = space.levels(11).to_vec();
    let mut last = None;
    for n in [1_000, 2_000, 2_900, 3_000, 3_500, 5_000] {
        while ev.used() < n {
            ev.evaluate(next.next().unwrap());
        }
        let now = data.fit(&ev).unwrap().predict(&probe).to_bits();
        assert_eq!(data.logs.len(), n.min(cap), "{n} measured");
        if n > cap {
            assert_eq!(Some(now), last, "{n} measured");
        }
        last = Some(now);
    }
}

/// A space of 6 x 5 x 4 levels (15 columns, so factorised): a refit on the measurements
/// so far is `OneHotRidge::fit` on them bit for bit, and it too waits for 1/REFIT_SHARE
/// more rows.
#[test]
fn factorised_refits_wait_for_a_share_of_new_rows() {
    let space = space(6, 5, 4);
    let mut ev = Evaluator::new(&space, space.len());
    let mut data = ModelRows::new(&space);
    assert!(data.counts.columns() <= FACTORISED_COLUMNS);
    let mut order: Vec<usize> = (0..space.len()).collect();
    Rng::new(5).shuffle(&mut order);
    let mut next = order.into_iter();
    let mut take = |ev: &mut Evaluator, k: usize| {
        for id in next.by_ref().take(k) {
            ev.evaluate(id);
        }
    };
    take(&mut ev, 80);
    let model = data.fit(&ev).cloned().unwrap();
    let (exact, _) = fit_on_every_measurement(&space, &ev, data.worst);
    let probe = space.levels(7).to_vec();
    let bits = |m: &OneHotRidge| m.predict(&probe).to_bits();
    assert_eq!(bits(&model), bits(&exact));
    // From 80 measurements a refit needs 3 new ones (83 / 24 = 3): two leave the last fit
    // standing, the third brings a new one.
    let need = rows_a_refit_needs(80);
    assert_eq!(need, 3);
    take(&mut ev, need - 1);
    assert_eq!(bits(data.fit(&ev).unwrap()), bits(&model));
    take(&mut ev, 1);
    assert_ne!(bits(data.fit(&ev).unwrap()), bits(&model));
}

#[test]
fn the_record_counts_pairs_ranked_alike_and_trusts_from_ten() {
    let mut s = ModelRecord::default();
    for x in [1.0, 2.0, 3.0, 4.0] {
        s.add(x, x);
    }
    // Six pairs, all alike: too few to trust.
    assert_eq!((s.concordant, s.discordant), (6, 0));
    assert!(!s.trusted(0.5));
    // Predicted fastest, measured slowest: four pairs the other way round; 6 of 10 alike.
    s.add(0.0, 5.0);
    assert_eq!((s.concordant, s.discordant), (6, 4));
    assert!(s.trusted(0.55));
    assert!(!s.trusted(0.6));
    // A failure ranks slowest (four pairs alike); a tie in prediction counts neither way.
    s.add(4.0, f64::MAX);
    assert_eq!((s.concordant, s.discordant), (10, 4));
}
