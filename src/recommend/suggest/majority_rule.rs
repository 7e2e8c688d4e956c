//! Suggestions of an optimization whose model did not beat the majority rule significantly
//! (`follows_rule`): the rule answers, the model is the second opinion, and the reason says
//! why.

use crate::recommend::bundle::{OptimizationModel, RuleBasis};

/// What the rule learned: the measured training samples where there are any
/// (`OptimizationModel::rule`), else, in an advisor trained before that existed, all of them.
fn basis(m: &OptimizationModel) -> RuleBasis {
    m.rule
        .clone()
        .unwrap_or_else(|| RuleBasis::of(&m.speedups, &[], &[]))
}

/// The rule's predicted speedup: the median of its samples' speedups, which lies on the
/// majority's side of 1.0.
pub(super) fn speedup(m: &OptimizationModel) -> f64 {
    let b = basis(m);
    if b.median_speedup.is_finite() {
        b.median_speedup
    } else {
        m.mean_speedup
    }
}

/// The training pairs the rule learned from, in words: the measured ones where it learned
/// from those alone.
fn pairs(m: &OptimizationModel, b: &RuleBasis) -> String {
    if b.measured_only {
        format!(
            "{} measured training pairs (not the {} simulated ones)",
            b.samples,
            m.samples - b.samples
        )
    } else {
        format!("{} training pairs", b.samples)
    }
}

/// The speedups of the rule's pairs: the measured ones where it learned from those alone
/// (training::sample_id marks the simulated ones).
fn rule_speedups(m: &OptimizationModel, b: &RuleBasis) -> Vec<f64> {
    m.speedups
        .iter()
        .zip(&m.ids)
        .filter(|(y, id)| y.is_finite() && !(b.measured_only && id.contains(", SIMULATED")))
        .map(|(y, _)| *y)
        .collect()
}

/// Speedups `ys` as shares on each side of the verdicts' band (`NO_EFFECT_BAND`): faster by
/// more, within it, slower by more. `None` where there are none.
fn shares(ys: &[f64]) -> Option<[f64; 3]> {
    if ys.is_empty() {
        return None;
    }
    let share = |side: i8| {
        ys.iter()
            .filter(|&&y| super::effect_side(y) == side)
            .count() as f64
            / ys.len() as f64
    };
    Some([share(1), share(0), share(-1)])
}

/// How the rule's pairs split as the verdicts do (`NO_EFFECT_BAND`): a median inside the band
/// can hide a large share that slowed down (unified memory on PCIe hosts: 53% of XPlacer's
/// AWS pairs within 2%, 43% more than 2% slower). `None` where no speedup is known.
fn split(m: &OptimizationModel, b: &RuleBasis) -> Option<String> {
    let [faster, within, slower] = shares(&rule_speedups(m, b))?;
    Some(format!(
        "{:.0}% faster by more than {pct:.0}%, {:.0}% within {pct:.0}%, {:.0}% slower by more than \
         {pct:.0}%",
        100.0 * faster,
        100.0 * within,
        100.0 * slower,
        pct = 100.0 * super::NO_EFFECT_BAND
    ))
}

/// The least share of the rule's pairs that must be slower by more than the band for a
/// median inside the band to be "not recommended" (`often_slower`).
pub const OFTEN_SLOWER_SHARE: f64 = 0.25;

/// How many times the share faster by more than the band the share slower must be
/// (`often_slower`).
pub const OFTEN_SLOWER_RATIO: f64 = 3.0;

/// Where the rule answers with a median inside the band (`NO_EFFECT_BAND`) but its pairs that
/// changed by more mostly got slower: why, in words (`often_slower_of`). `None` otherwise.
pub(super) fn often_slower(m: &OptimizationModel) -> Option<String> {
    let b = basis(m);
    often_slower_of(&rule_speedups(m, &b), speedup(m), b.positive_rate)
}

