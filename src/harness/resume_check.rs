//! What `collect --resume` checks before it adds runs to a campaign folder: that the settings
//! which shape its numbers (the program, seed, runs per job, repetitions, warm-up runs,
//! profiled steps and runs) are those the campaign was started with, kept in `collect.json`
//! when it starts, and that the new runs come from the GPU of the runs already there (the
//! timings' `device` column). Either difference would put rows that cannot be compared into
//! one table, where `features` and the experiments take them as replicates.

use std::io::Read;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::campaign::TIMINGS;
use super::collect::CollectSettings;
use crate::dataset::table;
use crate::error::{Error, Result};

/// The record of the settings a campaign folder was started with.
pub const SETTINGS_RECORD: &str = "collect.json";

/// The settings kept; each field is the `collect` option of its name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Settings {
    program: String,
    seed: u64,
    runs: u32,
    reps: u32,
    warmup: u32,
    profile_steps: u32,
    profile_runs: u32,
}

impl Settings {
    fn of(s: &CollectSettings) -> Settings {
        Settings {
            program: s.program.name().to_string(),
            seed: s.seed,
            runs: s.runs,
            reps: s.reps,
            warmup: s.warmup,
            profile_steps: s.profile_steps,
            profile_runs: s.profile_runs,
        }
    }

    /// Each setting as an option and its value, in the order of the fields.
    fn options(&self) -> [(&'static str, String); 7] {
        [
            ("--program", self.program.clone()),
            ("--seed", self.seed.to_string()),
            ("--runs", self.runs.to_string()),
            ("--reps", self.reps.to_string()),
            ("--warmup", self.warmup.to_string()),
            ("--profile-steps", self.profile_steps.to_string()),
            ("--profile-runs", self.profile_runs.to_string()),
        ]
    }
}

/// Refuses settings that differ from those `dir`'s campaign was started with; writes the
/// record where the folder has none (a new campaign, or one started before the record was
/// kept).
pub fn check_settings(dir: &Path, s: &CollectSettings) -> Result<()> {
    let path = dir.join(SETTINGS_RECORD);
    let now = Settings::of(s);
    if path.is_file() {
        let text = std::fs::read_to_string(&path).map_err(|e| Error::io(&path, e))?;
        let then: Settings = serde_json::from_str(&text).map_err(|e| {
            Error::format(
                &path,
                format!("not the record of a campaign's settings `collect` writes: {e}"),
            )
        })?;
        let differ: Vec<String> = then
            .options()
            .iter()
            .zip(now.options())
            .filter(|(a, b)| a.1 != b.1)
            .map(|((name, was), (_, is))| format!("{name} {is} (the campaign's: {was})"))
            .collect();
        if !differ.is_empty() {
            return Err(Error::Usage(format!(
                "{} was started with other settings than this call's: {}; resume it with its \
                 own settings ({}), or collect into another --out-dir",
                dir.display(),
                differ.join(", "),
                path.display()
            )));
        }
        return Ok(());
    }
    let text = serde_json::to_string_pretty(&now).map_err(|e| Error::write(&path, e))?;
    std::fs::write(&path, text + "\n").map_err(|e| Error::io(&path, e))
}

/// The GPU of the runs `dir`'s timings already hold (the last row's `device` that names one);
/// `None` for a new campaign or timings without the column.
pub fn campaign_device(dir: &Path) -> Result<Option<String>> {
    let path = dir.join(TIMINGS);
    if std::fs::metadata(&path).map_or(true, |m| m.len() == 0) {
        return Ok(None);
    }
    Ok(timing_devices(&path, table::open(&path)?)?
        .pop()
        .map(|(_, d)| d))
}

/// Each row of a timings table (`path` names it in errors) that names its GPU in the `device`
/// column: the row's line and the GPU, in file order; none where the table has no such column.
pub(crate) fn timing_devices(path: &Path, reader: impl Read) -> Result<Vec<(usize, String)>> {
    let mut rdr = csv::Reader::from_reader(reader);
    let header = rdr.headers().map_err(|e| table::csv_error(path, e))?;
    let Some(col) = header.iter().position(|c| c == "device") else {
        return Ok(Vec::new());
    };
    let mut devices = Vec::new();
    for (i, rec) in rdr.records().enumerate() {
        let rec = rec.map_err(|e| table::csv_error(path, e))?;
        if let Some(d) = rec.get(col).map(str::trim).filter(|d| !d.is_empty()) {
            devices.push((i + 2, d.to_string()));
        }
    }
    Ok(devices)
}

/// Refuses a run on `device` where the campaign's runs are on another GPU.
pub fn check_device(dir: &Path, campaign: Option<&str>, device: &str, job: &str) -> Result<()> {
    match campaign {
        Some(d) if !device.trim().is_empty() && d != device.trim() => Err(Error::Usage(format!(
            "{job} ran on {device}, but the runs already in {} are on {d}: resume a campaign \
             on its own GPU, or collect into another --out-dir (nothing of this job was kept)",
            dir.display()
        ))),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests;
