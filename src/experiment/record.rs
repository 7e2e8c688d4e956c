//! What an experiment run leaves behind for readers and checkers: the results document
//! (`results.json`) with every method's tables and the folds with their validation groups.

use serde::Serialize;

use super::data::SamplePool;
use super::run::ExperimentResult;
use super::splits::Fold;

/// The folds an experiment ran, with the validation groups on each side (`results.json`).
#[derive(Debug, Clone, Serialize)]
pub struct FoldRecord {
    pub switch: String,
    pub choice: String,
    /// Indices into `groups` of the training and the test samples' groups.
    pub train_groups: Vec<usize>,
    pub test_groups: Vec<usize>,
}

/// One experiment's folds, with the group keys (program|input|configuration family) their
/// indices refer to.
#[derive(Debug, Clone, Serialize)]
pub struct ExperimentFolds {
    pub experiment: String,
    pub dataset: String,
    pub groups: Vec<String>,
    pub folds: Vec<FoldRecord>,
}

/// Every experiment's folds.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(transparent)]
pub struct FoldLog {
    pub experiments: Vec<ExperimentFolds>,
}

impl FoldLog {
    pub fn add(&mut self, pool: &SamplePool, name: &str, folds: &[Fold]) {
        let (keys, of) = super::splits::groups(pool);
        let side = |idx: &[usize]| -> Vec<usize> {
            let mut g: Vec<usize> = idx.iter().map(|&i| of[i]).collect();
            g.sort_unstable();
            g.dedup();
            g
        };
        let records: Vec<FoldRecord> = folds
            .iter()
            .map(|f| FoldRecord {
                switch: f.switch.clone(),
                choice: f.choice.clone(),
                train_groups: side(&f.train),
                test_groups: side(&f.test),
            })
            .collect();
        // Only the groups the folds use, renumbered, so the document stays small.
        let mut used: Vec<usize> = records
            .iter()
            .flat_map(|r| r.train_groups.iter().chain(&r.test_groups).copied())
            .collect();
        used.sort_unstable();
        used.dedup();
        let renumber = |g: &[usize]| -> Vec<usize> {
            g.iter()
                .filter_map(|x| used.binary_search(x).ok())
                .collect()
        };
        self.experiments.push(ExperimentFolds {
            experiment: name.to_string(),
            dataset: pool.name.clone(),
            groups: used.iter().map(|&g| keys[g].clone()).collect(),
            folds: records
                .into_iter()
                .map(|r| FoldRecord {
                    train_groups: renumber(&r.train_groups),
                    test_groups: renumber(&r.test_groups),
                    ..r
                })
                .collect(),
        });
    }

    pub fn extend(&mut self, other: FoldLog) {
        self.experiments.extend(other.experiments);
    }
}

/// Writes every test sample's prediction as CSV rows (experiment, method, optimization,
/// sample, predicted, actual, recommended), what [`json`] leaves out with `Samples::Left`, one
/// row at a time: the demo's 1.3 million rows never sit in memory whole.
pub fn write_predictions_csv(
    results: &[Vec<ExperimentResult>],
    out: impl std::io::Write,
) -> csv::Result<()> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record([
        "experiment",
        "method",
        "optimization",
        "sample",
        "predicted",
        "actual",
        "recommended",
    ])?;
    for r in results.iter().flatten() {
        for o in &r.optimizations {
            for s in &o.samples {
                let predicted = s.predicted.map(|p| p.to_string()).unwrap_or_default();
                w.write_record([
                    r.name.as_str(),
                    r.method.as_str(),
                    o.name.as_str(),
                    s.id.as_str(),
                    predicted.as_str(),
                    s.actual.to_string().as_str(),
                    s.recommended.to_string().as_str(),
                ])?;
            }
        }
    }
    w.flush()?;
    Ok(())
}

/// Whether the results document carries every test sample's prediction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Samples {
    /// Per optimization, every sample's prediction (`--json` without `--summary`).
    Kept,
    /// The tables, totals, intervals and tests of every method, and the folds, without the
    /// per-sample predictions (`results.json` of a report folder, `--summary`).
    Left,
}

impl Samples {
    /// `Left` where a summary was asked for (`--summary`), else `Kept`.
    pub fn left_out_if(summary: bool) -> Samples {
        if summary {
            Samples::Left
        } else {
            Samples::Kept
        }
    }
}

/// The results document (`results.json`).
pub fn json(
    pool: &SamplePool,
    seed: u64,
    results: &[Vec<ExperimentResult>],
    folds: &FoldLog,
    samples: Samples,
) -> serde_json::Value {
    // One result at a time, its samples dropped at once where they are left out: the whole
    // document's samples as JSON values would take gigabytes on the demo.
    let flat: Vec<serde_json::Value> = results
        .iter()
        .flatten()
        .map(|r| {
            let mut v = serde_json::to_value(r).unwrap_or(serde_json::Value::Null);
            if samples == Samples::Left {
                leave_samples_out(&mut v);
            }
            v
        })
        .collect();
    // Simulated samples say so in the document itself, not only in the text's notes.
    let simulated = pool
        .samples
        .iter()
        .filter(|s| pool.simulated.has(s))
        .count();
    let data = super::result::data_label(simulated, pool.samples.len());
    serde_json::json!({
        "schema_version": 2,
        "dataset": pool.name,
        "data": data,
        "simulated_samples": simulated,
        "samples": pool.samples.len(),
        "seed": seed,
        "normalizer": pool.normalizer,
        "experiments": flat,
        "folds": folds,
    })
}

/// Removes the per-sample predictions from one result's JSON.
fn leave_samples_out(result: &mut serde_json::Value) {
    if let Some(opts) = result
        .get_mut("optimizations")
        .and_then(|o| o.as_array_mut())
    {
        for o in opts {
            if let Some(map) = o.as_object_mut() {
                map.remove("samples");
            }
        }
    }
}
