//! Kernel Tuner cache files (`.json` or `.json.gz`): `{device_name, kernel_name, problem_size,
//! tune_params_keys, tune_params, cache: {"v1,v2,...": {<param>: v, ..., "time": ms, ...}}}`.
//!
//! Failed configurations hold a string instead of a time (`"CompilationFailedConfig"`,
//! `"RuntimeFailedConfig"`, `"InvalidConfig"`). Kernel Tuner's observers add their results to
//! an entry: `NCUObserver` each Nsight Compute metric by its name (`dram__bytes.sum`), and
//! `RegisterObserver` the registers per thread (`num_regs`); they become the configuration's
//! counters (registers as `launch__registers_per_thread`), with its time as
//! `gpu__time_duration.sum` as a KTT import has it. Other entries (the tool's own times,
//! user-defined metrics such as `GFLOP/s`, power) are not counters.
//!
//! Kernel Tuner writes the cache while it runs, one entry per line, and closes the braces only
//! at the end: a cache cut off mid-run is repaired by keeping its complete entries. A file that
//! is a JSON array is `tune_kernel`'s results list instead (`kernel_tuner_list`).

use std::io::Read;
use std::path::Path;

use serde::Deserialize;
use serde_json::value::RawValue;

use super::kernel_tuner_entries::read_entries;
use super::kernel_tuner_entries::UNTIMED;
use super::ktt::{unit_of, COMPILE_METRICS, TIME_METRIC};
use super::reading_notes::outside_tune_params;
use super::run_noise::summarise;
use super::space::{
    check_objective, TuningSpace, CUT_OFF_NOTE, OUTSIDE_TUNE_PARAMS_NOTE, REPEATED_KEYS_NOTE,
};
use crate::error::{Error, Result};

#[derive(Deserialize)]
struct Cache<'a> {
    #[serde(default)]
    device_name: String,
    #[serde(default)]
    kernel_name: String,
    #[serde(default)]
    problem_size: serde_json::Value,
    tune_params_keys: Vec<String>,
    /// The values each parameter was given (`{"bx": [16, 32]}`): Kernel Tuner's simulation
    /// mode searches the space they span, not the cache's entries.
    #[serde(default)]
    tune_params: Option<serde_json::Value>,
    /// What the tuning run optimised (Kernel Tuner 1.x writes it; `time` when absent).
    #[serde(default)]
    objective: Option<String>,
    /// The entries' text, read entry by entry once the parameters are known
    /// (`kernel_tuner_entries`).
    #[serde(borrow)]
    cache: &'a RawValue,
}

/// Cuts an unfinished cache after its last complete entry and closes it. Returns `None` when
/// that does not give valid JSON within a few tries (each try parses the whole text, so the
/// tries are capped: a cut lands inside the last entry, one or two `}` back).
fn repair(text: &str) -> Option<String> {
    let mut end = text.len();
    for _ in 0..4 {
        let cut = text[..end].rfind('}')?;
        let candidate = format!("{}\n}}\n}}\n", &text[..=cut]);
        if serde_json::from_str::<serde::de::IgnoredAny>(&candidate).is_ok() {
            return Some(candidate);
        }
        end = cut;
    }
    None
}

/// Where a JSON error `e` points at `NaN` or `Infinity` (which Python's `json.dump` writes for a
/// float that is not finite, and JSON has no such number), a sentence that says so; else
/// nothing.
fn non_json_number(text: &str, e: &serde_json::Error) -> String {
    let at: String = text
        .lines()
        .nth(e.line().saturating_sub(1))
        .map(|l| {
            l.chars()
                .skip(e.column().saturating_sub(1))
                .take(9)
                .collect()
        })
        .unwrap_or_default();
    let word = ["NaN", "Infinity", "-Infinity"]
        .into_iter()
        .find(|w| at.starts_with(w));
    word.map(|w| {
        format!(
            " (`{w}` is not a JSON number: Python's json.dump writes it for a float that is not \
             finite; write null there)"
        )
    })
    .unwrap_or_default()
}

