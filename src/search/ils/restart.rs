//! How the local search starts and starts again: the random share of the budget, a random
//! working configuration, and a jump that changes a few parameters at random.

use super::super::evaluator::{Eval, Evaluator};
use super::super::space::SearchSpace;
use super::monotone::MonotoneParameters;
use advise_ml::Rng;

/// How many of `budget` evaluations the random share measures: the share `init` of it, at
/// most `init_max` where that is above 0, and where the share is on at least `init_min` but
/// never more than half the budget (the minimum wins over the cap).
pub(crate) fn random_share(init: f64, init_min: usize, init_max: usize, budget: usize) -> usize {
    let mut share = (init * budget as f64).round() as usize;
    if init_max > 0 {
        share = share.min(init_max);
    }
    if init > 0.0 {
        share.max(init_min.min(budget / 2))
    } else {
        share
    }
}

/// Measures the random share: `n` configurations that work, drawn at random among those not
/// measured yet, but at most `2 n` measurements, failed ones included. Where most of a space
/// fails, measuring until `n` work would spend most of the budget on the share. On the 68
/// public spaces of docs/search-results.md, none of which fails in more than 23% of its
/// configurations, the cap changed 2 of the 2,040 space, budget and seed-set cells of ten seed
/// sets ("Spaces where most configurations fail"). Returns how many worked.
/// With `spread` above 1 each configuration after the first is the one, of `spread` drawn at
/// random, farthest from those the share measured before it (Mitchell's best-candidate
/// sampling, "Spectrally optimal sampling for distribution ray tracing", SIGGRAPH 1991), so
/// that the share covers the space more evenly than independent draws.
pub(crate) fn measure_random_share(
    ev: &mut Evaluator,
    rng: &mut Rng,
    n: usize,
    spread: usize,
) -> usize {
    let space_len = ev.space().len();
    let first = ev.used();
    let mut working = 0;
    let mut measured = 0;
    while working < n && measured < 2 * n && ev.remaining() > 0 && ev.used() < space_len {
        let id = if spread > 1 && measured > 0 {
            farthest_of(ev, rng, spread, first)
        } else {
            ev.random_unmeasured(rng)
        };
        measured += 1;
        if let Eval::Time(_) = ev.evaluate(id) {
            working += 1;
        }
    }
    working
}

/// Of `spread` unmeasured configurations drawn at random, the first of those farthest from
/// every configuration measured since position `from`: the smallest distance to them, each
/// parameter's level difference over its range (0 to 1 a parameter), is the largest.
fn farthest_of(ev: &Evaluator, rng: &mut Rng, spread: usize, from: usize) -> usize {
    let space = ev.space();
    let radix = space.radix();
    let measured = ev.evaluated().get(from..).unwrap_or(&[]);
    let mut best = (f64::NEG_INFINITY, ev.random_unmeasured(rng));
    for k in 0..spread {
        let c = if k == 0 {
            best.1
        } else {
            ev.random_unmeasured(rng)
        };
        let levels = space.levels(c);
        let d = measured
            .iter()
            .map(|&m| {
                space
                    .levels(m)
                    .iter()
                    .zip(levels)
                    .zip(radix)
                    .filter(|(_, &r)| r > 1)
                    .map(|((&a, &b), &r)| f64::from(a.abs_diff(b)) / (r - 1) as f64)
                    .sum::<f64>()
            })
            .fold(f64::INFINITY, f64::min);
        if d > best.0 {
            best = (d, c);
        }
    }
    best.1
}

/// Measures configurations at random until one works; `None` when nothing is left.
pub(crate) fn random_start(ev: &mut Evaluator, rng: &mut Rng) -> Option<(usize, f64)> {
    let n = ev.space().len();
    while ev.remaining() > 0 && ev.used() < n {
        let id = ev.random_unmeasured(rng);
        if let Eval::Time(t) = ev.evaluate(id) {
            return Some((id, t));
        }
    }
    None
}

/// Draws `k` parameters of `id` (with replacement, parameters of one level included) and gives
/// each a random level, which may be its own: at most `k` changes, often fewer (a
/// configuration the space holds and other than `id`, 20 tries; else a random configuration).
/// Exactly `k` distinct changes were measured on 2026-11-29 and did no better
/// (docs/search-results.md). Where `ok(j, from, to)` refuses one of the parameter changes
/// drawn (a monotone parameter moved the slower way), it draws again within those tries.
pub(crate) fn jump(
    space: &SearchSpace,
    id: usize,
    k: usize,
    rng: &mut Rng,
    ok: impl Fn(usize, u16, u16) -> bool,
) -> usize {
    let radix = space.radix();
    let p = radix.len();
    let from = space.levels(id);
    let mut probe = from.to_vec();
    for _ in 0..20 {
        probe.copy_from_slice(from);
        for _ in 0..k.max(1) {
            let j = rng.below(p);
            probe[j] = rng.below(radix[j]) as u16;
        }
        if !(0..p).all(|j| probe[j] == from[j] || ok(j, from[j], probe[j])) {
            continue;
        }
        if let Some(c) = space.find(&probe) {
            if c != id {
                return c;
            }
        }
    }
    rng.below(space.len())
}

