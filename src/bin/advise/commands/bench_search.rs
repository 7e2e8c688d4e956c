//! `advise bench search`: the CPU one search costs, against the goal of at most 3 ms of CPU per
//! search (docs/search-results.md). Each space and budget runs the strategy's searches one after
//! another on one thread, seeds 0, 1, ..., after the space is loaded; the thread's own CPU time
//! (`clock_gettime(CLOCK_THREAD_CPUTIME_ID)` on 64-bit Linux; elsewhere the wall clock) divided
//! by the searches is the cost of one, and its ratio to the goal says whether it is met.
//! Loading a space is not counted: a tuner loads it once. Nor is indexing it (lazily built
//! tables of its lines and, on a sparse space, of its planes for repairs, and the corners of
//! the box its parameters span for Bayesian steps: tens of ms on a space of 100,000
//! configurations, which the first search would otherwise pay and which a few repeats could
//! not amortise): its CPU is measured and shown on its own, once per space. Nor is one search
//! (seed 0 at the first budget) run before the timed ones: loading leaves the processor's
//! caches full of the parsed file, and the first search after it read the space's tables from
//! memory (11 ms more than the next ones on the 241,600-configuration UCI SGEMM space at 1%,
//! where a search takes 2; docs/search-results.md), which a few repeats could not amortise
//! either.

use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::Serialize;

use super::output::{note, Output};
use advise::error::{Error, Result};
use advise::report::table::TextTable;
use advise::search::bench::Budget;
use advise::search::names::strategies;
use advise::search::space_files::{space_files, spaces_in};
use advise::search::{run, SearchSpace};

/// Settings of `advise bench search`.
#[derive(Debug, Clone)]
pub struct SearchCostSettings {
    pub spaces: Vec<PathBuf>,
    pub strategy: String,
    pub budgets: Vec<Budget>,
    pub repeats: usize,
    pub target_ms: f64,
}

/// One space and budget.
#[derive(Debug, Clone, Serialize)]
pub struct CostRow {
    pub space: String,
    pub configurations: usize,
    pub budget: String,
    pub evaluations: usize,
    /// Evaluations a search used, on average: fewer than `evaluations` where a strategy stops
    /// early (`auto` once a third of a large budget found nothing faster).
    pub mean_used: f64,
    pub searches: usize,
    /// CPU of one search, in ms (the wall clock where the thread's CPU time is unknown).
    pub cpu_ms: f64,
    pub wall_ms: f64,
    /// CPU of reading the space's file and building its tables, once per space, in ms (not
    /// in `cpu_ms`).
    pub load_ms: f64,
    /// CPU of indexing the space (its repairs' tables and its corners), once per space before
    /// its searches, in ms (not in `cpu_ms`).
    pub index_ms: f64,
    /// `cpu_ms` over the goal: at most 1 meets it.
    pub ratio: f64,
}

/// One budget over every space: what the goal is judged on.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct BudgetSummary {
    pub budget: String,
    pub spaces: usize,
    /// Mean over the spaces of their CPU ms per search.
    pub mean_cpu_ms: f64,
    /// The largest, and the space that took it.
    pub max_cpu_ms: f64,
    pub max_space: String,
    /// `max_cpu_ms` over the goal.
    pub worst_ratio: f64,
}

/// The rows grouped by budget, in the order the budgets first appear.
pub fn by_budget(rows: &[CostRow], target_ms: f64) -> Vec<BudgetSummary> {
    let mut budgets: Vec<&str> = Vec::new();
    for r in rows {
        if !budgets.contains(&r.budget.as_str()) {
            budgets.push(&r.budget);
        }
    }
    budgets
        .into_iter()
        .map(|budget| {
            let of: Vec<&CostRow> = rows.iter().filter(|r| r.budget == budget).collect();
            // The first of the largest, as a scan that replaces only on a larger one keeps.
            let max = of
                .iter()
                .copied()
                .reduce(|m, r| if r.cpu_ms > m.cpu_ms { r } else { m });
            let (max_cpu_ms, max_space) =
                max.map_or((0.0, String::new()), |m| (m.cpu_ms, m.space.clone()));
            BudgetSummary {
                budget: budget.to_string(),
                spaces: of.len(),
                mean_cpu_ms: of.iter().map(|r| r.cpu_ms).sum::<f64>() / of.len() as f64,
                max_cpu_ms,
                max_space,
                worst_ratio: max_cpu_ms / target_ms,
            }
        })
        .collect()
}

