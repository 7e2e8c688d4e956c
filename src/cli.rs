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
    /// Show the nvprof -> Nsight Compute metric-name map.
    MetricMap {
        #[command(flatten)]
        out: OutputArgs,
    },
    /// Compile the NB/BH variants with nvcc ($NVCC or PATH), in parallel.
    Build(BuildArgs),
    /// Verify, time and profile variants into a campaign folder (resumable, shardable).
    Collect(CollectArgs),
    /// Join shard folders of a campaign without duplicates.
    Merge(MergeArgs),
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
pub enum NormalizeArg {
    Units,
    All,
    None,
}

/// `advise build`.
#[derive(Debug, Clone, clap::Args)]
pub struct BuildArgs {
    /// nb, bh or all.
    #[arg(long, default_value = "all")]
    pub program: String,
    /// GPU architecture for nvcc -arch.
    #[arg(long, default_value = "sm_90")]
    pub arch: String,
    /// Parallel nvcc processes (default: the number of CPUs).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Build folder; binaries go to OUT/nb/nb_BITS and OUT/bh/bh_BITS.
    #[arg(long, default_value = "build/variants")]
    pub out: PathBuf,
    /// The repository's variants/ folder (CUDA sources).
    #[arg(long, default_value = "variants")]
    pub variants_dir: PathBuf,
    /// Only these bit strings (comma-separated), e.g. 000000,000101.
    #[arg(long)]
    pub variants: Option<String>,
    /// Rebuild binaries that are newer than their sources too.
    #[arg(long)]
    pub force: bool,
    /// Print {"variants": [{"program","variant","ok","path","error"}]}.
    #[arg(long)]
    pub json: bool,
}

/// `advise collect`.
#[derive(Debug, Clone, clap::Args)]
pub struct CollectArgs {
    /// nb or bh.
    #[arg(long)]
    pub program: String,
    /// `thesis` (Table 4.2) or BODIES:STEPS,... (e.g. 50000:2,1M:10).
    #[arg(long, default_value = "thesis")]
    pub inputs: String,
    /// Replicates per (variant, input).
    #[arg(long, default_value_t = 3)]
    pub runs: u32,
    /// Timed repetitions per run (the median is the run's time).
    #[arg(long, default_value_t = 3)]
    pub reps: u32,
    /// Untimed repetitions per input before the first run.
    #[arg(long, default_value_t = 1)]
    pub warmup: u32,
    /// Seed of the generated input.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Only these bit strings (comma-separated).
    #[arg(long)]
    pub variants: Option<String>,
    /// K/N: run every N-th job starting with the K-th, into OUT/shard-K-of-N.
    #[arg(long)]
    pub shard: Option<String>,
    /// Continue a campaign: skip finished jobs, retry failed ones.
    #[arg(long)]
    pub resume: bool,
    /// Campaign folder, e.g. datasets/h100-2025.
    #[arg(long)]
    pub out: PathBuf,
    /// Where `advise build` put the binaries.
    #[arg(long, default_value = "build/variants")]
    pub bin_dir: PathBuf,
    /// ncu metric list (one per line, reasons after #).
    #[arg(long, default_value = "variants/metrics.txt")]
    pub metrics: PathBuf,
    /// Time only; do not run ncu.
    #[arg(long)]
    pub no_profile: bool,
    /// Time steps ncu profiles per input (from the first).
    #[arg(long, default_value_t = 1)]
    pub profile_steps: u32,
    /// Profiled runs per (variant, input); the thesis profiled all 3.
    #[arg(long, default_value_t = 1)]
    pub profile_runs: u32,
    /// Largest relative difference of a checksum from the baseline's (default 1e-4 NB, 1e-3 BH).
    #[arg(long)]
    pub tolerance: Option<f64>,
    /// Seconds one program or ncu process may run.
    #[arg(long, default_value_t = 540)]
    pub timeout: u64,
    /// Most inputs one process runs.
    #[arg(long, default_value_t = 16)]
    pub batch_inputs: usize,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
}

/// `advise merge`.
#[derive(Debug, Clone, clap::Args)]
pub struct MergeArgs {
    /// Shard folders (e.g. datasets/c/shard-*).
    #[arg(required = true)]
    pub shards: Vec<PathBuf>,
    /// The merged campaign folder.
    #[arg(long)]
    pub out: PathBuf,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
}
