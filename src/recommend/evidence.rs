//! Why a suggestion says what it says: the nearest training rows of the user's profile, the
//! portable features outside the training range (an extrapolation), and the counters that
//! decide the model's prediction, as plain-language reasons (suggest.rs); and the scaled
//! distances between feature rows all of these rest on (training and validation use them too).

use super::bundle::{Advisor, OptimizationModel};
use super::suggest::CounterEvidence;
use crate::number_format::fmt_sig;

/// `scaled_distance` over the columns `cols` only.
pub(super) fn subset_distance(a: &[f64], b: &[f64], ranges: &[(f64, f64)], cols: &[usize]) -> f64 {
    let pick = |v: &[f64]| -> Vec<f64> { cols.iter().map(|&j| v[j]).collect() };
    let r: Vec<(f64, f64)> = cols.iter().map(|&j| ranges[j]).collect();
    scaled_distance(&pick(a), &pick(b), &r)
}

/// The training row nearest to `x` (index) and its distance.
pub(super) fn nearest(m: &OptimizationModel, x: &[f64]) -> (usize, f64) {
    m.rows
        .iter()
        .enumerate()
        .map(|(i, r)| (i, scaled_distance(x, r, &m.ranges)))
        .fold(
            (0, f64::INFINITY),
            |best, c| if c.1 < best.1 { c } else { best },
        )
}

/// Features outside the training range, with how far outside in range widths, furthest first.
pub(super) fn outside_range(
    advisor: &Advisor,
    m: &OptimizationModel,
    x: &[f64],
) -> Vec<(usize, f64)> {
    let mut v: Vec<(usize, f64)> = (0..advisor.features.len())
        .filter_map(|j| {
            let (lo, hi) = m.ranges[j];
            let w = (hi - lo).abs().max(f64::MIN_POSITIVE);
            let v = x[j];
            if v.is_nan() || lo.is_nan() {
                return None;
            }
            let far = if v < lo {
                (lo - v) / w
            } else if v > hi {
                (v - hi) / w
            } else {
                0.0
            };
            (far > 0.0).then_some((j, far))
        })
        .collect();
    v.sort_by(|a, b| b.1.total_cmp(&a.1));
    v
}

pub(super) fn evidence(
    advisor: &Advisor,
    m: &OptimizationModel,
    x: &[f64],
    j: usize,
    threshold: Option<f64>,
) -> CounterEvidence {
    CounterEvidence {
        counter: advisor.features[j].clone(),
        value: x[j],
        train_min: m.ranges[j].0,
        train_max: m.ranges[j].1,
        threshold,
        taken_as: None,
    }
}

/// The M5P tests on the profile's path (from whichever of the two models is an M5P).
pub(super) fn decisions(
    advisor: &Advisor,
    m: &OptimizationModel,
    x: &[f64],
) -> Vec<CounterEvidence> {
    use advise_ml::Fitted;
    let tree = match (&m.primary.model, &m.secondary.model) {
        (Fitted::M5p(t), _) | (_, Fitted::M5p(t)) => t,
        _ => return Vec::new(),
    };
    tree.rule_path(x)
        .unwrap_or_default()
        .into_iter()
        .take(4)
        .map(|s| {
            let mut e = evidence(advisor, m, x, s.feature, Some(s.threshold));
            // The tree replaced a missing value by its training mean before the test.
            if e.value.is_nan() {
                e.taken_as = Some(s.value);
            }
            e
        })
        .collect()
}

pub(super) fn reason(
    m: &OptimizationModel,
    q: f64,
    nearest: usize,
    deciding: &[CounterEvidence],
    extrapolation: bool,
) -> String {
    let mut parts = Vec::new();
    if let Some(id) = m.ids.get(nearest) {
        parts.push(format!(
            "nearest training case {id}: the change gave {}x there",
            fmt_sig(m.speedups[nearest], 3)
        ));
    }
    let rules: Vec<String> = deciding
        .iter()
        .filter_map(|e| {
            e.threshold.map(|t| {
                format!(
                    "{} = {} {} {}",
                    e.counter,
                    e.value_text(),
                    if e.compared_value() <= t { "<=" } else { ">" },
                    fmt_sig(t, 3)
                )
            })
        })
        .collect();
    if !rules.is_empty() {
        parts.push(format!("M5P rule: {}", rules.join(", ")));
    }
    let outside: Vec<String> = deciding
        .iter()
        .filter(|e| e.threshold.is_none())
        .map(|e| {
            format!(
                "{} = {} (trained on {}..{})",
                e.counter,
                fmt_sig(e.value, 3),
                fmt_sig(e.train_min, 3),
                fmt_sig(e.train_max, 3)
            )
        })
        .collect();
    if !outside.is_empty() {
        parts.push(format!(
            "outside the training range: {}",
            outside.join(", ")
        ));
    }
    parts.push(format!(
        "second model ({}) predicts {}{}x",
        m.secondary.method(),
        if q <= 0.0 { "an impossible " } else { "" },
        fmt_sig(q, 3)
    ));
    if extrapolation {
        parts.push("the profile lies far from the training data: this is an extrapolation".into());
    }
    parts.join("; ")
}

/// Per-feature (min, max) over known values; (NaN, NaN) where a feature is never known.
pub fn ranges_of(rows: &[Vec<f64>], width: usize) -> Vec<(f64, f64)> {
    (0..width)
        .map(|j| {
            rows.iter().map(|r| r[j]).filter(|v| !v.is_nan()).fold(
                (f64::NAN, f64::NAN),
                |(lo, hi), v| {
                    (
                        if lo.is_nan() { v } else { lo.min(v) },
                        if hi.is_nan() { v } else { hi.max(v) },
                    )
                },
            )
        })
        .collect()
}

/// Euclidean distance on min-max scaled features, skipping features missing in either row
/// and constant ones (as IBk ignores them).
pub fn scaled_distance(a: &[f64], b: &[f64], ranges: &[(f64, f64)]) -> f64 {
    let mut sum = 0.0;
    for ((x, y), (lo, hi)) in a.iter().zip(b).zip(ranges) {
        let w = hi - lo;
        if x.is_nan() || y.is_nan() || w.is_nan() || w <= 0.0 {
            continue;
        }
        let d = (x - y) / w;
        sum += d * d;
    }
    sum.sqrt()
}

/// Median nearest-other-row distance over at most 200 rows (evenly spaced).
pub fn typical_distance(rows: &[Vec<f64>], ranges: &[(f64, f64)]) -> f64 {
    let step = (rows.len() / 200).max(1);
    let mut d: Vec<f64> = (0..rows.len())
        .step_by(step)
        .map(|i| {
            rows.iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, r)| scaled_distance(&rows[i], r, ranges))
                .fold(f64::INFINITY, f64::min)
        })
        .filter(|v| v.is_finite())
        .collect();
    if d.is_empty() {
        return 0.0;
    }
    d.sort_by(f64::total_cmp);
    d[d.len() / 2]
}
