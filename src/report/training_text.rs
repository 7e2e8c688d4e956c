//! `advise train`'s summary as terminal text: per optimization what it learned from and how
//! it validated, the step models, what the suggestions are worth across programs (with the
//! choices made without each held-out program), and the reliability of the confidence.

use crate::recommend::bundle::Advisor;
use crate::recommend::bundle::Validation;
use crate::report::table::TextTable;

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
            m.label(),
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
            cell(&|v| crate::number_format::fmt_p(v.p_value)),
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
        "\nhelps in %: the share of samples the optimization made faster, which is what \
         always recommending it scores. grouped cv accuracy %: the model's share of held-out \
         directions right, with a 95% interval. balanced %: the mean of its accuracies on \
         samples made faster and on samples made slower. majority %: the majority rule (the \
         direction most training samples took). p: McNemar's exact test of the model against \
         the majority rule.\n\
         PP/PN/NP/NN: held-out samples by predicted and actual direction (P = faster with \
         the optimization). Folds keep each program, input and configuration family together.\n\
         across programs: leave one program out where two or more programs have the \
         optimization (each predicted by models of the others), beside the others' majority \
         rule; a new program is in that position.\n\
         answers: what a suggestion follows. The model only where it was significantly \
         better than the majority rule (McNemar p < 0.05) across programs where that was \
         measured, else in the grouped validation; elsewhere the rule, whose accuracy then \
         caps the confidence.\n",
    );
    if advisor.optimizations.iter().any(|m| m.host_link.is_some()) {
        text.push_str(
            "(PCIe host), (coherent host): an optimization whose effect depends on how the GPU \
             is attached to its host (unified memory) is learned once per host link its data \
             has; a profile gets the answer of its own link, which Nsight Compute's device \
             attributes show (PCIe where they do not).\n",
        );
    }
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
        for m in &advisor.optimizations {
            let Some(s) = &m.step else { continue };
            if let Some(n) = &s.across_nested {
                let kind = if s.across_programs_same_occupancy.is_some() {
                    " by the kind of step (steps of unknown occupancy not counted)"
                } else {
                    ""
                };
                text.push_str(&format!(
                    "{} step model, left one program out with the choice between the model and \
                     the majority rule and each verdict made on the other programs{kind}: right \
                     {:.1}% of {} held-out steps.{}\n",
                    m.label(),
                    100.0 * n.right as f64 / n.all.max(1) as f64,
                    n.all,
                    acting_on_verdicts(n)
                ));
            }
        }
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

/// Across programs, pooled over the optimizations validated so: the models, what the
/// suggestions follow (the model or the majority rule), and the same with the choice made
/// without each held-out program. Empty where nothing was validated across programs.
fn across_summary(advisor: &Advisor) -> String {
    let (mut follow, mut nested, mut all, mut nested_all) = (0.0, 0usize, 0usize, 0usize);
    // The nested held-out directions with the verdicts they would get.
    let mut verdicts = crate::recommend::NestedChoice::default();
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
        if let Some(v) = &m.across_nested_verdicts {
            verdicts.add(v);
        }
    }
    // Acting only on the verdicts: the directions a suggestion would call "recommend" or "not
    // recommended", against always recommending on the same directions.
    let acting = acting_on_verdicts(&verdicts);
    match advisor.across_programs_accuracy() {
        Some(models) if all > 0 => format!(
            "across programs, pooled over the optimizations validated so: the models were \
             right {:.1}% of the time, what the suggestions follow {:.1}% (the choice between \
             model and rule made on those same held-out programs: optimistic), {:.1}% with the \
             choice made without each held-out program.{acting}\n",
            100.0 * models,
            100.0 * follow / all as f64,
            100.0 * nested as f64 / nested_all.max(1) as f64
        ),
        _ => String::new(),
    }
}

/// A user who acts only on the verdicts ("recommend", "not recommended") of held-out
/// directions whose verdicts were decided without their program (leave one program out,
/// recommend::nested): how often they were right, against always recommending on
/// the same directions, and how often the "uncertain" rest was. Empty where none had one.
fn acting_on_verdicts(n: &crate::recommend::NestedChoice) -> String {
    if n.decisive_all == 0 {
        return String::new();
    }
    let rest = n.all.saturating_sub(n.decisive_all);
    format!(
        " With a verdict (what answers beat a coin toss on the other programs) {} of those {} \
         held-out directions, right {:.1}% of the time against always recommending's {:.1}% on \
         the same directions (McNemar p {}); the {} without one (\"uncertain\") {:.1}%.",
        n.decisive_all,
        n.all,
        100.0 * n.decisive_right as f64 / n.decisive_all as f64,
        100.0 * n.decisive_faster as f64 / n.decisive_all as f64,
        crate::number_format::fmt_p(crate::experiment::stats::mcnemar_exact(
            n.decisive_only_answer,
            n.decisive_only_always
        )),
        rest,
        100.0 * n.right.saturating_sub(n.decisive_right) as f64 / rest.max(1) as f64
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
