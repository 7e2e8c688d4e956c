//! [`super::neighbours::repairs`] on a sparse space, through its planes: the same repairs in
//! the same order, from one read of the configuration's group per pair of parameters instead
//! of one lookup per missing change and other parameter.

use super::line_repairs::keep_first;
use super::plane::Planes;
use super::space::SearchSpace;

/// The nearest configuration on one side of the current level of the other parameter, packed
/// as distance in levels (high 32 bits) and configuration (low 32 bits), so that the nearest
/// is the smallest; [`NONE`] where there is none. Two members of a group on the same side at
/// the same distance, taking the same level of the changed parameter, would be the same
/// configuration, so no tie is broken by the configuration.
const NONE: u64 = u64::MAX;

/// As [`super::neighbours::repairs`], for a space whose `planes` are built.
pub(super) fn repairs(space: &SearchSpace, planes: &Planes, id: usize, out: &mut Vec<usize>) {
    let radix = space.radix();
    let p = radix.len();
    if p < 2 {
        return; // no other parameter to move
    }
    let levels = space.levels(id);
    let start = out.len();
    let widest = radix.iter().copied().max().unwrap_or(0);
    // For other parameter k and level m of the changed one, `nearest[k * widest + m]`: the
    // nearest configurations below and above k's current level among those that differ from
    // `id` in j (taking m) and k.
    let mut nearest: Vec<[u64; 2]> = vec![[NONE; 2]; p * widest];
    let mut present = vec![false; widest];
    let mut active: Vec<usize> = Vec::with_capacity(p);
    for (j, (&rj, &lj)) in radix.iter().zip(levels).enumerate() {
        // The single changes of j the space holds: the members of a plane of j that keep the
        // other parameter's level.
        let k0 = usize::from(j == 0);
        present[..rj].fill(false);
        for &(a, b, _) in planes.group(id, j, k0) {
            let (m, l) = if j < k0 { (a, b) } else { (b, a) };
            if l == levels[k0] {
                present[m as usize] = true;
            }
        }
        if present[..rj]
            .iter()
            .enumerate()
            .all(|(m, &h)| h || m == lj as usize)
        {
            continue;
        }
        // The other parameters whose plane with j holds a configuration beside `id`'s line.
        active.clear();
        for (k, &lk) in levels.iter().enumerate() {
            if k == j {
                continue;
            }
            let group = planes.group(id, j, k);
            if group.is_empty() {
                continue;
            }
            let near = &mut nearest[k * widest..k * widest + rj];
            near.fill([NONE; 2]);
            let mut any = false;
            for &(a, b, c) in group {
                let (m, l) = if j < k { (a, b) } else { (b, a) };
                if l == lk {
                    continue;
                }
                let side = usize::from(l > lk);
                let packed = (u64::from(l.abs_diff(lk)) << 32) | u64::from(c);
                let slot = &mut near[m as usize][side];
                *slot = (*slot).min(packed);
                any = true;
            }
            if any {
                active.push(k);
            }
        }
        for m in (0..rj).filter(|&m| m != lj as usize && !present[m]) {
            let fewest = active
                .iter()
                .flat_map(|&k| nearest[k * widest + m])
                .min()
                .unwrap_or(NONE);
            if fewest == NONE {
                continue;
            }
            let fewest = fewest >> 32;
            for &k in &active {
                out.extend(
                    nearest[k * widest + m]
                        .iter()
                        .filter(|&&n| n != NONE && n >> 32 == fewest)
                        .map(|&n| (n & u64::from(u32::MAX)) as usize),
                );
            }
        }
    }
    keep_first(out, start);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::line_repairs::repairs as line_repairs;
    use crate::search::testutil::{grid_space, sparse_space};

    /// Synthetic spaces: on a sparse one the planes give every configuration the repairs the
    /// lines give, in the same order; a dense one gets no planes.
    #[test]
    fn planes_give_the_repairs_the_lines_give() {
        let s = sparse_space();
        assert_eq!(s.radix(), &[8; 6]);
        let planes = s.planes().expect("a sparse space has planes");
        let mut with_repairs = 0;
        for id in 0..s.len() {
            let (mut by_plane, mut by_line) = (vec![7], vec![7]);
            repairs(&s, planes, id, &mut by_plane);
            line_repairs(&s, id, &mut by_line);
            assert_eq!(by_plane, by_line, "configuration {id}");
            with_repairs += usize::from(by_plane.len() > 1);
        }
        assert!(with_repairs * 2 > s.len(), "{with_repairs} of {}", s.len());
        assert!(grid_space().planes().is_none());
    }
}
