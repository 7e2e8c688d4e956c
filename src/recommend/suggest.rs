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
//! An extrapolation of an optimization never validated on programs the advisor had not seen
//! is capped at the accuracy the advisor's models reached on such programs, pooled over the
//! optimizations that were (`Advisor::across_programs_accuracy`).
//! Where the profile shows where the code stands in a many-valued family (threads per block)
//! and the family's step model (recommend::step_model: where a step starts and how far it
//! goes and, for block sizes where the profile names the GPU and the registers per thread,
//! what it does to theoretical occupancy) was right more often on programs it had not seen
//! than the counter model, the step model predicts one doubling; its accuracy across programs
//! then takes the counter model's place in the score and the cap, and the counter model is
//! the second opinion (none where the profile lacks its counters; the step model needs none).

use std::collections::BTreeMap;

use super::bundle::Advisor;
use super::evidence::{decisions, evidence, nearest, outside_range, reason, subset_distance};
use super::profile_input::coverage;
pub use super::profile_input::{profile_features, NotSuggested, ProfileSummary, MIN_COVERAGE};
use super::step_model::{ProfileLaunch, STEP_FACTOR};
pub use super::suggestion::{headline, CounterEvidence, StepUse, Suggestion};
use super::validation::{raw_score, Validation};
use crate::error::Result;
use crate::experiment::step_features::StepValues;
use advise_ml::Data;
use caveats::Caveats;

/// A predicted speedup within this of 1.0 is reported as "no clear effect".
pub const NO_EFFECT_BAND: f64 = 0.02;

/// A confidence below this (the calibrated chance that the predicted direction is right)
/// makes the verdict `UNCERTAIN`, neither "recommend" nor "not recommended".
pub const EVEN_ODDS: f64 = 0.5;

/// The verdict of a suggestion whose direction is no better than a coin toss.
pub const UNCERTAIN: &str = "uncertain";

/// The verdict on a predicted speedup `p` at `confidence`, where `no_evidence` says the
/// validation behind it was no better than a coin toss or the profile lies where the training
/// data never was (`profile_checks::unseen_problem`). "No clear effect" is a verdict too and
/// needs the same evidence: an answer no better than a coin toss says 1.00x as readily where the
/// effect is large (on a matrix transpose whose tile has 32-way bank conflicts PADDING's answer
/// was 1.00x and the padded tile ran 2.15x faster: datasets/verify-h200-20261127).
/// `side` is the side of the band the answer falls on (`effect_side`), or -1 where the majority
/// rule's median lies inside the band but its pairs often got clearly slower
/// (`majority_rule::often_slower`).
fn verdict(side: i8, confidence: f64, no_evidence: bool) -> &'static str {
    if confidence < EVEN_ODDS || no_evidence {
        return UNCERTAIN;
    }
    match side {
        0 => "no clear effect",
        1 => "recommend",
        _ => "not recommended",
    }
}

