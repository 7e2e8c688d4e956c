//! Tuning results in the T4 format ("Open Autotuning Results Schema", Kernel Tuner's
//! `kernel_tuner/schema/T4/1.0.0/results-schema.json`; benchmark_hub ships each space's cache
//! beside it as `*_T4.json.gz`): `{metadata: {timeunit}, schema_version, results: [{
//! configuration: {param: value}, invalidity: "correct" | "compile" | "runtime" | ..., times:
//! {runtimes: [...]}, measurements: [{name, value, unit}], objectives: ["time"]}]}`.
//!
//! A configuration's time is its measurement named `time` (a run that optimised another
//! objective, such as `GFLOP/s`, records it too), in the file's time unit; without one, the
//! measurement its objective names where that states a unit of time (KTT's converter from its
//! own output writes `TotalDuration` in `Microseconds` and no metadata); a result whose
//! `invalidity` is not `correct`, or whose time is a string (`RuntimeFailedConfig`), failed.
//! Measurements named like Nsight Compute metrics (`dram__bytes.sum`), and `num_regs`, become
//! counters as in a Kernel Tuner cache. The schema records no device or kernel: the kernel is
//! named after the file. KTT 2.2 writes T4 files with more: `metadata.device` (the GPU's name;
//! with it the occupancy calculator knows the compute capability, dataset::devices),
//! `metadata.autotuner` and its version, and per result `compilation_data` (`registers`,
//! `local_memory_size`, `private_memory_size`), which become the compile counters a KTT
//! output gives (dataset::import::ktt).

use std::io::Read;
use std::path::Path;

use serde::Deserialize;

use super::kernel_tuner::observed;
use super::ktt::{COMPILE_METRICS, TIME_METRIC};
use super::space::{check_objective, in_cache_order, value_text, Config, TuningSpace};
use crate::error::{Error, Result};

/// The measurement that is a configuration's time.
const TIME: &str = "time";

#[derive(Deserialize)]
struct T4File {
    #[serde(default)]
    metadata: Metadata,
    results: Vec<T4Result>,
}

#[derive(Deserialize, Default)]
struct Metadata {
    #[serde(default)]
    timeunit: Option<String>,
    #[serde(default)]
    device: Option<String>,
    #[serde(default)]
    autotuner: Option<String>,
    #[serde(default)]
    autotuner_version: Option<String>,
    #[serde(default)]
    timestamp: Option<String>,
}

/// KTT's compile facts of a configuration, in the order of [`COMPILE_METRICS`].
#[derive(Deserialize)]
struct Compilation {
    #[serde(default)]
    registers: Option<f64>,
    #[serde(default)]
    local_memory_size: Option<f64>,
    #[serde(default)]
    private_memory_size: Option<f64>,
}

/// An object's fields in the file's order (a `serde_json::Map` would sort them): a T4
/// configuration's parameters, so that a space reads the same from its T4 file as from its
/// Kernel Tuner cache, and a Kernel Tuner results list's result.
pub(super) struct Ordered(pub(super) Vec<(String, serde_json::Value)>);

impl<'de> Deserialize<'de> for Ordered {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Ordered;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object of parameter values")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> std::result::Result<Ordered, A::Error> {
                let mut out = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    out.push(entry);
                }
                Ok(Ordered(out))
            }
        }
        d.deserialize_map(Visit)
    }
}

impl Ordered {
    pub(super) fn get(&self, key: &str) -> Option<&serde_json::Value> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }
}

#[derive(Deserialize)]
struct T4Result {
    configuration: Ordered,
    #[serde(default)]
    invalidity: Option<String>,
    #[serde(default)]
    measurements: Vec<Measurement>,
    #[serde(default)]
    objectives: Vec<String>,
    #[serde(default)]
    compilation_data: Option<Compilation>,
}

#[derive(Deserialize)]
struct Measurement {
    name: String,
    value: serde_json::Value,
    #[serde(default)]
    unit: Option<String>,
}

