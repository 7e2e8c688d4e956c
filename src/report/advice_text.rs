//! The advisor's answers as terminal text: the ranked suggestions with their reasons and
//! validation tables (`advise suggest`, `advise profile`), per-kernel suggestions, and the
//! training summary of `advise train`.

use std::path::Path;

pub use super::training_text::{reliability_table, training};
use crate::number_format::fmt_sig;
use crate::recommend::bundle::Advisor;
use crate::recommend::catalogue;
use crate::recommend::suggest::{ProfileSummary, Suggestion};
use crate::report::table::TextTable;

/// Said wherever a suggestion rests on a simulator's log instead of a measured profile.
pub const SIMULATED_PROFILE: &str = "The profile is a GPGPU-Sim log: its counters are SIMULATED, \
     not measured on a GPU.";

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
            if s.extrapolation {
                ", extrapolated"
            } else {
                ""
            }
        )),
        None if list.is_empty() => text.push_str(&format!(
            "{} (what was left out, and why, is below).\n",
            super::suggestions::NO_SUGGESTION
        )),
        None => {
            text.push_str(&super::suggestions::nothing_helps(
                list,
                summary.left_out.len(),
                "\"Not advised on\" below",
            ));
            text.push_str("\n\n");
        }
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
    if let Some(link) = summary.host_link_text(advisor) {
        text.push_str(&format!("{link}.\n"));
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
                confidence_qualifier(s)
            ),
            what,
        ]);
    }
    text.push_str(&t.render());
    text.push_str(
        "Verdicts: recommend / not recommended / no clear effect (within 2%) where the \
         predicted direction beat a coin toss in validation; uncertain where it did not, the \
         confidence is under 0.5, or the profile shows a problem its training data never had. \
         A median within 2% is not recommended where a quarter or more of the training pairs \
         were more than 2% slower, three times as many as were more than 2% faster.\n\
         Confidence: the share of held-out predictions like this one whose direction was right \
         (low under 0.6, medium from 0.6, high from 0.8; under 0.5 more often wrong than \
         right). Sorted by verdict, then inside the training data before extrapolated, then by \
         confidence, not by the predicted gain.\n",
    );
    if list.iter().any(|s| s.other_host_link) {
        text.push_str(
            "Other host link: the model learned only from GPUs attached to their host another way \
             than this profile's (PCIe or a cache-coherent link), so its confidence was measured \
             there; the verdict is uncertain.\n",
        );
    }
    text.push_str("\nWhy:\n");
    for s in list {
        text.push_str(&format!("  {}: {}\n", s.optimization, s.reason));
    }
    text.push_str(&validation_tables(list));
    text
}

/// What the confidence column adds: " (extrapolated)" where the profile lies outside the
/// training data, " (other host link)" where the model learned only on another host link than
/// the profile's, so its confidence was measured there.
fn confidence_qualifier(s: &Suggestion) -> String {
    let marks: Vec<&str> = [
        (s.extrapolation, "extrapolated"),
        (s.other_host_link, "other host link"),
    ]
    .iter()
    .filter_map(|&(holds, mark)| holds.then_some(mark))
    .collect();
    if marks.is_empty() {
        String::new()
    } else {
        format!(" ({})", marks.join(", "))
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
        "unseen programs: model / rule %",
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
            match (
                s.across_programs_model_accuracy,
                s.across_programs_majority_accuracy,
            ) {
                (Some(m), Some(r)) => format!("{:.1} / {:.1}", 100.0 * m, 100.0 * r),
                _ => "-".into(),
            },
        ]);
    }
    format!(
        "\nHow each model did on held-out groups of configurations (first letter: predicted, \
         second: measured; P = faster), beside the majority rule, and on programs it had not \
         seen (leave one program out, where two or more programs have the optimization; the \
         confidence is capped by what answers there):\n{}",
        t.render()
    )
}

/// The suggestions for one kernel's launches alone.
pub fn kernel_suggestions(kernel: &str, error: Option<&str>, list: &[Suggestion]) -> String {
    let mut text = format!("\nKernel {}:\n", crate::error::shown_text(kernel));
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
