//! One file per subcommand. This is the only layer that chains pipeline stages and the only
//! one (with `report`) that prints.

pub mod build;
pub mod collect;
pub mod demo;
pub mod features;
pub mod merge;
pub mod metric_map;
pub mod output;
pub mod parse;
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
        Command::Build(args) => build::run(&args),
        Command::Collect(args) => collect::run(&args),
        Command::Merge(args) => merge::run(&args),
    }
}
