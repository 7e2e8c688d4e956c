//! Strategy names: `NAME[:KEY=VALUE,...]` specs, their short forms, and Kernel Tuner 1.5.0's
//! strategy names as aliases, turned into strategies.

use super::options::{bayes_option, count, ils_option, ratio, PROCESS_KEYS};
use super::surrogate::ModelKind;
use super::{anneal, auto, basic, bayes, brt, diff_evo, ga, ils, iterml, pso, shrinking, Strategy};
use crate::error::{Error, Result};

/// The strategies `--strategies all` runs.
pub const ALL: [&str; 13] = [
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
    "pso",
    "diff_evo",
    "bayes_opt",
];

/// Kernel Tuner 1.5.0's strategy names and the strategy each stands for here.
pub const KERNEL_TUNER_NAMES: [(&str, &str); 9] = [
    ("random_sample", "random"),
    ("genetic_algorithm", "ga"),
    ("simulated_annealing", "anneal"),
    ("brute_force", "exhaustive"),
    ("basinhopping", "basinhopping"),
    ("greedy_ils", "greedy_ils"),
    ("pso", "pso"),
    ("diff_evo", "diff_evo"),
    ("bayes_opt", "bayes_opt"),
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
    if let Some((i, (k, _))) = opts
        .iter()
        .enumerate()
        .find(|(i, (k, _))| opts[..*i].iter().any(|(j, _)| j == k))
    {
        return Err(Error::Usage(format!(
            "strategy `{name}`: option `{k}` is given twice (`{k}={}` and `{k}={}`); give it once",
            opts.iter()
                .find(|(j, _)| j == k)
                .map_or("", |(_, v)| v.as_str()),
            opts[i].1
        )));
    }
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
    // Every option the strategy asks for, to list them where one given is not among them.
    let mut asked: Vec<&str> = Vec::new();
    let mut take = |key: &'static str| -> Option<String> {
        asked.push(key);
        let i = opts.iter().position(|(k, _)| k == key)?;
        Some(opts.remove(i).1)
    };
    let s: Box<dyn Strategy> = match name {
        "exhaustive" | "brute-force" => Box::new(basic::Exhaustive),
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
        "pso" => Box::new(pso::Pso::default()),
        "diff_evo" => Box::new(diff_evo::DiffEvo::default()),
        "bayes_opt" => {
            let mut s = bayes::BayesOpt::default();
            for key in PROCESS_KEYS {
                if let Some(v) = take(key) {
                    bayes_option(&mut s, key, &v)?;
                }
            }
            Box::new(s)
        }
        "greedy_ils" | "basinhopping" => {
            let mut s = if name == "greedy_ils" {
                ils::Ils::greedy()
            } else {
                ils::Ils::basinhopping()
            };
            for key in [
                "nb",
                "perturb",
                "temp",
                "restart",
                "init",
                "initmin",
                "noise",
                "scan",
                "model",
                "modelrows",
                "gate",
                "repair",
            ] {
                if let Some(v) = take(key) {
                    ils_option(&mut s, key, &v)?;
                }
            }
            Box::new(s)
        }
        "auto" => {
            let mut s = auto::Auto::default();
            for key in [
                "init",
                "initmin",
                "initmax",
                "spread",
                "perturb",
                "temp",
                "bo",
                "bocand",
                "bocorner",
                "rebest",
                "bomin",
                "bobudget",
                "bomax",
                "bowideat",
                "bowide",
                "bowidemax",
                "botrain",
                "boscale",
                "boell",
                "botarget",
                "boalt",
                "boaltfrom",
                "bofail",
                "bofailpow",
                "bofailell",
                "repair",
                "repfloor",
                "nb",
                "model",
                "modelrows",
                "gate",
                "noise",
                "scan",
                "linecap",
                "lineflat",
                "restart",
                "momentum",
                "twins",
                "mirror",
                "mirrorfrom",
                "mirrorgemm",
                "bojump",
                "bojmax",
                "stall",
                "stallmin",
                "free",
                "freefrom",
                "monotone",
            ] {
                if let Some(v) = take(key) {
                    ils_option(&mut s.ils, key, &v)?;
                }
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
        return Err(Error::Usage(if asked.is_empty() {
            format!("strategy `{name}` has no option `{k}`: it takes none")
        } else {
            format!(
                "strategy `{name}` has no option `{k}`: it takes {} (`advise search --help` \
                 says more)",
                asked.join(", ")
            )
        }));
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
    // Each strategy once, in the order first named (`auto,auto` or `all,auto` repeat one).
    let mut seen = std::collections::HashSet::new();
    out.retain(|s| seen.insert(s.name()));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A share over 1 is an error, not quietly 1, and an option of the Bayesian steps is
    /// named in its error as the user wrote it.
    #[test]
    fn bayesian_options_say_what_is_wrong_as_written() {
        let err = |spec: &str| strategy(spec).err().map(|e| e.to_string());
        assert!(err("auto:bo=2").unwrap().contains("option bo=2: the share"));
        assert!(err("auto:boell=-1").unwrap().contains("option boell=-1:"));
        assert!(strategy("auto:bo=0.5").is_ok());
    }

    #[test]
    fn each_strategy_once_in_the_order_first_named() {
        let names = |list: &[&str]| -> Vec<String> {
            let specs: Vec<String> = list.iter().map(|s| s.to_string()).collect();
            strategies(&specs)
                .unwrap()
                .iter()
                .map(|s| s.name())
                .collect()
        };
        assert_eq!(
            names(&["auto", "random", "auto"]),
            names(&["auto", "random"])
        );
        let all = names(&["all"]);
        assert_eq!(names(&["all", "auto"]), all);
        assert_eq!(names(&["random", "all"])[0], names(&["random"])[0]);
        assert_eq!(names(&["random", "all"]).len(), all.len());
    }

    #[test]
    fn auto_takes_the_local_search_options_and_refuses_others() {
        let s = strategy("auto:model=0,nb=adjacent").unwrap();
        assert_eq!(s.name(), "auto-adjacent-m0");
        let s = strategy("auto:modelrows=0.5,gate=0.7").unwrap();
        assert_eq!(s.name(), "auto-mr0.5-g0.7");
        let err = strategy("auto:shake=3").err().unwrap().to_string();
        assert!(err.contains("no option `shake`"), "{err}");
        let err = strategy("auto:temp=1,temp=2").err().unwrap().to_string();
        assert!(
            err.contains("option `temp` is given twice (`temp=1` and `temp=2`)"),
            "{err}"
        );
    }

    #[test]
    fn on_off_options_refuse_what_is_neither() {
        assert_eq!(strategy("auto:model=off").unwrap().name(), "auto-moff");
        assert_eq!(strategy("auto:momentum=yes").unwrap().name(), "auto-moyes");
        let err = strategy("auto:model=maybe").err().unwrap().to_string();
        assert!(err.contains("option model=maybe: expected 1 or 0"), "{err}");
        let err = strategy("auto:momentum=2").err().unwrap().to_string();
        assert!(err.contains("option momentum=2"), "{err}");
    }

    #[test]
    fn free_moves_take_off_adjacent_or_all() {
        assert_eq!(strategy("auto:free=all").unwrap().name(), "auto-frall");
        assert_eq!(strategy("auto:free=off").unwrap().name(), "auto-froff");
        assert_eq!(
            strategy("auto:freefrom=0.01").unwrap().name(),
            "auto-ff0.01"
        );
        assert!(strategy("auto:freefrom=-1").is_err());
        let err = strategy("auto:free=some").err().unwrap().to_string();
        assert!(err.contains("free=some: use off, adjacent or all"), "{err}");
    }

    #[test]
    fn monotone_takes_a_count_of_pairs_or_0() {
        assert_eq!(strategy("auto:monotone=8").unwrap().name(), "auto-mono8");
        assert_eq!(strategy("auto:monotone=0").unwrap().name(), "auto-mono0");
        let err = strategy("auto:monotone=-1").err().unwrap().to_string();
        assert!(err.contains("option monotone=-1"), "{err}");
        assert!(strategy("auto:monotone=99999999999").is_err());
    }

    #[test]
    fn bayesian_optimisation_takes_its_process_options() {
        let s = strategy("bayes_opt:scale=unit,ell=1.5,target=time").unwrap();
        assert_eq!(s.name(), "bayes_opt-unit-ell1.5-time");
        assert_eq!(strategy("bayes_opt:scale=kt").unwrap().name(), "bayes_opt");
        assert_eq!(strategy("bayes_opt").unwrap().name(), "bayes_opt");
        let s = strategy("auto:boscale=unit,botarget=log").unwrap();
        assert_eq!(s.name(), "auto-boscaleunit-botargetlog");
        let s = strategy("auto:boalt=0,boaltfrom=100").unwrap();
        assert_eq!(s.name(), "auto-boalt0-boaltfrom100");
        let s = strategy("bayes_opt:alt=1.5,altfrom=300").unwrap();
        assert_eq!(s.name(), "bayes_opt-alt1.5from300");
        let err = strategy("auto:boaltfrom=x").err().unwrap().to_string();
        assert!(
            err.contains("option boaltfrom=x: expected a whole number"),
            "{err}"
        );
        let err = strategy("bayes_opt:scale=wide").err().unwrap().to_string();
        assert!(err.contains("use unit or kt"), "{err}");
        let err = strategy("auto:botarget=speed").err().unwrap().to_string();
        assert!(err.contains("use log or time"), "{err}");
    }
}
