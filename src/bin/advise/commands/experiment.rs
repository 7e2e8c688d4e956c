//! `advise experiment`: the thesis's experiments (and more) on a dataset folder, with
//! baselines, intervals and significance; tables on the terminal, a report folder on request.

use std::collections::BTreeSet;
use std::path::PathBuf;

use indicatif::ProgressBar;

use super::experiment_specs::{
    check_options_read, check_table_alone, keep, parse_experiments, parse_folds, trained_on,
    ChosenOptions,
};
use super::output::{note, Output};
use crate::args::{exp_spec, method_spec, ExpArg, JsonArg, MethodArg, StepArg, ViewArg};
use advise::dataset::features::View;
use advise::error::{Error, Result};
use advise::experiment::data::SamplePool;
use advise::experiment::method::{contenders, occupancy_rule, Contender};
use advise::experiment::pool_merge::load_pools_view;
use advise::experiment::record::{json, FoldLog, Samples};
use advise::experiment::run::{self as running, ExperimentResult, RunSettings};
use advise::experiment::splits::{folds, Fold, FoldLayout};
use advise::experiment::step_features::{apply, Step};
use advise::report::experiment::render_text;
use advise::report::experiment_files::write_report;

/// Settings of `advise experiment`.
#[derive(Debug, Clone)]
pub struct ExperimentCommand {
    pub datasets: Vec<PathBuf>,
    pub experiments: String,
    pub methods: String,
    pub program: Option<String>,
    pub train_run: Option<u32>,
    pub train_input: Option<String>,
    pub kfolds: usize,
    /// Whether --folds was given (a usage error where no experiment reads it).
    pub folds_given: bool,
    /// How k-fold assigns samples to folds.
    pub layout: FoldLayout,
    pub view: View,
    /// Step features beside (or instead of) the view (experiment::step_features).
    pub step: Step,
    /// Skip experiments the data cannot run (with a note) even when named explicitly.
    pub lenient: bool,
    pub settings: RunSettings,
    pub out_dir: Option<PathBuf>,
    /// `--json` without per-sample predictions.
    pub summary: bool,
}

/// Runs the experiments; returns one result list per experiment, the notes for skipped ones
/// and the folds with their groups.
pub fn execute(
    cmd: &ExperimentCommand,
    pool: &SamplePool,
    show_progress: bool,
) -> Result<(Vec<Vec<ExperimentResult>>, Vec<String>, FoldLog)> {
    let list = parse_experiments(
        &cmd.experiments,
        pool,
        cmd.kfolds,
        cmd.settings.seed,
        cmd.layout,
    )?;
    let mut owned = contenders(&cmd.methods)?;
    // Where the step features include occupancy, the occupancy calculator's rule is a
    // baseline too.
    if let Some(rule) = occupancy_rule(&pool.columns) {
        owned.push(Box::new(rule));
    }
    let preds: Vec<&dyn Contender> = owned.iter().map(|b| b.as_ref()).collect();
    let explicit = !cmd.lenient && !cmd.experiments.split(',').any(|p| p.trim() == "all");
    let mut notes = Vec::new();
    // Why each experiment did not run, for the error where none did.
    let mut why_none: Vec<String> = Vec::new();
    let mut planned: Vec<(String, Vec<Fold>)> = Vec::new();
    // The runs and inputs the folds train on, for an error where the filters keep none.
    let mut offered: BTreeSet<String> = BTreeSet::new();
    for e in &list {
        let fs = match folds(pool, e, cmd.program.as_deref()) {
            Ok(f) => f,
            Err(err) if !explicit => {
                notes.push(format!("skipped {}: {err}", e.name()));
                why_none.push(err.to_string());
                continue;
            }
            Err(err) => return Err(err),
        };
        offered.extend(fs.iter().flat_map(|f| trained_on(&f.choice)));
        let fs: Vec<Fold> = fs.into_iter().filter(|f| keep(f, cmd)).collect();
        if fs.is_empty() {
            notes.push(format!(
                "skipped {}: no fold matches --train-run/--train-input",
                e.name()
            ));
            why_none.push(format!("{}: no fold matches", e.name()));
            continue;
        }
        planned.push((e.name(), fs));
    }
    if planned.is_empty() && (cmd.train_run.is_some() || cmd.train_input.is_some()) {
        return Err(Error::Usage(if offered.is_empty() {
            "no fold matches --train-run/--train-input: the experiments asked for choose no \
             training run or input (experiments 1 and 2 choose a run, 4 an input)"
                .into()
        } else {
            format!(
                "no fold matches --train-run/--train-input; the folds train on {}",
                offered.into_iter().collect::<Vec<_>>().join(", ")
            )
        }));
    }
    if planned.is_empty() {
        return Err(Error::Data(format!(
            "no experiment could run on {}: {}",
            pool.name,
            why_none.join("; ")
        )));
    }
    let fits: usize = planned.iter().map(|(_, f)| f.len() * preds.len()).sum();
    let bar = if show_progress {
        super::output::bar("fits", fits as u64)
    } else {
        ProgressBar::hidden()
    };
    // One run for all experiments: a training set several of them share is fitted once.
    let views: Vec<(&str, &[Fold])> = planned
        .iter()
        .map(|(n, f)| (n.as_str(), f.as_slice()))
        .collect();
    let all = running::run_all(pool, &views, &preds, &cmd.settings, &|done, _| {
        bar.set_position(done as u64)
    })?;
    bar.finish_and_clear();
    let mut log = FoldLog::default();
    for (name, fs) in &planned {
        log.add(pool, name, fs);
    }
    Ok((all, notes, log))
}