/// Reads a Kernel Tuner cache.
pub fn read(path: &Path, reader: impl Read) -> Result<TuningSpace> {
    let text = crate::profile::text::read_text_expecting(
        path,
        reader,
        "a Kernel Tuner cache or results list (JSON)",
    )?;
    if text.trim_start().starts_with('[') {
        return super::kernel_tuner_list::read(path, &text);
    }
    // A repaired text, where the file was cut off; the cache borrows from it or from `text`.
    let mut fixed = String::new();
    let (cache, repaired): (Cache, bool) = match serde_json::from_str(&text) {
        Ok(c) => (c, false),
        Err(first) => {
            // Only a text that ends too early was cut off: an error before its end (a NaN in
            // the last entry, say) must not pass as a cut, which drops the entries after it.
            let cut = first.is_eof().then(|| repair(&text)).flatten();
            fixed = cut.ok_or_else(|| {
                Error::parse(
                    path,
                    first.line(),
                    format!(
                        "not a Kernel Tuner cache: {first}{}",
                        non_json_number(&text, &first)
                    ),
                )
            })?;
            let c = serde_json::from_str(&fixed).map_err(|e| {
                Error::parse(path, first.line(), format!("not a Kernel Tuner cache: {e}"))
            })?;
            (c, true)
        }
    };
    let params = cache.tune_params_keys.clone();
    // The line the `cache` object starts on, for errors within it: its text is a slice of the
    // text read (or repaired).
    let raw = cache.cache.get();
    let whole = if repaired {
        fixed.as_str()
    } else {
        text.as_str()
    };
    let offset = (raw.as_ptr() as usize)
        .checked_sub(whole.as_ptr() as usize)
        .filter(|&o| o <= whole.len())
        .unwrap_or(0);
    let first_line = crate::profile::text::line_at(whole.as_bytes(), offset);
    let entries = read_entries(path, raw, first_line, &params, &cache.kernel_name)?;
    let repeated_keys = entries.repeated_keys;
    let configs = entries.configs;
    let timed: Vec<(f64, Option<&serde_json::Value>)> = entries
        .timed
        .iter()
        .map(|(t, runs)| (*t, runs.as_ref()))
        .collect();
    check_objective(path, cache.objective.as_deref(), &configs)?;
    if let Some(c) = configs
        .iter()
        .find(|c| c.failure.as_deref() == Some(UNTIMED))
    {
        return Err(Error::format(
            path,
            format!(
                "the entry of configuration {} has no `time`: Kernel Tuner records a time, or \
                 a failure's kind, for each",
                c.values.join(",")
            ),
        ));
    }
    let mut notes = vec![("problem size".to_string(), cache.problem_size.to_string())];
    if let Some(note) = outside_tune_params(cache.tune_params.as_ref(), &params, &configs) {
        notes.push((OUTSIDE_TUNE_PARAMS_NOTE.into(), note));
    }
    if repaired {
        notes.push((
            CUT_OFF_NOTE.into(),
            "cache was cut off; complete entries kept".into(),
        ));
    }
    if repeated_keys > 0 {
        notes.push((
            REPEATED_KEYS_NOTE.into(),
            format!(
                "{repeated_keys} cache entr{} repeated a key given before; the later entry \
                 was kept, as Python's json module keeps it",
                if repeated_keys == 1 { "y" } else { "ies" }
            ),
        ));
    }
    Ok(TuningSpace {
        tool: "kernel-tuner",
        device: cache.device_name,
        kernel: cache.kernel_name,
        params,
        configs,
        notes,
        run_noise: summarise(&timed),
    })
}

