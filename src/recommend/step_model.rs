//! The step model of a many-valued optimization family: Weka's LinearRegression on the step
//! features (experiment::step_features: log2 of where the step starts, log2 of how far it
//! goes and, for block sizes, what the step does to theoretical occupancy given the registers
//! per thread and the GPU), with no other counter. On this project's datasets it carried over
//! between programs better than the counters and than the untrained occupancy rule (`advise
//! bench transfer`'s "step features only" row; LinearRegression there and in the advisor's own
//! leave one program out beat M5P, which the step models used before; docs/families.md), not
//! on Kernel Tuner's spaces; so it answers "raise it by one step (x2)?" only where a profile
//! shows where the user's code stands (its threads per block) and its own
//! leave-one-program-out accuracy beat the counter model's.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::bundle::OptimizationModel;
use super::validation::Validation;
use crate::dataset::measurements::MeasurementRow;
use crate::error::Result;
use crate::experiment::data::SamplePool;
use crate::experiment::step_features::{StepValues, LAUNCH_COLUMNS, STEP_COLUMNS};
use advise_ml::{Data, FittedModel, Method};

pub use super::profile_launch::ProfileLaunch;

/// The step models' method.
const STEP_METHOD: Method = Method::Linear;

/// The step a suggestion proposes: one doubling of the family's level.
pub const STEP_FACTOR: f64 = 2.0;

/// Fewest samples with a known step for a step model.
const MIN_SAMPLES: usize = 20;

/// Most samples a step model takes from one program.
const PER_PROGRAM: usize = 2000;

/// One family's step model.
#[derive(Debug, Serialize, Deserialize)]
pub struct StepModel {
    pub model: FittedModel,
    pub samples: usize,
    /// log2 of the lowest and highest level it was trained on.
    pub level_range: (f64, f64),
    /// Leave one program out (each program predicted by a step model of the others), against
    /// the others' majority rule.
    pub across_programs: Validation,
    /// The same with the held-out programs' occupancy taken as unknown: what a profile that
    /// names no GPU or registers per thread gets. Only where the model learned occupancy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub across_programs_unknown_gpu: Option<Validation>,
    /// Leave one program out judged only on the held-out steps that leave theoretical
    /// occupancy unchanged, and only on those that change it (where the model learned
    /// occupancy): the validation that speaks for a step whose occupancy change is known.
    /// On the shipped advisor's block-size steps the model was right about as often as a coin
    /// where occupancy stays (780 of 1,548) and 80% of the time where it moves.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub across_programs_same_occupancy: Option<Validation>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub across_programs_occupancy_changes: Option<Validation>,
    /// The untrained occupancy rule's accuracy on the same programs held out
    /// (recommend::programs::occupancy_rule_across), where the samples have occupancy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub occupancy_rule_accuracy: Option<f64>,
    /// Leave one program out with each held-out program's verdicts decided on the other
    /// programs alone, by the kind of step as a suggestion's are
    /// (nested::nested_verdicts_by_kind; block steps without occupancy are not counted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub across_nested: Option<super::nested::NestedChoice>,
}

/// Whether a step's log2 change of theoretical occupancy leaves it unchanged.
pub fn occupancy_unchanged(log2_change: f64) -> bool {
    log2_change.abs() < 1e-9
}

/// What a step does to theoretical occupancy, by which a model that learned occupancy is
/// judged apart (`StepModel::validation_for`) and validated apart (`fit`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum StepKind {
    /// No GPU or register count: occupancy unknown.
    Unknown,
    Same,
    Changes,
}

impl StepKind {
    fn of(step: &StepValues) -> Self {
        match step.occupancy {
            None => StepKind::Unknown,
            Some(o) if occupancy_unchanged(o) => StepKind::Same,
            Some(_) => StepKind::Changes,
        }
    }
}

/// The family of an optimization's name, which is its family and a direction ("BLOCK_SIZE
/// up" -> "BLOCK_SIZE"; a name without a direction is its own family).
pub fn family_of(name: &str) -> &str {
    name.split_whitespace().next().unwrap_or(name)
}

/// What a family's level counts.
pub fn level_meaning(family: &str) -> Option<&'static str> {
    match family {
        "BLOCK_SIZE" => Some("threads per block"),
        "TILE_SIZE" => Some("outputs per thread"),
        "UNROLL" => Some("unroll factor"),
        _ => None,
    }
}

fn columns() -> Vec<String> {
    STEP_COLUMNS.iter().map(|c| c.to_string()).collect()
}

