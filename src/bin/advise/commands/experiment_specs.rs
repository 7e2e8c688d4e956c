//! `advise experiment`'s two specifications: which experiments (`--exp`) and how k-fold
//! cross-validation lays out its folds (`--folds`).

use advise::error::{Error, Result};
use advise::experiment::data::SamplePool;
use advise::experiment::splits::{Experiment, FoldLayout};

/// Parses `--folds`: a number K (grouped folds, the default), `ungrouped:K`, or `weka` /
/// `weka:K` (Weka's layout).
pub fn parse_folds(spec: &str) -> Result<(usize, FoldLayout)> {
    let bad = || {
        Error::Usage(format!(
            "--folds `{spec}`: give a number, `ungrouped:K`, `weka` or `weka:K`"
        ))
    };
    let s = spec.trim();
    if s == "weka" {
        return Ok((10, FoldLayout::Weka));
    }
    for (prefix, layout) in [
        ("weka:", FoldLayout::Weka),
        ("ungrouped:", FoldLayout::Ungrouped),
    ] {
        if let Some(k) = s.strip_prefix(prefix) {
            return Ok((k.parse().map_err(|_| bad())?, layout));
        }
    }
    Ok((s.parse().map_err(|_| bad())?, FoldLayout::Grouped))
}

/// Parses `--exp`: `1`..`6`, `all`, `loio`, `lopo`, `kfold`, or a comma list.
pub fn parse_experiments(
    spec: &str,
    pool: &SamplePool,
    k: usize,
    seed: u64,
    layout: FoldLayout,
) -> Result<Vec<Experiment>> {
    let programs: Vec<&str> = pool
        .samples
        .iter()
        .map(|s| s.key.program.as_str())
        .collect();
    let nbbh = programs.iter().any(|p| *p == "NB" || *p == "BH");
    let mut out = Vec::new();
    for part in spec.split(',').map(str::trim) {
        match part {
            "fidelity" => {}
            "all" if nbbh => out.extend(
                (1..=6)
                    .map(Experiment::Thesis)
                    .chain([Experiment::LeaveOneInputOut]),
            ),
            "all" => out.extend([
                Experiment::KFold { k, seed, layout },
                Experiment::LeaveOneProgramOut,
                Experiment::LeaveOneInputOut,
            ]),
            "loio" => out.push(Experiment::LeaveOneInputOut),
            "lopo" => out.push(Experiment::LeaveOneProgramOut),
            "kfold" => out.push(Experiment::KFold { k, seed, layout }),
            n => match n.parse::<u8>() {
                Ok(n @ 1..=6) => out.push(Experiment::Thesis(n)),
                _ => {
                    return Err(Error::Usage(format!(
                        "unknown experiment `{n}`: use 1-6, all, loio, lopo, kfold or fidelity"
                    )))
                }
            },
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_default_to_grouped_and_name_their_layout_otherwise() {
        assert_eq!(parse_folds("5").unwrap(), (5, FoldLayout::Grouped));
        assert_eq!(parse_folds("weka").unwrap(), (10, FoldLayout::Weka));
        assert_eq!(parse_folds(" weka:4 ").unwrap(), (4, FoldLayout::Weka));
        assert_eq!(
            parse_folds("ungrouped:10").unwrap(),
            (10, FoldLayout::Ungrouped)
        );
        for bad in ["", "ten", "weka:x", "grouped:3"] {
            let err = parse_folds(bad).err().unwrap().to_string();
            assert!(err.contains("ungrouped:K"), "{bad}: {err}");
        }
    }
}
