//! The Gaussian process's inputs of a configuration: its parameters' level indices (Kernel
//! Tuner's scaling, whose step the process applies to the distances) or each parameter scaled
//! to [0, 1].

use super::super::space::SearchSpace;

/// Appends to `out` the parameters' level indices of `id` where `eps` > 0 (Kernel Tuner's
/// scaling, whose step `eps` the process applies to the distances: [`Gp::fit`]'s `step2`),
/// else each parameter's scaled to [0, 1]: the process's inputs.
#[inline]
pub(super) fn features(
    space: &SearchSpace,
    radix: &[usize],
    eps: f64,
    id: usize,
    out: &mut Vec<f64>,
) {
    out.extend(space.levels(id).iter().zip(radix).map(|(&l, &r)| {
        if eps > 0.0 {
            l as f64
        } else if r > 1 {
            l as f64 / (r - 1) as f64
        } else {
            0.0
        }
    }));
}

/// Appends the process's inputs of `id` to `levels` (its level indices) where `whole`, else to
/// `numbers` ([`features`]); `scaling` is (the space's radixes, `eps`, `whole`).
#[inline]
pub(super) fn inputs(
    space: &SearchSpace,
    scaling: (&[usize], f64, bool),
    id: usize,
    numbers: &mut Vec<f64>,
    levels: &mut Vec<u16>,
) {
    let (radix, eps, whole) = scaling;
    if whole {
        levels.extend_from_slice(space.levels(id));
    } else {
        features(space, radix, eps, id, numbers);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kernel_tuner_scaling_puts_every_level_one_step_apart() {
        // The grid space's parameters have 12, 10 and 4 levels: unit scaling spreads each over
        // [0, 1]; Kernel Tuner's puts their levels 1/12 apart, so the last spans 3/12.
        let space = crate::search::testutil::grid_space();
        let radix = space.radix().to_vec();
        assert_eq!(radix, vec![12, 10, 4]);
        let id = (0..space.len())
            .find(|&i| space.levels(i) == [11, 8, 3])
            .expect("the grid has levels 11, 8, 3");
        let (mut unit, mut kt) = (Vec::new(), Vec::new());
        features(&space, &radix, 0.0, id, &mut unit);
        features(&space, &radix, 1.0 / 12.0, id, &mut kt);
        assert_eq!(unit, vec![1.0, 8.0 / 9.0, 1.0]);
        // Kernel Tuner's: the level indices, whose step (1/12) the process's kernel applies.
        assert_eq!(kt, vec![11.0, 8.0, 3.0]);
    }

    #[test]
    fn level_rows_take_the_level_indices_as_they_are() {
        // Where the distances fit in 16 bits the inputs are the levels themselves, else the
        // features as numbers.
        let space = crate::search::testutil::grid_space();
        let radix = space.radix().to_vec();
        let (mut numbers, mut levels) = (Vec::new(), Vec::new());
        inputs(
            &space,
            (&radix, 1.0 / 12.0, true),
            5,
            &mut numbers,
            &mut levels,
        );
        assert_eq!(levels, space.levels(5));
        assert!(numbers.is_empty());
        inputs(
            &space,
            (&radix, 1.0 / 12.0, false),
            5,
            &mut numbers,
            &mut levels,
        );
        let want: Vec<f64> = space.levels(5).iter().map(|&l| f64::from(l)).collect();
        assert_eq!(numbers, want);
        assert_eq!(
            levels.len(),
            radix.len(),
            "nothing more appended to the levels"
        );
    }
}
