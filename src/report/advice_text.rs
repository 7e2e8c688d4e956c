//! The advisor's answers as terminal text: the ranked suggestions with their reasons and
//! validation tables (`advise suggest`, `advise profile`), per-kernel suggestions, and the
//! training summary of `advise train`.

use std::path::Path;

use crate::number_format::fmt_sig;
use crate::recommend::bundle::{Advisor, Validation};
use crate::recommend::catalogue;
use crate::recommend::suggest::{ProfileSummary, Suggestion};
use crate::report::table::TextTable;

/// Said wherever a suggestion rests on a simulator's log instead of a measured profile.
pub const SIMULATED_PROFILE: &str = "The profile is a GPGPU-Sim log: its counters are SIMULATED, \
     not measured on a GPU.";

/// `advise train`: per optimization what it learned from and how it validated, and the
/// reliability of the confidence.
pub fn training(advisor: &Advisor) -> String {
    let mut t = TextTable::new([
        "optimization",
        "learned from",
        "samples",
        "groups",
        "helps in %",
        "grouped cv accuracy %",
        "balanced %",
        "majority %",
        "p",
        "PP",
        "PN",
        "NP",
        "NN",
        "across programs %",
        "across majority %",
        "answers",
    ]);
    for m in &advisor.optimizations {
        let v = m.validation.as_ref();
        let across = |f: &dyn Fn(&Validation) -> String| {
            m.across_programs
                .as_ref()
                .map(f)
                .unwrap_or_else(|| "-".into())
        };
        let cell = |f: &dyn Fn(&Validation) -> String| v.map(f).unwrap_or_else(|| "-".into());
        t.push([
            m.name.clone(),
            format!(
                "{}{}",
                m.programs.join("+"),
                if m.simulated_only { " (SIMULATED)" } else { "" }
            ),
            m.samples.to_string(),
            cell(&|v| v.groups.to_string()),
            format!("{:.1}", 100.0 * m.positive_rate),
            cell(&|v| {
                format!(
                    "{:.1} [{:.1}, {:.1}]",
                    100.0 * v.accuracy,
                    100.0 * v.accuracy_low,
                    100.0 * v.accuracy_high
                )
            }),
            cell(&|v| format!("{:.1}", 100.0 * v.balanced_accuracy)),
            cell(&|v| format!("{:.1}", 100.0 * v.majority_accuracy)),
            cell(&|v| format!("{:.3}", v.p_value)),
            cell(&|v| v.pp.to_string()),
            cell(&|v| v.pn.to_string()),
            cell(&|v| v.np.to_string()),
            cell(&|v| v.nn.to_string()),
            across(&|v| format!("{:.1}", 100.0 * v.accuracy)),
            across(&|v| format!("{:.1}", 100.0 * v.majority_accuracy)),
            if m.follows_rule {
                "majority rule"
            } else {
                "model"
            }
            .to_string(),
        ]);
    }
    let mut text = t.render();
    text.push_str(
        "\nPP/PN/NP/NN: held-out samples by predicted and actual direction (P = faster with \
         the optimization). Folds keep each program, input and configuration family together.\n\
         across programs: leave one program out where two or more programs have the \
         optimization (each predicted by models of the others), beside the others' majority \
         rule; a new program is in that position.\n\
         answers: what a suggestion follows. The model only where it was significantly \
         better than the majority rule (McNemar p < 0.05) across programs where that was \
         measured, else in the grouped validation; elsewhere the rule, whose accuracy then \
         caps the confidence.\n",
    );
    text.push_str(&across_summary(advisor));
    let stepped: Vec<_> = advisor
        .optimizations
        .iter()
        .filter_map(|m| m.step.as_ref().map(|s| (m, s)))
        .collect();
    if !stepped.is_empty() {
        let mut st = TextTable::new([
            "step model",
            "level",
            "samples",
            "across programs %",
            "balanced %",
            "across majority %",
            "GPU unknown %",
            "occupancy same %",
            "occupancy moves %",
            "occupancy rule %",
            "counter model across %",
            "used",
        ]);
        for (m, s) in stepped {
            let a = &s.across_programs;
            let counters = m.across_programs.as_ref().map(|c| c.accuracy);
            st.push([
                m.name.clone(),
                crate::recommend::step_model::level_meaning(&m.name)
                    .unwrap_or("-")
                    .to_string(),
                s.samples.to_string(),
                format!("{:.1}", 100.0 * a.accuracy),
                format!("{:.1}", 100.0 * a.balanced_accuracy),
                format!("{:.1}", 100.0 * a.majority_accuracy),
                s.across_programs_unknown_gpu
                    .as_ref()
                    .map_or("-".into(), |u| format!("{:.1}", 100.0 * u.accuracy)),
                s.across_programs_same_occupancy
                    .as_ref()
                    .map_or("-".into(), |u| format!("{:.1}", 100.0 * u.accuracy)),
                s.across_programs_occupancy_changes
                    .as_ref()
                    .map_or("-".into(), |u| format!("{:.1}", 100.0 * u.accuracy)),
                s.occupancy_rule_accuracy
                    .map_or("-".into(), |r| format!("{:.1}", 100.0 * r)),
                counters.map_or("-".into(), |c| format!("{:.1}", 100.0 * c)),
                if crate::recommend::step_model::preferred(m).is_some() {
                    "yes, when the level is known"
                } else {
                    "no"
                }
                .to_string(),
            ]);
        }
        text.push_str(&format!(
            "\nStep models (LinearRegression on where a step starts and how far it goes and, for \
             block sizes, what it does to theoretical occupancy with the registers per thread on \
             the GPU; leave one program out). Where one beats its counter model across programs and \
             the profile shows the level (threads per block from launch__block_size, or \
             --level), it predicts one doubling; \"GPU unknown\": the same with the held-out \
             programs' occupancy unknown, as for a profile that names no GPU; \"occupancy \
             same\" and \"moves\": judged only on the held-out steps that leave theoretical \
             occupancy unchanged, or that change it (a suggestion's confidence follows the one \
             that describes its step); \"occupancy rule\": the untrained rule (take a block \
             step where theoretical occupancy rises) on the same programs held out:\n{}",
            st.render()
        ));
    }
    if !advisor.reliability.is_empty() {
        let r = reliability_table(advisor);
        text.push_str(
            "\nReliability of the confidence (held-out predictions; calibration fitted on the \
             other half of the groups):\n",
        );
        text.push_str(&r.render());
    }
    if !advisor.reliability_across.is_empty() {
        let r = reliability_rows(&advisor.reliability_across);
        text.push_str(
            "\nReliability on programs the advisor had not seen (leave one program out, where \
             two or more programs have the optimization; confidence capped at its accuracy \
             across programs, as suggestions are):\n",
        );
        text.push_str(&r.render());
    }
    text
}

