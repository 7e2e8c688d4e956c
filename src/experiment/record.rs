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

/// The results document without per-sample predictions: the tables, totals, intervals and
/// tests of every method, and the folds (`results.json` of a report folder, `--summary`).
pub fn summary(doc: &mut serde_json::Value) {
    if let Some(exps) = doc.get_mut("experiments").and_then(|e| e.as_array_mut()) {
        for e in exps {
            if let Some(opts) = e.get_mut("optimizations").and_then(|o| o.as_array_mut()) {
                for o in opts {
                    if let Some(map) = o.as_object_mut() {
                        map.remove("samples");
                    }
                }
            }
        }
    }
}

/// Every test sample's prediction as CSV rows (experiment, method, optimization, sample,
/// predicted, actual, recommended): what `summary` leaves out of the JSON.
pub fn predictions_csv(results: &[Vec<ExperimentResult>]) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut rows = vec![[
        "experiment",
        "method",
        "optimization",
        "sample",
        "predicted",
        "actual",
        "recommended",
    ]
    .map(String::from)];
    for r in results.iter().flatten() {
        for o in &r.optimizations {
            for s in &o.samples {
                rows.push([
                    r.name.clone(),
                    r.method.clone(),
                    o.name.clone(),
                    s.id.clone(),
                    s.predicted.map(|p| p.to_string()).unwrap_or_default(),
                    s.actual.to_string(),
                    s.recommended.to_string(),
                ]);
            }
        }
    }
    for row in rows {
        // Writing to memory cannot fail.
        let _ = w.write_record(&row);
    }
    String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
}

/// The results document (`results.json`).
pub fn json(
    pool: &SamplePool,
    seed: u64,
    results: &[Vec<ExperimentResult>],
    folds: &FoldLog,
) -> serde_json::Value {
    let flat: Vec<&ExperimentResult> = results.iter().flatten().collect();
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