/// `advise experiment`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Dataset folder (measurements.csv(.gz), timings.csv, and switches.csv for imports);
    /// repeat it to pool several (e.g. two imported programs for lopo). The pool's rows
    /// follow the order given, and the random forest's bootstrap samples draw rows by
    /// position, so another order can move its figures a little: name the datasets in one order to reproduce a result.
    /// For `--exp statuner`: the block-size dataset (default datasets/blocksize).
    #[arg(long)]
    pub dataset: Vec<PathBuf>,
    /// Experiments (comma list).
    #[arg(long, value_enum, value_delimiter = ',', default_value = "all")]
    pub exp: Vec<ExpArg>,
    /// Methods (comma list); the four baselines always run.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "all")]
    pub method: Vec<MethodArg>,
    /// Program of experiments 1-4 and loio (default BH, or the only program).
    #[arg(long)]
    pub program: Option<String>,
    /// Only the folds that train on this run (experiments 1, 2).
    #[arg(long)]
    pub train_run: Option<u32>,
    /// Only the folds that train on this input label (experiment 4).
    #[arg(long)]
    pub train_input: Option<String>,
    /// Feature view: every metric, the portable ratios, or both.
    #[arg(long, value_enum, default_value = "counters")]
    pub features: ViewArg,
    /// Step features: what each sample's tuning step is (log2 of the family's level in the
    /// configuration, log2 of the step's factor), beside the view (`add`) or alone (`only`).
    #[arg(long, value_enum, default_value = "off")]
    pub step: StepArg,
    /// Folds of `kfold`: a number K (grouped: samples of one program, input and
    /// configuration family never sit on both sides), `ungrouped:K` (samples shuffled one by
    /// one, which leaks), or `weka` / `weka:K` (exactly Weka's `-x K -s SEED` layout).
    /// Default 10.
    #[arg(long)]
    pub folds: Option<String>,
    /// Seed of the fold shuffles, the bootstrap intervals, the sign-flip tests and the random
    /// baseline. The random forest and boosted trees draw from fixed seeds of their own, so
    /// their models do not change with it.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Half-width of the "no clear effect" band around a speedup of 1.0.
    #[arg(long, default_value_t = 0.02)]
    pub band: f64,
    /// Write report.md, index.html, results.json, predictions.csv.gz and charts into this
    /// folder.
    #[arg(long = "out-dir", alias = "out")]
    pub out_dir: Option<PathBuf>,
    /// With --json: leave out the per-sample predictions.
    #[arg(long)]
    pub summary: bool,
    #[command(flatten)]
    pub json: JsonArg,
}

pub fn run(args: Args) -> Result<()> {
    let (kfolds, layout) = parse_folds(args.folds.as_deref().unwrap_or("10"))?;
    if !(args.band >= 0.0 && args.band < 1.0) {
        return Err(Error::Usage(format!(
            "--band {}: the half-width of the no-clear-effect band is a share of 1.0, at least \
             0 and under 1 (0.02: speedups within 2% count as no clear effect)",
            args.band
        )));
    }
    run_command(
        &ExperimentCommand {
            datasets: args.dataset,
            experiments: exp_spec(&args.exp),
            methods: method_spec(&args.method),
            program: args.program,
            train_run: args.train_run,
            train_input: args.train_input,
            kfolds,
            folds_given: args.folds.is_some(),
            layout,
            view: args.features.into(),
            step: args.step.into(),
            lenient: false,
            settings: RunSettings {
                seed: args.seed,
                band: args.band,
                ..Default::default()
            },
            out_dir: args.out_dir,
            summary: args.summary,
        },
        &args.json.into(),
    )
}

