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
//! Kernel Tuner's local searches `greedy_ils` and `basinhopping` (`ils`). Kernel Tuner's names
//! (`random_sample`, `genetic_algorithm`, ...) are accepted as aliases. `bench` repeats them and summarises how
//! close they get to the optimum.

pub mod anneal;
pub mod auto;
pub mod basic;
pub mod bench;
pub mod brt;
pub mod csv_space;
pub mod evaluator;
pub mod ga;
pub mod ils;
pub mod iterml;
pub mod neighbours;
pub mod shrinking;
pub mod space;
pub mod surrogate;

use serde::Serialize;

use crate::error::{Error, Result};
pub use advise_ml::Rng;
pub use evaluator::{Eval, Evaluator};
pub use space::SearchSpace;
use surrogate::ModelKind;

/// A search strategy: it spends at most the evaluator's budget and may stop earlier.
pub trait Strategy: Send + Sync {
    /// The name tables and JSON show.
    fn name(&self) -> String;
    /// Searches the evaluator's space; the best configuration is whatever it measured best.
    fn search(&self, ev: &mut Evaluator, rng: &mut Rng);
}

/// The strategies `--strategies all` runs.
pub const ALL: [&str; 10] = [
    "auto",
    "exhaustive",
    "random",
    "iterml",
    "shrinking",
    "brt",
    "ga",
    "anneal",
    "greedy_ils",
    "basinhopping",
];

/// Kernel Tuner 1.5.0's strategy names and the strategy each stands for here.
pub const KERNEL_TUNER_NAMES: [(&str, &str); 6] = [
    ("random_sample", "random"),
    ("genetic_algorithm", "ga"),
    ("simulated_annealing", "anneal"),
    ("brute_force", "exhaustive"),
    ("basinhopping", "basinhopping"),
    ("greedy_ils", "greedy_ils"),
];

/// Builds a strategy from its name and optional settings, `name[:key=value,...]`:
/// `iterml:model=cart,pick=0.004,cut=0.5`, `brt:hc=25`, `shrinking:k=3,vth=2`. Short forms
/// `iterml-cart`, `iterml-knn`, `iterml-svr`, `brt-hc25`, `brt-hc50`, `brt-paper` (the boosted-regression-tree paper's
/// one-shot validation and leaf size) are accepted too.
pub fn strategy(spec: &str) -> Result<Box<dyn Strategy>> {
    let spec = spec.trim().to_ascii_lowercase();
    let (name, opts) = spec.split_once(':').unwrap_or((spec.as_str(), ""));
    let mut opts: Vec<(String, String)> = opts
        .split(',')
        .filter(|s| !s.is_empty())
        .map(|kv| {
            kv.split_once('=')
                .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
                .ok_or_else(|| Error::Usage(format!("strategy option `{kv}` is not KEY=VALUE")))
        })
        .collect::<Result<_>>()?;
    let name = match name {
        "iterml-cart" | "iterml-knn" | "iterml-svr" | "iterml-rf" => {
            opts.push(("model".into(), name["iterml-".len()..].into()));
            "iterml"
        }
        "brt-paper" => {
            opts.push(("rounds".into(), "1".into()));
            opts.push(("leaf".into(), "10".into()));
            "brt"
        }
        "brt-hc25" | "brt-hc50" | "brt-hc75" => {
            opts.push(("hc".into(), name["brt-hc".len()..].into()));
            "brt"
        }
        other => KERNEL_TUNER_NAMES
            .iter()
            .find(|(kt, _)| *kt == other)
            .map_or(other, |(_, ours)| ours),
    };
    let mut take = |key: &str| -> Option<String> {
        let i = opts.iter().position(|(k, _)| k == key)?;
        Some(opts.remove(i).1)
    };
    let s: Box<dyn Strategy> = match name {
        "exhaustive" | "brute-force" | "brute_force" => Box::new(basic::Exhaustive),
        "random" => Box::new(basic::RandomSearch),
        "iterml" => {
            let mut s = iterml::IterMl::default();
            if let Some(m) = take("model") {
                s.model = ModelKind::parse(&m)?;
            }
            if let Some(v) = take("pick") {
                s.pick_ratio = ratio("pick", &v)?;
            }
            if let Some(v) = take("cut") {
                s.cut_ratio = ratio("cut", &v)?;
            }
            if let Some(v) = take("trees") {
                if let ModelKind::Forest { trees } = &mut s.model {
                    *trees = count("trees", &v)?;
                }
            }
            Box::new(s)
        }
        "shrinking" => {
            let mut s = shrinking::Shrinking::default();
            if let Some(v) = take("k") {
                s.k = count("k", &v)?.max(2);
            }
            if let Some(v) = take("vth") {
                s.v_th = count("vth", &v)?;
            }
            Box::new(s)
        }
        "brt" => {
            let mut s = brt::Brt::default();
            if let Some(v) = take("hc") {
                s.hc_steps = count("hc", &v)?;
            }
            if let Some(v) = take("train") {
                s.train_fraction = ratio("train", &v)?;
            }
            if let Some(v) = take("rounds") {
                s.rounds = count("rounds", &v)?;
            }
            if let Some(v) = take("leaf") {
                s.min_leaf = v
                    .parse()
                    .map_err(|_| Error::Usage(format!("option leaf={v}: expected a count")))?;
            }
            if let Some(v) = take("invalid") {
                s.invalid_score = ratio("invalid", &v)?;
            }
            Box::new(s)
        }
        "ga" | "genetic" => Box::new(ga::Genetic::default()),
        "anneal" | "annealing" => Box::new(anneal::Annealing::default()),
        "greedy_ils" | "basinhopping" => {
            let mut s = if name == "greedy_ils" {
                ils::Ils::greedy()
            } else {
                ils::Ils::basinhopping()
            };
            if let Some(v) = take("nb") {
                s.neighbourhood = match v.as_str() {
                    "hamming" => ils::Neighbourhood::Hamming,
                    "adjacent" => ils::Neighbourhood::Adjacent,
                    "vnd" => ils::Neighbourhood::Vnd,
                    _ => {
                        return Err(Error::Usage(format!(
                            "option nb={v}: use hamming, adjacent or vnd"
                        )))
                    }
                };
                s.name += &format!("-{v}");
            }
            if let Some(v) = take("perturb") {
                s.perturb = count("perturb", &v)?;
                s.name += &format!("-p{v}");
            }
            if let Some(v) = take("temp") {
                s.temp = v
                    .parse()
                    .ok()
                    .filter(|x: &f64| *x >= 0.0 && x.is_finite())
                    .ok_or_else(|| {
                        Error::Usage(format!("option temp={v}: expected a number >= 0"))
                    })?;
                s.name += &format!("-t{v}");
            }
            if let Some(v) = take("restart") {
                s.restart = count("restart", &v)?;
                s.name += &format!("-r{v}");
            }
            if let Some(v) = take("init") {
                s.init = ratio("init", &v)?;
                s.name += &format!("-i{v}");
            }
            if let Some(v) = take("noise") {
                s.noise = v
                    .parse()
                    .ok()
                    .filter(|x: &f64| *x >= 0.0 && x.is_finite())
                    .ok_or_else(|| {
                        Error::Usage(format!("option noise={v}: expected a number >= 0"))
                    })?;
                s.name += &format!("-n{v}");
            }
            if let Some(v) = take("scan") {
                s.scan = count("scan", &v)?;
                s.name += &format!("-s{v}");
            }
            if let Some(v) = take("model") {
                s.model = v == "1" || v == "true";
                s.name += &format!("-m{v}");
            }
            Box::new(s)
        }
        "auto" => {
            let mut s = auto::Auto::default();
            if let Some(v) = take("init") {
                s.ils.init = ratio("init", &v)?;
                s.ils.name += &format!("-i{v}");
            }
            if let Some(v) = take("perturb") {
                s.ils.perturb = count("perturb", &v)?;
                s.ils.name += &format!("-p{v}");
            }
            Box::new(s)
        }
        other => {
            return Err(Error::Usage(format!(
                "unknown strategy `{other}`: use one of {} (or iterml-cart, iterml-knn, \
                 iterml-svr, brt-hc25, brt-hc50, brt-paper)",
                ALL.join(", ")
            )))
        }
    };
    if let Some((k, _)) = opts.first() {
        return Err(Error::Usage(format!(
            "strategy `{name}` has no option `{k}`"
        )));
    }
    Ok(s)
}

