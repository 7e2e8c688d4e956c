//! `advise features`: measurements (+ timings) into the wide, normalized feature table.

use std::path::PathBuf;

use super::output::{note, Output};
use crate::args::{NormalizeArg, OutputArgs, ViewArg};
use advise::dataset::features::{build, FeatureSettings, FeatureTable, Normalize};
use advise::dataset::measurements::{read_measurements, read_timings};
use advise::error::Result;

/// `advise features`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// measurements.csv (from `advise parse` or a campaign).
    #[arg(long, required_unless_present = "formulas")]
    pub measurements: Option<PathBuf>,
    /// Print the portable view's formulas per data source (Markdown) and the optimization
    /// families, then exit.
    #[arg(long)]
    pub formulas: bool,
    /// timings.csv (program,input,run,variant,time_ms,...); optional.
    #[arg(long)]
    pub timings: Option<PathBuf>,
    /// Which metrics to divide by active cycles: `units` (counts only, the default), `all`
    /// (everything, as the thesis did) or `none`. The counters view only.
    #[arg(long, value_enum)]
    pub normalize: Option<NormalizeArg>,
    /// Divide by this metric instead of active cycles (e.g. gpu__time_duration.sum for
    /// imported KTT spaces, which record no active cycles). The counters view only.
    #[arg(long)]
    pub normalizer: Option<String>,
    /// One row per kernel instead of per run.
    #[arg(long)]
    pub per_kernel: bool,
    /// Keep nvprof metric names instead of translating them to Nsight Compute names (the
    /// counters view only: the portable ratios read Nsight Compute names).
    #[arg(long)]
    pub keep_names: bool,
    /// Columns: every metric, the portable ratios, or both.
    #[arg(long, value_enum, default_value = "counters")]
    pub view: ViewArg,
    #[command(flatten)]
    pub out: OutputArgs,
}

pub fn run(args: Args) -> Result<()> {
    let out: Output = args.out.into();
    if args.formulas {
        return out.emit(&format!(
            "## Portable features\n\n{}\n## Optimization families\n\n{}",
            advise::dataset::portable::markdown(),
            advise::dataset::families::markdown()
        ));
    }
    let measurements = args
        .measurements
        .ok_or_else(|| advise::Error::Usage("give --measurements FILE".into()))?;
    check_view_options(
        &args.view,
        &args.normalizer,
        args.normalize,
        args.keep_names,
    )?;
    let mut cmd = FeaturesCommand::new(
        measurements,
        args.timings,
        args.normalize.unwrap_or(NormalizeArg::Units),
        args.per_kernel,
        args.keep_names,
    );
    cmd.settings.normalizer = args.normalizer;
    cmd.settings.view = args.view.into();
    features(&cmd, &out)
}

/// A usage error for options the chosen view would ignore: the portable ratios are
/// normalized by their own formulas and read Nsight Compute names, so --normalize,
/// --normalizer and --keep-names shape the counters view only.
fn check_view_options(
    view: &ViewArg,
    normalizer: &Option<String>,
    normalize: Option<NormalizeArg>,
    keep_names: bool,
) -> Result<()> {
    let ignored = match view {
        ViewArg::Counters => None,
        ViewArg::Portable if normalizer.is_some() => Some("--normalizer"),
        ViewArg::Portable if normalize.is_some() => Some("--normalize"),
        ViewArg::Portable | ViewArg::Both if keep_names => Some("--keep-names"),
        ViewArg::Portable | ViewArg::Both => None,
    };
    match ignored {
        Some(flag) => Err(advise::Error::Usage(format!(
            "{flag} shapes the counters view only; the portable ratios have their own \
             formulas over Nsight Compute names (`advise features --formulas`): use \
             --view counters, or leave {flag} out"
        ))),
        None => Ok(()),
    }
}

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

fn features(cmd: &FeaturesCommand, out: &Output) -> Result<()> {
    let measurements = read_measurements(&cmd.measurements)?;
    if measurements.is_empty() {
        return Err(advise::Error::format(
            &cmd.measurements,
            "no measurements (only the header): nothing to build features from; is it the \
             table `advise parse` or `advise collect` wrote?",
        ));
    }
    let timings = match &cmd.timings {
        Some(p) => read_timings(p)?,
        None => Vec::new(),
    };
    // What the measurements lack is said with their file's name.
    let table = build(&measurements, &timings, &cmd.settings).map_err(|e| match e {
        e @ advise::Error::MissingMetric { .. } => {
            advise::Error::format(&cmd.measurements, e.to_string())
        }
        e => e,
    })?;
    if let Some(p) = &cmd.timings {
        let timed = table.rows.iter().filter(|r| r.time_ms.is_some()).count();
        if timed == 0 && !table.rows.is_empty() {
            // Always said, -q or not: an empty time column breaks every later step.
            super::output::warn(&format!(
                "none of the {} rows of {} matches a run of the measurements \
                 (program, input, run, variant): the time_ms column is empty. Is it the same \
                 campaign's timings.csv?",
                timings.len(),
                p.display()
            ));
        } else if timed < table.rows.len() {
            note(&format!(
                "{} of {} rows have no time in {}",
                table.rows.len() - timed,
                table.rows.len(),
                p.display()
            ));
        }
    }
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
