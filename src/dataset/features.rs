//! The wide feature table: per run (program, input, replicate, variant), every counter
//! aggregated over kernel launches and normalized by active cycles, joined with the run's time.
//!
//! Aggregation (docs/ARCHITECTURE.md): counts are summed over launches (nvprof rows count `Avg x
//! Invocations`); intensive values are averaged, weighted by each launch's duration where the
//! file has one (`gpu__time_duration.sum` / `Duration`), else by invocations.
//! Normalization (thesis section 4.4): `Vn = Vo / A * C` with A the active cycles. The thesis
//! leaves C open; advise uses C = 1e6, so a count reads "per million active cycles".

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use super::features_aggregate::{canonical, pick_normalizer, Entry, Metric};
pub use super::features_csv::{fmt_opt, remapper, union_columns};
use super::measurements::{MeasurementRow, RunKey, TimingRow};
use crate::error::{Error, Result};
use crate::profile::section_labels;
use crate::profile::value::MetricKind;

/// The constant C of the thesis's normalization.
pub const NORMALIZE_C: f64 = 1e6;

/// Names of the normalizer A, most preferred first, after nvprof names are made canonical.
pub const ACTIVE_CYCLE_METRICS: [&str; 4] = [
    "sm__cycles_active.sum",
    "sm__cycles_active.avg",
    "SM Active Cycles",
    "active_cycles",
];

const DURATION_METRICS: [&str; 3] = [
    "gpu__time_duration.sum",
    "Duration",
    "gpu__time_duration.avg",
];

/// Which metrics are divided by active cycles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Normalize {
    /// Counts only; rates, ratios and percentages pass through (the default).
    #[default]
    Units,
    /// Every metric, as the thesis did.
    All,
    /// Nothing: raw aggregated values.
    None,
}

/// How to build the table.
#[derive(Debug, Clone, Default)]
pub struct FeatureSettings {
    pub normalize: Normalize,
    /// Keep kernels apart (one row per run and kernel) instead of aggregating per run.
    pub per_kernel: bool,
    /// Keep nvprof names instead of translating them to ncu names.
    pub keep_names: bool,
    /// Divide by this metric instead of active cycles. Imported KTT spaces record no active
    /// cycles; their kernel duration (`gpu__time_duration.sum`) is the closest stand-in at a
    /// fixed clock.
    pub normalizer: Option<String>,
    /// Which columns the table has: the counters, the portable view, or both.
    pub view: View,
}

/// The feature view (`--features` / `--view`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum View {
    /// Every counter of the source, normalized (the thesis's features).
    #[default]
    Counters,
    /// The portable features of `portable` only: ratios that mean the same on every source.
    Portable,
    /// Both.
    Both,
}

impl std::str::FromStr for View {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        match s.trim().to_ascii_lowercase().as_str() {
            "counters" => Ok(View::Counters),
            "portable" => Ok(View::Portable),
            "both" => Ok(View::Both),
            _ => Err(Error::Usage(format!(
                "unknown feature view `{s}`: counters, portable or both"
            ))),
        }
    }
}

/// One row of the feature table.
#[derive(Debug, Clone, PartialEq)]
pub struct FeatureRow {
    pub key: RunKey,
    /// The kernel in per-kernel mode.
    pub kernel: Option<String>,
    pub time_ms: Option<f64>,
    /// Fastest and slowest repetition of the run's timing, where recorded.
    pub time_spread: Option<(f64, f64)>,
    /// One value per column of the table; `None` where the run lacks the metric.
    pub values: Vec<Option<f64>>,
}

/// The wide feature table.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FeatureTable {
    pub columns: Vec<String>,
    pub rows: Vec<FeatureRow>,
    /// The metric used as A, if any normalization happened.
    pub normalizer: Option<String>,
}

pub(super) type GroupKey = (RunKey, Option<String>);

