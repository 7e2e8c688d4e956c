//! Search strategies for auto-tuning, simulated on recorded tuning spaces.
//!
//! A `SearchSpace` is a real recorded space (Kernel Tuner cache, KTT output, CSV); a strategy
//! measures configurations only through an `Evaluator`, which looks up recorded times and
//! enforces the evaluation budget. Every random choice comes from one seeded `Rng`, so a
//! (space, strategy, budget, seed) always gives the same result, on any platform.
//!
//! Strategies: `auto` (the default: model-guided iterated local search, see `auto`),
//! `exhaustive`, `random`, `iterml` (Cui and Feng's IterML), `shrinking` (Li and Agrawal), `brt`
//! (Boosted Regression Trees for Predictive Auto-Tuning), the baselines `ga` and `anneal`, and
//! Kernel Tuner's local searches `greedy_ils` and `basinhopping` (`ils`), its population
//! searches `pso` and `diff_evo`, and its Gaussian-process `bayes_opt` (`bayes`). Kernel Tuner's names
//! (`random_sample`, `genetic_algorithm`, ...) are accepted as aliases. `bench` repeats them and summarises how
//! close they get to the optimum.

pub mod anneal;
pub mod auto;
pub mod basic;
pub mod bayes;
pub mod bench;
pub mod brt;
mod configuration_set;
pub mod csv_space;
pub mod diff_evo;
pub mod evaluator;
pub mod ga;
mod gp;
pub mod ils;
pub mod iterml;
mod key_index;
pub mod landscape;
mod line_repairs;
mod mirror;
pub(crate) mod model_rows;
pub mod names;
pub mod neighbours;
mod options;
mod plane;
mod plane_repairs;
pub mod pso;
pub mod shrinking;
pub mod space;
pub mod space_files;
pub mod surrogate;

use serde::Serialize;

use crate::error::{Error, Result};
pub use advise_ml::Rng;
pub use evaluator::{Eval, Evaluator};
pub use names::{strategies, strategy, ALL, KERNEL_TUNER_NAMES};
pub use space::SearchSpace;

/// A search strategy: it spends at most the evaluator's budget and may stop earlier.
pub trait Strategy: Send + Sync {
    /// The name tables and JSON show.
    fn name(&self) -> String;
    /// Searches the evaluator's space; the best configuration is whatever it measured best.
    fn search(&self, ev: &mut Evaluator, rng: &mut Rng);
    /// Whether its searches may look up repairs ([`neighbours::repairs`]), whose indexes a
    /// benchmark builds before timing any search ([`SearchSpace::index_for_repairs`]).
    fn repairs(&self) -> bool {
        false
    }
}

/// What one search found.
#[derive(Debug, Clone, Serialize)]
pub struct Outcome {
    pub strategy: String,
    pub budget: usize,
    pub seed: u64,
    /// Index of the best configuration in the space, if any measurement succeeded.
    #[serde(skip)]
    pub best: Option<usize>,
    pub best_time_ms: Option<f64>,
    /// Optimum time / found time (0 when nothing succeeded).
    pub fraction_of_optimum: f64,
    pub evaluations: usize,
    /// Best time after each evaluation (for convergence curves).
    #[serde(skip)]
    pub trace: Vec<f64>,
    /// The configurations measured, in order.
    #[serde(skip)]
    pub measured: Vec<usize>,
}

/// Checks a budget against a space.
pub fn check_budget(space: &SearchSpace, budget: usize) -> Result<()> {
    if budget == 0 {
        return Err(Error::Usage(
            "the budget must be at least 1 evaluation".into(),
        ));
    }
    if budget > space.len() {
        return Err(Error::Usage(format!(
            "budget {budget} is larger than the space `{}` ({} configuration{})",
            crate::error::shown_text(&space.name),
            space.len(),
            if space.len() == 1 { "" } else { "s" }
        )));
    }
    Ok(())
}

/// Runs one search.
pub fn run(
    space: &SearchSpace,
    strategy: &dyn Strategy,
    budget: usize,
    seed: u64,
) -> Result<Outcome> {
    check_budget(space, budget)?;
    let mut ev = Evaluator::new(space, budget);
    let mut rng = Rng::new(seed);
    strategy.search(&mut ev, &mut rng);
    let opt = space.optimum().1;
    let best = ev.best();
    Ok(Outcome {
        strategy: strategy.name(),
        budget,
        seed,
        best: best.map(|b| b.0),
        best_time_ms: best.map(|b| b.1),
        fraction_of_optimum: best.map_or(0.0, |b| opt / b.1),
        evaluations: ev.used(),
        trace: ev.trace().to_vec(),
        measured: ev.evaluated().to_vec(),
    })
}

#[cfg(test)]
pub(crate) mod testutil {
    use super::SearchSpace;
    use crate::dataset::import::{Config, TuningSpace};