#[derive(Debug, Serialize)]
struct CostReport {
    strategy: String,
    target_ms: f64,
    /// Whether `cpu_ms` is the thread's CPU time (else the wall clock).
    cpu_clock: bool,
    rows: Vec<CostRow>,
    budgets: Vec<BudgetSummary>,
    worst_ratio: f64,
}

/// The spaces the repository ships: datasets/tuning-spaces and the test fixtures (those of
/// the two folders that can be read from here).
pub fn default_spaces() -> Vec<PathBuf> {
    ["datasets/tuning-spaces", "tests/fixtures/spaces"]
        .iter()
        .filter_map(|dir| spaces_in(Path::new(dir)).ok())
        .flatten()
        .collect()
}

/// This thread's CPU time so far, in seconds, where the system tells it (nanosecond
/// resolution; /proc's schedstat counts in scheduler ticks of several ms on some kernels).
#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
fn thread_cpu_seconds() -> Option<f64> {
    #[repr(C)]
    struct Timespec {
        tv_sec: i64,
        tv_nsec: i64,
    }
    extern "C" {
        fn clock_gettime(clock: i32, tp: *mut Timespec) -> i32;
    }
    const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
    let mut t = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid, writable timespec of the C layout on 64-bit Linux, and
    // clock_gettime writes nothing else.
    let rc = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut t) };
    (rc == 0).then(|| t.tv_sec as f64 + t.tv_nsec as f64 / 1e9)
}

#[cfg(not(all(target_os = "linux", target_pointer_width = "64")))]
fn thread_cpu_seconds() -> Option<f64> {
    None
}

/// Measures every space and budget.
pub fn measure(s: &SearchCostSettings) -> Result<(Vec<CostRow>, bool)> {
    let strategy = strategies(std::slice::from_ref(&s.strategy))?
        .into_iter()
        .next()
        .ok_or_else(|| Error::Usage("no strategy given".into()))?;
    let most = super::search_bench::MOST_REPEATS;
    if !(1..=most).contains(&s.repeats) {
        return Err(Error::Usage(format!(
            "--repeats {}: from 1 to {most} searches per space and budget",
            s.repeats
        )));
    }
    let mut rows = Vec::new();
    let mut cpu_clock = true;
    for path in &space_files(&s.spaces)? {
        let mark = (thread_cpu_seconds(), Instant::now());
        let space = SearchSpace::load(path)?;
        let load_ms = 1e3 * cpu_since(mark).0;
        // The space's indexes, timed apart: the repairs' where the strategy looks them up, and
        // the corners.
        let mark = (thread_cpu_seconds(), Instant::now());
        if strategy.repairs() {
            space.index_for_repairs();
        }
        space.index_corners();
        let index_ms = 1e3 * cpu_since(mark).0;
        // One untimed search, so that the timed ones start with the space's tables in cache.
        if let Some(b) = s.budgets.first() {
            let evaluations = b.evaluations(space.len()).min(space.len());
            std::hint::black_box(run(&space, strategy.as_ref(), evaluations, 0)?);
        }
        for &b in &s.budgets {
            let evaluations = b.evaluations(space.len()).min(space.len());
            note(&format!(
                "bench search: {} at {} ({evaluations} evaluations), {} searches",
                space.name,
                b.label(),
                s.repeats
            ));
            let mark = (thread_cpu_seconds(), Instant::now());
            let mut used = 0usize;
            for seed in 0..s.repeats as u64 {
                used += std::hint::black_box(run(&space, strategy.as_ref(), evaluations, seed)?)
                    .evaluations;
            }
            let wall = mark.1.elapsed().as_secs_f64();
            let (cpu, thread_clock) = cpu_since(mark);
            cpu_clock &= thread_clock;
            let per = |x: f64| 1e3 * x / s.repeats as f64;
            rows.push(CostRow {
                space: space.name.clone(),
                configurations: space.len(),
                budget: b.label(),
                evaluations,
                mean_used: used as f64 / s.repeats as f64,
                searches: s.repeats,
                cpu_ms: per(cpu),
                wall_ms: per(wall),
                load_ms,
                index_ms,
                ratio: per(cpu) / s.target_ms,
            });
        }
    }
    Ok((rows, cpu_clock))
}

/// Seconds of this thread's CPU since `mark` (its CPU time then, and the wall clock), and
/// whether the thread's clock gave them; the wall clock stands in where it did not.
fn cpu_since((c0, t0): (Option<f64>, Instant)) -> (f64, bool) {
    match (c0, thread_cpu_seconds()) {
        (Some(a), Some(z)) => (z - a, true),
        _ => (t0.elapsed().as_secs_f64(), false),
    }
}

