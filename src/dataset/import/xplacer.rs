//! XPlacer's unified-memory data-placement variants (Lin, Liao et al., LLNL; repository
//! peihunglin/XPlacer-ML-DataPlacement): four Rodinia benchmarks built once per choice of a
//! placement policy (a digit 0-6) for each of their data objects, every variant's kernel
//! times measured on a V100, and Nsight Compute details-page sections of the baseline variant
//! (every digit 0) per kernel launch.
//!
//! The thesis's sample construction needs the counters of the code without an optimization;
//! here only the baseline has counters, so the samples are the baseline against each variant
//! that changes one object's policy: the advice a programmer would get from profiling the
//! unmodified program. The import writes those variants only (the others could pair only with
//! variants that have no counters). A switch is one object's policy going from 0 to p; its
//! family is the policy, so that what is learned about a policy on one benchmark's objects
//! meets the same policy on another benchmark.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::xplacer_meaning::{advice_applied, machine_of, unit_of};
pub use super::xplacer_meaning::{policy_family, POLICIES};
use super::SwitchRow;
use crate::dataset::measurements::{
    plausible_time_ms, MeasurementRow, TimingRow, TIME_MS_LEAST, TIME_MS_MOST,
};
use crate::dataset::table;
use crate::error::{Error, Result};

/// A benchmark's baseline counters, kernel times and switches, as the project's tables.
#[derive(Debug, Clone)]
pub struct Xplacer {
    pub program: String,
    pub measurements: Vec<MeasurementRow>,
    pub timings: Vec<TimingRow>,
    pub switches: Vec<SwitchRow>,
    /// Kernel and input pairs imported.
    pub kernel_inputs: usize,
    /// Kernel and input pairs with times but no baseline counters (left out).
    pub without_counters: Vec<String>,
    /// Kernel and input pairs with variants' times but no time of the baseline, every
    /// policy 0 (left out: their speedups have no denominator).
    pub without_baseline: Vec<String>,
    /// Counter columns whose unit this importer does not know (kept, without a unit).
    pub unknown_units: Vec<String>,
    pub kernel_stat: PathBuf,
    pub counters: PathBuf,
    /// Where the measurements were taken, by the measurement folder's name, and how its GPU
    /// was attached to the host (`None` where the folder does not say).
    pub machine: String,
    pub host_link: Option<crate::dataset::host_link::HostLink>,
}

fn number(path: &Path, line: usize, column: &str, text: &str) -> Result<f64> {
    text.trim().parse::<f64>().map_err(|_| {
        Error::parse(
            path,
            line,
            format!("column `{column}`: `{text}` is not a number"),
        )
    })
}

