//! A search space for simulated tuning: a recorded `TuningSpace` with every configuration's
//! parameter values turned into level indices (the position of the value among that
//! parameter's sorted values), so strategies can step to neighbouring values, models can split
//! on levels, and a configuration is looked up by its levels in O(1). "Evaluating" a
//! configuration reads its recorded time; a configuration that failed to compile or run counts
//! as evaluated and failed. Parameters that never change are dropped: they are the input.

use std::path::Path;
use std::sync::OnceLock;

use super::key_index::{prefetch_line, KeyIndex, KeyMap, Line};
use super::plane::Planes;
use super::space_files::SPACE_SUFFIXES;

use crate::dataset::import::run_noise::RunNoise;
use crate::dataset::import::space::TextMap;
use crate::dataset::import::{file_stem, read_space, TuningSpace};
use crate::dataset::measurements::plausible_time_ms;
use crate::error::{Error, Result};

mod corners;
mod repair_index;

pub(crate) use repair_index::ProbedParam;

/// A recorded space ready for search.
#[derive(Debug, Clone)]
pub struct SearchSpace {
    /// A short name for tables and charts (the file name without extensions).
    pub name: String,
    pub kernel: String,
    pub device: String,
    /// The tuning parameters (those with more than one value).
    pub params: Vec<String>,
    /// Each parameter's distinct values as text, numbers in numeric order.
    pub values: Vec<Vec<String>>,
    /// Each parameter's values as numbers: the value itself, or its level for text values.
    pub numeric: Vec<Vec<f64>>,
    /// How finely the recording tells its fastest configurations apart, where it keeps the
    /// runs each time averaged.
    pub run_noise: Option<RunNoise>,
    /// Whether the file was cut off and only its complete entries were read (a Kernel Tuner
    /// cache of an unfinished run, [`TuningSpace::cut_off`]): its optimum is theirs.
    pub cut_off: bool,
    /// Entries that repeat a configuration read before them: the first one's time stands.
    pub repeated: usize,
    /// Entries whose key a later entry of the file repeated, which replaced them (a Kernel
    /// Tuner cache read as Python reads it: [`TuningSpace::repeated_keys`]).
    pub repeated_keys: usize,
    /// Configurations with a value the Kernel Tuner cache's `tune_params` do not list, which
    /// Kernel Tuner's simulation mode never visits ([`TuningSpace::outside_tune_params`]).
    pub outside_tune_params: usize,
    /// Entries whose recorded time lies outside a picosecond to 30 years (old Kernel Tuner
    /// versions wrote 1e20 for a failure): counted as failed, by the file's reader
    /// ([`TuningSpace::unusable_times`]) or here.
    pub times_out_of_range: usize,
    /// Levels of configuration `i` are `levels[i * n_params .. (i + 1) * n_params]`.
    levels: Vec<u16>,
    /// Recorded time in ms; `None` for a failed configuration.
    times: Vec<Option<f64>>,
    /// Number of levels of each parameter.
    radix: Vec<usize>,
    /// Place value of each parameter's level in the mixed-radix key (the product of the
    /// radices after it), so that a neighbour's key is one addition away.
    strides: Vec<u64>,
    /// Mixed-radix key of a level vector -> configuration index.
    index: KeyIndex,
    /// Index and time of the fastest configuration.
    optimum: (usize, f64),
    /// Per parameter, the configurations that differ in that parameter alone, grouped. Built
    /// on first use (the repair neighbourhood's).
    lines: OnceLock<Vec<Line>>,
    /// How repairs look up each parameter's nearest levels. Built on first use.
    repair_params: OnceLock<repair_index::RepairParams>,
    /// Per pair of parameters, the configurations that differ in those two alone, where the
    /// space is sparse ([`SearchSpace::planes`]). Built on first use.
    planes: OnceLock<Option<Planes>>,
    /// The configurations whose every parameter is at its first or last level. Built on
    /// first use.
    corners: OnceLock<Vec<u32>>,
    /// The pairs of parameters that take the same list of values. Built on first use.
    twins: OnceLock<Vec<(usize, usize)>>,
}

