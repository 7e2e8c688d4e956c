//! The command line: one subcommand per file of `commands/`, each with its `Args` beside it;
//! argument groups shared by several live in `args`.

use clap::{Parser, Subcommand};

use crate::commands::*;

/// advise tells you, from the hardware counters of one profiled run, which source-code
/// optimizations will speed up your CUDA code, by how much, and how far to trust that.
#[derive(Debug, Parser)]
#[command(name = "advise", version = VERSION, about, long_about = None)]
pub struct Cli {
    /// No notes or progress bars on standard error (results and errors still appear).
    #[arg(long, short, global = true)]
    pub quiet: bool,
    #[command(subcommand)]
    pub command: Command,
}

/// The version and the git revision it was built from (build.rs).
pub const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (", env!("ADVISE_GIT_REV"), ")");

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the main job on the data shipped in the repository: the thesis's experiments on the
    /// simulated NB/BH campaign, then those the measured H200/H100 NB/BH campaigns allow, then
    /// every method against the baselines on the real KTT spaces; writes reports/demo/ (or
    /// --out-dir).
    Demo(demo::Args),
    /// List the 64 variants of NB and/or BH with the optimizations each applies.
    Variants(variants::Args),
    /// Parse ncu, nvprof or GPGPU-Sim output into the tidy measurement table
    /// (program,input,run,variant,kernel,launch,invocations,metric,unit,value).
    ///
    /// Reads `ncu --csv` (details page, --metrics, --page raw, --print-summary per-kernel; any
    /// version since 2019), `nvprof --csv --metrics/--events` or nvprof's text tables, and
    /// GPGPU-Sim logs; gzip or bzip2 files too; `-` is stdin. Values are converted to base units.
    Parse(parse::Args),
    /// Aggregate measurements per run, normalize counts by active cycles and join timings into
    /// the wide feature table (one row per program, input, run and variant).
    Features(features::Args),
    /// Build speedup samples for one optimization: the features of every variant without it
    /// and the target T(v) / T(v with it), from a feature table with times.
    Samples(samples::Args),
    /// Convert a real recorded tuning space into a dataset folder (measurements.csv.gz,
    /// timings.csv, switches.csv, PROVENANCE.md; device.json where the GPU's compute
    /// capability or host link is known; the source's own provenance and licence where it has
    /// them).
    ///
    /// `ktt`: Kernel Tuning Toolkit JSON output (with Nsight Compute counters where KTT
    /// profiled). `kernel-tuner`: a Kernel Tuner cache (times, and the counters of its
    /// NCUObserver or RegisterObserver if it ran one), or the results list `tune_kernel`
    /// returns, saved as JSON (alone or as `[results, env]`). `t4`: tuning results in the T4 format
    /// (Kernel Tuner's schema; benchmark_hub's `*_T4.json.gz`; KTT's converter's, whose time is
    /// the objective `TotalDuration`). `clblast`: CLBlast's tuner output
    /// (`clblast_xgemm_1_32.json`: the configurations that ran, times only). Each parameter with two
    /// values becomes an on/off switch; each step between neighbouring values of a
    /// many-valued parameter becomes a switch too. `xplacer`: one benchmark folder of
    /// XPlacer-ML-DataPlacement (unified-memory placement variants with the baseline's Nsight
    /// Compute sections); each object's policy 0 -> p is a switch. `auto`: whichever of these
    /// the file's first few kB show (a folder: `xplacer`), said on standard error.
    Import(import::Args),
    /// Run the thesis's cross-validation experiments (1-6) and more (leave one input out,
    /// leave one program out, k-fold, simulator fidelity) on dataset folders, with baselines,
    /// 95% intervals and McNemar tests against the majority rule in every table.
    Experiment(experiment::Args),
    /// Explain an optimization in plain words: what it does, which counters point to it, how
    /// to apply it (flag or before/after CUDA), its risks and where to read more.
    Explain(explain::Args),
    /// Compile the NB/BH variants with nvcc ($NVCC or PATH), in parallel.
    Build(build::Args),
    /// Verify, time and profile variants into a campaign folder (resumable, shardable), on a
    /// GPU with Nsight Compute or without one under GPGPU-Sim.
    Collect(collect::Args),
    /// Join shard folders of a campaign without duplicates.
    Merge(merge::Args),
    /// Simulate one search strategy on a recorded tuning space and print the best
    /// configuration it found, its time and its fraction of the true optimum.
    Search(search::Args),
    /// Repeat search strategies on recorded spaces and report, per space, strategy and
    /// budget, the median and 5th percentile of the fraction of the optimum found, the
    /// evaluations needed to reach 95% of it, and convergence charts (SVG and PNG).
    ///
    /// Beside the median and the 5th percentile it prints the range that holds the true one
    /// with 95% confidence, from the runs' order statistics whatever their distribution (the
    /// JSON's `median_interval` and `p5_interval`): a 5th percentile of 100 runs lies between
    /// the smallest and the 11th smallest of them, so two strategies whose ranges overlap are
    /// not told apart by that many repeats.
    ///
    /// Where a Kernel Tuner cache keeps each configuration's runs, the report also says how
    /// noisy its fastest times are (the standard error of their means, relative to them, in
    /// the JSON's `spaces`); a space where that is 1% or more is named beside the results, as
    /// closer fractions of the optimum are not told apart there.
    SearchBench(search_bench::Args),
    /// How a recorded space looks to local search: its local minima, the share of descents
    /// (steepest, over single-parameter changes) that end at a given fraction of the optimum
    /// from any start and from the fastest configurations, its largest basins and how often a
    /// jump of two changes leaves a slow one, and, with --by, which parameter values a good
    /// descent starts from. It tells a space where every local search is a coin toss from one
    /// where a strategy is to blame.
    SearchLandscape(search_landscape::Args),
    /// Train an advisor: per optimization a model (IBk by default) on datasets' speedup
    /// samples, validated on grouped folds against the baselines, with calibrated confidence.
    Train(advisor::TrainArgs),
    /// Rank the optimizations an advisor knows for a profiled program (an ncu CSV, nvprof
    /// output or a GPGPU-Sim log), with
    /// predicted speedups, confidence and the reasons.
    Suggest(suggest::SuggestArgs),
    /// Profile a program with ncu ($NCU or PATH) and print the suggestions. The program and
    /// its arguments follow `--` and reach it unchanged (no shell).
    Profile(suggest::ProfileArgs),
    /// Static metrics of every kernel of a .cu, .ptx or .cubin file (STATuner's eight, plus
    /// special-function, shuffle, vote, atomic, local and constant counts from PTX and SASS)
    /// and the optimizations it already applies, with evidence, or gives nothing to apply to.
    Static(static_cmd::Args),
    /// Recommend a block size for each kernel of a file (STATuner's SVM on static metrics)
    /// beside the occupancy calculator's choices.
    Blocksize(blocksize::Args),
    /// The STATuner experiment: leave-one-kernel-out block-size prediction on real tuning
    /// spaces, error T(chosen)/T(best) - 1 for the SVM, a ranking model and the baselines.
    Statuner(statuner::Args),
    /// Show the nvprof -> Nsight Compute metric-name map (or GPGPU-Sim's with --gpgpu-sim).
    MetricMap(metric_map::Args),
    /// Fit a model on TRAIN and print one prediction per TEST row (full precision, in order),
    /// or cross-validate TRAIN as Weka's `-x K -s S` does (the default without --test, as
    /// Weka does). TRAIN/TEST are CSV or ARFF.
    ///
    /// ibk, m5p and linear reproduce Weka 3.6.14's IBk, M5P and LinearRegression exactly.
    /// Weka's habits: `-t TRAIN` = --train, `-T TEST` = --test, `-x K` = --cv K, `-s S` =
    /// --seed S, class options = --weka-options "...". `-o FILE` writes CSV: the test columns
    /// plus `predicted`.
    Predict(predict::Args),
    /// Fit a model and write it as JSON (`-o model.json`) for `advise predict --model`.
    Fit(fit::Args),
    /// Benchmarks that print ratios: models against Weka, the thesis's experiments, and how
    /// well advice transfers between programs, GPUs and data sources.
    #[command(subcommand)]
    Bench(bench::Which),
    /// Print a shell completion script: `advise completions bash > /etc/bash_completion.d/advise`.
    Completions(completions::Args),
    /// Print the manual page (roff): `advise man > advise.1 && man ./advise.1`.
    Man,
}