/// Reads one benchmark folder (`benchmarks/<name>` of the repository, or a copy of it: its
/// `kernel-level-measurement`, measured on AWS) or one measurement folder of it directly
/// (e.g. `benchmarks/<name>/lassen-kernel-level-measurement`, measured on LLNL's Lassen),
/// which holds `dataset.csv` and `GPU-log/` or `lassen-log/` with `kernel_stat.csv`.
pub fn read(dir: &Path) -> Result<Xplacer> {
    let kl = if table::table_path(dir, "dataset").is_some() {
        dir.to_path_buf()
    } else {
        dir.join("kernel-level-measurement")
    };
    let missing = |what: &str| {
        Error::Usage(format!(
            "{}: no {what}; point at one benchmark folder of XPlacer-ML-DataPlacement (e.g. \
             benchmarks/hotspot, which holds kernel-level-measurement/GPU-log/kernel_stat.csv \
             and kernel-level-measurement/dataset.csv, either gzipped or not) or at one of its \
             measurement folders (e.g. benchmarks/hotspot/lassen-kernel-level-measurement)",
            dir.display()
        ))
    };
    let stat_path = ["GPU-log", "lassen-log", "."]
        .iter()
        .find_map(|sub| table::table_path(&kl.join(sub), "kernel_stat"))
        .ok_or_else(|| missing("kernel_stat.csv under GPU-log/ or lassen-log/"))?;
    let counter_path = table::table_path(&kl, "dataset")
        .ok_or_else(|| missing("kernel-level-measurement/dataset.csv"))?;

    // The baseline's counters, per (kernel, input): one measurement row per launch and label.
    let (mut rdr, header) = table::with_header(&counter_path)?;
    let col = |name: &str| header.iter().position(|h| h == name);
    let (Some(c_kernel), Some(c_input), Some(c_id)) = (col("Kernel"), col("InputData"), col("ID"))
    else {
        return Err(Error::parse(
            &counter_path,
            1,
            "expected the columns Benchmark, InputData, ID, Kernel and the details-page metrics",
        ));
    };
    let c_bench = col("Benchmark");
    let keys = [Some(c_kernel), Some(c_input), Some(c_id), c_bench];
    let metric_cols: Vec<usize> = (0..header.len())
        .filter(|i| !keys.contains(&Some(*i)))
        .collect();
    let mut unknown_units = BTreeSet::new();
    let mut program = None;
    let mut baseline: BTreeMap<(String, String), Vec<MeasurementRow>> = BTreeMap::new();
    for (i, rec) in rdr.records().enumerate() {
        let line = i + 2;
        let rec = rec.map_err(|e| table::csv_error(&counter_path, e))?;
        if program.is_none() {
            program = c_bench
                .and_then(|c| rec.get(c))
                .map(str::trim)
                .filter(|p| !p.is_empty())
                .map(str::to_string);
        }
        let kernel = rec.get(c_kernel).unwrap_or_default().to_string();
        let input = rec.get(c_input).unwrap_or_default().to_string();
        let id = rec.get(c_id).unwrap_or_default().trim();
        let launch: u64 = id.parse().map_err(|_| {
            Error::parse(
                &counter_path,
                line,
                format!("column `ID`: `{id}` is not a launch number"),
            )
        })?;
        let rows = baseline.entry((kernel.clone(), input.clone())).or_default();
        for &c in &metric_cols {
            let text = rec.get(c).unwrap_or_default();
            if text.trim().is_empty() {
                continue;
            }
            let label = &header[c];
            let (unit, scale) = unit_of(label).unwrap_or_else(|| {
                unknown_units.insert(label.clone());
                ("", 1.0)
            });
            rows.push(MeasurementRow {
                program: String::new(),
                input: input_label(&input, &kernel),
                run: 1,
                variant: String::new(),
                kernel: kernel.clone(),
                launch,
                invocations: 1,
                metric: label.clone(),
                unit: unit.to_string(),
                value: number(&counter_path, line, label, text)? * scale,
            });
        }
    }
    if baseline.is_empty() {
        return Err(Error::format(
            &counter_path,
            "no rows below the header: XPlacer's dataset.csv holds the baseline's counters per \
             kernel launch and input (is the file cut off?)",
        ));
    }
    let program = program
        .or_else(|| dir.file_name().map(|n| n.to_string_lossy().to_string()))
        .unwrap_or_else(|| "xplacer".into());
    read_times(program, baseline, stat_path, counter_path, unknown_units)
}

/// The input label of a kernel of a run: samples of different kernels never pair.
fn input_label(input: &str, kernel: &str) -> String {
    format!("input={input},kernel={kernel}")
}

