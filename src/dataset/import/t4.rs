//! Tuning results in the T4 format ("Open Autotuning Results Schema", Kernel Tuner's
//! `kernel_tuner/schema/T4/1.0.0/results-schema.json`; benchmark_hub ships each space's cache
//! beside it as `*_T4.json.gz`): `{metadata: {timeunit}, schema_version, results: [{
//! configuration: {param: value}, invalidity: "correct" | "compile" | "runtime" | ..., times:
//! {runtimes: [...]}, measurements: [{name, value, unit}], objectives: ["time"]}]}`.
//!
//! A configuration's time is its measurement named `time` (a run that optimised another
//! objective, such as `GFLOP/s`, records it too), in the file's time unit; a result whose
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
}

/// Milliseconds per unit of the file's `timeunit` (Kernel Tuner writes "miliseconds").
fn ms_per_unit(path: &Path, unit: Option<&str>) -> Result<f64> {
    let u = unit.unwrap_or("milliseconds").to_ascii_lowercase();
    if u.starts_with("mili") || u.starts_with("milli") || u == "ms" {
        Ok(1.0)
    } else if u.starts_with("micro") || u == "us" {
        Ok(1e-3)
    } else if u.starts_with("nano") || u == "ns" {
        Ok(1e-6)
    } else if u.starts_with("second") || u == "s" {
        Ok(1e3)
    } else {
        Err(Error::format(path, format!("unknown T4 timeunit `{u}`")))
    }
}

