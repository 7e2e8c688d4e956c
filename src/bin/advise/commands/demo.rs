//! `advise demo`: the README's main job on real data shipped in the repository.
//!
//! First the thesis's experiments (1-6, leave one input out) and the fidelity table on the NB
//! and BH variants simulated with GPGPU-Sim (`datasets/sim-qv100-*`, labelled SIMULATED
//! everywhere), then the experiments that the measured NB/BH campaign on an NVIDIA H200 allows
//! (`datasets/h200-*`: one input with counters, so experiments 5 and 6) and its fidelity
//! table, experiments 1-3 on the NB campaign with profiled replicates on an NVIDIA H100
//! (`datasets/h100-nb-20261126`) and on the BH campaign with three profiled runs on an H200
//! (`datasets/h200-bh-20261126-3` with its last six variants, `datasets/h200-bh-20261127`),
//! experiment 4 (train on one input, test on each other) and leave one input out (train on two)
//! on the H200's three inputs of NB and BH, then the real KTT tuning spaces in `datasets/`
//! (convolution and pnpoly on an RTX 2080 Ti, with Nsight Compute counters per configuration):
//! grouped 10-fold cross-validation on each and leave one program out across the two, every
//! method beside the four baselines, with the report in `reports/demo/`. `advise demo
//! --fixtures` instead parses every real profiler file in `tests/fixtures/` (demo_fixtures.rs).

use std::path::{Path, PathBuf};

use super::output::{note, Output};
use crate::args::{method_spec, MethodArg, OutputArgs};
use advise::error::{Error, Result};

const REPORT_DIR: &str = "reports/demo";

use super::demo_datasets::{DEMO_DATASETS, GPU_DATASETS, GPU_LABEL, REPLICATES, SIM_DATASETS};

/// One experiment run of the demo: its datasets, experiments, program (or all) and how its
/// results are named (`None`: after the pool).
struct DemoRun {
    datasets: Vec<PathBuf>,
    exp: &'static str,
    program: Option<&'static str>,
    label: Option<&'static str>,
}

impl DemoRun {
    fn new(
        datasets: Vec<PathBuf>,
        exp: &'static str,
        program: Option<&'static str>,
        label: Option<&'static str>,
    ) -> Self {
        DemoRun {
            datasets,
            exp,
            program,
            label,
        }
    }
}

/// The folders of `names` that hold a campaign (a timings table, compressed or not).
fn present(names: &[&str]) -> Vec<PathBuf> {
    names
        .iter()
        .map(PathBuf::from)
        .filter(|d| advise::dataset::table::table_path(d, "timings").is_some())
        .collect()
}

/// `advise demo`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Methods to validate (comma list); the baselines always run.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "all")]
    pub method: Vec<MethodArg>,
    /// Seed of the fold shuffles, the bootstrap intervals, the sign-flip tests and the random
    /// baseline. The random forest and boosted trees draw from fixed seeds of their own, so
    /// their models do not change with it.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Instead: parse the real profiler files in tests/fixtures and print the features.
    #[arg(long)]
    pub fixtures: bool,
    /// Folder of profiler files for --fixtures.
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// With --json: leave out the per-sample predictions (predictions.csv.gz in the report
    /// folder has them).
    #[arg(long)]
    pub summary: bool,
    /// The report folder (report.md, index.html, results.json, predictions.csv.gz, charts;
    /// with --fixtures, fixture-features.csv). Relative to the current folder, which must be
    /// the repository's root: the demo reads its datasets/ from there.
    #[arg(long = "out-dir", default_value = REPORT_DIR)]
    pub out_dir: PathBuf,
    #[command(flatten)]
    pub out: OutputArgs,
}

pub fn run(args: Args) -> Result<()> {
    let out: Output = args.out.into();
    if args.summary && (args.fixtures || !out.json) {
        return Err(Error::Usage(
            "--summary shortens the experiments' JSON (no per-sample predictions): add --json \
             (and leave out --fixtures, which prints features)"
                .into(),
        ));
    }
    if args.data.is_some() && !args.fixtures {
        return Err(Error::Usage(
            "--data names the profiler files of --fixtures; add --fixtures, or leave --data \
             out (the demo reads its datasets/)"
                .into(),
        ));
    }
    // Said before minutes of experiments, not after them.
    super::output::check_output_dir("--out-dir", &args.out_dir)?;
    if args.fixtures {
        super::demo_fixtures::run_fixtures(args.data, &args.out_dir, &out)
    } else {
        demo(
            &method_spec(&args.method),
            args.seed,
            args.summary,
            &args.out_dir,
            &out,
        )
    }
}

