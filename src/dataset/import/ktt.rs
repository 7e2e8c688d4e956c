//! Kernel Tuning Toolkit (KTT 2.x) JSON output: `{"Metadata": {...}, "Results": [...]}`, one
//! result per configuration with its `Configuration`, `Status` and `ComputationResults` (the
//! kernel's `Duration` in `Metadata.TimeUnit`, compilation data and, when KTT profiled, the
//! Nsight Compute `ProfilingData.Counters`).

use std::io::Read;
use std::path::Path;

use serde::Deserialize;

use super::space::{value_text, Config, TuningSpace};
use crate::error::{Error, Result};

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct KttFile {
    metadata: Metadata,
    results: Vec<KttResult>,
}

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct Metadata {
    device: String,
    #[serde(default)]
    ktt_version: Option<String>,
    #[serde(default)]
    time_unit: Option<String>,
    #[serde(default)]
    timestamp: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct KttResult {
    configuration: Vec<Param>,
    #[serde(default)]
    computation_results: Vec<Computation>,
    status: String,
    #[serde(default)]
    kernel_name: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct Param {
    name: String,
    value: serde_json::Value,
    /// KTT's type of the value (`UnsignedInt`, `Int`, `Double`, ...).
    #[serde(default)]
    value_type: Option<String>,
}

/// A value KTT's numeric types say is a number and that is not one (a damaged file): read as
/// text it would become a level of its own.
fn not_a_number(p: &Param) -> Option<String> {
    let numeric = matches!(
        p.value_type.as_deref(),
        Some("UnsignedInt" | "Int" | "Double" | "Float" | "Bool")
    );
    (numeric && !p.value.is_number()).then(|| {
        format!(
            "parameter `{}` has the value {}, not a number, though its ValueType is {}",
            p.name,
            p.value,
            p.value_type.as_deref().unwrap_or_default()
        )
    })
}

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct Computation {
    duration: f64,
    #[serde(default)]
    kernel_function: Option<String>,
    #[serde(default)]
    compilation_data: Option<Compilation>,
    #[serde(default)]
    profiling_data: Option<Profiling>,
}

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct Compilation {
    #[serde(default)]
    registers_count: Option<f64>,
    #[serde(default)]
    local_memory_size: Option<f64>,
    #[serde(default)]
    private_memory_size: Option<f64>,
}

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct Profiling {
    #[serde(default)]
    counters: Vec<Counter>,
}

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct Counter {
    name: String,
    value: serde_json::Value,
}

/// The kernel's duration, as every import names it.
pub(super) const TIME_METRIC: &str = "gpu__time_duration.sum";

/// The compiler's facts of a configuration (name, unit): registers, local and private memory,
/// in the order of `CompilationData`'s fields read below.
pub(super) const COMPILE_METRICS: [(&str, &str); 3] = [
    ("launch__registers_per_thread", "register/thread"),
    ("ktt__local_memory_size", "byte/block"),
    ("ktt__private_memory_size", "byte/thread"),
];

/// Drops the profiler's counters and keeps each configuration's time and compile data (as a
/// space recorded without profiling has them), and says so in the provenance notes.
pub fn keep_times_only(space: &mut TuningSpace) {
    for c in &mut space.configs {
        c.counters.retain(|(_, metric, _, _)| {
            metric == TIME_METRIC || COMPILE_METRICS.iter().any(|(name, _)| metric == name)
        });
    }
    space.notes.push((
        "times only".into(),
        "imported with --times-only: each configuration's time and compile data, not the \
         profiler's counters"
            .into(),
    ));
}

/// Milliseconds per unit of KTT's `TimeUnit`.
fn ms_per_unit(path: &Path, unit: Option<&str>) -> Result<f64> {
    match unit.unwrap_or("Microseconds") {
        "Nanoseconds" => Ok(1e-6),
        "Microseconds" => Ok(1e-3),
        "Milliseconds" => Ok(1.0),
        "Seconds" => Ok(1e3),
        other => Err(Error::format(
            path,
            format!("unknown KTT TimeUnit `{other}`"),
        )),
    }
}

/// A counter's unit, from its ncu name (KTT stores none).
pub(super) fn unit_of(name: &str) -> &'static str {
    if name.contains(".pct") {
        "%"
    } else if name.contains("sectors") {
        "sector"
    } else if name.contains("inst") {
        "inst"
    } else {
        ""
    }
}

/// KTT's result statuses (`ResultStatus` in KTT's API); every one but `Ok` is a failure.
const STATUSES: [&str; 5] = [
    "Ok",
    "ComputationFailed",
    "ValidationFailed",
    "CompilationFailed",
    "DeviceLimitsExceeded",
];

/// Whether a result worked. A status KTT does not write, an `Ok` without a computation, or a
/// working one's duration that is not a positive number is an error: read as a failure it
/// would leave the configuration out of the space unseen.
fn status_ok(r: &KttResult) -> std::result::Result<bool, String> {
    if !STATUSES.contains(&r.status.as_str()) {
        return Err(format!(
            "status `{}` is not one of KTT's ({})",
            r.status,
            STATUSES.join(", ")
        ));
    }
    if r.status != "Ok" {
        return Ok(false);
    }
    if r.computation_results.is_empty() {
        return Err("status Ok but no ComputationResults, so no time".into());
    }
    match r
        .computation_results
        .iter()
        .find(|c| !(c.duration.is_finite() && c.duration > 0.0))
    {
        Some(c) => Err(format!(
            "status Ok but Duration {}: a working result's time is a positive number",
            c.duration
        )),
        None => Ok(true),
    }
}

/// Reads a KTT output file (`.json` or `.json.gz`).
pub fn read(path: &Path, reader: impl Read) -> Result<TuningSpace> {
    let text = crate::profile::text::read_text_expecting(path, reader, "KTT's JSON output")?;
    let file: KttFile = serde_json::from_str(&text)
        .map_err(|e| Error::parse(path, e.line(), format!("not KTT JSON output: {e}")))?;
    let scale = ms_per_unit(path, file.metadata.time_unit.as_deref())?;
    let params: Vec<String> = file
        .results
        .first()
        .map(|r| r.configuration.iter().map(|p| p.name.clone()).collect())
        .ok_or_else(|| Error::format(path, "KTT output has no results"))?;
    let mut kernel = String::new();
    let mut configs = Vec::with_capacity(file.results.len());
    for (i, r) in file.results.iter().enumerate() {
        if let Some(why) = r.configuration.iter().find_map(not_a_number) {
            return Err(Error::format(path, format!("result {i}: {why}")));
        }
        let names: Vec<&str> = r.configuration.iter().map(|p| p.name.as_str()).collect();
        if names != params.iter().map(String::as_str).collect::<Vec<_>>() {
            return Err(Error::format(
                path,
                format!("result {i} has parameters {names:?}, the first has {params:?}"),
            ));
        }
        if kernel.is_empty() {
            kernel = r.kernel_name.clone().unwrap_or_default();
        }
        let ok = status_ok(r).map_err(|e| Error::format(path, format!("result {}: {e}", i + 1)))?;
        let mut counters = Vec::new();
        for c in &r.computation_results {
            let k = c.kernel_function.clone().unwrap_or_else(|| kernel.clone());
            counters.push((
                k.clone(),
                TIME_METRIC.into(),
                "second".into(),
                c.duration * scale * 1e-3,
            ));
            if let Some(cd) = &c.compilation_data {
                let values = [
                    cd.registers_count,
                    cd.local_memory_size,
                    cd.private_memory_size,
                ];
                for ((name, unit), v) in COMPILE_METRICS.into_iter().zip(values) {
                    if let Some(v) = v {
                        counters.push((k.clone(), name.into(), unit.into(), v));
                    }
                }
            }
            for ctr in c.profiling_data.iter().flat_map(|p| &p.counters) {
                if let Some(v) = ctr.value.as_f64() {
                    counters.push((k.clone(), ctr.name.clone(), unit_of(&ctr.name).into(), v));
                }
            }
        }
        let time: f64 = r
            .computation_results
            .iter()
            .map(|c| c.duration)
            .sum::<f64>()
            * scale;
        configs.push(Config {
            values: r
                .configuration
                .iter()
                .map(|p| value_text(&p.value))
                .collect(),
            time_ms: ok.then_some(time),
            failure: (!ok).then(|| r.status.clone()),
            counters: if ok { counters } else { Vec::new() },
        });
    }
    let (configs, merged) = merge_repeats(configs);
    let m = &file.metadata;
    let mut notes: Vec<(String, String)> = [
        ("KTT version", m.ktt_version.clone()),
        ("time unit", m.time_unit.clone()),
        ("timestamp", m.timestamp.clone()),
    ]
    .into_iter()
    .filter_map(|(k, v)| v.map(|v| (k.to_string(), v)))
    .collect();
    if merged > 0 {
        notes.push((
            "repeated configurations".into(),
            format!(
                "{merged} results repeat an earlier configuration (a searcher's run); each \
                 configuration keeps the mean of its times and the counters of its most \
                 profiled result"
            ),
        ));
    }
    Ok(TuningSpace {
        tool: "ktt",
        device: m.device.clone(),
        kernel,
        params,
        configs,
        notes,
        run_noise: None,
    })
}

/// Joins results of the same configuration (a searcher measures some more than once): the
/// mean of the working ones' times, the counters of the one with the most, in the order the
/// configurations first appear. Returns the configurations and how many results were joined.
fn merge_repeats(configs: Vec<Config>) -> (Vec<Config>, usize) {
    let mut at: std::collections::HashMap<Vec<String>, usize> = Default::default();
    let mut out: Vec<Config> = Vec::new();
    let mut times: Vec<Vec<f64>> = Vec::new();
    let mut merged = 0;
    for c in configs {
        match at.get(&c.values) {
            Some(&i) => {
                merged += 1;
                times[i].extend(c.time_ms);
                if c.time_ms.is_some() && c.counters.len() > out[i].counters.len() {
                    out[i].counters = c.counters;
                }
            }
            None => {
                at.insert(c.values.clone(), out.len());
                times.push(c.time_ms.into_iter().collect());
                out.push(c);
            }
        }
    }
    for (c, t) in out.iter_mut().zip(&times) {
        if !t.is_empty() {
            c.time_ms = Some(t.iter().sum::<f64>() / t.len() as f64);
            c.failure = None;
        }
    }
    (out, merged)
}

#[cfg(test)]
mod tests;
