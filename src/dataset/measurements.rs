//! `measurements.csv` and `timings.csv`: the tidy tables every later stage reads.
//!
//! The data model names the columns program, input, run, variant, kernel, metric, unit, value. Two
//! more are kept: `launch` (the profiler's launch ID) and `invocations` (nvprof's count of
//! launches a row summarises), because duration-weighted averages and nvprof totals cannot be
//! rebuilt without them.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::table;
use crate::error::{Error, Result};
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

/// Reads `measurements.csv` (or `.csv.gz`). A value that is not a finite number at least 0 is an
/// error naming its line: every counter, rate and setting a profiler reports is, and an inf or
/// a negative count would pass into the active-cycle normalization and every model unseen.
pub fn read_measurements(path: &Path) -> Result<Vec<MeasurementRow>> {
    let rows: Vec<MeasurementRow> = table::read_rows_with(
        path,
        &[
            "program",
            "input",
            "run",
            "variant",
            "kernel",
            "launch",
            "invocations",
            "metric",
            "unit",
            "value",
        ],
    )?;
    if let Some((i, row)) = rows
        .iter()
        .enumerate()
        .find(|(_, r)| !(r.value.is_finite() && r.value >= 0.0))
    {
        // The header is line 1 and the project's tables hold one row a line.
        return Err(Error::parse(
            path,
            i + 2,
            format!(
                "value {} of metric {}: a measurement must be a finite number, 0 or more",
                row.value, row.metric
            ),
        ));
    }
    refuse_repeated_keys(path, &rows)?;
    Ok(rows)
}

/// A measurement whose (program, input, run, variant, kernel, launch, metric) another row
/// already has is an error naming both lines: the features would add the two values up (two
/// files parsed under one label, or one table appended to itself).
fn refuse_repeated_keys(path: &Path, rows: &[MeasurementRow]) -> Result<()> {
    use std::collections::hash_map::{DefaultHasher, Entry};
    use std::collections::HashMap;
    use std::hash::{Hash, Hasher};
    fn key(r: &MeasurementRow) -> (&str, &str, u32, &str, &str, u64, &str) {
        (
            &r.program, &r.input, r.run, &r.variant, &r.kernel, r.launch, &r.metric,
        )
    }
    // Hashes first, so a table of millions of rows costs two words a row; two different keys
    // with one hash (all but never) send the check to a map of the keys themselves.
    let mut seen: HashMap<u64, usize> = HashMap::with_capacity(rows.len());
    for (i, row) in rows.iter().enumerate() {
        let mut h = DefaultHasher::new();
        key(row).hash(&mut h);
        match seen.entry(h.finish()) {
            Entry::Vacant(v) => {
                v.insert(i);
            }
            Entry::Occupied(o) if key(&rows[*o.get()]) == key(row) => {
                return Err(repeated(path, rows, *o.get(), i))
            }
            Entry::Occupied(_) => {
                let mut by_key = HashMap::with_capacity(rows.len());
                for (i, row) in rows.iter().enumerate() {
                    if let Some(first) = by_key.insert(key(row), i) {
                        return Err(repeated(path, rows, first, i));
                    }
                }
                return Ok(());
            }
        }
    }
    Ok(())
}

