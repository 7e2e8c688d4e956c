//! Neighbourhoods of a configuration in a recorded (restricted) space, as Kernel Tuner 1.5.0
//! defines them for its local searches (`searchspace.py`, `get_neighbors`): `Hamming` (one
//! parameter changed to any other value) and `adjacent` (one parameter moved to the next
//! smaller or larger value). Only configurations the space holds are returned: a restricted
//! combination cannot be built, so it is never a neighbour.

use super::space::SearchSpace;
use advise_ml::Rng;

/// Appends to `out` the configurations that differ from `id` in exactly one parameter, in
/// parameter order, then level order.
pub fn hamming(space: &SearchSpace, id: usize, out: &mut Vec<usize>) {
    let key = space.key_of(id);
    for (j, &l) in space.levels(id).iter().enumerate() {
        out.extend(one_parameter_changes(space, key, j, l).map(|(_, n)| n));
    }
}

/// The configurations the space holds that differ from the one of mixed-radix key `key`, at
/// level `l` of parameter `j`, in parameter `j` alone: each with its level of `j`, in level
/// order.
pub(crate) fn one_parameter_changes(
    space: &SearchSpace,
    key: u64,
    j: usize,
    l: u16,
) -> impl Iterator<Item = (u64, usize)> + '_ {
    let stride = space.stride(j);
    let base = key - u64::from(l) * stride;
    (0..space.radix()[j] as u64)
        .filter(move |&m| m != u64::from(l))
        .filter_map(move |m| Some((m, space.find_key(base + m * stride)?)))
}

/// Appends to `out` the configurations with one parameter one level up or down.
pub fn adjacent(space: &SearchSpace, id: usize, out: &mut Vec<usize>) {
    let key = space.key_of(id);
    for (j, (&r, &l)) in space.radix().iter().zip(space.levels(id)).enumerate() {
        let stride = space.stride(j);
        if l > 0 {
            out.extend(space.find_key(key - stride));
        }
        if (l as usize) + 1 < r {
            out.extend(space.find_key(key + stride));
        }
    }
}

/// Appends to `out` the configurations that move two twin parameters (`SearchSpace::twins`)
/// at the same level one level up or down together: where a kernel's x and y tile sizes
/// are equal, the pair changed at once can be fast although each change alone is slow
/// (CLBlast's Xgemm on an AMD Vega: MDIMC = NDIMC = 16 is the optimum and 8 and 8 a local
/// minimum, from which each change to 16 alone gives 0.78 of the optimum).
pub fn twin_steps(space: &SearchSpace, id: usize, out: &mut Vec<usize>) {
    let key = space.key_of(id);
    let levels = space.levels(id);
    for &(a, b) in space.twins() {
        if levels[a] != levels[b] {
            continue;
        }
        let both = space.stride(a) + space.stride(b);
        if levels[a] > 0 {
            out.extend(space.find_key(key - both));
        }
        if (levels[a] as usize) + 1 < space.radix()[a] {
            out.extend(space.find_key(key + both));
        }
    }
}

/// The parameter and level step of an adjacent move from `from` to `to` (None if they differ
/// in no parameter).
pub fn adjacent_step(space: &SearchSpace, from: usize, to: usize) -> Option<(usize, i64)> {
    let (a, b) = (space.levels(from), space.levels(to));
    let j = a.iter().zip(b).position(|(x, y)| x != y)?;
    Some((j, i64::from(b[j]) - i64::from(a[j])))
}

/// The configuration `d` levels of parameter `j` away from `id`, where the space holds it.
pub fn stepped(space: &SearchSpace, id: usize, j: usize, d: i64) -> Option<usize> {
    let l = i64::from(*space.levels(id).get(j)?) + d;
    if !(0..space.radix()[j] as i64).contains(&l) {
        return None;
    }
    let key = space.key_of(id) as i64 + d * space.stride(j) as i64;
    space.find_key(key as u64)
}