/// The step model of samples `idx` (`steps`: every sample's step features), validated by
/// leaving one program out; `None` with fewer than two programs or [`MIN_SAMPLES`] samples.
pub(super) fn fit(
    pool: &SamplePool,
    idx: &[usize],
    steps: &[Option<StepValues>],
    seed: u64,
) -> Result<Option<StepModel>> {
    let mut known: Vec<(usize, StepValues)> = idx
        .iter()
        .filter_map(|&i| steps.get(i).copied().flatten().map(|s| (i, s)))
        .collect();
    // At most PER_PROGRAM samples of each program (a seeded subsample), so that a program
    // with a large space does not outweigh the others in the model or in its validation.
    let mut of_program: BTreeMap<&str, Vec<(usize, StepValues)>> = BTreeMap::new();
    for &k in &known {
        of_program
            .entry(pool.samples[k.0].key.program.as_str())
            .or_default()
            .push(k);
    }
    let programs = of_program.len();
    let mut rng = advise_ml::SplitMix64::new(seed);
    known.clear();
    for (_, mut list) in of_program {
        for j in (1..list.len()).rev() {
            list.swap(j, rng.below(j + 1));
        }
        list.truncate(PER_PROGRAM);
        known.extend(list);
    }
    known.sort_unstable_by_key(|k| k.0);
    if programs < 2 || known.len() < MIN_SAMPLES {
        return Ok(None);
    }
    let x: Vec<Vec<f64>> = known.iter().map(|(_, s)| s.row()).collect();
    let y: Vec<f64> = known
        .iter()
        .map(|&(i, _)| pool.samples[i].speedup)
        .collect();
    let features = columns();
    // Each program predicted by a step model of the others.
    let idx: Vec<usize> = known.iter().map(|k| k.0).collect();
    // Leave one program out, with the held-out programs' columns `unknown` blanked, judged on
    // the rows `judge` marks (all without it).
    let across = |unknown: &[usize], judge: Option<&[bool]>| {
        super::programs::across(
            pool,
            &idx,
            &features,
            &x,
            &y,
            STEP_METHOD,
            Method::Ibk,
            seed,
            unknown,
            judge,
        )
    };
    let Some(outcome) = across(&[], None)? else {
        return Ok(None);
    };
    // Again without the occupancy columns, where any sample has them; and judged apart on the
    // steps whose occupancy stays and those whose occupancy moves.
    let learned_occupancy = known.iter().any(|(_, s)| s.occupancy.is_some());
    // Each step's kind as a suggestion judges it (StepKind, as `validation_for`): 0 occupancy
    // unchanged, 1 changed, none unknown; all 0 where the model did not learn occupancy.
    let kinds: Vec<Option<u8>> = known
        .iter()
        .map(|(_, s)| match StepKind::of(s) {
            _ if !learned_occupancy => Some(0),
            StepKind::Same => Some(0),
            StepKind::Changes => Some(1),
            StepKind::Unknown => None,
        })
        .collect();
    let of_kind = |c: u8| -> Vec<bool> { kinds.iter().map(|&k| k == Some(c)).collect() };
    let (mut unknown_gpu, mut same, mut changes) = (None, None, None);
    if learned_occupancy {
        unknown_gpu = across(&LAUNCH_COLUMNS, None)?.map(|o| o.validation);
        same = across(&[], Some(&of_kind(0)))?;
        changes = across(&[], Some(&of_kind(1)))?;
    }
    // The same choices made without each held-out program, on the validations above: by kind
    // where the model learned occupancy, else on all steps.
    let outers: Vec<(u8, &super::validation::Outcome)> = if learned_occupancy {
        [(0, same.as_ref()), (1, changes.as_ref())]
            .into_iter()
            .filter_map(|(c, o)| o.map(|o| (c, o)))
            .collect()
    } else {
        vec![(0, &outcome)]
    };
    let nested = super::nested::nested_verdicts_by_kind(
        pool,
        &idx,
        &features,
        &x,
        &y,
        (STEP_METHOD, Method::Ibk),
        seed,
        &kinds,
        &outers,
    )?;
    let model =
        STEP_METHOD
            .default_params()
            .fit(&Data::numeric(&features, "speedup", x.clone(), y))?;
    let level_range = x
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), r| {
            (lo.min(r[0]), hi.max(r[0]))
        });
    Ok(Some(StepModel {
        model,
        samples: known.len(),
        level_range,
        across_programs: outcome.validation,
        across_programs_unknown_gpu: unknown_gpu,
        across_programs_same_occupancy: same.map(|o| o.validation),
        across_programs_occupancy_changes: changes.map(|o| o.validation),
        occupancy_rule_accuracy: super::programs::occupancy_rule_across(
            pool,
            &idx,
            &known.iter().map(|(_, s)| *s).collect::<Vec<_>>(),
        ),
        across_nested: Some(nested),
    }))
}

