//! Profiler output parsers: Nsight Compute (`ncu`) and `nvprof`, every shape real versions
//! write, into one tidy table of measurements (docs/ARCHITECTURE.md, "Data model").
//!
//! Parsers take `impl Read` plus the path used in error messages, so they work on files, stdin
//! and test data alike.

pub mod compressed;
pub mod gpgpusim;
mod gpgpusim_emit;
pub mod gpgpusim_names;
pub mod metric_map;
pub mod ncu;
mod ncu_launch;
pub mod nvprof;
pub mod nvprof_wide;
mod repeats;
pub mod section_labels;
pub mod text;
pub mod value;

use std::io::Read;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// One counter value of one kernel launch (ncu) or one kernel over its invocations (nvprof).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Measurement {
    /// The kernel's name as the profiler prints it (demangled signature for ncu 2020+).
    pub kernel: String,
    /// The profiler's launch ID (ncu `ID`); nvprof has none, so its kernels count 0, 1, ...
    pub launch: u64,
    /// How many launches the value stands for: 1 for ncu; nvprof's `Invocations`.
    pub invocations: u64,
    pub metric: String,
    /// The base unit (see `value::base_unit`); empty where the profiler gives none.
    pub unit: String,
    /// The value in the base unit. For nvprof metrics the average over invocations, for
    /// nvprof events the total (as nvprof's `Total` column).
    pub value: f64,
}

/// A rule finding of ncu's details page (Rule Name/Type/Description/Estimated Speedup).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RuleFinding {
    pub kernel: String,
    pub launch: u64,
    pub section: String,
    pub rule: String,
    pub rule_type: String,
    pub description: String,
    pub speedup_type: String,
    pub estimated_speedup: Option<f64>,
}

/// Which profiler and page wrote a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// `ncu --csv` long form: details page, `--metrics`, old `nv-nsight-cu-cli`.
    NcuLong,
    /// `ncu --csv --page raw`: one row per launch, a row of units after the header.
    NcuRaw,
    /// `ncu --csv --print-summary per-kernel`: per kernel and launch shape, the minimum,
    /// maximum and average of each metric over its invocations.
    NcuSummary,
    /// `nvprof --csv --metrics`.
    NvprofMetrics,
    /// `nvprof --csv --events`.
    NvprofEvents,
    /// `nvprof --metrics` without `--csv` (aligned text columns).
    NvprofText,
    /// `nvprof --csv --aggregate-mode off`: one row per launch, counters as columns.
    NvprofWide,
    /// `nvprof --csv --print-gpu-trace`: one row per launch with its duration.
    NvprofTrace,
    /// The log of a program run under the GPGPU-Sim simulator (simulated, not measured).
    GpgpuSim,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::NcuLong => "ncu-long",
            Format::NcuRaw => "ncu-raw",
            Format::NcuSummary => "ncu-summary",
            Format::NvprofMetrics => "nvprof-metrics",
            Format::NvprofEvents => "nvprof-events",
            Format::NvprofText => "nvprof-text",
            Format::NvprofWide => "nvprof-wide",
            Format::NvprofTrace => "nvprof-trace",
            Format::GpgpuSim => "gpgpu-sim",
        }
    }

    /// Whether the file comes from ncu (else nvprof).
    pub fn is_ncu(self) -> bool {
        matches!(self, Format::NcuLong | Format::NcuRaw | Format::NcuSummary)
    }
}

/// The format asked for on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FormatChoice {
    #[default]
    Auto,
    Ncu,
    Nvprof,
    GpgpuSim,
}

/// Everything read from one profiler file.
#[derive(Debug, Clone, Serialize)]
pub struct ProfileData {
    pub source: String,
    pub format: Format,
    pub measurements: Vec<Measurement>,
    pub rules: Vec<RuleFinding>,
    /// Cells that held no number (`n/a`, text): counted so a user sees what was left out.
    pub skipped_cells: usize,
    /// The first of them, as "metric = `cell`", for an error where no cell held a number.
    pub first_skipped: Option<String>,
    /// Measurements read from ncu's launch columns ("Block Size", "CC") for
    /// launches whose cells lack them (ncu_launch); the rest of `measurements` are cells.
    pub launch_facts: usize,
    /// Cells that repeated a launch's metric and were dropped, the first kept (`repeats`).
    pub repeated_cells: usize,
}

