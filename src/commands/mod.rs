//! One file per subcommand. This is the only layer that chains pipeline stages and the only
//! one (with `report`) that prints.

pub mod bench;
pub mod demo;
pub mod features;
pub mod fit;
pub mod metric_map;
pub mod output;
pub mod parse;
pub mod predict;
pub mod samples;
pub mod variants;

use crate::cli::{Cli, Command};
use crate::error::Result;

/// Runs the parsed command line.
pub fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Demo { data, out } => demo::run(data, &out.into()),
        Command::Variants { program, out } => variants::run(&program, &out.into()),
        Command::Parse {
            files,
            format,
            label,
            rules,
            out,
        } => parse::run(
            &parse::ParseSettings::new(files, format, label, rules),
            &out.into(),
        ),
        Command::Features {
            measurements,
            timings,
            normalize,
            per_kernel,
            keep_names,
            out,
        } => features::run(
            &features::FeaturesCommand::new(
                measurements,
                timings,
                normalize,
                per_kernel,
                keep_names,
            ),
            &out.into(),
        ),
        Command::Samples {
            features,
            optimization,
            program,
            out,
        } => samples::run(&features, &optimization, program.as_deref(), &out.into()),
        Command::MetricMap { out } => metric_map::run(&out.into()),
        Command::Predict {
            train,
            test,
            model,
            cv,
            seed,
            out,
        } => predict::run(
            &predict::PredictSettings {
                train: train.into(),
                test,
                model,
                cv,
                seed,
            },
            &out.into(),
        ),
        Command::Fit { train, out } => fit::run(&train.into(), &out.into()),
        Command::Bench {
            what: crate::cli::BenchWhat::Models,
            rows,
            cols,
            seed,
            no_weka,
            out,
        } => bench::run(
            &bench::BenchSettings {
                rows,
                cols,
                seed,
                weka: !no_weka,
            },
            &out.into(),
        ),
    }
}