/// The terminal answer: the verdict first, then the table.
pub fn suggestions(
    list: &[Suggestion],
    summary: &ProfileSummary,
    advisor: &Advisor,
    model: &Path,
) -> String {
    let mut text = String::new();
    match crate::recommend::suggest::headline(list) {
        Some(s) => text.push_str(&format!(
            "{}: {} (predicted {}x, confidence {} {:.2}{})\n\n",
            if s.confidence >= 0.6 && !s.extrapolation {
                "Try first"
            } else {
                "Best guess, but do not rely on it"
            },
            s.optimization,
            fmt_sig(s.predicted_speedup, 3),
            s.confidence_label,
            s.confidence,
            if s.extrapolation { ", extrapolated" } else { "" }
        )),
        None if list.is_empty() => text.push_str(&format!(
            "{} (what was left out, and why, is below).\n",
            super::suggestions::NO_SUGGESTION
        )),
        None => text.push_str("Nothing is predicted to help this code among the optimizations this advisor knows.\n\n"),
    }
    if !list.is_empty() {
        text.push_str(&ranked_table(list));
    }
    text.push_str(&format!(
        "\nProfile: {} kernel(s), {} of the advisor's {} counters present. Advisor: {} ({}), trained on {}.\n",
        summary.kernels.len(),
        summary.features_present,
        summary.features_expected,
        model.display(),
        advisor.method,
        advisor.datasets.join(", ")
    ));
    if summary.simulated {
        text.push_str(SIMULATED_PROFILE);
        text.push('\n');
    }
    if let Some(levels) = summary.levels_text() {
        text.push_str(&format!(
            "Where the code stands: {levels} (one doubling is what the step models predict).\n"
        ));
    }
    if !summary.left_out.is_empty() {
        text.push_str(&format!(
            "Not advised on (the profile has under half the counters their models learned from): {}.\n",
            summary.left_out.join(", ")
        ));
    }
    for n in &summary.not_suggested {
        text.push_str(&format!(
            "Not suggested: {} {}.\n",
            n.optimization, n.reason
        ));
    }
    text
}

