//! What a profile gives the advisor: its measurements as the advisor's feature row (the
//! selected kernels aggregated, normalized as the training data was), which counters it
//! lacks, and which optimizations' models it covers too thinly to advise on.

use std::collections::BTreeMap;

use serde::Serialize;

use super::bundle::Advisor;
use crate::dataset::features::{build, FeatureSettings, FeatureTable, Normalize};
use crate::dataset::measurements::MeasurementRow;
use crate::error::{Error, Result};

/// The least share of a model's training features a profile must have for the model to
/// advise on it (below, the optimization is left out and the profile summary says so).
pub const MIN_COVERAGE: f64 = 0.5;

/// The share of the features `m` was trained with (those its training data had) that the
/// profile row `x` has.
pub(super) fn coverage(m: &super::bundle::OptimizationModel, x: &[f64]) -> f64 {
    let trained: Vec<usize> = (0..x.len()).filter(|&j| !m.ranges[j].0.is_nan()).collect();
    trained.iter().filter(|&&j| !x[j].is_nan()).count() as f64 / trained.len().max(1) as f64
}

/// What the profile gave the advisor.
#[derive(Debug, Clone, Serialize)]
pub struct ProfileSummary {
    pub kernels: Vec<String>,
    pub features_present: usize,
    pub features_expected: usize,
    pub missing_features: Vec<String>,
    /// Optimizations whose models were trained on counters the profile mostly lacks (less
    /// than `MIN_COVERAGE` of them): not advised on.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub left_out: Vec<String>,
    /// Where the code stands in families with a step model (threads per block for
    /// BLOCK_SIZE, from the profile's launch__block_size or the user's --level).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub levels: BTreeMap<String, f64>,
    /// Optimizations left out of the suggestions, each with why (already applied or nothing
    /// to apply to in the source, nothing to change in the profile, a step the launch cannot
    /// take); set by the caller, which makes those checks.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_suggested: Vec<NotSuggested>,
    /// The profile is a simulator's log (GPGPU-Sim), not a measurement; set by the caller,
    /// which knows the file's format.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub simulated: bool,
    /// How the GPU is attached to its host, where the profile's device attributes show it
    /// (dataset::host_link; `host_link_text` says which link answered).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host_link: Option<crate::dataset::host_link::HostLink>,
    /// The link is the user's (`--host-link`), not the profile's; set by the caller.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub host_link_given: bool,
}

/// An optimization left out of the suggestions, and why.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct NotSuggested {
    pub optimization: String,
    pub reason: String,
}

