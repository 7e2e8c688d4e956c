//! Command-line arguments. clap parses them here and `commands` receives plain settings, so
//! every command can be tested without clap.

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

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
    /// Print a shell completion script: `advise completions bash > /etc/bash_completion.d/advise`.
    Completions {
        /// bash, zsh, fish, elvish or powershell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff): `advise man > advise.1 && man ./advise.1`.
    Man,
    /// Run the main job on the real data shipped in the repository: validate every method
    /// against the baselines on the KTT spaces in datasets/ and write reports/demo/.
    Demo {
        /// Methods to validate (comma list) or `all`; the baselines always run.
        #[arg(long, default_value = "all")]
        method: String,
        /// Seed of every random step.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Instead: parse the real profiler files in tests/fixtures and print the features.
        #[arg(long)]
        fixtures: bool,
        /// Folder of profiler files for --fixtures.
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
        #[arg(long, required_unless_present = "formulas")]
        measurements: Option<PathBuf>,
        /// Print the portable view's formulas per data source (Markdown) and the optimization
        /// families, then exit.
        #[arg(long)]
        formulas: bool,
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
        /// Columns: `counters` (every metric, normalized), `portable` (about 30 ratios that
        /// mean the same on every GPU, program and source; docs/portable-features.md) or
        /// `both`.
        #[arg(long, default_value = "counters")]
        view: String,
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
        /// Dataset folder (measurements.csv(.gz), timings.csv, and switches.csv for imports);
        /// repeat it to pool several (e.g. two imported programs for lopo). For
        /// `--exp statuner`: the block-size dataset (default datasets/blocksize).
        #[arg(long)]
        dataset: Vec<PathBuf>,
        /// 1-6, all, loio, lopo, kfold, or a comma list. `all`: 1-6 and loio for NB/BH data;
        /// kfold, lopo and loio for imported spaces. `statuner`: the block-size experiment of
        /// seed 002 (same as `advise statuner`).
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
        /// Feature view: `counters` (every metric), `portable` (ratios that mean the same
        /// on every GPU, program and source) or `both`.
        #[arg(long, default_value = "counters")]
        features: String,
        /// Folds of `kfold`: a number K (grouped: samples of one program, input and
        /// configuration family never sit on both sides), `ungrouped:K` (samples shuffled one
        /// by one, which leaks), or `weka` / `weka:K` (exactly Weka's `-x K -s SEED` layout).
        #[arg(long, default_value = "10")]
        folds: String,
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
    /// Compile the NB/BH variants with nvcc ($NVCC or PATH), in parallel.
    Build(BuildArgs),
    /// Verify, time and profile variants into a campaign folder (resumable, shardable).
    Collect(CollectArgs),
    /// Join shard folders of a campaign without duplicates.
    Merge(MergeArgs),
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
    /// Train an advisor: per optimization a model (IBk by default) on a dataset's speedup
    /// samples, with its cross-validated accuracy against the majority rule.
    Train {
        /// Dataset folder(s); several are pooled.
        #[arg(long, required = true)]
        dataset: Vec<PathBuf>,
        /// ibk, m5p, linear, forest, gbrt or knn (the second opinion is M5P, or IBk for m5p).
        #[arg(long, default_value = "ibk")]
        method: String,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// At most this many samples per optimization (seeded subsample).
        #[arg(long, default_value_t = 600)]
        max_samples: usize,
        /// Feature view: `counters`, `portable` or `both` (see `advise features --view`).
        #[arg(long, default_value = "portable")]
        features: String,
        /// The advisor file to write (`.json` or `.json.gz`).
        #[arg(short = 'o', long = "output")]
        output: PathBuf,
    },
    /// Rank the optimizations an advisor knows for a profiled program (an ncu CSV), with
    /// predicted speedups, confidence and the reasons.
    Suggest {
        /// The advisor (default: models/default.advisor.json.gz or $ADVISE_MODEL).
        #[arg(long)]
        model: Option<PathBuf>,
        /// ncu --csv output of the program (raw page or details).
        #[arg(long)]
        ncu_csv: PathBuf,
        /// Only kernels whose name matches this regular expression.
        #[arg(long)]
        kernel: Option<String>,
        /// Optimizations the code already applies (comma list); they are not suggested.
        #[arg(long, value_delimiter = ',')]
        applied: Vec<String>,
        /// The program's .cu, .ptx or .cubin: optimizations detected in it (FTZ, RSQRT, SHMEM,
        /// CONST, VOTE; `advise static`) count as applied.
        #[arg(long)]
        source: Option<PathBuf>,
        /// Also write a report for non-experts: DIR/index.html (self-contained) and report.md.
        #[arg(long)]
        report: Option<PathBuf>,
        /// Besides the whole program, suggest for each kernel on its own.
        #[arg(long)]
        per_kernel: bool,
        #[command(flatten)]
        out: OutputArgs,
    },
    /// Profile a program with ncu ($NCU or PATH) and print the suggestions. The program and
    /// its arguments follow `--` and reach it unchanged (no shell).
    Profile {
        #[arg(long)]
        model: Option<PathBuf>,
        /// Only kernels whose name matches this regular expression.
        #[arg(long)]
        kernel: Option<String>,
        #[arg(long, value_delimiter = ',')]
        applied: Vec<String>,
        /// The program's .cu, .ptx or .cubin, for applied-optimization detection.
        #[arg(long)]
        source: Option<PathBuf>,
        /// Also write a report for non-experts: DIR/index.html (self-contained) and report.md.
        #[arg(long)]
        report: Option<PathBuf>,
        /// Besides the whole program, suggest for each kernel on its own.
        #[arg(long)]
        per_kernel: bool,
        /// Folder for ncu's raw CSV (kept).
        #[arg(long, default_value = "advise-profile")]
        dir: PathBuf,
        #[command(flatten)]
        out: OutputArgs,
        /// The program and its arguments.
        #[arg(last = true, required = true)]
        app: Vec<String>,
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
    /// Show the nvprof -> Nsight Compute metric-name map (or GPGPU-Sim's with --gpgpu-sim).
    MetricMap {
        /// The GPGPU-Sim statistics that advise records under Nsight Compute names.
        #[arg(long)]
        gpgpu_sim: bool,
        #[command(flatten)]
        out: OutputArgs,
    },
    /// Fit a model on TRAIN and print one prediction per TEST row (full precision, in order),
    /// or cross-validate TRAIN as Weka's `-x K -s S` does. TRAIN/TEST are CSV or ARFF.
    ///
    /// ibk, m5p and linear reproduce Weka 3.6.14's IBk, M5P and LinearRegression exactly.
    /// `-o FILE` writes CSV: the test columns plus `predicted`.
    Predict {
        #[command(flatten)]
        train: TrainArgs,
        /// Rows to predict (CSV or ARFF with the training columns; the target may be absent).
        #[arg(long)]
        test: Option<PathBuf>,
        /// A model saved by `advise fit` instead of --train.
        #[arg(long)]
        model: Option<PathBuf>,
        /// K-fold cross-validation of --train instead of --test; rows printed in file order.
        #[arg(long)]
        cv: Option<usize>,
        /// Seed of the cross-validation shuffle (Weka's -s).
        #[arg(long, default_value_t = 1)]
        seed: i64,
        #[command(flatten)]
        out: OutputArgs,
    },
    /// Fit a model and write it as JSON (`-o model.json`) for `advise predict --model`.
    Fit {
        #[command(flatten)]
        train: TrainArgs,
        #[command(flatten)]
        out: OutputArgs,
    },
    /// Time fit + predict of every model on seeded synthetic data, against Weka when installed.
    Bench {
        /// What to benchmark: `models`.
        #[arg(value_enum)]
        what: BenchWhat,
        /// Dataset sizes (rows), comma-separated.
        #[arg(long, value_delimiter = ',', default_value = "192,1920")]
        rows: Vec<usize>,
        /// Feature columns.
        #[arg(long, default_value_t = 250)]
        cols: usize,
        /// Seed of the synthetic data.
        #[arg(long, default_value_t = 1)]
        seed: i64,
        /// Skip the Weka comparison.
        #[arg(long)]
        no_weka: bool,
        /// `transfer`: datasets with counters (repeatable; default: every such folder of
        /// datasets/). GPU pairs (counters on one GPU, times on another) are found by name.
        #[arg(long)]
        dataset: Vec<PathBuf>,
        /// `transfer`: methods (comma list) or `all`.
        #[arg(long, default_value = "all")]
        method: String,
        /// `transfer`: feature view, `counters`, `portable` or `both`.
        #[arg(long, default_value = "portable")]
        features: String,
        /// `transfer`: folds of grouped k-fold and leave one GPU out.
        #[arg(long, default_value_t = 10)]
        folds: usize,
        #[command(flatten)]
        out: OutputArgs,
    },
}

/// Training data and model choice, shared by `predict` and `fit`.
#[derive(Debug, Clone, clap::Args)]
pub struct TrainArgs {
    /// ibk, m5p, linear, forest, gbrt or knn.
    #[arg(long)]
    pub method: Option<String>,
    /// Training data: CSV or ARFF (.gz too).
    #[arg(long)]
    pub train: Option<PathBuf>,
    /// Target column (name, 1-based number, first or last); default: the last column.
    #[arg(long)]
    pub target: Option<String>,
    /// Columns to leave out (names or 1-based numbers, comma-separated).
    #[arg(long, value_delimiter = ',')]
    pub ignore: Vec<String>,
    /// Weka's options for the method, e.g. "-K 3" (IBk: -K -I -F -X -E -W; M5P: -N -U -R -M;
    /// LinearRegression: -S -C -R).
    #[arg(long, allow_hyphen_values = true)]
    pub weka_options: Option<String>,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum BenchWhat {
    /// Fit + predict of every model on synthetic data, against Weka where installed.
    Models,
    /// The six thesis experiments, all methods, on a synthetic campaign of the thesis's size.
    Experiments,
    /// Whether advice carries over: grouped k-fold, leave one program out, leave one GPU out
    /// and simulator <-> hardware on the project's real and simulated datasets.
    Transfer,
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
    /// A GPGPU-Sim log (simulated statistics).
    GpgpuSim,
}

/// Where `advise collect` runs the variants.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BackendArg {
    Ncu,
    GpgpuSim,
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
    /// Leave out variants with any of these optimizations (comma-separated), e.g. FTZ.
    #[arg(long)]
    pub without: Option<String>,
    /// Build for GPGPU-Sim: PTX only for --arch's virtual architecture (use --arch sm_70
    /// for the Volta configurations) and a dynamically linked CUDA runtime.
    #[arg(long)]
    pub for_simulator: bool,
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
    /// Replicates per (variant, input) (default 3 with ncu). Under the deterministic
    /// simulator a replicate is a new instance of the input: run r uses seed --seed + r - 1
    /// (default 1 run).
    #[arg(long)]
    pub runs: Option<u32>,
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
    /// Leave out variants with any of these optimizations (comma-separated), e.g. FTZ,
    /// which GPGPU-Sim's PTX-level timing cannot tell apart.
    #[arg(long)]
    pub without: Option<String>,
    /// Where the runs happen: `ncu` (a GPU: times with CUDA events, counters from Nsight
    /// Compute) or `gpgpu-sim` (no GPU: GPGPU-Sim simulates each run; needs GPGPUSIM_ROOT
    /// and CUDA_INSTALL_PATH; times and counters are simulated).
    #[arg(long, value_enum, default_value = "ncu")]
    pub backend: BackendArg,
    /// GPGPU-Sim configuration: a name under the simulator's configs/tested-cfgs (e.g.
    /// SM7_QV100) or a folder with gpgpusim.config.
    #[arg(long, default_value = "SM7_QV100")]
    pub sim_config: String,
    /// Override a configuration option, KEY=VALUE (repeatable), e.g. gpgpu_n_clusters=8.
    #[arg(long = "sim-set")]
    pub sim_set: Vec<String>,
    /// Simulations run at once (gpgpu-sim backend; each uses one core).
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// K/N: run every N-th job starting with the K-th, into OUT/shard-K-of-N.
    #[arg(long)]
    pub shard: Option<String>,
    /// Continue a campaign: skip finished jobs, retry failed ones.
    #[arg(long)]
    pub resume: bool,
    /// Campaign folder, e.g. datasets/h100-2025.
    #[arg(long)]
    pub out: PathBuf,
    /// Where `advise build` put the binaries (the gpgpu-sim backend builds missing ones
    /// there with --for-simulator).
    #[arg(long, default_value = "build/variants")]
    pub bin_dir: PathBuf,
    /// The repository's variants/ folder (CUDA sources).
    #[arg(long, default_value = "variants")]
    pub variants_dir: PathBuf,
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
    /// Seconds one program, ncu or simulator process may run (default 540; 21600 for
    /// gpgpu-sim).
    #[arg(long)]
    pub timeout: Option<u64>,
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
