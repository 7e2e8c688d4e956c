//! Argument groups and value lists shared by several subcommands. Output flags are named one
//! way everywhere: `-o/--output FILE` for the printed result, `--out-dir DIR` for a folder a
//! command fills (a dataset, a campaign, built binaries, a report, charts); `--json` prints JSON.

use std::path::PathBuf;

use advise::dataset::features::View;
use advise_ml::Method;
use clap::ValueEnum;

use crate::commands::output::Output;

/// `--json` and `-o`, shared by every command that prints a result.
#[derive(Debug, Clone, clap::Args)]
pub struct OutputArgs {
    /// Print machine-readable JSON instead of a table or CSV.
    #[arg(long)]
    pub json: bool,
    /// Write the output to this file instead of standard output. A name ending in `.json`
    /// (or `.json.gz`) writes JSON, as --json does; one ending in `.gz` is compressed.
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
}

impl From<OutputArgs> for Output {
    fn from(a: OutputArgs) -> Self {
        let named_json = a.output.as_ref().is_some_and(|p| {
            let name = p.to_string_lossy().to_ascii_lowercase();
            name.ends_with(".json") || name.ends_with(".json.gz")
        });
        Output {
            json: a.json || named_json,
            path: a.output,
        }
    }
}

/// `--json` alone, for commands whose result is a folder or a summary.
#[derive(Debug, Clone, clap::Args)]
pub struct JsonArg {
    /// Print machine-readable JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

impl From<JsonArg> for Output {
    fn from(a: JsonArg) -> Self {
        Output {
            json: a.json,
            path: None,
        }
    }
}

/// A model of the learning layer, or all of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MethodArg {
    /// Every model below.
    All,
    /// None: only the four baselines (which always run).
    Baselines,
    /// Weka's IBk (k nearest neighbours), exactly.
    Ibk,
    /// Weka's M5P (model tree), exactly.
    M5p,
    /// Weka's LinearRegression (M5 attribute selection), exactly.
    Linear,
    /// A random forest (100 trees).
    Forest,
    /// Gradient-boosted regression trees.
    Gbrt,
    /// k nearest neighbours with inverse-distance weights.
    Knn,
}

impl MethodArg {
    /// The one method this names (`all` names none).
    pub fn method(self) -> Option<Method> {
        match self {
            MethodArg::All | MethodArg::Baselines => None,
            MethodArg::Ibk => Some(Method::Ibk),
            MethodArg::M5p => Some(Method::M5p),
            MethodArg::Linear => Some(Method::Linear),
            MethodArg::Forest => Some(Method::Forest),
            MethodArg::Gbrt => Some(Method::Gbrt),
            MethodArg::Knn => Some(Method::Knn),
        }
    }
}

/// A list of values as the comma list the library reads (`--method a,b`, `--exp 1,2`).
fn spec<T: ValueEnum>(list: &[T]) -> String {
    let names: Vec<String> = list
        .iter()
        .filter_map(|a| a.to_possible_value().map(|v| v.get_name().to_string()))
        .collect();
    names.join(",")
}

/// `--method a,b` as the comma list the experiment layer reads.
pub fn method_spec(list: &[MethodArg]) -> String {
    spec(list)
}

/// An experiment of `advise experiment --exp`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExpArg {
    /// Thesis experiment 1: train on one run of an input, test on all its runs.
    #[value(name = "1")]
    E1,
    /// Thesis experiment 2: train on one run of an input, test on its other runs.
    #[value(name = "2")]
    E2,
    /// Thesis experiment 3: train on two runs of an input, test on the third.
    #[value(name = "3")]
    E3,
    /// Thesis experiment 4: train on one input, test on each other input.
    #[value(name = "4")]
    E4,
    /// Thesis experiment 5: train on BH, test on NB (FTZ and RSQRT).
    #[value(name = "5")]
    E5,
    /// Thesis experiment 6: train on NB, test on BH (FTZ and RSQRT).
    #[value(name = "6")]
    E6,
    /// 1-6 and loio for NB/BH data; kfold, lopo and loio for imported spaces.
    All,
    /// Leave one input out.
    Loio,
    /// Leave one program out (switches matched by optimization family).
    Lopo,
    /// Grouped k-fold (see --folds).
    Kfold,
    /// Each optimization's share of faster pairs and median speedup beside the thesis's K20;
    /// the simulator against the GPU, and one GPU's campaign against another's
    /// (`<gpu>-<program>-<date>` datasets), pair by pair.
    Fidelity,
    /// The STATuner block-size experiment (same as `advise statuner`).
    Statuner,
}