/// Milliseconds per unit of the file's `timeunit` (Kernel Tuner writes "miliseconds").
fn ms_per_unit(path: &Path, unit: Option<&str>) -> Result<f64> {
    let u = unit.unwrap_or("milliseconds");
    ms_per_time_unit(u).ok_or_else(|| {
        Error::format(
            path,
            format!("unknown T4 timeunit `{}`", u.to_ascii_lowercase()),
        )
    })
}

/// Milliseconds per unit where `unit` names a unit of time ("Microseconds", "ms"), else `None`.
fn ms_per_time_unit(unit: &str) -> Option<f64> {
    let u = unit.trim().to_ascii_lowercase();
    if u.starts_with("mili") || u.starts_with("milli") || u == "ms" {
        Some(1.0)
    } else if u.starts_with("micro") || u == "us" {
        Some(1e-3)
    } else if u.starts_with("nano") || u == "ns" {
        Some(1e-6)
    } else if u.starts_with("second") || u == "s" {
        Some(1e3)
    } else {
        None
    }
}

/// A result's time and milliseconds per unit of its value: its measurement named `time`, in
/// the file's time unit, or else the measurement its first objective names where that one
/// states a unit of time (KTT's T4 converter writes `TotalDuration` in `Microseconds`).
fn time_of(r: &T4Result, file_scale: f64) -> Option<(&Measurement, f64)> {
    if let Some(m) = r.measurements.iter().find(|m| m.name == TIME) {
        return Some((m, file_scale));
    }
    let objective = r.objectives.first()?;
    let m = r.measurements.iter().find(|m| &m.name == objective)?;
    Some((m, ms_per_time_unit(m.unit.as_deref()?)?))
}