/// The main demo: the thesis's experiments on the simulated NB/BH campaign, then experiments
/// on the shipped real datasets.
fn demo(methods: &str, seed: u64, summary: bool, report_dir: &Path, out: &Output) -> Result<()> {
    use super::experiment::{execute, ExperimentCommand};
    use advise::experiment::fidelity::{agreement as agreement_of, agreement_between, fidelity};
    use advise::experiment::pool_merge::load_pools;
    use advise::experiment::record::{json, Samples};
    use advise::experiment::run::RunSettings;
    use advise::report::experiment::render_text;
    use advise::report::experiment_files::write_report;
    use advise::report::fidelity::{render_agreement, render_gpu_agreement, render_rows};

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
    let mut runs: Vec<DemoRun> = Vec::new();
    // The fidelity tables, each computed once for the text and the JSON.
    let (mut sim_fidelity, mut gpu_fidelity, mut agreement) = (Vec::new(), Vec::new(), Vec::new());
    if !sim.is_empty() {
        note(
            "advise demo: first the thesis's experiments on NB and BH SIMULATED with GPGPU-Sim \
             (a Volta model with 2 SMs; datasets/sim-qv100-*/PROVENANCE.md), then those the \
             measured NB/BH campaigns allow (an H200 and an H100; datasets/h*-*/PROVENANCE.md), \
             then real KTT tuning spaces measured on an RTX 2080 Ti",
        );
        notes.push(
            "Simulated data: the NB and BH variants run on GPGPU-Sim 4.2.0 (SM7_QV100 with 2 SMs, \
             a Volta model at PTX level), not measured on a GPU: times are simulated cycles, \
             counters are simulator statistics (docs/simulator.md)."
                .to_string(),
        );
        notes.extend(super::data_notes::data_notes(&sim)?);
        sim_fidelity = fidelity(&load_pools(&sim)?);
        // Experiments 1-4 and leave one input out within each program, 5 and 6 across them.
        runs.push(DemoRun::new(
            sim.clone(),
            "1,2,3,4,loio",
            Some("NB"),
            Some("SIMULATED"),
        ));
        runs.push(DemoRun::new(
            sim.clone(),
            "1,2,3,4,loio",
            Some("BH"),
            Some("SIMULATED"),
        ));
        runs.push(DemoRun::new(sim.clone(), "5,6", None, Some("SIMULATED")));
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
        notes.extend(super::data_notes::data_notes(&gpu)?);
        gpu_fidelity = fidelity(&load_pools(&gpu)?);
        if !sim.is_empty() {
            agreement = agreement_of(&load_pools(&[sim.clone(), gpu.clone()].concat())?);
        }
        runs.push(DemoRun::new(gpu.clone(), "5,6", None, Some(GPU_LABEL)));
    }
    // The two GPUs on NB's variant pairs, beside the simulator against the H200.
    let mut gpus = Vec::new();
    if let (Some(h100), Some(h200)) = (present(REPLICATES[0].datasets).first(), gpu.first()) {
        gpus = agreement_between(
            &load_pools(std::slice::from_ref(h100))?,
            &load_pools(std::slice::from_ref(h200))?,
        );
    }
    for r in &REPLICATES {
        let dataset = present(r.datasets);
        // A run over several folders needs all of them (the rest of a campaign, an input).
        if dataset.len() == r.datasets.len() {
            notes.push(r.note.to_string());
            notes.extend(super::data_notes::data_notes(&dataset)?);
            runs.push(DemoRun::new(
                dataset,
                r.experiments,
                Some(r.program),
                Some(r.label),
            ));
        }
    }
    notes.push(
        "Measured data: KTT 2.1 tuning spaces (convolution, pnpoly) on an NVIDIA GeForce RTX 2080 \
         Ti with 33 Nsight Compute counters per configuration, from the public benchmark_hub \
         repository."
            .to_string(),
    );
    runs.push(DemoRun::new(vec![dirs[0].clone()], "kfold", None, None));
    runs.push(DemoRun::new(vec![dirs[1].clone()], "kfold", None, None));
    runs.push(DemoRun::new(dirs.clone(), "lopo", None, None));
    let mut pools = Vec::new();
    let mut folds = advise::experiment::record::FoldLog::default();
    for DemoRun {
        datasets,
        exp,
        program,
        label,
    } in runs
    {
        let cmd = ExperimentCommand {
            datasets: datasets.clone(),
            experiments: exp.into(),
            methods: methods.into(),
            program: program.map(str::to_string),
            train_run: None,
            train_input: None,
            kfolds: 10,
            folds_given: false,
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
        "wrote {}/report.md, index.html, results.json and charts",
        report_dir.display()
    ));
    if out.json {
        let mut doc = json(
            &pools[last],
            seed,
            &all,
            &folds,
            Samples::left_out_if(summary),
        );
        if !sim.is_empty() {
            doc.insert("fidelity", &sim_fidelity);
        }
        if !gpu.is_empty() {
            doc.insert("fidelity_measured", &gpu_fidelity);
        }
        if !agreement.is_empty() {
            doc.insert("agreement", &agreement);
        }
        if !gpus.is_empty() {
            doc.insert("gpu_agreement", &gpus);
        }
        return out.emit_json_streamed(&doc);
    }
    let mut text = String::new();
    if !sim.is_empty() {
        text.push_str("SIMULATED NB/BH (GPGPU-Sim): ");
        text.push_str(&render_rows(&sim_fidelity));
        text.push('\n');
    }
    if !gpu.is_empty() {
        text.push_str("MEASURED NB/BH (NVIDIA H200, one input): ");
        text.push_str(&render_rows(&gpu_fidelity));
        text.push('\n');
    }
    if !agreement.is_empty() {
        text.push_str("SIMULATED against MEASURED NB/BH (GPGPU-Sim against the H200): ");
        text.push_str(&render_agreement(&agreement));
        text.push('\n');
    }
    if !gpus.is_empty() {
        text.push_str("MEASURED against MEASURED NB (two GPUs): ");
        text.push_str(&render_gpu_agreement("the H100", "the H200", &gpus));
        text.push('\n');
    }
    text.push_str(&render_text(&title, &all, &notes));
    out.emit(&text)
}
