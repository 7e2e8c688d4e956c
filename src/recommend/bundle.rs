//! A trained advisor (`advise train`): per optimization, a fitted primary model (IBk by
//! default, the thesis's best) and a second model (M5P) whose agreement feeds the confidence,
//! the training rows (for the nearest-neighbour reason and the extrapolation check), and the
//! optimization's cross-validated accuracy against the majority rule. One JSON file (`.gz`
//! allowed) with the feature list, the normalization and the training data's provenance.
//!
//! An "optimization" is a kind of change a programmer can make in any code: an optimization
//! family (dataset::families: NB's UNROLL bit and a space's INNER_UNROLL_FACTOR steps are both
//! UNROLL; a many-valued parameter's family means "raise it"), pooled over the datasets'
//! programs. Only families the catalogue explains are kept: a program's private algorithm
//! choices (pnpoly's USE_METHOD) mean nothing for another program.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::dataset::import::fnv1a;
use crate::error::{Error, Result};
use crate::experiment::data::SamplePool;
use advise_ml::SplitMix64;
use advise_ml::{Data, FittedModel, Method};

use super::calibration::{binned, reliability, Calibration, ReliabilityRow};
use super::evidence::{ranges_of, typical_distance};
use super::validation::Point;
pub use super::validation::Validation;

pub const FORMAT: &str = "advise-advisor";
pub const VERSION: u32 = 2;

/// Everything about one optimization.
#[derive(Debug, Serialize, Deserialize)]
pub struct OptimizationModel {
    pub name: String,
    pub samples: usize,
    pub positive_rate: f64,
    pub mean_speedup: f64,
    pub primary: FittedModel,
    pub secondary: FittedModel,
    pub validation: Option<Validation>,
    /// Training rows (NaN = missing), their sample ids and measured speedups.
    pub rows: Vec<Vec<f64>>,
    pub ids: Vec<String>,
    pub speedups: Vec<f64>,
    /// Per feature: minimum and maximum over the training rows.
    pub ranges: Vec<(f64, f64)>,
    /// Median distance of a training row to its nearest other training row (scaled space).
    pub typical_distance: f64,
    /// The same over the portable features only (the extrapolation check's space).
    #[serde(default)]
    pub typical_portable_distance: f64,
    /// The programs its samples come from, and whether all of them were simulated (then no
    /// measurement on a GPU backs it).
    #[serde(default)]
    pub programs: Vec<String>,
    #[serde(default)]
    pub simulated_only: bool,
    /// Leave one program out over its programs (two or more): trained on the others, tested
    /// on each in turn, against the majority rule of the others. A user's program is new to
    /// the advisor, so this says more about it than the grouped validation within programs.
    #[serde(default)]
    pub across_programs: Option<Validation>,
    /// For a many-valued family: LinearRegression on where a step starts and how far it goes
    /// (and, for block sizes, the occupancy change; recommend::step_model), with its own
    /// accuracy across programs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<super::step_model::StepModel>,
}

/// The whole advisor.
#[derive(Debug, Serialize, Deserialize)]
pub struct Advisor {
    pub format: String,
    pub version: u32,
    pub method: Method,
    pub features: Vec<String>,
    /// The metric counts were divided by (C = 1e6), and whether all metrics were divided.
    pub normalizer: Option<String>,
    pub datasets: Vec<String>,
    pub provenance: String,
    pub optimizations: Vec<OptimizationModel>,
    /// The feature view the advisor was trained on.
    #[serde(default)]
    pub view: crate::dataset::features::View,
    /// Raw confidence score -> share of held-out suggestions that were right.
    #[serde(default)]
    pub calibration: Calibration,
    /// The calibrated confidence against the share right, on held-out predictions.
    #[serde(default)]
    pub reliability: Vec<ReliabilityRow>,
    /// The same on programs it had not seen (leave one program out), confidence capped as
    /// `suggest` caps it.
    #[serde(default)]
    pub reliability_across: Vec<ReliabilityRow>,
}

impl Advisor {
    /// The Nsight Compute metrics a profile needs for this advisor: its counter features,
    /// the inputs of its portable features, the normalizer and active cycles; no duplicates.
    pub fn metrics_to_profile(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let mut add = |m: &str| {
            if !out.iter().any(|o| o == m) {
                out.push(m.to_string());
            }
        };
        for f in &self.features {
            if f.starts_with("portable__") {
                continue;
            }
            add(f);
        }
        if self.features.iter().any(|f| f.starts_with("portable__")) {
            for m in crate::dataset::portable::ncu_inputs() {
                add(m);
            }
        }
        if let Some(n) = &self.normalizer {
            add(n);
        }
        add("sm__cycles_active.sum");
        // Where the code stands for the step models (threads per block).
        if self.optimizations.iter().any(|m| m.step.is_some()) {
            add("launch__block_size");
        }
        out
    }

