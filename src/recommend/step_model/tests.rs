//! Unit tests of recommend::step_model.

use super::*;
use crate::dataset::samples::SpeedupSample;

/// A synthetic block-size sample of `program` (its input names it) with speedup `speedup`.
fn block_sample(program: &str, input: String, speedup: f64) -> SpeedupSample {
    SpeedupSample::for_test("b:1->2", program, &input, speedup)
}

fn row(kernel: &str, value: f64) -> MeasurementRow {
    MeasurementRow {
        kernel: kernel.into(),
        ..MeasurementRow::for_test("launch__block_size", value)
    }
}

#[test]
fn one_block_size_over_all_launches_is_the_level() {
    let l = profile_levels(&[row("a", 256.0), row("a", 256.0)]);
    assert_eq!(l.get("BLOCK_SIZE"), Some(&256.0));
    assert!(profile_levels(&[row("a", 256.0), row("b", 128.0)]).is_empty());
    assert!(profile_levels(&[]).is_empty());
    let mut label = row("a", 512.0);
    label.metric = "Block Size".into();
    assert_eq!(profile_levels(&[label]).get("BLOCK_SIZE"), Some(&512.0));
}

/// Steps that change occupancy follow it, steps that leave it unchanged go either way: the
/// step model is judged apart on each kind, and a step is judged by its own kind.
#[test]
fn a_step_is_judged_by_the_steps_of_its_own_occupancy_kind() {
    let mut samples = Vec::new();
    let mut steps = Vec::new();
    for program in ["p", "q"] {
        for k in 0..36 {
            let same = k % 3 == 0;
            let up = if same { (k / 3) % 2 == 0 } else { k % 2 == 0 };
            samples.push(block_sample(
                program,
                format!("{k}"),
                if up { 1.3 } else { 0.8 },
            ));
            let mut step = StepValues::new(6.0, 1.0);
            step.occupancy = Some(match (same, up) {
                (true, _) => 0.0,
                (false, true) => 0.4,
                (false, false) => -0.4,
            });
            step.warp_fill = Some(0.0);
            steps.push(Some(step));
        }
    }
    let pool = SamplePool::of_samples(samples, "b:1->2");
    let idx: Vec<usize> = (0..pool.samples.len()).collect();
    let m = fit(&pool, &idx, &steps, 1).unwrap().expect("two programs");
    let same = m
        .across_programs_same_occupancy
        .as_ref()
        .expect("same kind");
    let moves = m
        .across_programs_occupancy_changes
        .as_ref()
        .expect("changing kind");
    assert!(moves.accuracy > 0.99, "{moves:?}");
    assert!(same.accuracy < 0.75, "{same:?}");
    // 12 of each program's 36 steps leave occupancy unchanged.
    assert_eq!(same.pp + same.pn + same.np + same.nn, 24);
    assert_eq!(m.validation_for(&steps[0].unwrap()).accuracy, same.accuracy);
    assert_eq!(
        m.validation_for(&steps[1].unwrap()).accuracy,
        moves.accuracy
    );
    assert!(m
        .judged_on(&steps[0].unwrap())
        .contains("left occupancy unchanged"));
    assert!(m
        .judged_on(&steps[1].unwrap())
        .contains("changed occupancy"));
    assert_eq!(m.judged_on(&StepValues::new(6.0, 1.0)), "");
}

/// Synthetic: in two programs a block step helps exactly where occupancy rises, whatever
/// the level. The model that sees occupancy is right across programs; with the held-out
/// program's occupancy unknown it is not, and a step without occupancy is judged by that.
#[test]
fn a_step_model_that_learned_occupancy_is_judged_without_it_where_unknown() {
    let mut samples = Vec::new();
    let mut steps = Vec::new();
    for program in ["p", "q"] {
        for k in 0..24 {
            let up = k % 2 == 0;
            samples.push(block_sample(
                program,
                format!("{k}"),
                if up { 1.3 } else { 0.8 },
            ));
            let mut step = StepValues::new(f64::from(5 + (k / 2) % 4), 1.0);
            step.occupancy = Some(if up { 0.4 } else { -0.4 });
            step.warp_fill = Some(0.0);
            steps.push(Some(step));
        }
    }
    let pool = SamplePool::of_samples(samples, "b:1->2");
    let idx: Vec<usize> = (0..pool.samples.len()).collect();
    let m = fit(&pool, &idx, &steps, 1).unwrap().expect("two programs");
    let unknown = m
        .across_programs_unknown_gpu
        .as_ref()
        .expect("learned occupancy");
    assert!(m.across_programs.accuracy > 0.99, "{:?}", m.across_programs);
    assert!(unknown.accuracy < 0.75, "{unknown:?}");
    let without = StepValues::new(6.0, 1.0);
    assert_eq!(m.validation_for(&without).accuracy, unknown.accuracy);
    assert_eq!(
        m.validation_for(&steps[0].unwrap()).accuracy,
        m.across_programs.accuracy
    );
}

/// Synthetic: in two programs raising a block helps below 256 threads and hurts above;
/// each program's step model, learned from the other, says so.
#[test]
fn a_step_model_learns_where_raising_helps_across_programs() {
    let mut samples = Vec::new();
    let mut steps = Vec::new();
    for program in ["p", "q"] {
        for (k, level) in [32.0f64, 64.0, 128.0, 512.0, 1024.0, 2048.0]
            .iter()
            .enumerate()
        {
            for rep in 0..3 {
                samples.push(block_sample(
                    program,
                    format!("{k}-{rep}"),
                    if *level < 256.0 { 1.3 } else { 0.8 },
                ));
                steps.push(Some(StepValues::new(level.log2(), 1.0)));
            }
        }
    }
    let pool = SamplePool::of_samples(samples, "b:1->2");
    let idx: Vec<usize> = (0..pool.samples.len()).collect();
    let m = fit(&pool, &idx, &steps, 1).unwrap().expect("two programs");
    assert_eq!(m.samples, 36);
    assert!(m.across_programs.accuracy > 0.99, "{:?}", m.across_programs);
    let launch = ProfileLaunch::default();
    assert!(m.predict(&launch.step("BLOCK_SIZE", 64.0, 2.0)).unwrap() > 1.0);
    assert!(m.predict(&launch.step("BLOCK_SIZE", 1024.0, 2.0)).unwrap() < 1.0);
    assert!(m.covers(100.0) && !m.covers(4096.0));
    // It never saw occupancy: no second validation.
    assert!(m.across_programs_unknown_gpu.is_none());
}
