//! A search space for simulated tuning: a recorded `TuningSpace` with every configuration's
//! parameter values turned into level indices (the position of the value among that
//! parameter's sorted values), so strategies can step to neighbouring values, models can split
//! on levels, and a configuration is looked up by its levels in O(1). "Evaluating" a
//! configuration reads its recorded time; a configuration that failed to compile or run counts
//! as evaluated and failed. Parameters that never change are dropped: they are the input.

use std::collections::HashMap;
use std::path::Path;
use std::sync::OnceLock;

use super::key_index::{prefetch_line, KeyIndex, KeyMap, Line};
use super::plane::{self, Planes};

use crate::dataset::import::{file_stem, read_space, TuningSpace};
use crate::error::{Error, Result};

/// Parameters of at most this many levels are not looked up through their lines by a repair
/// where the space's keys are in a bitmap: a bit test per level costs less than a line's
/// hashed lookup.
pub(crate) const PROBED_LEVELS: usize = 4;

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
    /// Reads a Kernel Tuner cache, T4 results file, KTT output or CSV file, telling them apart
    /// by content.
    pub fn load(path: &Path) -> Result<SearchSpace> {
        let name = file_stem(path);
        let lower = path.to_string_lossy().to_ascii_lowercase();
        let space = if lower.ends_with(".csv") || lower.ends_with(".csv.gz") {
            super::csv_space::read(path)?
        } else {
            match crate::dataset::import::guess_tool(path)? {
                Some(tool) => read_space(tool, path)?,
                None => {
                    return Err(Error::format(
                        path,
                        "not a Kernel Tuner cache or results list, T4 results file, KTT \
                         output or CSV file (expected `tune_params_keys` and `cache`, an array \
                         of results with a `time`, T4's `results` of `configuration`s, or \
                         KTT's `Metadata` and `Results`)",
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
        let varying = space.varying();
        let values: Vec<Vec<String>> = varying.iter().map(|&i| space.values_of(i)).collect();
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
        let lookup: Vec<HashMap<String, u16>> = values
            .iter()
            .map(|vals| {
                vals.iter()
                    .enumerate()
                    .map(|(l, v)| (v.clone(), l as u16))
                    .collect()
            })
            .collect();
        let radix: Vec<usize> = values.iter().map(Vec::len).collect();
        radix
            .iter()
            .try_fold(1u64, |acc, &r| acc.checked_mul(r as u64))
            .ok_or_else(|| {
                Error::Data("too many parameter combinations to index (over 2^64)".into())
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
            levels: Vec::with_capacity(space.configs.len() * varying.len()),
            times: Vec::with_capacity(space.configs.len()),
            radix,
            strides,
            index: KeyIndex::new(Vec::new(), 0),
            optimum: (0, f64::INFINITY),
            lines: OnceLock::new(),
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
                continue; // a duplicate entry: the first measurement stands
            }
            let time = c.time_ms.filter(|t| t.is_finite() && *t > 0.0);
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
            return Err(Error::Data("the space has no configurations".into()));
        }
        if !out.optimum.1.is_finite() {
            return Err(Error::Data(
                "no configuration of the space has a measured time".into(),
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

    /// The configurations whose key, without parameter `j`'s place, is `masked`: (level of `j`,
    /// index) in increasing level.
    pub(crate) fn line(&self, j: usize, masked: u64) -> &[(u16, u32)] {
        self.lines()[j].get(masked)
    }

    /// Asks the processor to fetch what [`SearchSpace::line`] of `(j, masked)` reads first.
    #[inline]
    pub(crate) fn prefetch_line_group(&self, j: usize, masked: u64) {
        self.lines()[j].prefetch(masked);
    }

    /// Builds the indexes that repairs look up, lines and planes (once; the first repair does
    /// it otherwise), so that a benchmark can time it apart from the searches.
    pub fn index_for_repairs(&self) {
        self.lines();
        self.planes();
    }

    /// Whether the repairs' lines are built.
    #[cfg(test)]
    pub(crate) fn indexed_for_repairs(&self) -> bool {
        self.lines.get().is_some()
    }

    /// The planes of every pair of parameters where the space holds under
    /// 1/[`plane::SPARSE_SHARE`] of its parameters' combinations and the planes hold at most
    /// [`plane::MAX_MEMBERS`] members in all; `None` elsewhere, where the lines serve.
    pub(crate) fn planes(&self) -> Option<&Planes> {
        self.planes
            .get_or_init(|| {
                let p = self.n_params();
                let pairs = p * p.saturating_sub(1) / 2;
                let sparse =
                    (self.len() as u64).saturating_mul(plane::SPARSE_SHARE) < self.key_bound();
                (sparse && pairs.saturating_mul(self.len()) <= plane::MAX_MEMBERS)
                    .then(|| Planes::new(self))
            })
            .as_ref()
    }

    /// The configurations whose every parameter is at its first or last level (the corners
    /// of the box the parameters span that the space holds).
    pub(crate) fn corners(&self) -> &[u32] {
        self.corners.get_or_init(|| {
            (0..self.len())
                .filter(|&i| {
                    self.levels(i)
                        .iter()
                        .zip(&self.radix)
                        .all(|(&l, &r)| l == 0 || l as usize + 1 == r)
                })
                .map(|i| i as u32)
                .collect()
        })
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

    /// Whether a repair finds parameter `k`'s nearest levels by looking up each of its levels'
    /// keys in the space's bitmap ([`PROBED_LEVELS`]) rather than through its line.
    pub(crate) fn probes_levels(&self, k: usize) -> bool {
        self.index.is_bitmap() && self.radix[k] <= PROBED_LEVELS
    }

    fn lines(&self) -> &[Line] {
        self.lines.get_or_init(|| {
            (0..self.n_params())
                .map(|j| match self.probes_levels(j) {
                    true => Line::empty(),
                    false => Line::new(self, j),
                })
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

    /// `PARAM=value,...` for a configuration.
    pub fn describe(&self, id: usize) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::import::Config;

    pub(crate) fn tiny() -> SearchSpace {
        let cfg = |v: &[&str], t: Option<f64>| Config {
            values: v.iter().map(|s| s.to_string()).collect(),
            time_ms: t,
            failure: t.is_none().then(|| "CompilationFailedConfig".into()),
            counters: vec![],
        };
        let t = TuningSpace {
            tool: "test",
            device: "gpu".into(),
            kernel: "k".into(),
            params: vec!["N".into(), "bx".into(), "ro".into()],
            configs: vec![
                cfg(&["1", "32", "0"], Some(4.0)),
                cfg(&["1", "64", "0"], Some(2.0)),
                cfg(&["1", "128", "1"], None),
                cfg(&["1", "64", "1"], Some(1.5)),
                cfg(&["1", "64", "1"], Some(9.0)),
            ],
            notes: vec![],
        };
        SearchSpace::from_tuning("tiny".into(), &t).unwrap()
    }

    #[test]
    fn levels_lookup_and_optimum() {
        let s = tiny();
        assert_eq!(s.params, vec!["bx", "ro"]);
        assert_eq!(s.len(), 4, "duplicate dropped");
        assert_eq!(s.levels(1), &[1, 0]);
        assert_eq!(s.find(&[1, 1]), Some(3));
        assert_eq!(s.find(&[0, 1]), None);
        assert_eq!(s.optimum(), (3, 1.5));
        assert_eq!(s.time(2), None);
        assert_eq!(s.failed(), 1);
        assert_eq!(s.describe(3), "bx=64,ro=1");
        assert_eq!(s.numeric[0], vec![32.0, 64.0, 128.0]);
    }

    #[test]
    fn corners_hold_every_parameter_at_an_end() {
        // bx 32/64/128, ro 0/1: (32, 0) and (128, 1) are corners, failed or not; the
        // configurations with bx = 64 are not, and (32, 1), (128, 0) are not in the space.
        assert_eq!(tiny().corners(), &[0, 2]);
    }

    #[test]
    fn names_without_extensions() {
        assert_eq!(file_stem(Path::new("a/pnpoly__X.json.gz")), "pnpoly__X");
        assert_eq!(file_stem(Path::new("b.csv")), "b");
        assert_eq!(file_stem(Path::new("c/coulomb.t4.json")), "coulomb");
    }
}
