//! The samples an experiment works on: a dataset folder (measurements + timings, and for
//! imported spaces switches.csv) turned into one pool of speedup samples over all switches.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::data_switches::{switches_of, why_nothing_pairs};
use crate::dataset::families;
use crate::dataset::features::{build, FeatureSettings, FeatureTable, Normalize, View};
use crate::dataset::measurements::{read_measurements, read_timings};
use crate::dataset::samples::{check_bit_variants, pair, SpeedupSample, Switch};
use crate::dataset::table::table_path;
use crate::error::{Error, Result};

/// All speedup samples of a dataset, with the feature columns they share.
#[derive(Debug, Clone)]
pub struct SamplePool {
    pub name: String,
    pub columns: Vec<String>,
    pub samples: Vec<SpeedupSample>,
    /// Switch names in the order they were paired.
    pub switches: Vec<String>,
    /// The metric counts were divided by, if any.
    pub normalizer: Option<String>,
    /// Each switch's optimization family (dataset::families); switches without one are
    /// left out of matching across programs.
    pub families: BTreeMap<String, Option<String>>,
    /// The samples that come from a simulator (a dataset folder with simulator.json).
    pub simulated: SimulatedRuns,
    /// Registers per thread and GPUs, for the step features' occupancy.
    pub launch: super::launch::LaunchFacts,
}

/// Which samples of a pool a simulator produced, by program and input: GPGPU-Sim campaigns
/// and GPU campaigns of the same program run different inputs (the simulator's are hundreds
/// of times smaller), so the pair tells a sample's origin where programs are shared.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SimulatedRuns {
    runs: BTreeSet<(String, String)>,
}

impl SimulatedRuns {
    /// Every one of `samples` is simulated.
    pub fn all_of<'a>(samples: impl Iterator<Item = &'a SpeedupSample>) -> Self {
        SimulatedRuns {
            runs: samples
                .map(|s| (s.key.program.clone(), s.key.input.clone()))
                .collect(),
        }
    }

    /// Adds `other`'s simulated runs (a merged pool's).
    pub fn extend(&mut self, other: SimulatedRuns) {
        self.runs.extend(other.runs);
    }

    /// Whether `sample` came from a simulator.
    pub fn has(&self, sample: &SpeedupSample) -> bool {
        self.runs
            .iter()
            .any(|(p, i)| *p == sample.key.program && *i == sample.key.input)
    }
}

impl SamplePool {
    /// A pool of `samples` of the one switch `switch`, no columns, no family: for tests that
    /// build samples by hand.
    #[cfg(test)]
    pub(crate) fn of_samples(
        samples: Vec<crate::dataset::samples::SpeedupSample>,
        switch: &str,
    ) -> Self {
        SamplePool {
            name: "synthetic".into(),
            columns: Vec::new(),
            samples,
            switches: vec![switch.into()],
            normalizer: None,
            families: BTreeMap::new(),
            simulated: Default::default(),
            launch: Default::default(),
        }
    }

    /// The family of a switch, if it has one.
    pub fn family(&self, switch: &str) -> Option<&str> {
        self.families.get(switch).and_then(|f| f.as_deref())
    }

    /// Switches that belong to no family: they cannot be matched across programs.
    pub fn unmatched_switches(&self) -> Vec<&str> {
        self.switches
            .iter()
            .filter(|s| self.family(s).is_none())
            .map(String::as_str)
            .collect()
    }

    /// Indices of the samples of one switch.
    pub fn of_switch(&self, switch: &str) -> Vec<usize> {
        (0..self.samples.len())
            .filter(|&i| self.samples[i].switch == switch)
            .collect()
    }

    /// Distinct (program, input, run) tuples, in order of appearance.
    pub fn tuples(&self) -> Vec<(String, String, u32)> {
        let mut out: Vec<(String, String, u32)> = Vec::new();
        for s in &self.samples {
            let t = (s.key.program.clone(), s.key.input.clone(), s.key.run);
            if !out.contains(&t) {
                out.push(t);
            }
        }
        out
    }
}

/// Reads a dataset folder. NB/BH rows pair on their six bits; other programs on the switches
/// listed in `switches.csv`. Counts are normalized by active cycles where the data has them,
/// else by kernel duration (imported KTT spaces), else not at all; the pool says which.
pub fn load_pool(dir: &Path) -> Result<SamplePool> {
    load_pool_view(dir, View::Counters)
}