/// `often_slower` for the rule's pair speedups `ys`, its answer `median` and the share of the
/// pairs that got faster. "No clear effect" reads as "harmless either way", which a median
/// cannot promise: managed memory on XPlacer's PCIe hosts had a median of 0.994x over 514
/// pairs, 43% of them more than 2% slower and 4% faster, one program 70 times slower. Such a
/// median is "not recommended" where a quarter or more of the pairs were slower by more than
/// the band (`OFTEN_SLOWER_SHARE`), three times as many as were faster by more
/// (`OFTEN_SLOWER_RATIO`), the sign test over the pairs that moved says so (two-sided p <
/// 0.05), and most pairs did not get faster, the direction whose accuracy the confidence
/// measures (`RuleBasis::positive_rate`). The other way round, a median inside the band whose
/// pairs that moved mostly got faster, stays "no clear effect": that verdict already says the
/// change is safe to try, and the likeliest outcome is still no change (FTZ: 73% of its pairs
/// within 2%, 25% faster).
fn often_slower_of(ys: &[f64], median: f64, positive_rate: f64) -> Option<String> {
    if super::effect_side(median) != 0 || positive_rate > 0.5 {
        return None;
    }
    let [faster, _, slower] = shares(ys)?;
    let count = |share: f64| (share * ys.len() as f64).round() as usize;
    let p = crate::experiment::stats::mcnemar_exact(count(slower), count(faster));
    let holds = slower >= OFTEN_SLOWER_SHARE && slower >= OFTEN_SLOWER_RATIO * faster && p < 0.05;
    holds.then(|| {
        format!(
            "though the median change is under {pct:.0}%: {:.0}% of the pairs were more than \
             {pct:.0}% slower and {:.0}% more than {pct:.0}% faster (sign test p {})",
            100.0 * slower,
            100.0 * faster,
            crate::number_format::fmt_p(p),
            pct = 100.0 * super::NO_EFFECT_BAND
        )
    })
}

/// The rule's pairs program by program, where they come from two or more: each program's
/// median speedup, and how many of the programs' medians fall on the pooled median's side of
/// the verdicts (`NO_EFFECT_BAND`: faster, within it, slower). The coin-toss test behind a
/// verdict counts pairs, so one program with most of them can carry it; this says whether the
/// programs agree. `None` with fewer than two programs (or an advisor trained before it).
fn by_program(b: &RuleBasis) -> Option<String> {
    if b.by_program.len() < 2 {
        return None;
    }
    let side = super::effect_side;
    let pooled = side(b.median_speedup);
    let agree = b
        .by_program
        .iter()
        .filter(|p| side(p.median_speedup) == pooled)
        .count();
    let each: Vec<String> = b
        .by_program
        .iter()
        .map(|p| {
            format!(
                "{} {}x",
                p.program,
                crate::number_format::fmt_sig(p.median_speedup, 3)
            )
        })
        .collect();
    Some(format!(
        "median by program: {}; {agree} of the {} programs' medians fall on the same side",
        each.join(", "),
        b.by_program.len()
    ))
}

/// Why the rule answers, in words.
pub(super) fn reason(m: &OptimizationModel, model_says: f64) -> String {
    let b = basis(m);
    let which = pairs(m, &b);
    let split = [split(m, &b), by_program(&b)]
        .into_iter()
        .flatten()
        .map(|s| format!("; {s}"))
        .collect::<String>();
    let learned = format!(
        "follows the majority rule: {:.0}% of the {which} got faster (median speedup {}x{split})",
        100.0 * b.positive_rate,
        crate::number_format::fmt_sig(speedup(m), 3),
    );
    let (where_, v) = match (&m.across_programs, &m.validation) {
        (Some(a), _) => ("on programs it had not seen", a),
        (None, Some(v)) => ("in grouped validation", v),
        // Too few groups to hold any out: the model has not earned its place either.
        (None, None) => {
            return format!(
                "{learned}; this optimization's model could not be validated, so the rule \
                 answers; the model predicts {}x here",
                crate::number_format::fmt_sig(model_says, 3)
            )
        }
    };
    // Worse than the rule, level with it, or ahead but not significantly (McNemar p >= 0.05).
    let standing = if v.accuracy < v.majority_accuracy {
        "worse"
    } else if v.accuracy == v.majority_accuracy {
        "no better"
    } else {
        "not significantly better"
    };
    let p = format!("p {}", crate::number_format::fmt_p(v.p_value));
    format!(
        "{learned}; this optimization's model was right {:.0}% of the time {where_} against the \
         rule's {:.0}% (McNemar {p}), {standing}, so the rule answers; the model predicts {}x \
         here",
        100.0 * v.accuracy,
        100.0 * v.majority_accuracy,
        crate::number_format::fmt_sig(model_says, 3),
    )
}

