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
                .map(|s| format!("{:.3}", s.p_value))
                .unwrap_or_else(|| "-".into()),
            r.vs_majority
                .as_ref()
                .and_then(|s| s.p_clustered)
                .map(|p| format!("{p:.3}"))
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
/// this experiment and method.
pub fn thesis_comparison(r: &ExperimentResult) -> Option<TextTable> {
    let (number, rows) = crate::experiment::thesis::table(&r.name, &r.method)?;
    let mut t = TextTable::new([
        "optimization",
        "ours acc %",
        "thesis acc %",
        "thesis PP",
        "thesis PN",
        "thesis NP",
        "thesis NN",
    ]);
    for &(name, pp, pn, np, nn) in rows {
        let ours = r
            .optimizations
            .iter()
            .find(|o| o.name == name)
            .and_then(|o| o.accuracy);
        t.push([
            name.to_string(),
            pct(ours),
            format!("{:.1}", pp + nn),
            format!("{pp:.1}"),
            format!("{pn:.1}"),
            format!("{np:.1}"),
            format!("{nn:.1}"),
        ]);
    }
    let mean = rows.iter().map(|r| r.1 + r.4).sum::<f64>() / rows.len() as f64;
    t.push([
        format!("total (thesis Table {number})"),
        pct(r.total.thesis_total),
        format!("{mean:.1}"),
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
