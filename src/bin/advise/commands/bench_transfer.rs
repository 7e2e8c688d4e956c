//! `advise bench transfer`: does advice carry over? Every model and the four baselines under
//! grouped k-fold (and ungrouped, to show what grouping removes), leave one program out, leave
//! one GPU out and simulator <-> hardware, with accuracy and balanced accuracy, 95% intervals
//! and McNemar's exact test against the best baseline of each evaluation.

use std::path::PathBuf;

use serde::Serialize;

use super::output::{note, Output};
use advise::dataset::features::View;
use advise::error::{Error, Result};
use advise::experiment::data::{load_pool_view, SamplePool};
use advise::experiment::method::{contenders, occupancy_rule, Contender};
use advise::experiment::run::{run, RunSettings};
use advise::experiment::splits::{folds, Experiment, Fold, FoldLayout};

use super::transfer_inputs::is_simulated;
pub use super::transfer_inputs::{default_inputs, GpuPair};
pub use super::transfer_report::render;
use super::transfer_report::{balanced, balanced_ci, outcomes};
use advise::experiment::stats::Interval;
use advise::experiment::step_features::{apply, Step};
use advise::experiment::transfer::{across_gpus, across_sources, join, same_direction, Joined};

/// What to evaluate.
#[derive(Debug, Clone)]
pub struct TransferSettings {
    /// Datasets with counters (measured or simulated).
    pub datasets: Vec<PathBuf>,
    /// (counters on GPU A, times on GPU B) pairs of the same spaces.
    pub gpu_pairs: Vec<GpuPair>,
    pub methods: String,
    pub view: View,
    pub step: Step,
    pub folds: usize,
    pub seed: u64,
}

/// One method in one evaluation.
#[derive(Debug, Clone, Serialize)]
pub struct MethodRow {
    pub method: String,
    pub baseline: bool,
    pub samples: usize,
    pub accuracy: Option<f64>,
    pub accuracy_ci: Option<Interval>,
    /// Over every sample pooled (`advise experiment`'s total is the mean over optimizations).
    pub balanced_accuracy: Option<f64>,
    /// Resampling the groups the accuracy's interval resamples.
    pub balanced_ci: Option<Interval>,
    /// McNemar's exact test against the evaluation's best baseline (by accuracy).
    pub p_vs_best_baseline: Option<f64>,
    /// The sign-flip test against the same baseline over whole test tuples (program, input
    /// and run), the groups the intervals resample: McNemar counts every sample as
    /// independent, which the samples of one program are not. `None` with fewer than 5
    /// tuples.
    pub p_clustered_vs_best_baseline: Option<f64>,
}

/// One evaluation.
#[derive(Debug, Clone, Serialize)]
pub struct Evaluation {
    pub name: String,
    pub data: String,
    pub view: View,
    /// Whether the step features were added (or used alone).
    pub step: Step,
    pub folds: usize,
    pub best_baseline: String,
    pub rows: Vec<MethodRow>,
    /// Where the folds are optimization families: each family's best model and baseline.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub by_family: Vec<super::transfer_report::FamilyRow>,
}