/// The ranked suggestions as a table, each one's reasons, and the models' validation tables.
fn ranked_table(list: &[Suggestion]) -> String {
    let mut text = String::new();
    let mut t = TextTable::new([
        "#",
        "optimization",
        "verdict",
        "predicted",
        "confidence",
        "what it is",
    ]);
    for (i, s) in list.iter().enumerate() {
        let what = catalogue::lookup(&s.optimization)
            .ok()
            .flatten()
            .map(|e| e.summary)
            .unwrap_or_default();
        t.push([
            (i + 1).to_string(),
            s.optimization.clone(),
            s.verdict.to_string(),
            format!("{}x", fmt_sig(s.predicted_speedup, 3)),
            format!(
                "{} {:.2}{}",
                s.confidence_label,
                s.confidence,
                if s.extrapolation {
                    " (extrapolated)"
                } else {
                    ""
                }
            ),
            what,
        ]);
    }
    text.push_str(&t.render());
    text.push_str("\nWhy:\n");
    for s in list {
        text.push_str(&format!("  {}: {}\n", s.optimization, s.reason));
    }
    text.push_str(&validation_tables(list));
    text
}

/// Across programs, pooled over the optimizations validated so: the models, what the
/// suggestions follow (the model or the majority rule), and the same with the choice made
/// without each held-out program. Empty where nothing was validated across programs.
fn across_summary(advisor: &Advisor) -> String {
    let (mut follow, mut nested, mut all, mut nested_all) = (0.0, 0usize, 0usize, 0usize);
    for m in &advisor.optimizations {
        let Some(v) = &m.across_programs else {
            continue;
        };
        let n = v.pp + v.pn + v.np + v.nn;
        follow += if m.follows_rule {
            v.majority_accuracy * n as f64
        } else {
            (v.pp + v.nn) as f64
        };
        all += n;
        if let Some([r, a]) = m.across_nested {
            nested += r;
            nested_all += a;
        }
    }
    match advisor.across_programs_accuracy() {
        Some(models) if all > 0 => format!(
            "across programs, pooled over the optimizations validated so: the models were \
             right {:.1}% of the time, what the suggestions follow {:.1}% (the choice between \
             model and rule made on those same held-out programs: optimistic), {:.1}% with the \
             choice made without each held-out program.\n",
            100.0 * models,
            100.0 * follow / all as f64,
            100.0 * nested as f64 / nested_all.max(1) as f64
        ),
        _ => String::new(),
    }
}

/// Each suggested optimization's validated accuracy table: how its model did on held-out
/// groups of configurations, against the majority rule.
pub fn validation_tables(list: &[Suggestion]) -> String {
    let mut t = TextTable::new([
        "optimization",
        "PP",
        "PN",
        "NP",
        "NN",
        "accuracy %",
        "majority %",
    ]);
    for s in list {
        let Some([pp, pn, np, nn]) = s.validation_table else {
            continue;
        };
        t.push([
            match s.step {
                Some(_) if s.follows_rule => format!(
                    "{} (step model, programs held out; the majority rule answers)",
                    s.optimization
                ),
                Some(_) => format!("{} (step model, programs held out)", s.optimization),
                None if s.follows_rule => format!("{} (the majority rule answers)", s.optimization),
                None => s.optimization.clone(),
            },
            pp.to_string(),
            pn.to_string(),
            np.to_string(),
            nn.to_string(),
            s.validated_accuracy
                .map(|a| format!("{:.1}", 100.0 * a))
                .unwrap_or("-".into()),
            s.majority_accuracy
                .map(|a| format!("{:.1}", 100.0 * a))
                .unwrap_or("-".into()),
        ]);
    }
    format!(
        "\nHow each model did on held-out groups of configurations (first letter: predicted, \
         second: measured; P = faster):\n{}",
        t.render()
    )
}

/// The reliability of the advisor's confidence: of held-out suggestions given about a
/// confidence, the share whose direction was right.
pub fn reliability_table(advisor: &Advisor) -> TextTable {
    reliability_rows(&advisor.reliability)
}

/// A reliability table's rows as text.
fn reliability_rows(rows: &[crate::recommend::calibration::ReliabilityRow]) -> TextTable {
    let mut r = TextTable::new([
        "confidence",
        "suggestions",
        "mean confidence",
        "share right",
    ]);
    for row in rows {
        r.push([
            format!("{:.1}-{:.1}", row.low, row.high),
            row.suggestions.to_string(),
            format!("{:.2}", row.mean_confidence),
            format!("{:.2}", row.share_right),
        ]);
    }
    r
}

/// The suggestions for one kernel's launches alone.
pub fn kernel_suggestions(kernel: &str, error: Option<&str>, list: &[Suggestion]) -> String {
    let mut text = format!("\nKernel {kernel}:\n");
    match error {
        Some(e) => text.push_str(&format!("  no suggestions: {e}\n")),
        None => {
            let mut t = TextTable::new(["optimization", "verdict", "predicted", "confidence"]);
            for x in list {
                t.push([
                    x.optimization.clone(),
                    x.verdict.to_string(),
                    format!("{}x", fmt_sig(x.predicted_speedup, 3)),
                    format!("{} {:.2}", x.confidence_label, x.confidence),
                ]);
            }
            text.push_str(&t.render());
        }
    }
    text
}