/// Appends to `out` the repairs of the single changes the space lacks: for each level `m` of a
/// parameter that no configuration holds together with the other parameters of `id`, the
/// configurations that take `m` and move one other parameter by the fewest levels that make
/// the combination one the space holds (Kernel Tuner 1.5.0's `closest-param-indices` snap,
/// `searchspace.py`, limited to one more parameter). A restricted space's fast configurations
/// can sit behind such a pair: dedispersion's `tile_size_y = 1` exists only with
/// `tile_stride_y = 0`. Each repair once, in parameter order, then level order.
pub fn repairs(space: &SearchSpace, id: usize, out: &mut Vec<usize>) {
    match space.planes() {
        Some(planes) => super::plane_repairs::repairs(space, planes, id, out),
        None => super::line_repairs::repairs(space, id, out),
    }
}

/// The configuration of the space nearest to `target` (level positions, possibly fractional
/// or outside the levels): its rounded, clamped levels if the space holds them; otherwise the
/// configurations closest in the sum of absolute level differences, as Kernel Tuner 1.5.0's
/// `closest-param-indices` neighbours (searchspace.py), ties broken by the Euclidean distance
/// to `target` and then at random. Used to snap the continuous points of `pso` and
/// `diff_evo` into a restricted space.
pub fn snap(space: &SearchSpace, target: &[f64], rng: &mut Rng) -> usize {
    let radix = space.radix();
    let rounded: Vec<u16> = target
        .iter()
        .zip(radix)
        .map(|(&x, &r)| x.round().clamp(0.0, (r - 1) as f64) as u16)
        .collect();
    if let Some(id) = space.find(&rounded) {
        return id;
    }
    let p = space.n_params();
    let mut best: Vec<usize> = Vec::new();
    let mut best_key = (u64::MAX, f64::INFINITY);
    for (id, row) in space.all_levels().chunks_exact(p.max(1)).enumerate() {
        let mut l1 = 0u64;
        let mut l2 = 0.0;
        for j in 0..p {
            l1 += (row[j] as i64 - rounded[j] as i64).unsigned_abs();
            l2 += (row[j] as f64 - target[j]).powi(2);
        }
        if l1 > best_key.0 || (l1 == best_key.0 && l2 > best_key.1) {
            continue;
        }
        if l1 < best_key.0 || l2 < best_key.1 {
            best.clear();
            best_key = (l1, l2);
        }
        best.push(id);
    }
    best[rng.below(best.len())]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::testutil::grid_space;

    #[test]
    fn a_step_is_found_and_repeated_within_the_box() {
        let s = grid_space();
        let (a, b) = (s.find(&[3, 4, 1]).unwrap(), s.find(&[3, 5, 1]).unwrap());
        assert_eq!(adjacent_step(&s, a, b), Some((1, 1)));
        assert_eq!(adjacent_step(&s, b, a), Some((1, -1)));
        assert_eq!(adjacent_step(&s, a, a), None);
        assert_eq!(stepped(&s, b, 1, 1), s.find(&[3, 6, 1]));
        // Below the first level, past the last, or a combination the space lacks: none.
        let low = s.find(&[3, 0, 1]).unwrap();
        assert_eq!(stepped(&s, low, 1, -1), None);
        assert_eq!(stepped(&s, s.find(&[3, 4, 3]).unwrap(), 2, 1), None);
        assert_eq!(stepped(&s, a, 1, -2), s.find(&[3, 2, 1]));
        assert_eq!(s.find(&[3, 3, 1]), None);
        assert_eq!(stepped(&s, a, 1, -1), None);
    }

    #[test]
    fn twin_steps_move_twins_at_the_same_level_together() {
        let s = crate::search::testutil::twin_trap_space();
        assert_eq!(s.twins(), &[(0, 1)]);
        let steps = |levels: &[u16]| {
            let mut out = vec![];
            twin_steps(&s, s.find(levels).unwrap(), &mut out);
            out.iter()
                .map(|&i| s.levels(i).to_vec())
                .collect::<Vec<_>>()
        };
        assert_eq!(steps(&[0, 0, 2]), [[1, 1, 2]]);
        assert_eq!(steps(&[1, 1, 0]), [[0, 0, 0], [2, 2, 0]]);
        assert!(steps(&[0, 1, 2]).is_empty(), "unequal twins do not move");
        assert!(grid_space().twins().is_empty());
    }

    #[test]
    fn neighbourhoods_differ_in_the_right_number_of_parameters() {
        let s = grid_space();
        let id = s.find(&[3, 4, 1]).unwrap();
        let diff = |a: usize| {
            s.levels(a)
                .iter()
                .zip(s.levels(id))
                .filter(|(x, y)| x != y)
                .count()
        };
        let (mut h1, mut adj) = (vec![], vec![]);
        hamming(&s, id, &mut h1);
        adjacent(&s, id, &mut adj);
        assert!(h1.iter().all(|&a| diff(a) == 1) && !h1.is_empty());
        assert!(adj.iter().all(|a| h1.contains(a)) && adj.len() <= 6);
    }

    #[test]
    fn neighbours_found_by_key_are_those_of_the_definition_in_order() {
        // Brute force over the levels: every single-parameter change (one level up or down
        // for `adjacent`) that the space holds, in parameter order, then level order.
        let s = grid_space();
        for id in 0..s.len() {
            let (mut want_h, mut want_a) = (vec![], vec![]);
            for (j, &r) in s.radix().iter().enumerate() {
                let l = s.levels(id)[j];
                for m in 0..r as u16 {
                    let mut probe = s.levels(id).to_vec();
                    probe[j] = m;
                    if let (true, Some(c)) = (m != l, s.find(&probe)) {
                        want_h.push(c);
                        if m.abs_diff(l) == 1 {
                            want_a.push(c);
                        }
                    }
                }
            }
            let (mut h, mut a) = (vec![], vec![]);
            hamming(&s, id, &mut h);
            adjacent(&s, id, &mut a);
            assert_eq!((h, a), (want_h, want_a), "configuration {id}");
        }
    }

    #[test]
    fn repairs_move_one_more_parameter_by_the_fewest_levels() {
        // grid_space lacks (a, b) with (a + b) % 7 == 6. Brute force: for every missing single
        // change, the configurations that also change one other parameter, at the smallest
        // level distance any of them needs.
        let s = grid_space();
        let diff = |x: &[u16], y: &[u16]| -> Vec<(usize, u16)> {
            (0..x.len())
                .filter(|&j| x[j] != y[j])
                .map(|j| (j, x[j].abs_diff(y[j])))
                .collect()
        };
        let mut some = 0;
        for id in 0..s.len() {
            let cur = s.levels(id).to_vec();
            let mut want = Vec::new();
            for (j, &r) in s.radix().iter().enumerate() {
                for m in (0..r as u16).filter(|&m| m != cur[j]) {
                    let mut moved = cur.clone();
                    moved[j] = m;
                    if s.find(&moved).is_some() {
                        continue;
                    }
                    let fixes: Vec<(usize, u16)> = (0..s.len())
                        .filter_map(|c| match diff(s.levels(c), &moved)[..] {
                            [(k, d)] if k != j => Some((c, d)),
                            _ => None,
                        })
                        .collect();
                    let fewest = fixes.iter().map(|f| f.1).min();
                    for &(c, d) in &fixes {
                        if Some(d) == fewest && !want.contains(&c) {
                            want.push(c);
                        }
                    }
                }
            }
            let mut got = Vec::new();
            repairs(&s, id, &mut got);
            let (mut got_sorted, mut want_sorted) = (got.clone(), want);
            got_sorted.sort_unstable();
            want_sorted.sort_unstable();
            assert_eq!(got_sorted, want_sorted, "configuration {id}");
            assert!(got.iter().all(|&c| diff(s.levels(c), &cur).len() == 2));
            some += usize::from(!got.is_empty());
        }
        assert!(some > 100, "only {some} configurations have repairs");
    }

    #[test]
    fn snap_keeps_members_and_finds_the_closest_otherwise() {
        let s = grid_space();
        let mut rng = Rng::new(3);
        let id = s.find(&[3, 4, 1]).unwrap();
        assert_eq!(snap(&s, &[3.2, 3.6, 0.9], &mut rng), id);
        // (a + b) % 7 == 6 is restricted: (2, 4, c) is not in the space.
        assert!(s.find(&[2, 4, 1]).is_none());
        let near = snap(&s, &[2.0, 4.0, 1.0], &mut rng);
        let d: u32 = s
            .levels(near)
            .iter()
            .zip([2u16, 4, 1])
            .map(|(&a, b)| a.abs_diff(b) as u32)
            .sum();
        assert_eq!(d, 1);
        assert_eq!(
            snap(&s, &[-5.0, 99.0, 2.0], &mut rng),
            s.find(&[0, 9, 2]).unwrap()
        );
    }
}
