//! What an experiment run leaves behind for readers and checkers: the results document
//! (`results.json`) with every method's tables and the folds with their validation groups.

use std::collections::BTreeMap;

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

/// The results document (`results.json`, `--json`): the dataset, the seed, every experiment's
/// results and the folds, and what a command adds ([`ResultsDocument::insert`]). It is
/// written without being built whole: each result becomes JSON alone as it is written (the
/// demo's full document is 245 MB of text; as JSON values it took gigabytes). Its keys come
/// out sorted, at every level, as serde_json's maps sort them.
pub struct ResultsDocument<'a> {
    /// Each entry as JSON, or why it could not become JSON (said when the document is
    /// written, not turned into a silent `null`).
    fields: BTreeMap<String, Result<serde_json::Value, String>>,
    experiments: &'a [Vec<ExperimentResult>],
    samples: Samples,
}

/// The key of the experiments' results, written lazily.
const EXPERIMENTS: &str = "experiments";

impl ResultsDocument<'_> {
    /// Adds a top-level entry (a command's own tables, such as `fidelity`); the experiments'
    /// key is the document's own and is left alone.
    pub fn insert(&mut self, key: &str, value: impl Serialize) {
        if key != EXPERIMENTS {
            let value = serde_json::to_value(value).map_err(|e| e.to_string());
            self.fields.insert(key.to_string(), value);
        }
    }
}

impl Serialize for ResultsDocument<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let results = LazyResults {
            experiments: self.experiments,
            samples: self.samples,
        };
        let mut map = s.serialize_map(Some(self.fields.len() + 1))?;
        let mut pending = true;
        for (key, value) in &self.fields {
            if pending && key.as_str() > EXPERIMENTS {
                map.serialize_entry(EXPERIMENTS, &results)?;
                pending = false;
            }
            match value {
                Ok(value) => map.serialize_entry(key, value)?,
                Err(why) => {
                    return Err(serde::ser::Error::custom(format!(
                        "the entry `{key}` cannot be written as JSON: {why}"
                    )))
                }
            }
        }
        if pending {
            map.serialize_entry(EXPERIMENTS, &results)?;
        }
        map.end()
    }
}

/// Every result as JSON, one at a time, its samples dropped where they are left out.
struct LazyResults<'a> {
    experiments: &'a [Vec<ExperimentResult>],
    samples: Samples,
}

impl Serialize for LazyResults<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{Error, SerializeSeq};
        let count = self.experiments.iter().map(Vec::len).sum();
        let mut seq = s.serialize_seq(Some(count))?;
        for r in self.experiments.iter().flatten() {
            // Through a JSON value, whose maps sort their keys, as the rest of the document.
            let mut v = serde_json::to_value(r).map_err(S::Error::custom)?;
            if self.samples == Samples::Left {
                leave_samples_out(&mut v);
            }
            seq.serialize_element(&v)?;
        }
        seq.end()
    }
}

/// The results document of `results` on `pool` (see [`ResultsDocument`]).
pub fn json<'a>(
    pool: &SamplePool,
    seed: u64,
    results: &'a [Vec<ExperimentResult>],
    folds: &FoldLog,
    samples: Samples,
) -> ResultsDocument<'a> {
    // Simulated samples say so in the document itself, not only in the text's notes.
    let simulated = pool
        .samples
        .iter()
        .filter(|s| pool.simulated.has(s))
        .count();
    let data = super::result::data_label(simulated, pool.samples.len());
    let mut doc = ResultsDocument {
        fields: BTreeMap::new(),
        experiments: results,
        samples,
    };
    doc.insert("schema_version", 2);
    doc.insert("dataset", &pool.name);
    doc.insert("data", data);
    doc.insert("simulated_samples", simulated);
    doc.insert("samples", pool.samples.len());
    doc.insert("seed", seed);
    doc.insert("normalizer", &pool.normalizer);
    doc.insert("folds", folds);
    doc
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

#[cfg(test)]
mod tests {
    use super::*;

    /// An entry that cannot become JSON (a map keyed by pairs) makes writing the document an
    /// error that names it, not a silent `null`.
    #[test]
    fn an_entry_that_is_not_json_is_an_error_when_written() {
        let mut doc = ResultsDocument {
            fields: BTreeMap::new(),
            experiments: &[],
            samples: Samples::Left,
        };
        doc.insert("seed", 7);
        assert_eq!(
            serde_json::to_string(&doc).unwrap(),
            r#"{"experiments":[],"seed":7}"#
        );
        doc.insert("pairs", BTreeMap::from([((1, 2), 3)]));
        let e = serde_json::to_string(&doc).unwrap_err().to_string();
        assert!(
            e.contains("the entry `pairs` cannot be written as JSON"),
            "{e}"
        );
    }
}
