//! The repairs of a missing single change ([`super::neighbours::repairs`]) found through each
//! other parameter's line ([`super::key_index::Line`]), or, for a parameter of few levels in a
//! space whose keys are in a bitmap, by testing its levels' keys one distance at a time.

use super::key_index::bit_set;
use super::space::{ProbedParam, SearchSpace};

/// [`repairs`](super::neighbours::repairs) through the lines of each parameter: a lookup per missing change and other
/// parameter. A parameter of few levels, where the space's keys are in a bitmap
/// ([`SearchSpace::probes_levels`]), is not looked up through its line: its levels one step
/// from the missing change's, then two, and so on, are tested in the bitmap, all such
/// parameters at one distance before the next, up to the nearest a line found; the first
/// distance that holds a configuration is the fewest. And where the keys are in a bitmap,
/// every other parameter's levels one step away are tested before any line is read: a missing
/// change that one of them repairs needs no line. The same repairs, in the same order, as
/// every parameter through its line.
pub(super) fn repairs(space: &SearchSpace, id: usize, out: &mut Vec<usize>) {
    let radix = space.radix();
    let levels = space.levels(id);
    let key = space.key_of(id);
    let start = out.len();
    let params = space.repair_params();
    let (lined, probed) = (&params.lined, &params.probed);
    // Probed parameters exist only where the keys are in a bitmap.
    let bits = space.key_bitmap().unwrap_or(&[]);
    // The keys of `params` but the changed one's at `d` levels from `levels` in `moved`
    // that the space holds, below then above, in parameter order, into `hits`.
    let probe = |params: &[ProbedParam], j: usize, moved: u64, d: u64, hits: &mut Vec<_>| {
        for p in params.iter().filter(|p| p.param != j) {
            let (lk, step) = (levels[p.param] as u64, d * p.stride);
            if lk >= d && bit_set(bits, moved - step) {
                hits.push((p.param, moved - step));
            }
            if lk + d < p.levels && bit_set(bits, moved + step) {
                hits.push((p.param, moved + step));
            }
        }
    };
    // The largest level distance a probed parameter can have.
    let widest = probed.iter().map(|p| p.levels - 1).max().unwrap_or(0);
    // Per parameter through its line, its nearest levels below and above (distance,
    // configuration); the probed parameters' keys at the fewest distance, below and above,
    // in parameter order.
    let mut nearest: Vec<[Option<(u64, usize)>; 2]> = vec![[None; 2]; radix.len()];
    let mut hits: Vec<(usize, u64)> = Vec::new();
    for (j, (&rj, &lj)) in radix.iter().zip(levels).enumerate() {
        let sj = space.stride(j);
        for m in (0..rj as u64).filter(|&m| m != lj as u64) {
            let moved = key - lj as u64 * sj + m * sj;
            if space.has_key(moved) {
                continue;
            }
            // Where the keys are in a bitmap, every other parameter's levels one step away are
            // tested first: where one of them is held, the fewest distance is 1, each parameter's
            // hits are the nearest levels its line would give, and no line is read.
            hits.clear();
            probe(&params.every, j, moved, 1, &mut hits);
            if !hits.is_empty() {
                for &(_, c) in &hits {
                    out.extend(space.find_key(c));
                }
                continue;
            }
            // Nothing one step away (or no bitmap): the fewest distance is at least 2 (at
            // least 1).
            let nearest_possible = if params.every.is_empty() { 1 } else { 2 };
            // The other parameters' lines lie scattered over the index: fetched all at once,
            // their cache misses overlap.
            for &k in lined.iter().filter(|&&k| k != j) {
                space.prefetch_line_group(k, moved - levels[k] as u64 * space.stride(k));
            }
            let mut fewest = u64::MAX;
            for &k in lined {
                let (lk, near) = (levels[k], &mut nearest[k]);
                *near = [None; 2];
                if k == j {
                    continue;
                }
                let line = space.line(k, moved - lk as u64 * space.stride(k));
                let at = line.partition_point(|&(l, _)| l < lk);
                let below = at.checked_sub(1).map(|i| line[i]);
                for (side, member) in [below, line.get(at).copied()].into_iter().enumerate() {
                    if let Some((l, c)) = member {
                        near[side] = Some(((l as u64).abs_diff(lk as u64), c as usize));
                    }
                }
                fewest = near.iter().flatten().map(|n| n.0).fold(fewest, u64::min);
            }
            for d in nearest_possible..=widest.min(fewest) {
                probe(probed, j, moved, d, &mut hits);
                if !hits.is_empty() {
                    fewest = d;
                    break;
                }
            }
            // In parameter order, each parameter lined or probed: a lined one's nearest levels
            // at the fewest distance, a probed one's hits.
            let mut rest = &hits[..];
            for (k, near) in nearest.iter().enumerate() {
                for &(d, c) in near.iter().flatten() {
                    if d == fewest {
                        out.push(c);
                    }
                }
                while let Some((&(_, c), tail)) = rest.split_first().filter(|(h, _)| h.0 == k) {
                    out.extend(space.find_key(c));
                    rest = tail;
                }
            }
        }
    }
    keep_first(out, start);
}

