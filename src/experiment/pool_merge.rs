//! Several datasets as one pool of samples: feature columns the union of theirs (missing
//! values `None`), switches and families joined, and samples of one program and input held by
//! two pools (two GPUs, two visits to one) marked with their pool so that they stay apart.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use super::data::{load_pool_view, SamplePool};
use crate::dataset::features::{remapper, union_columns, View};
use crate::error::{Error, Result};

/// Reads several dataset folders into one pool (for leave-one-program-out across imported
/// spaces): feature columns are the union, missing values `None`.
pub fn load_pools(dirs: &[PathBuf]) -> Result<SamplePool> {
    load_pools_view(dirs, View::Counters)
}

/// `load_pools` with the feature view chosen. A folder named twice is a usage error: its
/// samples would count twice, in training and in every accuracy.
pub fn load_pools_view(dirs: &[PathBuf], view: View) -> Result<SamplePool> {
    refuse_repeats(dirs)?;
    let pools = dirs
        .iter()
        .map(|d| load_pool_view(d, view))
        .collect::<Result<Vec<_>>>()?;
    merge(pools)
}

/// A usage error where two of `dirs` are the same folder (after resolving links and `..`).
pub fn refuse_repeats(dirs: &[PathBuf]) -> Result<()> {
    let mut seen: BTreeMap<PathBuf, &PathBuf> = BTreeMap::new();
    for d in dirs {
        let Ok(real) = d.canonicalize() else {
            continue;
        };
        if let Some(first) = seen.insert(real, d) {
            return Err(Error::Usage(format!(
                "--dataset {} names the folder --dataset {} named already: its samples would \
                 count twice",
                d.display(),
                first.display()
            )));
        }
    }
    // A copy of a folder under another name: the same tables, byte for byte. Their sizes
    // first, so that only folders whose tables are as long are read for a digest.
    let mut by_size: BTreeMap<Vec<u64>, Vec<&PathBuf>> = BTreeMap::new();
    for d in dirs {
        if let Some(sizes) = tables_of(d, |f| std::fs::metadata(f).ok().map(|m| m.len())) {
            by_size.entry(sizes).or_default().push(d);
        }
    }
    for alike in by_size.values().filter(|v| v.len() > 1) {
        let mut contents: BTreeMap<Vec<u64>, &PathBuf> = BTreeMap::new();
        for &d in alike {
            let digest = tables_of(d, |f| {
                std::fs::read(f)
                    .ok()
                    .map(|b| crate::dataset::import::fnv1a(&b))
            });
            let Some(digest) = digest else {
                continue;
            };
            if let Some(first) = contents.insert(digest, d) {
                return Err(Error::Usage(format!(
                    "--dataset {} holds the same timings and measurements as --dataset {} (a \
                     copy?): its samples would count twice",
                    d.display(),
                    first.display()
                )));
            }
        }
    }
    Ok(())
}

/// `of` the timings and measurements tables of a dataset folder (plain or `.gz`, the first
/// that gives one); `None` where the timings table gives nothing.
fn tables_of(
    dir: &std::path::Path,
    of: impl Fn(&std::path::Path) -> Option<u64>,
) -> Option<Vec<u64>> {
    let read = |name: &str| {
        [name.to_string(), format!("{name}.gz")]
            .iter()
            .find_map(|n| of(&dir.join(n)))
    };
    let mut out = vec![read("timings.csv")?];
    out.extend(read("measurements.csv"));
    Some(out)
}

