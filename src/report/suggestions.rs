//! The suggestion report of `advise suggest/profile --report DIR`: `report.md` and one
//! self-contained `index.html` (styles and charts inline, nothing loaded from outside) for a
//! programmer who is not a GPU expert. At the top the answer; then one card per suggestion
//! with the predicted speedup and its range, the confidence, the evidence (each deciding
//! counter drawn against the training data's range), how to apply it and its risks; then the
//! kernels profiled and the advisor's provenance and validated accuracy.

use std::fmt::Write as _;
use std::path::Path;

use super::table::{fmt_sig, html_escape};
use crate::error::{Error, Result};
use crate::recommend::bundle::Advisor;
use crate::recommend::catalogue::{lookup, Entry};
use crate::recommend::suggest::{CounterEvidence, ProfileSummary, Suggestion};

const STYLE: &str = "body{font-family:sans-serif;max-width:980px;margin:2em auto;padding:0 1em;color:#222;line-height:1.45}\
.answer{font-size:1.25em;background:#f4f7ff;border-left:5px solid #2857b4;padding:0.6em 1em}\
.card{border:1px solid #ccc;border-radius:6px;padding:0.8em 1.2em;margin:1.2em 0}\
.card h2{margin:0.2em 0}.tag{display:inline-block;padding:1px 8px;border-radius:10px;background:#eee;margin-right:6px}\
.recommend{background:#d8f0d8}.warn{background:#fbe3c8}pre{background:#f6f6f6;padding:0.6em;overflow-x:auto}\
table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:2px 8px}";

/// The one-line answer at the top.
pub fn answer(list: &[Suggestion]) -> String {
    match list.iter().find(|s| s.verdict == "recommend") {
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
        None => "Nothing is predicted to help: none of the optimizations this advisor knows is expected to speed this code up.".into(),
    }
}

/// An inline SVG bar: the training range of a counter with the user's value marked.
fn range_svg(e: &CounterEvidence) -> String {
    let (lo, hi) = (e.train_min, e.train_max);
    if !(lo.is_finite() && hi.is_finite()) {
        return String::new();
    }
    let span = (hi - lo).abs().max(f64::MIN_POSITIVE);
    let view_lo = lo.min(e.value) - 0.05 * span;
    let view_hi = hi.max(e.value) + 0.05 * span;
    let x = |v: f64| 10.0 + 380.0 * (v - view_lo) / (view_hi - view_lo).max(f64::MIN_POSITIVE);
    let mut svg = format!(
        "<svg width=\"400\" height=\"30\" viewBox=\"0 0 400 30\" xmlns=\"http://www.w3.org/2000/svg\">\
         <rect x=\"{:.1}\" y=\"10\" width=\"{:.1}\" height=\"10\" fill=\"#c9d6f0\"/>",
        x(lo),
        (x(hi) - x(lo)).max(1.0)
    );
    if let Some(t) = e.threshold {
        let _ = write!(svg, "<line x1=\"{0:.1}\" x2=\"{0:.1}\" y1=\"5\" y2=\"25\" stroke=\"#888\" stroke-dasharray=\"3,2\"/>", x(t));
    }
    let _ = write!(
        svg,
        "<circle cx=\"{:.1}\" cy=\"15\" r=\"5\" fill=\"#c0392b\"/></svg>",
        x(e.value)
    );
    svg
}

fn evidence_line(e: &CounterEvidence) -> String {
    format!(
        "{} = {} (training data {}..{}{})",
        e.counter,
        fmt_sig(e.value, 3),
        fmt_sig(e.train_min, 3),
        fmt_sig(e.train_max, 3),
        e.threshold
            .map(|t| format!("; the model splits at {}", fmt_sig(t, 3)))
            .unwrap_or_default()
    )
}

fn interval(s: &Suggestion) -> (f64, f64) {
    (
        s.predicted_speedup.min(s.second_opinion),
        s.predicted_speedup.max(s.second_opinion),
    )
}

