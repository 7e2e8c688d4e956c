//! `advise predict`: fit a model on a CSV/ARFF training file (or load a saved
//! one) and predict a test file, or cross-validate the training file as Weka's `-x K -s S` does.

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::output::{note, Output};
use crate::dataset::instances::Instances;
use crate::error::{Error, Result};
use crate::model::cv::cross_validate;
use crate::model::{weka_options, Data, FittedModel, Method, Params};

/// Where the training data comes from and how it is read.
#[derive(Debug, Clone, Default)]
pub struct TrainSettings {
    pub method: Option<String>,
    pub train: Option<PathBuf>,
    /// Target column by name or 1-based number; `None`: the last column, as in Weka.
    pub target: Option<String>,
    pub ignore: Vec<String>,
    pub weka_options: Option<String>,
}

/// Everything `advise predict` needs.
#[derive(Debug, Clone, Default)]
pub struct PredictSettings {
    pub train: TrainSettings,
    pub test: Option<PathBuf>,
    pub model: Option<PathBuf>,
    pub cv: Option<usize>,
    pub seed: i64,
}

impl From<crate::cli::TrainArgs> for TrainSettings {
    fn from(a: crate::cli::TrainArgs) -> Self {
        TrainSettings {
            method: a.method,
            train: a.train,
            target: a.target,
            ignore: ignore_list(&a.ignore),
            weka_options: a.weka_options,
        }
    }
}

/// Splits `--ignore a,b --ignore c` into names.
pub fn ignore_list(values: &[String]) -> Vec<String> {
    values
        .iter()
        .flat_map(|v| v.split(','))
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

fn read_table(path: &Path, target: Option<&str>, ignore: &[String]) -> Result<Instances> {
    let mut t = Instances::read(path)?;
    t.set_target(target)
        .and_then(|_| t.remove_columns(ignore))
        .map_err(|e| Error::Invalid(format!("{}: {e}", path.display())))?;
    Ok(t)
}

impl TrainSettings {
    fn params(&self) -> Result<Params> {
        let method: Method = self
            .method
            .as_deref()
            .ok_or_else(|| {
                Error::Invalid("--method is required (ibk, m5p, linear, forest, gbrt, knn)".into())
            })?
            .parse()?;
        weka_options::parse(method, self.weka_options.as_deref().unwrap_or(""))
    }

    fn data(&self) -> Result<(Instances, Data)> {
        let path = self
            .train
            .as_ref()
            .ok_or_else(|| Error::Invalid("--train is required".into()))?;
        let table = read_table(path, self.target.as_deref(), &self.ignore)?;
        let data = Data::from_instances(&table)
            .map_err(|e| Error::Invalid(format!("{}: {e}", path.display())))?;
        Ok((table, data))
    }

    /// Fits the model these settings describe.
    pub fn fit(&self) -> Result<FittedModel> {
        let params = self.params()?;
        let (_, data) = self.data()?;
        params.fit(&data)
    }
}

#[derive(Serialize)]
struct JsonPrediction {
    row: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    fold: Option<usize>,
    predicted: f64,
}

/// Writes predictions: one per line, or JSON, or (with `-o`) CSV with the input's columns.
fn emit(
    out: &Output,
    table: &Instances,
    rows: &[usize],
    folds: Option<&[usize]>,
    predicted: &[f64],
) -> Result<()> {
    if out.json {
        let items: Vec<JsonPrediction> = rows
            .iter()
            .enumerate()
            .map(|(i, &row)| JsonPrediction {
                row,
                fold: folds.map(|f| f[i]),
                predicted: predicted[i],
            })
            .collect();
        return out.emit_json(&items);
    }
    if out.path.is_some() {
        return out.emit_csv(|buf| {
            let mut w = csv::Writer::from_writer(buf);
            let mut header: Vec<String> = table.attributes.iter().map(|a| a.name.clone()).collect();
            if folds.is_some() {
                header.push("fold".into());
            }
            header.push("predicted".into());
            let err = |e: csv::Error| Error::Invalid(format!("cannot write CSV: {e}"));
            w.write_record(&header).map_err(err)?;
            for (i, &row) in rows.iter().enumerate() {
                let mut rec: Vec<String> = (0..table.attributes.len())
                    .map(|c| table.cell_text(row, c))
                    .collect();
                if let Some(f) = folds {
                    rec.push(f[i].to_string());
                }
                rec.push(predicted[i].to_string());
                w.write_record(&rec).map_err(err)?;
            }
            w.flush()
                .map_err(|e| Error::Invalid(format!("cannot write CSV: {e}")))
        });
    }
    let mut text = String::with_capacity(predicted.len() * 20);
    for p in predicted {
        text.push_str(&p.to_string());
        text.push('\n');
    }
    out.emit(&text)
}

pub fn run(s: &PredictSettings, out: &Output) -> Result<()> {
    if let Some(folds) = s.cv {
        if s.test.is_some() || s.model.is_some() {
            return Err(Error::Invalid(
                "--cv uses --train only (no --test or --model)".into(),
            ));
        }
        let params = s.train.params()?;
        let (table, data) = s.train.data()?;
        let preds = cross_validate(&params, &data, folds, s.seed)?;
        // Weka lists fold by fold; we print in the file's row order.
        let mut by_row = preds;
        by_row.sort_by_key(|p| p.row);
        let rows: Vec<usize> = by_row.iter().map(|p| p.row).collect();
        let folds: Vec<usize> = by_row.iter().map(|p| p.fold).collect();
        let predicted: Vec<f64> = by_row.iter().map(|p| p.predicted).collect();
        note(&format!(
            "{}: {folds_n}-fold cross-validation (seed {}) of {} rows",
            params.method(),
            s.seed,
            rows.len(),
            folds_n = s.cv.unwrap_or(0)
        ));
        return emit(out, &table, &rows, Some(&folds), &predicted);
    }
    let test_path = s
        .test
        .as_ref()
        .ok_or_else(|| Error::Invalid("--test is required (or --cv K)".into()))?;
    let model = match &s.model {
        Some(path) => {
            if s.train.train.is_some() || s.train.weka_options.is_some() {
                return Err(Error::Invalid(
                    "--model replaces --train and --weka-options; give one or the other".into(),
                ));
            }
            let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
            let model = FittedModel::from_json(&text, &path.display().to_string())?;
            if let Some(m) = &s.train.method {
                if m.parse::<Method>()? != model.method() {
                    return Err(Error::Invalid(format!(
                        "--method {m} but {} holds a {} model",
                        path.display(),
                        model.method()
                    )));
                }
            }
            model
        }
        None => s.train.fit()?,
    };
    let mut test = Instances::read(test_path)?;
    test.drop_present(&s.train.ignore);
    let data = Data::from_instances_like(
        &test,
        &test_path.display().to_string(),
        &model.features,
        &model.target,
    )?;
    let predicted = model.predict(&data)?;
    let rows: Vec<usize> = (0..predicted.len()).collect();
    emit(out, &test, &rows, None, &predicted)
}
