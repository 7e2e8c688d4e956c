//! Which datasets `advise bench transfer` evaluates by default: those of `datasets/` with
//! counters, and the pairs of the same spaces on two GPUs or machines (leave one GPU out);
//! and how the NB/BH campaigns of two GPUs agree, for `advise experiment --exp fidelity`.

use std::path::{Path, PathBuf};

use advise::dataset::table::table_path;
use advise::error::Result;

/// Leave one GPU out: datasets whose counters train (GPU or machine A) and datasets of the
/// same spaces whose speedups are predicted (B), each side joined.
pub type GpuPair = (Vec<PathBuf>, Vec<PathBuf>);

/// Datasets of `datasets/` with counters (more than a handful of metrics) and GPU pairs: a
/// folder `X-<gpu>` with counters and `X-<other gpu>` with times only, or two folders with
/// counters, `X` and `X-<machine>`, paired both ways, or the project's campaigns of the same
/// program on two GPUs (`h200-nb-20261126` and `h100-nb-20261126`).
pub fn default_inputs(root: &Path) -> (Vec<PathBuf>, Vec<GpuPair>) {
    let mut with_counters = Vec::new();
    let mut times_only = Vec::new();
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    dirs.sort();
    for d in dirs {
        if table_path(&d, "timings").is_none() {
            continue;
        }
        match std::fs::read_to_string(d.join("PROVENANCE.md")) {
            Ok(p) if p.contains("counter measurements: 0") => times_only.push(d),
            _ => {
                if counters_of(&d) > 5 {
                    with_counters.push(d);
                } else {
                    times_only.push(d);
                }
            }
        }
    }
    let stem = |p: &Path| -> String {
        let name = folder_name(p);
        name.rsplit_once('-')
            .map(|(s, _)| s.to_string())
            .unwrap_or(name)
    };
    let mut pairs: Vec<GpuPair> = with_counters
        .iter()
        .flat_map(|a| {
            times_only
                .iter()
                .filter(|b| stem(b) == stem(a))
                .map(|b| (vec![a.clone()], vec![b.clone()]))
                .collect::<Vec<_>>()
        })
        .collect();
    // The same spaces measured on another machine, both with counters: `X` and `X-<machine>`
    // (XPlacer's AWS and Lassen V100s). Each machine's counters predict the other's speedups,
    // all programs measured on both joined into one evaluation per direction. A numbered
    // `X-2` is a second campaign on the same GPU (scripts/gpu/unpack.sh), not a machine.
    let mut home = Vec::new();
    let mut away: std::collections::BTreeMap<String, Vec<PathBuf>> = Default::default();
    for a in &with_counters {
        for b in &with_counters {
            if stem(b) == folder_name(a) && visit_of(&folder_name(b)).1 == 1 {
                let machine = folder_name(b)[folder_name(a).len()..].to_string();
                home.push((machine.clone(), a.clone()));
                away.entry(machine).or_default().push(b.clone());
            }
        }
    }
    for (machine, there) in away {
        let here: Vec<PathBuf> = home
            .iter()
            .filter(|(m, _)| *m == machine)
            .map(|(_, a)| a.clone())
            .collect();
        pairs.push((here.clone(), there.clone()));
        pairs.push((there, here));
    }
    pairs.extend(harness_gpu_pairs(&with_counters));
    (with_counters, pairs)
}

/// The project's own campaigns, `<gpu>-<program>-<yyyymmdd>[-<n>]` (datasets/h200-nb-20261126
/// and datasets/h100-nb-20261126): for each two GPUs that share a program, each GPU's counters
/// predict the other's speedups, every shared program joined into one evaluation per
/// direction.
pub fn harness_gpu_pairs(with_counters: &[PathBuf]) -> Vec<GpuPair> {
    use std::collections::BTreeMap;
    // gpu -> program -> folders
    let mut by_gpu: BTreeMap<String, BTreeMap<String, Vec<PathBuf>>> = BTreeMap::new();
    for d in with_counters {
        let name = folder_name(d);
        let parts: Vec<&str> = name.split('-').collect();
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        // A second campaign of the day is `<gpu>-<program>-<yyyymmdd>-<n>` (scripts/gpu/unpack.sh).
        let (gpu, program, date) = match parts[..] {
            [gpu, program, date] => (gpu, program, date),
            [gpu, program, date, n] if digits(n) => (gpu, program, date),
            _ => continue,
        };
        if date.len() == 8 && digits(date) {
            by_gpu
                .entry(gpu.to_string())
                .or_default()
                .entry(program.to_string())
                .or_default()
                .push(d.clone());
        }
    }
    let mut pairs = Vec::new();
    for (ga, pa) in &by_gpu {
        for (gb, pb) in &by_gpu {
            if ga == gb {
                continue;
            }
            let shared = |side: &BTreeMap<String, Vec<PathBuf>>, other: &BTreeMap<_, _>| {
                side.iter()
                    .filter(|(p, _)| other.contains_key(*p))
                    .flat_map(|(_, d)| d.iter().cloned())
                    .collect::<Vec<PathBuf>>()
            };
            let (a, b) = (shared(pa, pb), shared(pb, pa));
            if !a.is_empty() {
                pairs.push((a, b));
            }
        }
    }
    pairs
}

/// A dataset folder's own name ("" where the path has none).
fn folder_name(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default()
}

