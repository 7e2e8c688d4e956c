//! Training an advisor (`advise train`): per optimization family the catalogue explains, the
//! primary and second models on a seeded subsample of its samples with counters, their
//! grouped cross-validation and leave-one-program-out validation, the step model of a
//! many-valued family, and the confidence's calibration over all of them. The result is a
//! [`super::bundle::Advisor`].

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::dataset::host_link::HostLink;
use crate::dataset::import::fnv1a;
use crate::error::{Error, Result};
use crate::experiment::data::SamplePool;
use crate::experiment::step_features::StepValues;
use advise_ml::SplitMix64;
use advise_ml::{Data, Method};

use super::bundle::{Advisor, OptimizationModel, RuleBasis, FORMAT, VERSION};
use super::calibration::{binned, reliability, Calibration};
use super::evidence::{ranges_of, typical_distance};
pub use super::feature_columns::usable_columns;
use super::validation::Point;

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
    let groups = explained_families(pool)?;
    let cx = Context {
        pool,
        settings,
        portable_cols: (0..features.len())
            .filter(|&j| features[j].starts_with("portable__"))
            .collect(),
        cols,
        features,
        secondary: if settings.method == Method::M5p {
            Method::Ibk
        } else {
            Method::M5p
        },
        group_of: crate::experiment::splits::groups(pool).1,
        steps: crate::experiment::step_features::step_values(pool),
    };
    let mut optimizations = Vec::new();
    let mut points: Vec<Point> = Vec::new();
    // Leave-one-program-out points, each with its optimization's accuracy across programs.
    let mut across_points: Vec<(Point, f64)> = Vec::new();
    let total = groups.len();
    for (done, ((name, link), idx)) in groups.into_iter().enumerate() {
        match link {
            Some(l) => progress(done, total, &format!("{name} ({} host)", l.label())),
            None => progress(done, total, &name),
        }
        if let Some(trained) = cx.optimization(name, link, idx)? {
            optimizations.push(trained.model);
            points.extend(trained.points);
            across_points.extend(trained.across_points);
        }
    }
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
        features: cx.features,
        normalizer: pool.normalizer.clone(),
        datasets: datasets.iter().map(|d| d.display().to_string()).collect(),
        provenance,
        optimizations,
        view: settings.view,
        reliability: reliability(&points),
        reliability_across,
        calibration,
        trained_with: Some(super::bundle::TrainedWith {
            seed: settings.seed,
            max_samples: settings.max_samples,
            folds: settings.folds,
        }),
    })
}

/// The samples of each optimization family the catalogue explains (a program's private
/// switches, in no family or one the catalogue lacks, are left out); a family whose effect
/// depends on the host link (`catalogue::Entry::per_host_link`) once per link its samples
/// were measured on (`None`: samples whose dataset does not say).
type Groups = BTreeMap<(String, Option<HostLink>), Vec<usize>>;

fn explained_families(pool: &SamplePool) -> Result<Groups> {
    let mut groups: Groups = BTreeMap::new();
    // Whether the catalogue explains each family and whether per host link, looked up once
    // per family (each lookup reads the catalogue).
    let mut explained: BTreeMap<&str, Option<bool>> = BTreeMap::new();
    for (i, s) in pool.samples.iter().enumerate() {
        let Some(name) = pool.family(&s.switch) else {
            continue;
        };
        let known = match explained.get(name) {
            Some(&k) => k,
            None => {
                let k = crate::recommend::catalogue::lookup(name)?.map(|e| e.per_host_link);
                explained.insert(name, k);
                k
            }
        };
        if let Some(per_host) = known {
            let link = per_host.then(|| pool.launch.host_links.of(s)).flatten();
            groups.entry((name.to_string(), link)).or_default().push(i);
        }
    }
    Ok(groups)
}

/// What every optimization's training shares.
struct Context<'a> {
    pool: &'a SamplePool,
    settings: &'a TrainSettings,
    /// The pool's columns a profile can give, and their names.
    cols: Vec<usize>,
    features: Vec<String>,
    /// Positions in `features` of the portable view's columns.
    portable_cols: Vec<usize>,
    /// The second opinion's method.
    secondary: Method,
    /// Each sample's validation group (experiment::splits::groups).
    group_of: Vec<usize>,
    /// Each sample's step, for the step models.
    steps: Vec<Option<StepValues>>,
}

/// One optimization's models, with the validation points they give within programs and
/// (each with the optimization's accuracy there) across programs.
struct Trained {
    model: OptimizationModel,
    points: Vec<Point>,
    across_points: Vec<(Point, f64)>,
}

