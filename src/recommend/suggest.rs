//! Suggestions for a user's profiled program: for each optimization the advisor knows and the
//! code does not already apply, the predicted speedup, a confidence and the concrete reasons,
//! ranked by expected gain.
//!
//! The raw score = validated accuracy of the optimization's model (leave one program out
//!     where two or more programs have it, since a user's program is new to the advisor;
//!     else grouped cross-validation within programs)
//!   x closeness (1 when the user's counters are as close to the training data as training
//!     rows are to each other, falling as typical distance / nearest distance beyond that)
//!   x agreement (1 when the second model predicts the same side of 1.0, else 0.75).
//! Confidence = the advisor's calibration of that score (the share of held-out suggestions
//! with about that score whose direction was right, `validation`), at most the accuracy on
//! programs it had not seen where that was measured, x coverage (the share of the model's
//! counters the profile has: missing ones are not silently ignored).
//! A profile whose nearest training row is more than 3 typical distances away in the portable
//! features, or with a portable feature far outside the training range, is an extrapolation.

use serde::Serialize;

use super::bundle::Advisor;
use super::evidence::{decisions, evidence, nearest, outside_range, reason, subset_distance};
use super::validation::raw_score;
use crate::dataset::features::{build, FeatureSettings, FeatureTable, Normalize};
use crate::dataset::measurements::MeasurementRow;
use crate::error::{Error, Result};
use advise_ml::Data;

/// A predicted speedup within this of 1.0 is reported as "no clear effect".
pub const NO_EFFECT_BAND: f64 = 0.02;

/// The least share of a model's training features a profile must have for the model to
/// advise on it (below, the optimization is left out and the profile summary says so).
pub const MIN_COVERAGE: f64 = 0.5;

/// The share of the features `m` was trained with (those its training data had) that the
/// profile row `x` has.
fn coverage(m: &super::bundle::OptimizationModel, x: &[f64]) -> f64 {
    let trained: Vec<usize> = (0..x.len()).filter(|&j| !m.ranges[j].0.is_nan()).collect();
    trained.iter().filter(|&&j| !x[j].is_nan()).count() as f64 / trained.len().max(1) as f64
}

/// One suggestion.
#[derive(Debug, Clone, Serialize)]
pub struct Suggestion {
    pub optimization: String,
    pub predicted_speedup: f64,
    /// The second model's prediction.
    pub second_opinion: f64,
    pub confidence: f64,
    pub confidence_label: &'static str,
    /// `recommend`, `no clear effect` or `not recommended`.
    pub verdict: &'static str,
    pub extrapolation: bool,
    pub reason: String,
    /// Cross-validated accuracy of this optimization's model, and of the majority rule.
    pub validated_accuracy: Option<f64>,
    pub majority_accuracy: Option<f64>,
    /// Accuracy on programs it had not seen (leave one program out), where two or more
    /// programs have the optimization; it, not `validated_accuracy`, enters the confidence.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub across_programs_accuracy: Option<f64>,
    /// The grouped validation's confusion table (counts; P = speedup > 1, first letter the
    /// prediction).
    pub validation_table: Option<[usize; 4]>,
    /// The uncalibrated score and the share of the model's counters the profile has.
    pub raw_score: f64,
    pub coverage: f64,
    /// The model learned only from simulated data.
    pub simulated_only: bool,
    /// The counters that decided (M5P path) and that lie furthest outside the training range.
    pub deciding_counters: Vec<CounterEvidence>,
}

/// A counter of the user's profile next to the training data's range.
#[derive(Debug, Clone, Serialize)]
pub struct CounterEvidence {
    pub counter: String,
    pub value: f64,
    pub train_min: f64,
    pub train_max: f64,
    /// For a decision of the M5P tree: the threshold it was compared with.
    pub threshold: Option<f64>,
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
}

/// The advisor's features for one profile: measurements aggregated over the selected
/// kernels (one row), normalized as the training data was.
pub fn profile_features(
    advisor: &Advisor,
    rows: &[MeasurementRow],
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
    let left_out: Vec<String> = advisor
        .optimizations
        .iter()
        .filter(|m| coverage(m, &x) < MIN_COVERAGE)
        .map(|m| m.name.clone())
        .collect();
    let summary = ProfileSummary {
        kernels,
        features_present: expected - missing.len(),
        features_expected: expected,
        missing_features: missing.clone(),
        left_out,
    };
    // Some models may have learned from fewer counters (section values of Nsight Compute's
    // details pages): the profile is refused only when no model has enough of its own.
    if summary.left_out.len() == advisor.optimizations.len() {
        return Err(Error::Data(format!(
            "the profile lacks the counters behind {} of the {expected} features the advisor's \
             models use ({}, ...), too many to advise on (an Nsight Compute details page or \
             another tool's default output has section summaries, not these raw counters); \
             profile with `advise profile -- ./app`, or run `ncu --csv --page raw --metrics {} \
             ./app` and pass its output",
            missing.len(),
            missing
                .iter()
                .take(3)
                .map(|f| f.trim_start_matches("portable__"))
                .collect::<Vec<_>>()
                .join(", "),
            advisor.metrics_to_profile().join(",")
        )));
    }
    Ok((x, summary))
}

