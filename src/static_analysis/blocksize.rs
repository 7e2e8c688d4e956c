//! Block sizes from static metrics (STATuner, Gupta et al.): the cases a method sees (a
//! kernel on a GPU with its measured sizes and the occupancy of each), and the recommendation
//! `advise blocksize` prints for a new kernel. The dataset is built by `blocksize_build`; the
//! leave-one-kernel-out experiment is `experiment::statuner`.

use std::collections::BTreeMap;

use advise_ml::data::Standardizer;
use advise_ml::svm::{Svc, SvcParams};
use serde::Serialize;

use crate::dataset::blocksize::{Dataset, KernelRow};
use crate::error::{Error, Result};
use crate::static_analysis::occupancy::{max_occupancy_sizes, occupancy, Arch, KernelResources};

/// The band within which block sizes count as equally fast when labelling a flat timing
/// curve: the experiments' no-clear-effect band (2%), not a value tuned on this dataset.
pub const LABEL_BAND: f64 = 0.02;

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

/// One (kernel, GPU) with everything a method may look at.
pub struct Case<'a> {
    pub row: &'a KernelRow,
    pub arch: Arch,
    /// (block size, time ms), ascending size.
    pub times: Vec<(u32, f64)>,
    /// Block size -> (registers, shared bytes).
    pub resources: BTreeMap<u32, (u32, u64)>,
}

impl Case<'_> {
    pub fn best(&self) -> (u32, f64) {
        self.times
            .iter()
            .copied()
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .unwrap_or((0, f64::NAN))
    }

    /// The label of a tuning space whose timing curve is flat near its minimum: among the
    /// sizes within `band` of the fastest (measurement noise cannot tell them apart), the one
    /// nearest 256 threads (CUDA's customary default), ties to the smaller.
    pub fn label(&self, band: f64) -> u32 {
        let best = self.best().1;
        self.times
            .iter()
            .filter(|&&(_, t)| t <= best * (1.0 + band))
            .min_by(|x, y| {
                let dx = (x.0 as f64 / 256.0).ln().abs();
                let dy = (y.0 as f64 / 256.0).ln().abs();
                dx.total_cmp(&dy).then(x.0.cmp(&y.0))
            })
            .map_or(self.best().0, |&(b, _)| b)
    }

    /// The measured size nearest to `b` (in ratio).
    pub fn snap(&self, b: u32) -> (u32, f64) {
        self.times
            .iter()
            .copied()
            .min_by(|x, y| {
                let dx = (x.0 as f64 / b as f64).ln().abs();
                let dy = (y.0 as f64 / b as f64).ln().abs();
                dx.total_cmp(&dy).then(x.0.cmp(&y.0))
            })
            .unwrap_or((0, f64::NAN))
    }

    pub fn error(&self, b: u32) -> (u32, f64) {
        let (b, t) = self.snap(b);
        (b, t / self.best().1 - 1.0)
    }

    pub fn features(&self) -> Vec<f64> {
        let mut f = self.row.features().to_vec();
        f.extend(arch_features(&self.arch));
        f
    }

    pub fn occupancy_of(&self, b: u32) -> f64 {
        let (regs, smem) = self
            .resources
            .get(&b)
            .copied()
            .unwrap_or((self.row.registers, self.row.shared_bytes));
        occupancy(
            &self.arch,
            b,
            &KernelResources {
                registers_per_thread: regs,
                shared_bytes_per_block: smem as u32,
            },
        )
        .occupancy
    }

    pub fn rank_features(&self, b: u32) -> Vec<f64> {
        let mut f = self.features();
        f.push((b as f64).log2());
        f.push(self.occupancy_of(b));
        f
    }

    /// Max-occupancy sizes among the measured ones, per-size resources.
    pub fn max_occupancy(&self) -> Vec<u32> {
        let occ: Vec<(u32, f64)> = self
            .times
            .iter()
            .map(|&(b, _)| (b, self.occupancy_of(b)))
            .collect();
        let top = occ.iter().map(|o| o.1).fold(0.0, f64::max);
        occ.into_iter()
            .filter(|o| (o.1 - top).abs() < 1e-12)
            .map(|o| o.0)
            .collect()
    }
}

pub fn cases(ds: &Dataset) -> Result<Vec<Case<'_>>> {
    ds.kernels
        .iter()
        .map(|row| {
            let times: Vec<(u32, f64)> = ds
                .timings
                .iter()
                .filter(|t| t.kernel == row.kernel && t.gpu == row.gpu)
                .map(|t| (t.block_size, t.time_ms))
                .collect();
            if times.is_empty() {
                return Err(Error::Data(format!(
                    "block-size dataset: no timings for {} on {}",
                    row.kernel, row.gpu
                )));
            }
            let resources = ds
                .resources
                .iter()
                .filter(|r| r.kernel == row.kernel && r.gpu == row.gpu)
                .map(|r| (r.block_size, (r.registers, r.shared_bytes)))
                .collect();
            Ok(Case {
                row,
                arch: Arch::parse(&row.arch).map_err(|e| {
                    Error::Data(format!(
                        "block-size dataset: kernel {} on {}: {e}",
                        row.kernel, row.gpu
                    ))
                })?,
                times,
                resources,
            })
        })
        .collect()
}

