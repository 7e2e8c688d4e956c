//! advise's integration tests, one binary (one link of the whole library instead of one per
//! file): a module per area, shared set-up in `common`.

mod advisor;
mod advisor_counters_view;
mod advisor_host_link;
mod advisor_profile_failures;
mod architecture;
mod bench_search_cli;
mod bench_transfer;
mod catalogue_snippets;
mod cli;
mod cli_commands;
mod cli_experiment;
mod cli_experiment_datasets;
mod cli_predict;
mod cli_refusals;
mod cli_refusals_more;
#[allow(dead_code)]
mod common;
mod data_robustness;
mod default_advisor;
mod default_advisor_checks;
mod default_advisor_steps;
mod docs_links;
mod experiments;
mod harness_build;
mod harness_collect;
mod harness_collect_checks;
mod harness_collect_sim;
mod import_xplacer;
mod models_weka;
mod parse_fixtures;
mod parse_fixtures_gpgpusim;
mod parse_robustness;
mod readme_figures;
mod results;
mod search_cli;
mod search_files;
mod search_intervals;
mod search_noise;
mod search_spaces;
mod search_strategies;
mod static_fixtures;
mod static_occupancy;
mod static_statuner;
mod thesis_tables;
mod train_shipped;
