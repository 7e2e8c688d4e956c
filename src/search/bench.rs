//! The search benchmark: every strategy, repeated with different seeds at several budgets on
//! each space, summarised as Cui and Feng's IterML paper does: the median and 5th percentile of the fraction of
//! the optimum found (optimum time / found time), the evaluations a run needs to reach 95% of
//! the optimum, and the smallest budget whose median (Standard 1) or 5th percentile
//! (Standard 2) reaches 95%. Repeat r runs with seed `seed + r`, so `advise search --seed`
//! reproduces any single run. Runs are spread over threads; the result does not depend on
//! their number or order.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use serde::Serialize;

use super::{check_budget, run, SearchSpace, Strategy};
use crate::error::{Error, Result};

pub use budget::Budget;
pub use quantiles::{quantile, quantile_interval, share_interval};

mod budget;
mod quantiles;

/// One line of the summary.
#[derive(Debug, Clone, Serialize)]
pub struct BenchRow {
    pub space: String,
    pub strategy: String,
    pub budget: String,
    pub budget_evaluations: usize,
    /// Mean evaluations actually used (a strategy may finish early).
    pub mean_evaluations: f64,
    pub median_fraction: f64,
    pub p5_fraction: f64,
    /// 95% confidence intervals of the median and the 5th percentile, distribution-free
    /// ([`quantile_interval`]; 0 or 1 where the runs are too few for a bound).
    pub median_interval: [f64; 2],
    pub p5_interval: [f64; 2],
    /// Mean over runs of the fraction: steadier than the median where runs split between two
    /// basins (the median then falls on either side).
    pub mean_fraction: f64,
    /// Median over runs of the evaluations to first reach 95% of the optimum; `None` when
    /// more than half the runs never do within the budget.
    pub evals_to_95: Option<f64>,
    /// Share of runs that reach 95% of the optimum.
    pub reached_95: f64,
    /// Mean wall-clock milliseconds of one search, each timed on its worker thread once the
    /// space is loaded and indexed (CPU time where the threads have a core each; `advise bench
    /// search` measures thread CPU time itself).
    pub mean_run_ms: f64,
    /// For each fraction of the optimum asked for (`--reach`), the share of runs that end at
    /// it or better: where runs split between basins, a steadier figure than the median.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reach: Vec<ShareAt>,
}

/// The share of a cell's runs that end at `at` of the optimum or better, with its 95% Wilson
/// interval ([`share_interval`]).
#[derive(Debug, Clone, Serialize)]
pub struct ShareAt {
    pub at: f64,
    pub share: f64,
    pub interval: [f64; 2],
}

/// Seed 000's two standards for one space and strategy: the smallest budget tried whose
/// median (Standard 1) or 5th percentile (Standard 2) fraction is at least 0.95.
#[derive(Debug, Clone, Serialize)]
pub struct StandardRow {
    pub space: String,
    pub strategy: String,
    pub standard1: Option<String>,
    pub standard2: Option<String>,
}

/// Median best-so-far fraction after each evaluation, at the last budget listed that the space
/// ran.
#[derive(Debug, Clone, Serialize)]
pub struct Curve {
    pub space: String,
    pub strategy: String,
    pub budget: usize,
    pub median_fraction: Vec<f64>,
}

/// One run of one (space, strategy, budget) cell, for statistics beyond the summary
/// (bootstrap intervals, tests between strategies).
#[derive(Debug, Clone, Serialize)]
pub struct RunRow {
    pub space: String,
    pub strategy: String,
    pub budget: String,
    pub seed: u64,
    pub fraction: f64,
    pub evaluations: usize,
    /// Evaluations to first reach 95% of the optimum; `None`: never within the budget.
    pub evals_to_95: Option<usize>,
}

/// A (space, budget) pair left out because the budget is more evaluations than the space
/// has configurations (an absolute budget over a folder of spaces of mixed sizes).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SkippedCell {
    pub space: String,
    pub budget: String,
    pub budget_evaluations: usize,
    pub configurations: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct BenchReport {
    pub results: Vec<BenchRow>,
    pub standards: Vec<StandardRow>,
    /// The cells left out, each with why; the others are benchmarked as usual.
    pub skipped: Vec<SkippedCell>,
    #[serde(skip)]
    pub curves: Vec<Curve>,
    /// Every run, cell by cell in the order of `results`, seeds ascending.
    #[serde(skip)]
    pub runs: Vec<RunRow>,
}

/// Benchmark settings.
#[derive(Debug, Clone)]
pub struct BenchSettings {
    pub budgets: Vec<Budget>,
    pub repeats: usize,
    pub seed: u64,
    pub threads: usize,
    /// Fractions of the optimum whose share of runs reaching them each row reports.
    pub reach_at: Vec<f64>,
}

