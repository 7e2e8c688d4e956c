//! Validation of speedup predictions: the thesis's six experiments and more, accuracy tables,
//! baselines and their uncertainty.

mod answer;
pub mod confusion;
pub mod data;
mod data_switches;
pub mod fidelity;
pub mod grouping;
pub mod host_links;
pub mod launch;
mod lopo;
pub mod method;
pub mod pool_merge;
pub mod record;
mod result;
pub mod run;
pub mod splits;
pub mod stats;
pub mod statuner;
pub mod step_features;
mod summary;
pub mod synthetic;
pub mod thesis;
pub mod transfer;
