//! `advise demo`: the README's main job on real data shipped in the repository.
//!
//! First the thesis's experiments (1-6, leave one input out) and the fidelity table on the NB
//! and BH variants simulated with GPGPU-Sim (`datasets/sim-qv100-*`, labelled SIMULATED
//! everywhere), then the experiments that the measured NB/BH campaign on an NVIDIA H200 allows
//! (`datasets/h200-*`: one input with counters, so experiments 5 and 6) and its fidelity
//! table, then the real KTT tuning spaces in `datasets/` (convolution and pnpoly on an
//! RTX 2080 Ti, with Nsight Compute counters per configuration): grouped 10-fold
//! cross-validation on each and leave one program out across the two, every method beside the
//! four baselines, with the report in `reports/demo/`. `advise demo --fixtures` instead parses every real profiler file in
//! `tests/fixtures/` and prints the feature table.

use std::path::{Path, PathBuf};

use super::output::{note, Output};
use super::parse::{file_label, FileSummary};
use crate::args::{method_spec, MethodArg, OutputArgs};
use advise::dataset::features::{
    build, remapper, union_columns, FeatureSettings, FeatureTable, Normalize,
};
use advise::dataset::measurements::{rows_of, RunKey};
use advise::error::{Error, Result};
use advise::profile::{parse_path, FormatChoice};
use advise::report::table::{fmt_sig, TextTable};

const DEFAULT_DATA: &str = "tests/fixtures";
const REPORT_DIR: &str = "reports/demo";

