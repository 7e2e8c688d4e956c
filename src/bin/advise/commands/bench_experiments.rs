//! `advise bench experiments`: the thesis's six experiments with every method on a generated
//! (synthetic) NB/BH campaign of the thesis's size (4 NB and 6 BH inputs, 3 runs, 64 variants,
//! `--counters` counters), timed end to end. Where Java and Weka's jar exist, Weka's IBk, M5P
//! and LinearRegression are timed on one fold of each experiment (same training and test
//! sizes, fit + predict, best of 3) and scaled by the number of folds: an estimate of Weka's
//! time for the same work, labelled as such, beside advise's measured time for those methods.

use std::time::Instant;

use serde::Serialize;

use super::bench::{write_csv, Weka};
use super::output::{note, Output};
use advise::dataset::features::{build, FeatureSettings};
use advise::dataset::samples::Switch;
use advise::error::{Error, Result};
use advise::experiment::data::pool_from;
use advise::experiment::method::{contenders, Contender, ModelContender};
use advise::experiment::run::{run, RunSettings};
use advise::experiment::splits::{folds, Experiment};
use advise::experiment::synthetic::campaign;
use advise::report::table::TextTable;
use advise::variant::Program;
use advise_ml::{Data, Method};

#[derive(Debug, Serialize)]
struct Row {
    experiment: String,
    folds: usize,
    /// All methods and baselines, measured.
    advise_all_s: f64,
    /// IBk + M5P + LinearRegression alone, measured.
    advise_weka_methods_s: f64,
    /// Weka's IBk + M5P + LinearRegression: one fold measured, times the folds.
    weka_estimated_s: Option<f64>,
}

pub fn run_bench(counters: usize, seed: u64, with_weka: bool, out: &Output) -> Result<()> {
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
    let settings = RunSettings {
        seed,
        bootstrap: 200,
        ..Default::default()
    };
    let mut rows = Vec::new();
    for n in 1..=6u8 {
        let exp = Experiment::Thesis(n);
        let fs = folds(&pool, &exp, None)?;
        note(&format!("bench: {} ({} folds)", exp.name(), fs.len()));
        let t0 = Instant::now();
        run(&pool, &exp.name(), &fs, &all_refs, &settings, &|_, _| {})?;
        let advise_all_s = t0.elapsed().as_secs_f64();
        let t1 = Instant::now();
        run(&pool, &exp.name(), &fs, &weka_refs, &settings, &|_, _| {})?;
        let advise_weka_methods_s = t1.elapsed().as_secs_f64();
        let weka_estimated_s = match &weka {
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
                    per_fold += w.time_split(class, &train, &test, 3)?;
                }
                Some(per_fold * fs.len() as f64)
            }
            None => None,
        };
        rows.push(Row {
            experiment: exp.name(),
            folds: fs.len(),
            advise_all_s,
            advise_weka_methods_s,
            weka_estimated_s,
        });
    }
    let _ = std::fs::remove_dir_all(&dir);
    if out.json {
        return out.emit_json(
            &serde_json::json!({ "dataset": "synthetic", "counters": counters, "rows": rows }),
        );
    }
    let mut t = TextTable::new([
        "experiment",
        "folds",
        "all methods s",
        "ibk+m5p+linear s",
        "Weka est. s",
        "Weka / advise",
    ]);
    for r in &rows {
        t.push([
            r.experiment.clone(),
            r.folds.to_string(),
            format!("{:.2}", r.advise_all_s),
            format!("{:.2}", r.advise_weka_methods_s),
            r.weka_estimated_s
                .map(|w| format!("{w:.1}"))
                .unwrap_or("-".into()),
            r.weka_estimated_s
                .map(|w| format!("{:.1}", w / r.advise_weka_methods_s))
                .unwrap_or("-".into()),
        ]);
    }
    let total: f64 = rows.iter().map(|r| r.advise_all_s).sum();
    out.emit(&format!(
        "Synthetic NB/BH campaign of the thesis's size ({} speedup samples, {} features); the six experiments, all methods and baselines: {total:.1} s in all.\nWeka est.: one fold measured per experiment (fit + predict, best of 3, JVM start excluded) times the folds.\n{}",
        pool.samples.len(),
        pool.columns.len(),
        t.render()
    ))
}
