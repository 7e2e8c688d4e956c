//! Suggestions from fitted models, and the optimization catalogue that explains them.

pub mod catalogue;
