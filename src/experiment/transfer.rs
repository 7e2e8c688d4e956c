//! Validation of advice that must carry over: to another GPU (leave one GPU out) and between
//! simulated and measured data (simulator <-> hardware). Leave one program out is in `splits`.
//!
//! Leave one GPU out uses two recordings of the same configurations on two GPUs, one with
//! counters (A) and one with times only (B): models train on A's counters and A's speedups
//! in the training groups and must predict the direction of B's speedups for held-out groups
//! from A's counters. Groups are those of `splits::group_key`, so a test configuration never
//! has its replicate or neighbouring parameter step in the training data.

use std::collections::HashMap;

use super::data::SamplePool;
use super::pool_merge::merge;
use super::splits::{group_key, grouped_split, Fold};
use super::stats::median;
use crate::dataset::samples::SpeedupSample;
use crate::error::{Error, Result};
use advise_ml::SplitMix64;

/// Pools joined into one, remembering which pool each sample came from.
pub struct Joined {
    pub pool: SamplePool,
    pub origin: Vec<usize>,
}

/// Joins pools (feature columns united, missing values `None`).
pub fn join(pools: Vec<SamplePool>) -> Result<Joined> {
    let origin: Vec<usize> = pools
        .iter()
        .enumerate()
        .flat_map(|(i, p)| std::iter::repeat_n(i, p.samples.len()))
        .collect();
    Ok(Joined {
        pool: merge(pools)?,
        origin,
    })
}

/// For every optimization family both sides have: train on the samples from pools `train`,
/// test on those from pools `test`.
pub fn across_sources(j: &Joined, train: &[usize], test: &[usize], name: &str) -> Vec<Fold> {
    let pool = &j.pool;
    let side = |from: &[usize], fam: &str| -> Vec<usize> {
        (0..pool.samples.len())
            .filter(|&i| {
                from.contains(&j.origin[i]) && pool.family(&pool.samples[i].switch) == Some(fam)
            })
            .collect()
    };
    let mut families: Vec<&str> = pool
        .switches
        .iter()
        .filter_map(|s| pool.family(s))
        .collect();
    families.sort_unstable();
    families.dedup();
    families
        .into_iter()
        .filter_map(|fam| {
            let (a, b) = (side(train, fam), side(test, fam));
            (!a.is_empty() && !b.is_empty()).then(|| Fold {
                experiment: name.into(),
                choice: fam.to_string(),
                switch: fam.to_string(),
                train: a,
                test: b,
            })
        })
        .collect()
}