impl SearchSpace {
    /// Reads a Kernel Tuner cache, T4 results file, KTT output, CLBlast tuner output or CSV
    /// file, telling them apart by content.
    pub fn load(path: &Path) -> Result<SearchSpace> {
        let name = file_stem(path);
        let lower = path.to_string_lossy().to_ascii_lowercase();
        let csv = SPACE_SUFFIXES
            .iter()
            .any(|e| e.starts_with(".csv") && lower.ends_with(e));
        let space = if csv {
            crate::dataset::import::refuse_binary(path)?;
            super::csv_space::read(path)?
        } else {
            match crate::dataset::import::guess_tool(path)? {
                Some(tool) => read_space(tool, path)?,
                None => {
                    return Err(Error::format(
                        path,
                        "not a Kernel Tuner cache or results list, T4 results file, KTT \
                         output, CLBlast tuner output or CSV file (expected `tune_params_keys` \
                         and `cache`, an array of results with a `time`, T4's `results` of \
                         `configuration`s, KTT's `Metadata` and `Results`, or CLBlast's \
                         `kernel_family` and `results`)",
                    ))
                }
            }
        };
        SearchSpace::from_tuning(name, &space).map_err(|e| match e {
            Error::Data(m) => Error::format(path, m),
            other => other,
        })
    }

