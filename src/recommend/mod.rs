//! Suggestions from fitted models (`advise train`, `suggest`, `profile`), and the optimization
//! catalogue that explains them.

pub mod bundle;
mod bundle_file;
pub mod calibration;
pub mod catalogue;
mod evidence;
mod feature_columns;
mod host_choice;
mod nested;
pub mod profile_checks;
mod profile_input;
mod profile_launch;
mod programs;
pub use nested::NestedChoice;
pub mod step_model;
pub mod suggest;
mod suggestion;
pub mod training;
pub mod validation;
