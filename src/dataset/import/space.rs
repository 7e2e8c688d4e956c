//! A recorded tuning space: every configuration of one kernel with its measured time and, where
//! the tool recorded them, hardware counters. KTT and Kernel Tuner files both become this, and
//! it turns into the project's tables (measurements, timings, switches), so the experiments and
//! search strategies work on imported spaces exactly as on our own NB/BH campaigns.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

use serde::Serialize;

use crate::dataset::measurements::{
    plausible_time_ms, MeasurementRow, RunKey, TimingRow, TIME_MS_LEAST, TIME_MS_MOST,
};

/// FNV-1a 64 as a [`Hasher`] for the short texts of parameter values: sets and maps of them
/// over every configuration of a space of hundreds of thousands are built at each load, and
/// the standard library's SipHash, made to resist chosen keys, costs several times more on
/// keys this short. A recorded space is not an adversary.
#[derive(Debug, Clone, Copy)]
pub struct TextHasher(u64);

impl Default for TextHasher {
    fn default() -> Self {
        TextHasher(super::FNV1A_START)
    }
}

impl Hasher for TextHasher {
    fn write(&mut self, bytes: &[u8]) {
        self.0 = super::fnv1a_on(self.0, bytes);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// A map keyed by parameter values' texts, hashed with [`TextHasher`].
pub type TextMap<K, V> = HashMap<K, V, BuildHasherDefault<TextHasher>>;

/// One configuration of a tuning space.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// Parameter values as text, in the order of `TuningSpace::params`.
    pub values: Vec<String>,
    /// Measured time in milliseconds; `None` for a failed configuration.
    pub time_ms: Option<f64>,
    /// Why the configuration has no time (e.g. `CompilationFailedConfig`).
    pub failure: Option<String>,
    /// Counters of the configuration's kernel launch: (kernel, metric, unit, value).
    pub counters: Vec<(String, String, String, f64)>,
}

/// A whole recorded space.
#[derive(Debug, Clone)]
pub struct TuningSpace {
    /// Which tool wrote it (`ktt`, `kernel-tuner`, `csv`).
    pub tool: &'static str,
    pub device: String,
    pub kernel: String,
    pub params: Vec<String>,
    pub configs: Vec<Config>,
    /// Tool-specific facts for the provenance note (version, time unit, timestamp, ...).
    pub notes: Vec<(String, String)>,
    /// How finely the recorded runs tell the fastest configurations apart, where the file
    /// keeps the runs each time averaged (Kernel Tuner caches).
    pub run_noise: Option<super::run_noise::RunNoise>,
}

/// An optimization in an imported space: one parameter changed from one value to another.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct SwitchRow {
    pub program: String,
    pub param: String,
    pub from: String,
    pub to: String,
    /// The optimization family (dataset::families), by alias at import; a user may fill in
    /// or correct it (`none` keeps the switch out of cross-program matching).
    #[serde(default)]
    pub family: String,
}

/// An error where a file says its run optimised another objective than the time and none of
/// its configurations has a time (Kernel Tuner's hyperparameter tuning writes `score`): a space
/// without times would only fail later, without saying why.
pub(crate) fn check_objective(
    path: &std::path::Path,
    objective: Option<&str>,
    configs: &[Config],
) -> crate::error::Result<()> {
    match objective.filter(|o| *o != "time") {
        Some(o) if configs.iter().all(|c| c.time_ms.is_none()) => Err(crate::error::Error::format(
            path,
            format!(
                "the file's objective is `{o}` and no configuration has a `time`: advise \
                     reads each configuration's run time"
            ),
        )),
        _ => Ok(()),
    }
}

pub use super::reading_notes::{
    CUT_OFF_NOTE, OUTSIDE_TUNE_PARAMS_NOTE, REPEATED_KEYS_NOTE, UNUSABLE_TIMES_NOTE,
};

impl TuningSpace {
    /// The distinct values of parameter `i`, numbers in numeric order, then text.
    pub fn values_of(&self, i: usize) -> Vec<String> {
        let set: HashSet<&str, BuildHasherDefault<TextHasher>> =
            self.configs.iter().map(|c| c.values[i].as_str()).collect();
        let mut v: Vec<String> = set.into_iter().map(str::to_string).collect();
        v.sort_by(|a, b| match (a.parse::<f64>(), b.parse::<f64>()) {
            (Ok(x), Ok(y)) => x.total_cmp(&y).then_with(|| a.cmp(b)),
            (Ok(_), Err(_)) => std::cmp::Ordering::Less,
            (Err(_), Ok(_)) => std::cmp::Ordering::Greater,
            _ => a.cmp(b),
        });
        v
    }

