//! `advise experiment`'s two specifications, which experiments (`--exp`) and how k-fold
//! cross-validation lays out its folds (`--folds`); the options each experiment reads, and
//! the folds `--train-run` and `--train-input` keep.

use advise::error::{Error, Result};
use advise::experiment::data::SamplePool;
use advise::experiment::splits::{Experiment, Fold, FoldLayout};

use super::experiment::ExperimentCommand;

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
            "statuner" => {
                return Err(Error::Usage(
                    "experiment statuner runs alone: give `--exp statuner` without others".into(),
                ))
            }
            n => match n.parse::<u8>() {
                Ok(n @ 1..=6) => out.push(Experiment::Thesis(n)),
                _ => {
                    return Err(Error::Usage(format!(
                        "unknown experiment `{n}`: use 1-6, all, loio, lopo, kfold, fidelity or statuner (alone)"
                    )))
                }
            },
        }
    }
    Ok(out)
}

/// The options of `advise experiment` that only some experiments read, as given.
#[derive(Debug, Clone, Copy, Default)]
pub struct ChosenOptions {
    pub folds: bool,
    pub program: bool,
    pub train_run: bool,
    pub train_input: bool,
}

/// A usage error where an option was given that none of the experiments in `list` reads: it
/// would be ignored without a word (`--train-run` with `kfold`, `--folds` with experiment 1).
pub fn check_options_read(list: &[Experiment], given: ChosenOptions) -> Result<()> {
    let any = |f: &dyn Fn(&Experiment) -> bool| list.iter().any(f);
    let unread = [
        (
            given.folds,
            "--folds",
            "experiment kfold",
            any(&|e| matches!(e, Experiment::KFold { .. })),
        ),
        (
            given.program,
            "--program",
            "experiments 1-4 and loio",
            any(&|e| matches!(e, Experiment::Thesis(1..=4) | Experiment::LeaveOneInputOut)),
        ),
        (
            given.train_run,
            "--train-run",
            "experiments 1 and 2",
            any(&|e| matches!(e, Experiment::Thesis(1 | 2))),
        ),
        (
            given.train_input,
            "--train-input",
            "experiment 4",
            any(&|e| matches!(e, Experiment::Thesis(4))),
        ),
    ]
    .into_iter()
    .find(|(set, _, _, read)| *set && !read);
    match unread {
        Some((_, flag, readers, _)) => {
            let names: Vec<String> = list.iter().map(Experiment::name).collect();
            Err(Error::Usage(format!(
                "{flag} is read by {readers} only, and none of those runs here \
                 ({}); leave {flag} out or add one of them to --exp",
                if names.is_empty() {
                    "fidelity alone".to_string()
                } else {
                    names.join(", ")
                }
            )))
        }
        None => Ok(()),
    }
}

/// A usage error for options that a run cannot use: --summary without JSON, and with
/// `--exp statuner` or `fidelity` alone (one table, or JSON) a report folder, --summary, or
/// the options of the other experiments.
pub fn check_table_alone(cmd: &ExperimentCommand, json: bool) -> Result<()> {
    if cmd.summary && !json {
        return Err(Error::Usage(
            "--summary shortens the JSON (no per-sample predictions): add --json".into(),
        ));
    }
    let alone = cmd.experiments.trim();
    if alone == "statuner" || alone == "fidelity" {
        let unread = [
            (cmd.out_dir.is_some(), "--out-dir"),
            (cmd.summary, "--summary"),
            (alone == "statuner" && cmd.program.is_some(), "--program"),
            (
                alone == "statuner" && cmd.train_run.is_some(),
                "--train-run",
            ),
            (
                alone == "statuner" && cmd.train_input.is_some(),
                "--train-input",
            ),
            (alone == "statuner" && cmd.folds_given, "--folds"),
            (
                alone == "statuner" && cmd.datasets.len() > 1,
                "a second --dataset",
            ),
        ];
        if let Some((_, flag)) = unread.into_iter().find(|(set, _)| *set) {
            let reads = if alone == "statuner" {
                "--dataset and --seed"
            } else {
                "--dataset"
            };
            return Err(Error::Usage(format!(
                "--exp {alone} prints one table (or --json) and reads only {reads}; leave \
                 {flag} out"
            )));
        }
    }
    Ok(())
}

/// Whether a fold trains on the run and input `--train-run` and `--train-input` chose (a fold
/// whose choice names neither is kept).
pub fn keep(fold: &Fold, cmd: &ExperimentCommand) -> bool {
    let run_ok = cmd.train_run.is_none_or(|r| {
        !fold.choice.contains("train-run=") || fold.choice.contains(&format!("train-run={r}"))
    });
    let input_ok = cmd.train_input.as_ref().is_none_or(|i| {
        !fold.choice.contains("train-input=") || fold.choice.contains(&format!("train-input={i} "))
    });
    run_ok && input_ok
}

/// The `train-run=R` and `train-input=I` parts of a fold's choice (as `--train-run R`,
/// `--train-input I`).
pub fn trained_on(choice: &str) -> Vec<String> {
    choice
        .split(' ')
        .filter_map(|part| {
            if let Some(r) = part.strip_prefix("train-run=") {
                Some(format!("--train-run {r}"))
            } else {
                part.strip_prefix("train-input=")
                    .map(|i| format!("--train-input {i}"))
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_option_no_experiment_reads_is_refused() {
        let kfold = Experiment::KFold {
            k: 10,
            seed: 1,
            layout: FoldLayout::Grouped,
        };
        let run = ChosenOptions {
            train_run: true,
            ..Default::default()
        };
        let err = check_options_read(std::slice::from_ref(&kfold), run)
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("--train-run is read by experiments 1 and 2"),
            "{err}"
        );
        assert!(err.contains("(kfold10)"), "{err}");
        assert!(check_options_read(&[kfold.clone(), Experiment::Thesis(2)], run).is_ok());
        let folds = ChosenOptions {
            folds: true,
            ..Default::default()
        };
        assert!(check_options_read(&[Experiment::Thesis(1)], folds).is_err());
        assert!(check_options_read(&[kfold], folds).is_ok());
        let program = ChosenOptions {
            program: true,
            ..Default::default()
        };
        assert!(check_options_read(&[Experiment::LeaveOneProgramOut], program).is_err());
        assert!(check_options_read(&[Experiment::LeaveOneInputOut], program).is_ok());
        let err = check_options_read(&[], program).unwrap_err().to_string();
        assert!(err.contains("(fidelity alone)"), "{err}");
        assert!(check_options_read(&[], ChosenOptions::default()).is_ok());
    }

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