/// `load_pool` with the feature view chosen.
pub fn load_pool_view(dir: &Path, view: View) -> Result<SamplePool> {
    crate::dataset::table::require_folder(
        dir,
        "a dataset folder (datasets/..., or one that advise import or advise collect wrote)",
    )?;
    // A table the folder lacks is a missing file (exit 5), as a missing folder is.
    let lacking = |name: &str| {
        Error::missing(
            dir,
            format!(
                "no {name}.csv(.gz); is this a dataset folder (advise import / advise collect)?"
            ),
        )
    };
    let m = table_path(dir, "measurements").ok_or_else(|| lacking("measurements"))?;
    let t = table_path(dir, "timings").ok_or_else(|| lacking("timings"))?;
    let timings = read_timings(&t)?;
    // A times-only dataset (a tuning space imported without counters) has an empty
    // measurements table: its samples have no feature but the step features can be added.
    let measurements = if is_empty(&m)? {
        Vec::new()
    } else {
        read_measurements(&m)?
    };
    let mut table = measurements.is_empty().then(|| times_only(&timings));
    for normalizer in [None, Some("gpu__time_duration.sum")] {
        if table.is_some() {
            break;
        }
        let settings = FeatureSettings {
            normalizer: normalizer.map(str::to_string),
            view,
            ..FeatureSettings::default()
        };
        match build(&measurements, &timings, &settings) {
            Ok(tb) => {
                table = Some(tb);
                break;
            }
            Err(Error::MissingMetric { .. }) => continue,
            Err(e) => return Err(e),
        }
    }
    let table = match table {
        Some(t) => t,
        None => {
            let settings = FeatureSettings {
                normalize: Normalize::None,
                view,
                ..FeatureSettings::default()
            };
            build(&measurements, &timings, &settings)?
        }
    };
    check_bit_variants(&table).map_err(|e| match e {
        Error::Data(m) => Error::format(dir, m),
        e => e,
    })?;
    let (switches, given) = switches_of(dir, &table)?;
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    let mut pool = pool_from(name.clone(), &table, &switches)
        .map_err(|e| why_nothing_pairs(e, &name, &table, &switches))?;
    pool.families = pool
        .switches
        .iter()
        .map(|s| {
            let g = given.get(s).map(String::as_str);
            (s.clone(), families::of_switch(s, g))
        })
        .collect();
    if crate::dataset::table::is_simulated(dir) {
        pool.simulated = SimulatedRuns::all_of(pool.samples.iter());
    }
    let runs = pool
        .samples
        .iter()
        .map(|s| (s.key.program.as_str(), s.key.input.as_str()));
    pool.launch = super::launch::LaunchFacts::read(dir, &measurements, runs)?;
    Ok(pool)
}

/// Whether a (possibly gzipped) table file holds no byte once decompressed.
fn is_empty(path: &Path) -> Result<bool> {
    use std::io::Read;
    let mut byte = [0u8; 1];
    let n = crate::dataset::table::open(path)?
        .read(&mut byte)
        .map_err(|e| Error::io(path, e))?;
    Ok(n == 0)
}

/// A feature table without columns: one row per timed run.
fn times_only(timings: &[crate::dataset::measurements::TimingRow]) -> FeatureTable {
    FeatureTable {
        columns: Vec::new(),
        rows: timings
            .iter()
            .map(|t| crate::dataset::features::FeatureRow {
                key: t.key(),
                kernel: None,
                time_ms: Some(t.time_ms),
                time_spread: t.spread(),
                values: Vec::new(),
            })
            .collect(),
        normalizer: None,
    }
}

/// Pairs a feature table on the given switches.
pub fn pool_from(name: String, table: &FeatureTable, switches: &[Switch]) -> Result<SamplePool> {
    let mut samples = Vec::new();
    let mut names = Vec::new();
    for s in switches {
        let set = pair(table, s)?;
        if !set.samples.is_empty() {
            // NB and BH share FTZ and RSQRT: one name, samples of both programs.
            if !names.contains(&s.to_string()) {
                names.push(s.to_string());
            }
            samples.extend(set.samples);
        }
    }
    if samples.is_empty() {
        return Err(Error::Data(format!(
            "{name}: no speedup samples (no variant has a timed partner)"
        )));
    }
    Ok(SamplePool {
        name,
        columns: table.columns.clone(),
        samples,
        switches: names,
        normalizer: table.normalizer.clone(),
        families: BTreeMap::new(),
        simulated: Default::default(),
        launch: Default::default(),
    })
}