/// Which side of the "no clear effect" band (`NO_EFFECT_BAND`) a speedup falls on: 1 faster,
/// 0 within it, -1 slower (NaN: -1, as `verdict` always treated it).
pub(super) fn effect_side(speedup: f64) -> i8 {
    if (speedup - 1.0).abs() < NO_EFFECT_BAND {
        0
    } else if speedup > 1.0 {
        1
    } else {
        -1
    }
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

/// Suggestions for one feature row, recommended ones first, then by confidence and predicted
/// speedup (`rank`). `applied` optimizations are left out. `levels` says where the code
/// stands in some families (threads per block for BLOCK_SIZE, ...; may be empty): where a
/// family's step model was right more often on programs it had not seen than its counter
/// model, the step model predicts the speedup of one doubling, and the counter model's
/// prediction becomes the second opinion.
pub fn suggest(
    advisor: &Advisor,
    x: &[f64],
    applied: &[String],
    levels: &BTreeMap<String, f64>,
    launch: &ProfileLaunch,
) -> Result<Vec<Suggestion>> {
    let mut out = Vec::new();
    let data = Data::numeric(
        &advisor.features,
        "speedup",
        vec![x.to_vec()],
        vec![f64::NAN],
    );
    // The portable features judge extrapolation for every optimization alike.
    let cols = advisor.extrapolation_columns();
    for m in &advisor.optimizations {
        if applied.iter().any(|a| is_applied(&m.name, a)) {
            continue;
        }
        let Some(host) = super::host_choice::choose(advisor, m, launch.host_link) else {
            continue;
        };
        let coverage = coverage(m, x);
        // The step model needs no counter: it advises where the counter model cannot.
        // Where the doubled level would not launch, the step model judges halving it: the
        // reverse of raising it from half, whose direction it predicts as well.
        let step = StepAnswer::of(m, levels, launch)?;
        let counters_usable = coverage >= MIN_COVERAGE;
        if !counters_usable && step.is_none() {
            continue;
        }
        let p = m.primary.predict(&data)?[0];
        let q = m.secondary.predict(&data)?[0];
        let (nearest, d) = nearest(m, x);
        // With the step model, it predicts and the counter model is the second opinion (none
        // when the profile lacks the counter model's counters).
        let (p_counter, q_counter) = (p, q);
        // Where the model did not beat the majority rule (`follows_rule`), the rule answers
        // and the model is the second opinion. So too where the step model, judged on the
        // kind of step this profile gives it (StepModel::validation_for: a block size without
        // occupancy, say), did not beat the majority rule on programs it had not seen, by the
        // same test (validation::follows_rule).
        let step_follows_rule = step
            .as_ref()
            .is_some_and(|s| super::validation::follows_rule(s.validation));
        let rule = (m.follows_rule && step.is_none()) || step_follows_rule;
        let (p, q) = match &step {
            // The rule learned raising: lowering is its reverse.
            Some(s) if step_follows_rule => {
                let r = majority_rule::speedup(m);
                (if s.lowered() { 1.0 / r } else { r }, s.predicted)
            }
            // The counter model predicts raising: lowering is its reverse.
            Some(s) if counters_usable && s.lowered() => (s.predicted, 1.0 / p),
            Some(s) if counters_usable => (s.predicted, p),
            Some(s) => (s.predicted, s.predicted),
            None if rule => (majority_rule::speedup(m), p),
            None => (p, q),
        };
        let coverage = if step.is_some() { 1.0 } else { coverage };
        // A user's program is new to the advisor: where the optimization was validated on
        // programs it had not seen (leave one program out), that accuracy enters the score,
        // not the one within programs.
        // The step model's validation is its leave one program out.
        let validation = match &step {
            Some(s) => Some(s.validation),
            None => m.validation.as_ref(),
        };
        let accuracy = validation.map(|v| v.accuracy);
        let across = step
            .as_ref()
            .map(|s| s.validation)
            .or(m.across_programs.as_ref());
        // The accuracy of what answers: the model's, or the rule's where it follows the rule.
        let answering = |v: &Validation| v.answering(rule);
        let score_accuracy = across.or(m.validation.as_ref()).map(answering);
        // The step model's closeness is whether the level lies in its training levels.
        let (d_score, typical_score) = if step.is_some() {
            (0.0, 1.0)
        } else {
            (d, m.typical_distance)
        };
        // The rule's held-out points were scored as agreeing (validation::Outcome).
        let raw = raw_score(
            score_accuracy.unwrap_or(0.5),
            d_score,
            typical_score,
            rule || (p > 1.0) == (q > 1.0),
        );
        // The calibration maps scores to the share right on held-out groups of known
        // programs; on programs the advisor had not seen this optimization's direction was
        // right only as often as `across_programs` says, so that caps it.
        let calibrated = advisor.calibration.apply(raw);
        let confidence = across.map_or(calibrated, |a| calibrated.min(answering(a))) * coverage;
        let outside: Vec<(usize, f64)> = outside_range(advisor, m, x)
            .into_iter()
            .filter(|(j, _)| cols.contains(j))
            .collect();
        // A speedup at or below zero cannot happen: a model that predicts one (M5P's linear
        // leaves, far from their data) is extrapolating whatever the distances say. The step
        // model extrapolates outside the levels it learned from.
        let extrapolation = match &step {
            Some(s) => !s.model.covers(s.from()) || p <= 0.0,
            None => {
                let d_portable = m
                    .rows
                    .iter()
                    .map(|r| subset_distance(x, r, &m.ranges, &cols))
                    .fold(f64::INFINITY, f64::min);
                let typical = if m.typical_portable_distance > 0.0 {
                    m.typical_portable_distance
                } else {
                    m.typical_distance
                };
                d_portable > 3.0 * typical
                    || outside.iter().any(|(_, how_far)| *how_far > 0.5)
                    || p <= 0.0
                    || q <= 0.0
            }
        };
        // An extrapolation lies beyond what validation within programs covered. Where this
        // optimization was never validated on programs the advisor had not seen, what its
        // models achieved there, pooled over the optimizations that were, caps it.
        let pooled_cap = match (extrapolation, across) {
            (true, None) => advisor.across_programs_accuracy(),
            _ => None,
        };
        let confidence = pooled_cap.map_or(confidence, |a| confidence.min(a * coverage));
        // Confidence is the calibrated chance that the direction is right: under even odds
        // the advisor cannot say which way it goes, whatever it predicts.
        // Nor where the validation that caps it cannot tell its direction from a coin toss.
        let decisive_validation = across.or(m.validation.as_ref());
        let coin_toss =
            decisive_validation.filter(|v| !super::validation::beats_coin_toss(answering(v), v));
        // Nor where the profile shows the problem the optimization removes and its training
        // data never did.
        let unseen = super::profile_checks::unseen_problem(advisor, m, x);
        // A rule's median inside the band whose pairs often got clearly slower is "not
        // recommended".
        let often_slower = match &step {
            None if rule => majority_rule::often_slower(m),
            _ => None,
        };
        let side = if often_slower.is_some() {
            -1
        } else {
            effect_side(p)
        };
        // Nor where nothing validated it at all (its training pairs in fewer than two groups).
        let unvalidated = decisive_validation.is_none();
        let verdict = verdict(
            side,
            confidence,
            coin_toss.is_some() || unseen.is_some() || host.no_evidence() || unvalidated,
        );
        // Counters the counter model could not use are no evidence.
        let mut deciding = Vec::new();
        if counters_usable {
            deciding = decisions(advisor, m, x);
            deciding.extend(
                outside
                    .iter()
                    .take(3)
                    .map(|(j, _)| evidence(advisor, m, x, *j, None)),
            );
        }
        let mut reason = match &step {
            Some(s) => s.reason(
                m,
                launch,
                counters_usable.then(|| {
                    (
                        p_counter,
                        reason(m, q_counter, nearest, &deciding, extrapolation),
                    )
                }),
                step_follows_rule,
            ),
            // Why a median inside the band is "not recommended" comes right after the rule's
            // split of its pairs.
            None if rule => format!(
                "{}{}; the model's evidence: {}",
                majority_rule::reason(m, q),
                match (&often_slower, verdict) {
                    (Some(why), "not recommended") => format!("; not recommended {why}"),
                    _ => String::new(),
                },
                reason(m, q, nearest, &deciding, extrapolation)
            ),
            None => reason(m, q, nearest, &deciding, extrapolation),
        };
        let under_even_odds = confidence < EVEN_ODDS;
        reason.push_str(
            &Caveats {
                model: m,
                pooled_cap,
                coin_toss: coin_toss.filter(|_| verdict == UNCERTAIN && !under_even_odds),
                rule,
                unvalidated,
                unseen: unseen.as_deref(),
                host: host.reason(),
                counters_answer: step.is_none(),
            }
            .text(),
        );
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
            majority_accuracy: validation.map(|v| v.majority_accuracy),
            across_programs_accuracy: across.map(answering),
            across_programs_model_accuracy: across.map(|a| a.accuracy),
            across_programs_majority_accuracy: across.map(|a| a.majority_accuracy),
            validation_table: validation.map(|v| [v.pp, v.pn, v.np, v.nn]),
            raw_score: raw,
            coverage,
            simulated_only: m.simulated_only,
            host_link: host.learned(),
            other_host_link: host.no_evidence(),
            follows_rule: rule,
            rule_by_program: match (rule, &m.rule) {
                (true, Some(b)) => b.by_program.clone(),
                _ => Vec::new(),
            },
            deciding_counters: deciding,
            step: step.map(|s| StepUse {
                level: s.level,
                to: s.to(),
                meaning: s.meaning,
                // Lowering undoes the raise the features describe.
                occupancy_change: s.values.occupancy.map(|o| s.signed(o).exp2()),
                warp_fill_change: s.values.warp_fill.map(|w| s.signed(w).exp2()),
                lowered_because: s.lowered_because,
                step_accuracy_across: s.validation.accuracy,
                counters_accuracy_across: m.across_programs.as_ref().map(|a| a.accuracy),
            }),
        });
    }
    out.sort_by(rank);
    Ok(out)
}

