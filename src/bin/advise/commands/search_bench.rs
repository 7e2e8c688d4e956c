//! `advise search-bench`: strategies x budgets x repeats on recorded spaces, summarised as a
//! table (or JSON) with convergence charts.

use std::path::PathBuf;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};

use super::output::{note, Output};
use super::search_bench_files::{write_charts, write_runs};
use super::space_notes::UnreadFile;
use crate::args::OutputArgs;
use advise::error::{Error, Result};
use advise::search::bench::{bench, BenchSettings, Budget};
use advise::search::space_files::space_files;
use advise::search::{strategies, SearchSpace};

/// What `advise search-bench` was asked to do.
#[derive(Debug, Clone)]
pub struct BenchCommand {
    pub spaces: Vec<PathBuf>,
    pub strategies: String,
    pub budgets: String,
    pub repeats: usize,
    pub seed: u64,
    pub threads: Option<usize>,
    /// Folder for charts; `None` draws none.
    pub charts: Option<PathBuf>,
    /// CSV file for every run's result; `None` writes none.
    pub runs_csv: Option<PathBuf>,
    /// `--reach`: fractions of the optimum, comma-separated, or empty.
    pub reach: String,
}

/// Splits `a,b:k=1,j=2,c` into strategies, keeping `KEY=VALUE` pieces with the strategy
/// before them (`b:k=1,j=2`). A `;` always ends a strategy (`b:k=1,j=2;c:k=3,j=4`).
pub fn split_strategies(list: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for group in list.split(';') {
        let first = out.len();
        for piece in group.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let in_group = out.len() > first;
            match out.last_mut() {
                Some(prev)
                    if in_group
                        && piece.contains('=')
                        && !piece.contains(':')
                        && prev.contains(':') =>
                {
                    prev.push(',');
                    prev.push_str(piece);
                }
                _ => out.push(piece.to_string()),
            }
        }
    }
    out
}

/// `advise search-bench`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Recorded spaces: files (Kernel Tuner caches, T4 results, KTT or CLBlast output, CSV),
    /// or folders, which stand for the .json and .csv files in them (also gzip- or
    /// bzip2-packed: .json.gz, .csv.bz2, ...).
    ///
    /// A file that cannot be read is named in a warning and left out, as is a budget larger
    /// than a space for that space; the report lists both (`unread` and `skipped` in the
    /// JSON). Only where nothing is left to run does the command fail.
    #[arg(long, required = true, num_args = 1..)]
    pub space: Vec<PathBuf>,
    /// Comma-separated strategies, or `all` (Kernel Tuner's names are accepted too:
    /// random_sample, genetic_algorithm, simulated_annealing, basinhopping, greedy_ils,
    /// brute_force, pso, diff_evo, bayes_opt).
    ///
    /// Each as NAME[:KEY=VALUE,...]; `advise search --help` lists every strategy's settings
    /// (auto:initmin=0,model=0). A `;` separates strategies whose settings hold commas.
    #[arg(long, default_value = "auto")]
    pub strategies: String,
    /// Comma-separated budgets: shares of each space (1%) or counts.
    #[arg(long, default_value = "1%,2%,5%", allow_hyphen_values = true)]
    pub budgets: String,
    #[arg(long, default_value_t = 100)]
    pub repeats: usize,
    /// Repeat r runs with seed SEED + r.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Folder for the convergence charts.
    #[arg(
        long = "charts-dir",
        alias = "charts",
        default_value = "reports/search-bench"
    )]
    pub charts: PathBuf,
    /// Do not draw charts.
    #[arg(long, conflicts_with = "charts")]
    pub no_charts: bool,
    /// Also write every run's result (space, strategy, budget, seed, fraction of the optimum,
    /// evaluations, evaluations to 95%) to this CSV file, for intervals and tests of one's own.
    #[arg(long, value_name = "FILE")]
    pub runs_csv: Option<PathBuf>,
    /// Also report, for each of these fractions of the optimum (comma-separated, such as
    /// 0.78,0.95), the share of runs that end there or better, with its 95% interval (Wilson).
    /// Where runs split between two basins the median jumps between them from one seed set to
    /// the next; the share of runs on the upper one moves by a few points.
    #[arg(long, value_name = "FRACTIONS", default_value = "")]
    pub reach: String,
    #[command(flatten)]
    pub out: OutputArgs,
}

