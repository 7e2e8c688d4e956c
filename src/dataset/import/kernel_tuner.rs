//! Kernel Tuner cache files (`.json` or `.json.gz`): `{device_name, kernel_name, problem_size,
//! tune_params_keys, tune_params, cache: {"v1,v2,...": {<param>: v, ..., "time": ms, ...}}}`.
//!
//! Failed configurations hold a string instead of a time (`"CompilationFailedConfig"`,
//! `"RuntimeFailedConfig"`, `"InvalidConfig"`). Kernel Tuner writes the cache while it runs, one
//! entry per line, and closes the braces only at the end: a cache cut off mid-run is repaired
//! by keeping its complete entries.

use std::io::Read;
use std::path::Path;

use serde::Deserialize;

use super::space::{value_text, Config, TuningSpace};
use crate::error::{Error, Result};

#[derive(Deserialize)]
struct Cache {
    #[serde(default)]
    device_name: String,
    #[serde(default)]
    kernel_name: String,
    #[serde(default)]
    problem_size: serde_json::Value,
    tune_params_keys: Vec<String>,
    cache: serde_json::Map<String, serde_json::Value>,
}

/// Cuts an unfinished cache after its last complete entry and closes it. Returns `None` when
/// that does not give valid JSON within a few tries (each try parses the whole text, so the
/// tries are capped: a cut lands inside the last entry, one or two `}` back).
fn repair(text: &str) -> Option<String> {
    let mut end = text.len();
    for _ in 0..4 {
        let cut = text[..end].rfind('}')?;
        let candidate = format!("{}\n}}\n}}\n", &text[..=cut]);
        if serde_json::from_str::<serde_json::Value>(&candidate).is_ok() {
            return Some(candidate);
        }
        end = cut;
    }
    None
}

/// Reads a Kernel Tuner cache.
pub fn read(path: &Path, reader: impl Read) -> Result<TuningSpace> {
    let text = crate::profile::text::read_text(path, reader)?;
    let (cache, repaired): (Cache, bool) = match serde_json::from_str(&text) {
        Ok(c) => (c, false),
        Err(first) => {
            let fixed = repair(&text).ok_or_else(|| {
                Error::parse(
                    path,
                    first.line(),
                    format!("not a Kernel Tuner cache: {first}"),
                )
            })?;
            let c = serde_json::from_str(&fixed).map_err(|e| {
                Error::parse(path, first.line(), format!("not a Kernel Tuner cache: {e}"))
            })?;
            (c, true)
        }
    };
    let params = cache.tune_params_keys.clone();
    let mut configs = Vec::with_capacity(cache.cache.len());
    for (key, entry) in &cache.cache {
        let obj = entry
            .as_object()
            .ok_or_else(|| Error::format(path, format!("cache entry `{key}` is not an object")))?;
        let values = params
            .iter()
            .map(|p| {
                obj.get(p).map(value_text).ok_or_else(|| {
                    Error::format(path, format!("cache entry `{key}` has no parameter `{p}`"))
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let (time_ms, failure) = match obj.get("time") {
            Some(serde_json::Value::Number(n)) => (n.as_f64(), None),
            Some(serde_json::Value::String(s)) => (None, Some(s.clone())),
            _ => (None, Some("no time".to_string())),
        };
        configs.push(Config {
            values,
            time_ms,
            failure,
            counters: Vec::new(),
        });
    }
    let mut notes = vec![("problem size".to_string(), cache.problem_size.to_string())];
    if repaired {
        notes.push((
            "repaired".into(),
            "cache was cut off; complete entries kept".into(),
        ));
    }
    Ok(TuningSpace {
        tool: "kernel-tuner",
        device: cache.device_name,
        kernel: cache.kernel_name,
        params,
        configs,
        notes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const CACHE: &str = r#"{
"device_name": "GPU",
"kernel_name": "k",
"problem_size": [4096],
"tune_params_keys": ["bx", "ro"],
"tune_params": {"bx": [32, 64], "ro": [0, 1]},
"cache": {
"32,0": {"bx": 32, "ro": 0, "time": 2.5, "times": [2.5]},
"32,1": {"bx": 32, "ro": 1, "time": "CompilationFailedConfig"},
"64,0": {"bx": 64, "ro": 0, "time": 1.5, "times": [1.5]}"#;

    #[test]
    fn complete_and_cut_off_caches() {
        let whole = format!("{CACHE}\n}}\n}}\n");
        let s = read(Path::new("c.json"), whole.as_bytes()).unwrap();
        assert_eq!(s.configs.len(), 3);
        assert_eq!(s.failed(), 1);
        assert_eq!(s.configs[0].values, vec!["32", "0"]);
        // Cut in the middle of the last entry: the two complete ones survive.
        let cut = &CACHE[..CACHE.len() - 10];
        let s = read(Path::new("c.json"), cut.as_bytes()).unwrap();
        assert_eq!(s.configs.len(), 2);
        assert!(s.notes.iter().any(|(k, _)| k == "repaired"));
    }

    #[test]
    fn junk_is_an_error_with_a_line() {
        let err = read(Path::new("c.json"), &b"{\n\"x\": [1,\n"[..]).unwrap_err();
        assert!(err.to_string().starts_with("c.json:"), "{err}");
    }
}