fn label(c: f64) -> &'static str {
    if c >= 0.8 {
        "high"
    } else if c >= 0.6 {
        "medium"
    } else {
        "low"
    }
}

/// Suggestions for one feature row, ranked by expected gain (confidence x (speedup - 1)),
/// recommended ones first. `applied` optimizations are left out.
pub fn suggest(advisor: &Advisor, x: &[f64], applied: &[String]) -> Result<Vec<Suggestion>> {
    let mut out = Vec::new();
    let data = Data::numeric(
        &advisor.features,
        "speedup",
        vec![x.to_vec()],
        vec![f64::NAN],
    );
    for m in &advisor.optimizations {
        if applied.iter().any(|a| is_applied(&m.name, a)) {
            continue;
        }
        let coverage = coverage(m, x);
        if coverage < MIN_COVERAGE {
            continue;
        }
        let p = m.primary.predict(&data)?[0];
        let q = m.secondary.predict(&data)?[0];
        let (nearest, d) = nearest(m, x);
        // A user's program is new to the advisor: where the optimization was validated on
        // programs it had not seen (leave one program out), that accuracy enters the score,
        // not the one within programs.
        let accuracy = m.validation.as_ref().map(|v| v.accuracy);
        let score_accuracy = m
            .across_programs
            .as_ref()
            .or(m.validation.as_ref())
            .map(|v| v.accuracy);
        let beats_majority = m
            .validation
            .as_ref()
            .is_some_and(|v| v.accuracy > v.majority_accuracy);
        let raw = raw_score(
            score_accuracy.unwrap_or(0.5),
            d,
            m.typical_distance,
            (p > 1.0) == (q > 1.0),
        );
        // The calibration maps scores to the share right on held-out groups of known
        // programs; on programs the advisor had not seen this optimization's direction was
        // right only as often as `across_programs` says, so that caps it.
        let calibrated = advisor.calibration.apply(raw);
        let confidence = m
            .across_programs
            .as_ref()
            .map_or(calibrated, |a| calibrated.min(a.accuracy))
            * coverage;
        let cols = advisor.extrapolation_columns();
        let d_portable = m
            .rows
            .iter()
            .map(|r| subset_distance(x, r, &m.ranges, &cols))
            .fold(f64::INFINITY, f64::min);
        let outside: Vec<(usize, f64)> = outside_range(advisor, m, x)
            .into_iter()
            .filter(|(j, _)| cols.contains(j))
            .collect();
        let typical = if m.typical_portable_distance > 0.0 {
            m.typical_portable_distance
        } else {
            m.typical_distance
        };
        // A speedup at or below zero cannot happen: a model that predicts one (M5P's linear
        // leaves, far from their data) is extrapolating whatever the distances say.
        let extrapolation = d_portable > 3.0 * typical
            || outside.iter().any(|(_, how_far)| *how_far > 0.5)
            || p <= 0.0
            || q <= 0.0;
        let verdict = if (p - 1.0).abs() < NO_EFFECT_BAND {
            "no clear effect"
        } else if p > 1.0 {
            "recommend"
        } else {
            "not recommended"
        };
        let mut deciding = decisions(advisor, m, x);
        deciding.extend(
            outside
                .iter()
                .take(3)
                .map(|(j, _)| evidence(advisor, m, x, *j, None)),
        );
        let mut reason = reason(m, q, nearest, &deciding, extrapolation);
        if m.simulated_only {
            reason.push_str(&format!(
                "; learned only from SIMULATED data ({} on GPGPU-Sim): no GPU measurement backs it",
                m.programs.join(", ")
            ));
        } else if m.programs.iter().any(|p| p.ends_with("(SIMULATED)")) {
            reason.push_str(&format!(
                "; learned partly from SIMULATED data (GPGPU-Sim): {}",
                m.programs.join(", ")
            ));
        }
        if let (false, Some(v)) = (beats_majority, &m.validation) {
            reason.push_str(&format!(
                "; validated accuracy {:.0}% is no better than the majority rule's ({:.0}%)",
                100.0 * v.accuracy,
                100.0 * v.majority_accuracy
            ));
        }
        if let Some(a) = &m.across_programs {
            let second = a
                .secondary_accuracy
                .map(|s| format!(" (the second model's {:.0}%)", 100.0 * s))
                .unwrap_or_default();
            reason.push_str(&format!(
                "; on a program it had not seen (leave one program out over {}) its direction \
                 was right {:.0}% of the time{second}, the majority rule's {:.0}%",
                m.programs.join(", "),
                100.0 * a.accuracy,
                100.0 * a.majority_accuracy
            ));
        }
        out.push(Suggestion {
            optimization: m.name.clone(),
            predicted_speedup: p,
            second_opinion: q,
            confidence,
            confidence_label: label(confidence),
            verdict,
            extrapolation,
            reason,
            validated_accuracy: accuracy,
            majority_accuracy: m.validation.as_ref().map(|v| v.majority_accuracy),
            across_programs_accuracy: m.across_programs.as_ref().map(|v| v.accuracy),
            validation_table: m.validation.as_ref().map(|v| [v.pp, v.pn, v.np, v.nn]),
            raw_score: raw,
            coverage,
            simulated_only: m.simulated_only,
            deciding_counters: deciding,
        });
    }
    out.sort_by(rank);
    Ok(out)
}

