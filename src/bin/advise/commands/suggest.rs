//! `advise suggest` and `advise profile`: turn a profile (an ncu CSV, or a program profiled on
//! the spot) into ranked suggestions with an advisor `advise train` wrote.

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::advisor::default_model;
use super::output::{note, Output};
use super::suggest_inputs::{
    given_host_link, known_names, launch_of, leave_out, levels_of, source_checks,
};
use crate::args::OutputArgs;
use advise::dataset::host_link::HostLink;
use advise::dataset::measurements::{rows_of, RunKey};
use advise::error::{Error, Result};
use advise::harness::profile_app::{kernel_pattern, ProfileRequest};
use advise::profile::{parse_path, FormatChoice};
use advise::recommend::bundle::Advisor;
use advise::recommend::suggest::{
    self as suggesting, profile_features, ProfileSummary, Suggestion,
};
use advise::report::advice_text;

/// What `suggest` and `profile` share.
#[derive(Debug, Clone, clap::Args)]
pub struct SuggestOptions {
    /// The advisor (default: $ADVISE_MODEL or models/default.advisor.json.gz).
    #[arg(long)]
    pub model: Option<PathBuf>,
    /// Only kernels whose name matches this regular expression (ncu's `regex:...` form too).
    #[arg(long, short = 'k')]
    pub kernel: Option<String>,
    /// Optimizations the code already applies (comma list of whole names); they are not
    /// suggested.
    #[arg(long, value_delimiter = ',')]
    pub applied: Vec<String>,
    /// The program's .cu, .ptx or .cubin: optimizations detected in it (FTZ, RSQRT, SHMEM,
    /// CONST, VOTE; `advise static`) count as applied, and those it gives nothing to apply to
    /// (RSQRT where no kernel has a square root) are left out too.
    #[arg(long)]
    pub source: Option<PathBuf>,
    /// Also write a report for non-experts: DIR/index.html (self-contained) and report.md.
    #[arg(long = "report-dir", alias = "report")]
    pub report: Option<PathBuf>,
    /// Besides the whole program, suggest for each kernel on its own.
    #[arg(long)]
    pub per_kernel: bool,
    /// Where the code stands in a many-valued family, FAMILY=VALUE (comma list):
    /// `BLOCK_SIZE=256` (threads per block; read from the profile's launch__block_size when
    /// every launch has the same), `TILE_SIZE=4` (outputs per thread), `UNROLL=2`. With it,
    /// the family's step model predicts one doubling where it validated better across
    /// programs than the counter model.
    #[arg(long, value_delimiter = ',')]
    pub level: Vec<String>,
    /// The GPU's compute capability (`7.5`, `sm_75`) or name (`RTX 2080 Ti`), where the
    /// profile does not give it (Nsight Compute's device__attribute_compute_capability_*):
    /// with the profile's registers per thread, the block-size step model then knows what a
    /// step does to theoretical occupancy.
    #[arg(long)]
    pub gpu: Option<String>,
    /// How the GPU is attached to its host, where the profile does not show it (a details
    /// page, an older Nsight Compute): `pcie` (a discrete GPU in an x86 server) or `coherent`
    /// (NVLink with address translation, as IBM POWER9 systems; NVLink-C2C, as Grace
    /// Hopper). Unified-memory advice depends on it; without either, PCIe is assumed.
    #[arg(long, value_enum)]
    pub host_link: Option<HostLinkArg>,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// `--host-link`'s values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum HostLinkArg {
    Pcie,
    Coherent,
}

impl From<HostLinkArg> for HostLink {
    fn from(a: HostLinkArg) -> HostLink {
        match a {
            HostLinkArg::Pcie => HostLink::Pcie,
            HostLinkArg::Coherent => HostLink::Coherent,
        }
    }
}

impl SuggestOptions {
    fn split(self) -> (SuggestSettings, Output) {
        (
            SuggestSettings {
                model: self.model,
                kernel: self.kernel,
                applied: self.applied,
                source: self.source,
                report: self.report,
                per_kernel: self.per_kernel,
                levels: self.level,
                gpu: self.gpu,
                host_link: self.host_link.map(HostLink::from),
            },
            self.out.into(),
        )
    }
}

/// `advise suggest`.
#[derive(Debug, clap::Args)]
pub struct SuggestArgs {
    /// The program's profile: ncu --csv output (raw page, details or --print-summary
    /// per-kernel), nvprof output or a GPGPU-Sim log.
    #[arg(long = "profile", visible_alias = "ncu-csv", value_name = "FILE")]
    pub ncu_csv: PathBuf,
    #[command(flatten)]
    pub options: SuggestOptions,
}

