//! Offspring in the random share: part of the configurations measured before the first
//! descent are bred from the fastest ones measured so far, as a genetic algorithm's next
//! generation is (uniform crossover of two parents, then each parameter redrawn at random with
//! a small probability; Kernel Tuner 1.5.0's `genetic_algorithm` breeds the same way, and
//! leads every other strategy, advise's `auto` included, on the A100 convolution of
//! benchmark_hub at 2%: docs/search-results.md, "Kernel Tuner on the A100 convolution at 2%,
//! 1,000 seeds").
//!
//! A descent's outcome is mostly settled by where it starts (docs/search-results.md, "Basins
//! of attraction"), and a start drawn from a dozen random configurations is often the rim of a
//! slow basin. Children of the fastest of them sample where the fast ones meet: on the A100
//! convolution the fast configurations need three two-valued switches and a tile shape at
//! once, and parents that each hold part of that combination can pass it on together.
//! Children that only mutate one parent did as well there (docs/search-results.md, "Offspring
//! in the random share"): what helps is measuring near the fastest configurations before the
//! Bayesian steps, more than recombination itself.

use super::super::evaluator::Evaluator;
use super::super::space::SearchSpace;
use advise_ml::Rng;

/// Parents of each child: the fastest working configurations measured so far.
const PARENTS: usize = 5;
/// Chance that a child's parameter takes a random level instead of a parent's.
const MUTATION: f64 = 0.1;
/// Draws of a child before giving up on it (one the space lacks, one already measured or
/// equal to a parent is drawn again).
const TRIES: usize = 30;

/// How many of a random share of `random` configurations are bred instead of drawn: the
/// share `offspring` of the `budget`, but at most all the random share over `keep`
/// configurations, and none where the random share has reached its cap `init_max` (0: no cap).
/// The cap marks budgets large enough that more random configurations are what the later
/// steps need (pnpoly on an RTX 3090 at 5%: with offspring in a capped share the 5th
/// percentile of 100 runs was 0.87, a trap at that fraction of the optimum, in all ten seed
/// sets instead of five, the random configurations having kept runs out of it).
pub(crate) fn offspring_count(
    offspring: f64,
    keep: usize,
    random: usize,
    init_max: usize,
    budget: usize,
) -> usize {
    if offspring <= 0.0 || (init_max > 0 && random >= init_max) {
        return 0;
    }
    let wanted = (offspring * budget as f64).round() as usize;
    wanted.min(random.saturating_sub(keep))
}

/// Measures up to `n` children, each of two distinct parents among the fastest working
/// configurations measured so far (the pool grows as children run). Returns how many it
/// measured; fewer where the budget ends, where fewer than two configurations ran, or where a
/// child is not found in [`TRIES`] draws (the next is tried).
pub(crate) fn measure_offspring(ev: &mut Evaluator, rng: &mut Rng, n: usize) -> usize {
    let space = ev.space();
    let mut child = vec![0u16; space.n_params()];
    let mut measured = 0;
    for _ in 0..n {
        if ev.remaining() == 0 || ev.used() >= space.len() {
            break;
        }
        let parents = fastest(ev, PARENTS);
        if parents.len() < 2 {
            break;
        }
        let found = (0..TRIES).find_map(|_| {
            draw_child(space, &parents, rng, &mut child).filter(|&c| !ev.is_evaluated(c))
        });
        if let Some(c) = found {
            ev.evaluate(c);
            measured += 1;
        }
    }
    measured
}

/// The `k` fastest working configurations measured, fastest first (ties by measuring order).
fn fastest(ev: &Evaluator, k: usize) -> Vec<usize> {
    let mut timed: Vec<(f64, usize)> = ev
        .evaluated()
        .iter()
        .zip(ev.times())
        .filter(|(_, t)| t.is_finite())
        .map(|(&c, &t)| (t, c))
        .collect();
    timed.sort_by(|a, b| a.0.total_cmp(&b.0));
    timed.into_iter().take(k).map(|(_, c)| c).collect()
}

