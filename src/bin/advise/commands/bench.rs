//! `advise bench models`: fit + predict time of every model on the seeded `synthetic` dataset
//! (rows x columns as asked), and, where `java` and Weka's jar exist, the same for Weka's IBk,
//! M5P and LinearRegression through scripts/weka/WekaBench.java, with the ratio Weka / advise.
//! Both sides time fit + predict of the same rows on data already in memory: each runs at least
//! the size's repetitions and until a minimum time has passed (Weka 5 s, for its JIT; advise 1
//! s: bench_weka.rs), and the best runs are compared.

use std::path::PathBuf;
use std::time::Instant;

use serde::Serialize;

use super::bench_weka::{write_csv, Timing, Weka, ADVISE_SECONDS};
use super::output::{note, Output};
use crate::args::{method_spec, MethodArg, OutputArgs, StepArg, ViewArg};
use advise::error::{Error, Result};
use advise::report::table::TextTable;
use advise_ml::synthetic::synthetic;
use advise_ml::{Data, Method, Predict};

/// Settings of `advise bench models`.
#[derive(Debug, Clone)]
pub struct BenchSettings {
    pub rows: Vec<usize>,
    pub cols: usize,
    pub seed: i64,
    /// Compare with Weka when it is installed.
    pub weka: bool,
    /// The methods timed (all when empty).
    pub methods: Vec<Method>,
}

#[derive(Debug, Serialize)]
struct BenchRow {
    dataset: String,
    method: Method,
    reps: usize,
    /// Threads advise's fit and predict could use (2 where the models' helper thread took
    /// jobs; see advise_ml::helper_thread).
    threads: usize,
    /// advise's best run.
    advise_s: f64,
    /// Median of advise's later half of runs.
    advise_median_s: f64,
    advise_runs: usize,
    /// Weka's best run.
    weka_s: Option<f64>,
    /// Median of Weka's later half of runs (after the JIT's warm-up).
    weka_median_s: Option<f64>,
    weka_runs: Option<usize>,
    /// Weka's best time over advise's.
    ratio: Option<f64>,
    /// Weka's median time over advise's.
    median_ratio: Option<f64>,
}

fn time_ours(method: Method, data: &Data, reps: usize) -> Result<Timing> {
    let params = method.default_params();
    Timing::measure(reps, ADVISE_SECONDS, || {
        let t0 = Instant::now();
        let model = params.fit(data)?;
        let p = model.model.predict(&data.x)?;
        std::hint::black_box(p);
        Ok(t0.elapsed().as_secs_f64())
    })
}

/// What `advise bench` measures.
#[derive(Debug, clap::Subcommand)]
pub enum Which {
    /// Fit + predict of every model on synthetic data, against Weka where installed.
    Models(ModelsArgs),
    /// The six thesis experiments, all methods, on a synthetic campaign of the thesis's size.
    Experiments(ExperimentsArgs),
    /// Whether advice carries over: grouped k-fold, leave one program out, leave one GPU out
    /// and simulator <-> hardware on the project's real and simulated datasets.
    Transfer(TransferArgs),
    /// CPU per search of a strategy (default `auto`) on recorded tuning spaces, against the
    /// goal of at most 3 ms: the ratio says whether it is met.
    Search(SearchArgs),
}