pub fn run_command(cmd: &ExperimentCommand, out: &Output) -> Result<()> {
    check_table_alone(cmd, out.json)?;
    let alone = cmd.experiments.trim();
    if alone == "statuner" {
        let settings = super::statuner::StatunerSettings {
            dataset: cmd.datasets.first().cloned(),
            seed: cmd.settings.seed,
            build_from: None,
        };
        return super::statuner::evaluate_with(&settings, out);
    }
    if cmd.datasets.is_empty() {
        return Err(Error::Usage(
            "give the dataset folder with --dataset DIR".into(),
        ));
    }
    let mut pool = load_pools_view(&cmd.datasets, cmd.view)?;
    // A --program the data lacks would be ignored by the experiments that pool programs. It
    // is matched without case (`nb` is NB, as `variants` and `samples` take it) and used as
    // the data spells it.
    let mut spelled = cmd.clone();
    if let Some(p) = &cmd.program {
        let programs: BTreeSet<&str> = pool
            .samples
            .iter()
            .map(|s| s.key.program.as_str())
            .collect();
        match programs.iter().find(|q| q.eq_ignore_ascii_case(p)) {
            Some(q) => spelled.program = Some(q.to_string()),
            None => {
                return Err(Error::Usage(format!(
                    "--program {p}: the datasets hold {}",
                    programs.into_iter().collect::<Vec<_>>().join(", ")
                )))
            }
        }
    }
    let cmd = &spelled;
    check_options_read(
        &parse_experiments(
            &cmd.experiments,
            &pool,
            cmd.kfolds,
            cmd.settings.seed,
            cmd.layout,
        )?,
        ChosenOptions {
            folds: cmd.folds_given,
            program: cmd.program.is_some(),
            train_run: cmd.train_run.is_some(),
            train_input: cmd.train_input.is_some(),
        },
    )?;
    apply(&mut pool, cmd.step);
    let parts: Vec<&str> = cmd.experiments.split(',').map(str::trim).collect();
    if pool.columns.is_empty() {
        note(&format!(
            "{}: no counters (a times-only dataset): every model sees no feature and predicts \
             its training mean; `--step only` gives them the step features",
            pool.name
        ));
    } else if parts.contains(&"lopo") && cmd.step == Step::Off {
        note("across programs the step features carry over better than counters: `--step only`");
    }
    let nbbh = pool
        .samples
        .iter()
        .any(|s| s.key.program == "NB" || s.key.program == "BH");
    let fidelity = (parts.contains(&"fidelity") || (parts.contains(&"all") && nbbh)).then(|| {
        (
            advise::experiment::fidelity::fidelity(&pool),
            advise::experiment::fidelity::agreement(&pool),
        )
    });
    if parts == ["fidelity"] {
        let (rows, agreement) = fidelity.unwrap_or_default();
        let gpus = super::transfer_inputs::gpu_agreement(&cmd.datasets)?;
        if out.json {
            return out.emit_json(&serde_json::json!({
                "schema_version": 2,
                "dataset": pool.name,
                "fidelity": rows,
                "agreement": agreement,
                "gpu_agreement": gpus
                    .iter()
                    .map(|(a, b, rows)| serde_json::json!({"first": a, "second": b, "rows": rows}))
                    .collect::<Vec<_>>(),
            }));
        }
        let mut text = advise::report::fidelity::render(&rows, &agreement);
        for (a, b, rows) in &gpus {
            text.push('\n');
            text.push_str(&advise::report::fidelity::render_gpu_agreement(a, b, rows));
        }
        return out.emit(&text);
    }
    let (results, mut notes, log) = execute(cmd, &pool, !out.json)?;
    notes.insert(0, describe_pool(&pool, &cmd.datasets));
    // Simulated data says so, with its simulator, commit and configuration, in every report;
    // measured data names its GPUs.
    notes.splice(1..1, super::data_notes::data_notes(&cmd.datasets)?);
    let title = format!(
        "advise experiment on {} (seed {})",
        pool.name, cmd.settings.seed
    );
    if let Some(dir) = &cmd.out_dir {
        write_report(
            dir,
            &advise::report::experiment_files::Report {
                title: &title,
                notes: &notes,
                pool: &pool,
                results: &results,
                seed: cmd.settings.seed,
                folds: &log,
                charts: advise::report::experiment_files::Charts::EveryModel,
            },
        )?;
        note(&format!(
            "wrote {}/report.md, index.html, results.json, predictions.csv.gz and charts",
            dir.display()
        ));
    }
    if out.json {
        let mut doc = json(
            &pool,
            cmd.settings.seed,
            &results,
            &log,
            Samples::left_out_if(cmd.summary),
        );
        if let Some((rows, agreement)) = &fidelity {
            doc.insert("fidelity", rows);
            doc.insert("agreement", agreement);
        }
        return out.emit_json_streamed(&doc);
    }
    let mut text = String::new();
    if let Some((rows, agreement)) = &fidelity {
        text.push_str(&advise::report::fidelity::render(rows, agreement));
        text.push('\n');
    }
    text.push_str(&render_text(&title, &results, &notes));
    out.emit(&text)
}

fn describe_pool(pool: &SamplePool, dirs: &[PathBuf]) -> String {
    let names: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
    format!(
        "dataset {}: {} speedup samples of {} switches, {} features{}",
        names.join(" + "),
        pool.samples.len(),
        pool.switches.len(),
        pool.columns.len(),
        pool.normalizer
            .as_ref()
            .map(|n| format!(", counts divided by {n}"))
            .unwrap_or_default()
    )
}