    /// Indices of parameters that take more than one value (the tuning parameters proper).
    pub fn varying(&self) -> Vec<usize> {
        (0..self.params.len())
            .filter(|&i| {
                let mut values = self.configs.iter().map(|c| &c.values[i]);
                let first = values.next();
                values.any(|v| Some(v) != first)
            })
            .collect()
    }

    /// The input label: the parameters that never change (problem size, filter size, ...).
    pub fn input_label(&self) -> String {
        let varying = self.varying();
        let fixed: Vec<String> = (0..self.params.len())
            .filter(|i| !varying.contains(i))
            .filter_map(|i| {
                self.configs
                    .first()
                    .map(|c| format!("{}={}", self.params[i], c.values[i]))
            })
            .collect();
        fixed.join(",")
    }

    /// The variant label of a configuration: its varying parameters as `K=V,...`.
    pub fn variant_label(&self, c: &Config, varying: &[usize]) -> String {
        varying
            .iter()
            .map(|&i| format!("{}={}", self.params[i], c.values[i]))
            .collect::<Vec<_>>()
            .join(",")
    }

    /// Switches: a two-valued parameter is an on/off switch (low -> high); a many-valued one
    /// gives a switch per step between neighbouring values (TILE_SIZE_X 1->2, 2->3, ...).
    pub fn switches(&self) -> Vec<SwitchRow> {
        let mut out = Vec::new();
        for i in self.varying() {
            let values = self.values_of(i);
            for w in values.windows(2) {
                out.push(SwitchRow {
                    program: self.kernel.clone(),
                    param: self.params[i].clone(),
                    from: w[0].clone(),
                    to: w[1].clone(),
                    family: crate::dataset::families::of_step(&self.params[i], &w[0])
                        .unwrap_or_default()
                        .to_string(),
                });
            }
        }
        out
    }

    /// The project's tables: measurements (counters), timings (successful configurations).
    pub fn to_tables(&self) -> (Vec<MeasurementRow>, Vec<TimingRow>) {
        let varying = self.varying();
        let input = self.input_label();
        let mut measurements = Vec::new();
        let mut timings = Vec::new();
        for c in &self.configs {
            let key = RunKey {
                program: self.kernel.clone(),
                input: input.clone(),
                run: 1,
                variant: self.variant_label(c, &varying),
            };
            if let Some(t) = c.time_ms {
                timings.push(TimingRow {
                    program: key.program.clone(),
                    input: key.input.clone(),
                    run: 1,
                    variant: key.variant.clone(),
                    time_ms: t,
                    repetitions: None,
                    checksum_ok: None,
                    times_ms: None,
                });
            }
            for (kernel, metric, unit, value) in &c.counters {
                measurements.push(MeasurementRow {
                    program: key.program.clone(),
                    input: key.input.clone(),
                    run: 1,
                    variant: key.variant.clone(),
                    kernel: kernel.clone(),
                    launch: 0,
                    invocations: 1,
                    metric: metric.clone(),
                    unit: unit.clone(),
                    value: *value,
                });
            }
        }
        (measurements, timings)
    }

    /// Number of configurations without a time.
    pub fn failed(&self) -> usize {
        self.configs.iter().filter(|c| c.time_ms.is_none()).count()
    }

    /// Counts a configuration whose recorded time is not a positive number (0, negative, or
    /// infinite) or lies outside a picosecond to 30 years (old Kernel Tuner versions wrote
    /// 1e20 for a failure) as failed, without counters, since no speedup can be taken from it;
    /// says how many in the provenance notes. Returns how many.
    pub fn fail_unusable_times(&mut self) -> usize {
        let mut n = 0;
        for c in &mut self.configs {
            if let Some(t) = c.time_ms.filter(|&t| !plausible_time_ms(t)) {
                c.time_ms = None;
                c.failure = Some(format!(
                    "recorded time {t} ms is not a positive number from {TIME_MS_LEAST:e} to \
                     {TIME_MS_MOST:e} ms"
                ));
                c.counters.clear();
                n += 1;
            }
        }
        if n > 0 {
            self.notes.push((
                UNUSABLE_TIMES_NOTE.into(),
                format!(
                    "{n} of {} configurations recorded a time that is not a positive number \
                     from {TIME_MS_LEAST:e} to {TIME_MS_MOST:e} ms (old Kernel Tuner versions \
                     wrote 1e20 for a failure); counted as failed",
                    self.configs.len()
                ),
            ));
        }
        n
    }
}