impl Command {
    /// The result file options of a command with `-o`, and whether a `.csv` name there gets
    /// CSV: commands whose result is one table do; the rest write a text report or JSON and
    /// refuse a `.csv` name before any work. `None`: no such `-o` (`train` writes its advisor
    /// there, named as the user likes).
    pub fn result_file(&self) -> Option<(&crate::args::OutputArgs, bool)> {
        use bench::Which;
        match self {
            Command::Variants(a) => Some((&a.out, true)),
            Command::Parse(a) => Some((&a.out, true)),
            Command::Features(a) => Some((&a.out, true)),
            Command::Samples(a) => Some((&a.out, true)),
            Command::Predict(a) => Some((&a.out, true)),
            Command::MetricMap(a) => Some((&a.out, true)),
            Command::Bench(Which::Models(a)) => Some((&a.out, true)),
            Command::Bench(Which::Experiments(a)) => Some((&a.out, false)),
            Command::Bench(Which::Transfer(a)) => Some((&a.out, false)),
            Command::Bench(Which::Search(a)) => Some((&a.out, false)),
            Command::Demo(a) => Some((&a.out, false)),
            Command::Explain(a) => Some((&a.out, false)),
            Command::Fit(a) => Some((&a.out, false)),
            Command::Search(a) => Some((&a.out, false)),
            Command::SearchBench(a) => Some((&a.out, false)),
            Command::SearchLandscape(a) => Some((&a.out, false)),
            Command::Suggest(a) => Some((&a.options.out, false)),
            Command::Profile(a) => Some((&a.options.out, false)),
            Command::Import(_)
            | Command::Experiment(_)
            | Command::Build(_)
            | Command::Collect(_)
            | Command::Merge(_)
            | Command::Train(_)
            | Command::Static(_)
            | Command::Blocksize(_)
            | Command::Statuner(_)
            | Command::Completions(_)
            | Command::Man => None,
        }
    }

