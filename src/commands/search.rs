//! `advise search`: one simulated search on a recorded space.

use std::path::Path;

use serde::Serialize;

use super::output::Output;
use crate::error::Result;
use crate::report::table::fmt_sig;
use crate::search::bench::Budget;
use crate::search::{self, SearchSpace};

#[derive(Debug, Serialize)]
struct SearchReport {
    space: String,
    configurations: usize,
    failed_configurations: usize,
    strategy: String,
    budget: usize,
    seed: u64,
    evaluations: usize,
    best_config: Option<serde_json::Map<String, serde_json::Value>>,
    best_time_ms: Option<f64>,
    optimum_time_ms: f64,
    optimum_config: serde_json::Map<String, serde_json::Value>,
    fraction_of_optimum: f64,
}

fn config_json(space: &SearchSpace, id: usize) -> serde_json::Map<String, serde_json::Value> {
    space
        .assignment(id)
        .into_iter()
        .map(|(k, v)| (k, serde_json::Value::String(v)))
        .collect()
}

pub fn run(space: &Path, strategy: &str, budget: &str, seed: u64, out: &Output) -> Result<()> {
    let space = SearchSpace::load(space)?;
    let strategy = search::strategy(strategy)?;
    let budget = Budget::parse(budget)?.evaluations(space.len());
    let o = search::run(&space, strategy.as_ref(), budget, seed)?;
    let (opt_id, opt_time) = space.optimum();
    let report = SearchReport {
        space: space.name.clone(),
        configurations: space.len(),
        failed_configurations: space.failed(),
        strategy: o.strategy.clone(),
        budget,
        seed,
        evaluations: o.evaluations,
        best_config: o.best.map(|id| config_json(&space, id)),
        best_time_ms: o.best_time_ms,
        optimum_time_ms: opt_time,
        optimum_config: config_json(&space, opt_id),
        fraction_of_optimum: o.fraction_of_optimum,
    };
    if out.json {
        return out.emit_json(&report);
    }
    let best = o
        .best
        .map_or("none (every measured configuration failed)".into(), |id| {
            space.describe(id)
        });
    let lines = [
        (
            "space",
            format!(
                "{} ({} configurations, {} failed)",
                report.space, report.configurations, report.failed_configurations
            ),
        ),
        ("strategy", format!("{} (seed {seed})", report.strategy)),
        ("evaluations", format!("{} of {budget}", o.evaluations)),
        ("best found", best),
        (
            "its time",
            o.best_time_ms
                .map_or("-".into(), |t| format!("{} ms", fmt_sig(t, 6))),
        ),
        (
            "optimum",
            format!("{} ms ({})", fmt_sig(opt_time, 6), space.describe(opt_id)),
        ),
        (
            "fraction of optimum",
            format!("{:.4}", o.fraction_of_optimum),
        ),
    ];
    let text: String = lines
        .iter()
        .map(|(k, v)| format!("{k:<20} {v}\n"))
        .collect();
    out.emit(&text)
}