    /// Builds the search view of an imported space.
    pub fn from_tuning(name: String, space: &TuningSpace) -> Result<SearchSpace> {
        // One level per number: `1`, `1.0` and `01` are one value of a parameter, so a
        // configuration written both ways is one configuration (the first entry stands); a
        // parameter all of whose values are one number does not vary.
        let mut varying = Vec::new();
        let mut values: Vec<Vec<String>> = Vec::new();
        let mut spellings: Vec<Vec<(String, usize)>> = Vec::new();
        for i in space.varying() {
            let (levels, texts) = level_values(space.values_of(i));
            if levels.len() > 1 {
                varying.push(i);
                values.push(levels);
                spellings.push(texts);
            }
        }
        if values.iter().any(|v| v.len() > u16::MAX as usize) {
            return Err(Error::Data(
                "a parameter has more than 65535 distinct values".into(),
            ));
        }
        let numeric = values
            .iter()
            .map(|vals| {
                let parsed: Option<Vec<f64>> = vals.iter().map(|v| v.parse().ok()).collect();
                parsed.unwrap_or_else(|| (0..vals.len()).map(|l| l as f64).collect())
            })
            .collect();
        let lookup: Vec<TextMap<String, u16>> = spellings
            .into_iter()
            .map(|texts| texts.into_iter().map(|(t, l)| (t, l as u16)).collect())
            .collect();
        let radix: Vec<usize> = values.iter().map(Vec::len).collect();
        radix
            .iter()
            .try_fold(1u64, |acc, &r| acc.checked_mul(r as u64))
            .ok_or_else(|| {
                let names: Vec<&str> = varying.iter().map(|&i| space.params[i].as_str()).collect();
                Error::Data(format!(
                    "too many parameter combinations to index (over 2^64): {} parameters vary \
                     ({}); where some of them are measurements, not tuning parameters (a CSV \
                     space reads every column but time_ms as one), drop those columns",
                    names.len(),
                    if names.len() > 6 {
                        format!("{}, ...", names[..6].join(", "))
                    } else {
                        names.join(", ")
                    }
                ))
            })?;
        let mut strides = vec![1u64; radix.len()];
        for j in (0..radix.len().saturating_sub(1)).rev() {
            strides[j] = strides[j + 1] * radix[j + 1] as u64;
        }
        let mut out = SearchSpace {
            name,
            kernel: space.kernel.clone(),
            device: space.device.clone(),
            params: varying.iter().map(|&i| space.params[i].clone()).collect(),
            values,
            numeric,
            run_noise: space.run_noise,
            cut_off: space.cut_off(),
            repeated: 0,
            repeated_keys: space.repeated_keys(),
            outside_tune_params: space.outside_tune_params(),
            times_out_of_range: space.unusable_times(),
            levels: Vec::with_capacity(space.configs.len() * varying.len()),
            times: Vec::with_capacity(space.configs.len()),
            radix,
            strides,
            index: KeyIndex::new(Vec::new(), 0),
            optimum: (0, f64::INFINITY),
            lines: OnceLock::new(),
            repair_params: OnceLock::new(),
            planes: OnceLock::new(),
            corners: OnceLock::new(),
            twins: OnceLock::new(),
        };
        let mut row = vec![0u16; varying.len()];
        let mut index: KeyMap<u32> =
            KeyMap::with_capacity_and_hasher(space.configs.len(), Default::default());
        for c in &space.configs {
            for (j, &i) in varying.iter().enumerate() {
                row[j] = lookup[j][c.values[i].as_str()];
            }
            let key = out.key(&row);
            if index.contains_key(&key) {
                out.repeated += 1; // a duplicate entry: the first measurement stands
                continue;
            }
            // A time outside a picosecond to 30 years is a failure's marker (old Kernel
            // Tuner versions wrote 1e20) or damage, not a measurement.
            let time = c.time_ms.filter(|&t| plausible_time_ms(t));
            out.times_out_of_range += usize::from(c.time_ms.is_some() && time.is_none());
            let id = out.times.len();
            index.insert(key, id as u32);
            out.levels.extend_from_slice(&row);
            out.times.push(time);
            if let Some(t) = time {
                if t < out.optimum.1 {
                    out.optimum = (id, t);
                }
            }
        }
        out.index = KeyIndex::new(index.into_iter().collect(), out.key_bound());
        if out.times.is_empty() {
            return Err(Error::Data(
                "the space has no configurations: the file holds no entries".into(),
            ));
        }
        if !out.optimum.1.is_finite() {
            return Err(Error::Data(
                "no configuration of the space has a measured time: every entry failed, or \
                 recorded a time that is zero, negative, not a number, or outside 1e-9 to \
                 1e12 ms (old Kernel Tuner versions wrote 1e20 for a failure)"
                    .into(),
            ));
        }
        Ok(out)
    }

    /// Number of configurations.
    pub fn len(&self) -> usize {
        self.times.len()
    }

    pub fn is_empty(&self) -> bool {
        self.times.is_empty()
    }

    pub fn n_params(&self) -> usize {
        self.params.len()
    }

    /// The levels of configuration `id`.
    pub fn levels(&self, id: usize) -> &[u16] {
        let p = self.n_params();
        &self.levels[id * p..(id + 1) * p]
    }

    /// Asks the processor to fetch configuration `id`'s levels into its cache ahead of a read:
    /// a search reads the levels of neighbours scattered over a large space's table (6.8 MB
    /// on the UCI SGEMM space), and a pass of these over a batch lets the misses overlap.
    #[inline]
    pub(crate) fn prefetch_levels(&self, id: usize) {
        if let Some(l) = self.levels.get(id * self.n_params()) {
            prefetch_line((l as *const u16).cast());
        }
    }

    /// All levels, row-major (configuration by parameter).
    pub fn all_levels(&self) -> &[u16] {
        &self.levels
    }

    /// Number of levels of each parameter.
    pub fn radix(&self) -> &[usize] {
        &self.radix
    }

    /// The recorded time of `id`; `None` if it failed.
    pub fn time(&self, id: usize) -> Option<f64> {
        self.times[id]
    }

    /// The configuration with these levels, if the space holds it.
    pub fn find(&self, levels: &[u16]) -> Option<usize> {
        self.find_key(self.key(levels))
    }