fn read_times(
    program: String,
    mut baseline: BTreeMap<(String, String), Vec<MeasurementRow>>,
    stat_path: PathBuf,
    counter_path: PathBuf,
    unknown_units: BTreeSet<String>,
) -> Result<Xplacer> {
    let (mut rdr, header) = table::with_header(&stat_path)?;
    let col = |name: &str| header.iter().position(|h| h == name);
    let (Some(c_kernel), Some(c_input), Some(c_avg)) =
        (col("kernel"), col("InputData"), col("AVG"))
    else {
        return Err(Error::parse(
            &stat_path,
            1,
            "expected the columns kernel, InputData, advise0..adviseN and AVG",
        ));
    };
    let advise: Vec<usize> = (0..header.len())
        .filter(|&i| header[i].starts_with("advise"))
        .collect();
    if advise.is_empty() {
        return Err(Error::parse(&stat_path, 1, "no advise0..adviseN columns"));
    }
    let mut records = Vec::new();
    // The line of each kernel, input and policy choice: a second time for one is an error.
    let mut lines: BTreeMap<(String, String, Vec<String>), usize> = BTreeMap::new();
    for (i, rec) in rdr.records().enumerate() {
        let line = i + 2;
        let rec = rec.map_err(|e| table::csv_error(&stat_path, e))?;
        let digits: Vec<String> = advise
            .iter()
            .map(|&c| rec.get(c).unwrap_or_default().trim().to_string())
            .collect();
        if let Some(d) = digits
            .iter()
            .find(|d| !POLICIES.iter().any(|(p, _, _)| p == d))
        {
            return Err(Error::parse(
                &stat_path,
                line,
                format!(
                    "advise column holds `{d}`, not one of XPlacer's placement policies 0-{}",
                    POLICIES.len() - 1
                ),
            ));
        }
        let avg = number(&stat_path, line, "AVG", rec.get(c_avg).unwrap_or_default())?;
        if !plausible_time_ms(avg) {
            return Err(Error::parse(
                &stat_path,
                line,
                format!(
                    "AVG {avg}: a kernel's mean time must be a positive number of milliseconds \
                     from {TIME_MS_LEAST:e} to {TIME_MS_MOST:e} (a run that failed has no row)"
                ),
            ));
        }
        let kernel = rec.get(c_kernel).unwrap_or_default().to_string();
        let input = rec.get(c_input).unwrap_or_default().to_string();
        let key = (kernel.clone(), input.clone(), digits.clone());
        if let Some(first) = lines.insert(key, line) {
            return Err(Error::parse(
                &stat_path,
                line,
                format!(
                    "a second time for kernel `{kernel}` on input `{input}` with policies {} \
                     (the first on line {first})",
                    digits.join(",")
                ),
            ));
        }
        records.push((kernel, input, digits, avg));
    }
    if records.is_empty() {
        return Err(Error::format(
            &stat_path,
            "no rows below the header: XPlacer's kernel_stat.csv holds a kernel's time per \
             input and placement policy (is the file cut off?)",
        ));
    }
    // Objects whose policy the file varies (bfs keeps two of its six at 0).
    let varying: Vec<usize> = (0..advise.len())
        .filter(|&k| records.iter().any(|r| r.2[k] != "0"))
        .collect();
    let label = |digits: &[String]| -> String {
        varying
            .iter()
            .map(|&k| format!("{}={}", header[advise[k]], digits[k]))
            .collect::<Vec<_>>()
            .join(",")
    };
    let mut timings = Vec::new();
    let mut measurements = Vec::new();
    let mut used: BTreeSet<(usize, String)> = BTreeSet::new();
    let mut without = BTreeSet::new();
    let mut without_baseline = BTreeSet::new();
    let mut kernel_inputs = BTreeSet::new();
    let timed_baseline: BTreeSet<(&str, &str)> = records
        .iter()
        .filter(|r| r.2.iter().all(|d| d == "0"))
        .map(|r| (r.0.as_str(), r.1.as_str()))
        .collect();
    for (kernel, input, digits, avg) in &records {
        let changed: Vec<usize> = (0..digits.len()).filter(|&k| digits[k] != "0").collect();
        if changed.len() > 1 {
            continue;
        }
        if !changed.is_empty() && !timed_baseline.contains(&(kernel.as_str(), input.as_str())) {
            without_baseline.insert(format!("{kernel} on {input}"));
            continue;
        }
        if let Some(&k) = changed.first() {
            if digits[k] != "1" && !advice_applied(&program, input) {
                continue;
            }
        }
        let key = (kernel.clone(), input.clone());
        let Some(base) = baseline.get_mut(&key) else {
            without.insert(format!("{kernel} on {input}"));
            continue;
        };
        kernel_inputs.insert(key);
        let variant = label(digits);
        let input_text = input_label(input, kernel);
        timings.push(TimingRow {
            program: program.clone(),
            input: input_text.clone(),
            run: 1,
            variant: variant.clone(),
            time_ms: *avg,
            repetitions: None,
            checksum_ok: None,
            times_ms: None,
        });
        match changed.first() {
            None => {
                for m in base.iter_mut() {
                    m.program = program.clone();
                    m.variant = variant.clone();
                }
            }
            Some(&k) => {
                used.insert((k, digits[k].clone()));
                measurements.push(MeasurementRow {
                    program: program.clone(),
                    input: input_text,
                    run: 1,
                    variant,
                    kernel: kernel.clone(),
                    launch: 0,
                    invocations: 1,
                    metric: "gpu__time_duration.sum".into(),
                    unit: "second".into(),
                    value: avg / 1000.0,
                });
            }
        }
    }
    // Baselines first, then the one-object variants, as the rows were read.
    let mut all: Vec<MeasurementRow> = baseline
        .into_values()
        .flatten()
        .filter(|m| !m.program.is_empty())
        .collect();
    all.extend(measurements);
    let switches = used
        .into_iter()
        .map(|(k, p)| SwitchRow {
            program: program.clone(),
            param: header[advise[k]].clone(),
            from: "0".into(),
            to: p.clone(),
            family: policy_family(&p),
        })
        .collect();
    if kernel_inputs.is_empty() {
        return Err(Error::format(
            &stat_path,
            format!(
                "no kernel and input pair has both a baseline time (every advise column 0) and \
                 the baseline's counters in {}; nothing to import",
                counter_path.display()
            ),
        ));
    }
    let (machine, host_link) = machine_of(&counter_path);
    Ok(Xplacer {
        program,
        measurements: all,
        timings,
        switches,
        kernel_inputs: kernel_inputs.len(),
        without_counters: without.into_iter().collect(),
        without_baseline: without_baseline.into_iter().collect(),
        unknown_units: unknown_units.into_iter().collect(),
        kernel_stat: stat_path,
        machine,
        host_link,
        counters: counter_path,
    })
}
