//! Validation of advice that must carry over: to another GPU (leave one GPU out) and between
//! simulated and measured data (simulator <-> hardware). Leave one program out is in `splits`.
//!
//! Leave one GPU out uses two recordings of the same configurations on two GPUs, one with
//! counters (A) and one with times only (B): models train on A's counters and A's speedups
//! in the training groups and must predict the direction of B's speedups for held-out groups
//! from A's counters. Groups are those of `splits::group_key`, so a test configuration never
//! has its replicate or neighbouring parameter step in the training data.

use std::collections::HashMap;

use super::data::{merge, SamplePool};
use super::splits::{group_key, grouped_split, Fold};
use super::stats::SplitMix64;
use crate::error::{Error, Result};

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
/// second. Samples of A without a timed partner on B are only ever trained on.
pub fn across_gpus(
    a: &SamplePool,
    b: &SamplePool,
    k: usize,
    seed: u64,
    name: &str,
) -> Result<(SamplePool, Vec<Fold>)> {
    let key = |s: &crate::dataset::samples::SpeedupSample| {
        format!(
            "{}|{}|{}|{}|{}",
            s.key.program, s.key.input, s.key.run, s.key.variant, s.switch
        )
    };
    let target: HashMap<String, f64> = b.samples.iter().map(|s| (key(s), s.speedup)).collect();
    let mut pool = a.clone();
    pool.name = format!("{} -> {}", a.name, b.name);
    let n = a.samples.len();
    // twin[i]: the index of A's sample i carrying B's speedup.
    let mut twin: Vec<Option<usize>> = vec![None; n];
    for (i, s) in a.samples.iter().enumerate() {
        if let Some(&speedup) = target.get(&key(s)) {
            let mut t = s.clone();
            t.speedup = speedup;
            t.speedup_range = None;
            twin[i] = Some(pool.samples.len());
            pool.samples.push(t);
        }
    }
    if twin.iter().all(Option::is_none) {
        return Err(Error::Invalid(format!(
            "{} and {} share no timed configuration pair: leave one GPU out needs the same \
             space recorded on both",
            a.name, b.name
        )));
    }
    let mut folds = Vec::new();
    for (si, switch) in a.switches.iter().enumerate() {
        let idx: Vec<usize> = (0..n).filter(|&i| a.samples[i].switch == *switch).collect();
        if idx.len() < k {
            continue;
        }
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
