//! The suggestion report of `advise suggest/profile --report DIR`: `report.md` and one
//! self-contained `index.html` (styles and charts inline, nothing loaded from outside) for a
//! programmer who is not a GPU expert. At the top the answer; then one card per suggestion
//! with the predicted speedup and its range, the confidence, the evidence (each deciding
//! counter drawn against the training data's range), how to apply it and its risks; then the
//! kernels profiled and the advisor's provenance and validated accuracy.

use std::path::Path;

use super::document::{Block, Document, Inline, Text};
use super::table::{fmt_sig, TextTable};
use crate::error::{Error, Result};
use crate::recommend::bundle::Advisor;
use crate::recommend::catalogue::lookup;
use crate::recommend::suggest::{ProfileSummary, Suggestion};

const STYLE: &str = "body{font-family:sans-serif;max-width:980px;margin:2em auto;padding:0 1em;color:#222;line-height:1.45}\
.answer{font-size:1.25em;background:#f4f7ff;border-left:5px solid #2857b4;padding:0.6em 1em}\
.card{border:1px solid #ccc;border-radius:6px;padding:0.8em 1.2em;margin:1.2em 0}\
.card h2{margin:0.2em 0}.tag{display:inline-block;padding:1px 8px;border-radius:10px;background:#eee;margin-right:6px}\
.recommend{background:#d8f0d8}.warn{background:#fbe3c8}pre{background:#f6f6f6;padding:0.6em;overflow-x:auto}\
table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:2px 8px}";

/// The answer where every optimization the advisor knows was left out (for want of counters,
/// or by a check), so that nothing was judged.
pub const NO_SUGGESTION: &str =
    "No suggestion: none of the optimizations this advisor knows could be judged for this profile";

/// The headline where something was judged and nothing is predicted to help: how many were
/// judged (`list`), how many of those verdicts are uncertain, and how many more the profile's
/// counters did not allow (`where_listed`: where the report names them).
pub fn nothing_helps(list: &[Suggestion], not_judged: usize, where_listed: &str) -> String {
    let judged = list.len();
    let uncertain = list
        .iter()
        .filter(|s| s.verdict == crate::recommend::suggest::UNCERTAIN)
        .count();
    let unsure = match uncertain {
        0 => String::new(),
        n if n == judged && n > 1 => format!(", and all {n} verdicts are uncertain"),
        n if n == judged => ", and its verdict is uncertain".to_string(),
        1 => ", and 1 of the verdicts is uncertain".to_string(),
        n => format!(", and {n} of the verdicts are uncertain"),
    };
    let more = if not_judged > 0 {
        format!(
            " ({not_judged} more could not be judged: the profile lacks their counters; \
             {where_listed})"
        )
    } else {
        String::new()
    };
    format!(
        "Nothing is predicted to help: none of the {judged} optimizations this profile lets \
         the advisor judge is expected to speed this code up{unsure}{more}."
    )
}

/// The one-line answer at the top.
pub fn answer(list: &[Suggestion], summary: &ProfileSummary) -> String {
    match crate::recommend::suggest::headline(list) {
        // Confidence is the calibrated chance that the direction is right: below 0.6, or off
        // the training data, it is a guess.
        Some(s) if s.confidence >= 0.6 && !s.extrapolation => format!(
            "Try first: {} - predicted {}x faster, confidence {} ({:.2}).",
            s.optimization,
            fmt_sig(s.predicted_speedup, 3),
            s.confidence_label,
            s.confidence
        ),
        Some(s) => format!(
            "Best guess: {} (predicted {}x), but confidence is {} ({:.2}){}: measure before relying on it.",
            s.optimization,
            fmt_sig(s.predicted_speedup, 3),
            s.confidence_label,
            s.confidence,
            if s.extrapolation { " and the profile lies outside the training data" } else { "" }
        ),
        None if list.is_empty() => {
            format!("{NO_SUGGESTION} (what was left out, and why, is under What was profiled).")
        }
        None => nothing_helps(
            list,
            summary.left_out.len(),
            "under What was profiled",
        ),
    }
}

/// What each verdict means, for a reader who is not a GPU expert (recommend::suggest decides
/// them: `NO_EFFECT_BAND`, `EVEN_ODDS`, `validation::beats_coin_toss`,
/// `profile_checks::unseen_problem`).
const VERDICTS: &str = "How to read the verdicts. \"recommend\" predicts a speedup, \
     \"not recommended\" a slowdown, and \"no clear effect\" a change of under 2% either way. \
     Where the answer is the typical (median) change of the training cases and that is under \
     2%, but a quarter or more of the cases were more than 2% slower, at least three times as \
     many as were more than 2% faster, the verdict is \"not recommended\": at 0.99x it means \
     the change was often clearly slower and seldom clearly faster. \
     Each is given only where the advisor's direction was right more often than a coin toss \
     when it was checked: on programs it had not seen, where more than one program has the \
     optimization, else on held-out settings of the programs it learned from. \
     \"uncertain\" means the advisor cannot tell which way it goes: its confidence is under \
     0.5, its check was no better than a coin toss, or the profile shows a problem (such as \
     shared-memory bank conflicts) that none of its training data had. Confidence is the \
     chance, measured on held-out programs or settings, that the predicted direction is right: \
     low under 0.6, medium from 0.6, high from 0.8. Under 0.5 the direction is more likely \
     wrong than right: take the prediction as a coin toss. The list is sorted by verdict \
     (\"recommend\" first), then predictions inside the training data before extrapolations, \
     then by confidence; not by the size of the predicted gain. Every suggestion is a \
     prediction: measure before and after.";