/// Reads a T4 results file.
pub fn read(path: &Path, reader: impl Read) -> Result<TuningSpace> {
    let text = crate::profile::text::read_text_expecting(path, reader, "T4 tuning results (JSON)")?;
    let file: T4File = serde_json::from_str(&text).map_err(|e| {
        let hint = if e.is_eof() {
            " (the file ends inside it: cut off?)"
        } else {
            ""
        };
        Error::parse(path, e.line(), format!("not T4 tuning results: {e}{hint}"))
    })?;
    let scale = ms_per_unit(path, file.metadata.timeunit.as_deref())?;
    let params: Vec<String> = file
        .results
        .first()
        .map(|r| r.configuration.0.iter().map(|(k, _)| k.clone()).collect())
        .ok_or_else(|| Error::format(path, "T4 results file has no result"))?;
    let kernel = super::file_stem(path);
    let mut configs = Vec::with_capacity(file.results.len());
    // The first objective other than the time that a result without a time names.
    let mut objective: Option<&str> = None;
    // The first objective measured in a unit that is not one of time, and that unit.
    let mut untimed_unit: Option<(usize, &str, &str)> = None;
    for (i, r) in file.results.iter().enumerate() {
        let values = params
            .iter()
            .map(|p| {
                r.configuration.get(p).map(value_text).ok_or_else(|| {
                    Error::format(path, format!("result {i} has no parameter `{p}`"))
                })
            })
            .collect::<Result<Vec<_>>>()?;
        // The time, even where the run optimised another objective (which may grow as it gets faster).
        let time = time_of(r, scale);
        if time.is_none() && untimed_unit.is_none() {
            // The objective is measured, but not in a unit of time advise knows.
            // Only where the objective looks like a duration or states a unit: a tuning
            // score without a unit is another objective (check_objective says so).
            untimed_unit = r.objectives.first().and_then(|o| {
                let m = r.measurements.iter().find(|m| &m.name == o)?;
                let unit = m.unit.as_deref().unwrap_or("").trim();
                let lower = o.to_ascii_lowercase();
                let duration = lower.contains("duration") || lower.contains("time");
                (duration || !unit.is_empty()).then_some((i, o.as_str(), unit))
            });
        }
        if time.is_none() && objective.is_none() {
            objective = r
                .objectives
                .first()
                .map(String::as_str)
                .filter(|o| *o != TIME);
        }
        let invalid = r.invalidity.as_deref().filter(|v| *v != "correct");
        let ms_per_value = time.map_or(scale, |(_, s)| s);
        let time_name = time.map_or(TIME, |(m, _)| m.name.as_str());
        let (time_ms, failure) = match (invalid, time.map(|(m, _)| &m.value)) {
            (Some(why), _) => (None, Some(why.to_string())),
            (None, Some(serde_json::Value::Number(n))) => {
                (n.as_f64().map(|t| t * ms_per_value), None)
            }
            (None, Some(serde_json::Value::String(s))) => (None, Some(s.clone())),
            // The schema allows a list of values: their mean.
            (None, Some(serde_json::Value::Array(vs))) => {
                let xs: Vec<f64> = vs.iter().filter_map(serde_json::Value::as_f64).collect();
                match xs.len() {
                    0 => (None, Some(format!("no number in `{time_name}`"))),
                    n => (Some(xs.iter().sum::<f64>() / n as f64 * ms_per_value), None),
                }
            }
            (None, _) => (None, Some(format!("no `{TIME}` measurement"))),
        };
        // The measurements besides the time, as Kernel Tuner's observers record them.
        let others = r.measurements.iter().filter(|m| m.name != time_name);
        let mut counters = observed(
            &kernel,
            others.map(|m| (m.name.as_str(), &m.value)),
            time_ms,
        );
        if let (Some(cd), Some(t)) = (&r.compilation_data, time_ms) {
            let values = [cd.registers, cd.local_memory_size, cd.private_memory_size];
            // Each fact a measurement has not given already (`num_regs` gives the registers).
            let mut compiled: Vec<_> = COMPILE_METRICS
                .into_iter()
                .zip(values)
                .filter_map(|((name, unit), v)| {
                    let v = v.filter(|v| v.is_finite())?;
                    let given = counters.iter().any(|c| c.1 == name);
                    (!given).then(|| (kernel.clone(), name.to_string(), unit.to_string(), v))
                })
                .collect();
            if !compiled.is_empty() && counters.is_empty() {
                compiled.push((
                    kernel.clone(),
                    TIME_METRIC.into(),
                    "second".into(),
                    t * 1e-3,
                ));
            }
            // Before the time, where the measurements gave one, as the other counters are.
            let at = counters.len().saturating_sub(1);
            counters.splice(at..at, compiled);
        }
        configs.push(Config {
            values,
            time_ms,
            failure,
            counters,
        });
    }
    if let Some((i, o, unit)) = untimed_unit {
        let unit = if unit.is_empty() {
            "states no unit".to_string()
        } else {
            format!("is in `{unit}`")
        };
        let units = "not a unit of time (seconds, milliseconds, microseconds, nanoseconds, or \
                     s, ms, us, ns)";
        // Where other results are timed, this one's unit is damage; read as a failure, the
        // configuration would leave the space unseen.
        let message = if configs.iter().all(|c| c.time_ms.is_none()) {
            format!(
                "no result has a `{TIME}` measurement, and the measurement of the objective \
                 `{o}` {unit}, {units}: advise reads each configuration's run time"
            )
        } else {
            format!(
                "result {i}: the measurement of the objective `{o}` {unit}, {units}, while \
                 other results are timed: the file is damaged"
            )
        };
        return Err(Error::format(path, message));
    }
    check_objective(path, objective, &configs)?;
    // The same space searched from either file gives the same runs.
    in_cache_order(&mut configs);
    let meta = &file.metadata;
    let mut notes = Vec::new();
    for (key, value) in [
        ("autotuner", &meta.autotuner),
        ("autotuner version", &meta.autotuner_version),
        ("timestamp", &meta.timestamp),
    ] {
        if let Some(v) = value {
            notes.push((key.to_string(), v.clone()));
        }
    }
    let device = match meta
        .device
        .as_deref()
        .map(str::trim)
        .filter(|d| !d.is_empty())
    {
        Some(d) => d.to_string(),
        None => {
            notes.push((
                "device".into(),
                "not recorded in the T4 results file".into(),
            ));
            "unknown (T4 results record no device)".into()
        }
    };
    Ok(TuningSpace {
        tool: "t4",
        device,
        kernel,
        params,
        configs,
        notes,
        run_noise: None,
    })
}

#[cfg(test)]
mod tests;