/// At a local minimum, up to 50 random jumps of up to `k` parameters from `from` ([`jump`],
/// refusing a monotone parameter's slower way) until one reaches an unmeasured configuration
/// that runs: `Some(Some(it, its time))`, `Some(None)` where none did, `None` once the budget is
/// spent.
pub(crate) fn measure_jump(
    ev: &mut Evaluator,
    from: usize,
    k: usize,
    rng: &mut Rng,
    mono: &mut MonotoneParameters,
) -> Option<Option<(usize, f64)>> {
    let space = ev.space();
    for _ in 0..50 {
        mono.update(ev);
        let c = jump(space, from, k, rng, |j, a, b| {
            !mono.against(space, j, i64::from(b) - i64::from(a))
        });
        if ev.is_evaluated(c) {
            continue;
        }
        match ev.evaluate(c) {
            Eval::Time(t) => return Some(Some((c, t))),
            Eval::Failed => {}
            Eval::Exhausted => return None,
        }
    }
    Some(None)
}

/// A standard normal draw (Box-Muller).
pub(crate) fn normal(rng: &mut Rng) -> f64 {
    let u = rng.unit().max(f64::MIN_POSITIVE);
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * rng.unit()).cos()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::import::Config;
    use crate::search::testutil::{grid_space, space_of};

    /// Synthetic: 200 configurations of one parameter, every one but each tenth failing.
    fn mostly_failing() -> SearchSpace {
        let configs = (0..200)
            .map(|i| {
                let works = i % 10 == 0;
                Config {
                    values: vec![i.to_string()],
                    time_ms: works.then_some(1.0 + i as f64),
                    failure: (!works).then(|| "CompilationFailedConfig".into()),
                    counters: vec![],
                }
            })
            .collect();
        space_of("mostly failing", &["x"], configs)
    }

    #[test]
    fn the_random_share_stops_at_twice_its_size_in_measurements() {
        let space = mostly_failing();
        for seed in 0..20 {
            let mut ev = Evaluator::new(&space, 100);
            let working = measure_random_share(&mut ev, &mut Rng::new(seed), 10, 1);
            // A tenth works: 20 measurements find about 2, never all 10.
            assert_eq!(ev.used(), 20, "seed {seed}");
            assert!(working < 10, "seed {seed}: {working}");
            let found = ev
                .evaluated()
                .iter()
                .filter(|&&c| space.time(c).is_some())
                .count();
            assert_eq!(working, found, "seed {seed}");
        }
    }

    #[test]
    fn the_random_share_measures_its_size_where_configurations_work() {
        // The synthetic grid space, where a few configurations fail.
        let space = grid_space();
        for seed in 0..20 {
            let mut ev = Evaluator::new(&space, 100);
            assert_eq!(
                measure_random_share(&mut ev, &mut Rng::new(seed), 10, 1),
                10
            );
            let failed = ev
                .evaluated()
                .iter()
                .filter(|&&c| space.time(c).is_none())
                .count();
            assert_eq!(ev.used(), 10 + failed, "seed {seed}");
        }
        // The budget ends it first.
        let mut ev = Evaluator::new(&space, 4);
        assert!(measure_random_share(&mut ev, &mut Rng::new(1), 10, 1) <= 4);
        assert_eq!(ev.used(), 4);
    }

    #[test]
    fn a_spread_share_covers_the_space_more_evenly() {
        // The synthetic grid space: the smallest distance between two configurations of a
        // share (levels over their ranges), summed over 40 seeds, grows with the spread.
        let space = grid_space();
        let closest = |spread: usize| {
            (0..40)
                .map(|seed| {
                    let mut ev = Evaluator::new(&space, 100);
                    measure_random_share(&mut ev, &mut Rng::new(seed), 10, spread);
                    // 10 that work, and any failed ones drawn on the way.
                    let ids = ev.evaluated();
                    assert!((10..=20).contains(&ids.len()));
                    let mut unique = ids.to_vec();
                    unique.sort_unstable();
                    unique.dedup();
                    assert_eq!(unique.len(), ids.len(), "each configuration once");
                    let mut least = f64::INFINITY;
                    for (i, &a) in ids.iter().enumerate() {
                        for &b in &ids[i + 1..] {
                            let d: f64 = space
                                .levels(a)
                                .iter()
                                .zip(space.levels(b))
                                .zip(space.radix())
                                .map(|((&x, &y), &r)| f64::from(x.abs_diff(y)) / (r - 1) as f64)
                                .sum();
                            least = least.min(d);
                        }
                    }
                    least
                })
                .sum::<f64>()
        };
        let (one, four, sixteen) = (closest(1), closest(4), closest(16));
        assert!(one < four && four < sixteen, "{one} {four} {sixteen}");
    }
}
