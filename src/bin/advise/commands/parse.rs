//! `advise parse`: profiler files into the tidy measurement table.

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::output::{note, Output};
use crate::args::{FormatArg, LabelArgs, OutputArgs};
use advise::dataset::measurements::{rows_of, MeasurementRow, RunKey};
use advise::dataset::table::write_rows;
use advise::error::{Error, Result};
use advise::profile::{parse_path, FormatChoice, ProfileData};

/// What to parse and how to label it.
#[derive(Debug, Clone)]
pub struct ParseSettings {
    pub files: Vec<PathBuf>,
    pub format: FormatChoice,
    /// Program label; `None` means "the file's name".
    pub program: Option<String>,
    pub input: String,
    pub run: u32,
    pub variant: String,
    pub rules: Option<PathBuf>,
}

impl ParseSettings {
    pub fn new(
        files: Vec<PathBuf>,
        format: FormatArg,
        label: LabelArgs,
        rules: Option<PathBuf>,
    ) -> Self {
        ParseSettings {
            files,
            format: match format {
                FormatArg::Auto => FormatChoice::Auto,
                FormatArg::Ncu => FormatChoice::Ncu,
                FormatArg::Nvprof => FormatChoice::Nvprof,
                FormatArg::GpgpuSim => FormatChoice::GpgpuSim,
            },
            program: label.program,
            input: label.input,
            run: label.run,
            variant: label.variant,
            rules,
        }
    }

    fn key_for(&self, path: &Path) -> RunKey {
        RunKey {
            program: self.program.clone().unwrap_or_else(|| file_label(path)),
            input: self.input.clone(),
            run: self.run,
            variant: self.variant.clone(),
        }
    }
}

/// A file's name without directory and profiler extensions, used as a default label.
pub fn file_label(path: &Path) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_else(|| "stdin".into());
    let mut label = name.as_str();
    for ext in [".gz", ".bz2", ".csv", ".log", ".txt", ".profile"] {
        label = label.strip_suffix(ext).unwrap_or(label);
    }
    label.to_string()
}

/// Summary of one parsed file.
#[derive(Debug, Clone, Serialize)]
pub struct FileSummary {
    pub source: String,
    pub format: &'static str,
    pub launches: usize,
    pub kernels: usize,
    pub metrics: usize,
    pub measurements: usize,
    /// Of `measurements`, those read from ncu's launch columns ("Block Size", "CC") for
    /// launches whose cells lack them.
    pub launch_facts: usize,
    pub skipped_cells: usize,
    /// Cells that repeated a launch's metric (nvprof prints some twice), dropped.
    pub repeated_cells: usize,
    pub rules: usize,
}

impl FileSummary {
    pub fn of(data: &ProfileData) -> Self {
        let mut kernels: Vec<&str> = data
            .measurements
            .iter()
            .map(|m| m.kernel.as_str())
            .collect();
        kernels.sort_unstable();
        kernels.dedup();
        let mut metrics: Vec<&str> = data
            .measurements
            .iter()
            .map(|m| m.metric.as_str())
            .collect();
        metrics.sort_unstable();
        metrics.dedup();
        FileSummary {
            source: data.source.clone(),
            format: data.format.name(),
            launches: data.launches().len(),
            kernels: kernels.len(),
            metrics: metrics.len(),
            measurements: data.measurements.len(),
            launch_facts: data.launch_facts,
            skipped_cells: data.skipped_cells,
            repeated_cells: data.repeated_cells,
            rules: data.rules.len(),
        }
    }
}

/// Parses every file; stops at the first error. Files that would get one label (`--program`
/// given, or two files of one name) are runs of it: the second gets `--run` + 1, the third
/// + 2, with a note, so that no two rows share a key.
pub fn parse_all(settings: &ParseSettings) -> Result<Vec<(RunKey, ProfileData)>> {
    // NB's and BH's variants are bit strings of their six optimizations: another label would
    // pass here and fail at `samples`, after the work.
    let checked = settings
        .program
        .as_deref()
        .filter(|_| !settings.variant.is_empty())
        .and_then(|name| advise::dataset::samples::bit_variant(name, &settings.variant));
    if let Some((p, parsed)) = checked {
        parsed.map_err(|e| {
            Error::Usage(format!(
                "--variant {}: {e} ({} names its variants by the bit string of its six \
                 optimizations)",
                settings.variant,
                p.name()
            ))
        })?;
    }
    let mut earlier: Vec<RunKey> = Vec::new();
    let mut out = Vec::new();
    for f in &settings.files {
        let mut key = settings.key_for(f);
        let same = earlier.iter().filter(|k| **k == key).count() as u32;
        earlier.push(key.clone());
        if same > 0 {
            key.run += same;
            note(&format!(
                "{}: labelled run {} (an earlier file has program {}, input {}, variant {}, \
                 run {}); parse it alone with --run to choose",
                advise::error::shown(f),
                key.run,
                key.program,
                key.input,
                key.variant,
                settings.run
            ));
        }
        out.push((key, parse_path(f, settings.format)?));
    }
    Ok(out)
}

/// `advise parse`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Profiler output files.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Force a format instead of detecting it.
    #[arg(long, value_enum, default_value = "auto")]
    pub format: FormatArg,
    #[command(flatten)]
    pub label: LabelArgs,
    /// Also write ncu's rule findings (Rule Name, Estimated Speedup, ...) to this CSV.
    #[arg(long)]
    pub rules: Option<PathBuf>,
    #[command(flatten)]
    pub out: OutputArgs,
}

pub fn run(args: Args) -> Result<()> {
    parse_files(
        &ParseSettings::new(args.files, args.format, args.label, args.rules),
        &args.out.into(),
    )
}

fn parse_files(settings: &ParseSettings, out: &Output) -> Result<()> {
    let parsed = parse_all(settings)?;
    let rows: Vec<MeasurementRow> = parsed.iter().flat_map(|(k, d)| rows_of(k, d)).collect();
    let summaries: Vec<FileSummary> = parsed.iter().map(|(_, d)| FileSummary::of(d)).collect();
    for s in &summaries {
        note(&format!(
            "{}: {}, {} launches, {} kernels, {} metrics, {} measurements ({} from the launch columns; {} cells without a number{}), {} rule findings",
            advise::error::shown_text(&s.source), s.format, s.launches, s.kernels, s.metrics, s.measurements, s.launch_facts, s.skipped_cells,
            match s.repeated_cells {
                0 => String::new(),
                n => format!("; {n} repeating a metric already read, dropped"),
            },
            s.rules
        ));
    }
    if let Some(path) = &settings.rules {
        let rules: Vec<_> = parsed
            .iter()
            .flat_map(|(_, d)| d.rules.iter().cloned())
            .collect();
        let file = std::fs::File::create(path).map_err(|e| Error::io(path, e))?;
        write_rows(file, &rules)?;
    }
    if out.json {
        return out.emit_json(&serde_json::json!({
            "files": summaries,
            "measurements": rows,
        }));
    }
    out.emit_csv(|buf| write_rows(buf, &rows))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_files_label_drops_its_folder_and_profiler_endings() {
        assert_eq!(file_label(Path::new("runs/nb_000000.csv")), "nb_000000");
        assert_eq!(file_label(Path::new("bh.csv.gz")), "bh");
        assert_eq!(file_label(Path::new("bh.csv.bz2")), "bh");
        assert_eq!(file_label(Path::new("sim/gpgpusim.log")), "gpgpusim");
        assert_eq!(file_label(Path::new("a.b.txt")), "a.b");
    }
}