/// Puts configurations read from another format in the order of a Kernel Tuner cache's
/// entries (its keys, the values joined by commas, sorted as text; a stable sort), so that a
/// space searched from either file gives the same runs.
pub(super) fn in_cache_order(configs: &mut [Config]) {
    configs.sort_by_cached_key(|c| c.values.join(","));
}

/// A JSON scalar as parameter text: integers without `.0`, strings without quotes.
pub fn value_text(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Number(n) => match n.as_f64() {
            Some(f) if f.fract() == 0.0 && f.abs() < 1e15 => format!("{}", f as i64),
            _ => n.to_string(),
        },
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(values: &[&str], t: Option<f64>) -> Config {
        Config {
            values: values.iter().map(|s| s.to_string()).collect(),
            time_ms: t,
            failure: t.is_none().then(|| "failed".into()),
            counters: vec![],
        }
    }

    /// The hasher is FNV-1a 64 (the digest `fnv1a` gives a whole file), in any split of the
    /// bytes; FNV-1a 64 of "a" is 0xaf63dc4c8601ec8c (the published test vector).
    #[test]
    fn text_hasher_is_fnv_1a() {
        let mut h = TextHasher::default();
        h.write(b"a");
        assert_eq!(h.finish(), 0xaf63_dc4c_8601_ec8c);
        let mut h = TextHasher::default();
        h.write(b"block_");
        h.write(b"size_x=128");
        assert_eq!(h.finish(), super::super::fnv1a(b"block_size_x=128"));
        assert_ne!(h.finish(), TextHasher::default().finish());
    }

    #[test]
    fn labels_and_switches() {
        let s = TuningSpace {
            tool: "test",
            device: "d".into(),
            kernel: "k".into(),
            params: vec!["N".into(), "RO".into(), "T".into()],
            configs: vec![
                config(&["4096", "0", "1"], Some(2.0)),
                config(&["4096", "1", "1"], Some(1.0)),
                config(&["4096", "0", "10"], Some(3.0)),
                config(&["4096", "1", "2"], None),
            ],
            notes: vec![],
            run_noise: None,
        };
        assert_eq!(s.input_label(), "N=4096");
        assert_eq!(s.varying(), vec![1, 2]);
        assert_eq!(s.values_of(2), vec!["1", "2", "10"]);
        let sw: Vec<String> = s
            .switches()
            .iter()
            .map(|w| format!("{}:{}->{}", w.param, w.from, w.to))
            .collect();
        assert_eq!(sw, vec!["RO:0->1", "T:1->2", "T:2->10"]);
        let (_, t) = s.to_tables();
        assert_eq!(t.len(), 3);
        assert_eq!(t[0].variant, "RO=0,T=1");
        assert_eq!(s.failed(), 1);
    }

    #[test]
    fn times_that_are_not_positive_count_as_failed() {
        let mut s = TuningSpace {
            tool: "test",
            device: "d".into(),
            kernel: "k".into(),
            params: vec!["B".into()],
            configs: vec![
                config(&["1"], Some(2.0)),
                config(&["2"], Some(-1.0)),
                config(&["3"], Some(0.0)),
                config(&["4"], Some(f64::INFINITY)),
                config(&["5"], None),
                // Old Kernel Tuner versions' mark of a failure.
                config(&["6"], Some(1e20)),
            ],
            notes: vec![],
            run_noise: None,
        };
        s.configs[1].counters = vec![("k".into(), "m".into(), "u".into(), 1.0)];
        assert_eq!(s.fail_unusable_times(), 4);
        assert_eq!(s.failed(), 5);
        assert_eq!(s.configs[0].time_ms, Some(2.0));
        assert!(s.configs[1].counters.is_empty());
        let why = s.configs[1].failure.as_deref().unwrap_or_default();
        assert!(why.contains("-1 ms is not a positive number"), "{why}");
        assert_eq!(s.configs[4].failure.as_deref(), Some("failed"));
        assert!(s
            .notes
            .iter()
            .any(|(k, v)| k == "unusable times" && v.starts_with("4 of 6 ")));
        // Nothing to do the second time, and no second note.
        assert_eq!(s.fail_unusable_times(), 0);
        assert_eq!(s.notes.len(), 1);
    }

    #[test]
    fn json_values_as_text() {
        assert_eq!(value_text(&serde_json::json!(32)), "32");
        assert_eq!(value_text(&serde_json::json!(32.0)), "32");
        assert_eq!(value_text(&serde_json::json!(0.5)), "0.5");
        assert_eq!(value_text(&serde_json::json!("fp32")), "fp32");
    }
}
