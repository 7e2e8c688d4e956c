//! Neighbourhoods of a configuration in a recorded (restricted) space, as Kernel Tuner 1.5.0
//! defines them for its local searches (`searchspace.py`, `get_neighbors`): `Hamming` (one
//! parameter changed to any other value) and `adjacent` (one parameter moved to the next
//! smaller or larger value). Only configurations the space holds are returned: a restricted
//! combination cannot be built, so it is never a neighbour.

use super::space::SearchSpace;

/// Appends to `out` the configurations that differ from `id` in exactly one parameter, in
/// parameter order, then level order.
pub fn hamming(space: &SearchSpace, id: usize, out: &mut Vec<usize>) {
    let mut probe = space.levels(id).to_vec();
    for (j, &r) in space.radix().iter().enumerate() {
        let l = probe[j];
        for m in 0..r as u16 {
            if m != l {
                probe[j] = m;
                out.extend(space.find(&probe));
            }
        }
        probe[j] = l;
    }
}

/// Appends to `out` the configurations that differ from `id` in exactly two parameters.
pub fn hamming2(space: &SearchSpace, id: usize, out: &mut Vec<usize>) {
    let radix = space.radix();
    let mut probe = space.levels(id).to_vec();
    for a in 0..radix.len() {
        let la = probe[a];
        for ma in (0..radix[a] as u16).filter(|&m| m != la) {
            probe[a] = ma;
            for b in a + 1..radix.len() {
                let lb = probe[b];
                for mb in (0..radix[b] as u16).filter(|&m| m != lb) {
                    probe[b] = mb;
                    out.extend(space.find(&probe));
                }
                probe[b] = lb;
            }
        }
        probe[a] = la;
    }
}

/// Appends to `out` the configurations with one parameter one level up or down.
pub fn adjacent(space: &SearchSpace, id: usize, out: &mut Vec<usize>) {
    let radix = space.radix();
    let mut probe = space.levels(id).to_vec();
    for j in 0..radix.len() {
        let l = probe[j];
        for m in [l.checked_sub(1), l.checked_add(1)].into_iter().flatten() {
            if (m as usize) < radix[j] {
                probe[j] = m;
                out.extend(space.find(&probe));
            }
        }
        probe[j] = l;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::testutil::grid_space;

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
        let (mut h1, mut h2, mut adj) = (vec![], vec![], vec![]);
        hamming(&s, id, &mut h1);
        hamming2(&s, id, &mut h2);
        adjacent(&s, id, &mut adj);
        assert!(h1.iter().all(|&a| diff(a) == 1) && !h1.is_empty());
        assert!(h2.iter().all(|&a| diff(a) == 2) && h2.len() > h1.len());
        assert!(adj.iter().all(|a| h1.contains(a)) && adj.len() <= 6);
    }
}
