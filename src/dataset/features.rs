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
        let a = match &normalizer {
            Some(n) => match aggregated.get(n.as_str()) {
                Some(&(a, _)) if a > 0.0 => Some(a),
                _ => {
                    return Err(Error::MissingMetric {
                        metric: n.clone(),
                        context: format!(
                            "(or zero) for program {} input {} run {} variant {}{}",
                            key.program,
                            key.input,
                            key.run,
                            key.variant,
                            kernel
                                .as_ref()
                                .map(|k| format!(" kernel {k}"))
                                .unwrap_or_default()
                        ),
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
mod tests {
    use super::*;

    fn row(
        variant: &str,
        kernel: &str,
        launch: u64,
        metric: &str,
        unit: &str,
        value: f64,
    ) -> MeasurementRow {
        MeasurementRow {
            program: "NB".into(),
            input: "bodies=50000,steps=2".into(),
            run: 1,
            variant: variant.into(),
            kernel: kernel.into(),
            launch,
            invocations: 1,
            metric: metric.into(),
            unit: unit.into(),
            value,
        }
    }

    fn synthetic_rows() -> Vec<MeasurementRow> {
        vec![
            row(
                "000000",
                "force",
                0,
                "sm__cycles_active.sum",
                "cycle",
                1000.0,
            ),
            row(
                "000000",
                "force",
                0,
                "smsp__inst_executed.sum",
                "inst",
                500.0,
            ),
            row(
                "000000",
                "force",
                0,
                "gpu__time_duration.sum",
                "second",
                3.0,
            ),
            row(
                "000000",
                "force",
                0,
                "sm__throughput.avg.pct_of_peak_sustained_elapsed",
                "%",
                90.0,
            ),
            row(
                "000000",
                "integrate",
                1,
                "sm__cycles_active.sum",
                "cycle",
                1000.0,
            ),
            row(
                "000000",
                "integrate",
                1,
                "smsp__inst_executed.sum",
                "inst",
                1500.0,
            ),
            row(
                "000000",
                "integrate",
                1,
                "gpu__time_duration.sum",
                "second",
                1.0,
            ),
            row(
                "000000",
                "integrate",
                1,
                "sm__throughput.avg.pct_of_peak_sustained_elapsed",
                "%",
                10.0,
            ),
        ]
    }

    #[test]
    fn counts_are_summed_and_normalized_rates_weighted_by_duration() {
        let t = build(&synthetic_rows(), &[], &FeatureSettings::default()).unwrap();
        assert_eq!(t.rows.len(), 1);
        let col = |n: &str| t.columns.iter().position(|c| c == n).unwrap();
        let r = &t.rows[0];
        assert_eq!(
            r.values[col("smsp__inst_executed.sum")],
            Some(2000.0 / 2000.0 * 1e6)
        );
        assert_eq!(r.values[col("sm__cycles_active.sum")], Some(2000.0));
        assert_eq!(
            r.values[col("sm__throughput.avg.pct_of_peak_sustained_elapsed")],
            Some((90.0 * 3.0 + 10.0 * 1.0) / 4.0)
        );
        assert_eq!(t.normalizer.as_deref(), Some("sm__cycles_active.sum"));
    }

    #[test]
    fn details_page_labels_stand_for_their_metric_unless_the_launch_has_it_by_name() {
        let settings = |keep_names| FeatureSettings {
            normalize: Normalize::None,
            per_kernel: false,
            keep_names,
            normalizer: None,
            view: View::Counters,
        };
        let rows = vec![
            row("000000", "k", 0, "Achieved Occupancy", "%", 40.0),
            row("000000", "k", 0, "Duration", "second", 2.0),
            row("000000", "k", 0, "gpu__time_duration.sum", "second", 3.0),
            row("000000", "k", 1, "Duration", "second", 1.0),
        ];
        let t = build(&rows, &[], &settings(false)).unwrap();
        assert_eq!(
            t.columns,
            vec![
                "gpu__time_duration.sum",
                "sm__warps_active.avg.pct_of_peak_sustained_active"
            ]
        );
        // Launch 0's duration by name (3; its label's 2 is dropped), launch 1's by its label
        // (1): durations average weighted by themselves, (3 x 3 + 1 x 1) / 4. With the label
        // kept too it would be (2 x 3 + 3 x 3 + 1 x 1) / 7.
        assert_eq!(t.rows[0].values, vec![Some(2.5), Some(40.0)]);
        let kept = build(&rows, &[], &settings(true)).unwrap();
        assert!(kept.columns.iter().any(|c| c == "Achieved Occupancy"));
    }

    #[test]
    fn per_kernel_and_normalize_all() {
        let s = FeatureSettings {
            normalize: Normalize::All,
            per_kernel: true,
            keep_names: false,
            normalizer: None,
            view: View::Counters,
        };
        let t = build(&synthetic_rows(), &[], &s).unwrap();
        assert_eq!(t.rows.len(), 2);
        let col = t
            .columns
            .iter()
            .position(|c| c.starts_with("sm__throughput"))
            .unwrap();
        assert_eq!(t.rows[0].values[col], Some(90.0 / 1000.0 * 1e6));
    }

    #[test]
    fn missing_active_cycles_is_a_clear_error() {
        let mut rows = synthetic_rows();
        rows.push(row(
            "000001",
            "force",
            0,
            "smsp__inst_executed.sum",
            "inst",
            5.0,
        ));
        let err = build(&rows, &[], &FeatureSettings::default()).unwrap_err();
        assert!(err.to_string().contains("variant 000001"), "{err}");
        let s = FeatureSettings {
            normalize: Normalize::None,
            ..Default::default()
        };
        assert!(build(&rows, &[], &s).is_ok());
    }

    #[test]
    fn csv_round_trip() {
        let t = build(&synthetic_rows(), &[], &FeatureSettings::default()).unwrap();
        let mut buf = Vec::new();
        t.write_csv(&mut buf).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("f.csv");
        std::fs::write(&p, &buf).unwrap();
        let back = FeatureTable::read_csv(&p).unwrap();
        assert_eq!(back.columns, t.columns);
        assert_eq!(back.rows, t.rows);
    }
}