pub fn run(args: Args) -> Result<()> {
    bench_spaces(
        &BenchCommand {
            spaces: args.space,
            strategies: args.strategies,
            budgets: args.budgets,
            repeats: args.repeats,
            seed: args.seed,
            threads: args.threads,
            charts: (!args.no_charts).then_some(args.charts),
            runs_csv: args.runs_csv,
            reach: args.reach,
        },
        &args.out.into(),
    )
}

/// The most worker threads `search-bench` starts (each run is one search on one thread).
const MAX_THREADS: usize = 256;

/// The most repeats `search-bench` takes: a million searches of one cell take minutes, and
/// every run's result is kept for the percentiles.
pub(super) const MOST_REPEATS: usize = 1_000_000;

fn bench_spaces(cmd: &BenchCommand, out: &Output) -> Result<()> {
    if cmd.threads == Some(0) {
        return Err(Error::Usage(
            "--threads must be at least 1 (leave it out for all cores)".into(),
        ));
    }
    if !(1..=MOST_REPEATS).contains(&cmd.repeats) {
        return Err(Error::Usage(format!(
            "--repeats {}: from 1 to {MOST_REPEATS} (each repeat is one search of every space, \
             strategy and budget; 100 tell strategies apart)",
            cmd.repeats
        )));
    }
    if let Some(dir) = &cmd.charts {
        super::output::check_output_dir("--charts-dir", dir)?;
    }
    let strategies = strategies(&split_strategies(&cmd.strategies))?;
    let budgets = Budget::parse_list(&cmd.budgets)?;
    let reach_at = parse_fractions("--reach", &cmd.reach)?;
    let (spaces, unread) = read_spaces(&space_files(&cmd.spaces)?, "the benchmark")?;
    let threads = cmd.threads.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    let total = spaces.len() * strategies.len() * budgets.len() * cmd.repeats;
    // More threads than runs, or than MAX_THREADS, only cost their start: a million of them
    // took a minute of system time.
    let threads = if threads > total.max(1) || threads > MAX_THREADS {
        let capped = threads.min(total.max(1)).min(MAX_THREADS);
        if cmd.threads.is_some() {
            note(&format!(
                "search-bench: --threads {threads} capped at {capped} ({total} runs, at most \
                 {MAX_THREADS} threads)"
            ));
        }
        capped
    } else {
        threads
    };
    let settings = BenchSettings {
        budgets,
        repeats: cmd.repeats,
        seed: cmd.seed,
        threads,
        reach_at,
    };
    let bar = if super::output::quiet() {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(total as u64)
    };
    if let Ok(style) =
        ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {pos}/{len} runs ({eta} left)")
    {
        bar.set_style(style.progress_chars("=> "));
    }
    let start = Instant::now();
    let report = bench(&spaces, &strategies, &settings, &|| bar.inc(1))?;
    let seconds = start.elapsed().as_secs_f64();
    bar.finish_and_clear();
    // The runs made: a budget larger than a space leaves that space's cells out.
    note(&format!(
        "search-bench: {} runs in {seconds:.1} s on {threads} threads",
        report.runs.len()
    ));
    if let Some(path) = &cmd.runs_csv {
        write_runs(&report, path)?;
        note(&format!(
            "wrote {} runs to {}",
            report.runs.len(),
            path.display()
        ));
    }
    // Charts that cannot be drawn fail the command, after its results are out.
    let mut charts = Vec::new();
    let mut chart_error = None;
    if let Some(dir) = &cmd.charts {
        match write_charts(&report, dir) {
            Ok(paths) => charts = paths,
            Err(e) => chart_error = Some(e),
        }
        for c in &charts {
            note(&format!("wrote {c}"));
        }
    }
    let printed = super::search_bench_report::print_report(
        cmd, out, &spaces, &report, &unread, charts, seconds,
    );
    match chart_error {
        Some(e) => printed.and(Err(e)),
        None => printed,
    }
}