pub fn merge(mut pools: Vec<SamplePool>) -> Result<SamplePool> {
    if pools.len() == 1 {
        return pools.pop().ok_or_else(|| Error::Usage("no dataset".into()));
    }
    let columns = union_columns(pools.iter().map(|p| p.columns.as_slice()));
    let mut merged = SamplePool {
        name: pools
            .iter()
            .map(|p| p.name.as_str())
            .collect::<Vec<_>>()
            .join("+"),
        columns: columns.clone(),
        samples: Vec::new(),
        switches: Vec::new(),
        normalizer: None,
        families: BTreeMap::new(),
        simulated: Default::default(),
        launch: Default::default(),
    };
    let normalizers: std::collections::BTreeSet<Option<String>> =
        pools.iter().map(|p| p.normalizer.clone()).collect();
    merged.normalizer = match normalizers.len() {
        1 => normalizers.into_iter().next().flatten(),
        _ => Some("mixed (each dataset its own)".into()),
    };
    // Where two pools hold one program and input (two GPUs, or two visits to one), their samples share
    // keys: each such sample is marked with its pool, so ids and McNemar's pairs stay apart.
    let mut holders: BTreeMap<(String, String), BTreeSet<usize>> = BTreeMap::new();
    for (n, p) in pools.iter().enumerate() {
        for s in &p.samples {
            holders
                .entry((s.key.program.clone(), s.key.input.clone()))
                .or_default()
                .insert(n);
        }
    }
    for p in pools {
        let remap = remapper(&p.columns, &columns);
        for mut s in p.samples {
            s.features = remap(&s.features);
            if holders
                .get(&(s.key.program.clone(), s.key.input.clone()))
                .is_some_and(|h| h.len() > 1)
            {
                s.campaign = p.name.clone();
            }
            merged.samples.push(s);
        }
        for sw in p.switches {
            if !merged.switches.contains(&sw) {
                merged.switches.push(sw);
            }
        }
        merged.families.extend(p.families);
        merged.simulated.extend(p.simulated);
        merged.launch.extend(p.launch);
    }
    Ok(merged)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::samples::SpeedupSample;
    use crate::experiment::data::SimulatedRuns;

    fn pool(program: &str, input: &str, simulated: bool) -> SamplePool {
        let key = crate::dataset::measurements::RunKey {
            program: program.into(),
            input: input.into(),
            run: 1,
            variant: "0".into(),
        };
        let sample = SpeedupSample {
            key,
            switch: "S".into(),
            partner: "1".into(),
            features: Vec::new(),
            speedup: 1.5,
            speedup_range: None,
            campaign: String::new(),
        };
        let mut p = SamplePool::of_samples(vec![sample], "S");
        if simulated {
            p.simulated = SimulatedRuns::all_of(p.samples.iter());
        }
        p
    }

    #[test]
    fn merged_pools_know_each_samples_origin_where_a_program_is_both_simulated_and_measured() {
        let m = merge(vec![
            pool("NB", "bodies=512", true),
            pool("NB", "bodies=50000", false),
            pool("BH", "bodies=512", true),
            pool("BH", "bodies=100000", false),
        ])
        .unwrap();
        let origin: Vec<bool> = m.samples.iter().map(|s| m.simulated.has(s)).collect();
        assert_eq!(origin, [true, false, true, false]);
        assert!(m.samples.iter().all(|s| s.campaign.is_empty()));
    }

    #[test]
    fn a_folder_twice_or_its_copy_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b, c) = (
            dir.path().join("a"),
            dir.path().join("b"),
            dir.path().join("c"),
        );
        for (d, time) in [(&a, "1.0"), (&b, "1.0"), (&c, "2.0")] {
            std::fs::create_dir(d).unwrap();
            let t = format!("program,input,run,variant,time_ms\nP,i,1,0,{time}\n");
            std::fs::write(d.join("timings.csv"), t).unwrap();
        }
        let e = refuse_repeats(&[a.clone(), a.join("../a")])
            .unwrap_err()
            .to_string();
        assert!(e.contains("named already"), "{e}");
        let e = refuse_repeats(&[a.clone(), b.clone()])
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("holds the same timings and measurements as"),
            "{e}"
        );
        assert!(refuse_repeats(&[a, c]).is_ok());
    }

    #[test]
    fn merged_pools_of_two_visits_to_one_gpu_tell_their_samples_apart() {
        let visit = |name: &str, input: &str| {
            let mut p = pool("BH", input, false);
            p.name = name.into();
            p
        };
        let m = merge(vec![
            visit("h200-bh-1", "bodies=100000"),
            visit("h200-bh-1-2", "bodies=100000"),
            visit("h100-bh-1", "bodies=50000"),
        ])
        .unwrap();
        let ids: Vec<String> = m.samples.iter().map(SpeedupSample::id).collect();
        assert_eq!(
            ids,
            [
                "BH/bodies=100000/1/0@h200-bh-1",
                "BH/bodies=100000/1/0@h200-bh-1-2",
                "BH/bodies=50000/1/0",
            ]
        );
    }
}