    /// Indices of the portable features; all features when the advisor has none.
    pub fn extrapolation_columns(&self) -> Vec<usize> {
        let portable: Vec<usize> = (0..self.features.len())
            .filter(|&j| self.features[j].starts_with("portable__"))
            .collect();
        if portable.is_empty() {
            (0..self.features.len()).collect()
        } else {
            portable
        }
    }
}

/// How to train.
#[derive(Debug, Clone)]
pub struct TrainSettings {
    pub method: Method,
    pub seed: u64,
    /// At most this many samples per optimization (a seeded subsample), to bound the file.
    pub max_samples: usize,
    pub folds: usize,
    pub view: crate::dataset::features::View,
}

impl Default for TrainSettings {
    fn default() -> Self {
        TrainSettings {
            method: Method::Ibk,
            seed: 1,
            max_samples: 600,
            folds: 10,
            view: crate::dataset::features::View::Portable,
        }
    }
}

/// Columns a user's profile can provide: Nsight Compute metric names, not the normalizer
/// itself and not tool-specific extras of an imported space (`ktt__*`).
pub fn usable_columns(pool: &SamplePool) -> Vec<usize> {
    (0..pool.columns.len())
        .filter(|&j| {
            let c = &pool.columns[j];
            c.contains("__") && !c.starts_with("ktt__") && Some(c) != pool.normalizer.as_ref()
        })
        .collect()
}

/// Trains an advisor on a pool of speedup samples.
pub fn train(
    pool: &SamplePool,
    datasets: &[PathBuf],
    provenance: String,
    settings: &TrainSettings,
) -> Result<Advisor> {
    train_reporting(pool, datasets, provenance, settings, &mut |_, _, _| {})
}

/// [`train`], telling `progress` (optimizations done, optimizations in all, the one begun)
/// before each optimization's models are fitted and validated.
pub fn train_reporting(
    pool: &SamplePool,
    datasets: &[PathBuf],
    provenance: String,
    settings: &TrainSettings,
    progress: &mut dyn FnMut(usize, usize, &str),
) -> Result<Advisor> {
    let cols = usable_columns(pool);
    if cols.is_empty() {
        return Err(Error::Data(format!(
            "{}: no Nsight Compute metric columns to train on",
            pool.name
        )));
    }
    let features: Vec<String> = cols.iter().map(|&j| pool.columns[j].clone()).collect();
    let mut groups: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    // Whether the catalogue explains each family, looked up once per family (each lookup
    // reads the catalogue).
    let mut explained: BTreeMap<&str, bool> = BTreeMap::new();
    for (i, s) in pool.samples.iter().enumerate() {
        let Some(name) = pool.family(&s.switch) else {
            continue;
        };
        let known = match explained.get(name) {
            Some(&k) => k,
            None => {
                let k = crate::recommend::catalogue::lookup(name)?.is_some();
                explained.insert(name, k);
                k
            }
        };
        if known {
            groups.entry(name.to_string()).or_default().push(i);
        }
    }
    let secondary = if settings.method == Method::M5p {
        Method::Ibk
    } else {
        Method::M5p
    };
    let (group_keys, group_of) = crate::experiment::splits::groups(pool);
    let portable_cols: Vec<usize> = (0..features.len())
        .filter(|&j| features[j].starts_with("portable__"))
        .collect();
    let steps = crate::experiment::step_features::step_values(pool);
    let mut optimizations = Vec::new();
    let mut points: Vec<Point> = Vec::new();
    // Leave-one-program-out points, each with its optimization's accuracy across programs.
    let mut across_points: Vec<(Point, f64)> = Vec::new();
    let total = groups.len();
    for (done, (name, mut idx)) in groups.into_iter().enumerate() {
        progress(done, total, &name);
        // The step model has two features: it learns from every sample, those of times-only
        // datasets (no counter) included; the counter models from samples with counters.
        let all = idx.clone();
        idx.retain(|&i| cols.iter().any(|&j| pool.samples[i].features[j].is_some()));
        if idx.len() < 2 * settings.folds {
            continue;
        }
        let seed = settings.seed ^ fnv1a(name.as_bytes());
        let mut rng = SplitMix64::new(seed);
        for j in (1..idx.len()).rev() {
            idx.swap(j, rng.below(j + 1));
        }
        idx.truncate(settings.max_samples);
        idx.sort_unstable();
        let rows: Vec<Vec<f64>> = idx
            .iter()
            .map(|&i| {
                cols.iter()
                    .map(|&j| pool.samples[i].features[j].unwrap_or(f64::NAN))
                    .collect()
            })
            .collect();
        let y: Vec<f64> = idx.iter().map(|&i| pool.samples[i].speedup).collect();
        let data = Data::numeric(&features, "speedup", rows.clone(), y.clone());
        let primary = settings.method.default_params().fit(&data)?;
        let second = secondary.default_params().fit(&data)?;
        let sample_groups = crate::experiment::splits::join_shared_baselines(pool, &idx, &group_of);
        let outcome = super::validation::validate(
            &features,
            &rows,
            &y,
            &sample_groups,
            settings.method,
            secondary,
            settings.folds,
            seed,
            &[],
        )?;
        let validation = outcome.as_ref().map(|o| o.validation.clone());
        if let Some(o) = outcome {
            points.extend(o.points);
        }
        let across_outcome = super::programs::across(
            pool,
            &idx,
            &features,
            &rows,
            &y,
            settings.method,
            secondary,
            seed,
            &[],
        )?;
        let across_programs = across_outcome.map(|o| {
            let cap = o.validation.accuracy;
            across_points.extend(o.points.into_iter().map(|p| (p, cap)));
            o.validation
        });
        let step = match super::step_model::level_meaning(&name) {
            Some(_) => super::step_model::fit(pool, &all, &steps, seed)?,
            None => None,
        };
        let ranges = ranges_of(&rows, features.len());
        let typical = typical_distance(&rows, &ranges);
        let typical_portable_distance = if portable_cols.is_empty() {
            typical
        } else {
            let sub: Vec<Vec<f64>> = rows
                .iter()
                .map(|r| portable_cols.iter().map(|&j| r[j]).collect())
                .collect();
            typical_distance(&sub, &ranges_of(&sub, portable_cols.len()))
        };
        optimizations.push(OptimizationModel {
            name,
            samples: idx.len(),
            positive_rate: y.iter().filter(|&&v| v > 1.0).count() as f64 / y.len() as f64,
            mean_speedup: y.iter().sum::<f64>() / y.len() as f64,
            primary,
            secondary: second,
            validation,
            ids: idx.iter().map(|&i| sample_id(pool, i)).collect(),
            rows,
            speedups: y,
            ranges,
            typical_distance: typical,
            typical_portable_distance,
            across_programs,
            step,
            simulated_only: idx
                .iter()
                .all(|&i| pool.simulated.contains(&pool.samples[i].key.program)),
            programs: super::programs::labels(pool, &idx),
        });
    }
    let _ = group_keys;
    if optimizations.is_empty() {
        return Err(Error::Data(format!(
            "{}: no optimization has enough samples to train on",
            pool.name
        )));
    }
    let calibration = Calibration::fit(&points);
    // Confidence as `suggest` gives it on a program the advisor had not seen: the calibration
    // (fitted within programs) capped at the accuracy across programs.
    let scored: Vec<(f64, bool)> = across_points
        .iter()
        .map(|(p, cap)| (calibration.apply(p.raw).min(*cap), p.correct))
        .collect();
    let reliability_across = binned(&scored);
    Ok(Advisor {
        format: FORMAT.into(),
        version: VERSION,
        method: settings.method,
        features,
        normalizer: pool.normalizer.clone(),
        datasets: datasets.iter().map(|d| d.display().to_string()).collect(),
        provenance,
        optimizations,
        view: settings.view,
        reliability: reliability(&points),
        reliability_across,
        calibration,
    })
}