    /// A synthetic restricted space: 3 parameters, a smooth bowl with its optimum off-centre,
    /// some combinations missing and some failing.
    pub fn grid_space() -> SearchSpace {
        let mut configs = Vec::new();
        for a in 0..12 {
            for b in 0..10 {
                for c in 0..4 {
                    if (a + b) % 7 == 6 {
                        continue; // restricted
                    }
                    let t = 1.0
                        + ((a as f64) - 8.0).powi(2)
                        + 0.5 * ((b as f64) - 2.0).powi(2)
                        + (c as f64);
                    let failed = a == 0 && b % 3 == 0;
                    configs.push(Config {
                        values: vec![
                            (16 * (a + 1)).to_string(),
                            (b + 1).to_string(),
                            c.to_string(),
                        ],
                        time_ms: (!failed).then_some(t),
                        failure: failed.then(|| "CompilationFailedConfig".into()),
                        counters: vec![],
                    });
                }
            }
        }
        space_of("bowl", &["bx", "tile", "unroll"], configs)
    }

    /// A synthetic sparse space: 6 parameters of 8 levels (262,144 combinations), of which
    /// it holds a few hundred in clusters (seeded): around each of 24 centres, configurations
    /// that change one or two of its parameters, so that most single changes are missing and
    /// repairs exist.
    pub fn sparse_space() -> SearchSpace {
        let config = |levels: &[usize], t: f64| Config {
            values: levels.iter().map(|l| (1 << l).to_string()).collect(),
            time_ms: Some(t),
            failure: None,
            counters: vec![],
        };
        let mut rng = advise_ml::Rng::new(11);
        let mut seen = std::collections::HashSet::new();
        let mut configs = Vec::new();
        for _ in 0..24 {
            let centre: Vec<usize> = (0..6).map(|_| rng.below(8)).collect();
            for _ in 0..12 {
                let mut c = centre.clone();
                for _ in 0..1 + rng.below(2) {
                    c[rng.below(6)] = rng.below(8);
                }
                if seen.insert(c.clone()) {
                    let t = 1.0
                        + c.iter()
                            .enumerate()
                            .map(|(j, &l)| (j + l) as f64)
                            .sum::<f64>();
                    configs.push(config(&c, t));
                }
            }
        }
        // Every level of every parameter occurs, so that each has 8.
        for l in 0..8usize {
            let c = vec![l; 6];
            if seen.insert(c.clone()) {
                configs.push(config(&c, 100.0));
            }
        }
        space_of("sparse", &["p0", "p1", "p2", "p3", "p4", "p5"], configs)
    }

    /// A synthetic dense space of five parameters of 3, 4, 6, 2 and 5 levels that holds a
    /// third of their combinations (those where the levels of all but the third add up to a
    /// multiple of 3), so that single changes are missing and their repairs move parameters
    /// of every size by one level or two.
    pub fn mixed_space() -> SearchSpace {
        let mut configs = Vec::new();
        for a in 0..3usize {
            for b in 0..4usize {
                for c in 0..6usize {
                    for d in 0..2usize {
                        for e in 0..5usize {
                            if (a + b + d + e) % 3 != 0 {
                                continue;
                            }
                            let levels = [a, b, c, d, e];
                            configs.push(Config {
                                values: levels.iter().map(|l| l.to_string()).collect(),
                                time_ms: Some(1.0 + (a + 2 * b + 3 * c + d + e) as f64),
                                failure: None,
                                counters: vec![],
                            });
                        }
                    }
                }
            }
        }
        space_of("mixed", &["a", "b", "c", "d", "e"], configs)
    }

    /// A recorded space named `kernel` of these parameters and configurations.
    pub fn space_of(kernel: &str, params: &[&str], configs: Vec<Config>) -> SearchSpace {
        let t = TuningSpace {
            tool: "test",
            device: "gpu".into(),
            kernel: kernel.into(),
            params: params.iter().map(|p| p.to_string()).collect(),
            configs,
            notes: vec![],
            run_noise: None,
        };
        SearchSpace::from_tuning(kernel.into(), &t).unwrap()
    }

    /// Synthetic: x in 0..17 and y in 0..5, time 100 - 5x + y, so every step up in x helps.
    pub fn ramp_space() -> SearchSpace {
        let mut configs = Vec::new();
        for x in 0..17 {
            for y in 0..5 {
                configs.push(Config {
                    values: vec![x.to_string(), y.to_string()],
                    time_ms: Some(100.0 - 5.0 * f64::from(x) + f64::from(y)),
                    failure: None,
                    counters: vec![],
                });
            }
        }
        space_of("ramp", &["x", "y"], configs)
    }