/// What `advise blocksize` recommends for one kernel, and why.
#[derive(Debug, Clone, Serialize)]
pub struct Recommendation {
    pub kernel: String,
    pub arch: String,
    /// The SVM's choice.
    pub block_size: u32,
    /// Occupancy of that choice, 0..=1.
    pub occupancy: f64,
    /// The calculator's maximal-occupancy sizes, largest first.
    pub max_occupancy_sizes: Vec<u32>,
    pub max_occupancy: f64,
    /// The training kernels nearest in static features: (kernel, gpu, best size).
    pub nearest: Vec<(String, String, u32)>,
    /// The most threads a block may have (`__launch_bounds__`), where the kernel sets it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub launch_bound: Option<u32>,
    /// The SVM's choice where it lay above `launch_bound` (then `block_size` is the largest
    /// size within it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub above_launch_bound: Option<u32>,
    /// The size the kernel requires (PTX `.reqntid`): then `block_size` is it, whatever the
    /// SVM chose.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub required: Option<u32>,
}

/// What a kernel says of its block size: at most `most` threads (`__launch_bounds__`,
/// `.maxntid`), or exactly `required` (`.reqntid`).
#[derive(Debug, Clone, Copy, Default)]
pub struct LaunchBound {
    pub most: Option<u32>,
    pub required: Option<u32>,
}

/// Trains the SVM on the whole dataset and predicts for one kernel's features; sizes above
/// the kernel's bound (`__launch_bounds__`) cannot launch and are never chosen, and a kernel
/// that requires one size gets that size.
pub fn recommend(
    ds: &Dataset,
    kernel: &str,
    statuner: [f64; 8],
    arch: &Arch,
    resources: &KernelResources,
    bound: LaunchBound,
    seed: u64,
) -> Result<Recommendation> {
    let launch_bound = bound.most;
    let cases = cases(ds)?;
    let x: Vec<Vec<f64>> = cases.iter().map(|c| c.features()).collect();
    // Sizes within LABEL_BAND of the fastest count as equal (see `Case::label`): the exact
    // fastest of a flat curve is noise, and trained on it the SVM does far worse
    // (`advise statuner`: statuner-svm against svm-flat-labels).
    let y: Vec<u32> = cases.iter().map(|c| c.label(LABEL_BAND)).collect();
    let svc = Svc::fit(
        &x,
        &y,
        &SvcParams {
            seed,
            ..Default::default()
        },
    )?;
    let mut f = statuner.to_vec();
    f.extend(arch_features(arch));
    let allowed: Vec<u32> = candidate_sizes()
        .into_iter()
        .filter(|&b| launch_bound.is_none_or(|most| b <= most))
        .collect();
    // A bound under one warp leaves no multiple of 32: the bound itself; a required size is
    // the only one.
    let allowed = match (allowed.is_empty(), launch_bound, bound.required) {
        (_, _, Some(required)) => vec![required.max(1)],
        (true, Some(most), None) => vec![most.max(1)],
        _ => allowed,
    };
    // The SVM's choice where it may launch, else the largest size under it that may.
    let svm_choice = svc.predict(&f);
    let block = allowed
        .iter()
        .copied()
        .filter(|&b| b <= svm_choice)
        .max()
        .unwrap_or(allowed[0]);
    let standardizer = Standardizer::fit(&x);
    let z = |r: &[f64]| standardizer.apply(r);
    let q = z(&f);
    let mut near: Vec<(f64, &Case)> = cases
        .iter()
        .map(|c| {
            let d = z(&c.features())
                .iter()
                .zip(&q)
                .map(|(a, b)| (a - b).powi(2))
                .sum::<f64>();
            (d, c)
        })
        .collect();
    near.sort_by(|a, b| a.0.total_cmp(&b.0));
    let sizes = max_occupancy_sizes(arch, &allowed, resources);
    let max_occ = sizes
        .first()
        .map_or(0.0, |&b| occupancy(arch, b, resources).occupancy);
    Ok(Recommendation {
        kernel: kernel.to_string(),
        arch: arch.name(),
        block_size: block,
        occupancy: occupancy(arch, block, resources).occupancy,
        max_occupancy_sizes: sizes,
        max_occupancy: max_occ,
        nearest: near
            .iter()
            .take(3)
            .map(|(_, c)| (c.row.kernel.clone(), c.row.gpu.clone(), c.best().0))
            .collect(),
        launch_bound,
        above_launch_bound: (block != svm_choice).then_some(svm_choice),
        required: bound.required,
    })
}
