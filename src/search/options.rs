//! The settings strategies take as `name:key=value,...` ([`super::names::strategy`]): each
//! option's parser, its checks and the mark it adds to the strategy's name.

use super::{bayes, ils};
use crate::error::{Error, Result};

/// Where one of the local search's settings lives.
type Field<T> = fn(&mut ils::Ils) -> &mut T;

/// The local search's options that take a positive count: key, the mark it adds to the
/// strategy's name, and the setting.
const COUNTS: [(&str, &str, Field<usize>); 11] = [
    ("spread", "sp", |s| &mut s.spread),
    ("bowidemax", "bwm", |s| &mut s.bo_wide_max),
    ("perturb", "p", |s| &mut s.perturb),
    ("restart", "r", |s| &mut s.restart),
    ("scan", "s", |s| &mut s.scan),
    ("bocand", "c", |s| &mut s.bo_opt.candidates),
    ("bomin", "min", |s| &mut s.bo_min),
    ("bomax", "max", |s| &mut s.bo_max),
    ("bojmax", "bjm", |s| &mut s.bo_jump_max),
    ("botrain", "m", |s| &mut s.bo_opt.max_train),
    ("mirrorfrom", "mf", |s| &mut s.mirror_from),
];

/// Those that take a whole number, with what 0 means.
const WHOLES: [(&str, &str, &str, Field<usize>); 12] = [
    ("offkeep", "ok", "the whole share may be bred", |s| {
        &mut s.offspring_keep
    }),
    ("linecap", "lc", "no cap", |s| &mut s.line_cap),
    ("mirrorgemm", "mg", "any budget", |s| {
        &mut s.mirror_gemm_from
    }),
    ("stallmin", "sm", "no floor", |s| &mut s.stall_min),
    ("bobudget", "bb", "any budget", |s| &mut s.bo_budget),
    ("rebest", "rb", "never", |s| &mut s.rebest),
    ("bocorner", "bc", "no corners among the candidates", |s| {
        &mut s.bo_opt.corners
    }),
    ("initmin", "im", "none", |s| &mut s.init_min),
    ("initmax", "ix", "no cap", |s| &mut s.init_max),
    ("repair", "rep", "no repairs", |s| &mut s.repair),
    ("repfloor", "rf", "repair alone", |s| &mut s.repair_floor),
    ("bojump", "bj", "no Bayesian steps at local minima", |s| {
        &mut s.bo_jump
    }),
];

/// Those that take a number >= 0.
const NUMBERS: [(&str, &str, Field<f64>); 9] = [
    ("lineflat", "lf", |s| &mut s.line_flat),
    ("freefrom", "ff", |s| &mut s.free_from),
    ("stall", "st", |s| &mut s.stall),
    ("bowideat", "bwa", |s| &mut s.bo_wide_at),
    ("bowide", "bw", |s| &mut s.bo_wide),
    ("temp", "t", |s| &mut s.temp),
    ("noise", "n", |s| &mut s.noise),
    ("gate", "g", |s| &mut s.gate),
    ("modelrows", "mr", |s| &mut s.model_rows),
];

/// Sets one option `key=v` of an iterated local search (greedy_ils, basinhopping and auto's
/// local search) and appends its mark to the strategy's name.
pub(super) fn ils_option(s: &mut ils::Ils, key: &str, v: &str) -> Result<()> {
    let mark: &str = if let Some((_, mark, field)) = COUNTS.iter().find(|c| c.0 == key) {
        *field(s) = count(key, v)?;
        mark
    } else if let Some((_, mark, zero, field)) = WHOLES.iter().find(|c| c.0 == key) {
        *field(s) = whole(key, v, zero)?;
        mark
    } else if let Some((_, mark, field)) = NUMBERS.iter().find(|c| c.0 == key) {
        *field(s) = non_negative(key, v)?;
        mark
    } else {
        other_ils_option(s, key, v)?
    };
    s.name += &format!("-{mark}{v}");
    Ok(())
}