    /// The configuration whose mixed-radix key is `key`, if the space holds it.
    pub(crate) fn find_key(&self, key: u64) -> Option<usize> {
        self.index.get(key)
    }

    /// Whether the space holds a configuration whose mixed-radix key is `key`.
    pub(crate) fn has_key(&self, key: u64) -> bool {
        self.index.contains(key)
    }

    /// The mixed-radix key of configuration `id`.
    pub(crate) fn key_of(&self, id: usize) -> u64 {
        self.key(self.levels(id))
    }

    /// The pairs of parameters (first index smaller) that take the same list of at least three
    /// values, as the x and y sizes of a two-dimensional tile often do (two on/off switches
    /// are not such a pair).
    pub(crate) fn twins(&self) -> &[(usize, usize)] {
        self.twins.get_or_init(|| {
            let p = self.n_params();
            (0..p)
                .flat_map(|a| (a + 1..p).map(move |b| (a, b)))
                .filter(|&(a, b)| self.values[a].len() > 2 && self.values[a] == self.values[b])
                .collect()
        })
    }

    /// One more than the largest key: the number of level combinations.
    pub(crate) fn key_bound(&self) -> u64 {
        self.strides
            .first()
            .map_or(1, |&s| s * self.radix[0] as u64)
    }

    /// How much parameter `j`'s level adds to a key per level.
    pub(crate) fn stride(&self, j: usize) -> u64 {
        self.strides[j]
    }

    /// The fastest configuration and its time.
    pub fn optimum(&self) -> (usize, f64) {
        self.optimum
    }

    /// Number of configurations without a time.
    pub fn failed(&self) -> usize {
        self.times.iter().filter(|t| t.is_none()).count()
    }

    /// `PARAM=value,...` for a configuration; where no parameter varies (a space of one
    /// configuration), says so.
    pub fn describe(&self, id: usize) -> String {
        if self.params.is_empty() {
            return "the only configuration: no parameter varies".into();
        }
        self.levels(id)
            .iter()
            .enumerate()
            .map(|(j, &l)| format!("{}={}", self.params[j], self.values[j][l as usize]))
            .collect::<Vec<_>>()
            .join(",")
    }

    /// The configuration as (parameter, value) pairs.
    pub fn assignment(&self, id: usize) -> Vec<(String, String)> {
        self.levels(id)
            .iter()
            .enumerate()
            .map(|(j, &l)| (self.params[j].clone(), self.values[j][l as usize].clone()))
            .collect()
    }

    fn key(&self, levels: &[u16]) -> u64 {
        levels
            .iter()
            .zip(&self.strides)
            .map(|(&l, &s)| l as u64 * s)
            .sum()
    }
}

/// A parameter's levels from its distinct texts in [`TuningSpace::values_of`]'s order
/// (numbers in numeric order, then text): texts of one number (`1`, `1.0`, `01`) are one
/// level, spelt as the shortest of them. Returns the levels and each text with its level.
fn level_values(texts: Vec<String>) -> (Vec<String>, Vec<(String, usize)>) {
    let mut levels: Vec<String> = Vec::with_capacity(texts.len());
    let mut of_text = Vec::with_capacity(texts.len());
    let mut last: Option<f64> = None;
    for t in texts {
        let x = number(&t);
        match (x, last, levels.last_mut()) {
            (Some(x), Some(l), Some(kept)) if x == l => {
                if t.len() < kept.len() {
                    *kept = t.clone();
                }
            }
            _ => levels.push(t.clone()),
        }
        last = x;
        of_text.push((t, levels.len() - 1));
    }
    (levels, of_text)
}

/// A value's number, where it is one (not NaN, which equals no number, itself included).
fn number(t: &str) -> Option<f64> {
    t.parse::<f64>().ok().filter(|x| !x.is_nan())
}

#[cfg(test)]
mod tests;
