//! Block-size prediction (seed 002, STATuner): a dataset of real tuning spaces, the paper's
//! SVM classifier on static metrics, a ranking variant, and the baselines the paper compares
//! with (the occupancy calculator's best and worst choice among maximal-occupancy sizes), a
//! fixed 256 and a seeded random choice; evaluated leave-one-kernel-out.

pub mod dataset;
pub mod evaluate;

pub use dataset::Dataset;
pub use evaluate::{evaluate, recommend, Recommendation, StatunerReport};

use super::occupancy::Arch;

/// The leave-one-kernel-out evaluation of the dataset in `dir` (default: the repository's
/// `datasets/blocksize`).
pub fn evaluate_folder(dir: Option<&std::path::Path>, seed: u64) -> crate::Result<StatunerReport> {
    let dir = dir.map_or_else(Dataset::default_dir, std::path::Path::to_path_buf);
    evaluate(&Dataset::load(&dir)?, seed)
}

/// Features that describe the GPU, appended to the static metrics so that one model can
/// serve kernels measured on different GPUs: max warps and blocks per SM, shared KB per SM.
pub fn arch_features(a: &Arch) -> [f64; 3] {
    [
        a.max_warps_per_sm as f64,
        a.max_blocks_per_sm as f64,
        a.smem_per_sm as f64 / 1024.0,
    ]
}

/// The block sizes `advise blocksize` considers: multiples of 32 up to 1024.
pub fn candidate_sizes() -> Vec<u32> {
    (1..=32).map(|i| i * 32).collect()
}