/// Fractions of the optimum given to `option` (`--reach`, `--at`), comma-separated: each
/// above 0 and at most 1, none twice.
pub(super) fn parse_fractions(option: &str, list: &str) -> Result<Vec<f64>> {
    let mut out: Vec<f64> = Vec::new();
    for piece in list.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let at: f64 = piece
            .parse()
            .ok()
            .filter(|a: &f64| *a > 0.0 && *a <= 1.0)
            .ok_or_else(|| {
                Error::Usage(format!(
                    "{option} {piece}: a fraction of the optimum above 0 and at most 1 (0.95)"
                ))
            })?;
        if out.contains(&at) {
            return Err(Error::Usage(format!("{option}: {piece} is given twice")));
        }
        out.push(at);
    }
    Ok(out)
}

/// Reads the spaces, each named as soon as it is read so that a long list shows its progress.
/// A file that cannot be read is said at once (even with `--quiet`) and left out, so that one
/// bad file in a folder does not cost the others' results; where none can be read, the first
/// one's error is the command's.
/// `report` names what the spaces are read for ("the benchmark", "the landscapes").
pub(super) fn read_spaces(
    files: &[PathBuf],
    report: &str,
) -> Result<(Vec<SearchSpace>, Vec<UnreadFile>)> {
    let mut spaces = Vec::with_capacity(files.len());
    let mut unread = Vec::new();
    let mut first_error = None;
    for path in files {
        match SearchSpace::load(path) {
            Ok(s) => {
                note(&format!(
                    "{}: {} configurations ({} failed), {} tuning parameters, optimum {} ms",
                    s.name,
                    s.len(),
                    s.failed(),
                    s.n_params(),
                    s.optimum().1
                ));
                // Where at most one configuration runs, every strategy finds it at once: its
                // rows say nothing about a strategy.
                let ran = s.len() - s.failed();
                if ran <= 1 {
                    super::output::warn(&format!(
                        "{}: {ran} configuration{} that ran{}: nothing to search: its figures in \
                         {report} say nothing about a strategy",
                        s.name,
                        if ran == 1 { "" } else { "s" },
                        if s.n_params() == 0 {
                            ", no parameter that varies"
                        } else {
                            ""
                        }
                    ));
                }
                spaces.push(s);
            }
            Err(e) => {
                // A lone file's error is the command's own: no warning repeats it.
                if files.len() > 1 {
                    super::output::warn(&format!("{e}; left out of {report}"));
                }
                unread.push(UnreadFile {
                    file: path.display().to_string(),
                    error: e.to_string(),
                });
                first_error.get_or_insert(e);
            }
        }
    }
    match (spaces.is_empty(), first_error) {
        (true, Some(e)) => Err(e),
        (true, None) => Err(Error::Usage("no tuning space given".into())),
        _ => Ok((spaces, unread)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strategy_lists_keep_their_options() {
        assert_eq!(
            split_strategies("random, iterml:model=cart,pick=0.01,brt-hc25"),
            vec!["random", "iterml:model=cart,pick=0.01", "brt-hc25"]
        );
        assert_eq!(split_strategies("all"), vec!["all"]);
        assert_eq!(
            split_strategies("auto;auto:bojump=6,bojmax=60;auto:bo=0.3,bomax=30,random"),
            vec![
                "auto",
                "auto:bojump=6,bojmax=60",
                "auto:bo=0.3,bomax=30",
                "random"
            ]
        );
    }
}
