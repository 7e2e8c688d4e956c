//! `advise train`, `advise suggest` and `advise profile`: train an advisor on a dataset, and
//! turn a profile (an ncu CSV, or a program profiled on the spot) into ranked suggestions.

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::output::{note, Output};
use crate::args::{MethodArg, OutputArgs, ViewArg};
use advise::dataset::measurements::{rows_of, RunKey};
use advise::error::{Error, Result};
use advise::harness::profile_app::{kernel_pattern, ProfileRequest};
use advise::profile::{parse_path, FormatChoice};
use advise::recommend::bundle::{self, Advisor, TrainSettings};
use advise::recommend::catalogue;
use advise::recommend::suggest::{
    self as suggesting, profile_features, ProfileSummary, Suggestion,
};
use advise::report::table::{fmt_sig, TextTable};
use advise_ml::Method;

/// Where the shipped default advisor lives, relative to the repository.
pub const DEFAULT_MODEL: &str = "models/default.advisor.json.gz";

/// `$ADVISE_MODEL`, else `models/default.advisor.json.gz` in the working directory, else the
/// one in the source tree advise was built from.
pub fn default_model() -> Result<PathBuf> {
    if let Some(p) = std::env::var_os("ADVISE_MODEL") {
        return Ok(PathBuf::from(p));
    }
    let local = PathBuf::from(DEFAULT_MODEL);
    if local.is_file() {
        return Ok(local);
    }
    let built = Path::new(env!("CARGO_MANIFEST_DIR")).join(DEFAULT_MODEL);
    if built.is_file() {
        return Ok(built);
    }
    Err(Error::Usage(format!(
        "no advisor given and no default at {DEFAULT_MODEL}: pass --model FILE (train one with `advise train`)"
    )))
}

/// `advise train`.
#[derive(Debug, clap::Args)]
pub struct TrainArgs {
    /// Dataset folder(s); several are pooled.
    #[arg(long, required = true)]
    pub dataset: Vec<PathBuf>,
    /// The primary model (the second opinion is M5P, or IBk for m5p).
    #[arg(long, value_enum, default_value = "ibk")]
    pub method: MethodArg,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// At most this many samples per optimization (seeded subsample).
    #[arg(long, default_value_t = 600)]
    pub max_samples: usize,
    /// Feature view (see `advise features --view`).
    #[arg(long, value_enum, default_value = "portable")]
    pub features: ViewArg,
    /// The advisor file to write (`.json` or `.json.gz`).
    #[arg(short = 'o', long = "output")]
    pub output: PathBuf,
}

pub fn train(args: TrainArgs) -> Result<()> {
    let method = args
        .method
        .method()
        .ok_or_else(|| Error::Usage("--method: name one model, not all or baselines".into()))?;
    run_train(
        &args.dataset,
        method,
        args.seed,
        args.max_samples,
        args.features.into(),
        &args.output,
    )
}

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
    /// CONST, VOTE; `advise static`) count as applied.
    #[arg(long)]
    pub source: Option<PathBuf>,
    /// Also write a report for non-experts: DIR/index.html (self-contained) and report.md.
    #[arg(long = "report-dir", alias = "report")]
    pub report: Option<PathBuf>,
    /// Besides the whole program, suggest for each kernel on its own.
    #[arg(long)]
    pub per_kernel: bool,
    #[command(flatten)]
    pub out: OutputArgs,
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
            },
            self.out.into(),
        )
    }
}

