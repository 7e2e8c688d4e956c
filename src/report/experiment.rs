//! Experiment results as a person reads them: a first-screen summary (best model against best
//! baseline, with intervals and significance), the thesis-style tables, and Markdown.

use std::fmt::Write as _;

use super::table::TextTable;
use crate::experiment::run::ExperimentResult;
use crate::number_format::{fmt_p, p_is};

/// Significance level for the McNemar verdicts.
pub const ALPHA: f64 = 0.05;

use super::experiment_tables::{ci, pct};
pub use super::experiment_tables::{confusion_table, methods_table, thesis_comparison};

pub use crate::experiment::run::best;

/// How an experiment's best model `m` compares with its majority rule: McNemar's p below
/// [`ALPHA`] and a higher or lower accuracy, or no clear difference; `None` where it was not
/// compared. A difference carries McNemar's p and the sign-flip test's over whole test
/// tuples.
enum AgainstMajority {
    Better(f64, Option<f64>),
    Worse(f64, Option<f64>),
    NoClearDifference(f64),
}

fn against_majority(results: &[ExperimentResult], m: &ExperimentResult) -> Option<AgainstMajority> {
    let majority = results
        .iter()
        .find(|r| r.method == "baseline:majority")
        .and_then(|r| r.total.accuracy)
        .unwrap_or(0.0);
    let s = m.vs_majority.as_ref()?;
    let (p, pc) = (s.p_value, s.p_clustered);
    Some(if p >= ALPHA {
        AgainstMajority::NoClearDifference(p)
    } else if m.total.accuracy.unwrap_or(0.0) > majority {
        AgainstMajority::Better(p, pc)
    } else {
        AgainstMajority::Worse(p, pc)
    })
}

/// "significantly better/worse than the majority rule (...)": where McNemar's test finds a
/// difference that the test over whole programs, inputs and runs does not, the sentence says so.
fn significant(word: &str, p: f64, pc: Option<f64>) -> String {
    let p = p_is(p);
    match pc.map(|pc| (pc, p_is(pc))) {
        Some((pc, text)) if pc >= ALPHA => format!(
            "{word} than the majority rule by McNemar's test ({p}), which counts every \
             sample as independent, but not clearly when each program, input and run counts \
             once ({text})"
        ),
        Some((_, text)) => format!(
            "significantly {word} than the majority rule (McNemar {p}; over whole \
             programs, inputs and runs, {text})"
        ),
        None => format!("significantly {word} than the majority rule (McNemar {p})"),
    }
}

/// One sentence a non-expert can read: does the best model beat the rules? Where no test
/// sample's time changed clearly (every speedup inside the no-clear-effect band, as on a space
/// of equal times), it says that instead: any accuracy then only counts ties.
pub fn verdict(results: &[ExperimentResult]) -> String {
    if !results.is_empty() && results.iter().all(|r| r.total.unclear_share >= 1.0) {
        return "no test sample's time changed clearly (every speedup lies in the \
                no-clear-effect band): there is no direction to predict, and the accuracies \
                below count ties, not right calls"
            .into();
    }
    verdict_of_clear(results)
}