/// One child of two distinct parents drawn from `parents` (at least two), written to
/// `child`: the configuration the space holds at it, unless it is missing or equals a parent.
fn draw_child(
    space: &SearchSpace,
    parents: &[usize],
    rng: &mut Rng,
    child: &mut [u16],
) -> Option<usize> {
    let i = rng.below(parents.len());
    let mut j = rng.below(parents.len() - 1);
    if j >= i {
        j += 1;
    }
    let (a, b) = (space.levels(parents[i]), space.levels(parents[j]));
    let radix = space.radix();
    for (p, level) in child.iter_mut().enumerate() {
        *level = if rng.chance(MUTATION) {
            rng.below(radix[p]) as u16
        } else if rng.chance(0.5) {
            a[p]
        } else {
            b[p]
        };
    }
    if child == a || child == b {
        return None;
    }
    space.find(child)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::import::Config;
    use crate::search::testutil::space_of;

    /// SYNTHETIC: every combination of `levels` levels of `params` parameters, each working,
    /// its time 1 plus the sum of its level indices.
    fn cube(params: usize, levels: usize) -> SearchSpace {
        let names: Vec<String> = (0..params).map(|p| format!("p{p}")).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let configs = (0..levels.pow(params as u32))
            .map(|mut i| {
                let mut values = Vec::new();
                let mut sum = 0;
                for _ in 0..params {
                    values.push((i % levels).to_string());
                    sum += i % levels;
                    i /= levels;
                }
                Config {
                    values,
                    time_ms: Some(1.0 + sum as f64),
                    failure: None,
                    counters: vec![],
                }
            })
            .collect();
        space_of("cube", &names, configs)
    }

    #[test]
    fn offspring_take_the_random_share_over_the_kept_part_below_its_cap() {
        // 88 evaluations, a random share of 13: a tenth of the budget (9) but 13 - 8 = 5.
        assert_eq!(offspring_count(0.1, 8, 13, 25, 88), 5);
        // 44 evaluations, a share of 10: 4 wanted, 2 over the kept 8.
        assert_eq!(offspring_count(0.1, 8, 10, 25, 44), 2);
        // A share at its cap of 25 (a large budget): none.
        assert_eq!(offspring_count(0.1, 8, 25, 25, 205), 0);
        // No cap: a tenth of 205 is 21 (rounded 20.5 up), the share over 8 is 17.
        assert_eq!(offspring_count(0.1, 8, 25, 0, 205), 17);
        // A share at or under what is kept, or offspring off: none.
        assert_eq!(offspring_count(0.1, 8, 8, 25, 60), 0);
        assert_eq!(offspring_count(0.1, 8, 4, 25, 9), 0);
        assert_eq!(offspring_count(0.0, 8, 13, 25, 88), 0);
    }

    #[test]
    fn children_are_new_measured_configurations_mostly_made_of_their_parents_values() {
        // The random share's 8 configurations are measured first.
        let space = cube(3, 6);
        let mut from_parents = 0;
        let mut values = 0;
        for seed in 0..50 {
            let mut rng = Rng::new(seed);
            let mut ev = Evaluator::new(&space, 20);
            for _ in 0..8 {
                let c = ev.random_unmeasured(&mut rng);
                ev.evaluate(c);
            }
            let parents = fastest(&ev, PARENTS);
            assert_eq!(parents.len(), PARENTS);
            let before: Vec<usize> = ev.evaluated().to_vec();
            assert_eq!(measure_offspring(&mut ev, &mut rng, 4), 4);
            let children = &ev.evaluated()[before.len()..];
            assert_eq!(children.len(), 4);
            for &c in children {
                assert!(!before.contains(&c), "a child was measured before");
            }
            // The first child's parents are the five fastest of the random share.
            let first = space.levels(children[0]);
            for (p, &v) in first.iter().enumerate() {
                values += 1;
                if parents.iter().any(|&q| space.levels(q)[p] == v) {
                    from_parents += 1;
                }
            }
        }
        // Each value comes from a parent but where the 10% mutation changed it (and a
        // mutation may draw a parent's value again).
        assert!(
            from_parents * 100 >= values * 85,
            "{from_parents} of {values} values from a parent"
        );
    }

    #[test]
    fn without_two_working_parents_nothing_is_bred() {
        let space = cube(2, 4);
        let mut rng = Rng::new(1);
        let mut ev = Evaluator::new(&space, 10);
        let c = ev.random_unmeasured(&mut rng);
        ev.evaluate(c);
        assert_eq!(measure_offspring(&mut ev, &mut rng, 3), 0);
        assert_eq!(ev.used(), 1);
    }
}
