//! One file per subcommand. This is the only layer that chains pipeline stages and the only
//! one (with `report`) that prints.

pub mod demo;
pub mod features;
pub mod import;
pub mod metric_map;
pub mod output;
pub mod parse;
pub mod samples;
pub mod search;
pub mod search_bench;
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
            normalizer,
            per_kernel,
            keep_names,
            out,
        } => {
            let mut cmd = features::FeaturesCommand::new(
                measurements,
                timings,
                normalize,
                per_kernel,
                keep_names,
            );
            cmd.settings.normalizer = normalizer;
            features::run(&cmd, &out.into())
        }
        Command::Samples {
            features,
            optimization,
            program,
            out,
        } => samples::run(&features, &optimization, program.as_deref(), &out.into()),
        Command::MetricMap { out } => metric_map::run(&out.into()),
        Command::Import {
            tool,
            file,
            out,
            json,
        } => import::run(tool, &file, &out, json),
        Command::Search {
            space,
            strategy,
            budget,
            seed,
            out,
        } => search::run(&space, &strategy, &budget, seed, &out.into()),
        Command::SearchBench {
            space,
            strategies,
            budgets,
            repeats,
            seed,
            threads,
            charts,
            no_charts,
            out,
        } => search_bench::run(
            &search_bench::BenchCommand {
                spaces: space,
                strategies,
                budgets,
                repeats,
                seed,
                threads,
                charts: (!no_charts).then_some(charts),
            },
            &out.into(),
        ),
    }
}
