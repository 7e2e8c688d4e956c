//! Leak-free validation: the group of a sample (its program, input and configuration
//! family), grouped train/test splits, and the k-fold layouts (Weka's, grouped, ungrouped) of
//! the splits in splits.rs. Samples of one group never sit on both sides of a grouped fold.

use super::data::SamplePool;
use super::splits::{Fold, FoldLayout};
use crate::dataset::samples::SpeedupSample;
use crate::error::{Error, Result};
use advise_ml::SplitMix64;

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

/// The groups of samples `idx` (one optimization family, several switches), joined further
/// where two samples share their baseline measurement (program, input and variant): their
/// features are the same row, so no fold may train on one and test on the other. XPlacer's
/// policies for different arrays of one kernel all start from the unmodified program, and a
/// configuration stepped in two parameters of one family (block_size_x and block_size_y) is
/// the baseline of both steps. Returns, for each of `idx`, the smallest number in `group_of`
/// of its joined set.
pub fn join_shared_baselines(pool: &SamplePool, idx: &[usize], group_of: &[usize]) -> Vec<usize> {
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let mut parent: Vec<usize> = (0..idx.len()).collect();
    let mut first_of_group: std::collections::HashMap<usize, usize> = Default::default();
    let mut first_of_baseline: std::collections::HashMap<String, usize> = Default::default();
    for (pos, &i) in idx.iter().enumerate() {
        let k = &pool.samples[i].key;
        let baseline = format!("{}|{}|{}", k.program, k.input, k.variant);
        for other in [
            *first_of_group.entry(group_of[i]).or_insert(pos),
            *first_of_baseline.entry(baseline).or_insert(pos),
        ] {
            let (a, b) = (root(&mut parent, pos), root(&mut parent, other));
            parent[a.max(b)] = a.min(b);
        }
    }
    let mut smallest: std::collections::HashMap<usize, usize> = Default::default();
    for (pos, &i) in idx.iter().enumerate() {
        let r = root(&mut parent, pos);
        let g = smallest.entry(r).or_insert(group_of[i]);
        *g = (*g).min(group_of[i]);
    }
    (0..idx.len())
        .map(|pos| smallest[&root(&mut parent, pos)])
        .collect()
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
pub(super) fn kfold(
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
        use super::super::splits::{folds, Experiment};
        use super::*;
        use crate::dataset::measurements::RunKey;
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
                    campaign: String::new(),
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
            launch: Default::default(),
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

    #[test]
    fn samples_sharing_a_baseline_join_one_group() {
        use super::*;
        use crate::dataset::measurements::RunKey;
        // Synthetic, XPlacer's layout: two arrays' policies from one baseline per kernel.
        let sample = |kernel: &str, switch: &str| SpeedupSample {
            switch: switch.into(),
            key: RunKey {
                program: "bfs".into(),
                input: format!("kernel={kernel}"),
                run: 1,
                variant: "advise0=0,advise1=0".into(),
            },
            partner: String::new(),
            features: vec![Some(1.0)],
            speedup: 0.9,
            speedup_range: None,
            campaign: String::new(),
        };
        let pool = SamplePool {
            name: "synthetic".into(),
            columns: vec!["x".into()],
            samples: vec![
                sample("k1", "advise0:0->2"),
                sample("k1", "advise1:0->2"),
                sample("k2", "advise0:0->2"),
                sample("k2", "advise1:0->2"),
            ],
            switches: vec!["advise0:0->2".into(), "advise1:0->2".into()],
            normalizer: None,
            families: Default::default(),
            simulated: Default::default(),
            launch: Default::default(),
        };
        let (_, of) = groups(&pool);
        assert_eq!(of, vec![0, 1, 2, 3], "four configuration families");
        let joined = join_shared_baselines(&pool, &[0, 1, 2, 3], &of);
        assert_eq!(joined, vec![0, 0, 2, 2]);
        // Only the samples asked about are joined.
        assert_eq!(join_shared_baselines(&pool, &[1, 3], &of), vec![1, 3]);
    }
}
