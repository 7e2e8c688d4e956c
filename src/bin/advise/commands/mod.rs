//! One file per subcommand, each with its `Args` and `run`. This is the only layer that
//! chains pipeline stages and prints; the library below it exposes stages.

pub mod advisor;
pub mod bench;
pub mod bench_experiments;
pub mod bench_search;
pub mod bench_transfer;
pub mod bench_weka;
pub mod blocksize;
pub mod build;
pub mod collect;
pub mod completions;
mod data_notes;
pub mod demo;
mod demo_fixtures;
pub mod experiment;
pub mod experiment_specs;
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
mod search_bench_files;
mod space_notes;
pub mod static_cmd;
pub mod statuner;
pub mod suggest;
pub mod suggest_inputs;
mod transfer_inputs;
mod transfer_report;
pub mod variants;