pub fn suggest(args: SuggestArgs) -> Result<()> {
    let (settings, out) = args.options.split();
    suggestions_for(&args.ncu_csv, &settings, &out)
}

/// `advise profile`.
#[derive(Debug, clap::Args)]
pub struct ProfileArgs {
    #[command(flatten)]
    pub options: SuggestOptions,
    /// More ncu options, quoted as one argument: --ncu-args "--set full -c 10
    /// --replay-mode application --nvtx".
    #[arg(long, allow_hyphen_values = true)]
    pub ncu_args: Option<String>,
    /// Folder for ncu's raw CSV (kept).
    #[arg(long = "out-dir", alias = "dir", default_value = "advise-profile")]
    pub dir: PathBuf,
    /// The program and its arguments.
    #[arg(last = true, required = true)]
    pub app: Vec<String>,
}

pub fn profile(args: ProfileArgs) -> Result<()> {
    let ncu_args = match &args.ncu_args {
        Some(text) => advise::harness::profile_app::split_ncu_args(text)?,
        None => Vec::new(),
    };
    let (settings, out) = args.options.split();
    run_profile(&args.app, &args.dir, &ncu_args, &settings, &out)
}

/// The JSON of `suggest` and `profile`.
#[derive(Serialize)]
struct SuggestJson<'a> {
    suggestions: &'a [Suggestion],
    profile: &'a ProfileSummary,
    #[serde(skip_serializing_if = "<[KernelSuggestions]>::is_empty")]
    kernels: &'a [KernelSuggestions],
    advisor: AdvisorInfo<'a>,
}

#[derive(Serialize)]
struct AdvisorInfo<'a> {
    file: String,
    method: String,
    datasets: &'a [String],
}

/// Settings shared by suggest and profile.
#[derive(Debug, Clone, Default)]
pub struct SuggestSettings {
    pub model: Option<PathBuf>,
    pub kernel: Option<String>,
    pub applied: Vec<String>,
    /// Source or binary whose detected optimizations count as applied (and whose inapplicable
    /// ones are left out).
    pub source: Option<PathBuf>,
    /// Folder for the non-expert report.
    pub report: Option<PathBuf>,
    /// Also suggest for each kernel alone.
    pub per_kernel: bool,
    /// `FAMILY=VALUE` levels the user gave (`--level`).
    pub levels: Vec<String>,
    /// The GPU the user named (`--gpu`).
    pub gpu: Option<String>,
    /// The host link the user named (`--host-link`), where the profile does not show one.
    pub host_link: Option<HostLink>,
}

