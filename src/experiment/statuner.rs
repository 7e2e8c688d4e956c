//! The STATuner experiment (Gupta et al., block-size prediction from static metrics):
//! leave-one-kernel-out over the block-size dataset, with the paper's error
//! T(chosen) / T(best) - 1 for its SVM, a ranking kNN and the baselines the paper compares
//! with (the occupancy calculator's best and worst maximal-occupancy size), a fixed 256 and
//! a seeded random choice.

use std::collections::BTreeMap;

use serde::Serialize;

use advise_ml::data::Standardizer;
use advise_ml::knn::{Neighbours, Weights};
use advise_ml::svm::{Svc, SvcParams};
use advise_ml::SplitMix64;

use crate::dataset::blocksize::Dataset;
use crate::error::{Error, Result};
use crate::static_analysis::blocksize::{cases, Case};

/// The paper's average errors on its five test kernels (section 4).
pub const PAPER_STATUNER: f64 = 0.044;
pub const PAPER_OCCUPANCY: f64 = 0.066;

pub use crate::static_analysis::blocksize::LABEL_BAND;

/// Method names, in report order. `best-training-label` is no method but a bound: the best
/// any classifier trained on these labels could do (for each held-out case, the training
/// label that suits it best).
pub const METHODS: &[&str] = &[
    "statuner-svm",
    "svm-flat-labels",
    "best-training-label",
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
    /// For the SVMs: the held-out case's largest RBF similarity to a training row (1: the
    /// same static features; near 0: nothing like it was trained on).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub similarity: Option<f64>,
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

/// k-nearest-neighbour regression on standardized features (k = 3, mean of targets).
fn knn(train: &[(Vec<f64>, f64)], query: &[f64], k: usize) -> f64 {
    let xs: Vec<Vec<f64>> = train.iter().map(|t| t.0.clone()).collect();
    let z = Standardizer::fit(&xs);
    let points: Vec<f64> = xs.iter().flat_map(|r| z.apply(r)).collect();
    let y: Vec<f64> = train.iter().map(|t| t.1).collect();
    let width = xs.first().map_or(0, Vec::len);
    Neighbours::new(width, points, y, k, Weights::Uniform).predict_point(&z.apply(query))
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
        let mut similarity = None;
        let mut push = |method: &str, chosen: u32, error: f64, similarity: Option<f64>| {
            rows.push(ErrorRow {
                kernel: case.row.kernel.clone(),
                gpu: case.row.gpu.clone(),
                method: method.into(),
                error,
                chosen,
                best,
                similarity,
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
        let z = Standardizer::fit_dropping_constant(&x);
        let gamma = 1.0 / z.kept().max(1) as f64;
        let q = z.apply(&case.features());
        similarity = x
            .iter()
            .map(|r| {
                let d: f64 = z
                    .apply(r)
                    .iter()
                    .zip(&q)
                    .map(|(a, b)| (a - b).powi(2))
                    .sum();
                (-gamma * d).exp()
            })
            .reduce(f64::max)
            .or(similarity);
        push("statuner-svm", b, e, similarity);
        // The same SVM on labels that respect flat timing curves.
        let flat: Vec<u32> = train.iter().map(|c| c.label(LABEL_BAND)).collect();
        let svc = Svc::fit(
            &x,
            &flat,
            &SvcParams {
                seed: seed.wrapping_add(i as u64),
                ..Default::default()
            },
        )?;
        let (b, e) = case.error(svc.predict(&case.features()));
        push("svm-flat-labels", b, e, similarity);
        // The bound: the training label that suits this case best.
        let mut labels: Vec<u32> = y.iter().chain(&flat).copied().collect();
        labels.sort_unstable();
        labels.dedup();
        if let Some((b, e)) = labels
            .iter()
            .map(|&l| case.error(l))
            .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)))
        {
            push("best-training-label", b, e, None);
        }
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
        push("rank-knn", b, e, None);
        // Occupancy calculator: best and worst of the maximal-occupancy sizes.
        let errs: Vec<(u32, f64)> = case
            .max_occupancy()
            .into_iter()
            .map(|b| case.error(b))
            .collect();
        let lo = errs.iter().copied().min_by(|a, b| a.1.total_cmp(&b.1));
        let hi = errs.iter().copied().max_by(|a, b| a.1.total_cmp(&b.1));
        if let (Some(lo), Some(hi)) = (lo, hi) {
            push("occupancy-best", lo.0, lo.1, None);
            push("occupancy-worst", hi.0, hi.1, None);
        }
        let (b, e) = case.error(256);
        push("fixed-256", b, e, None);
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
        push("random", first, sum / draws as f64, None);
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

/// The evaluation of the dataset in `dir` (default: the repository's `datasets/blocksize`).
pub fn evaluate_folder(dir: Option<&std::path::Path>, seed: u64) -> Result<StatunerReport> {
    let dir = dir.map_or_else(Dataset::default_dir, std::path::Path::to_path_buf);
    evaluate(&Dataset::load(&dir)?, seed)
}
