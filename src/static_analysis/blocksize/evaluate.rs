//! Leave-one-kernel-out evaluation of block-size choices, with the paper's error
//! T(chosen) / T(best) - 1, and the recommendation `advise blocksize` prints.

use std::collections::BTreeMap;

use serde::Serialize;

use super::dataset::{Dataset, KernelRow};
use super::{arch_features, candidate_sizes};
use crate::error::{Error, Result};
use crate::static_analysis::occupancy::{max_occupancy_sizes, occupancy, Arch, KernelResources};
use advise_ml::svm::{Svc, SvcParams};
use advise_ml::SplitMix64;

/// The paper's average errors on its five test kernels (seed 002, section 4).
pub const PAPER_STATUNER: f64 = 0.044;
pub const PAPER_OCCUPANCY: f64 = 0.066;

/// Method names, in report order.
pub const METHODS: &[&str] = &[
    "statuner-svm",
    "rank-knn",
    "occupancy-best",
    "occupancy-worst",
    "fixed-256",
    "random",
];

/// One error of one method on one (kernel, GPU).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ErrorRow {
    pub kernel: String,
    pub gpu: String,
    pub method: String,
    /// T(chosen) / T(best) - 1.
    pub error: f64,
    /// The block size chosen (for `random`, the first draw).
    pub chosen: u32,
    pub best: u32,
}

/// The whole evaluation.
#[derive(Debug, Clone, Serialize)]
pub struct StatunerReport {
    pub rows: Vec<ErrorRow>,
    /// Mean error per method over all (kernel, GPU).
    pub mean: BTreeMap<String, f64>,
    pub paper: BTreeMap<String, f64>,
    pub kernels: usize,
    pub gpus: usize,
}

/// One (kernel, GPU) with everything a method may look at.
struct Case<'a> {
    row: &'a KernelRow,
    arch: Arch,
    /// (block size, time ms), ascending size.
    times: Vec<(u32, f64)>,
    /// Block size -> (registers, shared bytes).
    resources: BTreeMap<u32, (u32, u64)>,
}

impl Case<'_> {
    fn best(&self) -> (u32, f64) {
        self.times
            .iter()
            .copied()
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .unwrap_or((0, f64::NAN))
    }

    /// The measured size nearest to `b` (in ratio).
    fn snap(&self, b: u32) -> (u32, f64) {
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

    fn error(&self, b: u32) -> (u32, f64) {
        let (b, t) = self.snap(b);
        (b, t / self.best().1 - 1.0)
    }

    fn features(&self) -> Vec<f64> {
        let mut f = self.row.features().to_vec();
        f.extend(arch_features(&self.arch));
        f
    }

    fn occupancy_of(&self, b: u32) -> f64 {
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

    fn rank_features(&self, b: u32) -> Vec<f64> {
        let mut f = self.features();
        f.push((b as f64).log2());
        f.push(self.occupancy_of(b));
        f
    }

    /// Max-occupancy sizes among the measured ones, per-size resources.
    fn max_occupancy(&self) -> Vec<u32> {
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

fn cases(ds: &Dataset) -> Result<Vec<Case<'_>>> {
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
                arch: Arch::parse(&row.arch)?,
                times,
                resources,
            })
        })
        .collect()
}

fn standardizer(rows: &[Vec<f64>]) -> (Vec<f64>, Vec<f64>) {
    let d = rows.first().map_or(0, Vec::len);
    let n = rows.len().max(1) as f64;
    let mean: Vec<f64> = (0..d)
        .map(|j| rows.iter().map(|r| r[j]).sum::<f64>() / n)
        .collect();
    let sd = (0..d)
        .map(|j| {
            let v = rows.iter().map(|r| (r[j] - mean[j]).powi(2)).sum::<f64>() / n;
            if v > 1e-24 {
                v.sqrt()
            } else {
                1.0
            }
        })
        .collect();
    (mean, sd)
}

/// k-nearest-neighbour regression on standardized features (k = 3, mean of targets).
fn knn(train: &[(Vec<f64>, f64)], query: &[f64], k: usize) -> f64 {
    let xs: Vec<Vec<f64>> = train.iter().map(|t| t.0.clone()).collect();
    let (m, s) = standardizer(&xs);
    let z = |r: &[f64]| -> Vec<f64> {
        r.iter()
            .zip(m.iter().zip(&s))
            .map(|(v, (a, b))| (v - a) / b)
            .collect()
    };
    let q = z(query);
    let mut d: Vec<(f64, f64)> = train
        .iter()
        .map(|(x, y)| {
            let zx = z(x);
            (
                zx.iter().zip(&q).map(|(a, b)| (a - b).powi(2)).sum::<f64>(),
                *y,
            )
        })
        .collect();
    d.sort_by(|a, b| a.0.total_cmp(&b.0));
    let k = k.min(d.len()).max(1);
    d[..k].iter().map(|x| x.1).sum::<f64>() / k as f64
}