/// Leaves each configuration of `out[start..]` once, where it first appears.
pub(super) fn keep_first(out: &mut Vec<usize>, start: usize) {
    if out.len() - start > 64 {
        let mut seen = std::collections::HashSet::new();
        let found: Vec<usize> = out.drain(start..).filter(|&c| seen.insert(c)).collect();
        out.extend(found);
        return;
    }
    // Few repairs: a scan of those kept costs less than hashing.
    let mut kept = start;
    for i in start..out.len() {
        let c = out[i];
        if !out[start..kept].contains(&c) {
            out[kept] = c;
            kept += 1;
        }
    }
    out.truncate(kept);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The repairs of configuration `id` by their definition, in the order [`repairs`] gives
    /// them: per missing single change, per other parameter, its nearest level below and then
    /// above that the space holds, where that parameter's distance is the fewest of all;
    /// each configuration once, where it first appears.
    fn repairs_by_definition(s: &SearchSpace, id: usize) -> Vec<usize> {
        let cur = s.levels(id).to_vec();
        let mut out = Vec::new();
        for (j, &rj) in s.radix().iter().enumerate() {
            for m in (0..rj as u16).filter(|&m| m != cur[j]) {
                let mut moved = cur.clone();
                moved[j] = m;
                if s.find(&moved).is_some() {
                    continue;
                }
                let mut near: Vec<[Option<(u16, usize)>; 2]> = vec![[None; 2]; cur.len()];
                for (k, &rk) in s.radix().iter().enumerate().filter(|&(k, _)| k != j) {
                    let at = |l: u16| {
                        let mut c = moved.clone();
                        c[k] = l;
                        s.find(&c).map(|c| (l.abs_diff(moved[k]), c))
                    };
                    near[k] = [
                        (0..moved[k]).rev().find_map(at),
                        (moved[k] + 1..rk as u16).find_map(at),
                    ];
                }
                let fewest = near.iter().flatten().flatten().map(|n| n.0).min();
                for n in near.iter().flatten().flatten() {
                    if Some(n.0) == fewest && !out.contains(&n.1) {
                        out.push(n.1);
                    }
                }
            }
        }
        out
    }

    /// A synthetic space of parameters of 2 to 6 levels, two thirds of its combinations missing:
    /// with the levels of those of up to 4 probed, the repairs of every configuration are
    /// those of their definition, in the same order, some of them more than one level away.
    #[test]
    fn probed_levels_give_the_repairs_of_the_definition() {
        let s = crate::search::testutil::mixed_space();
        let probed: Vec<bool> = (0..s.n_params()).map(|k| s.probes_levels(k)).collect();
        assert_eq!(probed, [true, true, false, true, false]);
        let (mut found, mut far) = (0, 0);
        for id in 0..s.len() {
            let mut got = vec![7];
            repairs(&s, id, &mut got);
            assert_eq!(
                got[1..],
                repairs_by_definition(&s, id),
                "configuration {id}"
            );
            found += got.len() - 1;
            let here = s.levels(id);
            far += got[1..]
                .iter()
                .filter(|&&c| {
                    let d: usize = (s.levels(c).iter().zip(here))
                        .map(|(a, b)| a.abs_diff(*b) as usize)
                        .sum();
                    d > 2
                })
                .count();
        }
        assert!(found > s.len() && far > 0, "{found} repairs, {far} far");
    }
}