/// Parses a list of strategies; `all` stands for `ALL`.
pub fn strategies(specs: &[String]) -> Result<Vec<Box<dyn Strategy>>> {
    let mut out = Vec::new();
    for spec in specs.iter().flat_map(|s| s.split(';')) {
        if spec.trim().eq_ignore_ascii_case("all") {
            for name in ALL {
                out.push(strategy(name)?);
            }
        } else if !spec.trim().is_empty() {
            out.push(strategy(spec)?);
        }
    }
    if out.is_empty() {
        return Err(Error::Usage("no strategy given".into()));
    }
    Ok(out)
}

fn ratio(key: &str, v: &str) -> Result<f64> {
    v.parse::<f64>()
        .ok()
        .filter(|x| *x > 0.0 && *x < 1.0)
        .ok_or_else(|| Error::Usage(format!("option {key}={v}: expected a number in (0, 1)")))
}

fn count(key: &str, v: &str) -> Result<usize> {
    v.parse::<usize>()
        .ok()
        .filter(|x| *x > 0)
        .ok_or_else(|| Error::Usage(format!("option {key}={v}: expected a positive integer")))
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
            "budget {budget} is larger than the space `{}` ({} configurations)",
            space.name,
            space.len()
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
        let t = TuningSpace {
            tool: "test",
            device: "gpu".into(),
            kernel: "bowl".into(),
            params: vec!["bx".into(), "tile".into(), "unroll".into()],
            configs,
            notes: vec![],
        };
        SearchSpace::from_tuning("bowl".into(), &t).unwrap()
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
            "auto:init=0.3,perturb=3",
            "iterml-cart",
            "iterml-knn",
            "iterml-svr",
            "brt-hc25",
            "brt-paper",
        ]);
        for name in names {
            let st = strategy(name).unwrap();
            for budget in [1, 7, 40, s.len()] {
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
