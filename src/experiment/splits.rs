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
use crate::dataset::samples::SpeedupSample;
use crate::error::{Error, Result};
use crate::variant::{Optimization, Program};
use advise_ml::SplitMix64;

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

fn programs(pool: &SamplePool) -> BTreeSet<String> {
    pool.samples.iter().map(|s| s.key.program.clone()).collect()
}

fn pick_program(pool: &SamplePool, program: Option<&str>) -> Result<String> {
    let all = programs(pool);
    if let Some(p) = program {
        return all
            .iter()
            .find(|q| q.eq_ignore_ascii_case(p))
            .cloned()
            .ok_or_else(|| Error::Usage(format!("{}: no program {p}; it has {all:?}", pool.name)));
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

/// Leave one program out: for each ordered pair of programs, train on one program's samples
/// of an optimization family (dataset::families: `WORK_GROUP_SIZE_X` and `BLOCK_SIZE` are both
/// BLOCK_SIZE) and test on the other's. Switches without a family take no part.
fn lopo(pool: &SamplePool, name: &str) -> Vec<Fold> {
    let progs: Vec<String> = programs(pool).into_iter().collect();
    let families: BTreeSet<&str> = pool
        .switches
        .iter()
        .filter_map(|s| pool.family(s))
        .collect();
    let of = |program: &str, fam: &str| -> Vec<usize> {
        (0..pool.samples.len())
            .filter(|&i| {
                let s = &pool.samples[i];
                s.key.program == program && pool.family(&s.switch) == Some(fam)
            })
            .collect()
    };
    let mut out = Vec::new();
    for a in &progs {
        for b in progs.iter().filter(|b| *b != a) {
            for fam in &families {
                let (train, test) = (of(a, fam), of(b, fam));
                if !train.is_empty() && !test.is_empty() {
                    out.push(Fold {
                        experiment: name.into(),
                        choice: format!("train {a} test {b}"),
                        switch: fam.to_string(),
                        train,
                        test,
                    });
                }
            }
        }
    }
    out
}

/// The group of a sample for leak-free validation: its program, input and configuration
/// family, the variant with the switch's own parameter (or bit) taken out. Replicate runs of
/// one configuration, and the steps of one parameter from the same other settings
/// (`TILE_SIZE_X:1->2` and `TILE_SIZE_X:2->3`), share a group.
pub fn group_key(sample: &SpeedupSample) -> String {
    let k = &sample.key;
    format!(
        "{}|{}|{}",
        k.program,
        k.input,
        family_of_config(&k.program, &k.variant, &sample.switch)
    )
}

/// `variant` without the setting `switch` changes.
fn family_of_config(program: &str, variant: &str, switch: &str) -> String {
    if let Some((param, _)) = switch.split_once(':') {
        let rest: Vec<&str> = variant
            .split(',')
            .filter(|kv| kv.split_once('=').is_none_or(|(k, _)| k.trim() != param))
            .collect();
        return rest.join(",");
    }
    // An NB/BH bit: the bit string with that bit shown as `x`.
    let bit = program
        .parse::<crate::variant::Program>()
        .ok()
        .and_then(|p| {
            let opt = switch.parse::<crate::variant::Optimization>().ok()?;
            p.bit_of(opt)
        });
    match bit {
        Some(b) if variant.len() == crate::variant::BITS => variant
            .chars()
            .enumerate()
            .map(|(i, c)| {
                if i == crate::variant::BITS - 1 - b {
                    'x'
                } else {
                    c
                }
            })
            .collect(),
        _ => variant.to_string(),
    }
}

/// Distinct group keys of the pool's samples, and each sample's index into them.
pub fn groups(pool: &SamplePool) -> (Vec<String>, Vec<usize>) {
    let mut keys: Vec<String> = Vec::new();
    let mut index: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let of: Vec<usize> = pool
        .samples
        .iter()
        .map(|s| {
            let k = group_key(s);
            *index.entry(k.clone()).or_insert_with(|| {
                keys.push(k);
                keys.len() - 1
            })
        })
        .collect();
    (keys, of)
}

/// Splits `idx` (samples of one switch) into k folds: whole groups, shuffled with `rng`,
/// dealt to the folds largest first so fold sizes stay even.
pub fn grouped_split(
    pool: &SamplePool,
    idx: &[usize],
    k: usize,
    rng: &mut SplitMix64,
) -> Vec<Vec<usize>> {
    let mut by_group: std::collections::BTreeMap<String, Vec<usize>> = Default::default();
    for &i in idx {
        by_group
            .entry(group_key(&pool.samples[i]))
            .or_default()
            .push(i);
    }
    let mut members: Vec<Vec<usize>> = by_group.into_values().collect();
    for j in (1..members.len()).rev() {
        members.swap(j, rng.below(j + 1));
    }
    // Stable sort by size keeps the shuffled order among equal sizes.
    members.sort_by_key(|m| std::cmp::Reverse(m.len()));
    let mut folds: Vec<Vec<usize>> = vec![Vec::new(); k];
    for m in members {
        let smallest = (0..k).min_by_key(|&f| folds[f].len()).unwrap_or(0);
        folds[smallest].extend(m);
    }
    for f in &mut folds {
        f.sort_unstable();
    }
    folds
}

/// K folds per switch, laid out as `layout` says.
fn kfold(
    pool: &SamplePool,
    k: usize,
    seed: u64,
    layout: FoldLayout,
    name: &str,
) -> Result<Vec<Fold>> {
    if k < 2 {
        return Err(Error::Usage(format!("k-fold needs k >= 2, not {k}")));
    }
    let mut out = Vec::new();
    for (si, switch) in pool.switches.iter().enumerate() {
        let mut idx = pool.of_switch(switch);
        if idx.len() < k {
            continue;
        }
        let mut push = |f: usize, train: Vec<usize>, test: Vec<usize>| {
            out.push(Fold {
                experiment: name.into(),
                choice: format!("fold={}", f + 1),
                switch: switch.clone(),
                train,
                test,
            })
        };
        // A generator per switch, so adding a switch changes no other folds.
        let mut rng = SplitMix64::new(seed ^ (si as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        match layout {
            FoldLayout::Weka => {
                for (f, (train, test)) in advise_ml::weka::cv::weka_folds(idx.len(), k, seed as i64)
                    .into_iter()
                    .enumerate()
                {
                    push(
                        f,
                        train.iter().map(|&j| idx[j]).collect(),
                        test.iter().map(|&j| idx[j]).collect(),
                    );
                }
            }
            FoldLayout::Grouped => {
                let parts = grouped_split(pool, &idx, k, &mut rng);
                for (f, test) in parts.iter().enumerate() {
                    if test.is_empty() {
                        continue;
                    }
                    let train: Vec<usize> = idx
                        .iter()
                        .copied()
                        .filter(|i| test.binary_search(i).is_err())
                        .collect();
                    push(f, train, test.clone());
                }
            }
            FoldLayout::Ungrouped => {
                for j in (1..idx.len()).rev() {
                    idx.swap(j, rng.below(j + 1));
                }
                for f in 0..k {
                    let pick = |keep: bool| -> Vec<usize> {
                        idx.iter()
                            .enumerate()
                            .filter(|(j, _)| (j % k == f) == keep)
                            .map(|(_, &i)| i)
                            .collect()
                    };
                    push(f, pick(false), pick(true));
                }
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn groups_join_replicates_and_steps_of_one_parameter() {
        use super::family_of_config;
        assert_eq!(
            family_of_config("conv", "A=1,TILE_SIZE_X=2,B=3", "TILE_SIZE_X:2->3"),
            "A=1,B=3"
        );
        assert_eq!(
            family_of_config("conv", "A=1,TILE_SIZE_X=1,B=3", "TILE_SIZE_X:1->2"),
            "A=1,B=3"
        );
        // NB's SHMEM is bit 1: the second character from the right.
        assert_eq!(family_of_config("NB", "000101", "SHMEM"), "0001x1");
        assert_eq!(family_of_config("BH", "000101", "VOTE"), "x00101");
    }

    #[test]
    fn grouped_kfold_never_splits_a_group() {
        use super::*;
        use crate::dataset::measurements::RunKey;
        use crate::dataset::samples::SpeedupSample;
        // Synthetic: NB variants without SHMEM in three replicate runs each.
        let mut samples = Vec::new();
        for run in 1..=3 {
            for v in 0..32u8 {
                let bits = ((v & 0b11100) << 1) | (v & 0b1);
                samples.push(SpeedupSample {
                    switch: "SHMEM".into(),
                    key: RunKey {
                        program: "NB".into(),
                        input: "bodies=512,steps=1".into(),
                        run,
                        variant: format!("{bits:06b}"),
                    },
                    partner: String::new(),
                    features: vec![Some(f64::from(v))],
                    speedup: 1.1,
                    speedup_range: None,
                });
            }
        }
        let pool = SamplePool {
            name: "synthetic".into(),
            columns: vec!["x".into()],
            samples,
            switches: vec!["SHMEM".into()],
            normalizer: None,
            families: Default::default(),
            simulated: Default::default(),
        };
        let exp = Experiment::KFold {
            k: 5,
            seed: 3,
            layout: FoldLayout::Grouped,
        };
        let fs = folds(&pool, &exp, None).unwrap();
        assert_eq!(fs.len(), 5);
        for f in &fs {
            for &t in &f.test {
                let g = group_key(&pool.samples[t]);
                assert!(f.train.iter().all(|&i| group_key(&pool.samples[i]) != g));
            }
        }
        // The ungrouped layout does put replicates of one variant on both sides.
        let exp = Experiment::KFold {
            k: 5,
            seed: 3,
            layout: FoldLayout::Ungrouped,
        };
        let leaky = folds(&pool, &exp, None).unwrap().iter().any(|f| {
            f.test.iter().any(|&t| {
                let g = group_key(&pool.samples[t]);
                f.train.iter().any(|&i| group_key(&pool.samples[i]) == g)
            })
        });
        assert!(leaky);
    }
}
