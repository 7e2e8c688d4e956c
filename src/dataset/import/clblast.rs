//! CLBlast's tuner output: the `clblast_<family>_<precision>.json` files its tuner binaries
//! (`clblast_tuner_xgemm` and the others) write, and that CLBlast's own database is built from
//! (CLBlast's `src/tuning/tuning.cpp`, `PrintTimingsToFileAsJSON`):
//!
//! ```text
//! {"kernel_family": "xgemm_1", "precision": "32", "best_kernel": "Xgemm", "best_time": "1.17",
//!  "best_parameters": "...", "arg_m": "1024", ..., "device": "...", "platform_vendor": "...",
//!  "results": [{"kernel": "Xgemm", "time": 5.471, "parameters": {"GEMMK": 0, "KWG": 32, ...}}]}
//! ```
//!
//! Each result is one configuration that compiled, ran and matched the reference, with its
//! time in milliseconds; the tuner writes no result for one that failed, so the space is the
//! configurations that work (as Kernel Tuner's `valid` space is). Parameters keep the first
//! result's order; those that never change (`PRECISION`, a fixed `KWG`) are the input, as in
//! the other formats. Where the results hold several kernels, `kernel` is a parameter too. The
//! tuner's arguments (`arg_m`, `arg_alpha`, ...) and the device's facts go to the notes.

use std::io::Read;
use std::path::Path;

use serde::Deserialize;

use super::kernel_tuner::time_of;
use super::space::{in_cache_order, value_text, Config, TuningSpace};
use super::t4::Ordered;
use crate::error::{Error, Result};

#[derive(Deserialize)]
struct ClblastFile {
    results: Vec<ClblastResult>,
    /// The rest of the top level: the family, the tuner's arguments, the device's facts.
    #[serde(flatten)]
    top: serde_json::Map<String, serde_json::Value>,
}

#[derive(Deserialize)]
struct ClblastResult {
    #[serde(default)]
    kernel: Option<String>,
    #[serde(default)]
    time: Option<serde_json::Value>,
    parameters: Ordered,
}

/// The text of the field `key` of the file's top level, where it is a string or a number.
fn field(top: &serde_json::Map<String, serde_json::Value>, key: &str) -> Option<String> {
    match top.get(key)? {
        serde_json::Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
        v @ serde_json::Value::Number(_) => Some(value_text(v)),
        _ => None,
    }
}

/// Whether a file's first few kB look like CLBlast's tuner output.
pub(super) fn looks_like(text: &str) -> bool {
    text.contains("\"kernel_family\"") && text.contains("\"results\"")
}