impl Context<'_> {
    /// Fits and validates one optimization on its samples `idx` (all measured on `host_link`
    /// where that is given); `None` where fewer than two per fold have counters.
    fn optimization(
        &self,
        name: String,
        host_link: Option<HostLink>,
        mut idx: Vec<usize>,
    ) -> Result<Option<Trained>> {
        let (pool, settings, cols) = (self.pool, self.settings, &self.cols);
        // The step model has two features: it learns from every sample, those of times-only
        // datasets (no counter) included; the counter models from samples with counters.
        let all = idx.clone();
        idx.retain(|&i| cols.iter().any(|&j| pool.samples[i].features[j].is_some()));
        if idx.len() < 2 * settings.folds {
            return Ok(None);
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
        let features = &self.features;
        let data = Data::numeric(features, "speedup", rows.clone(), y.clone());
        let primary = settings.method.default_params().fit(&data)?;
        let second = self.secondary.default_params().fit(&data)?;
        let sample_groups =
            crate::experiment::splits::join_shared_baselines(pool, &idx, &self.group_of);
        let measured = super::programs::measured(pool, &idx);
        let outcome = super::validation::validate(
            features,
            &rows,
            &y,
            &sample_groups,
            settings.method,
            self.secondary,
            settings.folds,
            seed,
            &[],
            &measured,
        )?;
        let (mut points, mut rule_points) = (Vec::new(), Vec::new());
        let validation = outcome.map(|o| {
            points = o.points;
            rule_points = o.rule_points;
            o.validation
        });
        let across_outcome = super::programs::across(
            pool,
            &idx,
            features,
            &rows,
            &y,
            settings.method,
            self.secondary,
            seed,
            &[],
            None,
        )?;
        // A user's program is new: where the optimization was validated across programs,
        // that decides between the model and the majority rule, else the grouped validation;
        // a model that neither validated (too few samples or groups) has not earned its place.
        let follows_rule = across_outcome
            .as_ref()
            .map(|o| &o.validation)
            .or(validation.as_ref())
            .is_none_or(super::validation::follows_rule);
        if follows_rule {
            points = rule_points;
        }
        let across_nested = match &across_outcome {
            Some(o) => Some(super::nested::nested_choice(
                pool,
                &idx,
                features,
                &rows,
                &y,
                &sample_groups,
                (settings.method, self.secondary),
                settings.folds,
                seed,
                o,
            )?),
            None => None,
        };
        let mut across_points = Vec::new();
        let across_programs = across_outcome.map(|o| {
            // Suggestions that follow the rule are right as often as the rule; their
            // confidence is capped at its accuracy across programs.
            let cap = o.validation.answering(follows_rule);
            let held_out = if follows_rule {
                o.rule_points
            } else {
                o.points
            };
            across_points.extend(held_out.into_iter().map(|p| (p, cap)));
            o.validation
        });
        let step = match super::step_model::level_meaning(&name) {
            Some(_) => super::step_model::fit(pool, &all, &self.steps, seed)?,
            None => None,
        };
        let ranges = ranges_of(&rows, features.len());
        let typical = typical_distance(&rows, &ranges);
        let typical_portable_distance = if self.portable_cols.is_empty() {
            typical
        } else {
            let sub: Vec<Vec<f64>> = rows
                .iter()
                .map(|r| self.portable_cols.iter().map(|&j| r[j]).collect())
                .collect();
            typical_distance(&sub, &ranges_of(&sub, self.portable_cols.len()))
        };
        let program_of: Vec<String> = idx
            .iter()
            .map(|&i| pool.samples[i].key.program.clone())
            .collect();
        let rule = RuleBasis::of(&y, &measured, &program_of);
        let model = OptimizationModel {
            name,
            host_link,
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
            simulated_only: idx.iter().all(|&i| pool.simulated.has(&pool.samples[i])),
            programs: super::programs::labels(pool, &idx),
            follows_rule,
            across_nested: across_nested.map(|n| [n.right, n.all]),
            across_nested_verdicts: across_nested,
            rule: Some(rule),
        };
        Ok(Some(Trained {
            model,
            points,
            across_points,
        }))
    }
}

/// How evidence names a training sample: program, input, run, variant and switch, and
/// whether it was simulated (the simulated and the measured campaigns use other inputs, but
/// a reader should not have to know which).
fn sample_id(pool: &SamplePool, i: usize) -> String {
    let s = &pool.samples[i];
    let origin = if pool.simulated.has(s) {
        ", SIMULATED"
    } else {
        ""
    };
    let campaign = if s.campaign.is_empty() {
        String::new()
    } else {
        format!(" in {}", s.campaign)
    };
    format!(
        "{} {} run {} {} ({}{origin}){campaign}",
        s.key.program, s.key.input, s.key.run, s.key.variant, s.switch
    )
}