/// `advise bench search`.
#[derive(Debug, clap::Args)]
pub struct SearchArgs {
    /// Tuning spaces: files, or folders standing for the space files in them (default:
    /// datasets/tuning-spaces and tests/fixtures/spaces).
    #[arg(long, num_args = 1..)]
    pub space: Vec<PathBuf>,
    /// The strategy, NAME[:KEY=VALUE,...] as `advise search` takes it.
    #[arg(long, default_value = "auto")]
    pub strategy: String,
    /// Budgets, comma-separated: shares of each space (2%) or counts.
    #[arg(long, default_value = "1%,2%,5%", allow_hyphen_values = true)]
    pub budgets: String,
    /// Searches per space and budget (seeds 0, 1, ...).
    #[arg(long, default_value_t = 100)]
    pub repeats: usize,
    /// The goal, in ms of CPU per search.
    #[arg(long, default_value_t = 3.0)]
    pub target_ms: f64,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// `advise bench models`.
#[derive(Debug, clap::Args)]
pub struct ModelsArgs {
    /// Dataset sizes (rows), comma-separated (19200 is the large size; Weka takes minutes there).
    #[arg(long, value_delimiter = ',', default_value = "192,1920")]
    pub rows: Vec<usize>,
    /// Methods to time, comma-separated (default: all).
    #[arg(long, value_delimiter = ',')]
    pub method: Vec<String>,
    /// Feature columns.
    #[arg(long, default_value_t = 250)]
    pub cols: usize,
    /// Seed of the synthetic data.
    #[arg(long, default_value_t = 1)]
    pub seed: i64,
    /// Skip the Weka comparison.
    #[arg(long)]
    pub no_weka: bool,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// `advise bench experiments`.
#[derive(Debug, clap::Args)]
pub struct ExperimentsArgs {
    /// Counter columns of the synthetic campaign.
    #[arg(long, default_value_t = 250)]
    pub cols: usize,
    /// Seed of the synthetic campaign.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Skip the Weka comparison.
    #[arg(long)]
    pub no_weka: bool,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// `advise bench transfer`.
#[derive(Debug, clap::Args)]
pub struct TransferArgs {
    /// Datasets with counters (repeatable; default: every such folder of datasets/). GPU pairs
    /// (counters on one GPU, times on another) are found by name in datasets/; with
    /// --dataset, only those whose counters are a named dataset.
    #[arg(long)]
    pub dataset: Vec<PathBuf>,
    /// Methods (comma list).
    #[arg(long, value_enum, value_delimiter = ',', default_value = "all")]
    pub method: Vec<MethodArg>,
    /// Feature view.
    #[arg(long, value_enum, default_value = "portable")]
    pub features: ViewArg,
    /// Step features (what each sample's tuning step is: where it starts, how far it goes).
    #[arg(long, value_enum, default_value = "off")]
    pub step: StepArg,
    /// Folds of grouped k-fold and leave one GPU out.
    #[arg(long, default_value_t = 10)]
    pub folds: usize,
    /// Seed of the fold shuffles, the bootstrap intervals, the sign-flip tests and the random
    /// baseline. The random forest and boosted trees draw from fixed seeds of their own, so
    /// their models do not change with it.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[command(flatten)]
    pub out: OutputArgs,
}

pub fn run(which: Which) -> Result<()> {
    match which {
        Which::Models(a) => models(
            &BenchSettings {
                rows: a.rows,
                cols: a.cols,
                seed: a.seed,
                weka: !a.no_weka,
                methods: a
                    .method
                    .iter()
                    .map(|m| m.trim().parse::<Method>())
                    .collect::<std::result::Result<_, _>>()?,
            },
            &a.out.into(),
        ),
        Which::Search(a) => {
            let budgets = advise::search::bench::Budget::parse_list(&a.budgets)?;
            if a.target_ms.is_nan() || a.target_ms <= 0.0 {
                return Err(Error::Usage("--target-ms must be above 0".into()));
            }
            let spaces = if a.space.is_empty() {
                super::bench_search::default_spaces()
            } else {
                a.space
            };
            super::bench_search::run_command(
                &super::bench_search::SearchCostSettings {
                    spaces,
                    strategy: a.strategy,
                    budgets,
                    repeats: a.repeats,
                    target_ms: a.target_ms,
                },
                &a.out.into(),
            )
        }
        Which::Experiments(a) => {
            super::bench_experiments::run_bench(a.cols, a.seed, !a.no_weka, &a.out.into())
        }
        Which::Transfer(a) => {
            let (found, mut gpu_pairs) =
                super::bench_transfer::default_inputs(std::path::Path::new("datasets"));
            let datasets = if a.dataset.is_empty() {
                found
            } else {
                // Only the GPU pairs of the datasets named; on the predicted side too where
                // it names any (h200-nb only against h100-nb when both are named).
                let same = |p: &std::path::Path, q: &std::path::Path| match (
                    p.canonicalize(),
                    q.canonicalize(),
                ) {
                    (Ok(a), Ok(b)) => a == b,
                    _ => p == q,
                };
                let named = |c: &std::path::PathBuf| a.dataset.iter().any(|d| same(c, d));
                for (c, t) in &mut gpu_pairs {
                    c.retain(named);
                    if t.iter().any(named) {
                        t.retain(named);
                    }
                }
                gpu_pairs.retain(|(c, _)| !c.is_empty());
                a.dataset
            };
            super::bench_transfer::run_command(
                &super::bench_transfer::TransferSettings {
                    datasets,
                    gpu_pairs,
                    methods: method_spec(&a.method),
                    view: a.features.into(),
                    step: a.step.into(),
                    folds: a.folds,
                    seed: a.seed,
                },
                &a.out.into(),
            )
        }
    }
}

/// The most values (rows times columns) a synthetic table of `bench models` holds: 800 MB.
const MOST_VALUES: usize = 100_000_000;

fn models(s: &BenchSettings, out: &Output) -> Result<()> {
    if let Some(&n) = s.rows.iter().find(|&&n| n < 2) {
        return Err(Error::Usage(format!(
            "--rows {n}: every size needs at least 2 rows"
        )));
    }
    if s.cols == 0 {
        return Err(Error::Usage("--cols 0: at least 1 feature column".into()));
    }
    if let Some(&n) = s
        .rows
        .iter()
        .find(|&&n| n.checked_mul(s.cols).is_none_or(|v| v > MOST_VALUES))
    {
        return Err(Error::Usage(format!(
            "--rows {n} --cols {}: at most {MOST_VALUES} values in one synthetic table (8 \
             bytes each; the large size is 19200 x 250)",
            s.cols
        )));
    }
    let dir = std::env::temp_dir().join(format!("advise-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
    let weka = if s.weka { Weka::find(&dir) } else { None };
    if s.weka && weka.is_none() {
        note("bench: java, javac or Weka's jar not found; timing advise only");
    }
    let mut methods: Vec<Method> = if s.methods.is_empty() {
        Method::ALL.to_vec()
    } else {
        s.methods.clone()
    };
    // Each method once, in the order first named; repeated sizes are kept (they time again).
    let mut seen = std::collections::HashSet::new();
    methods.retain(|m| seen.insert(*m));
    let bar = super::output::bar("bench models", (s.rows.len() * methods.len()) as u64);
    let mut rows = Vec::new();
    for &n in &s.rows {
        let data = synthetic(n, s.cols, s.seed);
        let name = format!("synthetic {n}x{}", s.cols);
        let reps = match n {
            0..=500 => 5,
            501..=5000 => 2,
            _ => 1,
        };
        let csv = dir.join(format!("synthetic_{n}x{}.csv", s.cols));
        if weka.is_some() {
            write_csv(&data, &csv)?;
        }
        for &method in &methods {
            bar.set_message(format!("{name}: {method}"));
            // A method that needs more rows than a size has (k-NN's k) is said by the size.
            let ours = time_ours(method, &data, reps).map_err(|e| {
                Error::Usage(format!(
                    "--rows {n}: {method} cannot fit {n} rows ({e}); give larger sizes, or \
                     leave {method} out with --method"
                ))
            })?;
            let weka_t = match (&weka, method.weka_class()) {
                (Some(w), Some(class)) => Some(w.time(class, &csv, reps)?),
                _ => None,
            };
            rows.push(BenchRow {
                dataset: name.clone(),
                method,
                reps,
                threads: advise_ml::helper_thread::threads(),
                advise_s: ours.best,
                advise_median_s: ours.median,
                advise_runs: ours.runs,
                weka_s: weka_t.map(|w| w.best),
                weka_median_s: weka_t.map(|w| w.median),
                weka_runs: weka_t.map(|w| w.runs),
                ratio: weka_t.map(|w| w.best / ours.best),
                median_ratio: weka_t.map(|w| w.median / ours.median),
            });
            bar.inc(1);
        }
    }
    bar.finish_and_clear();
    let _ = std::fs::remove_dir_all(&dir);
    if out.json {
        return out.emit_json(&rows);
    }
    let mut t = TextTable::new([
        "dataset",
        "method",
        "threads",
        "advise s",
        "runs",
        "weka s",
        "runs",
        "weka/advise",
        "median ratio",
    ]);
    for r in &rows {
        t.push([
            r.dataset.clone(),
            r.method.to_string(),
            r.threads.to_string(),
            format!("{:.5}", r.advise_s),
            r.advise_runs.to_string(),
            r.weka_s.map_or("-".into(), |w| format!("{w:.5}")),
            r.weka_runs.map_or("-".into(), |n| n.to_string()),
            r.ratio.map_or("-".into(), |x| format!("{x:.1}x")),
            r.median_ratio.map_or("-".into(), |x| format!("{x:.1}x")),
        ]);
    }
    out.emit_table(&t)
}