/// One run's outcome.
#[derive(Clone)]
struct RunResult {
    fraction: f64,
    evaluations: usize,
    /// First evaluation at 95% of the optimum.
    first95: Option<usize>,
    /// Best fraction so far after each evaluation (kept at the budget of the curve only).
    trace: Vec<f64>,
    /// Wall-clock seconds of the search, on its worker thread.
    seconds: f64,
}

/// Runs the benchmark; `tick` is called once per finished run (for a progress bar).
pub fn bench(
    spaces: &[SearchSpace],
    strategies: &[Box<dyn Strategy>],
    settings: &BenchSettings,
    tick: &(dyn Fn() + Sync),
) -> Result<BenchReport> {
    if settings.repeats == 0 || settings.budgets.is_empty() {
        return Err(Error::Usage(
            "need at least one repeat and one budget".into(),
        ));
    }
    // (space, strategy, budget) cells, then one job per repeat. A budget larger than a space
    // leaves that pair out, unless it leaves nothing to run.
    let mut cells = Vec::new();
    let mut skipped = Vec::new();
    let mut first_skip = None;
    for (si, space) in spaces.iter().enumerate() {
        for (bi, b) in settings.budgets.iter().enumerate() {
            let evals = b.evaluations(space.len());
            if evals > space.len() {
                first_skip.get_or_insert((si, evals));
                skipped.push(SkippedCell {
                    space: space.name.clone(),
                    budget: b.label(),
                    budget_evaluations: evals,
                    configurations: space.len(),
                });
                continue;
            }
            check_budget(space, evals)?;
            for ti in 0..strategies.len() {
                cells.push((si, ti, bi, evals));
            }
        }
    }
    if let (true, Some((si, evals))) = (cells.is_empty(), first_skip) {
        check_budget(&spaces[si], evals)?;
    }
    // Each space's curve is drawn at the last budget it ran (the last listed, unless left out).
    let mut curve_budget = vec![None; spaces.len()];
    for &(si, _, bi, _) in &cells {
        curve_budget[si] = Some(bi);
    }
    // The repairs' indexes (where a strategy looks them up) and the corners are built once per
    // space before any run is timed (lazily, the first run of a space would carry them in its
    // `mean_run_ms`).
    let repairs = strategies.iter().any(|s| s.repairs());
    for space in spaces {
        if repairs {
            space.index_for_repairs();
        }
        space.index_corners();
    }
    let jobs = cells.len() * settings.repeats;
    let results: Mutex<Vec<Option<RunResult>>> = Mutex::new(vec![None; jobs]);
    let next = AtomicUsize::new(0);
    let failure: Mutex<Option<Error>> = Mutex::new(None);
    let worker = || loop {
        let j = next.fetch_add(1, Ordering::Relaxed);
        if j >= jobs {
            break;
        }
        let (si, ti, bi, evals) = cells[j / settings.repeats];
        let r = (j % settings.repeats) as u64;
        let space = &spaces[si];
        let started = std::time::Instant::now();
        let outcome = run(
            space,
            strategies[ti].as_ref(),
            evals,
            settings.seed.wrapping_add(r),
        );
        let seconds = started.elapsed().as_secs_f64();
        match outcome {
            Ok(o) => {
                let opt = space.optimum().1;
                let first95 = o.trace.iter().position(|&t| opt / t >= 0.95).map(|i| i + 1);
                let keep_trace = curve_budget[si] == Some(bi);
                let trace: Vec<f64> = if keep_trace {
                    o.trace.iter().map(|&t| opt / t).collect()
                } else {
                    Vec::new()
                };
                if let Ok(mut res) = results.lock() {
                    res[j] = Some(RunResult {
                        fraction: o.fraction_of_optimum,
                        evaluations: o.evaluations,
                        first95,
                        trace,
                        seconds,
                    });
                }
            }
            Err(e) => {
                if let Ok(mut f) = failure.lock() {
                    f.get_or_insert(e);
                }
            }
        }
        tick();
    };
    std::thread::scope(|s| {
        // No more threads than runs: the others would start only to find nothing to do.
        for _ in 0..settings.threads.clamp(1, jobs.max(1)) {
            s.spawn(worker);
        }
    });
    if let Some(e) = failure.into_inner().ok().flatten() {
        return Err(e);
    }
    let results = results
        .into_inner()
        .map_err(|_| Error::Internal("a benchmark thread panicked".into()))?;
    let mut report = summarise(spaces, strategies, settings, &cells, &curve_budget, results)?;
    report.skipped = skipped;
    Ok(report)
}

