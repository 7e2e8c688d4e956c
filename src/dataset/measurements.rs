//! `measurements.csv` and `timings.csv`: the tidy tables every later stage reads.
//!
//! The data model names the columns program, input, run, variant, kernel, metric, unit, value. Two
//! more are kept: `launch` (the profiler's launch ID) and `invocations` (nvprof's count of
//! launches a row summarises), because duration-weighted averages and nvprof totals cannot be
//! rebuilt without them.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::table;
use crate::error::Result;
use crate::profile::{Measurement, ProfileData};

/// What a run was: program, input label, replicate and variant (bit string or parameter
/// assignment). Parsed profiler files carry none of this, so the caller supplies it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct RunKey {
    pub program: String,
    pub input: String,
    pub run: u32,
    pub variant: String,
}

/// One row of `measurements.csv`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MeasurementRow {
    pub program: String,
    pub input: String,
    pub run: u32,
    pub variant: String,
    pub kernel: String,
    pub launch: u64,
    pub invocations: u64,
    pub metric: String,
    pub unit: String,
    pub value: f64,
}

#[cfg(test)]
impl MeasurementRow {
    /// One value of `metric` for a test: program "p", input "i", run 1, no variant, kernel
    /// "k", launch 0.
    pub(crate) fn for_test(metric: &str, value: f64) -> Self {
        MeasurementRow {
            program: "p".into(),
            input: "i".into(),
            run: 1,
            variant: String::new(),
            kernel: "k".into(),
            launch: 0,
            invocations: 1,
            metric: metric.into(),
            unit: String::new(),
            value,
        }
    }
}

impl MeasurementRow {
    pub fn new(key: &RunKey, m: &Measurement) -> Self {
        MeasurementRow {
            program: key.program.clone(),
            input: key.input.clone(),
            run: key.run,
            variant: key.variant.clone(),
            kernel: m.kernel.clone(),
            launch: m.launch,
            invocations: m.invocations,
            metric: m.metric.clone(),
            unit: m.unit.clone(),
            value: m.value,
        }
    }

    pub fn key(&self) -> RunKey {
        RunKey {
            program: self.program.clone(),
            input: self.input.clone(),
            run: self.run,
            variant: self.variant.clone(),
        }
    }
}

/// The rows of one parsed profiler file, labelled with `key`.
pub fn rows_of(key: &RunKey, data: &ProfileData) -> Vec<MeasurementRow> {
    data.measurements
        .iter()
        .map(|m| MeasurementRow::new(key, m))
        .collect()
}

/// Reads `measurements.csv` (or `.csv.gz`).
pub fn read_measurements(path: &Path) -> Result<Vec<MeasurementRow>> {
    table::read_rows(path)
}

/// One row of `timings.csv`: the program's own timing of a run, without the profiler.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TimingRow {
    pub program: String,
    pub input: String,
    pub run: u32,
    pub variant: String,
    pub time_ms: f64,
    #[serde(default)]
    pub repetitions: Option<u32>,
    #[serde(default)]
    pub checksum_ok: Option<bool>,
    /// Every repetition's time, `;`-separated (our campaigns record them; imports may not).
    #[serde(default)]
    pub times_ms: Option<String>,
}

impl TimingRow {
    /// The fastest and slowest repetition, where the row records repetitions.
    pub fn spread(&self) -> Option<(f64, f64)> {
        let times: Vec<f64> = self
            .times_ms
            .as_deref()?
            .split(';')
            .filter_map(|t| t.trim().parse().ok())
            .collect();
        if times.len() < 2 {
            return None;
        }
        let lo = times.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = times.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        Some((lo, hi))
    }
}

impl TimingRow {
    pub fn key(&self) -> RunKey {
        RunKey {
            program: self.program.clone(),
            input: self.input.clone(),
            run: self.run,
            variant: self.variant.clone(),
        }
    }
}

/// Reads `timings.csv` (or `.csv.gz`).
pub fn read_timings(path: &Path) -> Result<Vec<TimingRow>> {
    table::read_rows(path)
}