/// Profiler files of `dir`: those in its `ncu/` and `nvprof/` folders where it has them (the
/// layout of tests/fixtures, whose other folders hold tuning spaces and compiled kernels),
/// else every file in it; documentation and license files are skipped. Sorted.
fn profiler_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let tool_dirs: Vec<PathBuf> = ["ncu", "nvprof"]
        .iter()
        .map(|d| dir.join(d))
        .filter(|d| d.is_dir())
        .collect();
    let dirs = if tool_dirs.is_empty() {
        vec![dir.to_path_buf()]
    } else {
        tool_dirs
    };
    let mut out = Vec::new();
    for d in dirs {
        let entries = std::fs::read_dir(&d).map_err(|e| Error::io(&d, e))?;
        for entry in entries {
            let path = entry.map_err(|e| Error::io(&d, e))?.path();
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().to_string())
                .unwrap_or_default();
            if path.is_file() && !(name.ends_with(".md") || name.starts_with("LICENSE")) {
                out.push(path);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// Builds one feature row per file; files without active cycles are left unnormalized.
fn features_of(files: &[(RunKey, advise::profile::ProfileData)]) -> Result<FeatureTable> {
    let mut tables = Vec::new();
    for (key, data) in files {
        let rows = rows_of(key, data);
        let settings = FeatureSettings::default();
        let t = match build(&rows, &[], &settings) {
            Ok(t) => t,
            Err(Error::MissingMetric { .. }) => build(
                &rows,
                &[],
                &FeatureSettings {
                    normalize: Normalize::None,
                    ..settings
                },
            )?,
            Err(e) => return Err(e),
        };
        tables.push(t);
    }
    Ok(merge(tables))
}

/// Joins single-file tables into one, with the union of their columns.
fn merge(tables: Vec<FeatureTable>) -> FeatureTable {
    let columns = union_columns(tables.iter().map(|t| t.columns.as_slice()));
    let mut rows = Vec::new();
    for t in tables {
        let remap = remapper(&t.columns, &columns);
        rows.extend(t.rows.into_iter().map(|mut r| {
            r.values = remap(&r.values);
            r
        }));
    }
    FeatureTable {
        columns,
        rows,
        normalizer: None,
    }
}

/// The real datasets the demo validates on.
const DEMO_DATASETS: [&str; 2] = [
    "datasets/ktt-convolution-rtx2080ti",
    "datasets/ktt-pnpoly-rtx2080ti",
];

/// The simulated NB/BH campaign (GPGPU-Sim), shown first when present.
const SIM_DATASETS: [&str; 2] = ["datasets/sim-qv100-nb", "datasets/sim-qv100-bh"];

/// The measured NB/BH campaign (one input on an NVIDIA H200), shown next when present.
const GPU_DATASETS: [&str; 2] = ["datasets/h200-nb-20261126", "datasets/h200-bh-20261126"];

/// How the demo names a measured NB/BH campaign's results.
const GPU_LABEL: &str = "H200, measured";

/// The folders of `names` that hold a campaign (a timings.csv).
fn present(names: &[&str]) -> Vec<PathBuf> {
    names
        .iter()
        .map(PathBuf::from)
        .filter(|d| d.join("timings.csv").is_file())
        .collect()
}

/// `advise demo`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Methods to validate (comma list); the baselines always run.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "all")]
    pub method: Vec<MethodArg>,
    /// Seed of every random step.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Instead: parse the real profiler files in tests/fixtures and print the features.
    #[arg(long)]
    pub fixtures: bool,
    /// Folder of profiler files for --fixtures.
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// With --json: leave out the per-sample predictions (reports/demo/predictions.csv.gz
    /// has them).
    #[arg(long)]
    pub summary: bool,
    #[command(flatten)]
    pub out: OutputArgs,
}

pub fn run(args: Args) -> Result<()> {
    let out: Output = args.out.into();
    if args.fixtures {
        run_fixtures(args.data, &out)
    } else {
        demo(&method_spec(&args.method), args.seed, args.summary, &out)
    }
}

/// The main demo: the thesis's experiments on the simulated NB/BH campaign, then experiments
/// on the shipped real datasets.
fn demo(methods: &str, seed: u64, summary: bool, out: &Output) -> Result<()> {
    use super::experiment::{execute, render_fidelity, ExperimentCommand};
    use advise::experiment::data::load_pools;
    use advise::experiment::record::json;
    use advise::experiment::run::RunSettings;
    use advise::report::experiment::render_text;
    use advise::report::experiment_files::write_report;

    let dirs: Vec<PathBuf> = DEMO_DATASETS.iter().map(PathBuf::from).collect();
    if let Some(missing) = dirs.iter().find(|d| !d.is_dir()) {
        return Err(Error::Usage(format!(
            "{}: no such folder; run `advise demo` from the repository root",
            missing.display()
        )));
    }
    let sim = present(&SIM_DATASETS);
    let gpu = present(&GPU_DATASETS);
    let mut all = Vec::new();
    let mut notes = Vec::new();
    // (datasets, experiments, program, how results are named)
    let mut runs: Vec<(Vec<PathBuf>, &str, Option<&str>, Option<&str>)> = Vec::new();
    let mut fidelity_text = String::new();
    let mut gpu_fidelity_text = String::new();
    if !sim.is_empty() {
        note(
            "advise demo: first the thesis's experiments on NB and BH SIMULATED with GPGPU-Sim \
             (a Volta model with 2 SMs; datasets/sim-qv100-*/PROVENANCE.md), then real KTT \
             tuning spaces measured on an RTX 2080 Ti",
        );
        notes.push(
            "Simulated data: the NB and BH variants run on GPGPU-Sim 4.2.0 (SM7_QV100 with 2 SMs, \
             a Volta model at PTX level), not measured on a GPU: times are simulated cycles, \
             counters are simulator statistics (docs/simulator.md)."
                .to_string(),
        );
        let pool = load_pools(&sim)?;
        fidelity_text = render_fidelity(&advise::experiment::fidelity::fidelity(&pool));
        // Experiments 1-4 and leave one input out within each program, 5 and 6 across them.
        runs.push((sim.clone(), "1,2,3,4,loio", Some("NB"), Some("SIMULATED")));
        runs.push((sim.clone(), "1,2,3,4,loio", Some("BH"), Some("SIMULATED")));
        runs.push((sim.clone(), "5,6", None, Some("SIMULATED")));
    } else {
        note(
            "advise demo: real data, but not ours: KTT tuning spaces measured on an RTX 2080 Ti \
             (datasets/*/PROVENANCE.md); no NB/BH campaign is in datasets/ yet",
        );
    }
    if !gpu.is_empty() {
        notes.push(
            "Measured NB/BH data: the 64 NB and 63 of the 64 BH variants timed and profiled \
             (Nsight Compute 2025.3) on an NVIDIA H200 with CUDA 13.0, one input each \
             (datasets/h200-*/PROVENANCE.md); with one input and counters of one run, only the \
             thesis's experiments 5 and 6 (across programs) can run on it."
                .to_string(),
        );
        gpu_fidelity_text =
            render_fidelity(&advise::experiment::fidelity::fidelity(&load_pools(&gpu)?));
        runs.push((gpu.clone(), "5,6", None, Some(GPU_LABEL)));
    }
    notes.push(
        "Measured data: KTT 2.1 tuning spaces (convolution, pnpoly) on an NVIDIA GeForce RTX 2080 \
         Ti with 33 Nsight Compute counters per configuration, from the public benchmark_hub \
         repository."
            .to_string(),
    );
    runs.push((vec![dirs[0].clone()], "kfold", None, None));
    runs.push((vec![dirs[1].clone()], "kfold", None, None));
    runs.push((dirs.clone(), "lopo", None, None));
    let mut pools = Vec::new();
    let mut folds = advise::experiment::record::FoldLog::default();
    for (datasets, exp, program, label) in runs {
        let cmd = ExperimentCommand {
            datasets: datasets.clone(),
            experiments: exp.into(),
            methods: methods.into(),
            program: program.map(str::to_string),
            train_run: None,
            train_input: None,
            kfolds: 10,
            layout: advise::experiment::splits::FoldLayout::Grouped,
            view: Default::default(),
            step: Default::default(),
            lenient: true,
            settings: RunSettings {
                seed,
                ..Default::default()
            },
            out_dir: None,
            summary,
        };
        let pool = load_pools(&datasets)?;
        let (mut results, skipped, log) = execute(&cmd, &pool, !out.json)?;
        let skipped: Vec<String> = skipped
            .into_iter()
            .map(|n| match program {
                Some(p) => format!("{p}: {n}"),
                None => n,
            })
            .collect();
        folds.extend(log);
        for r in results.iter_mut().flatten() {
            r.name = match label {
                Some(label) => {
                    let on = program.unwrap_or("NB+BH");
                    format!("{} on {on} ({label})", r.name)
                }
                None => format!("{} on {}", r.name, pool.name),
            };
        }
        notes.extend(skipped);
        all.extend(results);
        pools.push(pool);
    }
    let title = format!("advise demo (seed {seed})");
    let report_dir = Path::new(REPORT_DIR);
    let last = pools.len() - 1;
    write_report(
        report_dir,
        &advise::report::experiment_files::Report {
            title: &title,
            notes: &notes,
            pool: &pools[last],
            results: &all,
            seed,
            folds: &folds,
            charts: advise::report::experiment_files::Charts::BestModel,
        },
    )?;
    note(&format!(
        "wrote {REPORT_DIR}/report.md, index.html, results.json and charts"
    ));
    if out.json {
        let mut doc = json(&pools[last], seed, &all, &folds);
        if summary {
            advise::experiment::record::summary(&mut doc);
        }
        if !sim.is_empty() {
            doc["fidelity"] =
                serde_json::json!(advise::experiment::fidelity::fidelity(&load_pools(&sim)?));
        }
        if !gpu.is_empty() {
            doc["fidelity_measured"] =
                serde_json::json!(advise::experiment::fidelity::fidelity(&load_pools(&gpu)?));
        }
        return out.emit_json(&doc);
    }
    let mut text = String::new();
    if !fidelity_text.is_empty() {
        text.push_str("SIMULATED NB/BH (GPGPU-Sim): ");
        text.push_str(&fidelity_text);
        text.push('\n');
    }
    if !gpu_fidelity_text.is_empty() {
        text.push_str("MEASURED NB/BH (NVIDIA H200, one input): ");
        text.push_str(&gpu_fidelity_text);
        text.push('\n');
    }
    text.push_str(&render_text(&title, &all, &notes));
    out.emit(&text)
}

/// `advise demo --fixtures`: parse every real profiler file of tests/fixtures.
pub fn run_fixtures(data: Option<PathBuf>, out: &Output) -> Result<()> {
    let dir = data.unwrap_or_else(|| PathBuf::from(DEFAULT_DATA));
    if !dir.is_dir() {
        return Err(Error::Usage(format!(
            "{}: no such folder; run `advise demo` from the repository root or pass --data DIR",
            dir.display()
        )));
    }
    note(&format!(
        "advise demo --fixtures: real public profiler output from {} (not our own H100 data)",
        dir.display()
    ));
    let mut parsed = Vec::new();
    for f in profiler_files(&dir)? {
        let data = parse_path(&f, FormatChoice::Auto)?;
        let key = RunKey {
            program: file_label(&f),
            input: String::new(),
            run: 1,
            variant: String::new(),
        };
        parsed.push((key, data));
    }
    if parsed.is_empty() {
        return Err(Error::Data(format!(
            "{}: no profiler files found",
            dir.display()
        )));
    }
    let table = features_of(&parsed)?;
    std::fs::create_dir_all(REPORT_DIR).map_err(|e| Error::io(REPORT_DIR, e))?;
    let csv_path = Path::new(REPORT_DIR).join("fixture-features.csv");
    let file = std::fs::File::create(&csv_path).map_err(|e| Error::io(&csv_path, e))?;
    table.write_csv(file)?;
    let summaries: Vec<FileSummary> = parsed.iter().map(|(_, d)| FileSummary::of(d)).collect();
    if out.json {
        return out.emit_json(&serde_json::json!({
            "files": summaries,
            "features": super::features::table_json(&table),
        }));
    }
    out.emit(&render(&summaries, &table, &csv_path))
}

fn render(summaries: &[FileSummary], table: &FeatureTable, csv_path: &Path) -> String {
    let mut text = String::from("Parsed profiler files\n");
    let mut t = TextTable::new([
        "file",
        "format",
        "launches",
        "kernels",
        "metrics",
        "measurements",
    ]);
    for s in summaries {
        t.push([
            file_label(Path::new(&s.source)),
            s.format.to_string(),
            s.launches.to_string(),
            s.kernels.to_string(),
            s.metrics.to_string(),
            s.measurements.to_string(),
        ]);
    }
    text.push_str(&t.render());
    // The wide table has hundreds of columns; show those that most files share.
    let mut shared: Vec<(usize, &String)> = table
        .columns
        .iter()
        .enumerate()
        .map(|(i, c)| {
            (
                table.rows.iter().filter(|r| r.values[i].is_some()).count(),
                c,
            )
        })
        .filter(|(n, _)| *n >= 2)
        .collect();
    shared.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
    shared.truncate(15);
    text.push_str(&format!(
        "\nFeature table: {} rows x {} features (full table: {}); the {} features most files \
         share, counts per million active cycles where the file has them:\n",
        table.rows.len(),
        table.columns.len(),
        csv_path.display(),
        shared.len()
    ));
    let mut header = vec!["feature".to_string()];
    header.extend((0..table.rows.len()).map(|i| format!("f{}", i + 1)));
    let mut t = TextTable::new(header);
    for (_, c) in &shared {
        let i = table.columns.iter().position(|x| x == *c).unwrap_or(0);
        let mut row = vec![(*c).clone()];
        row.extend(
            table
                .rows
                .iter()
                .map(|r| r.values[i].map(|v| fmt_sig(v, 4)).unwrap_or("-".into())),
        );
        t.push(row);
    }
    text.push_str(&t.render());
    text.push_str("\nFiles:\n");
    for (i, r) in table.rows.iter().enumerate() {
        text.push_str(&format!("  f{} = {}\n", i + 1, r.key.program));
    }
    text
}
