//! What `advise search-bench` prints: the results and standards as text tables, with the
//! files left out and the notes on how the spaces were read, or all of it as JSON.

use serde::Serialize;

use super::output::Output;
use super::search_bench::BenchCommand;
use super::space_notes::{
    left_out_section, noise_note, notes_section, reading_note, UnreadFile, NOISE_WORTH_SAYING,
};
use advise::dataset::import::run_noise::RunNoise;
use advise::error::Result;
use advise::report::table::TextTable;
use advise::search::bench::{BenchReport, BenchRow, SkippedCell, StandardRow};
use advise::search::SearchSpace;

#[derive(Serialize)]
struct JsonReport<'a> {
    /// What reproduces the figures: the first seed (runs take seed, seed + 1, ...) and the
    /// runs per cell. `seconds` and the rows' times per run are wall-clock, not reproducible.
    seed: u64,
    repeats: usize,
    spaces: Vec<JsonSpace<'a>>,
    results: &'a [BenchRow],
    standards: &'a [StandardRow],
    /// Files that could not be read, left out.
    unread: &'a [UnreadFile],
    /// (space, budget) pairs left out: the budget is larger than the space.
    skipped: &'a [SkippedCell],
    charts: Vec<String>,
    seconds: f64,
}

/// A space as the JSON report names it: its size and, where the recording keeps each
/// configuration's runs, how finely they tell its fastest configurations apart.
#[derive(Serialize)]
struct JsonSpace<'a> {
    space: &'a str,
    configurations: usize,
    failed_configurations: usize,
    run_noise: Option<RunNoise>,
    /// Whether the file was cut off and only its complete entries were read.
    cut_off: bool,
    /// Entries that repeat a configuration listed before them (the first one's time stands).
    repeated_entries: usize,
    /// Kernel Tuner cache entries whose key a later entry repeated (the later one stands).
    repeated_keys: usize,
    /// Configurations with a value the cache's `tune_params` do not list (Kernel Tuner's
    /// simulation mode never visits them).
    outside_tune_params: usize,
    /// Entries whose time lies outside 1e-9 to 1e12 ms (old Kernel Tuner versions wrote 1e20
    /// for a failure): counted as failed.
    times_out_of_range: usize,
}

/// Prints the results as a table or JSON.
pub fn print_report(
    cmd: &BenchCommand,
    out: &Output,
    spaces: &[SearchSpace],
    report: &BenchReport,
    unread: &[UnreadFile],
    charts: Vec<String>,
    seconds: f64,
) -> Result<()> {
    if out.json {
        let spaces = spaces
            .iter()
            .map(|s| JsonSpace {
                space: &s.name,
                configurations: s.len(),
                failed_configurations: s.failed(),
                run_noise: s.run_noise,
                cut_off: s.cut_off,
                repeated_entries: s.repeated,
                repeated_keys: s.repeated_keys,
                outside_tune_params: s.outside_tune_params,
                times_out_of_range: s.times_out_of_range,
            })
            .collect();
        return out.emit_json(&JsonReport {
            seed: cmd.seed,
            repeats: cmd.repeats,
            spaces,
            results: &report.results,
            standards: &report.standards,
            unread,
            skipped: &report.skipped,
            charts,
            seconds,
        });
    }
    let mut text = render(report);
    text += &left_out_section(unread, &report.skipped);
    text += &notes_section("How the files were read", spaces, reading_note);
    text += &notes_section(
        &format!(
            "Recorded noise of {}% or more (scripts/search/noise.py prints every space's)",
            NOISE_WORTH_SAYING * 100.0
        ),
        spaces,
        noise_note,
    );
    out.emit(&text)
}

/// The results and standards as text tables.
pub fn render(report: &BenchReport) -> String {
    let mut header: Vec<String> = [
        "space",
        "strategy",
        "budget",
        "evals",
        "used",
        "median",
        "95% interval",
        "p5",
        "95% interval",
        "mean",
        "evals to 95%",
        "runs reaching 95%",
    ]
    .map(String::from)
    .to_vec();
    // `--reach`'s shares, the same fractions in every row.
    if let Some(first) = report.results.first() {
        for s in &first.reach {
            header.push(format!("runs at {} or better", s.at));
            header.push("95% interval".into());
        }
    }
    let mut t = TextTable::new(header);
    for r in &report.results {
        let mut cells = vec![
            r.space.clone(),
            r.strategy.clone(),
            r.budget.clone(),
            r.budget_evaluations.to_string(),
            format!("{:.1}", r.mean_evaluations),
            format!("{:.3}", r.median_fraction),
            interval(r.median_interval),
            format!("{:.3}", r.p5_fraction),
            interval(r.p5_interval),
            format!("{:.3}", r.mean_fraction),
            r.evals_to_95.map_or("-".into(), |e| format!("{e:.0}")),
            format!("{:.0}%", r.reached_95 * 100.0),
        ];
        for s in &r.reach {
            cells.push(format!("{:.1}%", s.share * 100.0));
            cells.push(format!(
                "{:.1}-{:.1}%",
                s.interval[0] * 100.0,
                s.interval[1] * 100.0
            ));
        }
        t.push(cells);
    }
    let mut s = TextTable::new(["space", "strategy", "standard 1", "standard 2"]);
    for r in &report.standards {
        let show = |v: &Option<String>| v.clone().unwrap_or_else(|| "not reached".into());
        s.push([
            r.space.clone(),
            r.strategy.clone(),
            show(&r.standard1),
            show(&r.standard2),
        ]);
    }
    format!(
        "Fraction of the optimum (optimum time / found time) over repeated runs; beside the median \
         and 5th percentile, the range that holds the true one with 95% confidence \
         (order statistics; 0 or 1 where the runs are too few for a bound)\n\n{}\n\
         Smallest budget whose median (standard 1) or 5th percentile (standard 2) reaches 95%\n\n{}",
        t.render(),
        s.render()
    )
}

/// A quantile's 95% interval as `0.912-0.987`.
fn interval([lo, hi]: [f64; 2]) -> String {
    format!("{lo:.3}-{hi:.3}")
}
