//! Tables of the data model (docs/ARCHITECTURE.md): measurements and timings, the wide feature table,
//! and speedup samples per optimization.

pub mod arff;
pub mod blocksize;
mod blocksize_checks;
pub mod devices;
pub mod families;
pub mod features;
mod features_aggregate;
mod features_csv;
pub mod host_link;
pub mod import;
pub mod instances;
pub mod matrix;
pub mod measurements;
pub mod model_file;
pub mod portable;
mod portable_memory;
mod portable_schedule;
mod portable_table;
pub mod samples;
pub mod table;