/// Runs every evaluation the data allows.
pub fn evaluate(s: &TransferSettings) -> Result<(Vec<Evaluation>, Vec<String>)> {
    let owned = contenders(&s.methods)?;
    let preds: Vec<&dyn Contender> = owned.iter().map(|b| b.as_ref()).collect();
    let settings = RunSettings {
        seed: s.seed,
        bootstrap: 300,
        ..Default::default()
    };
    let mut out = Vec::new();
    let mut notes = Vec::new();
    let load = |dirs: &[PathBuf], view: View| -> Result<Vec<SamplePool>> {
        advise::experiment::pool_merge::refuse_repeats(dirs)?;
        dirs.iter().map(|d| load_pool_view(d, view)).collect()
    };
    // The step features are added to joined pools (as `advise experiment` adds them), so
    // their columns come in one order whatever the datasets.
    let joined_with_step = |pools: Vec<SamplePool>| -> Result<Joined> {
        let mut j = join(pools)?;
        apply(&mut j.pool, s.step);
        Ok(j)
    };
    let pools = load(&s.datasets, s.view)?;
    let names: Vec<String> = pools.iter().map(|p| p.name.clone()).collect();
    let joined = joined_with_step(pools)?;
    let all = &joined.pool;
    let kfold = |layout| Experiment::KFold {
        k: s.folds,
        seed: s.seed,
        layout,
    };
    // Across programs the step alone carries over better than the counters of a portable
    // view on this project's data (docs/families.md): with the step features off, leave one
    // program out also runs on them alone, labelled so.
    let stepped = (s.step == Step::Off).then(|| {
        let mut p = all.clone();
        apply(&mut p, Step::Only);
        p
    });
    let mut plans = vec![
        (
            Label::new("grouped k-fold", s.step, false),
            kfold(FoldLayout::Grouped),
            all,
        ),
        (
            Label::new("ungrouped k-fold", s.step, false),
            kfold(FoldLayout::Ungrouped),
            all,
        ),
        (
            Label::new("leave one program out", s.step, true),
            Experiment::LeaveOneProgramOut,
            all,
        ),
    ];
    if let Some(p) = &stepped {
        plans.push((
            Label::new(
                "leave one program out, step features only",
                Step::Only,
                true,
            ),
            Experiment::LeaveOneProgramOut,
            p,
        ));
    }
    for (label, exp, pool) in plans {
        note(&format!(
            "bench transfer: {} on {}",
            label.name,
            names.join(" + ")
        ));
        // A split the data cannot make (too few samples per switch for k folds, one program)
        // is a note, not the end of the other evaluations.
        match folds(pool, &exp, None) {
            Ok(fs) => out.push(evaluation(
                &label,
                &names.join(" + "),
                s.view,
                pool,
                &fs,
                &preds,
                &settings,
            )?),
            Err(e) => notes.push(format!("{}: {e}", label.name)),
        }
    }
    let unmatched = all.unmatched_switches();
    if !unmatched.is_empty() {
        notes.push(format!(
            "switches in no optimization family (not matched across programs; name one in \
             switches.csv's family column): {}",
            unmatched.join(", ")
        ));
    }
    for (a, b) in &s.gpu_pairs {
        let shown = |d: &[PathBuf]| {
            d.iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(" + ")
        };
        note(&format!(
            "bench transfer: leave one GPU out {} -> {}",
            shown(a),
            shown(b)
        ));
        let pa = joined_with_step(load(a, s.view)?)?.pool;
        let pb = join(load(b, View::Counters)?)?.pool;
        let (same, twins) = same_direction(&pa, &pb);
        notes.push(format!(
            "leave one GPU out {} -> {}: the training side's own measured speedup has the \
             direction of the other's in {same} of {twins} samples ({:.1}%), what keeping its \
             choices scores there and the ceiling of a model that learned it perfectly",
            pa.name,
            pb.name,
            100.0 * same as f64 / twins.max(1) as f64
        ));
        let (pool, fs) = across_gpus(&pa, &pb, s.folds, s.seed, "logo")?;
        out.push(evaluation(
            &Label::new("leave one GPU out", s.step, false),
            &pool.name,
            s.view,
            &pool,
            &fs,
            &preds,
            &settings,
        )?);
    }
    let (sim, hw): (Vec<PathBuf>, Vec<PathBuf>) =
        s.datasets.iter().cloned().partition(|d| is_simulated(d));
    if sim.is_empty() || hw.is_empty() {
        notes.push("simulator <-> hardware: needs simulated and measured datasets".into());
    } else {
        // Raw counters of a simulator and a GPU share no names: only the portable view.
        let mut pools = load(&sim, View::Portable)?;
        let ns = pools.len();
        pools.extend(load(&hw, View::Portable)?);
        let j = joined_with_step(pools)?;
        let (sims, hws): (Vec<usize>, Vec<usize>) = (
            (0..ns).collect(),
            (ns..j.origin.iter().max().map_or(ns, |m| m + 1)).collect(),
        );
        for (label, train, test) in [
            ("simulator -> hardware", &sims, &hws),
            ("hardware -> simulator", &hws, &sims),
        ] {
            let fs = across_sources(&j, train, test, label);
            if fs.is_empty() {
                notes.push(format!(
                    "{label}: no optimization family exists on both sides (training side: {}; \
                     test side: {})",
                    family_list(&j, train),
                    family_list(&j, test)
                ));
                continue;
            }
            out.push(evaluation(
                &Label::new(label, s.step, true),
                &j.pool.name,
                View::Portable,
                &j.pool,
                &fs,
                &preds,
                &settings,
            )?);
        }
    }
    Ok((out, notes))
}