fn sample_id(pool: &SamplePool, i: usize) -> String {
    let s = &pool.samples[i];
    format!(
        "{} {} run {} {} ({})",
        s.key.program, s.key.input, s.key.run, s.key.variant, s.switch
    )
}

impl Advisor {
    /// Writes the advisor as JSON, gzipped when the path ends in `.gz`.
    pub fn save(&self, path: &Path) -> Result<()> {
        let text = serde_json::to_string(self)
            .map_err(|e| Error::Internal(format!("cannot write advisor: {e}")))?;
        let file = std::fs::File::create(path).map_err(|e| Error::io(path, e))?;
        let res = if path.extension().is_some_and(|e| e == "gz") {
            let mut gz = flate2::write::GzEncoder::new(file, flate2::Compression::best());
            gz.write_all(text.as_bytes())
                .and_then(|_| gz.finish().map(|_| ()))
        } else {
            let mut f = file;
            f.write_all(text.as_bytes())
        };
        res.map_err(|e| Error::io(path, e))
    }

    /// Reads an advisor written by `save`.
    pub fn load(path: &Path) -> Result<Advisor> {
        let mut text = String::new();
        crate::dataset::table::open(path)?
            .read_to_string(&mut text)
            .map_err(|e| Error::io(path, e))?;
        let probe: serde_json::Value = serde_json::from_str(&text)
            .map_err(|e| Error::parse(path, e.line(), format!("not an advisor file: {e}")))?;
        if probe.get("format").and_then(|f| f.as_str()) != Some(FORMAT) {
            return Err(Error::format(
                path,
                format!(
                    "not an advisor (no \"format\": \"{FORMAT}\"); train one with `advise train`"
                ),
            ));
        }
        if probe.get("version").and_then(|v| v.as_u64()) != Some(VERSION as u64) {
            return Err(Error::format(
                path,
                format!("advisor format version is not {VERSION}; retrain it with this advise"),
            ));
        }
        crate::json_nan::from_value(probe)
            .map_err(|e| Error::format(path, format!("invalid advisor: {e}")))
    }
}