/// Reads a CLBlast tuner output file.
pub fn read(path: &Path, reader: impl Read) -> Result<TuningSpace> {
    let text =
        crate::profile::text::read_text_expecting(path, reader, "CLBlast tuner output (JSON)")?;
    let what = "not CLBlast tuner output ({\"kernel_family\", \"results\": [{\"kernel\", \"time\", \"parameters\"}]})";
    let ClblastFile { results, top } = serde_json::from_str(&text)
        .map_err(|e| Error::parse(path, e.line(), format!("{what}: {e}")))?;
    let first = results
        .first()
        .ok_or_else(|| Error::format(path, "CLBlast tuner output has no result"))?;
    let kernel_of = |r: &ClblastResult| r.kernel.clone().unwrap_or_default();
    let several_kernels = results.iter().any(|r| kernel_of(r) != kernel_of(first));
    let mut params: Vec<String> = first.parameters.0.iter().map(|(k, _)| k.clone()).collect();
    if several_kernels {
        params.insert(0, "kernel".into());
    }
    let mut configs = Vec::with_capacity(results.len());
    for (i, r) in results.iter().enumerate() {
        // A parameter the first result lacks would be dropped, and two configurations that
        // differ only in it would look alike.
        if let Some((extra, _)) = r.parameters.0.iter().find(|(k, _)| !params.contains(k)) {
            return Err(Error::format(
                path,
                format!(
                    "result {} has parameter `{extra}`, which the first result has not: every \
                     result of one file names the same parameters",
                    i + 1
                ),
            ));
        }
        let values = params
            .iter()
            .map(|p| {
                if several_kernels && p == "kernel" {
                    return Ok(kernel_of(r));
                }
                r.parameters.get(p).map(value_text).ok_or_else(|| {
                    Error::format(path, format!("result {} has no parameter `{p}`", i + 1))
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let (time_ms, failure) = time_of(r.time.as_ref())
            .map_err(|e| Error::format(path, format!("result {}: {e}", i + 1)))?;
        configs.push(Config {
            values,
            time_ms,
            failure,
            counters: Vec::new(),
        });
    }
    in_cache_order(&mut configs);
    let family = field(&top, "kernel_family");
    let kernel = match (&family, field(&top, "precision")) {
        (Some(f), Some(p)) => format!("{f}_{p}"),
        (Some(f), None) => f.clone(),
        _ => super::file_stem(path),
    };
    let device = field(&top, "device")
        .or_else(|| field(&top, "clblast_device_name"))
        .unwrap_or_else(|| "unknown (CLBlast tuner output names no device)".into());
    let mut notes = vec![(
        "format".to_string(),
        "CLBlast tuner output; it lists the configurations that ran and were correct only, in ms"
            .to_string(),
    )];
    let arguments: Vec<String> = top
        .keys()
        .filter_map(|k| Some(format!("{}={}", k.strip_prefix("arg_")?, field(&top, k)?)))
        .collect();
    if !arguments.is_empty() {
        notes.push(("tuner arguments".into(), arguments.join(" ")));
    }
    for key in [
        "platform_vendor",
        "platform_version",
        "device_vendor",
        "device_type",
    ] {
        if let Some(v) = field(&top, key) {
            notes.push((key.replace('_', " "), v));
        }
    }
    Ok(TuningSpace {
        tool: "clblast",
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

    /// Synthetic output in the shape CLBlast's tuner writes (`PrintTimingsToFileAsJSON`).
    const OUTPUT: &str = r#"{
  "kernel_family": "xgemm_1",
  "precision": "32",
  "best_kernel": "Xgemm",
  "best_time": "1.50",
  "arg_m": "1024",
  "arg_alpha": "2.00",
  "device": "Synthetic GPU",
  "platform_vendor": "Nobody",
  "results": [
    {
      "kernel": "Xgemm",
      "time": 2.000,
      "parameters": {"MWG": 16, "NWG": 16, "KWG": 32, "PRECISION": 32}
    },
    {
      "kernel": "Xgemm",
      "time": 1.500,
      "parameters": {"MWG": 64, "NWG": 16, "KWG": 32, "PRECISION": 32}
    },
    {
      "kernel": "Xgemm",
      "time": 3.250,
      "parameters": {"MWG": 16, "NWG": 64, "KWG": 32, "PRECISION": 32}
    }
  ]
}"#;

    #[test]
    fn results_become_configurations_and_the_rest_notes() {
        let s = read(Path::new("clblast_xgemm_1_32.json"), OUTPUT.as_bytes()).unwrap();
        assert_eq!(s.params, ["MWG", "NWG", "KWG", "PRECISION"]);
        assert_eq!(
            (s.kernel.as_str(), s.device.as_str()),
            ("xgemm_1_32", "Synthetic GPU")
        );
        assert_eq!(s.configs.len(), 3);
        assert_eq!(s.failed(), 0);
        // In a cache's key order: "16,16,...", "16,64,...", "64,16,...".
        let times: Vec<Option<f64>> = s.configs.iter().map(|c| c.time_ms).collect();
        assert_eq!(times, [Some(2.0), Some(3.25), Some(1.5)]);
        assert_eq!(s.varying(), [0, 1]);
        assert_eq!(s.input_label(), "KWG=32,PRECISION=32");
        let note = |k: &str| s.notes.iter().find(|n| n.0 == k).map(|n| n.1.clone());
        assert_eq!(
            note("tuner arguments").as_deref(),
            Some("alpha=2.00 m=1024")
        );
        assert_eq!(note("platform vendor").as_deref(), Some("Nobody"));
        assert!(looks_like(OUTPUT));
    }

    #[test]
    fn several_kernels_make_a_parameter_and_odd_times_fail() {
        let mixed = OUTPUT
            .replacen(r#""kernel": "Xgemm""#, r#""kernel": "XgemmUpper""#, 1)
            .replacen("\"time\": 3.250", "\"time\": \"nan\"", 1);
        let s = read(Path::new("x.json"), mixed.as_bytes()).unwrap();
        assert_eq!(s.params[0], "kernel");
        assert_eq!(s.configs[2].values[0], "XgemmUpper");
        assert_eq!(s.failed(), 1);
    }

    #[test]
    fn bad_files_are_errors_that_name_the_file() {
        for bad in [
            "{\"kernel_family\": \"x\"}",
            "{\"kernel_family\": \"x\", \"results\": []}",
            "{\"kernel_family\": \"x\", \"results\": [{\"time\": 1.0}]}",
            "{\"kernel_family\": \"x\",\n \"results\": [",
        ] {
            let err = read(Path::new("c.json"), bad.as_bytes())
                .unwrap_err()
                .to_string();
            assert!(err.starts_with("c.json"), "{err}");
        }
        let missing = OUTPUT.replacen(r#""MWG": 64, "#, "", 1);
        let err = read(Path::new("c.json"), missing.as_bytes())
            .unwrap_err()
            .to_string();
        assert!(err.contains("result 2 has no parameter `MWG`"), "{err}");
        let extra = OUTPUT.replacen(
            r#""MWG": 64, "NWG": 16, "#,
            r#""MWG": 64, "NWG": 16, "VWM": 2, "#,
            1,
        );
        let err = read(Path::new("c.json"), extra.as_bytes())
            .unwrap_err()
            .to_string();
        assert!(err.contains("result 2 has parameter `VWM`"), "{err}");
        for (time, says) in [("\"2.0\"", "time is the text"), ("-2.0", "not positive")] {
            let bad = OUTPUT.replacen("2.000", time, 1);
            let err = read(Path::new("c.json"), bad.as_bytes())
                .unwrap_err()
                .to_string();
            assert!(err.contains("result 1: ") && err.contains(says), "{err}");
        }
    }
}