impl ProfileData {
    /// An empty result of the given format.
    pub fn empty(format: Format) -> Self {
        ProfileData {
            source: String::new(),
            format,
            measurements: Vec::new(),
            rules: Vec::new(),
            skipped_cells: 0,
            first_skipped: None,
            launch_facts: 0,
            repeated_cells: 0,
        }
    }

    /// Parses a value cell (with the unit column's text, if any) and records it as a
    /// measurement, or counts it as a cell without a number. A negative number is counted
    /// there too: no counter, rate or setting a profiler reports is below 0, and the tables
    /// the tool writes refuse one (`dataset::measurements`).
    pub fn push_cell(
        &mut self,
        kernel: &str,
        launch: u64,
        invocations: u64,
        metric: &str,
        cell: &str,
        unit: &str,
    ) {
        match value::parse_quantity(cell, unit).filter(|q| q.value >= 0.0) {
            Some(q) => self.measurements.push(Measurement {
                kernel: kernel.to_string(),
                launch,
                invocations,
                metric: metric.to_string(),
                unit: q.unit,
                value: q.value,
            }),
            None => self.skip_cell(metric, cell),
        }
    }

    /// Counts a cell of `metric` (a metric or a launch column) that held no number it could
    /// use, the first such as "metric = `cell`" for the error where no cell held one.
    pub(crate) fn skip_cell(&mut self, metric: &str, cell: &str) {
        self.skipped_cells += 1;
        if self.first_skipped.is_none() {
            self.first_skipped = Some(format!("{metric} = `{cell}`"));
        }
    }

    /// Distinct kernel launches, in order of appearance.
    pub fn launches(&self) -> Vec<(u64, &str)> {
        let mut seen: Vec<(u64, &str)> = Vec::new();
        for m in &self.measurements {
            if seen.last() != Some(&(m.launch, m.kernel.as_str()))
                && !seen.contains(&(m.launch, m.kernel.as_str()))
            {
                seen.push((m.launch, &m.kernel));
            }
        }
        seen
    }
}

/// Parses a profiler file from a path (`-` is stdin). gzip and bzip2 files are unpacked.
pub fn parse_path(path: &Path, choice: FormatChoice) -> Result<ProfileData> {
    if path.as_os_str() == "-" {
        return parse(path, std::io::stdin().lock(), choice);
    }
    let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    parse(path, file, choice)
}