fn suggestions_for(csv: &Path, s: &SuggestSettings, out: &Output) -> Result<()> {
    let model_path = match &s.model {
        Some(p) => p.clone(),
        None => default_model()?,
    };
    let advisor = Advisor::load(&model_path)?;
    for a in &s.applied {
        let known = advisor
            .optimizations
            .iter()
            .any(|m| advise::recommend::suggest::is_applied(&m.name, a));
        if !known {
            // Always said: a misspelt name would otherwise be suggested after all.
            super::output::warn(&format!(
                "--applied {a}: {} knows no such optimization; it knows {}",
                model_path.display(),
                known_names(&advisor).join(", ")
            ));
        }
    }
    let data = parse_path(csv, FormatChoice::Auto)?;
    let key = RunKey {
        program: "user".into(),
        input: String::new(),
        run: 1,
        variant: String::new(),
    };
    let mut rows = rows_of(&key, &data);
    if let Some(re) = &s.kernel {
        let re = kernel_regex(re)?;
        let names: std::collections::BTreeSet<String> =
            rows.iter().map(|r| r.kernel.clone()).collect();
        rows.retain(|r| re.is_match(&r.kernel));
        if rows.is_empty() {
            const SHOWN: usize = 10;
            let shown = advise::error::shown_text;
            let mut list: Vec<String> = names.iter().take(SHOWN).map(|n| shown(n)).collect();
            if names.len() > SHOWN {
                list.push("...".into());
            }
            return Err(Error::Usage(format!(
                "no kernel in {} matches `{}`; its kernels: {}",
                advise::error::shown(csv),
                shown(re.as_str()),
                list.join(", ")
            )));
        }
    }
    let link_given = match s.host_link {
        Some(link) => given_host_link(&mut rows, link, csv)?,
        None => false,
    };
    let mut profiled: Vec<String> = rows.iter().map(|r| r.kernel.clone()).collect();
    profiled.sort();
    profiled.dedup();
    let mut not_suggested = source_checks(s, &advisor, &profiled)?;
    let levels = levels_of(csv, &rows, &s.levels, true)?;
    let (x, mut summary) = profile_features(&advisor, &rows, &levels)?;
    for (name, reason) in advise::recommend::profile_checks::inapplicable(&advisor, &x) {
        leave_out(
            &mut not_suggested,
            &s.applied,
            name,
            format!("does not apply to this profile: {reason}"),
        );
    }
    summary.simulated = data.format == advise::profile::Format::GpgpuSim;
    summary.host_link_given = link_given;
    let launch = launch_of(&rows, s.gpu.as_deref(), true)?;
    let applied: Vec<String> = s
        .applied
        .iter()
        .cloned()
        .chain(not_suggested.iter().map(|n| n.optimization.clone()))
        .collect();
    summary.not_suggested = not_suggested;
    let list = suggesting::suggest(&advisor, &x, &applied, &summary.levels, &launch)?;
    // Per kernel: the same, on each kernel's launches alone.
    let mut kernels = Vec::new();
    if s.per_kernel {
        for k in &summary.kernels {
            let mine: Vec<_> = rows.iter().filter(|r| &r.kernel == k).cloned().collect();
            let entry = levels_of(csv, &mine, &s.levels, false)
                .and_then(|levels| {
                    let (x, _) = profile_features(&advisor, &mine, &levels)?;
                    let launch = launch_of(&mine, s.gpu.as_deref(), false)?;
                    suggesting::suggest(&advisor, &x, &applied, &levels, &launch)
                })
                .map_err(|e| e.to_string());
            kernels.push(KernelSuggestions {
                kernel: k.clone(),
                suggestions: entry.as_ref().ok().cloned().unwrap_or_default(),
                error: entry.err(),
            });
        }
    }
    if let Some(dir) = &s.report {
        advise::report::suggestions::write(dir, &list, &summary, &advisor, &model_path)?;
        note(&format!("wrote {}/index.html and report.md", dir.display()));
    }
    if out.json {
        return out.emit_json(&SuggestJson {
            suggestions: &list,
            profile: &summary,
            kernels: &kernels,
            advisor: AdvisorInfo {
                file: model_path.display().to_string(),
                method: advisor.method.to_string(),
                datasets: &advisor.datasets,
            },
        });
    }
    let mut text = advice_text::suggestions(&list, &summary, &advisor, &model_path);
    for k in &kernels {
        text.push_str(&advice_text::kernel_suggestions(
            &k.kernel,
            k.error.as_deref(),
            &k.suggestions,
        ));
    }
    out.emit(&text)
}

/// Suggestions for one kernel's launches alone.
#[derive(Serialize)]
struct KernelSuggestions {
    kernel: String,
    suggestions: Vec<Suggestion>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

/// `--kernel`'s pattern (ncu's `regex:` form too) as a regular expression, or the usage
/// error that says why it is none.
fn kernel_regex(filter: &str) -> Result<regex::Regex> {
    regex::Regex::new(kernel_pattern(filter)).map_err(|e| Error::Usage(format!("--kernel: {e}")))
}

fn run_profile(
    app: &[String],
    dir: &Path,
    ncu_args: &[String],
    s: &SuggestSettings,
    out: &Output,
) -> Result<()> {
    let (program, args) = app.split_first().ok_or_else(|| {
        Error::Usage(
            "give the program to profile after `--`: advise profile -- ./myapp args".into(),
        )
    })?;
    if let Some(re) = &s.kernel {
        kernel_regex(re)?;
    }
    super::suggest_inputs::check_before_profiling(s)?;
    let model_path = match &s.model {
        Some(p) => p.clone(),
        None => default_model()?,
    };
    let advisor = Advisor::load(&model_path)?;
    let metrics = advisor.metrics_to_profile();
    let csv = dir.join("ncu.csv");
    let request = ProfileRequest {
        app: program.clone(),
        args: args.to_vec(),
        metrics,
        kernel_regex: s.kernel.clone(),
        csv: csv.clone(),
        timeout: None,
        ncu_args: ncu_args.to_vec(),
    };
    // A missing program or ncu is said before "profiling ... with ncu" is.
    advise::harness::profile_app::preflight(&request)?;
    note(&format!(
        "profiling {program} with ncu ({} metrics); its raw output goes to {}",
        request.metrics.len(),
        csv.display()
    ));
    let profiled = advise::harness::profile_app::profile(&request)?;
    if !profiled.unknown_metrics.is_empty() {
        note(&format!(
            "this ncu does not know {} of the advisor's metrics ({}); profiled without them: the \
             models that use them see fewer counters, and their confidence says so",
            profiled.unknown_metrics.len(),
            profiled.unknown_metrics.join(", ")
        ));
    }
    let settings = SuggestSettings {
        model: Some(model_path),
        ..s.clone()
    };
    suggestions_for(&csv, &settings, out)
}
