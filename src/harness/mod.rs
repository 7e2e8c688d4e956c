//! The collection harness: compiling the NB/BH variants with nvcc, running them, timing them
//! and profiling them with ncu into a campaign folder (docs/ARCHITECTURE.md, "Data model").
//!
//! It sits beside `profile` and never imports `model`. Nothing here prints: progress goes
//! through the `Progress` trait, which the `commands` layer draws as a bar on stderr.

mod batch;
pub mod build;
pub mod campaign;
pub mod collect;
pub mod collect_sim;
pub mod gpgpusim;
pub mod jobs;
pub mod merge;
pub mod ncu;
pub mod profile_app;
pub mod resume_check;
pub mod runs;
mod sim_job;
pub use crate::tool;

/// Where long-running harness work reports progress.
pub trait Progress: Sync {
    /// `total` steps of work called `what` begin.
    fn start(&self, total: u64, what: &str);
    /// One step is done.
    fn advance(&self, message: &str);
    /// Something the user should see (a failed variant, a missing metric).
    fn note(&self, message: &str);
    fn finish(&self);
}

/// Progress that goes nowhere (tests, `--quiet`).
pub struct NoProgress;

impl Progress for NoProgress {
    fn start(&self, _: u64, _: &str) {}
    fn advance(&self, _: &str) {}
    fn note(&self, _: &str) {}
    fn finish(&self) {}
}