/// A campaign folder's name as (the first campaign's name, visit number): `X-<n>` after a
/// `<gpu>-<program>-<yyyymmdd>` name `X` is visit `n` of `X` (scripts/gpu/unpack.sh), any
/// other name visit 1 of itself.
fn visit_of(name: &str) -> (&str, u32) {
    let date = |s: &str| s.len() == 8 && s.bytes().all(|c| c.is_ascii_digit());
    match name.rsplit_once('-') {
        Some((base, n)) if n.len() < 8 && base.rsplit('-').next().is_some_and(date) => {
            n.parse().map_or((name, 1), |n| (base, n))
        }
        _ => (name, 1),
    }
}

/// Every two campaigns of one program on the same GPU, `X` and a numbered `X-<n>` or `X-<m>`
/// and `X-<n>` (m < n): how far a later visit reproduces an earlier one.
pub fn repeated_campaigns(dirs: &[PathBuf]) -> Vec<GpuPair> {
    let mut pairs = Vec::new();
    for a in dirs {
        for b in dirs {
            let (name_a, name_b) = (folder_name(a), folder_name(b));
            let ((base_a, visit_a), (base_b, visit_b)) = (visit_of(&name_a), visit_of(&name_b));
            if base_a == base_b && visit_a < visit_b {
                pairs.push((vec![a.clone()], vec![b.clone()]));
            }
        }
    }
    pairs
}

/// Distinct metrics in a dataset's measurements (first 20,000 rows).
fn counters_of(dir: &Path) -> usize {
    use std::io::BufRead;
    let Some(path) = table_path(dir, "measurements") else {
        return 0;
    };
    let Ok(reader) = advise::dataset::table::open(&path) else {
        return 0;
    };
    let mut names = std::collections::BTreeSet::new();
    for line in std::io::BufReader::new(reader)
        .lines()
        .take(20_000)
        .map_while(|l| l.ok())
    {
        if let Some(metric) = line.rsplit(',').nth(2) {
            names.insert(metric.to_string());
        }
    }
    names.len().saturating_sub(1)
}

pub use advise::dataset::table::is_simulated;

/// The project's campaigns of the same programs on two GPUs among `datasets` (named
/// `<gpu>-<program>-<date>`), each pair once, and two campaigns of one program on the same
/// GPU (`X`, `X-2`): their names and how the two agree on the inputs both have (a pair without
/// one is left out).
pub fn gpu_agreement(
    datasets: &[PathBuf],
) -> Result<Vec<(String, String, Vec<advise::experiment::fidelity::Agreement>)>> {
    use advise::experiment::pool_merge::load_pools;
    let names = |d: &[PathBuf]| {
        d.iter()
            .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().to_string()))
            .collect::<Vec<_>>()
            .join("+")
    };
    let mut out = Vec::new();
    let pairs = harness_gpu_pairs(datasets)
        .into_iter()
        .chain(repeated_campaigns(datasets));
    for (a, b) in pairs {
        let (na, nb) = (names(&a), names(&b));
        if na < nb {
            let rows =
                advise::experiment::fidelity::agreement_between(&load_pools(&a)?, &load_pools(&b)?);
            // Campaigns of other inputs (a second input's `X-<n>` folder) share no pair.
            if !rows.is_empty() {
                out.push((na, nb, rows));
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn campaigns_of_one_program_on_two_gpus_pair_both_ways_and_others_do_not() {
        let d = |n: &str| PathBuf::from(format!("datasets/{n}"));
        let found = [
            d("h100-bh-20261126"),
            d("h100-nb-20261126"),
            d("h200-nb-20261126"),
            d("h300-bh-20270101"),
            d("h300-bh-20270101-2"),
            d("h300-bh-20270101-old"),
            d("sim-qv100-nb"),
            d("ktt-pnpoly-rtx3090"),
        ];
        let pairs = harness_gpu_pairs(&found);
        assert_eq!(
            pairs,
            vec![
                (vec![d("h100-nb-20261126")], vec![d("h200-nb-20261126")]),
                (
                    vec![d("h100-bh-20261126")],
                    vec![d("h300-bh-20270101"), d("h300-bh-20270101-2")]
                ),
                (vec![d("h200-nb-20261126")], vec![d("h100-nb-20261126")]),
                (
                    vec![d("h300-bh-20270101"), d("h300-bh-20270101-2")],
                    vec![d("h100-bh-20261126")]
                ),
            ]
        );
        assert_eq!(
            repeated_campaigns(&found),
            vec![(vec![d("h300-bh-20270101")], vec![d("h300-bh-20270101-2")])]
        );
        let three = [
            d("x-bh-20270101-3"),
            d("x-bh-20270101"),
            d("x-bh-20270101-2"),
        ];
        assert_eq!(
            repeated_campaigns(&three),
            vec![
                (vec![d("x-bh-20270101")], vec![d("x-bh-20270101-3")]),
                (vec![d("x-bh-20270101")], vec![d("x-bh-20270101-2")]),
                (vec![d("x-bh-20270101-2")], vec![d("x-bh-20270101-3")]),
            ]
        );
        assert_eq!(visit_of("h200-bh-20261126"), ("h200-bh-20261126", 1));
        assert_eq!(visit_of("h200-bh-20261126-12"), ("h200-bh-20261126", 12));
        assert_eq!(visit_of("sim-qv100-nb"), ("sim-qv100-nb", 1));
    }
}
