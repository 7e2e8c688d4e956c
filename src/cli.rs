//! Command-line arguments. clap parses them here and `commands` receives plain settings, so
//! every command can be tested without clap.

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

/// advise tells you, from the hardware counters of one profiled run, which source-code
/// optimizations will speed up your CUDA code, by how much, and how far to trust that.
#[derive(Debug, Parser)]
#[command(name = "advise", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the main job on the real data shipped in the repository and print the results.
    Demo {
        /// Folder with the profiler files to use (default: the repository's tests/fixtures).
        #[arg(long)]
        data: Option<PathBuf>,
        #[command(flatten)]
        out: OutputArgs,
    },
    /// List the 64 variants of NB and/or BH with the optimizations each applies.
    Variants {
        /// nb, bh or all.
        #[arg(long, default_value = "all")]
        program: String,
        #[command(flatten)]
        out: OutputArgs,
    },
    /// Parse ncu or nvprof output into the tidy measurement table
    /// (program,input,run,variant,kernel,launch,invocations,metric,unit,value).
    ///
    /// Reads `ncu --csv` (details page, --metrics, --page raw; any version since 2019) and
    /// `nvprof --csv --metrics/--events` or nvprof's text tables; `.gz` files too; `-` is stdin.
    /// Values are converted to base units (byte, second, hz, ...).
    Parse {
        /// Profiler output files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Force a format instead of detecting it.
        #[arg(long, value_enum, default_value = "auto")]
        format: FormatArg,
        #[command(flatten)]
        label: LabelArgs,
        /// Also write ncu's rule findings (Rule Name, Estimated Speedup, ...) to this CSV.
        #[arg(long)]
        rules: Option<PathBuf>,
        #[command(flatten)]
        out: OutputArgs,
    },
    /// Aggregate measurements per run, normalize counts by active cycles and join timings into
    /// the wide feature table (one row per program, input, run and variant).
    Features {
        /// measurements.csv (from `advise parse` or a campaign).
        #[arg(long)]
        measurements: PathBuf,
        /// timings.csv (program,input,run,variant,time_ms,...); optional.
        #[arg(long)]
        timings: Option<PathBuf>,
        /// Which metrics to divide by active cycles: `units` (counts only, default), `all`
        /// (everything, as the thesis did) or `none`.
        #[arg(long, value_enum, default_value = "units")]
        normalize: NormalizeArg,
        /// Divide by this metric instead of active cycles (e.g. gpu__time_duration.sum for
        /// imported KTT spaces, which record no active cycles).
        #[arg(long)]
        normalizer: Option<String>,
        /// One row per kernel instead of per run.
        #[arg(long)]
        per_kernel: bool,
        /// Keep nvprof metric names instead of translating them to Nsight Compute names.
        #[arg(long)]
        keep_names: bool,
        #[command(flatten)]
        out: OutputArgs,
    },
    /// Build speedup samples for one optimization: the features of every variant without it
    /// and the target T(v) / T(v with it), from a feature table with times.
    Samples {
        /// features.csv from `advise features` (with time_ms filled in).
        #[arg(long)]
        features: PathBuf,
        /// An NB/BH optimization (FTZ, RSQRT, ..., with --program), or a parameter switch
        /// written PARAM:FROM->TO (e.g. READ_ONLY:0->1) for imported spaces.
        #[arg(long)]
        optimization: String,
        /// nb or bh, for NB/BH optimizations.
        #[arg(long)]
        program: Option<String>,
        #[command(flatten)]
        out: OutputArgs,
    },
    /// Convert a real recorded tuning space into a dataset folder (measurements.csv,
    /// timings.csv, switches.csv, PROVENANCE.md).
    ///
    /// `ktt`: Kernel Tuning Toolkit JSON output (with Nsight Compute counters where KTT
    /// profiled). `kernel-tuner`: a Kernel Tuner cache (times only). Each parameter with two
    /// values becomes an on/off switch; each step between neighbouring values of a
    /// many-valued parameter becomes a switch too.
    Import {
        #[arg(value_enum)]
        tool: ToolArg,
        /// The file (.json or .json.gz).
        file: PathBuf,
        /// Dataset folder to write, e.g. datasets/ktt-convolution-2080ti.
        #[arg(long)]
        out: PathBuf,
        /// Print the summary as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Simulate one search strategy on a recorded tuning space and print the best
    /// configuration it found, its time and its fraction of the true optimum.
    ///
    /// Spaces: Kernel Tuner caches (.json/.json.gz, cut-off caches too), KTT JSON output, or
    /// CSV (parameter columns and a time_ms column). Strategies: exhaustive, random, iterml,
    /// shrinking, brt, ga, anneal; settings as NAME:KEY=VALUE,... (iterml:model=cart,
    /// shrinking:k=3,vth=2, brt:hc=25).
    Search {
        /// The recorded space.
        #[arg(long)]
        space: PathBuf,
        #[arg(long)]
        strategy: String,
        /// Evaluations allowed: a count (100) or a share of the space (2%).
        #[arg(long)]
        budget: String,
        #[arg(long, default_value_t = 0)]
        seed: u64,
        #[command(flatten)]
        out: OutputArgs,
    },
    /// Repeat search strategies on recorded spaces and report, per space, strategy and
    /// budget, the median and 5th percentile of the fraction of the optimum found, the
    /// evaluations needed to reach 95% of it, and convergence charts (SVG and PNG).
    SearchBench {
        /// Recorded spaces.
        #[arg(long, required = true, num_args = 1..)]
        space: Vec<PathBuf>,
        /// Comma-separated strategies, or `all`.
        #[arg(long, default_value = "all")]
        strategies: String,
        /// Comma-separated budgets: shares of each space (1%) or counts.
        #[arg(long, default_value = "1%,2%,5%")]
        budgets: String,
        #[arg(long, default_value_t = 100)]
        repeats: usize,
        /// Repeat r runs with seed SEED + r.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Worker threads (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
        /// Folder for the convergence charts.
        #[arg(long, default_value = "reports/search-bench")]
        charts: PathBuf,
        /// Do not draw charts.
        #[arg(long)]
        no_charts: bool,
        #[command(flatten)]
        out: OutputArgs,
    },
    /// Show the nvprof -> Nsight Compute metric-name map.
    MetricMap {
        #[command(flatten)]
        out: OutputArgs,
    },
}

/// `--json` and `-o`, shared by every command.
#[derive(Debug, Clone, clap::Args)]
pub struct OutputArgs {
    /// Print machine-readable JSON instead of a table or CSV.
    #[arg(long)]
    pub json: bool,
    /// Write the output to this file instead of standard output.
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
}

/// Labels for parsed files, which do not know what run they come from.
#[derive(Debug, Clone, clap::Args)]
pub struct LabelArgs {
    /// Program label (NB, BH or any name); default: the file's name.
    #[arg(long)]
    pub program: Option<String>,
    /// Input label, e.g. bodies=50000,steps=2.
    #[arg(long, default_value = "")]
    pub input: String,
    /// Replicate number.
    #[arg(long, default_value_t = 1)]
    pub run: u32,
    /// Variant label: an NB/BH bit string or PARAM=VALUE,... .
    #[arg(long, default_value = "")]
    pub variant: String,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum FormatArg {
    Auto,
    Ncu,
    Nvprof,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ToolArg {
    Ktt,
    KernelTuner,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum NormalizeArg {
    Units,
    All,
    None,
}