/// Leave one GPU out: a pool with A's samples followed by the same samples carrying B's
/// speedups, and `k` grouped folds per switch that train on the first kind and test on the
/// second (`k` at most the switch's sample count). Where either side pools several campaigns
/// of one program and input (visits to one GPU), a pair is tested once: its first sample on A
/// carries B's median speedup and the mean of A's campaigns' counters. Samples of A without a
/// timed partner on B are only ever trained on.
pub fn across_gpus(
    a: &SamplePool,
    b: &SamplePool,
    k: usize,
    seed: u64,
    name: &str,
) -> Result<(SamplePool, Vec<Fold>)> {
    let key = twin_key(a, b);
    let target = twin_speedups(b, &key);
    let features = twin_features(a, &key);
    let mut pool = a.clone();
    pool.name = format!("{} -> {}", a.name, b.name);
    let n = a.samples.len();
    // twin[i]: the index of A's sample i carrying B's speedup.
    let mut twin: Vec<Option<usize>> = vec![None; n];
    let mut twinned = std::collections::HashSet::new();
    for (i, s) in a.samples.iter().enumerate() {
        let k = key(s);
        if let Some(&speedup) = target.get(&k).filter(|_| twinned.insert(k.clone())) {
            let mut t = s.clone();
            if let Some(f) = features.get(&k) {
                t.features = f.clone();
            }
            t.speedup = speedup;
            t.speedup_range = None;
            twin[i] = Some(pool.samples.len());
            pool.samples.push(t);
        }
    }
    if twin.iter().all(Option::is_none) {
        return Err(Error::Data(format!(
            "{} and {} share no timed configuration pair: leave one GPU out needs the same \
             space recorded on both",
            a.name, b.name
        )));
    }
    let mut folds = Vec::new();
    for (si, switch) in a.switches.iter().enumerate() {
        let idx: Vec<usize> = (0..n).filter(|&i| a.samples[i].switch == *switch).collect();
        if idx.len() < 2 {
            continue;
        }
        // A switch with fewer samples than folds (XPlacer's bfs has six kernel and input pairs
        // per object and policy) gets one fold per sample, as many as its groups allow.
        let k = k.min(idx.len());
        let mut rng = SplitMix64::new(seed ^ (si as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let parts = grouped_split(a, &idx, k, &mut rng);
        for (f, part) in parts.iter().enumerate() {
            let test: Vec<usize> = part.iter().filter_map(|&i| twin[i]).collect();
            if test.is_empty() {
                continue;
            }
            let train: Vec<usize> = idx
                .iter()
                .copied()
                .filter(|i| part.binary_search(i).is_err())
                .collect();
            folds.push(Fold {
                experiment: name.into(),
                choice: format!("fold={}", f + 1),
                switch: switch.clone(),
                train,
                test,
            });
        }
    }
    // Keep the twins' groups equal to their originals' (they share key and switch).
    debug_assert!(a
        .samples
        .iter()
        .enumerate()
        .all(|(i, s)| twin[i].is_none_or(|t| group_key(&pool.samples[t]) == group_key(s))));
    Ok((pool, folds))
}

/// What matches a sample of one GPU with its twin on the other. One program and input on
/// each side (a tuning space recorded on two GPUs, perhaps by two versions of a tool that
/// name the kernel or the fixed parameters differently): the configurations match by their
/// settings alone. Settings match in any order.
fn twin_key(a: &SamplePool, b: &SamplePool) -> impl Fn(&SpeedupSample) -> String {
    let single = |p: &SamplePool| {
        let mut c = p.samples.iter().map(|s| (&s.key.program, &s.key.input));
        c.next().is_some_and(|first| c.all(|x| x == first))
    };
    let by_settings = single(a) && single(b);
    move |s: &SpeedupSample| {
        let settings = canonical(&s.key.variant);
        if by_settings {
            format!("{}|{settings}|{}", s.key.run, s.switch)
        } else {
            format!(
                "{}|{}|{}|{settings}|{}",
                s.key.program,
                canonical(&s.key.input),
                s.key.run,
                s.switch
            )
        }
    }
}

/// A side's samples by twin key: several where it pools campaigns of one program and input
/// (visits to one GPU) that each measured the pair.
fn by_twin_key(
    side: &SamplePool,
    key: impl Fn(&SpeedupSample) -> String,
) -> HashMap<String, Vec<&SpeedupSample>> {
    let mut all: HashMap<String, Vec<&SpeedupSample>> = HashMap::new();
    for s in &side.samples {
        all.entry(key(s)).or_default().push(s);
    }
    all
}

/// A side's speedup of each twin key: the median over its campaigns that measured it.
fn twin_speedups(
    side: &SamplePool,
    key: impl Fn(&SpeedupSample) -> String,
) -> HashMap<String, f64> {
    by_twin_key(side, key)
        .into_iter()
        .map(|(k, v)| (k, median(v.iter().map(|s| s.speedup).collect())))
        .collect()
}

/// A side's counters of each twin key measured by several campaigns: each feature's mean over
/// the campaigns that have it, so that a pair is tested on what the visits saw together rather
/// than on the first visit's noise. Keys of one sample are left out.
fn twin_features(
    side: &SamplePool,
    key: impl Fn(&SpeedupSample) -> String,
) -> HashMap<String, Vec<Option<f64>>> {
    by_twin_key(side, key)
        .into_iter()
        .filter(|(_, v)| v.len() > 1)
        .map(|(k, v)| {
            let width = v[0].features.len();
            let mean = (0..width)
                .map(|j| {
                    let xs: Vec<f64> = v
                        .iter()
                        .filter_map(|s| s.features.get(j).copied().flatten())
                        .collect();
                    (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64)
                })
                .collect();
            (k, mean)
        })
        .collect()
}

/// How two GPUs agree on a space: of the pairs measured on both, how many the two speed up
/// (above 1) or not alike, each side's speedup the median over its campaigns (as leave one
/// GPU out tests each pair once), and how many such pairs there are. It is what keeping A's
/// measured choices scores on B, the ceiling of leave one GPU out for a model that learned A
/// perfectly.
pub fn same_direction(a: &SamplePool, b: &SamplePool) -> (usize, usize) {
    let key = twin_key(a, b);
    let target = twin_speedups(b, &key);
    twin_speedups(a, &key)
        .into_iter()
        .filter_map(|(k, own)| target.get(&k).map(|t| (own > 1.0) == (*t > 1.0)))
        .fold((0, 0), |(same, n), alike| {
            (same + usize::from(alike), n + 1)
        })
}

/// `k=v` settings in name order (`B=2,A=1` -> `A=1,B=2`).
fn canonical(settings: &str) -> String {
    let mut v: Vec<&str> = settings.split(',').map(str::trim).collect();
    v.sort_unstable();
    v.join(",")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::measurements::RunKey;

    /// A synthetic pool: parameter A steps 1->2 on configurations B = 0..n.
    fn pool(name: &str, program: &str, speedup: impl Fn(usize) -> f64, n: usize) -> SamplePool {
        let samples = (0..n)
            .map(|b| SpeedupSample {
                switch: "A:1->2".into(),
                key: RunKey {
                    program: program.into(),
                    input: "i".into(),
                    run: 1,
                    variant: format!("A=1,B={b}"),
                },
                partner: format!("A=2,B={b}"),
                features: vec![Some(b as f64)],
                speedup: speedup(b),
                speedup_range: None,
                campaign: String::new(),
            })
            .collect();
        SamplePool {
            name: name.into(),
            columns: vec!["x".into()],
            samples,
            switches: vec!["A:1->2".into()],
            normalizer: None,
            families: [("A:1->2".to_string(), Some("TILE_SIZE".to_string()))].into(),
            simulated: Default::default(),
            launch: Default::default(),
        }
    }

    #[test]
    fn leave_one_gpu_out_tests_the_other_gpus_speedups_on_held_out_groups_only() {
        let a = pool("gpu-a", "p", |b| 1.0 + b as f64 / 100.0, 20);
        let b = pool("gpu-b", "p", |b| 0.5 + b as f64 / 100.0, 18);
        let (joined, folds) = across_gpus(&a, &b, 4, 1, "logo").unwrap();
        assert_eq!(joined.samples.len(), 20 + 18);
        assert!(!folds.is_empty());
        for f in &folds {
            // Training samples are A's own, test samples carry B's speedups.
            assert!(f.train.iter().all(|&i| i < 20));
            assert!(f.test.iter().all(|&i| i >= 20));
            for &t in &f.test {
                let g = group_key(&joined.samples[t]);
                assert!(f.train.iter().all(|&i| group_key(&joined.samples[i]) != g));
                assert!(joined.samples[t].speedup < 1.0);
            }
        }
        let tested: usize = folds.iter().map(|f| f.test.len()).sum();
        assert_eq!(tested, 18, "every twin is tested once");
    }

    #[test]
    fn same_direction_counts_twins_that_both_gpus_speed_up_or_not_alike() {
        // A speeds every step up but b = 0 (1.0 is no speedup); B those with b > 5.
        let a = pool("gpu-a", "p", |b| 1.0 + b as f64 / 100.0, 20);
        let b = pool("gpu-b", "p", |b| 0.5 + b as f64 / 10.0, 12);
        // Twins for b = 0..12; alike at b = 0 (neither) and b = 6..12 (both).
        assert_eq!(same_direction(&a, &b), (7, 12));
        assert_eq!(same_direction(&b, &a), (7, 12));
    }

    #[test]
    fn a_gpu_visited_three_times_gives_each_twin_its_median_speedup() {
        let a = pool("gpu-a", "p", |_| 1.1, 4);
        let visits = [1.5, 1.4, 0.5].map(|v| pool("gpu-b", "p", move |_| v, 4));
        let b = merge(visits.to_vec()).unwrap();
        // The last visit alone (0.5) would disagree with A everywhere; the median (1.4) agrees.
        assert_eq!(same_direction(&a, &b), (4, 4));
        let (joined, folds) = across_gpus(&a, &b, 2, 1, "logo").unwrap();
        assert!(joined.samples[4..].iter().all(|t| t.speedup == 1.4));
        // Visited three times on A's side instead, each pair is still tested once.
        let (joined, folds_b) = across_gpus(&b, &a, 2, 1, "logo").unwrap();
        assert_eq!(joined.samples.len(), 12 + 4);
        let tested = |f: &[Fold]| f.iter().map(|f| f.test.len()).sum::<usize>();
        assert_eq!((tested(&folds), tested(&folds_b)), (4, 4));
        assert_eq!(same_direction(&b, &a), (4, 4));
    }

    #[test]
    fn a_twin_tested_from_several_visits_carries_their_mean_counters() {
        // Three visits to the training GPU measure feature x as b, b + 3 and b + 6 (one visit
        // without it for b = 0); each pair's twin carries the mean.
        let visits: Vec<SamplePool> = [0.0, 3.0, 6.0]
            .iter()
            .map(|&shift| {
                let mut p = pool("gpu-a", "p", |_| 1.1, 4);
                for s in &mut p.samples {
                    s.features = vec![s.features[0].map(|x| x + shift)];
                }
                if shift == 6.0 {
                    p.samples[0].features = vec![None];
                }
                p
            })
            .collect();
        let a = merge(visits).unwrap();
        let b = pool("gpu-b", "p", |_| 0.9, 4);
        let (joined, _) = across_gpus(&a, &b, 2, 1, "logo").unwrap();
        let twins: Vec<Option<f64>> = joined.samples[12..].iter().map(|t| t.features[0]).collect();
        assert_eq!(twins, [Some(1.5), Some(4.0), Some(5.0), Some(6.0)]);
        // The training samples keep each visit's own counters.
        assert_eq!(joined.samples[4].features[0], Some(3.0));
    }

    #[test]
    fn one_space_on_two_gpus_matches_by_settings_in_any_order() {
        let a = pool("gpu-a", "kernel_a", |b| 1.0 + b as f64 / 100.0, 12);
        let mut b = pool("gpu-b", "kernel_b", |b| 0.5 + b as f64 / 100.0, 12);
        for s in &mut b.samples {
            // The other tool version lists the settings the other way round.
            let mut parts: Vec<&str> = s.key.variant.split(',').collect();
            parts.reverse();
            s.key.variant = parts.join(",");
            s.key.input = "other fixed parameters".into();
        }
        let (joined, folds) = across_gpus(&a, &b, 4, 1, "logo").unwrap();
        assert_eq!(joined.samples.len(), 24);
        assert_eq!(folds.iter().map(|f| f.test.len()).sum::<usize>(), 12);
    }

    #[test]
    fn a_switch_with_fewer_samples_than_folds_gets_one_fold_per_sample() {
        let a = pool("gpu-a", "p", |b| 1.0 + b as f64 / 100.0, 6);
        let b = pool("gpu-b", "p", |b| 0.5 + b as f64 / 100.0, 6);
        let (_, folds) = across_gpus(&a, &b, 10, 1, "logo").unwrap();
        assert_eq!(folds.len(), 6);
        assert!(folds
            .iter()
            .all(|f| f.test.len() == 1 && f.train.len() == 5));
    }

    #[test]
    fn across_sources_pairs_families_and_needs_both_sides() {
        let sim = pool("sim", "NB", |_| 1.2, 6);
        let hw = pool("hw", "conv", |_| 0.9, 6);
        let j = join(vec![sim, hw]).unwrap();
        let f = across_sources(&j, &[0], &[1], "sim->hw");
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].switch, "TILE_SIZE");
        assert!(f[0].train.iter().all(|&i| j.origin[i] == 0));
        assert!(f[0].test.iter().all(|&i| j.origin[i] == 1));
        assert!(across_sources(&j, &[0], &[], "none").is_empty());
    }
}