/// The local search's options of their own kinds; returns the mark.
fn other_ils_option<'k>(s: &mut ils::Ils, key: &'k str, v: &str) -> Result<&'k str> {
    let mark = match key {
        "nb" => {
            s.neighbourhood = match v {
                "hamming" => ils::Neighbourhood::Hamming,
                "adjacent" => ils::Neighbourhood::Adjacent,
                "vnd" => ils::Neighbourhood::Vnd,
                _ => {
                    return Err(Error::Usage(format!(
                        "option nb={v}: use hamming, adjacent or vnd"
                    )))
                }
            };
            ""
        }
        "init" => {
            s.init = ratio(key, v)?;
            "i"
        }
        "offspring" => {
            s.offspring = non_negative(key, v)?;
            if s.offspring >= 1.0 {
                return Err(Error::Usage(format!(
                    "option offspring={v}: expected a share of the budget in [0, 1)"
                )));
            }
            "o"
        }
        "model" => {
            s.model = flag(key, v)?;
            "m"
        }
        "momentum" => {
            s.momentum = flag(key, v)?;
            "mo"
        }
        "twins" => {
            s.twins = flag(key, v)?;
            "tw"
        }
        "free" => {
            s.free_moves = match v {
                "off" | "0" => ils::FreeMoves::Off,
                "adjacent" => ils::FreeMoves::Adjacent,
                "all" | "1" => ils::FreeMoves::All,
                _ => {
                    return Err(Error::Usage(format!(
                        "option free={v}: use off, adjacent or all"
                    )))
                }
            };
            "fr"
        }
        "mirror" => {
            s.mirror = flag(key, v)?;
            "mi"
        }
        "monotone" => {
            s.monotone = u32::try_from(whole(key, v, "never")?)
                .map_err(|_| Error::Usage(format!("option monotone={v}: at most {}", u32::MAX)))?;
            "mono"
        }
        "bo" => {
            let share = non_negative(key, v)?;
            if share > 1.0 {
                return Err(Error::Usage(format!(
                    "option bo={v}: the share of the budget spent on Bayesian steps, from 0 to 1"
                )));
            }
            s.bo = share;
            "bo"
        }
        _ if key
            .strip_prefix("bo")
            .is_some_and(|k| PROCESS_KEYS.contains(&k)) =>
        {
            // The error names the option as written (`boell`, not `ell`).
            bayes_option(&mut s.bo_opt, &key[2..], v).map_err(|e| match e {
                Error::Usage(m) => Error::Usage(m.replacen("option ", "option bo", 1)),
                e => e,
            })?;
            key
        }
        _ => return Err(Error::Internal(format!("no local-search option `{key}`"))),
    };
    Ok(mark)
}

/// The options [`bayes_option`] takes: `bayes_opt` takes them as they are, the local searches
/// (`auto`'s Bayesian steps) with the prefix `bo`.
pub(super) const PROCESS_KEYS: [&str; 8] = [
    "scale", "ell", "target", "alt", "altfrom", "fail", "failpow", "failell",
];

/// Sets one option of the Gaussian process of Bayesian optimisation: `scale` (unit: every
/// parameter's levels over [0, 1]; kt: Kernel Tuner's, one step of 1 / the most levels),
/// `ell` (a fixed length scale; 0: chosen by marginal likelihood), `target` (log or time),
/// `alt` (every other step's fixed length scale; 0: none) and `altfrom` (the smallest budget,
/// in evaluations, that takes those steps) and `fail` (slowest, drop or weigh: what a failed
/// measurement is to the process, [`bayes::Failures`]).
pub(super) fn bayes_option(s: &mut bayes::BayesOpt, key: &str, v: &str) -> Result<()> {
    match (key, v) {
        ("scale", "unit") => s.eps_scale = false,
        ("scale", "kt") => s.eps_scale = true,
        ("scale", _) => return Err(Error::Usage(format!("option scale={v}: use unit or kt"))),
        ("ell", _) => s.fixed_ell = non_negative(key, v)?,
        ("alt", _) => s.alt_ell = non_negative(key, v)?,
        ("altfrom", _) => s.alt_from = whole(key, v, "from any budget")?,
        ("target", "log") => s.raw_time = false,
        ("target", "time") => s.raw_time = true,
        ("target", _) => return Err(Error::Usage(format!("option target={v}: use log or time"))),
        ("failpow", _) => s.fail_power = non_negative(key, v)?,
        ("failell", _) => s.fail_ell = non_negative(key, v)?,
        ("fail", _) => {
            s.failures = bayes::Failures::parse(v).ok_or_else(|| {
                Error::Usage(format!("option fail={v}: use slowest, drop or weigh"))
            })?
        }
        _ => {
            return Err(Error::Internal(format!(
                "no Bayesian-optimisation option `{key}`"
            )))
        }
    }
    Ok(())
}

/// An on/off setting: 1, true, yes or on; 0, false, no or off.
fn flag(key: &str, v: &str) -> Result<bool> {
    match v.to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Ok(true),
        "0" | "false" | "no" | "off" => Ok(false),
        _ => Err(Error::Usage(format!(
            "option {key}={v}: expected 1 or 0 (true/false, yes/no, on/off)"
        ))),
    }
}

pub(super) fn ratio(key: &str, v: &str) -> Result<f64> {
    v.parse::<f64>()
        .ok()
        .filter(|x| *x > 0.0 && *x < 1.0)
        .ok_or_else(|| Error::Usage(format!("option {key}={v}: expected a number in (0, 1)")))
}

fn non_negative(key: &str, v: &str) -> Result<f64> {
    v.parse::<f64>()
        .ok()
        .filter(|x| *x >= 0.0 && x.is_finite())
        .ok_or_else(|| Error::Usage(format!("option {key}={v}: expected a number >= 0")))
}

/// A whole number where 0 means `zero`.
fn whole(key: &str, v: &str, zero: &str) -> Result<usize> {
    v.parse::<usize>().map_err(|_| {
        Error::Usage(format!(
            "option {key}={v}: expected a whole number (0: {zero})"
        ))
    })
}

/// The largest count an option takes: the counts are steps, draws or model sizes within one
/// search, and beyond this one they only make a search run for hours.
pub(super) const MOST: usize = 100_000;

pub(super) fn count(key: &str, v: &str) -> Result<usize> {
    v.parse::<usize>()
        .ok()
        .filter(|x| (1..=MOST).contains(x))
        .ok_or_else(|| {
            Error::Usage(format!(
                "option {key}={v}: expected a positive integer, at most {MOST}"
            ))
        })
}
