//! Which samples train and which test: the thesis's six experiments (Table 4.3) and the splits
//! beyond it (leave one input out, leave one program out, grouped k-fold).
//!
//! A fold is one training set and one test set for one switch; a model is fitted per fold.
//! The thesis leaves some choices open (which run trains experiments 1 and 2, which input
//! trains experiment 4); every choice is made in turn, and each fold records its choice so the
//! report can give the mean and the spread over them.

use std::collections::BTreeSet;

use serde::Serialize;

use super::data::SamplePool;
use super::grouping::kfold;
pub use super::grouping::{group_key, grouped_split, groups, join_shared_baselines};
use super::lopo::lopo;
use crate::error::{Error, Result};
use crate::variant::{Optimization, Program};

/// One train/test split of one switch's samples.
#[derive(Debug, Clone, Serialize)]
pub struct Fold {
    pub experiment: String,
    /// The open choice this fold makes, e.g. `input=bodies=125000,steps=2 train-run=1`.
    pub choice: String,
    pub switch: String,
    pub train: Vec<usize>,
    pub test: Vec<usize>,
}

/// The experiments advise knows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Experiment {
    /// Thesis experiment 1..=6.
    Thesis(u8),
    /// Train on all inputs but one, test on that one.
    LeaveOneInputOut,
    /// Train on one program, test on another, on the switch families both have.
    LeaveOneProgramOut,
    /// K folds over each switch's samples, shuffled with a seed.
    KFold {
        k: usize,
        seed: u64,
        layout: FoldLayout,
    },
}

/// How k-fold cross-validation assigns samples to folds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FoldLayout {
    /// Whole groups (`group_key`: program, input, configuration family) go to one fold, so
    /// no configuration's close relatives sit on both sides (the default).
    Grouped,
    /// Samples shuffled one by one: replicates and neighbouring steps of one parameter can
    /// sit on both sides, which flatters the accuracy (kept to measure by how much).
    Ungrouped,
    /// Exactly as Weka's `-x K -s S` (java.util.Random, randomize, trainCV/testCV); ungrouped.
    Weka,
}

impl Experiment {
    pub fn name(&self) -> String {
        match self {
            Experiment::Thesis(n) => format!("exp{n}"),
            Experiment::LeaveOneInputOut => "loio".into(),
            Experiment::LeaveOneProgramOut => "lopo".into(),
            Experiment::KFold {
                k,
                layout: FoldLayout::Grouped,
                ..
            } => format!("kfold{k}"),
            Experiment::KFold {
                k,
                layout: FoldLayout::Ungrouped,
                ..
            } => format!("kfold{k}-ungrouped"),
            Experiment::KFold {
                k,
                layout: FoldLayout::Weka,
                ..
            } => format!("kfold{k}-weka"),
        }
    }

    /// Train/test sizes in variants per switch, as Table 4.3 states them (for the report).
    pub fn table_4_3(&self) -> Option<(&'static str, &'static str)> {
        match self {
            Experiment::Thesis(1) => Some(("BH 64 (one run)", "BH 192 (all runs, same input)")),
            Experiment::Thesis(2) => Some(("BH 64 (one run)", "BH 128 (other runs)")),
            Experiment::Thesis(3) => Some(("BH 128 (two runs)", "BH 64 (third run)")),
            Experiment::Thesis(4) => Some(("BH 192 (one input)", "BH 64 per other input")),
            Experiment::Thesis(5) => Some(("BH 192", "NB 192 (FTZ, RSQRT)")),
            Experiment::Thesis(6) => Some(("NB 192", "BH 192 (FTZ, RSQRT)")),
            _ => None,
        }
    }
}

/// The fewest training samples a fold may have.
pub const MIN_TRAIN: usize = 5;

/// Folds of `experiment` over `pool`. `program` picks the program of experiments 1-4 and of
/// leave-one-input-out (default: BH if present, else the pool's only program).
pub fn folds(
    pool: &SamplePool,
    experiment: &Experiment,
    program: Option<&str>,
) -> Result<Vec<Fold>> {
    let name = experiment.name();
    let folds = match experiment {
        Experiment::Thesis(n @ 1..=4) => {
            within_program(pool, *n, &pick_program(pool, program)?, &name)
        }
        Experiment::Thesis(5) => across_programs(pool, "BH", "NB", &name),
        Experiment::Thesis(6) => across_programs(pool, "NB", "BH", &name),
        Experiment::Thesis(n) => {
            return Err(Error::Usage(format!(
                "there is no thesis experiment {n}: use 1-6"
            )))
        }
        Experiment::LeaveOneInputOut => loio(pool, &pick_program(pool, program)?, &name),
        Experiment::LeaveOneProgramOut => lopo(pool, &name),
        Experiment::KFold { k, seed, layout } => kfold(pool, *k, *seed, *layout, &name)?,
    };
    // Every method needs a few training samples (knn's k = 5); a campaign still in progress can
    // leave a switch with fewer.
    let folds: Vec<Fold> = folds
        .into_iter()
        .filter(|f| f.train.len() >= MIN_TRAIN)
        .collect();
    if folds.is_empty() {
        return Err(Error::Data(format!(
            "{name} has no folds on {}: it needs {}",
            pool.name,
            match experiment {
                Experiment::Thesis(1..=3) =>
                    "one input with at least two (exp 1, 2) or three (exp 3) runs",
                Experiment::Thesis(4) | Experiment::LeaveOneInputOut => "at least two inputs",
                Experiment::Thesis(_) => "both NB and BH samples with FTZ and RSQRT",
                Experiment::LeaveOneProgramOut => "two programs that share a switch",
                Experiment::KFold { .. } => "at least k samples per switch",
            }
        )));
    }
    Ok(folds)
}

