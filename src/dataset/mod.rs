//! Tables of the data model (DESIGN.md): measurements and timings, the wide feature table,
//! and speedup samples per optimization.

pub mod features;
pub mod import;
pub mod measurements;
pub mod samples;
pub mod table;