/// An entry's time in ms, or why it has none: Kernel Tuner writes a time as a number and a
/// failure's kind as a string (`"CompilationFailedConfig"`). Any other time (none, 0 or less,
/// a number as text, other text) is an error: read as a failure it would leave the
/// configuration out of the space unseen.
pub(super) fn time_of(
    time: Option<&serde_json::Value>,
) -> std::result::Result<(Option<f64>, Option<String>), String> {
    use super::recorded_time::{from_number, from_text, RecordedTime, EXPECTED};
    match time {
        Some(serde_json::Value::Number(n)) => {
            Ok(from_number(n.as_f64().unwrap_or(f64::NAN), 1.0)?.split())
        }
        Some(serde_json::Value::String(s)) => match from_text(s, 1.0) {
            Ok(RecordedTime::Failed(f)) => Ok((None, Some(f))),
            Ok(RecordedTime::Ms(_)) => Err(format!(
                "time is the text \"{s}\": a time is a number, a failure's kind a string such \
                 as \"CompilationFailedConfig\""
            )),
            Err(_) => Err(format!("time \"{s}\" is not {EXPECTED}")),
        },
        Some(other) => Err(format!("time {other} is not {EXPECTED}")),
        None => Err("no `time`".into()),
    }
}

/// Whether an entry's key names an Nsight Compute metric (`unit__counter.rollup`, as
/// `NCUObserver` records it).
pub(super) fn is_ncu_metric(key: &str) -> bool {
    let Some((unit, rest)) = key.split_once("__") else {
        return false;
    };
    !unit.is_empty()
        && !rest.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
}

