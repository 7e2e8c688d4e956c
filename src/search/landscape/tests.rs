//! Tests of the landscape on SYNTHETIC spaces.

use super::*;
use crate::dataset::import::Config;
use crate::search::testutil::{grid_space, space_of};

/// Two parameters of three values, two basins: a local minimum at (0, 0), half as fast as
/// the optimum at (2, 2). Worked by hand: (0, 1), (1, 0) and (1, 1) descend to (0, 0), the
/// other four to (2, 2). `failed` configurations fail instead.
fn two_basins(failed: &[(usize, usize)]) -> SearchSpace {
    let t = [[2.0, 3.0, 5.0], [3.0, 4.0, 3.5], [5.0, 3.5, 1.0]];
    let mut configs = Vec::new();
    for (a, row) in t.iter().enumerate() {
        for (b, &time) in row.iter().enumerate() {
            let fails = failed.contains(&(a, b));
            configs.push(Config {
                values: vec![a.to_string(), b.to_string()],
                time_ms: (!fails).then_some(time),
                failure: fails.then(|| "failed".into()),
                counters: vec![],
            });
        }
    }
    space_of("two", &["a", "b"], configs)
}

fn settings(by: Vec<usize>) -> LandscapeSettings {
    LandscapeSettings {
        neighbourhood: Neighbourhood::Hamming,
        at: vec![0.9, 0.4],
        basins: 5,
        by,
    }
}

#[test]
fn two_basins_are_found_with_their_shares_and_escapes() {
    let space = two_basins(&[]);
    let l = landscape(&space, &settings(vec![0]));
    assert_eq!(l.configurations, 9);
    assert_eq!(l.local_minima, 2);
    assert_eq!(l.from_random[0].share, 5.0 / 9.0);
    assert_eq!(
        l.from_random[1].share, 1.0,
        "both minima are at 0.4 or better"
    );
    // The fastest 1% of 9 is the optimum alone.
    assert_eq!(l.from_fastest[0].starts, 1);
    assert_eq!(l.from_fastest[0].reach[0].share, 1.0);
    assert_eq!(l.basins.len(), 2);
    assert_eq!(l.basins[0].fraction, 1.0);
    assert_eq!(l.basins[0].share, 5.0 / 9.0);
    assert_eq!(l.basins[0].escapes, None);
    assert_eq!(l.basins[1].fraction, 0.5);
    let values: Vec<&str> = l.basins[1].minimum.iter().map(|v| v.1.as_str()).collect();
    assert_eq!(values, ["0", "0"]);
    // Two changes from (0, 0): (1, 1) stays, (1, 2), (2, 1) and (2, 2) get out.
    assert_eq!(l.basins[1].escapes, Some((3, 4)));
    // By a: a = 0 and a = 1 start one good descent in three, a = 2 three.
    let by: Vec<(String, usize, f64)> =
        l.by.iter()
            .map(|c| (c.values[0].1.clone(), c.starts, c.share))
            .collect();
    assert_eq!(
        by,
        [
            ("0".into(), 3, 1.0 / 3.0),
            ("1".into(), 3, 1.0 / 3.0),
            ("2".into(), 3, 1.0)
        ]
    );
}

#[test]
fn a_failed_configuration_is_neither_a_start_nor_a_step() {
    // Without (1, 2) and (2, 1), (1, 1) is still (0, 0)'s, and (0, 2) and (2, 0) still the
    // optimum's (their fastest neighbour); the two changes from (0, 0) that ran: (1, 1), (2, 2).
    let space = two_basins(&[(1, 2), (2, 1)]);
    let sink = sinks(&space, Neighbourhood::Hamming);
    assert_eq!(sink.iter().filter(|s| s.is_none()).count(), 2);
    let l = landscape(&space, &settings(Vec::new()));
    assert_eq!(l.configurations, 7);
    assert_eq!(l.from_random[0].share, 3.0 / 7.0);
    // (0, 0)'s basin, four starts, is now the larger.
    assert_eq!((l.basins[0].fraction, l.basins[0].share), (0.5, 4.0 / 7.0));
    assert_eq!(l.basins[0].escapes, Some((1, 2)));
    assert!(l.by.is_empty());
}

#[test]
fn every_sink_is_a_local_minimum_of_the_working_configurations() {
    let space = grid_space();
    let sink = sinks(&space, Neighbourhood::Hamming);
    let mut nb = Vec::new();
    for (id, s) in sink.iter().enumerate() {
        let Some(s) = *s else {
            assert!(space.time(id).is_none());
            continue;
        };
        let t = space.time(s).unwrap();
        assert!(t <= space.time(id).unwrap());
        nb.clear();
        hamming(&space, s, &mut nb);
        assert!(nb.iter().all(|&n| space.time(n).is_none_or(|u| u >= t)));
    }
    let l = landscape(&space, &settings(Vec::new()));
    assert!(l.local_minima >= 1);
    assert!(l.basins.iter().any(|b| b.fraction == 1.0));
    let total: f64 = l.basins.iter().map(|b| b.share).sum();
    assert!(total <= 1.0 + 1e-12);
}

#[test]
fn adjacent_descents_stop_where_a_farther_value_is_faster() {
    // Adjacent steps from (0, 2) meet (1, 2) = 3.5 and (0, 1) = 3.0: it moves to (0, 1) and
    // on to (0, 0), where the Hamming descent jumps straight to (2, 2). A Hamming minimum is
    // an adjacent one too, so adjacent descents end at (0, 0) at least as often.
    let space = two_basins(&[]);
    let mut s = settings(Vec::new());
    s.neighbourhood = Neighbourhood::Adjacent;
    let adjacent = landscape(&space, &s);
    assert_eq!(adjacent.neighbourhood, Neighbourhood::Adjacent);
    let hamming = landscape(&space, &settings(Vec::new()));
    assert!(adjacent.from_random[0].share < hamming.from_random[0].share);
    assert!(adjacent.local_minima >= hamming.local_minima);
}
