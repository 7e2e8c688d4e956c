//! `advise bench experiments`: the thesis's six experiments with every method on a generated
//! (synthetic) NB/BH campaign of the thesis's size (4 NB and 6 BH inputs, 3 runs, 64 variants,
//! `--counters` counters), timed end to end as `advise experiment --exp all` runs them (all
//! six together, one fit per distinct training set; IBk + M5P + LinearRegression, then the
//! other methods and the baselines; the total is their sum), with the process's peak memory.
//! Where Java and Weka's jar exist, Weka's IBk, M5P and LinearRegression are timed on one fold
//! of each experiment (same training and test sizes, fit + predict, the best of runs for at
//! least 3 s in one JVM, so that its JIT has compiled the hot code) and scaled by
//! the number of folds, and (conservatively, as advise fits once per distinct training set)
//! by the number of distinct training sets: estimates of Weka's time, labelled as such.

use std::time::Instant;

use serde::Serialize;

use super::bench_weka::{write_csv, Weka};
use super::output::{note, Output};
use advise::dataset::features::{build, FeatureSettings};
use advise::dataset::samples::Switch;
use advise::error::{Error, Result};
use advise::experiment::data::pool_from;
use advise::experiment::method::{contenders, Contender, ModelContender};
use advise::experiment::run::{run_all, RunSettings};

/// Seconds Weka runs each model on a fold's data at least (in one JVM, so that the per-fold
/// estimate is of compiled code, as in a Weka run over all folds; see bench.rs).
const WEKA_FOLD_SECONDS: f64 = 3.0;
use advise::experiment::splits::{folds, Experiment, Fold};
use advise::experiment::synthetic::campaign;
use advise::report::table::TextTable;
use advise::variant::Program;
use advise_ml::{Data, Method};

#[derive(Debug, Serialize)]
struct Row {
    experiment: String,
    folds: usize,
    /// Distinct training sets among the folds.
    train_sets: usize,
    /// Of those, the sets no earlier experiment has (advise fits once per set in all).
    new_train_sets: usize,
    /// Weka's IBk + M5P + LinearRegression: one fold measured, times the folds.
    weka_estimated_s: Option<f64>,
    /// The same, times the new distinct training sets only.
    weka_estimated_shared_s: Option<f64>,
}

/// The most counter columns of the synthetic campaign: each of its runs (program, input, run
/// and variant: about 1,700) holds a measurement row per counter, and every experiment fits
/// its models on all of them.
const MOST_COUNTERS: usize = 1_000;

