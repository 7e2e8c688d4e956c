//! One file per subcommand. This is the only layer that chains pipeline stages and the only
//! one (with `report`) that prints.

pub mod advisor;
pub mod bench;
pub mod bench_experiments;
pub mod bench_transfer;
pub mod blocksize;
pub mod build;
pub mod collect;
pub mod demo;
pub mod experiment;
pub mod explain;
pub mod features;
pub mod fit;
pub mod import;
pub mod merge;
pub mod metric_map;
pub mod output;
pub mod parse;
pub mod predict;
pub mod samples;
pub mod search;
pub mod search_bench;
pub mod static_cmd;
pub mod statuner;
pub mod variants;

use crate::cli::{Cli, Command};
use crate::error::Result;
use output::Output;

/// Runs the parsed command line.
pub fn run(cli: Cli) -> Result<()> {
    output::set_quiet(cli.quiet);
    match cli.command {
        Command::Completions { shell } => {
            use clap::CommandFactory;
            let mut cmd = Cli::command();
            let mut buf = Vec::new();
            clap_complete::generate(shell, &mut cmd, "advise", &mut buf);
            output::Output::default().emit(&String::from_utf8_lossy(&buf))
        }
        Command::Man => {
            use clap::CommandFactory;
            let mut buf = Vec::new();
            clap_mangen::Man::new(Cli::command())
                .render(&mut buf)
                .map_err(|e| {
                    crate::error::Error::Invalid(format!("cannot render the man page: {e}"))
                })?;
            output::Output::default().emit(&String::from_utf8_lossy(&buf))
        }
        Command::Demo {
            method,
            seed,
            fixtures,
            data,
            out,
        } => {
            if fixtures {
                demo::run_fixtures(data, &out.into())
            } else {
                demo::run(&method, seed, &out.into())
            }
        }
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
        Command::Features { formulas: true, .. } => crate::commands::output::Output::default()
            .emit(&format!(
                "## Portable features\n\n{}\n## Optimization families\n\n{}",
                crate::dataset::portable::markdown(),
                crate::dataset::families::markdown()
            )),
        Command::Features {
            measurements,
            timings,
            normalize,
            normalizer,
            per_kernel,
            keep_names,
            view,
            out,
            ..
        } => {
            let measurements = measurements
                .ok_or_else(|| crate::error::Error::Invalid("give --measurements FILE".into()))?;
            let mut cmd = features::FeaturesCommand::new(
                measurements,
                timings,
                normalize,
                per_kernel,
                keep_names,
            );
            cmd.settings.normalizer = normalizer;
            cmd.settings.view = view.parse()?;
            features::run(&cmd, &out.into())
        }
        Command::Samples {
            features,
            optimization,
            program,
            out,
        } => samples::run(&features, &optimization, program.as_deref(), &out.into()),
        Command::MetricMap {
            gpgpu_sim: true,
            out,
        } => {
            let out: output::Output = out.into();
            if out.json {
                return out.emit_json(&serde_json::json!({
                    "schema_version": 1,
                    "metrics": crate::profile::gpgpusim_names::SIM_MAP,
                }));
            }
            out.emit(&crate::profile::gpgpusim_names::markdown())
        }
        Command::MetricMap { out, .. } => metric_map::run(&out.into()),
        Command::Train {
            dataset,
            method,
            seed,
            max_samples,
            features,
            output,
        } => advisor::run_train(
            &dataset,
            &method,
            seed,
            max_samples,
            features.parse()?,
            &output,
        ),
        Command::Suggest {
            model,
            ncu_csv,
            kernel,
            applied,
            source,
            report,
            per_kernel,
            out,
        } => advisor::run_suggest(
            &ncu_csv,
            &advisor::SuggestSettings {
                model,
                kernel,
                applied,
                source,
                report,
                per_kernel,
            },
            &out.into(),
        ),
        Command::Profile {
            model,
            kernel,
            applied,
            source,
            report,
            per_kernel,
            dir,
            out,
            app,
        } => advisor::run_profile(
            &app,
            &dir,
            &advisor::SuggestSettings {
                model,
                kernel,
                applied,
                source,
                report,
                per_kernel,
            },
            &out.into(),
        ),
        Command::Explain { name, all, out } => explain::run(name.as_deref(), all, &out.into()),
        Command::Experiment {
            dataset,
            exp,
            method,
            program,
            train_run,
            train_input,
            folds,
            features,
            seed,
            band,
            out,
            json,
        } => {
            let (kfolds, layout) = experiment::parse_folds(&folds)?;
            experiment::run_command(
                &experiment::ExperimentCommand {
                    datasets: dataset,
                    experiments: exp,
                    methods: method,
                    program,
                    train_run,
                    train_input,
                    kfolds,
                    layout,
                    view: features.parse()?,
                    lenient: false,
                    settings: crate::experiment::run::RunSettings {
                        seed,
                        band,
                        ..Default::default()
                    },
                    out_dir: out,
                },
                &Output { json, path: None },
            )
        }
        Command::Static {
            file,
            arch,
            nvcc_flags,
            compare,
            json,
        } => static_cmd::run(
            &static_cmd::StaticSettings {
                file,
                compare,
                options: crate::static_analysis::CompileOptions::new(&arch, &nvcc_flags)?,
            },
            &Output { json, path: None },
        ),
        Command::Blocksize {
            file,
            arch,
            nvcc_flags,
            dataset,
            seed,
            json,
        } => blocksize::run(
            &blocksize::BlocksizeSettings {
                file,
                options: crate::static_analysis::CompileOptions::new(&arch, &nvcc_flags)?,
                dataset,
                seed,
            },
            &Output { json, path: None },
        ),
        Command::Statuner {
            dataset,
            seed,
            build_dataset,
            json,
        } => statuner::run(
            &statuner::StatunerSettings {
                dataset,
                seed,
                build_from: build_dataset,
            },
            &Output { json, path: None },
        ),
        Command::Import {
            tool,
            file,
            out,
            json,
        } => import::run(tool, &file, &out, json),
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
            ..
        } => bench::run(
            &bench::BenchSettings {
                rows,
                cols,
                seed,
                weka: !no_weka,
            },
            &out.into(),
        ),
        Command::Bench {
            what: crate::cli::BenchWhat::Transfer,
            dataset,
            method,
            features,
            folds,
            seed,
            out,
            ..
        } => {
            let (found, gpu_pairs) =
                bench_transfer::default_inputs(std::path::Path::new("datasets"));
            bench_transfer::run_command(
                &bench_transfer::TransferSettings {
                    datasets: if dataset.is_empty() { found } else { dataset },
                    gpu_pairs,
                    methods: method,
                    view: features.parse()?,
                    folds,
                    seed: seed.unsigned_abs(),
                },
                &out.into(),
            )
        }
        Command::Bench {
            what: crate::cli::BenchWhat::Experiments,
            cols,
            seed,
            no_weka,
            out,
            ..
        } => bench_experiments::run_bench(cols, seed.unsigned_abs(), !no_weka, &out.into()),
        Command::Build(args) => build::run(&args),
        Command::Collect(args) => collect::run(&args),
        Command::Merge(args) => merge::run(&args),
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