    /// Synthetic: twin parameters mx and my in {8, 16, 32} and v in {1, 2, 4}; the time is
    /// that of the (mx, my) pair, 2 at (8, 8), 1 at (16, 16), 3 at (32, 32) and 4 unequal,
    /// times 1.5, 1.2 or 1 for v. (8, 8, 4) is a trap: every single change is slower.
    pub fn twin_trap_space() -> SearchSpace {
        let mut configs = Vec::new();
        for mx in [8, 16, 32] {
            for my in [8, 16, 32] {
                for (v, factor) in [(1, 1.5), (2, 1.2), (4, 1.0)] {
                    let pair = match (mx, my) {
                        (8, 8) => 2.0,
                        (16, 16) => 1.0,
                        (32, 32) => 3.0,
                        _ => 4.0,
                    };
                    configs.push(Config {
                        values: vec![mx.to_string(), my.to_string(), v.to_string()],
                        time_ms: Some(pair * factor),
                        failure: None,
                        counters: vec![],
                    });
                }
            }
        }
        space_of("twins", &["mx", "my", "v"], configs)
    }

    /// The configurations a search of the grid space measured, in order.
    pub fn measured_on_grid(
        strategy: &dyn super::Strategy,
        budget: usize,
        seed: u64,
    ) -> Vec<usize> {
        super::run(&grid_space(), strategy, budget, seed)
            .unwrap()
            .measured
    }

    /// Runs a strategy on [`grid_space`] with seeds 0..seeds: every run must repeat exactly
    /// for its seed and stay within the budget. Returns how many runs found the optimum.
    pub fn optimum_hits(strategy: &dyn super::Strategy, budget: usize, seeds: u64) -> usize {
        let s = grid_space();
        let mut hits = 0;
        for seed in 0..seeds {
            let a = super::run(&s, strategy, budget, seed).unwrap();
            let b = super::run(&s, strategy, budget, seed).unwrap();
            assert_eq!(a.trace, b.trace, "seed {seed} does not repeat");
            assert!(a.evaluations <= budget, "seed {seed} overran the budget");
            hits += usize::from(a.fraction_of_optimum == 1.0);
        }
        hits
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use testutil::grid_space;

    #[test]
    fn every_strategy_is_within_budget_and_reproducible() {
        let s = grid_space();
        let mut names: Vec<&str> = ALL.to_vec();
        names.extend([
            "greedy_ils:nb=vnd,model=1,restart=2,init=0.2,noise=0.1,scan=4",
            "basinhopping:nb=hamming,perturb=1,temp=0.5",
            "auto:init=0.3,perturb=3,temp=0",
            "auto:bo=0.3,bomin=10,bocand=20,botrain=10",
            "auto:free=all",
            "auto:free=adjacent",
            "iterml-cart",
            "iterml-knn",
            "iterml-svr",
            "brt-hc25",
            "brt-paper",
        ]);
        for name in names {
            let st = strategy(name).unwrap();
            for budget in [1, 7, 40, 120, s.len() - 1, s.len()] {
                let a = run(&s, st.as_ref(), budget, 11).unwrap();
                let b = run(&s, st.as_ref(), budget, 11).unwrap();
                assert!(
                    a.evaluations <= budget,
                    "{name} {budget}: {}",
                    a.evaluations
                );
                assert_eq!(a.best, b.best, "{name} {budget}");
                assert_eq!(a.trace, b.trace, "{name} {budget}");
                assert!(a.fraction_of_optimum <= 1.0);
            }
        }
    }

    #[test]
    fn exhaustive_with_the_whole_budget_finds_the_optimum() {
        let s = grid_space();
        let o = run(&s, strategy("exhaustive").unwrap().as_ref(), s.len(), 0).unwrap();
        assert_eq!(o.best, Some(s.optimum().0));
        assert_eq!(o.fraction_of_optimum, 1.0);
    }

    #[test]
    fn clear_errors() {
        let s = grid_space();
        let e = strategy("bogus").err().unwrap().to_string();
        assert!(e.contains("unknown strategy `bogus`"), "{e}");
        let e = strategy("brt:depth=3").err().unwrap().to_string();
        assert!(e.contains("no option `depth`"), "{e}");
        let e = run(&s, strategy("random").unwrap().as_ref(), s.len() + 1, 0)
            .unwrap_err()
            .to_string();
        assert!(e.contains("larger than the space"), "{e}");
        assert!(run(&s, strategy("random").unwrap().as_ref(), 0, 0).is_err());
        assert_eq!(strategies(&["all".into()]).unwrap().len(), ALL.len());
    }

    #[test]
    fn kernel_tuner_names_are_aliases() {
        for (kt, ours) in KERNEL_TUNER_NAMES {
            assert_eq!(
                strategy(kt).unwrap().name(),
                strategy(ours).unwrap().name(),
                "{kt}"
            );
        }
        let e = strategy("greedy_ils:nb=ring").err().unwrap().to_string();
        assert!(e.contains("hamming, adjacent or vnd"), "{e}");
    }
}