pub(super) fn programs(pool: &SamplePool) -> BTreeSet<String> {
    pool.samples.iter().map(|s| s.key.program.clone()).collect()
}

fn pick_program(pool: &SamplePool, program: Option<&str>) -> Result<String> {
    let all = programs(pool);
    if let Some(p) = program {
        return all
            .iter()
            .find(|q| q.eq_ignore_ascii_case(p))
            .cloned()
            .ok_or_else(|| {
                let names: Vec<&str> = all.iter().map(String::as_str).collect();
                Error::Usage(format!(
                    "{}: no program {p}; it has {} (--program {})",
                    pool.name,
                    names.join(", "),
                    names.first().copied().unwrap_or("NAME")
                ))
            });
    }
    if all.contains("BH") {
        return Ok("BH".into());
    }
    match all.len() {
        1 => Ok(all.into_iter().next().unwrap_or_default()),
        _ => Err(Error::Usage(format!(
            "{}: several programs {all:?}: choose one with --program",
            pool.name
        ))),
    }
}

/// Samples of `switch` in `program` that satisfy `keep(input, run)`.
fn select(
    pool: &SamplePool,
    program: &str,
    switch: &str,
    keep: impl Fn(&str, u32) -> bool,
) -> Vec<usize> {
    pool.of_switch(switch)
        .into_iter()
        .filter(|&i| {
            let k = &pool.samples[i].key;
            k.program == program && keep(&k.input, k.run)
        })
        .collect()
}

fn inputs_and_runs(pool: &SamplePool, program: &str) -> Vec<(String, Vec<u32>)> {
    let mut out: Vec<(String, Vec<u32>)> = Vec::new();
    for (p, input, run) in pool.tuples() {
        if p != program {
            continue;
        }
        match out.iter_mut().find(|(i, _)| *i == input) {
            Some((_, runs)) if !runs.contains(&run) => runs.push(run),
            Some(_) => {}
            None => out.push((input, vec![run])),
        }
    }
    for (_, runs) in &mut out {
        runs.sort_unstable();
    }
    out
}

fn within_program(pool: &SamplePool, n: u8, program: &str, name: &str) -> Vec<Fold> {
    let mut out = Vec::new();
    let layout = inputs_and_runs(pool, program);
    for switch in &pool.switches {
        for (input, runs) in &layout {
            let same = |i: &str| i == input;
            let mut push = |choice: String, train: Vec<usize>, test: Vec<usize>| {
                if !train.is_empty() && !test.is_empty() {
                    out.push(Fold {
                        experiment: name.into(),
                        choice,
                        switch: switch.clone(),
                        train,
                        test,
                    });
                }
            };
            match n {
                1 | 2 if runs.len() >= 2 => {
                    for &r in runs {
                        let train = select(pool, program, switch, |i, run| same(i) && run == r);
                        let test = select(pool, program, switch, |i, run| {
                            same(i) && (n == 1 || run != r)
                        });
                        push(format!("input={input} train-run={r}"), train, test);
                    }
                }
                3 if runs.len() >= 3 => {
                    for &r in runs {
                        let train = select(pool, program, switch, |i, run| same(i) && run != r);
                        let test = select(pool, program, switch, |i, run| same(i) && run == r);
                        push(format!("input={input} test-run={r}"), train, test);
                    }
                }
                4 => {
                    for (other, other_runs) in layout.iter().filter(|(o, _)| o != input) {
                        for &r in other_runs {
                            let train = select(pool, program, switch, |i, _| same(i));
                            let test =
                                select(pool, program, switch, |i, run| i == other && run == r);
                            push(
                                format!("train-input={input} test-input={other} test-run={r}"),
                                train,
                                test,
                            );
                        }
                    }
                }
                _ => {}
            }
        }
    }
    out
}

fn across_programs(pool: &SamplePool, train_p: &str, test_p: &str, name: &str) -> Vec<Fold> {
    let mut out = Vec::new();
    let train_inputs = inputs_and_runs(pool, train_p);
    let test_inputs = inputs_and_runs(pool, test_p);
    // The optimizations both programs have (FTZ and RSQRT in the thesis's Table 4.1).
    let shared: Vec<&str> = Program::Nb
        .optimizations()
        .into_iter()
        .filter(|o| Program::Bh.bit_of(*o).is_some())
        .map(Optimization::name)
        .collect();
    for switch in shared {
        for (a, _) in &train_inputs {
            for (b, _) in &test_inputs {
                let train = select(pool, train_p, switch, |i, _| i == a);
                let test = select(pool, test_p, switch, |i, _| i == b);
                if !train.is_empty() && !test.is_empty() {
                    out.push(Fold {
                        experiment: name.into(),
                        choice: format!("train {train_p} {a} test {test_p} {b}"),
                        switch: switch.into(),
                        train,
                        test,
                    });
                }
            }
        }
    }
    out
}

fn loio(pool: &SamplePool, program: &str, name: &str) -> Vec<Fold> {
    let layout = inputs_and_runs(pool, program);
    let mut out = Vec::new();
    if layout.len() < 2 {
        return out;
    }
    for switch in &pool.switches {
        for (input, _) in &layout {
            let train = select(pool, program, switch, |i, _| i != input);
            let test = select(pool, program, switch, |i, _| i == input);
            if !train.is_empty() && !test.is_empty() {
                out.push(Fold {
                    experiment: name.into(),
                    choice: format!("test-input={input}"),
                    switch: switch.clone(),
                    train,
                    test,
                });
            }
        }
    }
    out
}