fn verdict_of_clear(results: &[ExperimentResult]) -> String {
    let (Some(m), Some(b)) = (best(results, false), best(results, true)) else {
        return match best(results, true) {
            Some(b) => format!(
                "only baselines were run; the best, {}, is right {}% of the time",
                b.method,
                pct(b.total.accuracy)
            ),
            None => "no results".into(),
        };
    };
    let (ma, ba) = (
        m.total.accuracy.unwrap_or(0.0),
        b.total.accuracy.unwrap_or(0.0),
    );
    let vs_majority = match against_majority(results, m) {
        Some(AgainstMajority::Better(p, pc)) => significant("better", p, pc),
        Some(AgainstMajority::Worse(p, pc)) => significant("worse", p, pc),
        Some(AgainstMajority::NoClearDifference(p)) => {
            format!(
                "not significantly different from the majority rule (McNemar {})",
                p_is(p)
            )
        }
        None => "not compared with the majority rule".into(),
    };
    let relation = if ma > ba {
        "beats"
    } else if ma < ba {
        "does not beat"
    } else {
        "ties"
    };
    // The test against that baseline, where it is not the majority rule (tested next).
    let vs_best = m
        .vs_best_baseline
        .as_ref()
        .filter(|v| v.baseline != "baseline:majority")
        .map(|v| {
            let clustered = v
                .test
                .p_clustered
                .map(|p| format!(", over whole programs, inputs and runs {}", p_is(p)))
                .unwrap_or_default();
            format!(" (McNemar {}{clustered})", p_is(v.test.p_value))
        })
        .unwrap_or_default();
    format!(
        "best model {} is right {}% {} of the time and {relation} the best baseline {} ({}%){vs_best}; it is {vs_majority}",
        m.method,
        pct(m.total.accuracy),
        ci(m.total.accuracy_ci),
        b.method,
        pct(b.total.accuracy)
    )
}

/// For an experiment that holds out whole programs (`lopo`): what its intervals and tests do
/// not cover. They resample the held-out programs' own inputs and runs, so they say how sure
/// the figures are for these programs; how a program outside them would fare varies from
/// program to program, and a handful of programs are a handful of draws of that.
pub fn programs_caveat(results: &[ExperimentResult]) -> Option<String> {
    let first = results.first()?;
    if first.name != "lopo" && !first.name.starts_with("lopo ") {
        return None;
    }
    let programs: std::collections::BTreeSet<&str> = first
        .optimizations
        .iter()
        .flat_map(|o| &o.samples)
        .filter_map(|s| s.id.split('/').next())
        .collect();
    let n = programs.len();
    Some(format!(
        "Each of the {n} programs is held out in turn. The intervals and tests resample the \
         held-out programs' own inputs and runs: they say how sure these figures are for these \
         {n} programs, not how well advice carries over to a program outside them, of which \
         {n} programs are only {n} samples."
    ))
}

/// The closing table of several experiments: each one's best model beside its best baseline
/// (the verdict lines, side by side).
pub fn best_per_experiment(experiments: &[Vec<ExperimentResult>]) -> TextTable {
    let mut t = TextTable::new([
        "experiment",
        "data",
        "test samples",
        "best model",
        "acc %",
        "95% CI",
        "balanced %",
        "best baseline",
        "its acc %",
        "model - baseline",
        "p vs it (McNemar)",
        "against the majority rule",
    ]);
    for results in experiments {
        let (Some(m), Some(b)) = (best(results, false), best(results, true)) else {
            continue;
        };
        let against = match against_majority(results, m) {
            Some(AgainstMajority::Better(p, pc)) => {
                format!(
                    "better{} (McNemar p {}{})",
                    only(pc),
                    fmt_p(p),
                    clustered(pc)
                )
            }
            Some(AgainstMajority::Worse(p, pc)) => {
                format!(
                    "worse{} (McNemar p {}{})",
                    only(pc),
                    fmt_p(p),
                    clustered(pc)
                )
            }
            Some(AgainstMajority::NoClearDifference(p)) => {
                format!("no clear difference (p {})", fmt_p(p))
            }
            None => "-".into(),
        };
        let gap = match (m.total.accuracy, b.total.accuracy) {
            (Some(x), Some(y)) => format!("{:+.1}", 100.0 * (x - y)),
            _ => "-".into(),
        };
        t.push([
            m.name.clone(),
            m.data_label().to_string(),
            m.test_samples().to_string(),
            m.method.clone(),
            pct(m.total.accuracy),
            ci(m.total.accuracy_ci),
            pct(m.total.balanced_accuracy),
            b.method.clone(),
            pct(b.total.accuracy),
            gap,
            m.vs_best_baseline
                .as_ref()
                .map(|v| fmt_p(v.test.p_value))
                .unwrap_or("-".into()),
            against,
        ]);
    }
    t
}

