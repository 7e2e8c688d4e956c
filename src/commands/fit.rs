//! `advise fit`: fit a model on a CSV/ARFF training file and save it as JSON for
//! `advise predict --model`.

use super::output::{note, Output};
use super::predict::TrainSettings;
use crate::error::Result;

/// `advise fit`: writes the fitted model as JSON.
pub fn run(s: &TrainSettings, out: &Output) -> Result<()> {
    let model = s.fit()?;
    note(&format!(
        "{} fitted on {} features; target `{}`",
        model.method(),
        model.features.len(),
        model.target
    ));
    let mut text = model.to_json()?;
    text.push('\n');
    out.emit(&text)
}
