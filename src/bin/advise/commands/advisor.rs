//! `advise train`: train an advisor on datasets (`advise suggest` and `advise profile`, which
//! use it, are in the suggest module), and where the default advisor lives.

use std::path::{Path, PathBuf};

use super::output::{note, Output};
use crate::args::{MethodArg, ViewArg};
use advise::error::{Error, Result};
use advise::harness::Progress;
use advise::recommend::bundle::{self, TrainSettings};
use advise::report::advice_text;
use advise_ml::Method;

/// Where the shipped default advisor lives, relative to the repository.
pub const DEFAULT_MODEL: &str = "models/default.advisor.json.gz";

/// `$ADVISE_MODEL`, else `models/default.advisor.json.gz` in the working directory, else the
/// one in the source tree advise was built from.
pub fn default_model() -> Result<PathBuf> {
    if let Some(p) = std::env::var_os("ADVISE_MODEL") {
        return Ok(PathBuf::from(p));
    }
    let local = PathBuf::from(DEFAULT_MODEL);
    if local.is_file() {
        return Ok(local);
    }
    let built = Path::new(env!("CARGO_MANIFEST_DIR")).join(DEFAULT_MODEL);
    if built.is_file() {
        return Ok(built);
    }
    Err(Error::Usage(format!(
        "no advisor given and no default at {DEFAULT_MODEL}: pass --model FILE (train one with `advise train`)"
    )))
}

/// `advise train`.
#[derive(Debug, clap::Args)]
pub struct TrainArgs {
    /// Dataset folder(s); several are pooled.
    #[arg(long, required = true)]
    pub dataset: Vec<PathBuf>,
    /// The primary model (the second opinion is M5P, or IBk for m5p).
    #[arg(long, value_enum, default_value = "ibk")]
    pub method: MethodArg,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// At most this many samples per optimization (seeded subsample).
    #[arg(long, default_value_t = 600)]
    pub max_samples: usize,
    /// Feature view (see `advise features --view`).
    #[arg(long, value_enum, default_value = "portable")]
    pub features: ViewArg,
    /// The advisor file to write (`.json` or `.json.gz`).
    #[arg(short = 'o', long = "output")]
    pub output: PathBuf,
}

pub fn train(args: TrainArgs) -> Result<()> {
    let method = args
        .method
        .method()
        .ok_or_else(|| Error::Usage("--method: name one model, not all or baselines".into()))?;
    // Each optimization is validated on grouped folds of its samples: two per fold at least.
    let least = 2 * TrainSettings::default().folds;
    if args.max_samples < least {
        return Err(Error::Usage(format!(
            "--max-samples {}: the validation needs at least {least} samples per optimization \
             (two per fold); 600 by default",
            args.max_samples
        )));
    }
    // main's check of every output option has said, before the training, whether -o can be
    // written.
    let name = args.output.to_string_lossy().to_ascii_lowercase();
    if !(name.ends_with(".json") || name.ends_with(".json.gz")) {
        return Err(Error::Usage(format!(
            "-o {}: an advisor is JSON; name the file .json or .json.gz",
            args.output.display()
        )));
    }
    run_train(
        &args.dataset,
        method,
        args.seed,
        args.max_samples,
        args.features.into(),
        &args.output,
    )
}

fn run_train(
    datasets: &[PathBuf],
    method: Method,
    seed: u64,
    max_samples: usize,
    view: advise::dataset::features::View,
    out: &Path,
) -> Result<()> {
    let pool = advise::experiment::pool_merge::load_pools_view(datasets, view)?;
    let provenance = datasets
        .iter()
        .map(|d| {
            std::fs::read_to_string(d.join("PROVENANCE.md"))
                .unwrap_or_else(|_| format!("{}: no PROVENANCE.md", d.display()))
        })
        .collect::<Vec<_>>()
        .join("\n---\n");
    let settings = TrainSettings {
        method,
        seed,
        max_samples,
        view,
        ..Default::default()
    };
    note(&format!(
        "training {} on {} ({} samples)...",
        settings.method,
        pool.name,
        pool.samples.len()
    ));
    let bar = super::collect::Bar::new();
    let advisor = bundle::train_reporting(
        &pool,
        datasets,
        provenance,
        &settings,
        &mut |done, all, name| {
            if done == 0 {
                bar.start(all as u64, "train");
            }
            bar.advance(name);
        },
    )?;
    bar.finish();
    advisor.save(out)?;
    Output::default().emit(&format!(
        "wrote {} ({} optimizations, {} features, {} view; seed {seed}, at most {max_samples} \
         samples per optimization)\n{}",
        out.display(),
        advisor.optimizations.len(),
        advisor.features.len(),
        match advisor.view {
            advise::dataset::features::View::Counters => "counters",
            advise::dataset::features::View::Portable => "portable",
            advise::dataset::features::View::Both => "counters + portable",
        },
        advice_text::training(&advisor)
    ))
}