/// The families of the samples from the given pools.
fn family_list(j: &advise::experiment::transfer::Joined, from: &[usize]) -> String {
    let pool = &j.pool;
    let mut f: Vec<&str> = (0..pool.samples.len())
        .filter(|&i| from.contains(&j.origin[i]))
        .filter_map(|i| pool.family(&pool.samples[i].switch))
        .collect();
    f.sort_unstable();
    f.dedup();
    f.join(", ")
}

/// An evaluation's name, the step features its models saw, and whether its folds are
/// optimization families (leave one program out, simulator <-> hardware), so that the report
/// breaks it down by family.
struct Label<'a> {
    name: &'a str,
    step: Step,
    by_family: bool,
}

impl<'a> Label<'a> {
    fn new(name: &'a str, step: Step, by_family: bool) -> Self {
        Label {
            name,
            step,
            by_family,
        }
    }
}

fn evaluation(
    label: &Label,
    data: &str,
    view: View,
    pool: &SamplePool,
    fs: &[Fold],
    preds: &[&dyn Contender],
    settings: &RunSettings,
) -> Result<Evaluation> {
    let name = label.name;
    if fs.is_empty() {
        return Err(Error::Data(format!("{name}: no folds on {data}")));
    }
    // Where the step features include occupancy, the occupancy calculator's rule is a
    // baseline too.
    let rule = occupancy_rule(&pool.columns);
    let mut preds = preds.to_vec();
    if let Some(r) = &rule {
        preds.push(r);
    }
    let bar = super::output::bar(name, 0);
    let results = run(pool, name, fs, &preds, settings, &|done, total| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    })?;
    bar.finish_and_clear();
    let correct: Vec<Vec<(f64, bool)>> = results.iter().map(outcomes).collect();
    // Every method answers the same samples in the same order, so one grouping serves all:
    // the intervals' groups, and the tuples the clustered test resamples (none with fewer
    // than 5).
    let groups = results
        .first()
        .map(|r| r.bootstrap_groups())
        .unwrap_or_default();
    let tuples = results.first().and_then(|r| r.tuples());
    let best = results
        .iter()
        .enumerate()
        .filter(|(_, r)| r.baseline)
        .max_by(|a, b| {
            a.1.total
                .accuracy
                .unwrap_or(0.0)
                .total_cmp(&b.1.total.accuracy.unwrap_or(0.0))
        })
        .map(|(i, _)| i);
    let rows = results
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let other = best.filter(|&b| b != i);
            let p =
                other.map(|b| super::transfer_report::mcnemar_between(&correct[i], &correct[b]));
            let p_clustered = other.zip(tuples.as_deref()).and_then(|(b, t)| {
                super::transfer_report::clustered_p(&correct[i], &correct[b], t, settings.seed)
            });
            MethodRow {
                method: r.method.clone(),
                baseline: r.baseline,
                samples: correct[i].len(),
                accuracy: r.total.accuracy,
                accuracy_ci: r.total.accuracy_ci,
                balanced_accuracy: balanced(&correct[i]),
                balanced_ci: balanced_ci(&correct[i], &groups, settings.seed),
                p_vs_best_baseline: p,
                p_clustered_vs_best_baseline: p_clustered,
            }
        })
        .collect();
    Ok(Evaluation {
        name: name.to_string(),
        data: data.to_string(),
        view,
        step: label.step,
        folds: fs.len(),
        best_baseline: best.map(|b| results[b].method.clone()).unwrap_or_default(),
        rows,
        by_family: if label.by_family {
            super::transfer_report::by_family(&results)
        } else {
            Vec::new()
        },
    })
}

pub fn run_command(s: &TransferSettings, out: &Output) -> Result<()> {
    if s.datasets.is_empty() {
        return Err(Error::Usage(
            "no dataset with counters: give --dataset DIR (repeatable)".into(),
        ));
    }
    if s.folds < 2 {
        return Err(Error::Usage(format!(
            "--folds {}: a k-fold needs at least 2 folds",
            s.folds
        )));
    }
    let (evals, notes) = evaluate(s)?;
    // Nothing evaluated is a failure, with the notes that say why (a script reading the JSON
    // must not take an empty list for a result).
    if evals.is_empty() {
        return Err(Error::Data(format!(
            "bench transfer: no evaluation could be made: {}",
            notes.join("; ")
        )));
    }
    if out.json {
        return out.emit_json(&serde_json::json!({
            "schema_version": 1,
            "view": s.view,
            "seed": s.seed,
            "evaluations": evals,
            "notes": notes,
        }));
    }
    out.emit(&render(&evals, &notes))
}
