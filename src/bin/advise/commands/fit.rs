//! `advise fit`: fit a model on a CSV/ARFF training file and save it as JSON for
//! `advise predict --model`.

use super::output::{note, Output};
use super::predict::TrainSettings;
use advise::error::Result;

use crate::args::{OutputArgs, TrainArgs};

/// `advise fit`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub train: TrainArgs,
    #[command(flatten)]
    pub out: OutputArgs,
}

pub fn run(args: Args) -> Result<()> {
    fit(&args.train.into(), &args.out.into())
}

/// `advise fit`: writes the fitted model as JSON.
fn fit(s: &TrainSettings, out: &Output) -> Result<()> {
    let model = s.fit()?;
    note(&format!(
        "{} fitted on {} features; target `{}`",
        model.method(),
        model.features.len(),
        model.target
    ));
    let mut text = advise::dataset::model_file::write(&model)?;
    text.push('\n');
    out.emit(&text)
}
