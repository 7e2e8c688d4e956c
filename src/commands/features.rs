//! `advise features`: measurements (+ timings) into the wide, normalized feature table.

use std::path::PathBuf;

use super::output::{note, Output};
use crate::cli::NormalizeArg;
use crate::dataset::features::{build, FeatureSettings, FeatureTable, Normalize};
use crate::dataset::measurements::{read_measurements, read_timings};
use crate::error::Result;

/// Inputs and settings of `advise features`.
#[derive(Debug, Clone)]
pub struct FeaturesCommand {
    pub measurements: PathBuf,
    pub timings: Option<PathBuf>,
    pub settings: FeatureSettings,
}

impl FeaturesCommand {
    pub fn new(
        measurements: PathBuf,
        timings: Option<PathBuf>,
        normalize: NormalizeArg,
        per_kernel: bool,
        keep_names: bool,
    ) -> Self {
        FeaturesCommand {
            measurements,
            timings,
            settings: FeatureSettings {
                normalize: match normalize {
                    NormalizeArg::Units => Normalize::Units,
                    NormalizeArg::All => Normalize::All,
                    NormalizeArg::None => Normalize::None,
                },
                per_kernel,
                keep_names,
                normalizer: None,
                view: Default::default(),
            },
        }
    }
}

/// The feature table as JSON: columns and rows with keys.
pub fn table_json(t: &FeatureTable) -> serde_json::Value {
    let rows: Vec<_> = t
        .rows
        .iter()
        .map(|r| {
            serde_json::json!({
                "program": r.key.program,
                "input": r.key.input,
                "run": r.key.run,
                "variant": r.key.variant,
                "kernel": r.kernel,
                "time_ms": r.time_ms,
                "values": r.values,
            })
        })
        .collect();
    serde_json::json!({ "normalizer": t.normalizer, "columns": t.columns, "rows": rows })
}

pub fn run(cmd: &FeaturesCommand, out: &Output) -> Result<()> {
    let measurements = read_measurements(&cmd.measurements)?;
    let timings = match &cmd.timings {
        Some(p) => read_timings(p)?,
        None => Vec::new(),
    };
    let table = build(&measurements, &timings, &cmd.settings)?;
    note(&format!(
        "{} rows x {} features; normalized by {}",
        table.rows.len(),
        table.columns.len(),
        table.normalizer.as_deref().unwrap_or("nothing")
    ));
    if out.json {
        return out.emit_json(&table_json(&table));
    }
    out.emit_csv(|buf| table.write_csv(buf))
}
