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
    // The options that shape the weights of `fail=weigh`, which mean nothing without it.
    let weigh_options: Vec<String> = opts
        .iter()
        .map(|(k, _)| k.clone())
        .filter(|k| k.ends_with("failpow") || k.ends_with("failell"))
        .collect();
    let weigh_needed = |failures: bayes::Failures| match weigh_options.first() {
        Some(k) if failures != bayes::Failures::Weigh => {
            let fail = format!(
                "{}fail",
                k.strip_suffix("failpow")
                    .or(k.strip_suffix("failell"))
                    .unwrap_or("")
            );
            Err(Error::Usage(format!(
                "option {k} shapes the weights of {fail}=weigh: give {fail}=weigh with it"
            )))
        }
        _ => Ok(()),
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
            weigh_needed(s.failures)?;
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
                "offspring",
                "offkeep",
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
            weigh_needed(s.ils.bo_opt.failures)?;
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
mod tests;