/// Leave-one-kernel-out (a kernel family is held out on all GPUs at once) for every method.
pub fn evaluate(ds: &Dataset, seed: u64) -> Result<StatunerReport> {
    let cases = cases(ds)?;
    if cases.len() < 2 {
        return Err(Error::Data(
            "block-size dataset needs at least two kernels".into(),
        ));
    }
    let mut rows = Vec::new();
    let mut rng = SplitMix64::new(seed);
    for (i, case) in cases.iter().enumerate() {
        let train: Vec<&Case> = cases
            .iter()
            .filter(|c| c.row.family != case.row.family)
            .collect();
        let best = case.best().0;
        let mut push = |method: &str, chosen: u32, error: f64| {
            rows.push(ErrorRow {
                kernel: case.row.kernel.clone(),
                gpu: case.row.gpu.clone(),
                method: method.into(),
                error,
                chosen,
                best,
            })
        };
        // STATuner: SVM classifier on static metrics (+ GPU limits).
        let x: Vec<Vec<f64>> = train.iter().map(|c| c.features()).collect();
        let y: Vec<u32> = train.iter().map(|c| c.best().0).collect();
        let svc = Svc::fit(
            &x,
            &y,
            &SvcParams {
                seed: seed.wrapping_add(i as u64),
                ..Default::default()
            },
        )?;
        let (b, e) = case.error(svc.predict(&case.features()));
        push("statuner-svm", b, e);
        // Ranking: predict ln(T(b)/T(best)) of each size, take the smallest.
        let samples: Vec<(Vec<f64>, f64)> = train
            .iter()
            .flat_map(|c| {
                let tb = c.best().1;
                c.times
                    .iter()
                    .map(move |&(b, t)| (c.rank_features(b), (t / tb).ln()))
            })
            .collect();
        let pick = case
            .times
            .iter()
            .map(|&(b, _)| (b, knn(&samples, &case.rank_features(b), 3)))
            .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)))
            .map_or(256, |p| p.0);
        let (b, e) = case.error(pick);
        push("rank-knn", b, e);
        // Occupancy calculator: best and worst of the maximal-occupancy sizes.
        let errs: Vec<(u32, f64)> = case
            .max_occupancy()
            .into_iter()
            .map(|b| case.error(b))
            .collect();
        let lo = errs.iter().copied().min_by(|a, b| a.1.total_cmp(&b.1));
        let hi = errs.iter().copied().max_by(|a, b| a.1.total_cmp(&b.1));
        if let (Some(lo), Some(hi)) = (lo, hi) {
            push("occupancy-best", lo.0, lo.1);
            push("occupancy-worst", hi.0, hi.1);
        }
        let (b, e) = case.error(256);
        push("fixed-256", b, e);
        // Random: mean error of 100 seeded uniform draws among the measured sizes.
        let draws = 100;
        let mut first = 0;
        let mut sum = 0.0;
        for d in 0..draws {
            let (b, _) = case.times[rng.below(case.times.len())];
            if d == 0 {
                first = b;
            }
            sum += case.error(b).1;
        }
        push("random", first, sum / draws as f64);
    }
    let mut mean = BTreeMap::new();
    for m in METHODS {
        let e: Vec<f64> = rows
            .iter()
            .filter(|r| r.method == *m)
            .map(|r| r.error)
            .collect();
        if !e.is_empty() {
            mean.insert(m.to_string(), e.iter().sum::<f64>() / e.len() as f64);
        }
    }
    let paper = BTreeMap::from([
        ("statuner-svm".to_string(), PAPER_STATUNER),
        ("occupancy".to_string(), PAPER_OCCUPANCY),
    ]);
    let mut kernels: Vec<&str> = cases.iter().map(|c| c.row.kernel.as_str()).collect();
    kernels.sort_unstable();
    kernels.dedup();
    let mut gpus: Vec<&str> = cases.iter().map(|c| c.row.gpu.as_str()).collect();
    gpus.sort_unstable();
    gpus.dedup();
    Ok(StatunerReport {
        rows,
        mean,
        paper,
        kernels: kernels.len(),
        gpus: gpus.len(),
    })
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
}

/// Trains the SVM on the whole dataset and predicts for one kernel's features.
pub fn recommend(
    ds: &Dataset,
    kernel: &str,
    statuner: [f64; 8],
    arch: &Arch,
    resources: &KernelResources,
    seed: u64,
) -> Result<Recommendation> {
    let cases = cases(ds)?;
    let x: Vec<Vec<f64>> = cases.iter().map(|c| c.features()).collect();
    let y: Vec<u32> = cases.iter().map(|c| c.best().0).collect();
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
    let block = svc.predict(&f);
    let (m, s) = standardizer(&x);
    let z = |r: &[f64]| -> Vec<f64> {
        r.iter()
            .zip(m.iter().zip(&s))
            .map(|(v, (a, b))| (v - a) / b)
            .collect()
    };
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
    let sizes = max_occupancy_sizes(arch, &candidate_sizes(), resources);
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
    })
}
