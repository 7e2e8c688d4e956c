//! What an optimization's samples say about the programs they come from: the programs' names
//! (each simulated one labelled so where measured ones are beside it), and leave one program
//! out, the advisor's accuracy on a program it has not seen, which is a user's position.

use super::validation::Outcome;
use crate::error::Result;
use crate::experiment::data::SamplePool;
use advise_ml::Method;

/// The distinct programs of samples `idx`, sorted. Measured and simulated programs together:
/// each simulated one says so (an all-simulated model is labelled as a whole by
/// `simulated_only`).
pub(super) fn labels(pool: &SamplePool, idx: &[usize]) -> Vec<String> {
    let mut p: Vec<String> = idx
        .iter()
        .map(|&i| pool.samples[i].key.program.clone())
        .collect();
    p.sort();
    p.dedup();
    if !p.iter().all(|q| pool.simulated.contains(q)) {
        for q in &mut p {
            if pool.simulated.contains(q.as_str()) {
                q.push_str(" (SIMULATED)");
            }
        }
    }
    p
}

/// Leave one program out for one optimization's samples `idx` (rows `x`, speedups `y`): one
/// fold per program, so each program is predicted by models of the others; its validation
/// and its held-out points (raw scores formed with this accuracy). `None` with one program.
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
) -> Result<Option<Outcome>> {
    let mut programs: Vec<&str> = idx
        .iter()
        .map(|&i| pool.samples[i].key.program.as_str())
        .collect();
    programs.sort_unstable();
    programs.dedup();
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
    )
}