/// The order of the suggestions: recommendations first; among equals, predictions inside
/// the training data before extrapolations (a non-expert reads the top line as what to
/// try), then by confidence as printed (two decimals), then by predicted speedup. Not by
/// confidence times gain: on programs the models had not seen, the predicted speedups carry
/// no rank information (Spearman's rho between predicted and measured log speedup -0.23 to
/// 0.04 in leave one program out; docs/families.md), so a large prediction must not lift a
/// less certain suggestion above a more certain one.
fn rank(a: &Suggestion, b: &Suggestion) -> std::cmp::Ordering {
    let printed = |s: &Suggestion| (s.confidence * 100.0).round();
    (b.verdict == "recommend")
        .cmp(&(a.verdict == "recommend"))
        .then(a.extrapolation.cmp(&b.extrapolation))
        .then(printed(b).total_cmp(&printed(a)))
        .then(b.predicted_speedup.total_cmp(&a.predicted_speedup))
}

/// Whether `applied` (as a user writes it: `SHMEM`, `READ_ONLY`, `tile_size up`) names the
/// advisor's optimization `name`: the whole name, or its family without the direction
/// (`READ_ONLY` for `READ_ONLY on`). A prefix is not enough: `S` names neither SHMEM nor SORT.
pub fn is_applied(name: &str, applied: &str) -> bool {
    let a = applied.trim();
    let family = super::step_model::family_of(name);
    !a.is_empty() && (name.eq_ignore_ascii_case(a) || family.eq_ignore_ascii_case(a))
}

mod caveats;
mod majority_rule;
mod step_answer;
use step_answer::StepAnswer;
#[cfg(test)]
mod tests;
