//! `advise predict`: fit a model on a CSV/ARFF training file (or load a saved
//! one) and predict a test file, or cross-validate the training file as Weka's `-x K -s S` does.

use std::path::{Path, PathBuf};

use super::output::{note, Output};
use super::predict_emit::emit;
use crate::args::{MethodArg, OutputArgs, TrainArgs};
use advise::dataset::instances::Instances;
use advise::error::{Error, Result};
use advise_ml::weka::cv::cross_validate;
use advise_ml::weka::options as weka_options;
use advise_ml::{Data, FittedModel, Method, Params};

/// Where the training data comes from and how it is read.
#[derive(Debug, Clone, Default)]
pub struct TrainSettings {
    pub method: Option<Method>,
    /// `--method all` or `baselines`: more than one model, which fit and predict cannot take.
    pub many_methods: bool,
    pub train: Option<PathBuf>,
    /// Target column by name or 1-based number; `None`: the last column, as in Weka.
    pub target: Option<String>,
    pub ignore: Vec<String>,
    pub weka_options: Option<String>,
    /// The test file's column names: an --ignore name only it has is dropped there, not
    /// looked for in the training file.
    pub test_columns: Vec<String>,
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

/// `advise predict`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub train: TrainArgs,
    /// Rows to predict (CSV or ARFF with the training columns; the target may be absent);
    /// Weka's `-T`.
    #[arg(long, short = 'T')]
    pub test: Option<PathBuf>,
    /// A model saved by `advise fit` instead of --train.
    #[arg(long)]
    pub model: Option<PathBuf>,
    /// K-fold cross-validation of --train (Weka's `-x K`); without --test or --model, 10-fold
    /// as Weka does. Rows are printed in file order.
    #[arg(long, short = 'x')]
    pub cv: Option<usize>,
    /// Seed of the cross-validation shuffle (Weka's `-s`).
    #[arg(long, short = 's', default_value_t = 1)]
    pub seed: i64,
    #[command(flatten)]
    pub out: OutputArgs,
}

pub fn run(args: Args) -> Result<()> {
    let cv = match (args.cv, &args.test, &args.model) {
        (None, None, None) => Some(10),
        (cv, _, _) => cv,
    };
    predict(
        &PredictSettings {
            train: args.train.into(),
            test: args.test,
            model: args.model,
            cv,
            seed: args.seed,
        },
        &args.out.into(),
    )
}