/// `--exp a,b` as the comma list the experiment layer reads.
pub fn exp_spec(list: &[ExpArg]) -> String {
    spec(list)
}

/// The feature view models see.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ViewArg {
    /// Every metric, normalized.
    Counters,
    /// About 30 ratios that mean the same on every GPU, program and data source
    /// (docs/portable-features.md).
    Portable,
    /// Both.
    Both,
}

impl From<ViewArg> for View {
    fn from(v: ViewArg) -> View {
        match v {
            ViewArg::Counters => View::Counters,
            ViewArg::Portable => View::Portable,
            ViewArg::Both => View::Both,
        }
    }
}

/// Whether models also see what a sample's step is (experiment::step_features).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum StepArg {
    /// Counters only.
    Off,
    /// The step features beside the chosen view: log2 of the family's level in the
    /// configuration (threads per block, outputs per thread) and log2 of the step's factor.
    Add,
    /// The step features alone: what is known from the source and launch, no counter.
    Only,
}

impl From<StepArg> for advise::experiment::step_features::Step {
    fn from(v: StepArg) -> Self {
        use advise::experiment::step_features::Step;
        match v {
            StepArg::Off => Step::Off,
            StepArg::Add => Step::Add,
            StepArg::Only => Step::Only,
        }
    }
}

/// NB, BH or both.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ProgramsArg {
    Nb,
    Bh,
    All,
}

impl ProgramsArg {
    pub fn as_str(self) -> &'static str {
        match self {
            ProgramsArg::Nb => "nb",
            ProgramsArg::Bh => "bh",
            ProgramsArg::All => "all",
        }
    }
}

/// NB or BH.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ProgramArg {
    Nb,
    Bh,
}

impl ProgramArg {
    pub fn as_str(self) -> &'static str {
        match self {
            ProgramArg::Nb => "nb",
            ProgramArg::Bh => "bh",
        }
    }
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

/// Training data and model choice, shared by `predict` and `fit`.
#[derive(Debug, Clone, clap::Args)]
pub struct TrainArgs {
    /// The model (Weka's `-t` data goes to --train, its options to --weka-options); needed
    /// unless `predict --model` reads a fitted one.
    #[arg(long, value_enum)]
    pub method: Option<MethodArg>,
    /// Training data: CSV or ARFF (.gz too); Weka's `-t`.
    #[arg(long, short = 't')]
    pub train: Option<PathBuf>,
    /// Target column (name, 1-based number, first or last); default: the last column, as
    /// Weka's `-c last`.
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

/// A kernel source or binary and how to compile it (`static`, `blocksize`).
#[derive(Debug, Clone, clap::Args)]
pub struct CompileArgs {
    /// A .cu file (compiled with nvcc: NVCC or PATH), or an existing .ptx or .cubin.
    pub file: PathBuf,
    /// Target architecture.
    #[arg(long, default_value = "sm_90")]
    pub arch: String,
    /// Extra nvcc flags, e.g. "-use_fast_math".
    #[arg(long, default_value = "", allow_hyphen_values = true)]
    pub nvcc_flags: String,
}

impl CompileArgs {
    pub fn options(&self) -> advise::Result<advise::static_analysis::CompileOptions> {
        advise::static_analysis::CompileOptions::new(&self.arch, &self.nvcc_flags)
    }
}

/// The profiler formats `advise parse` reads.
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

/// The tuners whose recorded spaces `advise import` reads.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ToolArg {
    Ktt,
    KernelTuner,
    /// Tuning results in the T4 format (Kernel Tuner's schema; benchmark_hub's `*_T4.json.gz`).
    T4,
    /// CLBlast's tuner output (`clblast_xgemm_1_32.json`: the configurations that ran, in ms).
    Clblast,
    /// XPlacer-ML-DataPlacement: FILE is one benchmark folder (e.g. benchmarks/hotspot).
    Xplacer,
    /// Whichever of these the file shows: KTT's `Metadata`/`Results`, Kernel Tuner's `cache`,
    /// T4's `results` of `configuration`s, CLBlast's `kernel_family` in its first few kB; a
    /// folder is XPlacer's.
    Auto,
}

/// Which metrics `advise features` divides by active cycles.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum NormalizeArg {
    Units,
    All,
    None,
}