/// Reads a T4 results file.
pub fn read(path: &Path, reader: impl Read) -> Result<TuningSpace> {
    let text = crate::profile::text::read_text(path, reader)?;
    let file: T4File = serde_json::from_str(&text)
        .map_err(|e| Error::parse(path, e.line(), format!("not T4 tuning results: {e}")))?;
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
        let time = r.measurements.iter().find(|m| m.name == TIME);
        if time.is_none() && objective.is_none() {
            objective = r
                .objectives
                .first()
                .map(String::as_str)
                .filter(|o| *o != TIME);
        }
        let invalid = r.invalidity.as_deref().filter(|v| *v != "correct");
        let (time_ms, failure) = match (invalid, time.map(|m| &m.value)) {
            (Some(why), _) => (None, Some(why.to_string())),
            (None, Some(serde_json::Value::Number(n))) => (n.as_f64().map(|t| t * scale), None),
            (None, Some(serde_json::Value::String(s))) => (None, Some(s.clone())),
            // The schema allows a list of values: their mean.
            (None, Some(serde_json::Value::Array(vs))) => {
                let xs: Vec<f64> = vs.iter().filter_map(serde_json::Value::as_f64).collect();
                match xs.len() {
                    0 => (None, Some(format!("no number in `{TIME}`"))),
                    n => (Some(xs.iter().sum::<f64>() / n as f64 * scale), None),
                }
            }
            (None, _) => (None, Some(format!("no `{TIME}` measurement"))),
        };
        // The measurements besides the time, as Kernel Tuner's observers record them.
        let others = r.measurements.iter().filter(|m| m.name != TIME);
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
mod tests {
    use super::*;

    /// Synthetic results in the format of benchmark_hub's `*_T4.json.gz`.
    const T4: &str = r#"{"metadata": {"timeunit": "miliseconds"}, "schema_version": "1.0.0",
"results": [
 {"configuration": {"block_size_x": 16, "read_only": 0}, "invalidity": "correct",
  "correctness": 1, "times": {"runtimes": [2.0]},
  "measurements": [{"name": "time", "value": 2.0, "unit": ""},
                   {"name": "dram__bytes.sum", "value": 64.0, "unit": "byte"},
                   {"name": "num_regs", "value": 32, "unit": ""}],
  "objectives": ["time"]},
 {"configuration": {"block_size_x": 32, "read_only": 0}, "invalidity": "runtime",
  "correctness": 0, "measurements": [{"name": "time", "value": "RuntimeFailedConfig"}],
  "objectives": ["time"]},
 {"configuration": {"block_size_x": 32, "read_only": 1}, "invalidity": "correct",
  "correctness": 1, "times": {"runtimes": [1.5]},
  "measurements": [{"name": "time", "value": 1.5, "unit": ""}], "objectives": ["time"]}
]}"#;

    /// A run that optimised another objective: the time is still the `time` measurement
    /// (GFLOP/s would be minimised the wrong way); without one, an error names the objective.
    #[test]
    fn the_time_whatever_the_objective() {
        let gflops = T4.replace(r#""objectives": ["time"]"#, r#""objectives": ["GFLOP/s"]"#);
        let gflops = gflops.replace(
            r#"{"name": "time", "value": 1.5, "unit": ""}"#,
            r#"{"name": "GFLOP/s", "value": 900.0, "unit": ""}, {"name": "time", "value": 1.5, "unit": ""}"#,
        );
        let s = read(Path::new("g_T4.json"), gflops.as_bytes()).unwrap();
        let times: Vec<Option<f64>> = s.configs.iter().map(|c| c.time_ms).collect();
        assert_eq!(times, [Some(2.0), None, Some(1.5)]);
        let score = r#"{"metadata": {"timeunit": "miliseconds"}, "schema_version": "1.0.0",
"results": [{"configuration": {"popsize": 10}, "invalidity": "correct", "correctness": 1,
  "measurements": [{"name": "score", "value": -1.3, "unit": ""}], "objectives": ["score"]}]}"#;
        let err = read(Path::new("h_T4.json"), score.as_bytes()).unwrap_err();
        let msg = err.to_string();
        assert!(
            msg.starts_with("h_T4.json") && msg.contains("objective is `score`"),
            "{msg}"
        );
    }

    #[test]
    fn results_become_configurations_times_and_counters() {
        let s = read(Path::new("conv_T4.json"), T4.as_bytes()).unwrap();
        assert_eq!(s.params, ["block_size_x", "read_only"]);
        // Parameters keep the file's order, not the alphabet's.
        let swapped = T4.replace(
            r#"{"block_size_x": 16, "read_only": 0}"#,
            r#"{"read_only": 0, "block_size_x": 16}"#,
        );
        let s2 = read(Path::new("conv_T4.json"), swapped.as_bytes()).unwrap();
        assert_eq!(s2.params, ["read_only", "block_size_x"]);
        assert_eq!(s.configs.len(), 3);
        assert_eq!(s.failed(), 1);
        assert_eq!(s.configs[0].time_ms, Some(2.0));
        // Sorted as a cache's keys: "16,0", "32,0", "32,1".
        assert_eq!(s.configs[1].failure.as_deref(), Some("runtime"));
        let names: Vec<&str> = s.configs[0].counters.iter().map(|c| c.1.as_str()).collect();
        assert_eq!(
            names,
            [
                "dram__bytes.sum",
                "launch__registers_per_thread",
                "gpu__time_duration.sum"
            ]
        );
        assert!(s.configs[2].counters.is_empty());
        assert_eq!(s.kernel, "conv_T4");
        // A time given as a list of values is their mean.
        let listed = T4.replace(r#""value": 1.5,"#, r#""value": [1.0, 3.0],"#);
        assert_ne!(listed, T4);
        let s3 = read(Path::new("conv_T4.json"), listed.as_bytes()).unwrap();
        assert_eq!(s3.configs[2].time_ms, Some(2.0));
    }

    /// Synthetic results shaped as KTT 2.2 writes T4 files: the device and tool in the
    /// metadata, parameter values as text, time in microseconds, compile data per result.
    const KTT_T4: &str = r#"{"metadata": {"autotuner": "KTT", "autotuner_version": "2.2.0",
"device": "NVIDIA RTX 500 Ada Generation Laptop GPU", "timeunit": "microseconds",
"timestamp": "2026-03-05 09:00:49 UTC"},
"results": [
 {"compilation_data": {"registers": 44, "local_memory_size": 0, "private_memory_size": 0},
  "configuration": {"WORK_GROUP_SIZE_X": "16", "Z_ITERATIONS": "1"}, "invalidity": "correct",
  "measurements": [{"name": "time", "unit": "", "value": 4164.0},
                   {"name": "smsp__inst_executed.sum", "type": "Double", "value": 3.4e8}],
  "objectives": ["time"]},
 {"compilation_data": {"registers": 31},
  "configuration": {"WORK_GROUP_SIZE_X": "32", "Z_ITERATIONS": "1"}, "invalidity": "correct",
  "measurements": [{"name": "time", "unit": "", "value": 2000.0}], "objectives": ["time"]}
]}"#;

    #[test]
    fn ktt_results_give_the_device_and_compile_data() {
        let s = read(Path::new("coulomb.t4.json"), KTT_T4.as_bytes()).unwrap();
        assert_eq!(s.kernel, "coulomb");
        assert_eq!(s.device, "NVIDIA RTX 500 Ada Generation Laptop GPU");
        assert!(s
            .notes
            .contains(&("autotuner version".into(), "2.2.0".into())));
        assert_eq!(s.configs[0].time_ms, Some(4.164));
        let counters = |i: usize| -> Vec<(String, f64)> {
            s.configs[i]
                .counters
                .iter()
                .map(|c| (c.1.clone(), c.3))
                .collect()
        };
        let time = ("gpu__time_duration.sum".to_string(), 4.164e-3);
        let first = counters(0);
        assert_eq!(first.len(), 5, "{first:?}");
        assert_eq!(first[0], ("smsp__inst_executed.sum".into(), 3.4e8));
        assert_eq!(first[1], ("launch__registers_per_thread".into(), 44.0));
        assert_eq!(first[4].0, time.0);
        assert!((first[4].1 - time.1).abs() < 1e-12);
        // A result with compile data but no counter still gets its registers and its time.
        let second = counters(1);
        assert_eq!(second.len(), 2, "{second:?}");
        assert_eq!(second[0], ("launch__registers_per_thread".into(), 31.0));
        assert_eq!(second[1].0, time.0);
        // The compute capability is known from the name.
        assert_eq!(
            crate::dataset::devices::compute_capability_of(&s.device),
            Some("8.9")
        );
    }

    #[test]
    fn bad_files_are_errors_with_the_file() {
        let unit = T4.replace("miliseconds", "fortnights");
        let err = read(Path::new("x.json"), unit.as_bytes()).unwrap_err();
        assert!(err.to_string().contains("fortnights"), "{err}");
        let err = read(Path::new("x.json"), &b"{\"results\": [{}]}"[..]).unwrap_err();
        assert!(err.to_string().starts_with("x.json"), "{err}");
        let err = read(Path::new("x.json"), &b"{\"results\": []}"[..]).unwrap_err();
        assert!(err.to_string().contains("no result"), "{err}");
    }
}
