//! What an optimization's samples say about the programs they come from: the programs' names
//! (each simulated one labelled so where measured ones are beside it), and leave one program
//! out, the advisor's accuracy on a program it has not seen, which is a user's position.

use super::validation::Outcome;
use crate::error::Result;
use crate::experiment::data::SamplePool;
use crate::experiment::method::occupancy_rule_takes;
use crate::experiment::step_features::StepValues;
use advise_ml::Method;

/// The distinct programs of samples `idx`, sorted. Measured and simulated programs together:
/// each simulated one says so, and one with both simulated and measured samples says both (an
/// all-simulated model is labelled as a whole by `simulated_only`).
pub(super) fn labels(pool: &SamplePool, idx: &[usize]) -> Vec<String> {
    // Per program: (has a simulated sample, has a measured one).
    let mut of: std::collections::BTreeMap<&str, (bool, bool)> = Default::default();
    for &i in idx {
        let s = &pool.samples[i];
        let e = of.entry(s.key.program.as_str()).or_default();
        if pool.simulated.has(s) {
            e.0 = true;
        } else {
            e.1 = true;
        }
    }
    let any_measured = of.values().any(|&(_, m)| m);
    of.into_iter()
        .map(|(p, origin)| match origin {
            (true, false) if any_measured => format!("{p} (SIMULATED)"),
            (true, true) => format!("{p} (SIMULATED and measured)"),
            _ => p.to_string(),
        })
        .collect()
}

/// Leave one program out for one optimization's samples `idx` (rows `x`, speedups `y`): one
/// fold per program, so each program is predicted by models of the others; its validation
/// and its held-out points (raw scores formed with this accuracy). `None` with one program.
/// With `judge`, the validation counts only the rows it marks (block-size steps that leave
/// occupancy unchanged, say), and the majority rule learns its direction from the training
/// rows it marks: what the advisor achieves on one kind of step; `None` where it marks none.
#[allow(clippy::too_many_arguments)]
pub(super) fn across(
    pool: &SamplePool,
    idx: &[usize],
    features: &[String],
    x: &[Vec<f64>],
    y: &[f64],
    primary: Method,
    secondary: Method,
    seed: u64,
    unknown_in_test: &[usize],
    judge: Option<&[bool]>,
) -> Result<Option<Outcome>> {
    let programs = programs_of(pool, idx);
    if programs.len() < 2 {
        return Ok(None);
    }
    let of: Vec<usize> = idx
        .iter()
        .map(|&i| {
            programs
                .binary_search(&pool.samples[i].key.program.as_str())
                .unwrap_or(0)
        })
        .collect();
    // Measured rows are judged where there are any (validation::validate), so the kind of
    // row judged is the measured rows of that kind, or all of that kind.
    let mut basis = measured(pool, idx);
    if let Some(judge) = judge {
        if !basis.iter().zip(judge).any(|(&m, &j)| m && j) {
            basis = judge.to_vec();
        } else {
            for (b, &j) in basis.iter_mut().zip(judge) {
                *b &= j;
            }
        }
        if !basis.iter().any(|&b| b) {
            return Ok(None);
        }
    }
    super::validation::validate(
        features,
        x,
        y,
        &of,
        primary,
        secondary,
        programs.len(),
        seed,
        unknown_in_test,
        &basis,
    )
}

/// The distinct programs of the samples `idx`, sorted.
pub(super) fn programs_of<'a>(pool: &'a SamplePool, idx: &[usize]) -> Vec<&'a str> {
    let mut programs: Vec<&str> = idx
        .iter()
        .map(|&i| pool.samples[i].key.program.as_str())
        .collect();
    programs.sort_unstable();
    programs.dedup();
    programs
}

/// Per sample of `idx`: measured on hardware (not simulated).
pub(super) fn measured(pool: &SamplePool, idx: &[usize]) -> Vec<bool> {
    idx.iter()
        .map(|&i| !pool.simulated.has(&pool.samples[i]))
        .collect()
}

/// The untrained occupancy rule (experiment::method::OccupancyRule), left one program out over
/// samples `idx` with step features `steps` (one each): a step where theoretical occupancy
/// rises is taken; one without occupancy follows the other programs' mean speedup. Its
/// accuracy, the physics a step model must beat; `None` where no sample has occupancy or the
/// samples are of one program.
pub(super) fn occupancy_rule_across(
    pool: &SamplePool,
    idx: &[usize],
    steps: &[StepValues],
) -> Option<f64> {
    let program = |i: usize| pool.samples[i].key.program.as_str();
    let mut sums: std::collections::BTreeMap<&str, (f64, usize)> = Default::default();
    for &i in idx {
        let e = sums.entry(program(i)).or_default();
        e.0 += pool.samples[i].speedup;
        e.1 += 1;
    }
    if sums.len() < 2 || steps.iter().all(|s| s.occupancy.is_none()) {
        return None;
    }
    let (total, n) = sums
        .values()
        .fold((0.0, 0), |(t, n), &(s, c)| (t + s, n + c));
    let right = idx
        .iter()
        .zip(steps)
        .filter(|(&i, step)| {
            // The mean speedup of the other programs: this one is held out.
            let (s, c) = sums[program(i)];
            let others = (total - s) / (n - c).max(1) as f64;
            occupancy_rule_takes(step.occupancy, others) == (pool.samples[i].speedup > 1.0)
        })
        .count();
    Some(right as f64 / idx.len().max(1) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::samples::SpeedupSample;

    /// Synthetic: two programs whose block steps help where occupancy rises; a third sample of
    /// each has no occupancy and follows the other program's mean speedup (p's mean is above
    /// 1, q's below).
    #[test]
    fn the_occupancy_rule_is_scored_with_each_program_held_out() {
        let mut samples = Vec::new();
        let mut steps = Vec::new();
        for (program, speedups) in [("p", [1.5, 0.9, 1.2]), ("q", [1.1, 0.5, 0.8])] {
            for (k, &s) in speedups.iter().enumerate() {
                samples.push(SpeedupSample::for_test(
                    "b:1->2",
                    program,
                    &k.to_string(),
                    s,
                ));
                let mut step = StepValues::new(6.0, 1.0);
                step.occupancy = match k {
                    0 => Some(0.3),
                    1 => Some(-0.3),
                    _ => None,
                };
                steps.push(step);
            }
        }
        let pool = SamplePool::of_samples(samples, "b:1->2");
        let idx: Vec<usize> = (0..6).collect();
        // p's third (1.2) follows q's mean (0.8): wrong; q's third (0.8) follows p's mean
        // (1.2): wrong. The other four are right.
        let acc = occupancy_rule_across(&pool, &idx, &steps).unwrap();
        assert!((acc - 4.0 / 6.0).abs() < 1e-12, "{acc}");
        let none: Vec<StepValues> = steps
            .iter()
            .map(|s| StepValues::new(s.level, s.factor))
            .collect();
        assert_eq!(occupancy_rule_across(&pool, &idx, &none), None);
    }
}
