//! Kernel Tuner's results list: what `kernel_tuner.tune_kernel` returns first and its users
//! save with `json.dump(results, f)` (or `json.dump([results, env], f)`, the environment
//! beside them): a JSON array of one object per configuration that ran, its tuning parameters
//! and its `time` in ms beside the tool's own fields (Kernel Tuner's `core.py` and
//! `runners/sequential.py` add `times`, `compile_time`, `verification_time`,
//! `benchmark_time`, `strategy_time`, `framework_time` and `timestamp`). The file does not
//! say which fields are parameters, so every field of the first result is one except those,
//! observers' results ([`observed`]) and rates such as `GFLOP/s` (a `/` in the name). A time
//! that is a string (`"CompilationFailedConfig"`) marks a failed configuration, as in a cache.

use std::path::Path;

use super::kernel_tuner::{is_ncu_metric, observed, time_of};
use super::space::{in_cache_order, value_text, Config, TuningSpace};
use super::t4::Ordered;
use crate::error::{Error, Result};

/// Fields Kernel Tuner adds to every result beside the parameters.
const TOOL_FIELDS: [&str; 8] = [
    "time",
    "times",
    "compile_time",
    "verification_time",
    "benchmark_time",
    "strategy_time",
    "framework_time",
    "timestamp",
];

/// Whether a result's field is a tuning parameter (see the module's note).
fn is_param(name: &str) -> bool {
    !TOOL_FIELDS.contains(&name)
        && name != "num_regs"
        && !is_ncu_metric(name)
        && !name.contains('/')
}

/// Reads a results list (`text` starts with `[`). A configuration listed twice stays two
/// entries here; a search space keeps the first of them.
pub(super) fn read(path: &Path, text: &str) -> Result<TuningSpace> {
    // `[results, env]` opens with two brackets, a bare list with one: parse the form it is.
    let pair = text
        .trim_start()
        .strip_prefix('[')
        .is_some_and(|rest| rest.trim_start().starts_with('['));
    let parsed = if pair {
        serde_json::from_str::<(Vec<Ordered>, serde_json::Value)>(text)
            .map(|(results, env)| (results, Some(env)))
    } else {
        serde_json::from_str::<Vec<Ordered>>(text).map(|results| (results, None))
    };
    let (results, env) = parsed.map_err(|e| {
        let what = "not a Kernel Tuner results list ([{...}, ...] or [results, env])";
        Error::parse(path, e.line(), format!("{what}: {e}"))
    })?;
    let first = results
        .first()
        .ok_or_else(|| Error::format(path, "the results list is empty".to_string()))?;
    let params: Vec<String> = first
        .0
        .iter()
        .map(|(k, _)| k.clone())
        .filter(|k| is_param(k))
        .collect();
    if params.is_empty() || first.get("time").is_none() {
        return Err(Error::format(
            path,
            "the first result has no `time` or no tuning parameter beside it".to_string(),
        ));
    }
    let text_of = |key: &str| {
        env.as_ref()
            .and_then(|e| e.get(key))
            .and_then(|v| v.as_str())
            .unwrap_or_default()
            .to_string()
    };
    // The environment names the kernel where it was saved with the results; else the file.
    let kernel = Some(text_of("kernel_name"))
        .filter(|k| !k.is_empty())
        .unwrap_or_else(|| super::file_stem(path));
    let mut configs = Vec::with_capacity(results.len());
    for (n, result) in results.iter().enumerate() {
        let values = params
            .iter()
            .map(|p| {
                result.get(p).map(value_text).ok_or_else(|| {
                    Error::format(path, format!("result {} has no parameter `{p}`", n + 1))
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let (time_ms, failure) = time_of(result.get("time"))
            .map_err(|e| Error::format(path, format!("result {}: {e}", n + 1)))?;
        let others = result.0.iter().filter(|(k, _)| !params.contains(k));
        let counters = observed(&kernel, others.map(|(k, v)| (k.as_str(), v)), time_ms);
        configs.push(Config {
            values,
            time_ms,
            failure,
            counters,
        });
    }
    // A list and its cache are the same space, configuration for configuration (a repeated
    // one's first time stays first).
    in_cache_order(&mut configs);
    Ok(TuningSpace {
        tool: "kernel-tuner",
        device: text_of("device_name"),
        kernel,
        params,
        configs,
        notes: vec![(
            "format".into(),
            "Kernel Tuner results list; parameters are the first result's fields".into(),
        )],
        run_noise: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_and_a_list_with_its_environment() {
        // Synthetic results in tune_kernel's format.
        let list = r#"[
{"block_size_x": 32, "use_shmem": 0, "time": 2.5, "times": [2.5, 2.5], "GFLOP/s": 10.0,
 "compile_time": 300.0, "timestamp": "2024-01-01 00:00:00"},
{"block_size_x": 64, "use_shmem": 1, "time": "RuntimeFailedConfig"},
{"block_size_x": 64, "use_shmem": 0, "time": 1.5, "num_regs": 40}]"#;
        let s = read(Path::new("r.json"), list).unwrap();
        assert_eq!(s.params, ["block_size_x", "use_shmem"]);
        assert_eq!(s.configs.len(), 3);
        assert_eq!(s.failed(), 1);
        // Sorted as a cache's keys: "32,0", "64,0", "64,1".
        assert_eq!(s.configs[1].values, ["64", "0"]);
        assert_eq!(s.configs[1].time_ms, Some(1.5));
        assert_eq!(s.configs[1].counters.len(), 2, "registers and the time");
        assert_eq!(s.kernel, "r", "no environment: the file's name");
        let pair =
            format!(r#"[{list}, {{"device_name": "GeForce GTX TITAN X", "kernel_name": "conv"}}]"#);
        let s = read(Path::new("r.json"), &pair).unwrap();
        assert_eq!(
            (s.device.as_str(), s.kernel.as_str()),
            ("GeForce GTX TITAN X", "conv")
        );
        assert_eq!(s.configs.len(), 3);
    }

    #[test]
    fn a_list_without_times_or_parameters_is_an_error() {
        for bad in [r#"[{"block_size_x": 32}]"#, r#"[{"time": 1.0}]"#, "[]"] {
            let err = read(Path::new("r.json"), bad).unwrap_err().to_string();
            assert!(err.starts_with("r.json"), "{err}");
        }
        let err = read(Path::new("r.json"), "[1, 2").unwrap_err().to_string();
        assert!(err.starts_with("r.json:1"), "{err}");
        // A `[results, env]` pair cut off on its second line: that line is named.
        let cut = "[[{\"a\": 1, \"time\": 1.0}],\n {\"device_name\": ";
        let err = read(Path::new("r.json"), cut).unwrap_err().to_string();
        assert!(err.starts_with("r.json:2"), "{err}");
        let missing = r#"[{"a": 1, "time": 1.0}, {"time": 2.0}]"#;
        let err = read(Path::new("r.json"), missing).unwrap_err().to_string();
        assert!(err.contains("result 2 has no parameter `a`"), "{err}");
    }
}
