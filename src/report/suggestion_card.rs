//! One suggestion's card in the suggestion report (`super::suggestions`): the predicted
//! speedup and where it comes from, the confidence, the reason a clause a line, the deciding
//! counters drawn against the training data's range, how to apply it and its risks.

use std::fmt::Write as _;

use super::document::{Block, Inline, Text, Tone};
use super::table::fmt_sig;
use crate::dataset::portable::PORTABLE;
use crate::recommend::catalogue::Entry;
use crate::recommend::suggest::{CounterEvidence, Suggestion};

/// An inline SVG bar: the training range of a counter with the user's value marked.
fn range_svg(e: &CounterEvidence) -> String {
    let (lo, hi) = (e.train_min, e.train_max);
    if !(lo.is_finite() && hi.is_finite()) {
        return String::new();
    }
    let span = (hi - lo).abs().max(f64::MIN_POSITIVE);
    // A counter the profile lacks is marked, hollow, where the model took its training mean.
    let v = e.compared_value();
    if !v.is_finite() {
        return String::new();
    }
    let view_lo = lo.min(v) - 0.05 * span;
    let view_hi = hi.max(v) + 0.05 * span;
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
    let fill = if e.value.is_finite() {
        "fill=\"#c0392b\""
    } else {
        "fill=\"none\" stroke=\"#c0392b\" stroke-width=\"2\""
    };
    let _ = write!(
        svg,
        "<circle cx=\"{:.1}\" cy=\"15\" r=\"5\" {fill}/></svg>",
        x(v)
    );
    svg
}

/// A deciding counter's line: its value, what it measures where it is a portable feature (the
/// report is for readers who do not know the counter names), and the training data's range.
fn evidence_line(e: &CounterEvidence) -> String {
    let meaning = PORTABLE
        .iter()
        .find(|f| f.name == e.counter)
        .map(|f| format!("{}; ", f.meaning))
        .unwrap_or_default();
    format!(
        "{} = {} ({meaning}training data {}..{}{})",
        e.counter,
        e.value_text(),
        fmt_sig(e.train_min, 3),
        fmt_sig(e.train_max, 3),
        e.threshold
            .map(|t| format!("; the model splits at {}", fmt_sig(t, 3)))
            .unwrap_or_default()
    )
}

/// Where the predicted speedup comes from, and the other opinion beside it.
fn where_from(s: &Suggestion) -> String {
    let other = fmt_sig(s.second_opinion, 3);
    match (&s.step, s.follows_rule) {
        (_, true) => format!(
            "the majority rule's answer: the median of its training pairs; the model predicts \
             {other}x"
        ),
        (Some(_), false) if s.second_opinion != s.predicted_speedup => {
            format!("the step model's answer; the counter model predicts {other}x")
        }
        (Some(_), false) => "the step model's answer".to_string(),
        (None, false) => format!("the model's answer; a second model predicts {other}x"),
    }
}

/// One suggestion's card: the prediction, the evidence, how to apply it and its risks.
pub(super) fn card(s: &Suggestion, e: Option<&Entry>) -> Block {
    let mut tags = vec![
        (
            s.verdict.to_string(),
            if s.verdict == "recommend" {
                Tone::Good
            } else {
                Tone::Neutral
            },
        ),
        (
            format!("confidence {} ({:.2})", s.confidence_label, s.confidence),
            Tone::Neutral,
        ),
    ];
    if s.extrapolation {
        tags.push(("extrapolation".into(), Tone::Warning));
    }
    if s.other_host_link {
        tags.push(("learned on another host link".into(), Tone::Warning));
    }
    let mut blocks = Vec::new();
    if let Some(e) = e {
        blocks.push(Block::Paragraph(e.summary.as_str().into()));
    }
    blocks.push(Block::List(vec![
        format!(
            "Predicted speedup: {}x ({})",
            fmt_sig(s.predicted_speedup, 3),
            where_from(s)
        )
        .into(),
        format!(
            "Confidence: {} ({:.2}){}{}",
            s.confidence_label,
            s.confidence,
            if s.extrapolation {
                "; extrapolation: the profile lies outside the training data"
            } else {
                ""
            },
            if s.other_host_link {
                "; measured on another host link than this GPU's, so it says little here"
            } else {
                ""
            }
        )
        .into(),
    ]));
    // The reason one clause a line: a terminal's one sentence runs to 200 words.
    blocks.push(Block::Paragraph("Why:".into()));
    blocks.push(Block::List(
        super::reason_clauses::clauses(&s.reason)
            .into_iter()
            .map(|c| Text(vec![Inline::Plain(c)]))
            .collect(),
    ));
    if !s.deciding_counters.is_empty() {
        blocks.push(Block::Gauges {
            caption: "Evidence".into(),
            items: s
                .deciding_counters
                .iter()
                .map(|c| (evidence_line(c), range_svg(c)))
                .collect(),
        });
    }
    blocks.push(Block::Heading(3, "How to apply".into()));
    match e {
        Some(e) => {
            blocks.push(Block::Paragraph(e.how.as_str().into()));
            if !e.nvcc_flags.is_empty() {
                blocks.push(Block::Paragraph(
                    Text::from("Compiler flags: ")
                        .then(Text(vec![Inline::Code(e.nvcc_flags.clone())])),
                ));
            }
            if !e.before.is_empty() {
                for (label, code) in [("Before:", &e.before), ("After:", &e.after)] {
                    blocks.push(Block::Paragraph(label.into()));
                    blocks.push(Block::Code {
                        lang: "cuda".into(),
                        text: code.clone(),
                    });
                }
            }
            blocks.push(Block::Heading(3, "Risks".into()));
            blocks.push(Block::List(
                e.risks
                    .iter()
                    .map(|r| Text(vec![Inline::Plain(r.clone())]))
                    .collect(),
            ));
            blocks.push(Block::Paragraph(Text(vec![Inline::Plain(format!(
                "Read more: {}",
                e.read_more.join("; ")
            ))])));
        }
        None => blocks.push(Block::Paragraph(
            "This is a parameter of the tuning space the advisor was trained on; the catalogue \
             has no general entry for it."
                .into(),
        )),
    }
    Block::Card {
        title: s.optimization.clone(),
        tags,
        blocks,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn evidence(counter: &str, value: f64, taken_as: Option<f64>) -> CounterEvidence {
        CounterEvidence {
            counter: counter.into(),
            value,
            train_min: 0.2,
            train_max: 0.9,
            threshold: Some(0.5),
            taken_as,
        }
    }

    #[test]
    fn evidence_says_what_a_portable_feature_measures() {
        let line = evidence_line(&evidence("portable__l1_hit_rate", 0.7, None));
        assert_eq!(
            line,
            "portable__l1_hit_rate = 0.700 (L1 hit rate (0-1); training data 0.200..0.900; \
             the model splits at 0.500)"
        );
        // A raw counter has no entry to explain it.
        let raw = evidence_line(&evidence("lts__t_sectors.sum", 0.7, None));
        assert!(
            raw.starts_with("lts__t_sectors.sum = 0.700 (training data"),
            "{raw}"
        );
    }

    #[test]
    fn a_missing_value_is_drawn_hollow_at_the_value_the_model_used() {
        let svg = range_svg(&evidence("portable__occupancy", f64::NAN, Some(0.3)));
        assert!(svg.contains("fill=\"none\""), "{svg}");
        assert!(!svg.contains("NaN"), "{svg}");
        assert!(range_svg(&evidence("portable__occupancy", f64::NAN, None)).is_empty());
        assert!(range_svg(&evidence("portable__occupancy", 0.3, None)).contains("#c0392b\"/>"));
    }
}