impl StepModel {
    /// The predicted speedup of the step (features as
    /// experiment::step_features::StepValues: log2 of the level and the factor, and the
    /// occupancy change where known).
    pub fn predict(&self, step: &StepValues) -> Result<f64> {
        // An advisor trained before the occupancy features has a model of the first two.
        let n = self.model.features.len().min(STEP_COLUMNS.len());
        let mut row = step.row();
        row.truncate(n);
        let data = Data::numeric(&columns()[..n], "speedup", vec![row], vec![f64::NAN]);
        Ok(self.model.predict(&data)?[0])
    }

    /// The validation that speaks for `step`: where the model learned occupancy and the
    /// step's is unknown (no GPU or registers per thread in the profile), the one with the
    /// held-out programs' occupancy unknown too; where it is known, the one judged on the
    /// held-out steps that leave occupancy unchanged, or on those that change it, as this
    /// step does.
    pub fn validation_for(&self, step: &StepValues) -> &Validation {
        self.of_kind(step).map_or(&self.across_programs, |k| k.0)
    }

    /// Which held-out steps [`StepModel::validation_for`] judged `step` by, in words (empty
    /// for all of them, or for those with occupancy unknown).
    pub fn judged_on(&self, step: &StepValues) -> &'static str {
        self.of_kind(step).map_or("", |k| k.1)
    }

    /// The validation of `step`'s kind, where the model has one, and its words.
    fn of_kind(&self, step: &StepValues) -> Option<(&Validation, &'static str)> {
        match StepKind::of(step) {
            StepKind::Unknown => self.across_programs_unknown_gpu.as_ref().map(|v| (v, "")),
            StepKind::Same => self
                .across_programs_same_occupancy
                .as_ref()
                .map(|v| (v, " on steps that left occupancy unchanged,")),
            StepKind::Changes => self
                .across_programs_occupancy_changes
                .as_ref()
                .map(|v| (v, " on steps that changed occupancy,")),
        }
    }

    /// Whether `level` lies within the levels it was trained on.
    pub fn covers(&self, level: f64) -> bool {
        let l = level.log2();
        l >= self.level_range.0 && l <= self.level_range.1
    }
}

/// The [`preferred`] step model of `m`, the level `levels` gives its family and what the
/// level counts.
pub fn applies<'a>(
    m: &'a OptimizationModel,
    levels: &BTreeMap<String, f64>,
) -> Option<(&'a StepModel, f64, &'static str)> {
    let family = family_of(&m.name);
    Some((preferred(m)?, *levels.get(family)?, level_meaning(family)?))
}

/// `m`'s step model where it was right more often across programs than the counter model (or
/// the counter model was not validated across programs): the one that answers when the level
/// is known.
pub fn preferred(m: &OptimizationModel) -> Option<&StepModel> {
    let sm = m.step.as_ref()?;
    m.across_programs
        .as_ref()
        .is_none_or(|a| sm.across_programs.accuracy > a.accuracy)
        .then_some(sm)
}

/// The levels a profile shows: BLOCK_SIZE (threads per block) from Nsight Compute's
/// `launch__block_size` (a details page's "Block Size"; GPGPU-Sim logs give it too) when
/// every launch of the selected kernels has the same block size. Others only from the user
/// (`--level`).
pub fn profile_levels(rows: &[MeasurementRow]) -> BTreeMap<String, f64> {
    let mut out = BTreeMap::new();
    if let [one] = profile_block_sizes(rows)[..] {
        out.insert("BLOCK_SIZE".to_string(), one);
    }
    out
}

/// The distinct block sizes (threads per block) of a profile's launches, in ascending order.
pub fn profile_block_sizes(rows: &[MeasurementRow]) -> Vec<f64> {
    let mut sizes: Vec<f64> = rows
        .iter()
        .filter(|r| {
            // A details page names it by its label ("Block Size").
            let metric = crate::profile::section_labels::metric_of(&r.metric).unwrap_or(&r.metric);
            // Zero and negative sizes are kept: `suggest` refuses them as damage.
            metric == "launch__block_size" && r.value.is_finite()
        })
        .map(|r| r.value)
        .collect();
    sizes.sort_by(f64::total_cmp);
    sizes.dedup();
    sizes
}

#[cfg(test)]
mod tests;