/// The advisor's features for one profile: measurements aggregated over the selected
/// kernels (one row), normalized as the training data was. `levels` says where the code
/// stands (recommend::step_model::profile_levels and the user's --level): an optimization
/// whose step model applies is advised on whatever counters the profile lacks.
pub fn profile_features(
    advisor: &Advisor,
    rows: &[MeasurementRow],
    levels: &BTreeMap<String, f64>,
) -> Result<(Vec<f64>, ProfileSummary)> {
    // An advisor trained without normalization (no active cycles in its data) reads raw values.
    let settings = FeatureSettings {
        normalizer: advisor.normalizer.clone(),
        normalize: if advisor.normalizer.is_some() {
            Normalize::Units
        } else {
            Normalize::None
        },
        view: advisor.view,
        ..FeatureSettings::default()
    };
    let table: FeatureTable = build(rows, &[], &settings).map_err(|e| match e {
        Error::MissingMetric { metric, .. } => Error::MissingMetric {
            metric,
            context: "in the profile".into(),
            hint: "profile with the advisor's metric list (`advise profile` does it)".into(),
        },
        other => other,
    })?;
    let row = table.rows.first().ok_or_else(|| {
        Error::Data("the profile has no measurements of the selected kernels".into())
    })?;
    let mut kernels: Vec<String> = rows.iter().map(|r| r.kernel.clone()).collect();
    kernels.sort();
    kernels.dedup();
    let x: Vec<f64> = advisor
        .features
        .iter()
        .map(|f| {
            table
                .columns
                .iter()
                .position(|c| c == f)
                .and_then(|j| row.values[j])
                .unwrap_or(f64::NAN)
        })
        .collect();
    // Only features the training data knew count: a portable feature that no training source
    // could compute is not expected of the profile either.
    let known: Vec<bool> = (0..advisor.features.len())
        .map(|j| {
            advisor
                .optimizations
                .iter()
                .any(|m| !m.ranges[j].0.is_nan())
        })
        .collect();
    let expected = known.iter().filter(|&&k| k).count();
    let missing: Vec<String> = advisor
        .features
        .iter()
        .zip(&x)
        .zip(&known)
        .filter(|((_, v), k)| **k && v.is_nan())
        .map(|((f, _), _)| f.clone())
        .collect();
    // Models of another host link than the profile's, where the profile's has its own, do
    // not answer whatever the counters (recommend::host_choice): neither listed nor counted.
    let link = crate::dataset::host_link::HostLink::of_rows(rows);
    let answering: Vec<&super::bundle::OptimizationModel> = advisor
        .optimizations
        .iter()
        .filter(|m| super::host_choice::choose(advisor, m, link).is_some())
        .collect();
    let left_out: Vec<String> = answering
        .iter()
        .filter(|m| {
            coverage(m, &x) < MIN_COVERAGE && super::step_model::applies(m, levels).is_none()
        })
        .map(|m| m.label())
        .collect();
    let summary = ProfileSummary {
        kernels,
        features_present: expected - missing.len(),
        features_expected: expected,
        missing_features: missing.clone(),
        left_out,
        levels: levels.clone(),
        not_suggested: Vec::new(),
        simulated: false,
        host_link: link,
        host_link_given: false,
    };
    // Some models may have learned from fewer counters (section values of Nsight Compute's
    // details pages): the profile is refused only when no model has enough of its own.
    if summary.left_out.len() == answering.len() {
        // Where the kernels differ in block size, one kernel alone has a level the block-size
        // step model can judge without counters.
        let sizes = super::step_model::profile_block_sizes(rows);
        let one_kernel = if sizes.len() > 1 && !levels.contains_key("BLOCK_SIZE") {
            format!(
                "; its launches have {} block sizes ({} threads): `--kernel REGEX` selects \
                 kernels of one block size, whose block-size step the advisor judges without \
                 these counters",
                sizes.len(),
                sizes
                    .iter()
                    .map(|s| s.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        } else {
            String::new()
        };
        // A command line of hundreds of metric names helps no one: past a hundred,
        // `advise profile` is the way (it asks ncu for the advisor's list).
        let metrics = advisor.metrics_to_profile();
        let ncu = if metrics.len() <= 100 {
            format!(
                ", or run `ncu --csv --page raw --metrics {} ./app` and pass its output",
                metrics.join(",")
            )
        } else {
            format!(
                ", which asks ncu for the advisor's {} metrics",
                metrics.len()
            )
        };
        let counters_view = if advisor.view == crate::dataset::features::View::Counters {
            "; this advisor was trained with `--features counters`, on Nsight Compute's own \
             counters, which nvprof output and GPGPU-Sim logs mostly lack: one trained with \
             `--features portable` (the default) reads every source"
        } else {
            ""
        };
        return Err(Error::Data(format!(
            "the profile lacks the counters behind {} of the {expected} features the advisor's \
             models use ({}, ...), too many to advise on (an Nsight Compute details page or \
             another tool's default output has section summaries, not these raw \
             counters){one_kernel}{counters_view}; profile with `advise profile -- ./app`{ncu}",
            missing.len(),
            missing
                .iter()
                .take(3)
                .map(|f| f.trim_start_matches("portable__"))
                .collect::<Vec<_>>()
                .join(", "),
        )));
    }
    Ok((x, summary))
}

impl ProfileSummary {
    /// "Host link: PCIe, from the profile's device attributes; ..." where `advisor` answers
    /// some optimization per host link (recommend::host_choice).
    pub fn host_link_text(&self, advisor: &super::bundle::Advisor) -> Option<String> {
        if advisor.optimizations.iter().all(|m| m.host_link.is_none()) {
            return None;
        }
        let learned_on = |l| advisor.optimizations.iter().any(|m| m.host_link == Some(l));
        Some(match self.host_link {
            Some(l) => format!(
                "Host link: {}, {}; {}",
                l.label(),
                if self.host_link_given {
                    "as --host-link says (the profile does not show it)"
                } else {
                    "from the profile's device attributes"
                },
                if learned_on(l) {
                    format!(
                        "unified-memory advice comes from measurements on {}",
                        l.describe()
                    )
                } else {
                    format!(
                        "the advisor has no measurements on {}: its unified-memory advice was \
                         learned on other hosts and is uncertain here",
                        l.describe()
                    )
                }
            ),
            None => "Host link: not shown by the profile (a details page or an older Nsight \
                     Compute); unified-memory advice takes the GPU to be on PCIe (--host-link \
                     coherent says otherwise)"
                .to_string(),
        })
    }

    /// "BLOCK_SIZE 256 threads per block, ..." where the profile or the user gave levels.
    pub fn levels_text(&self) -> Option<String> {
        (!self.levels.is_empty()).then(|| {
            self.levels
                .iter()
                .map(|(f, v)| {
                    format!(
                        "{f} {v} {}",
                        super::step_model::level_meaning(f).unwrap_or("")
                    )
                })
                .collect::<Vec<_>>()
                .join(", ")
        })
    }
}
