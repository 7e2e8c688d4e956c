//! How one run's values of a metric become one feature value: the launches' entries summed
//! (counts) or averaged by duration or invocations (intensive values), the metric's ncu name,
//! and the active-cycle metric that normalizes the counts (docs/ARCHITECTURE.md).

use std::collections::BTreeMap;

use super::features::{GroupKey, Normalize, ACTIVE_CYCLE_METRICS};
use crate::error::{Error, Result};
use crate::profile::value::MetricKind;
use crate::profile::{metric_map, section_labels};

/// One metric's entries in one run (or kernel), with its unit.
pub(super) struct Metric {
    pub(super) unit: String,
    pub(super) entries: Vec<Entry>,
}

/// One launch's value of the metric.
pub(super) struct Entry {
    pub(super) kernel: String,
    pub(super) launch: u64,
    pub(super) invocations: u64,
    pub(super) value: f64,
}

impl Metric {
    pub(super) fn aggregate(
        &self,
        kind: MetricKind,
        duration: impl Fn(&Entry) -> Option<f64>,
    ) -> f64 {
        match kind {
            MetricKind::Count => self
                .entries
                .iter()
                .map(|e| e.value * e.invocations as f64)
                .sum(),
            MetricKind::Intensive => {
                let durations: Option<Vec<f64>> = self.entries.iter().map(&duration).collect();
                let weights: Vec<f64> = match durations {
                    Some(d) if d.iter().sum::<f64>() > 0.0 => self
                        .entries
                        .iter()
                        .zip(d)
                        .map(|(e, d)| d * e.invocations as f64)
                        .collect(),
                    _ => self.entries.iter().map(|e| e.invocations as f64).collect(),
                };
                let total: f64 = weights.iter().sum();
                self.entries
                    .iter()
                    .zip(&weights)
                    .map(|(e, w)| e.value * w)
                    .sum::<f64>()
                    / total
            }
        }
    }
}

/// The ncu name (and scale) for a metric: nvprof names and Nsight Compute details-page labels
/// become the ncu metric they stand for, unless names are kept as they are. `label`: the name
/// came from a details-page label.
pub(super) fn canonical(metric: &str, keep: bool) -> (String, f64, bool) {
    if !keep {
        if let Some(p) = metric_map::lookup(metric) {
            if let (Some(ncu), metric_map::Match::Exact) = (p.ncu, p.matches) {
                return (ncu.to_string(), p.scale, false);
            }
        }
        if let Some(ncu) = section_labels::metric_of(metric) {
            return (ncu.to_string(), 1.0, true);
        }
    }
    (metric.to_string(), 1.0, false)
}

/// A is needed only where some metric will be divided; then the first active-cycle metric
/// that the data has is used.
pub(super) fn pick_normalizer(
    groups: &BTreeMap<GroupKey, BTreeMap<String, Metric>>,
    normalize: Normalize,
) -> Result<Option<String>> {
    if normalize == Normalize::None {
        return Ok(None);
    }
    let any_divided = groups.values().flat_map(|g| g.iter()).any(|(n, m)| {
        normalize == Normalize::All || MetricKind::classify(n, &m.unit, false) == MetricKind::Count
    });
    if !any_divided {
        return Ok(None);
    }
    ACTIVE_CYCLE_METRICS
        .iter()
        .find(|a| groups.values().any(|g| g.contains_key(**a)))
        .map(|a| Some(a.to_string()))
        .ok_or_else(|| Error::MissingMetric {
            metric: "active cycles".into(),
            context: format!("(none of {})", ACTIVE_CYCLE_METRICS.join(", ")),
            hint: "add sm__cycles_active.sum to the ncu --metrics list (nvprof: active_cycles), \
                   or use --normalize none"
                .into(),
        })
}
