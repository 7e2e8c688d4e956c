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
/// kept, whose timings' repetitions must then be `--reps`).
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
    // No record, but runs: a campaign started before the record was kept (or whose record
    // was deleted). Its repetitions are in the timings; the other settings cannot be checked.
    let timings = dir.join(TIMINGS);
    if std::fs::metadata(&timings).is_ok_and(|m| m.len() > 0) {
        let reps = timing_column(&timings, table::open(&timings)?, "repetitions")?;
        let want = s.reps.to_string();
        if let Some((line, was)) = reps.iter().find(|(_, r)| *r != want) {
            return Err(Error::Usage(format!(
                "{}:{line}: the campaign's runs were repeated {was} times, this call's --reps \
                 is {}; resume it with --reps {was}, or collect into another --out-dir (the \
                 folder has no {SETTINGS_RECORD}, so its other settings cannot be checked)",
                timings.display(),
                s.reps
            )));
        }
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
    Ok(timing_column(&path, table::open(&path)?, "device")?
        .pop()
        .map(|(_, d)| d))
}

/// Each row of a timings table (`path` names it in errors) whose column `name` is not blank:
/// the row's line and the value, in file order; none where the table has no such column
/// (`device` names a row's GPU).
pub(crate) fn timing_column(
    path: &Path,
    reader: impl Read,
    name: &str,
) -> Result<Vec<(usize, String)>> {
    // A damaged table of one long line is refused at its line, not read whole into a record.
    let mut rdr = csv::Reader::from_reader(table::LineCap::new(reader));
    let header = rdr.headers().map_err(|e| table::csv_error(path, e))?;
    let Some(col) = header.iter().position(|c| c == name) else {
        return Ok(Vec::new());
    };
    let mut values = Vec::new();
    for (i, rec) in rdr.records().enumerate() {
        let rec = rec.map_err(|e| table::csv_error(path, e))?;
        if let Some(v) = rec.get(col).map(str::trim).filter(|v| !v.is_empty()) {
            values.push((i + 2, v.to_string()));
        }
    }
    Ok(values)
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