/// The error for row `again` repeating row `first`'s key.
fn repeated(path: &Path, rows: &[MeasurementRow], first: usize, again: usize) -> Error {
    let row = &rows[again];
    Error::parse(
        path,
        again + 2,
        format!(
            "repeats line {}: program {}, input {}, run {}, variant {}, kernel {}, launch {}, \
             metric {} again; give each profile of the same variant its own --run when \
             parsing, and do not append a table to itself",
            first + 2,
            row.program,
            row.input,
            row.run,
            row.variant,
            row.kernel,
            row.launch,
            row.metric
        ),
    )
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
    /// The fastest and slowest repetition, where the row records two or more.
    pub fn spread(&self) -> Option<(f64, f64)> {
        self.repetition_range(2)
    }

    /// The fastest and slowest of the repetitions `times_ms` records that read as numbers,
    /// where there are at least `least` of them.
    fn repetition_range(&self, least: usize) -> Option<(f64, f64)> {
        let times: Vec<f64> = self
            .times_ms
            .as_deref()?
            .split(';')
            .filter_map(|t| t.trim().parse().ok())
            .collect();
        if times.len() < least.max(1) {
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

/// The shortest and longest time a timings table holds, in ms: a picosecond and 30 years.
/// Outside them a time is damaged (1e308 or 1e-320 made infinite and denormal speedups that
/// reached the advice as "NaNx").
pub const TIME_MS_LEAST: f64 = 1e-9;
pub const TIME_MS_MOST: f64 = 1e12;

/// Whether `t` ms is a time a table or a tuning space can hold: from a picosecond to 30 years
/// (NaN, infinities, 0 and negative numbers are not).
pub fn plausible_time_ms(t: f64) -> bool {
    (TIME_MS_LEAST..=TIME_MS_MOST).contains(&t)
}

/// Reads `timings.csv` (or `.csv.gz`). A time that is not a positive finite number (0, a
/// negative one, NaN, inf) or lies outside 1e-9..1e12 ms (a picosecond to 30 years) is an
/// error naming its line: a speedup from it would be infinite, zero or NaN, and a sample that
/// silently fell out or went infinite would change every accuracy computed on the table. Failed runs are left out of the table, not recorded as 0.
pub fn read_timings(path: &Path) -> Result<Vec<TimingRow>> {
    let rows: Vec<TimingRow> =
        table::read_rows_with(path, &["program", "input", "run", "variant", "time_ms"])?;
    if let Some((i, row)) = rows
        .iter()
        .enumerate()
        .find(|(_, r)| !plausible_time_ms(r.time_ms))
    {
        // The header is line 1 and the project's tables hold one row a line.
        return Err(Error::parse(
            path,
            i + 2,
            format!(
                "time_ms {}: a kernel time must be a positive number of milliseconds from \
                 {TIME_MS_LEAST:e} to {TIME_MS_MOST:e} (a failed run is left out of the table)",
                crate::number_format::fmt_sig(row.time_ms, 6)
            ),
        ));
    }
    // The run's time is one of its repetitions' (the program reports their median): one
    // outside them was edited or belongs to another run.
    let outside = |r: &TimingRow| {
        let (lo, hi) = r.repetition_range(1)?;
        let inside = lo * (1.0 - 1e-9) <= r.time_ms && r.time_ms <= hi * (1.0 + 1e-9);
        (!inside).then_some((lo, hi))
    };
    if let Some((i, (lo, hi))) = rows
        .iter()
        .enumerate()
        .find_map(|(i, r)| Some((i, outside(r)?)))
    {
        return Err(Error::parse(
            path,
            i + 2,
            format!(
                "time_ms {} lies outside its repetitions' times (times_ms from {lo} to {hi}): \
                 one of the two was edited or belongs to another run",
                rows[i].time_ms
            ),
        ));
    }
    // A wrong answer's time is no speedup: `collect` leaves such runs out.
    if let Some(i) = rows.iter().position(|r| r.checksum_ok == Some(false)) {
        return Err(Error::parse(
            path,
            i + 2,
            "checksum_ok is false: the run computed a wrong result, so its time measures no \
             optimization; drop the row (advise collect leaves such runs out of the table)",
        ));
    }
    // One run of one variant has one time: a second row would silently replace the first.
    let mut first_line: std::collections::HashMap<RunKey, usize> = Default::default();
    for (i, row) in rows.iter().enumerate() {
        if let Some(first) = first_line.insert(row.key(), i + 2) {
            return Err(Error::parse(
                path,
                i + 2,
                format!(
                    "a second time for program {} input {} run {} variant {} (the first on \
                     line {first})",
                    row.program, row.input, row.run, row.variant
                ),
            ));
        }
    }
    Ok(rows)
}

#[cfg(test)]
mod tests;