/// `advise suggest`.
#[derive(Debug, clap::Args)]
pub struct SuggestArgs {
    /// ncu --csv output of the program (raw page, details or --print-summary per-kernel).
    #[arg(long)]
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

fn run_train(
    datasets: &[PathBuf],
    method: Method,
    seed: u64,
    max_samples: usize,
    view: advise::dataset::features::View,
    out: &Path,
) -> Result<()> {
    let pool = advise::experiment::data::load_pools_view(datasets, view)?;
    let provenance = datasets
        .iter()
        .map(|d| {
            std::fs::read_to_string(d.join("PROVENANCE.md"))
                .unwrap_or_else(|_| format!("{}: no PROVENANCE.md", d.display()))
        })
        .collect::<Vec<_>>()
        .join("\n---\n");
    let settings = TrainSettings {
        method,
        seed,
        max_samples,
        view,
        ..Default::default()
    };
    note(&format!(
        "training {} on {} ({} samples)...",
        settings.method,
        pool.name,
        pool.samples.len()
    ));
    let advisor = bundle::train(&pool, datasets, provenance, &settings)?;
    advisor.save(out)?;
    Output::default().emit(&format!(
        "wrote {} ({} optimizations, {} features, {} view)\n{}",
        out.display(),
        advisor.optimizations.len(),
        advisor.features.len(),
        match advisor.view {
            advise::dataset::features::View::Counters => "counters",
            advise::dataset::features::View::Portable => "portable",
            advise::dataset::features::View::Both => "counters + portable",
        },
        render_training(&advisor)
    ))
}

/// The advisor's validation: per optimization the grouped cross-validation against the
/// majority rule with its PP/PN/NP/NN table, then the confidence's reliability.
pub fn render_training(advisor: &Advisor) -> String {
    let mut t = TextTable::new([
        "optimization",
        "learned from",
        "samples",
        "groups",
        "helps in %",
        "grouped cv accuracy %",
        "balanced %",
        "majority %",
        "p",
        "PP",
        "PN",
        "NP",
        "NN",
    ]);
    for m in &advisor.optimizations {
        let v = m.validation.as_ref();
        let cell = |f: &dyn Fn(&advise::recommend::bundle::Validation) -> String| {
            v.map(f).unwrap_or_else(|| "-".into())
        };
        t.push([
            m.name.clone(),
            format!(
                "{}{}",
                m.programs.join("+"),
                if m.simulated_only { " (SIMULATED)" } else { "" }
            ),
            m.samples.to_string(),
            cell(&|v| v.groups.to_string()),
            format!("{:.1}", 100.0 * m.positive_rate),
            cell(&|v| {
                format!(
                    "{:.1} [{:.1}, {:.1}]",
                    100.0 * v.accuracy,
                    100.0 * v.accuracy_low,
                    100.0 * v.accuracy_high
                )
            }),
            cell(&|v| format!("{:.1}", 100.0 * v.balanced_accuracy)),
            cell(&|v| format!("{:.1}", 100.0 * v.majority_accuracy)),
            cell(&|v| format!("{:.3}", v.p_value)),
            cell(&|v| v.pp.to_string()),
            cell(&|v| v.pn.to_string()),
            cell(&|v| v.np.to_string()),
            cell(&|v| v.nn.to_string()),
        ]);
    }
    let mut text = t.render();
    text.push_str(
        "\nPP/PN/NP/NN: held-out samples by predicted and actual direction (P = faster with \
         the optimization). Folds keep each program, input and configuration family together.\n",
    );
    if !advisor.reliability.is_empty() {
        let mut r = TextTable::new([
            "confidence",
            "suggestions",
            "mean confidence",
            "share right",
        ]);
        for row in &advisor.reliability {
            r.push([
                format!("{:.1}-{:.1}", row.low, row.high),
                row.suggestions.to_string(),
                format!("{:.2}", row.mean_confidence),
                format!("{:.2}", row.share_right),
            ]);
        }
        text.push_str(
            "\nReliability of the confidence (held-out predictions; calibration fitted on the \
             other half of the groups):\n",
        );
        text.push_str(&r.render());
    }
    text
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
    /// Source or binary whose detected optimizations count as applied.
    pub source: Option<PathBuf>,
    /// Folder for the non-expert report.
    pub report: Option<PathBuf>,
    /// Also suggest for each kernel alone.
    pub per_kernel: bool,
}

/// The optimizations to leave out: those named, plus those detected in the source.
fn applied(s: &SuggestSettings) -> Result<Vec<String>> {
    let mut out = s.applied.clone();
    if let Some(src) = &s.source {
        let found = advise::static_analysis::applied_optimizations(src, &Default::default())?;
        for d in found {
            if d.optimization.is_some() && !out.contains(&d.name) {
                note(&format!(
                    "{} is already applied in {} ({} x {}): not suggested",
                    d.name, d.kernel, d.count, d.evidence
                ));
                out.push(d.name);
            }
        }
    }
    Ok(out)
}

fn suggestions_for(csv: &Path, s: &SuggestSettings, out: &Output) -> Result<()> {
    let model_path = match &s.model {
        Some(p) => p.clone(),
        None => default_model()?,
    };
    let advisor = Advisor::load(&model_path)?;
    let data = parse_path(csv, FormatChoice::Auto)?;
    let key = RunKey {
        program: "user".into(),
        input: String::new(),
        run: 1,
        variant: String::new(),
    };
    let mut rows = rows_of(&key, &data);
    if let Some(re) = &s.kernel {
        let re = regex::Regex::new(kernel_pattern(re))
            .map_err(|e| Error::Usage(format!("--kernel: {e}")))?;
        rows.retain(|r| re.is_match(&r.kernel));
        if rows.is_empty() {
            return Err(Error::Usage(format!(
                "no kernel in {} matches `{re}`",
                csv.display()
            )));
        }
    }
    let applied = applied(s)?;
    let (x, summary) = profile_features(&advisor, &rows)?;
    let list = suggesting::suggest(&advisor, &x, &applied)?;
    // Per kernel: the same, on each kernel's launches alone.
    let mut kernels = Vec::new();
    if s.per_kernel {
        for k in &summary.kernels {
            let mine: Vec<_> = rows.iter().filter(|r| &r.kernel == k).cloned().collect();
            let entry = profile_features(&advisor, &mine)
                .and_then(|(x, _)| suggesting::suggest(&advisor, &x, &applied))
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
    let mut text = render(&list, &summary, &advisor, &model_path);
    for k in &kernels {
        text.push_str(&format!("\nKernel {}:\n", k.kernel));
        match &k.error {
            Some(e) => text.push_str(&format!("  no suggestions: {e}\n")),
            None => {
                let mut t = TextTable::new(["optimization", "verdict", "predicted", "confidence"]);
                for x in &k.suggestions {
                    t.push([
                        x.optimization.clone(),
                        x.verdict.to_string(),
                        format!("{}x", fmt_sig(x.predicted_speedup, 3)),
                        format!("{} {:.2}", x.confidence_label, x.confidence),
                    ]);
                }
                text.push_str(&t.render());
            }
        }
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

/// The terminal answer: the verdict first, then the table.
pub fn render(
    list: &[Suggestion],
    summary: &ProfileSummary,
    advisor: &Advisor,
    model: &Path,
) -> String {
    let mut text = String::new();
    match list.iter().find(|s| s.verdict == "recommend") {
        Some(s) => text.push_str(&format!(
            "{}: {} (predicted {}x, confidence {} {:.2}{})\n\n",
            if s.confidence >= 0.6 && !s.extrapolation {
                "Try first"
            } else {
                "Best guess, but do not rely on it"
            },
            s.optimization,
            fmt_sig(s.predicted_speedup, 3),
            s.confidence_label,
            s.confidence,
            if s.extrapolation { ", extrapolated" } else { "" }
        )),
        None => text.push_str("Nothing is predicted to help this code among the optimizations this advisor knows.\n\n"),
    }
    let mut t = TextTable::new([
        "#",
        "optimization",
        "verdict",
        "predicted",
        "confidence",
        "what it is",
    ]);
    for (i, s) in list.iter().enumerate() {
        let what = catalogue::lookup(&s.optimization)
            .ok()
            .flatten()
            .map(|e| e.summary)
            .unwrap_or_default();
        t.push([
            (i + 1).to_string(),
            s.optimization.clone(),
            s.verdict.to_string(),
            format!("{}x", fmt_sig(s.predicted_speedup, 3)),
            format!(
                "{} {:.2}{}",
                s.confidence_label,
                s.confidence,
                if s.extrapolation {
                    " (extrapolated)"
                } else {
                    ""
                }
            ),
            what,
        ]);
    }
    text.push_str(&t.render());
    text.push_str("\nWhy:\n");
    for s in list {
        text.push_str(&format!("  {}: {}\n", s.optimization, s.reason));
    }
    text.push_str(&validation_tables(list));
    text.push_str(&format!(
        "\nProfile: {} kernel(s), {} of the advisor's {} counters present. Advisor: {} ({}), trained on {}.\n",
        summary.kernels.len(),
        summary.features_present,
        summary.features_expected,
        model.display(),
        advisor.method,
        advisor.datasets.join(", ")
    ));
    text
}

/// Each suggested optimization's validated accuracy table: how its model did on held-out
/// groups of configurations, against the majority rule.
pub fn validation_tables(list: &[Suggestion]) -> String {
    let mut t = TextTable::new([
        "optimization",
        "PP",
        "PN",
        "NP",
        "NN",
        "accuracy %",
        "majority %",
    ]);
    for s in list {
        let Some([pp, pn, np, nn]) = s.validation_table else {
            continue;
        };
        t.push([
            s.optimization.clone(),
            pp.to_string(),
            pn.to_string(),
            np.to_string(),
            nn.to_string(),
            s.validated_accuracy
                .map(|a| format!("{:.1}", 100.0 * a))
                .unwrap_or("-".into()),
            s.majority_accuracy
                .map(|a| format!("{:.1}", 100.0 * a))
                .unwrap_or("-".into()),
        ]);
    }
    format!(
        "\nHow each model did on held-out groups of configurations (first letter: predicted, \
         second: measured; P = faster):\n{}",
        t.render()
    )
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
    let model_path = match &s.model {
        Some(p) => p.clone(),
        None => default_model()?,
    };
    let advisor = Advisor::load(&model_path)?;
    let metrics = advisor.metrics_to_profile();
    let csv = dir.join("ncu.csv");
    note(&format!(
        "profiling {program} with ncu ({} metrics); raw output kept in {}",
        metrics.len(),
        csv.display()
    ));
    advise::harness::profile_app::profile(&ProfileRequest {
        app: program.clone(),
        args: args.to_vec(),
        metrics,
        kernel_regex: s.kernel.clone(),
        csv: csv.clone(),
        timeout: None,
        ncu_args: ncu_args.to_vec(),
    })?;
    let settings = SuggestSettings {
        model: Some(model_path),
        ..s.clone()
    };
    suggestions_for(&csv, &settings, out)
}
