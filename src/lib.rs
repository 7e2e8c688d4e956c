//! advise: predicts which source-code optimizations will speed up CUDA code, from the hardware
//! counters of one profiled run, and shows how far those predictions can be trusted.
//!
//! The modules follow the layers of docs/ARCHITECTURE.md; lower layers never import higher ones:
//! `variant`, `error` -> `profile` (parsers) -> `dataset` (tables, features, samples) -> ...
//! Nothing in the library prints; the binary's `commands` do.

pub mod dataset;
pub mod error;
pub mod experiment;
pub mod harness;
pub mod input;
pub mod json_nan;
pub mod number_format;
pub mod profile;
pub mod recommend;
pub mod report;
pub mod search;
pub mod static_analysis;
pub mod tool;
pub mod variant;

pub use error::{Error, Result};
