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
    /// Run the thesis's cross-validation experiments (1-6) and more (leave one input out,
    /// leave one program out, k-fold) on a dataset folder, with baselines, 95% intervals and
    /// McNemar tests against the majority rule in every table.
    Experiment {
        /// Dataset folder (measurements.csv(.gz), timings.csv, and switches.csv for imports).
        #[arg(long)]
        dataset: PathBuf,
        /// 1-6, all, loio, lopo, kfold, or a comma list. `all`: 1-6 and loio for NB/BH data;
        /// kfold, lopo and loio for imported spaces.
        #[arg(long, default_value = "all")]
        exp: String,
        /// Methods (comma list) or `all`; the four baselines always run.
        #[arg(long, default_value = "all")]
        method: String,
        /// Program of experiments 1-4 and loio (default BH, or the only program).
        #[arg(long)]
        program: Option<String>,
        /// Only the folds that train on this run (experiments 1, 2).
        #[arg(long)]
        train_run: Option<u32>,
        /// Only the folds that train on this input label (experiment 4).
        #[arg(long)]
        train_input: Option<String>,
        /// Number of folds of `kfold`.
        #[arg(long, default_value_t = 10)]
        folds: usize,
        /// Seed of every random step (fold shuffles, bootstrap, random baseline).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Half-width of the "no clear effect" band around a speedup of 1.0.
        #[arg(long, default_value_t = 0.02)]
        band: f64,
        /// Write report.md, index.html, results.json and charts here.
        #[arg(long)]
        out: Option<PathBuf>,
        #[arg(long)]
        json: bool,
    },
    /// Explain an optimization in plain words: what it does, which counters point to it, how
    /// to apply it (flag or before/after CUDA), its risks and where to read more.
    Explain {
        /// FTZ, RSQRT, CONST, PEEL, SHMEM, UNROLL, VOTE, WARP, SORT, VOLA, or a tuning
        /// switch such as READ_ONLY:0->1.
        name: Option<String>,
        /// Every entry of the catalogue.
        #[arg(long)]
        all: bool,
        #[command(flatten)]
        out: OutputArgs,
    },
    /// Static metrics of every kernel of a .cu, .ptx or .cubin file (STATuner's eight, plus
    /// special-function, shuffle, vote, atomic, local and constant counts from PTX and SASS)
    /// and the optimizations it already applies, with evidence.
    Static {
        /// A .cu file (compiled with nvcc: NVCC or PATH), or an existing .ptx or .cubin.
        file: PathBuf,
        /// Target architecture.
        #[arg(long, default_value = "sm_90")]
        arch: String,
        /// Extra nvcc flags, e.g. "-use_fast_math".
        #[arg(long, default_value = "", allow_hyphen_values = true)]
        nvcc_flags: String,
        /// A second version: report the instruction-mix differences of B against A.
        #[arg(long)]
        compare: Option<PathBuf>,
        #[arg(long)]
        json: bool,
    },
    /// Recommend a block size for each kernel of a file (STATuner's SVM on static metrics)
    /// beside the occupancy calculator's choices.
    Blocksize {
        file: PathBuf,
        #[arg(long, default_value = "sm_90")]
        arch: String,
        #[arg(long, default_value = "", allow_hyphen_values = true)]
        nvcc_flags: String,
        /// Block-size dataset folder (default: the repository's datasets/blocksize).
        #[arg(long)]
        dataset: Option<PathBuf>,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long)]
        json: bool,
    },
    /// The STATuner experiment: leave-one-kernel-out block-size prediction on real tuning
    /// spaces, error T(chosen)/T(best) - 1 for the SVM, a ranking model and the baselines.
    Statuner {
        /// Block-size dataset folder (default: the repository's datasets/blocksize).
        #[arg(long)]
        dataset: Option<PathBuf>,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Rebuild the dataset first from a folder of Kernel Tuner caches
        /// (<kernel>__<GPU>.json.gz); needs nvcc.
        #[arg(long)]
        build_dataset: Option<PathBuf>,
        #[arg(long)]
        json: bool,
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