    /// A usage error where `-o` names a CSV file the command cannot write, or `--json` and a
    /// `.csv` name ask for two formats; said before any work.
    pub fn check_result_file(&self) -> advise::Result<()> {
        let Some((out, csv)) = self.result_file() else {
            return Ok(());
        };
        let Some(path) = &out.output else {
            return Ok(());
        };
        let name = path.to_string_lossy().to_ascii_lowercase();
        if !(name.ends_with(".csv") || name.ends_with(".csv.gz")) {
            return Ok(());
        }
        let problem = if matches!(self, Command::Fit(_)) {
            "fit writes the model as JSON, whatever the name; name a .json file"
        } else if !csv {
            "this command's result is a text report or JSON, not one table, so it has no CSV \
             form; name a .txt file, or a .json file for JSON"
        } else if out.json {
            "--json asks for JSON and the name for CSV; drop --json, or name a .json file"
        } else {
            return Ok(());
        };
        Err(advise::Error::Usage(format!(
            "-o {}: {problem}",
            path.display()
        )))
    }

    /// Runs the command.
    pub fn run(self) -> advise::Result<()> {
        match self {
            Command::Demo(a) => demo::run(a),
            Command::Variants(a) => variants::run(a),
            Command::Parse(a) => parse::run(a),
            Command::Features(a) => features::run(a),
            Command::Samples(a) => samples::run(a),
            Command::Import(a) => import::run(a),
            Command::Experiment(a) => experiment::run(a),
            Command::Explain(a) => explain::run(a),
            Command::Build(a) => build::run(a),
            Command::Collect(a) => collect::run(a),
            Command::Merge(a) => merge::run(a),
            Command::Search(a) => search::run(a),
            Command::SearchBench(a) => search_bench::run(a),
            Command::SearchLandscape(a) => search_landscape::run(a),
            Command::Train(a) => advisor::train(a),
            Command::Suggest(a) => suggest::suggest(a),
            Command::Profile(a) => suggest::profile(a),
            Command::Static(a) => static_cmd::run(a),
            Command::Blocksize(a) => blocksize::run(a),
            Command::Statuner(a) => statuner::run(a),
            Command::MetricMap(a) => metric_map::run(a),
            Command::Predict(a) => predict::run(a),
            Command::Fit(a) => fit::run(a),
            Command::Bench(w) => bench::run(w),
            Command::Completions(a) => completions::run(a),
            Command::Man => completions::man(),
        }
    }
}