/// The order of the suggestions: recommendations first; among equals, predictions inside
/// the training data before extrapolations (a non-expert reads the top line as what to
/// try), then by confidence-weighted gain.
fn rank(a: &Suggestion, b: &Suggestion) -> std::cmp::Ordering {
    let gain = |s: &Suggestion| s.confidence * (s.predicted_speedup - 1.0);
    (b.verdict == "recommend")
        .cmp(&(a.verdict == "recommend"))
        .then(a.extrapolation.cmp(&b.extrapolation))
        .then(gain(b).total_cmp(&gain(a)))
}

/// Whether `applied` (as a user writes it: `SHMEM`, `READ_ONLY`, `tile_size up`) names the
/// advisor's optimization `name`: the whole name, or its family without the direction
/// (`READ_ONLY` for `READ_ONLY on`). A prefix is not enough: `S` names neither SHMEM nor SORT.
pub fn is_applied(name: &str, applied: &str) -> bool {
    let a = applied.trim();
    let family = name.split_whitespace().next().unwrap_or(name);
    !a.is_empty() && (name.eq_ignore_ascii_case(a) || family.eq_ignore_ascii_case(a))
}

#[cfg(test)]
mod tests {
    use super::{is_applied, label, rank, Suggestion};

    #[test]
    fn applied_optimizations_match_whole_names_not_prefixes() {
        assert!(is_applied("SHMEM", "shmem"));
        assert!(is_applied("READ_ONLY on", "READ_ONLY"));
        assert!(is_applied("TILE_SIZE up", "tile_size up"));
        assert!(!is_applied("SHMEM", "S"));
        assert!(!is_applied("SORT", "S"));
        assert!(!is_applied("TILE_SIZE up", "TILE"));
        assert!(!is_applied("SHMEM", ""));
    }

    #[test]
    fn trusted_recommendations_rank_before_extrapolated_ones() {
        let s =
            |name: &str, verdict: &'static str, p: f64, c: f64, extrapolation: bool| Suggestion {
                optimization: name.into(),
                predicted_speedup: p,
                second_opinion: p,
                confidence: c,
                confidence_label: label(c),
                verdict,
                extrapolation,
                reason: String::new(),
                validated_accuracy: None,
                majority_accuracy: None,
                across_programs_accuracy: None,
                validation_table: None,
                raw_score: 0.0,
                coverage: 1.0,
                simulated_only: false,
                deciding_counters: Vec::new(),
            };
        let mut list = [
            s("NOTHING", "no clear effect", 1.01, 0.99, false),
            s("FAR", "recommend", 1.84, 0.61, true),
            s("NEAR", "recommend", 1.37, 0.99, false),
            s("NEAR_SMALL", "recommend", 1.10, 0.99, false),
            s("FAR_SMALL", "recommend", 1.30, 0.61, true),
        ];
        list.sort_by(rank);
        let order: Vec<&str> = list.iter().map(|s| s.optimization.as_str()).collect();
        assert_eq!(order, ["NEAR", "NEAR_SMALL", "FAR", "FAR_SMALL", "NOTHING"]);
    }
}
