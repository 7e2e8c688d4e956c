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

/// The results document (`results.json`).
pub fn json(
    pool: &SamplePool,
    seed: u64,
    results: &[Vec<ExperimentResult>],
    folds: &FoldLog,
) -> serde_json::Value {
    let flat: Vec<&ExperimentResult> = results.iter().flatten().collect();
    serde_json::json!({
        "schema_version": 2,
        "dataset": pool.name,
        "seed": seed,
        "normalizer": pool.normalizer,
        "experiments": flat,
        "folds": folds,
    })
}