/// The counters Kernel Tuner's observers recorded for a configuration of time `time_ms`,
/// among its `(name, value)` pairs (a cache entry's fields, a T4 result's measurements): each
/// Nsight Compute metric, and `num_regs` as registers per thread; with them the time as
/// `gpu__time_duration.sum`. None where no pair is one, or the configuration failed.
pub(super) fn observed<'a>(
    kernel: &str,
    pairs: impl IntoIterator<Item = (&'a str, &'a serde_json::Value)>,
    time_ms: Option<f64>,
) -> Vec<(String, String, String, f64)> {
    let Some(time_ms) = time_ms else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (key, value) in pairs {
        let Some(v) = value.as_f64() else { continue };
        if key == "num_regs" {
            let (name, unit) = COMPILE_METRICS[0];
            out.push((kernel.to_string(), name.to_string(), unit.to_string(), v));
        } else if is_ncu_metric(key) && key != TIME_METRIC {
            out.push((kernel.to_string(), key.to_string(), unit_of(key).into(), v));
        }
    }
    if !out.is_empty() {
        out.push((
            kernel.to_string(),
            TIME_METRIC.into(),
            "second".into(),
            time_ms * 1e-3,
        ));
    }
    out
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

    /// Python's json.dump writes NaN for a float that is not finite; JSON has no NaN, and the
    /// error says so (synthetic cache).
    #[test]
    fn nan_in_a_cache_is_named() {
        let whole = format!("{CACHE}\n}}\n}}\n");
        // In the first entry, and in the last, which must not pass as a file cut off there.
        for times in ["\"times\": [2.5]", "\"times\": [1.5]"] {
            let bad = whole.replace(times, "\"times\": [NaN]");
            let e = read(Path::new("c.json"), bad.as_bytes())
                .err()
                .unwrap()
                .to_string();
            assert!(e.contains("`NaN` is not a JSON number"), "{e}");
        }
    }

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
        assert!(s.cut_off());
        // A key given twice: the later entry is kept, and a note says so.
        let twice =
            format!("{CACHE},\n\"32,0\": {{\"bx\": 32, \"ro\": 0, \"time\": 9.5}}\n}}\n}}\n");
        let s = read(Path::new("c.json"), twice.as_bytes()).unwrap();
        assert_eq!(s.configs.len(), 3);
        assert_eq!(s.configs[0].time_ms, Some(9.5));
        let note = s.notes.iter().find(|n| n.0 == "repeated keys").unwrap();
        assert!(
            note.1.starts_with("1 cache entry repeated a key"),
            "{note:?}"
        );
        assert_eq!(s.repeated_keys(), 1);
    }

    /// A cache written with `NCUObserver` and `RegisterObserver` (synthetic entries in their
    /// format): the metrics and registers become counters, the tool's times and a user metric
    /// do not; an entry without them has none.
    #[test]
    fn observers_results_become_counters() {
        let cache = r#"{"device_name": "NVIDIA GeForce RTX 3090", "kernel_name": "k",
"tune_params_keys": ["block_size_x"], "tune_params": {"block_size_x": [32, 64]},
"cache": {
"32": {"block_size_x": 32, "time": 2.0, "times": [2.0], "compile_time": 300.0,
       "GFLOP/s": 10.0, "num_regs": 40, "dram__bytes.sum": 1000.0,
       "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum": 64.0},
"64": {"block_size_x": 64, "time": 1.0, "times": [1.0]}}}"#;
        let s = read(Path::new("c.json"), cache.as_bytes()).unwrap();
        let mut names: Vec<&str> = s.configs[0].counters.iter().map(|c| c.1.as_str()).collect();
        names.sort_unstable();
        assert_eq!(
            names,
            [
                "dram__bytes.sum",
                "gpu__time_duration.sum",
                "launch__registers_per_thread",
                "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"
            ]
        );
        let time = s.configs[0].counters.iter().find(|c| c.1 == TIME_METRIC);
        assert_eq!(time.map(|c| c.3), Some(2.0e-3));
        assert!(s.configs[1].counters.is_empty());
        assert!(!is_ncu_metric("GFLOP/s") && !is_ncu_metric("compile_time"));
        assert!(!is_ncu_metric("__x") && !is_ncu_metric("a__"));
    }

    /// A cache of another objective (Kernel Tuner's hyperparameter tuning writes `score`):
    /// an error that says so, not a space without times.
    #[test]
    fn another_objective_without_times_is_named() {
        let cache = r#"{"device_name": "x86_64", "kernel_name": "h", "objective": "score",
"tune_params_keys": ["popsize"], "tune_params": ["popsize"],
"cache": {"10": {"popsize": 10, "score": -1.3, "scores": [-1.3]},
          "20": {"popsize": 20, "score": -1.1, "scores": [-1.1]}}}"#;
        let err = read(Path::new("h.json"), cache.as_bytes()).unwrap_err();
        let msg = err.to_string();
        assert!(
            msg.starts_with("h.json") && msg.contains("objective is `score`"),
            "{msg}"
        );
        // The same objective with times reads as before.
        let timed = cache.replace("\"score\": -1.3", "\"time\": 1.3, \"score\": -1.3");
        let e = read(Path::new("h.json"), timed.as_bytes()).unwrap_err();
        assert!(
            e.to_string().contains("configuration 20 has no `time`"),
            "an entry without a time beside timed ones: {e}"
        );
        let timed = timed.replace("\"score\": -1.1", "\"time\": 1.1, \"score\": -1.1");
        let s = read(Path::new("h.json"), timed.as_bytes()).unwrap();
        assert_eq!(s.configs[0].time_ms, Some(1.3));
    }

    #[test]
    fn junk_is_an_error_with_a_line() {
        let err = read(Path::new("c.json"), &b"{\n\"x\": [1,\n"[..]).unwrap_err();
        assert!(err.to_string().starts_with("c.json:"), "{err}");
        // A `cache` that is not an object of entries: the file's line, not the line within
        // the `cache` text.
        let text =
            "{\"device_name\": \"x\",\n\"tune_params_keys\": [\"bx\"],\n\"cache\": [1, 2]}\n";
        let err = read(Path::new("c.json"), text.as_bytes())
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("c.json:3: ") && err.contains("`cache`"),
            "{err}"
        );
    }
}
