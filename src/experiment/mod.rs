//! Validation of speedup predictions: the thesis's six experiments and more, accuracy tables,
//! baselines and their uncertainty.

pub mod confusion;
pub mod stats;