fn card_md(s: &Suggestion, e: Option<&Entry>, md: &mut String) {
    let (lo, hi) = interval(s);
    let _ = writeln!(md, "## {} - {}\n", s.optimization, s.verdict);
    if let Some(e) = e {
        let _ = writeln!(md, "{}\n", e.summary);
    }
    let _ = writeln!(
        md,
        "- Predicted speedup: {}x (the two models span {}x to {}x)\n- Confidence: {} ({:.2}){}",
        fmt_sig(s.predicted_speedup, 3),
        fmt_sig(lo, 3),
        fmt_sig(hi, 3),
        s.confidence_label,
        s.confidence,
        if s.extrapolation {
            "; extrapolation: the profile lies outside the training data"
        } else {
            ""
        }
    );
    let _ = writeln!(md, "- Why: {}\n", s.reason);
    if !s.deciding_counters.is_empty() {
        md.push_str("Evidence:\n\n");
        for c in &s.deciding_counters {
            let _ = writeln!(md, "- {}", evidence_line(c));
        }
        md.push('\n');
    }
    match e {
        Some(e) => {
            let _ = writeln!(md, "### How to apply\n\n{}\n", e.how);
            if !e.nvcc_flags.is_empty() {
                let _ = writeln!(md, "Compiler flags: `{}`\n", e.nvcc_flags);
            }
            if !e.before.is_empty() {
                let _ = writeln!(md, "Before:\n\n```cuda\n{}```\n\nAfter:\n\n```cuda\n{}```\n", e.before, e.after);
            }
            let _ = writeln!(md, "### Risks\n");
            for r in &e.risks {
                let _ = writeln!(md, "- {r}");
            }
            let _ = writeln!(md, "\nRead more: {}\n", e.read_more.join("; "));
        }
        None => md.push_str("### How to apply\n\nThis is a parameter of the tuning space the advisor was trained on; the catalogue has no general entry for it.\n\n"),
    }
}

/// Escapes text for HTML and turns Markdown `code` spans into `<code>`.
fn inline_html(text: &str) -> String {
    html_escape(text)
        .split('`')
        .enumerate()
        .map(|(i, part)| {
            if i % 2 == 1 {
                format!("<code>{part}</code>")
            } else {
                part.to_string()
            }
        })
        .collect()
}