/// The report as a document.
pub fn document(
    list: &[Suggestion],
    summary: &ProfileSummary,
    advisor: &Advisor,
    model: &Path,
) -> Result<Document> {
    let mut d = Document::new("advise: suggestions for your program", STYLE);
    d.push(Block::Lead(Text(vec![Inline::Plain(answer(
        list, summary,
    ))])));
    if !list.is_empty() {
        d.push(Block::Paragraph(VERDICTS.into()));
    }
    for s in list {
        let entry = lookup(&s.optimization)?;
        d.push(super::suggestion_card::card(s, entry.as_ref()));
    }
    d.push(Block::Heading(2, "What was profiled".into()));
    let left_out = if summary.left_out.is_empty() {
        String::new()
    } else {
        format!(
            " Not advised on, because the profile has under half the counters their models \
             learned from: {}.",
            summary.left_out.join(", ")
        )
    };
    let left_out = left_out
        + &summary
            .not_suggested
            .iter()
            .map(|n| format!(" Not suggested: {} {}.", n.optimization, n.reason))
            .collect::<String>();
    let levels = summary
        .levels_text()
        .map(|l| format!(" Where the code stands: {l}; the step models predict one doubling."))
        .unwrap_or_default();
    let simulated = if summary.simulated {
        format!(" {}", super::advice_text::SIMULATED_PROFILE)
    } else {
        String::new()
    };
    let host = summary
        .host_link_text(advisor)
        .map(|h| format!(" {h}."))
        .unwrap_or_default();
    // Kernel names as code: a demangled C++ name's `*` and `_` are not Markdown's emphasis.
    let mut kernels = vec![Inline::Plain("Kernels: ".into())];
    for (i, k) in summary.kernels.iter().enumerate() {
        if i > 0 {
            kernels.push(Inline::Plain(", ".into()));
        }
        kernels.push(Inline::Code(k.clone()));
    }
    kernels.push(Inline::Plain(format!(
        ". {} of the advisor's {} counters were present.{levels}{host}{left_out}{simulated}",
        summary.features_present, summary.features_expected
    )));
    d.push(Block::Paragraph(Text(kernels)));
    d.push(Block::Heading(2, "The advisor".into()));
    d.push(Block::Paragraph(Text(vec![Inline::Plain(format!(
        "{} ({}), trained on {}. Accuracy per optimization on held-out groups of configurations \
         (no configuration's replicate or neighbouring step in the training data), beside the \
         majority rule; PP/PN/NP/NN count held-out cases by predicted and measured direction \
         (P = faster). The last column holds each program out in turn, where two or more \
         programs have the optimization: the model's accuracy on the program it had not seen, \
         and the majority rule's (the rule answers where the model was not significantly \
         better there):",
        model.display(),
        advisor.method,
        advisor.datasets.join(", ")
    ))])));
    let mut t = TextTable::new([
        "optimization",
        "validated accuracy",
        "majority rule",
        "p (McNemar)",
        "PP",
        "PN",
        "NP",
        "NN",
        "unseen programs: model / rule",
    ]);
    for m in &advisor.optimizations {
        if let Some(v) = &m.validation {
            t.push([
                m.label(),
                format!(
                    "{:.1}% [{:.1}, {:.1}]",
                    100.0 * v.accuracy,
                    100.0 * v.accuracy_low,
                    100.0 * v.accuracy_high
                ),
                format!("{:.1}%", 100.0 * v.majority_accuracy),
                crate::number_format::fmt_p(v.p_value),
                v.pp.to_string(),
                v.pn.to_string(),
                v.np.to_string(),
                v.nn.to_string(),
                m.across_programs.as_ref().map_or("-".into(), |a| {
                    format!(
                        "{:.1}% / {:.1}%",
                        100.0 * a.accuracy,
                        100.0 * a.majority_accuracy
                    )
                }),
            ]);
        }
    }
    d.push(Block::Table(t));
    if !advisor.reliability.is_empty() {
        d.push(Block::Paragraph(
            "What a confidence means: of held-out suggestions given about this confidence, the \
             share whose direction was right."
                .into(),
        ));
        d.push(Block::Table(super::advice_text::reliability_table(advisor)));
    }
    d.push(Block::Heading(2, "Training data provenance".into()));
    d.push(Block::Code {
        lang: String::new(),
        text: advisor.provenance.trim().to_string(),
    });
    Ok(d)
}

/// Writes `DIR/report.md` and `DIR/index.html`.
pub fn write(
    dir: &Path,
    list: &[Suggestion],
    summary: &ProfileSummary,
    advisor: &Advisor,
    model: &Path,
) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let d = document(list, summary, advisor, model)?;
    let md = dir.join("report.md");
    std::fs::write(&md, d.to_markdown()).map_err(|e| Error::io(&md, e))?;
    let html = dir.join("index.html");
    std::fs::write(&html, d.to_html()).map_err(|e| Error::io(&html, e))
}