impl From<TrainArgs> for TrainSettings {
    fn from(a: TrainArgs) -> Self {
        TrainSettings {
            method: a.method.and_then(MethodArg::method),
            many_methods: a.method.is_some_and(|m| m.method().is_none()),
            train: a.train,
            target: a.target,
            ignore: ignore_list(&a.ignore),
            weka_options: a.weka_options,
            test_columns: Vec::new(),
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

/// Reads the training table; `ignore`'s names that it lacks but `only_in_test` has are left
/// to the test file.
fn read_table(
    path: &Path,
    target: Option<&str>,
    ignore: &[String],
    only_in_test: &[String],
) -> Result<Instances> {
    let mut t = Instances::read(path)?;
    let ignore: Vec<String> = ignore
        .iter()
        .filter(|n| t.column_index(n).is_ok() || !only_in_test.contains(n))
        .cloned()
        .collect();
    t.set_target(target)
        .and_then(|_| t.remove_columns(&ignore))
        .map_err(|e| Error::Data(format!("{}: {e}", path.display())))?;
    Ok(t)
}

impl TrainSettings {
    fn params(&self) -> Result<Params> {
        if self.many_methods {
            return Err(Error::Usage(format!(
                "--method: name one model ({}), not all or baselines",
                Method::names().join(", ")
            )));
        }
        let method: Method = self.method.ok_or_else(|| {
            Error::Usage(format!(
                "--method is required ({})",
                Method::names().join(", ")
            ))
        })?;
        Ok(weka_options::parse(
            method,
            self.weka_options.as_deref().unwrap_or(""),
        )?)
    }

    fn data(&self) -> Result<(Instances, Data)> {
        let path = self
            .train
            .as_ref()
            .ok_or_else(|| Error::Usage("--train is required".into()))?;
        let table = read_table(
            path,
            self.target.as_deref(),
            &self.ignore,
            &self.test_columns,
        )?;
        if table.attributes.len() < 2 {
            return Err(Error::Usage(format!(
                "{}: no feature column is left beside the target{}: a model would only \
                 predict the mean",
                path.display(),
                if self.ignore.is_empty() {
                    ""
                } else {
                    " (--ignore removed every other column)"
                }
            )));
        }
        if table.rows.is_empty() {
            return Err(Error::Data(format!(
                "{}: no data rows to learn from (only the header)",
                path.display()
            )));
        }
        let target = table.class_index;
        if table
            .rows
            .iter()
            .all(|r| r.get(target).copied().flatten().is_none())
        {
            return Err(Error::Data(format!(
                "{}: the target column `{}` has no value in any row (every one is `?` or \
                 empty): name the column to predict with --target",
                path.display(),
                table.attributes[target].name
            )));
        }
        let data = advise::dataset::matrix::data_from_instances(&table)
            .map_err(|e| Error::Data(format!("{}: {e}", path.display())))?;
        Ok((table, data))
    }

    /// Fits the model these settings describe. A model that predicts NaN or infinity for its
    /// own first training rows was overflowed by the data (values near 1e308): refused, as
    /// a file of it would predict nothing.
    pub fn fit(&self) -> Result<FittedModel> {
        let params = self.params()?;
        let (_, data) = self.data()?;
        let model = params.fit(&data)?;
        let first: Vec<usize> = (0..data.x.len().min(8)).collect();
        let predicted = model.predict(&data.subset(&first))?;
        if let Some(i) = predicted.iter().position(|p| !p.is_finite()) {
            return Err(self.overflowed(&data, predicted[i], i));
        }
        Ok(model)
    }

    /// The error for a model fitted here that predicts `value` (NaN or infinite) for row
    /// `row` (0-based) of its training data.
    fn overflowed(&self, data: &Data, value: f64, row: usize) -> Error {
        let largest = data
            .x
            .iter()
            .flatten()
            .chain(&data.y)
            .filter(|v| v.is_finite())
            .fold(0.0f64, |m, v| m.max(v.abs()));
        let path = self.train.clone().unwrap_or_default();
        Error::format(
            &path,
            format!(
                "the model fitted on it predicts {value} for its data row {}: its values \
                 (up to {largest:e} in size) overflow the model's arithmetic; scale the \
                 columns (other units) and fit again",
                row + 1
            ),
        )
    }
}

fn predict(s: &PredictSettings, out: &Output) -> Result<()> {
    if let Some(folds) = s.cv {
        if s.test.is_some() || s.model.is_some() {
            return Err(Error::Usage(
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
        if let Some(i) = predicted.iter().position(|p| !p.is_finite()) {
            return Err(s.train.overflowed(&data, predicted[i], rows[i]));
        }
        note(&format!(
            "{}: {folds_n}-fold cross-validation (seed {}) of {} rows",
            params.method(),
            s.seed,
            rows.len(),
            folds_n = s.cv.unwrap_or(0)
        ));
        return emit(out, &table, &rows, Some(&folds), &predicted);
    }
    let test_path = s.test.as_ref().ok_or_else(|| {
        Error::Usage(if s.model.is_some() {
            "--test is required with --model: the rows to predict".into()
        } else {
            "--test is required (or --cv K)".into()
        })
    })?;
    let mut test = Instances::read(test_path)?;
    let model = match &s.model {
        Some(path) => {
            if s.train.train.is_some() || s.train.weka_options.is_some() {
                return Err(Error::Usage(
                    "--model replaces --train and --weka-options; give one or the other".into(),
                ));
            }
            // A model file may be gzip-compressed, as advisors are.
            let mut bytes = Vec::new();
            std::io::Read::read_to_end(&mut advise::profile::compressed::open(path)?, &mut bytes)
                .map_err(|e| Error::io(path, e))?;
            let text = String::from_utf8(bytes).map_err(|_| {
                Error::format(
                    path,
                    "not a text file: expected a model (JSON) from `advise fit`",
                )
            })?;
            let model = advise::dataset::model_file::read(&text, &path.display().to_string())?;
            if let Some(m) = s.train.method {
                if m != model.method() {
                    return Err(Error::Usage(format!(
                        "--method {m} but {} holds a {} model",
                        path.display(),
                        model.method()
                    )));
                }
            }
            if let Some(t) = s.train.target.as_deref().filter(|t| *t != model.target) {
                return Err(Error::Usage(format!(
                    "--target {t} but {} was fitted to predict {}; leave --target out with \
                     --model",
                    path.display(),
                    model.target
                )));
            }
            model
        }
        None => {
            let mut train = s.train.clone();
            train.test_columns = test.attributes.iter().map(|a| a.name.clone()).collect();
            train.fit()?
        }
    };
    // An ignored column the model was fitted on cannot be left out of its input.
    if let Some(name) = s
        .train
        .ignore
        .iter()
        .find(|n| model.features.iter().any(|f| &f.name == *n))
    {
        return Err(Error::Usage(format!(
            "--ignore {name} removes a column the model was fitted on ({}); leave it out of \
             --ignore",
            model
                .features
                .iter()
                .map(|f| f.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    test.drop_present(&s.train.ignore);
    let data = advise::dataset::matrix::data_like(
        &test,
        &test_path.display().to_string(),
        &model.features,
        &model.target,
    )?;
    let predicted = model.predict(&data)?;
    if let Some(i) = predicted.iter().position(|p| !p.is_finite()) {
        // Fitted on finite rows, no method predicts NaN or infinity for a finite row.
        let why = match &s.model {
            Some(path) => format!(
                "the model in {} predicts {} for data row {}: the model file is damaged (fit \
                 it again with `advise fit`), or that row's values are too large for its \
                 arithmetic (scale the columns)",
                path.display(),
                predicted[i],
                i + 1
            ),
            None => format!(
                "the model fitted on --train predicts {} for data row {}: that row's values \
                 are too large for its arithmetic; scale the columns (other units)",
                predicted[i],
                i + 1
            ),
        };
        return Err(Error::format(test_path, why));
    }
    let rows: Vec<usize> = (0..predicted.len()).collect();
    emit(out, &test, &rows, None, &predicted)
}