fn card_html(s: &Suggestion, e: Option<&Entry>, html: &mut String) {
    let (lo, hi) = interval(s);
    let class = if s.verdict == "recommend" {
        "tag recommend"
    } else {
        "tag"
    };
    let _ = write!(
        html,
        "<div class=\"card\"><h2>{}</h2><span class=\"{class}\">{}</span>",
        html_escape(&s.optimization),
        s.verdict
    );
    let _ = write!(
        html,
        "<span class=\"tag\">confidence {} ({:.2})</span>",
        s.confidence_label, s.confidence
    );
    if s.extrapolation {
        html.push_str("<span class=\"tag warn\">extrapolation</span>");
    }
    if let Some(e) = e {
        let _ = write!(html, "<p>{}</p>", inline_html(&e.summary));
    }
    let _ = write!(
        html,
        "<p><b>Predicted speedup {}x</b> (the two models span {}x to {}x).</p><p>Why: {}</p>",
        fmt_sig(s.predicted_speedup, 3),
        fmt_sig(lo, 3),
        fmt_sig(hi, 3),
        html_escape(&s.reason)
    );
    if !s.deciding_counters.is_empty() {
        html.push_str("<h3>Evidence</h3><table><tr><th>counter against the training range (blue; red dot: this program; dashes: the model's split)</th></tr>");
        for c in &s.deciding_counters {
            let _ = write!(
                html,
                "<tr><td>{}<br>{}</td></tr>",
                html_escape(&evidence_line(c)),
                range_svg(c)
            );
        }
        html.push_str("</table>");
    }
    html.push_str("<h3>How to apply</h3>");
    match e {
        Some(e) => {
            let _ = write!(html, "<p>{}</p>", inline_html(&e.how));
            if !e.nvcc_flags.is_empty() {
                let _ = write!(html, "<p>Compiler flags: <code>{}</code></p>", html_escape(&e.nvcc_flags));
            }
            if !e.before.is_empty() {
                let _ = write!(html, "<p>Before:</p><pre>{}</pre><p>After:</p><pre>{}</pre>", html_escape(&e.before), html_escape(&e.after));
            }
            html.push_str("<h3>Risks</h3><ul>");
            for r in &e.risks {
                let _ = write!(html, "<li>{}</li>", html_escape(r));
            }
            let _ = write!(html, "</ul><p>Read more: {}</p>", html_escape(&e.read_more.join("; ")));
        }
        None => html.push_str("<p>This is a parameter of the tuning space the advisor was trained on; the catalogue has no general entry for it.</p>"),
    }
    html.push_str("</div>\n");
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
    let title = "advise: suggestions for your program";
    let mut md = format!("# {title}\n\n**{}**\n\n", answer(list));
    let mut html = format!(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{title}</title><style>{STYLE}</style></head><body>\n<h1>{title}</h1>\n<p class=\"answer\">{}</p>\n",
        html_escape(&answer(list))
    );
    for s in list {
        let entry = lookup(&s.optimization)?;
        card_md(s, entry.as_ref(), &mut md);
        card_html(s, entry.as_ref(), &mut html);
    }
    let kernels = summary.kernels.join(", ");
    let _ = writeln!(md, "## What was profiled\n\nKernels: {kernels}. {} of the advisor's {} counters were present.\n", summary.features_present, summary.features_expected);
    let _ = writeln!(html, "<h2>What was profiled</h2><p>Kernels: {}. {} of the advisor's {} counters were present.</p>", html_escape(&kernels), summary.features_present, summary.features_expected);
    let _ = writeln!(md, "## The advisor\n\n{} ({}), trained on {}. Accuracy per optimization on held-out groups of configurations (no configuration's replicate or neighbouring step in the training data), beside the majority rule; PP/PN/NP/NN count held-out cases by predicted and measured direction (P = faster):\n", model.display(), advisor.method, advisor.datasets.join(", "));
    let _ = writeln!(html, "<h2>The advisor</h2><p>{} ({}), trained on {}. Accuracy per optimization on held-out groups of configurations, beside the majority rule; PP/PN/NP/NN count held-out cases by predicted and measured direction (P = faster).</p><table><tr><th>optimization</th><th>validated accuracy</th><th>majority rule</th><th>p (McNemar)</th><th>PP</th><th>PN</th><th>NP</th><th>NN</th></tr>", html_escape(&model.display().to_string()), advisor.method, html_escape(&advisor.datasets.join(", ")));
    md.push_str(
        "| optimization | validated accuracy | majority rule | p (McNemar) | PP | PN | NP | NN |\n|---|---|---|---|---|---|---|---|\n",
    );
    for m in &advisor.optimizations {
        if let Some(v) = &m.validation {
            let acc = format!(
                "{:.1}% [{:.1}, {:.1}]",
                100.0 * v.accuracy,
                100.0 * v.accuracy_low,
                100.0 * v.accuracy_high
            );
            let _ = writeln!(
                md,
                "| {} | {acc} | {:.1}% | {:.3} | {} | {} | {} | {} |",
                m.name,
                100.0 * v.majority_accuracy,
                v.p_value,
                v.pp,
                v.pn,
                v.np,
                v.nn
            );
            let _ = writeln!(
                html,
                "<tr><td>{}</td><td>{acc}</td><td>{:.1}%</td><td>{:.3}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                html_escape(&m.name),
                100.0 * v.majority_accuracy,
                v.p_value,
                v.pp,
                v.pn,
                v.np,
                v.nn
            );
        }
    }
    html.push_str("</table>\n");
    if !advisor.reliability.is_empty() {
        md.push_str("\nWhat a confidence means: of held-out suggestions given about this confidence, the share whose direction was right.\n\n| confidence | suggestions | mean confidence | share right |\n|---|---|---|---|\n");
        html.push_str("<p>What a confidence means: of held-out suggestions given about this confidence, the share whose direction was right.</p><table><tr><th>confidence</th><th>suggestions</th><th>mean confidence</th><th>share right</th></tr>");
        for r in &advisor.reliability {
            let row = [
                format!("{:.1}-{:.1}", r.low, r.high),
                r.suggestions.to_string(),
                format!("{:.2}", r.mean_confidence),
                format!("{:.2}", r.share_right),
            ];
            let _ = writeln!(md, "| {} |", row.join(" | "));
            let _ = write!(html, "<tr><td>{}</td></tr>", row.join("</td><td>"));
        }
        html.push_str("</table>\n");
    }
    let _ = writeln!(
        md,
        "\nTraining data provenance:\n\n```\n{}\n```",
        advisor.provenance.trim()
    );
    let _ = writeln!(
        html,
        "<h2>Training data provenance</h2><pre>{}</pre></body></html>",
        html_escape(advisor.provenance.trim())
    );
    std::fs::write(dir.join("report.md"), md).map_err(|e| Error::io(dir.join("report.md"), e))?;
    std::fs::write(dir.join("index.html"), html).map_err(|e| Error::io(dir.join("index.html"), e))
}
