//! What a person reads: terminal tables (and, later, charts and HTML reports).

pub mod chart;
pub mod table;
