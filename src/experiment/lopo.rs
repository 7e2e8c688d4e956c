//! Leave one program out (`advise experiment --exp lopo`, `bench transfer`): a program's
//! samples of an optimization family predicted by models of every other program that has the
//! family, the position of a user's program, which the advisor has never seen.

use std::collections::{BTreeMap, BTreeSet};

use super::data::SamplePool;
use super::splits::{programs, Fold};

/// Leave one program out: for each program and optimization family, train on the family's
/// samples of every other program (dataset::families: `WORK_GROUP_SIZE_X` and `BLOCK_SIZE`
/// are both BLOCK_SIZE) and test on this program's. With two programs these are the thesis's
/// experiments 5 and 6 in both directions; with more, each test program's model learns from
/// all the others together. Switches without a family take no part.
pub(super) fn lopo(pool: &SamplePool, name: &str) -> Vec<Fold> {
    let progs: Vec<String> = programs(pool).into_iter().collect();
    let families: BTreeSet<&str> = pool
        .switches
        .iter()
        .filter_map(|s| pool.family(s))
        .collect();
    // Each program's samples of each family, in sample order, from one pass.
    let mut of: BTreeMap<(&str, &str), Vec<usize>> = BTreeMap::new();
    for (i, s) in pool.samples.iter().enumerate() {
        if let Some(fam) = pool.family(&s.switch) {
            of.entry((s.key.program.as_str(), fam)).or_default().push(i);
        }
    }
    let mut out = Vec::new();
    for b in &progs {
        for fam in &families {
            let Some(test) = of.get(&(b.as_str(), *fam)) else {
                continue;
            };
            // Every other program that has the family trains.
            let others: Vec<&String> = progs
                .iter()
                .filter(|a| *a != b && of.contains_key(&(a.as_str(), *fam)))
                .collect();
            if others.is_empty() {
                continue;
            }
            let mut train: Vec<usize> = others
                .iter()
                .flat_map(|a| of[&(a.as_str(), *fam)].iter().copied())
                .collect();
            train.sort_unstable();
            let test = test.clone();
            out.push(Fold {
                experiment: name.into(),
                choice: format!(
                    "train {} test {b}",
                    others
                        .iter()
                        .map(|a| a.as_str())
                        .collect::<Vec<_>>()
                        .join("+")
                ),
                switch: fam.to_string(),
                train,
                test,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::measurements::RunKey;
    use crate::dataset::samples::SpeedupSample;

    /// Synthetic: three programs step a tile size (one family), a fourth only a block size.
    #[test]
    fn leave_one_program_out_trains_on_every_other_program_of_the_family() {
        let sample = |program: &str, switch: &str, b: usize| SpeedupSample {
            switch: switch.into(),
            key: RunKey {
                program: program.into(),
                input: "i".into(),
                run: 1,
                variant: format!("B={b}"),
            },
            partner: String::new(),
            features: vec![Some(b as f64)],
            speedup: 1.1,
            speedup_range: None,
            campaign: String::new(),
        };
        let mut samples = Vec::new();
        for (p, sw) in [
            ("a", "TILE_SIZE_X:1->2"),
            ("b", "TILE_SIZE:1->2"),
            ("c", "WPT:1->2"),
            ("d", "BLOCK_SIZE_X:32->64"),
        ] {
            samples.extend((0..3).map(|b| sample(p, sw, b)));
        }
        let pool = SamplePool {
            name: "synthetic".into(),
            columns: vec!["x".into()],
            samples,
            switches: vec![
                "TILE_SIZE_X:1->2".into(),
                "TILE_SIZE:1->2".into(),
                "WPT:1->2".into(),
                "BLOCK_SIZE_X:32->64".into(),
            ],
            normalizer: None,
            families: Default::default(),
            simulated: Default::default(),
            launch: Default::default(),
        };
        let families = pool
            .switches
            .iter()
            .map(|s| (s.clone(), crate::dataset::families::of_switch(s, None)))
            .collect();
        let pool = SamplePool { families, ..pool };
        let fs = lopo(&pool, "lopo");
        let choices: Vec<&str> = fs.iter().map(|f| f.choice.as_str()).collect();
        assert_eq!(
            choices,
            ["train b+c test a", "train a+c test b", "train a+b test c"]
        );
        for f in &fs {
            assert_eq!(f.switch, "TILE_SIZE");
            assert_eq!((f.train.len(), f.test.len()), (6, 3));
            let tested = &pool.samples[f.test[0]].key.program;
            assert!(f
                .train
                .iter()
                .all(|&i| pool.samples[i].key.program != *tested));
        }
    }
}