/// Parses profiler output, detecting the format unless one is chosen.
pub fn parse(path: &Path, reader: impl Read, choice: FormatChoice) -> Result<ProfileData> {
    let content = text::read_text(path, reader)?;
    let lines = text::lines(&content);
    if lines.iter().all(|l| l.text.trim().is_empty()) {
        return Err(Error::parse(
            path,
            1,
            "the file is empty: expected ncu or nvprof CSV output",
        ));
    }
    let simulated = match choice {
        FormatChoice::Auto => gpgpusim::detect(&lines),
        FormatChoice::GpgpuSim => true,
        _ => false,
    };
    if simulated {
        let mut data = gpgpusim::parse(path, &lines)?;
        data.source = path.display().to_string();
        data.repeated_cells = repeats::drop_repeats(path, &mut data)?;
        return Ok(data);
    }
    let ncu = || ncu::detect(&lines);
    let nvprof = || nvprof::detect(&lines);
    let detected = match choice {
        FormatChoice::Auto => ncu().or_else(nvprof),
        FormatChoice::Ncu => ncu(),
        FormatChoice::Nvprof => nvprof(),
        FormatChoice::GpgpuSim => None,
    };
    let Some((format, header)) = detected else {
        if let Some((line, delimiter)) = text::misdelimited_header(&lines) {
            return Err(Error::parse(
                path,
                line,
                format!(
                    "this looks like a profiler header separated by {delimiter}; advise reads \
                     comma-separated output (ncu --csv / nvprof --csv)"
                ),
            ));
        }
        if content.trim_start().starts_with(['{', '[']) {
            return Err(Error::format(
                path,
                "this is JSON (a tuning space, a model or an advisor?), not profiler output: \
                 give ncu --csv, nvprof --csv or a GPGPU-Sim log (`advise search --space` reads \
                 tuning spaces)",
            ));
        }
        let wanted = match choice {
            FormatChoice::Auto => "ncu or nvprof",
            FormatChoice::Ncu => "ncu",
            FormatChoice::Nvprof => "nvprof",
            FormatChoice::GpgpuSim => "GPGPU-Sim",
        };
        return Err(Error::format(
            path,
            format!(
                "no {wanted} table found: expected a CSV header such as \
                 \"ID\",\"Process ID\",... (ncu --csv) or \"Device\",\"Kernel\",\"Invocations\",... \
                 (nvprof --csv); was the file written with --csv?"
            ),
        ));
    };
    let mut data = match format {
        Format::NcuLong => ncu::parse_long(path, &lines, &header)?,
        Format::NcuRaw => ncu::parse_raw(path, &lines, &header)?,
        Format::NcuSummary => ncu::parse_summary(path, &lines, &header)?,
        Format::NvprofMetrics | Format::NvprofEvents => {
            nvprof::parse_csv(path, &lines, &header, format)?
        }
        Format::NvprofText => nvprof::parse_text(path, &lines, &header)?,
        Format::NvprofWide | Format::NvprofTrace => {
            nvprof_wide::parse(path, &lines, &header, format)?
        }
        Format::GpgpuSim => gpgpusim::parse(path, &lines)?,
    };
    data.source = path.display().to_string();
    disambiguate_units(&mut data.measurements);
    data.repeated_cells = repeats::drop_repeats(path, &mut data)?;
    if data.measurements.is_empty() && data.rules.is_empty() {
        let why = match &data.first_skipped {
            // Cells there were, but none a number with a unit advise reads.
            Some(first) => format!(
                "none of its {} cells is a number with a unit advise reads (the first: \
                 {first}); is the file damaged?",
                data.skipped_cells
            ),
            None => "was the program's kernel profiled? check for ==PROF== or ==WARNING== \
                     lines in the file"
                .to_string(),
        };
        return Err(Error::format(
            path,
            format!(
                "the {} table has a header but no numeric measurements: {why}",
                format.name()
            ),
        ));
    }
    Ok(data)
}

/// ncu's details page can show one metric name in two sections with different units (e.g.
/// `Memory Throughput` as % in Speed Of Light and as byte/second in Memory Workload
/// Analysis). Within a launch, a name seen again with another unit becomes `name [unit]`, so
/// the two never get aggregated together.
fn disambiguate_units(measurements: &mut [Measurement]) {
    use std::collections::HashMap;
    let mut first_unit: HashMap<(u64, String, String), String> = HashMap::new();
    for m in measurements.iter_mut() {
        let key = (m.launch, m.kernel.clone(), m.metric.clone());
        match first_unit.get(&key) {
            Some(unit) if *unit != m.unit => m.metric = format!("{} [{}]", m.metric, m.unit),
            Some(_) => {}
            None => {
                first_unit.insert(key, m.unit.clone());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Synthetic: a negative cell is counted as a cell without a number, not kept.
    #[test]
    fn a_negative_cell_is_counted_not_kept() {
        let mut data = ProfileData::empty(Format::NcuLong);
        data.push_cell("k", 1, 1, "dram__bytes.sum", "-4,096", "byte");
        data.push_cell("k", 1, 1, "sm__cycles_active.sum", "0", "cycle");
        assert_eq!(data.skipped_cells, 1);
        assert_eq!(data.measurements.len(), 1);
        assert_eq!(data.measurements[0].metric, "sm__cycles_active.sum");
        assert_eq!(
            data.first_skipped.as_deref(),
            Some("dram__bytes.sum = `-4,096`")
        );
    }

    /// Synthetic nvprof metrics whose every value has a unit no tool writes: the error names
    /// the first cell, not only "no numeric measurements".
    #[test]
    fn a_table_of_unreadable_cells_names_the_first() {
        let text = "\"Device\",\"Kernel\",\"Invocations\",\"Metric Name\",\"Metric Description\",\"Min\",\"Max\",\"Avg\"\n\
                    \"K20c (0)\",\"k\",\"1\",\"flop_count_sp\",\"Flops\",\"1\",\"1\",\"12.5XB/s\"\n";
        let e = parse(Path::new("m.csv"), text.as_bytes(), FormatChoice::Auto)
            .unwrap_err()
            .to_string();
        assert!(e.contains("(the first: flop_count_sp = `12.5XB/s`)"), "{e}");
    }
}