/// " by McNemar only" where the test over whole tuples finds no difference.
fn only(pc: Option<f64>) -> &'static str {
    if pc.is_some_and(|p| p >= ALPHA) {
        " by McNemar only"
    } else {
        ""
    }
}

/// ", clustered p 0.132": the sign-flip test's p beside McNemar's, where there is one.
fn clustered(pc: Option<f64>) -> String {
    pc.map(|p| format!(", clustered p {}", fmt_p(p)))
        .unwrap_or_default()
}

/// "train 32 samples (64 variants), test 96 (192)": fold sizes as the thesis counts them.
pub fn sizes_text(r: &ExperimentResult) -> String {
    let z = r.fold_sizes;
    let span = |a: usize, b: usize| {
        if a == b {
            a.to_string()
        } else {
            format!("{a}-{b}")
        }
    };
    format!(
        "train {} samples ({} variants), test {} ({})",
        span(z.train_min, z.train_max),
        span(2 * z.train_min, 2 * z.train_max),
        span(z.test_min, z.test_max),
        span(2 * z.test_min, 2 * z.test_max)
    )
}

/// What the methods table's columns mean, printed under the first one.
pub(super) const METHODS_LEGEND: &str = "\
acc %: held-out directions right, every test sample once, with a 95% interval (groups of one \
program, input and run resampled). thesis total %: the thesis's total, the mean of the \
optimizations' accuracies. balanced %: per optimization the mean of the accuracies on samples \
made faster and on samples made slower, then averaged. clear acc % / unclear %: the accuracy \
on samples outside the no-clear-effect band (a measured speedup within --band of 1.0, 2% by \
default, or timing repetitions on both sides of 1.0) and the share inside it. MAPE % / MdAPE %: \
mean and median absolute percentage error of the predicted speedup. rank acc %: the share of \
test variants where the optimization predicted to help most helped most. p vs majority: \
McNemar's exact test against the majority rule; p clustered: the same question asked of whole \
test tuples (program, input, run), which are not independent samples.
";

/// Everything for the terminal: per experiment, the verdict, the methods, and each model's
/// confusion table.
pub fn render_text(title: &str, experiments: &[Vec<ExperimentResult>], notes: &[String]) -> String {
    let mut out = format!("{title}\n");
    for n in notes {
        let _ = writeln!(out, "  {n}");
    }
    out.push('\n');
    let mut legend = Some(METHODS_LEGEND);
    for results in experiments {
        let Some(first) = results.first() else {
            continue;
        };
        let _ = writeln!(
            out,
            "== {} ({} folds; {}) ==",
            first.name,
            first.folds,
            sizes_text(first)
        );
        let _ = writeln!(out, "{}\n", verdict(results));
        if let Some(caveat) = programs_caveat(results) {
            let _ = writeln!(out, "{caveat}\n");
        }
        out.push_str(&methods_table(results).render());
        // Under the first table only.
        if let Some(legend) = legend.take() {
            out.push_str(legend);
        }
        out.push('\n');
        for r in results.iter().filter(|r| !r.baseline) {
            let _ = writeln!(out, "{} / {}: PP PN NP NN are sample counts (P = speedup > 1.0; first letter predicted); spread over choices: the lowest and highest accuracy over the open choices (runs, inputs), and how many", r.name, r.method);
            out.push_str(&confusion_table(r).render());
            out.push('\n');
            if let Some(t) = thesis_comparison(r) {
                let _ = writeln!(
                    out,
                    "{} / {} beside the thesis (its tables: BH on a Tesla K20, nvprof; PP..NN in % of samples):",
                    r.name, r.method
                );
                out.push_str(&t.render());
                out.push('\n');
            }
        }
    }
    let closing = best_per_experiment(experiments);
    if closing.len() >= 2 {
        let _ = writeln!(
            out,
            "In short: each experiment's best model beside its best baseline (accuracy in %; the tables above have every method)"
        );
        out.push_str(&closing.render());
    }
    out
}

#[cfg(test)]
mod tests;