/// Why the rule answers a step the step model judged no better than the rule: what the rule
/// learned and what the step model predicts instead (`lowered`: the suggestion halves the
/// level, so the rule's answer is the reverse of raising it).
pub(super) fn step_reason(m: &OptimizationModel, model_says: f64, lowered: bool) -> String {
    let b = basis(m);
    let r = speedup(m);
    format!(
        "no better than the majority rule there, so the rule answers: {:.0}% of the {} got \
         faster by raising it (median speedup {}x{}{}); the step model predicts {}x",
        100.0 * b.positive_rate,
        pairs(m, &b),
        crate::number_format::fmt_sig(r, 3),
        if lowered {
            format!(
                ", so {}x for lowering it",
                crate::number_format::fmt_sig(1.0 / r, 3)
            )
        } else {
            String::new()
        },
        by_program(&b).map(|s| format!("; {s}")).unwrap_or_default(),
        crate::number_format::fmt_sig(model_says, 3),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Synthetic: four programs' pairs, three of them mostly slower and one with no clear
    /// effect; the pooled median is slower, and the text names each program's median and
    /// how many agree. One program gives no such text.
    #[test]
    fn the_rule_says_how_its_programs_agree() {
        let y = [0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1.0, 1.01, 0.6, 0.7];
        let programs: Vec<String> = ["a", "a", "b", "b", "c", "c", "d", "d", "a", "b"]
            .iter()
            .map(|p| p.to_string())
            .collect();
        let b = RuleBasis::of(&y, &[], &programs);
        assert_eq!(b.by_program.len(), 4);
        assert_eq!(b.by_program[0].program, "a");
        assert_eq!(b.by_program[0].samples, 3);
        assert!((b.by_program[0].median_speedup - 0.6).abs() < 1e-12);
        let text = by_program(&b).unwrap();
        assert!(
            text.starts_with("median by program: a 0.600x, b 0.700x, c 0.925x, d 1.00x;"),
            "{text}"
        );
        assert!(text.contains("3 of the 4 programs"), "{text}");
        let one = RuleBasis::of(&y, &[], &vec!["a".to_string(); y.len()]);
        assert!(one.by_program.is_empty());
        assert_eq!(by_program(&one), None);
    }

    /// Synthetic: a median inside the band is "not recommended" where a quarter or more of
    /// the pairs were clearly slower, three times as many as clearly faster, past the sign
    /// test, and most did not get faster; otherwise not.
    #[test]
    fn a_median_inside_the_band_is_not_recommended_where_it_was_often_slower() {
        // 40 pairs within 2% (slightly slower), 50 more than 2% slower, 10 faster.
        let mut ys = vec![0.995; 40];
        ys.extend(vec![0.5; 50]);
        ys.extend(vec![1.1; 10]);
        let why = often_slower_of(&ys, 0.995, 0.10).unwrap();
        assert!(
            why.contains("50% of the pairs were more than 2% slower and 10%"),
            "{why}"
        );
        assert!(why.contains("sign test p < 0.001"), "{why}");
        // Not where the majority got faster: the confidence measures the other way.
        assert_eq!(often_slower_of(&ys, 0.995, 0.60), None);
        // Not where the median lies outside the band: the band decides.
        assert_eq!(often_slower_of(&ys, 0.9, 0.10), None);
        // Not where fewer than a quarter were slower.
        let mut few = vec![1.0; 80];
        few.extend(vec![0.5; 20]);
        assert_eq!(often_slower_of(&few, 1.0, 0.0), None);
        // Not where those faster are more than a third of those slower.
        let mut both = vec![1.0; 40];
        both.extend(vec![0.5; 40]);
        both.extend(vec![1.5; 20]);
        assert_eq!(often_slower_of(&both, 1.0, 0.2), None);
        // Not where the sign test cannot tell: 3 of 8 slower, none faster (p 0.25).
        let mut small = vec![1.0; 5];
        small.extend(vec![0.5; 3]);
        assert_eq!(often_slower_of(&small, 1.0, 0.0), None);
        // Not the other way round: mostly faster stays "no clear effect".
        let mut up = vec![1.0; 60];
        up.extend(vec![1.2; 38]);
        up.extend(vec![0.9; 2]);
        assert_eq!(often_slower_of(&up, 1.0, 0.3), None);
    }
}
