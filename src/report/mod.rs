//! What a person reads: terminal tables, Markdown and HTML reports, charts.

pub mod advice_text;
pub mod chart;
pub mod document;
pub mod experiment;
pub mod experiment_charts;
pub mod experiment_files;
mod experiment_tables;
pub mod fidelity;
pub mod font;
mod reason_clauses;
mod suggestion_card;
pub mod suggestions;
pub mod table;
mod training_text;