pub fn run_command(s: &SearchCostSettings, out: &Output) -> Result<()> {
    if s.spaces.is_empty() {
        return Err(Error::Usage(
            "no tuning space: give --space FILE (a Kernel Tuner cache, T4 file, KTT output or \
             CSV), or run from the repository root, whose datasets/tuning-spaces it times by \
             default"
                .into(),
        ));
    }
    let (rows, cpu_clock) = measure(s)?;
    let worst_ratio = rows.iter().map(|r| r.ratio).fold(0.0, f64::max);
    let budgets = by_budget(&rows, s.target_ms);
    if out.json {
        return out.emit_json(&CostReport {
            strategy: s.strategy.clone(),
            target_ms: s.target_ms,
            cpu_clock,
            rows,
            budgets,
            worst_ratio,
        });
    }
    let mut t = TextTable::new([
        "space",
        "configurations",
        "budget",
        "evaluations",
        "used (mean)",
        "searches",
        if cpu_clock {
            "CPU ms/search"
        } else {
            "wall ms/search"
        },
        "goal ms",
        "ratio",
        "goal",
        "us/evaluation used",
        "load ms (once)",
        "index ms (once)",
    ]);
    for r in &rows {
        t.push([
            r.space.clone(),
            r.configurations.to_string(),
            r.budget.clone(),
            r.evaluations.to_string(),
            format!("{:.0}", r.mean_used),
            r.searches.to_string(),
            format!("{:.3}", r.cpu_ms),
            format!("{}", s.target_ms),
            format!("{:.2}", r.ratio),
            if r.ratio <= 1.0 { "met" } else { "over" }.to_string(),
            format!("{:.3}", 1e3 * r.cpu_ms / r.mean_used.max(1.0)),
            format!("{:.1}", r.load_ms),
            format!("{:.1}", r.index_ms),
        ]);
    }
    let mut text = format!(
        "{}: CPU per search against the goal of {} ms (one thread, space already loaded and \
         indexed, after one untimed search{})\n\n",
        s.strategy,
        s.target_ms,
        if cpu_clock {
            ""
        } else {
            "; this system gives no thread CPU time, so the wall clock stands in"
        }
    );
    text += &t.render();
    let mut summary = TextTable::new([
        "budget",
        "spaces",
        "mean ms/search",
        "largest",
        "on",
        "largest / goal",
    ]);
    for b in &budgets {
        summary.push([
            b.budget.clone(),
            b.spaces.to_string(),
            format!("{:.3}", b.mean_cpu_ms),
            format!("{:.3}", b.max_cpu_ms),
            b.max_space.clone(),
            format!("{:.2}", b.worst_ratio),
        ]);
    }
    text += "\nby budget:\n";
    text += &summary.render();
    text += &format!(
        "\nworst ratio {worst_ratio:.2}: {}\n",
        if worst_ratio <= 1.0 {
            "every space and budget within the goal"
        } else {
            "over the goal somewhere"
        }
    );
    out.emit(&text)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Synthetic rows: two spaces at two budgets.
    #[test]
    fn budgets_sum_up_their_spaces_in_order() {
        let row = |space: &str, budget: &str, cpu_ms: f64| CostRow {
            space: space.into(),
            configurations: 100,
            budget: budget.into(),
            evaluations: 2,
            mean_used: 2.0,
            searches: 10,
            cpu_ms,
            wall_ms: cpu_ms,
            load_ms: 0.0,
            index_ms: 0.0,
            ratio: cpu_ms / 2.0,
        };
        let rows = [
            row("a", "5%", 1.0),
            row("a", "1%", 0.5),
            row("b", "5%", 3.0),
            row("b", "1%", 0.25),
        ];
        let b = by_budget(&rows, 2.0);
        assert_eq!(b.len(), 2);
        assert_eq!((b[0].budget.as_str(), b[0].spaces), ("5%", 2));
        assert_eq!((b[0].mean_cpu_ms, b[0].max_cpu_ms), (2.0, 3.0));
        assert_eq!((b[0].max_space.as_str(), b[0].worst_ratio), ("b", 1.5));
        assert_eq!((b[1].budget.as_str(), b[1].max_space.as_str()), ("1%", "a"));
        assert_eq!((b[1].mean_cpu_ms, b[1].worst_ratio), (0.375, 0.25));
    }

    #[test]
    fn the_thread_clock_advances_with_work() {
        let Some(a) = thread_cpu_seconds() else {
            return; // not Linux: the wall clock stands in, nothing to check here
        };
        let mut x = 0u64;
        for i in 0..20_000_000u64 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(i);
        }
        std::hint::black_box(x);
        let b = thread_cpu_seconds().unwrap_or(a);
        assert!(b > a, "{a} -> {b}");
    }
}
