//! The tables of one experiment: every method's totals, a method's PP/PN/NP/NN per
//! optimization, and our accuracy beside the thesis's published tables.

use super::table::TextTable;
use crate::experiment::run::{ExperimentResult, OptimizationResult};
use crate::experiment::stats::Interval;

/// A share as a percentage, one decimal ("-" when absent).
pub(super) fn pct(v: Option<f64>) -> String {
    v.map(|x| format!("{:.1}", 100.0 * x))
        .unwrap_or_else(|| "-".into())
}

/// A percentage already in percent, one decimal ("-" when absent).
fn one_decimal(v: Option<f64>) -> String {
    v.map(|m| format!("{m:.1}")).unwrap_or_else(|| "-".into())
}

pub(super) fn ci(v: Option<Interval>) -> String {
    v.map(|i| format!("[{:.1}, {:.1}]", 100.0 * i.low, 100.0 * i.high))
        .unwrap_or_else(|| "-".into())
}

fn cell(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

/// The summary table: one row per method of one experiment.
pub fn methods_table(results: &[ExperimentResult]) -> TextTable {
    let mut t = TextTable::new([
        "method",
        "acc %",
        "95% CI",
        "thesis total %",
        "balanced %",
        "clear acc %",
        "unclear %",
        "MAPE %",
        "MdAPE %",
        "rank acc %",
        "p vs majority",
        "p clustered",
    ]);
    for r in results {
        t.push([
            r.method.clone(),
            pct(r.total.accuracy),
            ci(r.total.accuracy_ci),
            pct(r.total.thesis_total),
            pct(r.total.balanced_accuracy),
            pct(r.total.clear_accuracy),
            format!("{:.1}", 100.0 * r.total.unclear_share),
            one_decimal(r.total.mape),
            one_decimal(r.total.mdape),
            pct(r.total.rank_accuracy),
            r.vs_majority
                .as_ref()
                .map(|s| crate::number_format::fmt_p(s.p_value))
                .unwrap_or_else(|| "-".into()),
            r.vs_majority
                .as_ref()
                .and_then(|s| s.p_clustered)
                .map(crate::number_format::fmt_p)
                .unwrap_or_else(|| "-".into()),
        ]);
    }
    t
}

/// The thesis's table for one method: PP, PN, NP, NN (counts), accuracy per optimization.
pub fn confusion_table(r: &ExperimentResult) -> TextTable {
    let mut t = TextTable::new([
        "optimization",
        "PP",
        "PN",
        "NP",
        "NN",
        "acc %",
        "95% CI",
        "balanced %",
        "MAPE %",
        "MdAPE %",
        "spread over choices",
    ]);
    for o in &r.optimizations {
        t.push(opt_row(o));
    }
    t.push([
        "total (samples)".to_string(),
        cell(r.total.pp),
        cell(r.total.pn),
        cell(r.total.np),
        cell(r.total.nn),
        pct(r.total.accuracy),
        ci(r.total.accuracy_ci),
        pct(r.total.balanced_accuracy),
        one_decimal(r.total.mape),
        one_decimal(r.total.mdape),
        String::new(),
    ]);
    t.push([
        "total (thesis: mean of rows)".to_string(),
        String::new(),
        String::new(),
        String::new(),
        String::new(),
        pct(r.total.thesis_total),
        String::new(),
        String::new(),
        String::new(),
        String::new(),
        String::new(),
    ]);
    t
}

/// Our accuracy per optimization beside the thesis's, where the thesis published a table for
/// this experiment and method and the result has at least half of its optimizations. The
/// thesis's tables are BH's (VOTE, WARP, SORT, RSQRT, FTZ, VOLA): an NB result shares only
/// RSQRT, and a total over NB's five beside one over BH's six compares two programs. The totals
/// are the unweighted means over the optimizations both have, as the thesis's total is.
pub fn thesis_comparison(r: &ExperimentResult) -> Option<TextTable> {
    let (number, rows) = crate::experiment::thesis::table(&r.name, &r.method)?;
    let ours = |name: &str| {
        r.optimizations
            .iter()
            .find(|o| o.name == name)
            .and_then(|o| o.accuracy)
    };
    let shared: Vec<&crate::experiment::thesis::Row> =
        rows.iter().filter(|row| ours(row.0).is_some()).collect();
    if 2 * shared.len() < rows.len() {
        return None;
    }
    let mut t = TextTable::new([
        "optimization",
        "ours acc %",
        "thesis acc %",
        "thesis PP %",
        "thesis PN %",
        "thesis NP %",
        "thesis NN %",
    ]);
    for &(name, pp, pn, np, nn) in rows {
        t.push([
            name.to_string(),
            pct(ours(name)),
            format!("{:.1}", pp + nn),
            format!("{pp:.1}"),
            format!("{pn:.1}"),
            format!("{np:.1}"),
            format!("{nn:.1}"),
        ]);
    }
    let n = shared.len() as f64;
    let mean_ours = shared.iter().filter_map(|row| ours(row.0)).sum::<f64>() / n;
    let mean_thesis = shared.iter().map(|row| row.1 + row.4).sum::<f64>() / n;
    t.push([
        format!(
            "mean over the {} both have (thesis Table {number})",
            shared.len()
        ),
        pct(Some(mean_ours)),
        format!("{mean_thesis:.1}"),
        String::new(),
        String::new(),
        String::new(),
        String::new(),
    ]);
    Some(t)
}

fn opt_row(o: &OptimizationResult) -> Vec<String> {
    let spread = if o.choice_accuracy.len() > 1 {
        let v: Vec<f64> = o.choice_accuracy.values().copied().collect();
        let min = v.iter().copied().fold(f64::INFINITY, f64::min);
        let max = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        format!("{:.1}-{:.1} over {}", 100.0 * min, 100.0 * max, v.len())
    } else {
        String::new()
    };
    vec![
        o.name.clone(),
        cell(o.pp),
        cell(o.pn),
        cell(o.np),
        cell(o.nn),
        pct(o.accuracy),
        ci(o.accuracy_ci),
        pct(o.balanced_accuracy),
        one_decimal(o.mape),
        one_decimal(o.mdape),
        spread,
    ]
}