pub fn run_bench(counters: usize, seed: u64, with_weka: bool, out: &Output) -> Result<()> {
    if counters == 0 || counters > MOST_COUNTERS {
        return Err(Error::Usage(format!(
            "--cols {counters}: from 1 to {MOST_COUNTERS} counter columns (the thesis's \
             campaign has 250)"
        )));
    }
    let (m, t) = campaign(counters, seed);
    let table = build(&m, &t, &FeatureSettings::default())?;
    let switches: Vec<Switch> = Program::ALL.into_iter().flat_map(Switch::bits_of).collect();
    let pool = pool_from("synthetic-thesis-campaign".into(), &table, &switches)?;
    let dir = std::env::temp_dir().join(format!("advise-bench-exp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
    let weka = if with_weka { Weka::find(&dir) } else { None };
    if with_weka && weka.is_none() {
        note("bench: java, javac or Weka's jar not found; timing advise only");
    }
    let all = contenders("all")?;
    let all_refs: Vec<&dyn Contender> = all.iter().map(|b| b.as_ref()).collect();
    let weka_methods: Vec<ModelContender> = [Method::Ibk, Method::M5p, Method::Linear]
        .into_iter()
        .map(|m| ModelContender {
            params: m.default_params(),
        })
        .collect();
    let weka_refs: Vec<&dyn Contender> = weka_methods.iter().map(|m| m as &dyn Contender).collect();
    let weka_names: Vec<String> = weka_refs.iter().map(|c| c.name()).collect();
    let other_refs: Vec<&dyn Contender> = all_refs
        .iter()
        .copied()
        .filter(|c| !weka_names.contains(&c.name()))
        .collect();
    let all_folds: Vec<Vec<advise::experiment::splits::Fold>> = (1..=6u8)
        .map(|n| folds(&pool, &Experiment::Thesis(n), None))
        .collect::<Result<_>>()?;
    let work: usize = all_folds.iter().map(|f| f.len() * all_refs.len()).sum();
    let bar = super::output::bar("bench experiments", work as u64);
    let tick = |_: usize, _: usize| bar.inc(1);
    let settings = RunSettings {
        seed,
        bootstrap: 200,
        ..Default::default()
    };
    let views: Vec<(String, &[Fold])> = all_folds
        .iter()
        .zip(1..=6u8)
        .map(|(f, n)| (Experiment::Thesis(n).name(), f.as_slice()))
        .collect();
    let views: Vec<(&str, &[Fold])> = views.iter().map(|(n, f)| (n.as_str(), *f)).collect();
    let t1 = Instant::now();
    run_all(&pool, &views, &weka_refs, &settings, &tick)?;
    let advise_weka_methods_s = t1.elapsed().as_secs_f64();
    let t0 = Instant::now();
    run_all(&pool, &views, &other_refs, &settings, &tick)?;
    let total = advise_weka_methods_s + t0.elapsed().as_secs_f64();
    let mut seen = std::collections::BTreeSet::new();
    let mut rows = Vec::new();
    for (fs, n) in all_folds.iter().zip(1..=6u8) {
        let exp = Experiment::Thesis(n);
        let sets: std::collections::BTreeSet<&[usize]> =
            fs.iter().map(|f| f.train.as_slice()).collect();
        let train_sets = sets.len();
        let new_train_sets = sets.into_iter().filter(|s| seen.insert(*s)).count();
        let weka_per_fold_s = match &weka {
            Some(w) => {
                let f = &fs[0];
                let data = |idx: &[usize]| {
                    let x = idx
                        .iter()
                        .map(|&i| {
                            pool.samples[i]
                                .features
                                .iter()
                                .map(|v| v.unwrap_or(f64::NAN))
                                .collect()
                        })
                        .collect();
                    let y = idx.iter().map(|&i| pool.samples[i].speedup).collect();
                    Data::numeric(&pool.columns, "speedup", x, y)
                };
                let (train, test) = (
                    dir.join(format!("train{n}.csv")),
                    dir.join(format!("test{n}.csv")),
                );
                write_csv(&data(&f.train), &train)?;
                write_csv(&data(&f.test), &test)?;
                let mut per_fold = 0.0;
                for class in [
                    "weka.classifiers.lazy.IBk",
                    "weka.classifiers.trees.M5P",
                    "weka.classifiers.functions.LinearRegression",
                ] {
                    per_fold += w
                        .time_split(class, &train, &test, 3, WEKA_FOLD_SECONDS)?
                        .best;
                }
                Some(per_fold)
            }
            None => None,
        };
        rows.push(Row {
            experiment: exp.name(),
            folds: fs.len(),
            train_sets,
            new_train_sets,
            weka_estimated_s: weka_per_fold_s.map(|f| f * fs.len() as f64),
            weka_estimated_shared_s: weka_per_fold_s.map(|f| f * new_train_sets as f64),
        });
    }
    bar.finish_and_clear();
    let _ = std::fs::remove_dir_all(&dir);
    let peak = peak_memory_mib();
    if out.json {
        return out.emit_json(&serde_json::json!({
            "dataset": "synthetic",
            "counters": counters,
            "total_s": total,
            "weka_methods_s": advise_weka_methods_s,
            "peak_memory_mib": peak,
            "rows": rows,
        }));
    }
    let mut t = TextTable::new([
        "experiment",
        "folds",
        "training sets",
        "new training sets",
        "Weka est. s",
        "same, fits shared s",
    ]);
    let secs = |w: Option<f64>| w.map_or("-".into(), |w| format!("{w:.1}"));
    for r in &rows {
        t.push([
            r.experiment.clone(),
            r.folds.to_string(),
            r.train_sets.to_string(),
            r.new_train_sets.to_string(),
            secs(r.weka_estimated_s),
            secs(r.weka_estimated_shared_s),
        ]);
    }
    let sum = |f: fn(&Row) -> Option<f64>| rows.iter().map(f).sum::<Option<f64>>();
    let fits: usize = rows.iter().map(|r| r.new_train_sets).sum();
    let totals = match (sum(|r| r.weka_estimated_s), sum(|r| r.weka_estimated_shared_s)) {
        (Some(w), Some(ws)) => format!(
            "\nWeka est. for ibk+m5p+linear: {w:.1} s ({:.1}x advise), or {ws:.1} s ({:.1}x) if it too fitted once per distinct training set.",
            w / advise_weka_methods_s,
            ws / advise_weka_methods_s
        ),
        _ => String::new(),
    };
    out.emit(&format!(
        "Synthetic NB/BH campaign of the thesis's size ({} speedup samples, {} features); the six experiments run together ({fits} distinct training sets), all methods and baselines: {total:.2} s in all, of which ibk+m5p+linear {advise_weka_methods_s:.2} s; peak memory {}.\nWeka est.: one fold measured per experiment (fit + predict, the best of runs for at least 3 s in one JVM, so after its JIT warm-up; JVM start excluded) times the folds (\"fits shared\": times the training sets no earlier experiment has).{totals}\n{}",
        pool.samples.len(),
        pool.columns.len(),
        peak.map_or("unknown".into(), |m| format!("{m:.0} MiB")),
        t.render()
    ))
}

/// The process's peak resident memory (Linux's VmHWM, what getrusage reports as maxrss).
fn peak_memory_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}