/// Builds the table from measurement rows and (optionally) timings.
pub fn build(
    measurements: &[MeasurementRow],
    timings: &[TimingRow],
    settings: &FeatureSettings,
) -> Result<FeatureTable> {
    let times = timing_map(timings)?;
    let spreads: HashMap<RunKey, (f64, f64)> = timings
        .iter()
        .filter_map(|t| t.spread().map(|s| (t.key(), s)))
        .collect();
    // group -> metric -> (unit, entries of (kernel, launch, invocations, value))
    let mut groups: BTreeMap<GroupKey, BTreeMap<String, Metric>> = BTreeMap::new();
    let mut durations: HashMap<(RunKey, String, u64), f64> = HashMap::new();
    // A details-page label stands for its metric only where the launch does not also have
    // that metric by name (a report with sections and --metrics both): the name wins.
    let labelled =
        |m: &MeasurementRow| !settings.keep_names && section_labels::metric_of(&m.metric).is_some();
    let named: HashSet<(RunKey, &str, u64, &str)> = if measurements.iter().any(labelled) {
        measurements
            .iter()
            .filter(|m| !labelled(m))
            .map(|m| (m.key(), m.kernel.as_str(), m.launch, m.metric.as_str()))
            .collect()
    } else {
        HashSet::new()
    };
    for m in measurements {
        let (name, scale, label) = canonical(&m.metric, settings.keep_names);
        if label && named.contains(&(m.key(), m.kernel.as_str(), m.launch, name.as_str())) {
            continue;
        }
        if DURATION_METRICS.contains(&name.as_str()) {
            durations.insert((m.key(), m.kernel.clone(), m.launch), m.value);
        }
        let gk = (m.key(), settings.per_kernel.then(|| m.kernel.clone()));
        let metric = groups.entry(gk).or_default().entry(name).or_insert(Metric {
            unit: m.unit.clone(),
            entries: Vec::new(),
        });
        metric.entries.push(Entry {
            kernel: m.kernel.clone(),
            launch: m.launch,
            invocations: m.invocations.max(1),
            value: m.value * scale,
        });
    }

    // The portable view is made of ratios: nothing to normalize.
    let normalizer = match (&settings.normalizer, settings.normalize, settings.view) {
        (_, _, View::Portable) | (_, Normalize::None, _) => None,
        (Some(n), _, _) => Some(n.clone()),
        (None, n, _) => pick_normalizer(&groups, n)?,
    };
    // A normalizer no run measured is a misspelling or another campaign's metric, not a
    // metric some runs missed.
    if let Some(n) = &normalizer {
        if !groups.values().any(|g| g.contains_key(n.as_str())) {
            let some: Vec<&str> = groups
                .values()
                .flat_map(|g| g.keys().map(String::as_str))
                .collect::<BTreeSet<_>>()
                .into_iter()
                .take(5)
                .collect();
            return Err(Error::MissingMetric {
                metric: n.clone(),
                context: "in every run: no measurement has this metric (misspelt?)".into(),
                hint: format!(
                    "name one the measurements have, such as {}, or use --normalize none",
                    some.join(", ")
                ),
            });
        }
    }
    let counter_columns: Vec<String> = match settings.view {
        View::Portable => Vec::new(),
        _ => groups
            .values()
            .flat_map(|g| g.keys().cloned())
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect(),
    };
    let mut columns = counter_columns.clone();
    if settings.view != View::Counters {
        columns.extend(super::portable::names());
    }
    let mut rows = Vec::with_capacity(groups.len());
    for ((key, kernel), metrics) in &groups {
        let mut aggregated: HashMap<&str, (f64, MetricKind)> = HashMap::new();
        for (name, metric) in metrics {
            let kind = MetricKind::classify(name, &metric.unit, false);
            let v = metric.aggregate(kind, |e| {
                durations
                    .get(&(key.clone(), e.kernel.clone(), e.launch))
                    .copied()
            });
            aggregated.insert(name, (v, kind));
        }
        // Named only in an error: not formatted for every row.
        let run = || {
            format!(
                "program {} input {} run {} variant {}{}",
                key.program,
                key.input,
                key.run,
                key.variant,
                kernel
                    .as_ref()
                    .map(|k| format!(" kernel {k}"))
                    .unwrap_or_default()
            )
        };
        let a = match &normalizer {
            Some(n) => match aggregated.get(n.as_str()) {
                Some(&(a, _)) if a > 0.0 => Some(a),
                _ => {
                    return Err(Error::MissingMetric {
                        metric: n.clone(),
                        context: format!("(or zero) for {}", run()),
                        hint: "profile every run with the same metric list, or use \
                               --normalize none"
                            .into(),
                    })
                }
            },
            None => None,
        };
        let mut values: Vec<Option<f64>> = counter_columns
            .iter()
            .map(|c| {
                aggregated.get(c.as_str()).map(|&(v, kind)| match a {
                    Some(a) if Some(c) != normalizer.as_ref() => {
                        let divide =
                            settings.normalize == Normalize::All || kind == MetricKind::Count;
                        if divide {
                            v / a * NORMALIZE_C
                        } else {
                            v
                        }
                    }
                    _ => v,
                })
            })
            .collect();
        if settings.view != View::Counters {
            let get = |name: &str| aggregated.get(name).map(|&(v, _)| v);
            values.extend(super::portable::compute(&get));
        }
        if let Some((c, v)) = columns
            .iter()
            .zip(&values)
            .find_map(|(c, v)| v.filter(|v| !v.is_finite()).map(|v| (c, v)))
        {
            return Err(Error::Data(format!(
                "feature {c} of {} is {v}: a counter (or the normalizer, {}) is out of \
                 range; check the measurements of that run",
                run(),
                normalizer.as_deref().unwrap_or("none")
            )));
        }
        rows.push(FeatureRow {
            key: key.clone(),
            kernel: kernel.clone(),
            time_ms: times.get(key).copied(),
            time_spread: spreads.get(key).copied(),
            values,
        });
    }
    Ok(FeatureTable {
        columns,
        rows,
        normalizer,
    })
}

fn timing_map(timings: &[TimingRow]) -> Result<HashMap<RunKey, f64>> {
    let mut map = HashMap::new();
    for t in timings {
        if map.insert(t.key(), t.time_ms).is_some() {
            let k = t.key();
            return Err(Error::Data(format!(
                "timings hold two rows for program {} input {} run {} variant {}",
                k.program, k.input, k.run, k.variant
            )));
        }
    }
    Ok(map)
}

#[cfg(test)]
mod tests;