fn summarise(
    spaces: &[SearchSpace],
    strategies: &[Box<dyn Strategy>],
    settings: &BenchSettings,
    cells: &[(usize, usize, usize, usize)],
    curve_budget: &[Option<usize>],
    results: Vec<Option<RunResult>>,
) -> Result<BenchReport> {
    let mut rows = Vec::new();
    let mut curves = Vec::new();
    let mut run_rows = Vec::new();
    for (c, &(si, ti, bi, evals)) in cells.iter().enumerate() {
        let runs: Vec<&RunResult> = results[c * settings.repeats..(c + 1) * settings.repeats]
            .iter()
            .map(|r| {
                r.as_ref()
                    .ok_or_else(|| Error::Internal("a benchmark run is missing".into()))
            })
            .collect::<Result<_>>()?;
        run_rows.extend(runs.iter().zip(0u64..).map(|(r, i)| RunRow {
            space: spaces[si].name.clone(),
            strategy: strategies[ti].name(),
            budget: settings.budgets[bi].label(),
            seed: settings.seed.wrapping_add(i),
            fraction: r.fraction,
            evaluations: r.evaluations,
            evals_to_95: r.first95,
        }));
        let mut fr: Vec<f64> = runs.iter().map(|r| r.fraction).collect();
        fr.sort_by(f64::total_cmp);
        let mut reach: Vec<f64> = runs
            .iter()
            .map(|r| r.first95.map_or(f64::INFINITY, |e| e as f64))
            .collect();
        reach.sort_by(f64::total_cmp);
        let to95 = quantile(&reach, 0.5);
        rows.push(BenchRow {
            space: spaces[si].name.clone(),
            strategy: strategies[ti].name(),
            budget: settings.budgets[bi].label(),
            budget_evaluations: evals,
            mean_evaluations: runs.iter().map(|r| r.evaluations as f64).sum::<f64>()
                / runs.len() as f64,
            median_fraction: quantile(&fr, 0.5),
            p5_fraction: quantile(&fr, 0.05),
            median_interval: interval95(&fr, 0.5),
            p5_interval: interval95(&fr, 0.05),
            mean_fraction: fr.iter().sum::<f64>() / fr.len().max(1) as f64,
            evals_to_95: to95.is_finite().then_some(to95),
            reached_95: runs.iter().filter(|r| r.first95.is_some()).count() as f64
                / runs.len() as f64,
            mean_run_ms: 1e3 * runs.iter().map(|r| r.seconds).sum::<f64>() / runs.len() as f64,
            reach: shares_at(&fr, &settings.reach_at),
        });
        if curve_budget[si] == Some(bi) {
            let mut median = Vec::with_capacity(evals);
            let mut col = vec![0.0; runs.len()];
            for e in 0..evals {
                for (k, r) in runs.iter().enumerate() {
                    // A run that stopped early keeps its final best.
                    col[k] = r.trace.get(e).or(r.trace.last()).copied().unwrap_or(0.0);
                }
                col.sort_by(f64::total_cmp);
                median.push(quantile(&col, 0.5));
            }
            curves.push(Curve {
                space: spaces[si].name.clone(),
                strategy: strategies[ti].name(),
                budget: evals,
                median_fraction: median,
            });
        }
    }
    let mut standards = Vec::new();
    for space in spaces {
        for st in strategies {
            let name = st.name();
            let mine: Vec<&BenchRow> = rows
                .iter()
                .filter(|r| r.space == space.name && r.strategy == name)
                .collect();
            if mine.is_empty() {
                continue; // every budget was larger than the space
            }
            let smallest = |ok: &dyn Fn(&BenchRow) -> bool| {
                mine.iter()
                    .filter(|r| ok(r))
                    .min_by_key(|r| r.budget_evaluations)
                    .map(|r| r.budget.clone())
            };
            standards.push(StandardRow {
                space: space.name.clone(),
                strategy: name.clone(),
                standard1: smallest(&|r| r.median_fraction >= 0.95),
                standard2: smallest(&|r| r.p5_fraction >= 0.95),
            });
        }
    }
    Ok(BenchReport {
        results: rows,
        standards,
        skipped: Vec::new(),
        curves,
        runs: run_rows,
    })
}

/// The share of the fractions at each of `at` or above, with its 95% interval.
fn shares_at(fractions: &[f64], at: &[f64]) -> Vec<ShareAt> {
    at.iter()
        .map(|&a| {
            let k = fractions.iter().filter(|&&f| f >= a).count();
            let (lo, hi) = share_interval(k, fractions.len(), 0.95).unwrap_or((f64::NAN, f64::NAN));
            ShareAt {
                at: a,
                share: k as f64 / fractions.len().max(1) as f64,
                interval: [lo, hi],
            }
        })
        .collect()
}

/// The 95% interval of the q-quantile of sorted fractions of the optimum.
fn interval95(sorted: &[f64], q: f64) -> [f64; 2] {
    quantile_interval(sorted, q, 0.95, 0.0, 1.0).map_or([f64::NAN; 2], |(lo, hi)| [lo, hi])
}

#[cfg(test)]
mod tests;