/// The programs of a feature table's rows, sorted, each once.
pub(super) fn programs_of(table: &FeatureTable) -> Vec<&str> {
    let mut programs: Vec<&str> = table.rows.iter().map(|r| r.key.program.as_str()).collect();
    programs.sort_unstable();
    programs.dedup();
    programs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_folder_and_a_file_are_told_apart_from_a_folder_without_tables() {
        let dir = tempfile::tempdir().unwrap();
        let said = |p: &Path| load_pool(p).unwrap_err().to_string();
        assert!(said(&dir.path().join("nothing")).contains("nothing: no such folder"));
        let missing = load_pool(&dir.path().join("nothing")).unwrap_err();
        assert_eq!(missing.exit_code(), 5);
        let file = dir.path().join("measurements.csv");
        std::fs::write(&file, "program\n").unwrap();
        assert!(said(&file).contains("a file, not a folder"));
        let empty = dir.path().join("empty");
        std::fs::create_dir(&empty).unwrap();
        assert!(said(&empty).contains("no measurements.csv(.gz)"));
        assert_eq!(load_pool(&empty).unwrap_err().exit_code(), 5);
    }

    /// A real imported space (datasets/ktt-pnpoly-rtx3090) without its switches.csv, or with
    /// one naming a parameter its variants lack, says why nothing pairs.
    #[test]
    fn a_folder_without_usable_switches_says_why_nothing_pairs() {
        let real = Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/ktt-pnpoly-rtx3090");
        let dir = tempfile::tempdir().unwrap();
        let copy = dir.path().join("pnpoly");
        std::fs::create_dir(&copy).unwrap();
        for f in ["measurements.csv.gz", "timings.csv"] {
            std::fs::copy(real.join(f), copy.join(f)).unwrap();
        }
        let said = || load_pool(&copy).unwrap_err().to_string();
        let e = said();
        assert!(e.contains("nothing to pair on"), "{e}");
        assert!(e.contains("no switches.csv"), "{e}");
        std::fs::write(
            copy.join("switches.csv"),
            "program,param,from,to\nPnpoly,BLOCK_SIZE,32,64\n",
        )
        .unwrap();
        let e = said();
        assert!(
            e.contains("switches.csv:2: parameter `BLOCK_SIZE` is in no variant"),
            "{e}"
        );
        // Beside switches that pair, too.
        let good = std::fs::read_to_string(real.join("switches.csv")).unwrap();
        std::fs::write(
            copy.join("switches.csv"),
            format!("{good}Pnpoly,BLOCK_SIZE,32,64\n"),
        )
        .unwrap();
        let e = said();
        assert!(e.contains("parameter `BLOCK_SIZE` is in no variant"), "{e}");
        // A row of another program, or of a value no variant has, pairs nothing: said too.
        let first = good.lines().nth(1).unwrap();
        let other = first.replacen("Pnpoly", "Nbody", 1);
        std::fs::write(copy.join("switches.csv"), format!("{good}{other}\n")).unwrap();
        let e = said();
        assert!(
            e.contains("program `Nbody` is not in the measurements"),
            "{e}"
        );
        let (param, from) = {
            let cells: Vec<&str> = first.split(',').collect();
            (cells[1], cells[2])
        };
        std::fs::write(
            copy.join("switches.csv"),
            format!("{good}Pnpoly,{param},{from},123457\n"),
        )
        .unwrap();
        let e = said();
        assert!(
            e.contains(&format!("value `123457` of `{param}` is in no variant")),
            "{e}"
        );
        std::fs::write(copy.join("switches.csv"), "param,from\nBLOCK_SIZE,32\n").unwrap();
        assert!(said().contains("switches.csv:1: the header lacks the column(s) program, to"));
        std::fs::copy(real.join("switches.csv"), copy.join("switches.csv")).unwrap();
        assert!(!load_pool(&copy).unwrap().samples.is_empty());
    }
}
