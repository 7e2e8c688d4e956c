//! Shrinking-sample search (Li and Agrawal's shrinking-sample search paper, Algorithm 1).
//!
//! Each parameter's current section (initially all its values, in order) is cut into k
//! partitions of consecutive values; the partitions' medians are combined into a grid of up to
//! k^n points, all measured; the partitions holding the best point become the new sections.
//! Sections of at most V_TH values are no longer divided; when none is larger, every
//! configuration in the final sections is measured (the closing exhaustive step).
//!
//! Recorded spaces are restricted (not every combination of values exists), so a grid point
//! that is not in the space is replaced by the configuration of its cell (the same partition
//! of every parameter) nearest to the medians; a cell with no configuration is skipped. Grid
//! points are measured in a random order, so a budget that ends inside a grid cuts a random
//! part of it rather than always the same corner; this is the only use of the seed.

use std::collections::HashMap;

use super::evaluator::Evaluator;
use super::Strategy;
use advise_ml::Rng;

/// Shrinking-sample settings.
#[derive(Debug, Clone)]
pub struct Shrinking {
    /// Partitions per section (k).
    pub k: usize,
    /// Sections of at most this many values are not divided further (V_TH).
    pub v_th: usize,
}

impl Default for Shrinking {
    fn default() -> Self {
        // The paper's worked example: k = 2, V_TH = 1.
        Shrinking { k: 2, v_th: 1 }
    }
}

/// The partitions of a section `lo..hi` of levels.
fn partitions(lo: usize, hi: usize, k: usize) -> Vec<(usize, usize)> {
    let len = hi - lo;
    let parts = k.min(len).max(1);
    (0..parts)
        .map(|p| (lo + p * len / parts, lo + (p + 1) * len / parts))
        .collect()
}

impl Strategy for Shrinking {
    fn name(&self) -> String {
        if self.k == 2 && self.v_th == 1 {
            "shrinking".into()
        } else {
            format!("shrinking-k{}-v{}", self.k, self.v_th)
        }
    }

    fn search(&self, ev: &mut Evaluator, rng: &mut Rng) {
        let space = ev.space();
        let np = space.n_params();
        let k = self.k.max(2);
        let v_th = self.v_th.max(1);
        let mut sections: Vec<(usize, usize)> = space.radix().iter().map(|&r| (0, r)).collect();
        let mut members: Vec<usize> = (0..space.len()).collect();
        loop {
            if ev.remaining() == 0 {
                return;
            }
            let divide: Vec<bool> = sections.iter().map(|&(lo, hi)| hi - lo > v_th).collect();
            if !divide.iter().any(|&d| d) {
                break;
            }
            let parts: Vec<Vec<(usize, usize)>> = sections
                .iter()
                .zip(&divide)
                .map(|(&(lo, hi), &d)| {
                    if d {
                        partitions(lo, hi, k)
                    } else {
                        vec![(lo, hi)]
                    }
                })
                .collect();
            // The member of each cell nearest to the cell's medians (lower median, as the
            // paper's example: 16 values 32..512 -> 256).
            let mut cells: HashMap<Vec<u16>, (usize, usize)> = HashMap::new();
            let mut cell = vec![0u16; np];
            for &id in &members {
                let lv = space.levels(id);
                let mut dist = 0usize;
                for j in 0..np {
                    let l = lv[j] as usize;
                    let p = parts[j]
                        .iter()
                        .position(|&(a, b)| l >= a && l < b)
                        .unwrap_or(0);
                    let (a, b) = parts[j][p];
                    let median = a + (b - a - 1) / 2;
                    dist += l.abs_diff(median);
                    cell[j] = p as u16;
                }
                let e = cells.entry(cell.clone()).or_insert((usize::MAX, id));
                if dist < e.0 {
                    *e = (dist, id);
                }
            }
            let mut grid: Vec<(Vec<u16>, usize)> =
                cells.into_iter().map(|(c, (_, id))| (c, id)).collect();
            grid.sort_by(|a, b| a.0.cmp(&b.0));
            rng.shuffle(&mut grid);
            let mut best: Option<(f64, usize)> = None;
            for (g, (_, id)) in grid.iter().enumerate() {
                match ev.evaluate(*id).time() {
                    Some(t) if best.is_none_or(|(bt, _)| t < bt) => best = Some((t, g)),
                    _ => {}
                }
                if ev.remaining() == 0 {
                    return;
                }
            }
            let Some((_, g)) = best else {
                return; // every grid point failed: nothing to shrink towards
            };
            let chosen = grid[g].0.clone();
            for j in 0..np {
                sections[j] = parts[j][chosen[j] as usize];
            }
            members.retain(|&id| {
                space
                    .levels(id)
                    .iter()
                    .zip(&sections)
                    .all(|(&l, &(a, b))| (l as usize) >= a && (l as usize) < b)
            });
            if members.is_empty() {
                return;
            }
        }
        // The closing exhaustive step over the final sections.
        for id in members {
            if ev.remaining() == 0 {
                return;
            }
            ev.evaluate(id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partitions_are_consecutive_and_cover() {
        assert_eq!(partitions(0, 32, 2), vec![(0, 16), (16, 32)]);
        assert_eq!(partitions(0, 5, 2), vec![(0, 2), (2, 5)]);
        assert_eq!(partitions(3, 4, 3), vec![(3, 4)]);
        // The paper's SpMV example: block sizes 32..1024 in steps of 32, medians 256 and 768.
        let p = partitions(0, 32, 2);
        let median = |(a, b): (usize, usize)| 32 * (a + (b - a - 1) / 2 + 1);
        assert_eq!((median(p[0]), median(p[1])), (256, 768));
    }
}
