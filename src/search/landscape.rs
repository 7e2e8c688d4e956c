//! A recorded space's landscape as local search sees it: every configuration that ran followed
//! down by steepest descent over single-parameter changes (the Hamming neighbourhood of Kernel
//! Tuner 1.5.0's `searchspace.py`, or its adjacent one; a configuration the space lacks or that
//! failed is no neighbour) to the local minimum it ends at, its sink. From the sinks: how many local minima
//! there are, the share of starts whose descent ends at a given fraction of the optimum, the
//! same share for starts among the fastest configurations (where a search's first descent
//! begins, from the best of its first few dozen measurements), the largest basins and, for a
//! slow one, the share of jumps of two parameter changes from its minimum whose own sink is
//! good (how often basin hopping's jump gets out), and the share of good descents per
//! combination of chosen parameters' values (where a descent should start).
//!
//! Steepest descent is a deterministic stand-in: `auto` takes the first improving neighbour in
//! a model's order and adjacent values first, so its basins differ in detail. Ties go to the
//! configuration listed first. docs/search-results.md ("Basins of attraction") reads the
//! twelve benchmark_hub spaces with it.

use std::collections::HashMap;

use serde::Serialize;

use super::neighbours::{adjacent, hamming};
use super::space::SearchSpace;

/// The shares of starts among the fastest configurations that a landscape reports.
pub const FASTEST_SHARES: [f64; 5] = [0.01, 0.02, 0.05, 0.10, 0.20];

/// The neighbours a descent steps to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Neighbourhood {
    /// Any other value of one parameter (Kernel Tuner's Hamming neighbourhood).
    Hamming,
    /// One parameter one level up or down (Kernel Tuner's adjacent neighbourhood, the first
    /// stage of `auto`'s descents).
    Adjacent,
}

/// What to measure of a landscape.
#[derive(Debug, Clone)]
pub struct LandscapeSettings {
    pub neighbourhood: Neighbourhood,
    /// Fractions of the optimum a sink counts as good at; the first decides the escapes and
    /// the combinations' shares.
    pub at: Vec<f64>,
    /// Largest basins listed.
    pub basins: usize,
    /// Parameters (indices into the space's) whose value combinations get their own share.
    pub by: Vec<usize>,
}

/// A space's landscape ([`landscape`]).
#[derive(Debug, Clone, Serialize)]
pub struct Landscape {
    pub space: String,
    pub neighbourhood: Neighbourhood,
    /// Configurations that ran.
    pub configurations: usize,
    pub local_minima: usize,
    /// Per fraction of `at`, the share of all starts whose sink reaches it.
    pub from_random: Vec<Share>,
    /// Per share of [`FASTEST_SHARES`], the starts among that many of the fastest.
    pub from_fastest: Vec<FastestStarts>,
    pub basins: Vec<Basin>,
    /// Per combination of the `by` parameters' values, in the space's value order.
    pub by: Vec<Combination>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Share {
    pub at: f64,
    pub share: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct FastestStarts {
    /// The share of the space's configurations that ran.
    pub fastest: f64,
    pub starts: usize,
    /// The slowest of them, as a fraction of the optimum.
    pub down_to: f64,
    pub reach: Vec<Share>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Basin {
    /// Its minimum's fraction of the optimum.
    pub fraction: f64,
    /// The share of starts that end there.
    pub share: f64,
    /// Its minimum, as parameter = value pairs.
    pub minimum: Vec<(String, String)>,
    /// For a minimum under the first `at`: of the configurations two parameter changes away
    /// that ran, (those whose sink reaches it, all of them).
    pub escapes: Option<(usize, usize)>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Combination {
    pub values: Vec<(String, String)>,
    pub starts: usize,
    /// The share of them whose sink reaches the first `at`.
    pub share: f64,
}

/// The sink of every configuration (`None` for one that failed), by steepest descent over
/// the `neighbourhood`.
pub fn sinks(space: &SearchSpace, neighbourhood: Neighbourhood) -> Vec<Option<usize>> {
    let n = space.len();
    let mut sink: Vec<Option<usize>> = vec![None; n];
    let mut nb = Vec::new();
    let mut path = Vec::new();
    for start in 0..n {
        if space.time(start).is_none() || sink[start].is_some() {
            continue;
        }
        let mut cur = start;
        let end = loop {
            if let Some(s) = sink[cur] {
                break s;
            }
            path.push(cur);
            nb.clear();
            match neighbourhood {
                Neighbourhood::Hamming => hamming(space, cur, &mut nb),
                Neighbourhood::Adjacent => adjacent(space, cur, &mut nb),
            }
            let here = space.time(cur).unwrap_or(f64::INFINITY);
            let next = nb
                .iter()
                .filter_map(|&id| space.time(id).map(|t| (t, id)))
                .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            match next {
                Some((t, id)) if t < here => cur = id,
                _ => break cur,
            }
        };
        for id in path.drain(..) {
            sink[id] = Some(end);
        }
    }
    sink
}

/// The landscape of `space` ([`LandscapeSettings`] says what of it).
pub fn landscape(space: &SearchSpace, settings: &LandscapeSettings) -> Landscape {
    let sink = sinks(space, settings.neighbourhood);
    let best = space.optimum().1;
    let fraction = |id: usize| space.time(id).map_or(0.0, |t| best / t);
    let ran: Vec<usize> = (0..space.len()).filter(|&i| sink[i].is_some()).collect();
    let good = |id: usize, at: f64| sink[id].is_some_and(|s| fraction(s) >= at);
    let share_of = |ids: &[usize], at: f64| {
        ids.iter().filter(|&&i| good(i, at)).count() as f64 / ids.len().max(1) as f64
    };
    let shares = |ids: &[usize]| -> Vec<Share> {
        settings
            .at
            .iter()
            .map(|&at| Share {
                at,
                share: share_of(ids, at),
            })
            .collect()
    };
    let mut counts: HashMap<usize, usize> = HashMap::new();
    for &i in &ran {
        if let Some(s) = sink[i] {
            *counts.entry(s).or_default() += 1;
        }
    }
    let mut by_speed = ran.clone();
    by_speed.sort_by(|&a, &b| fraction(b).total_cmp(&fraction(a)).then(a.cmp(&b)));
    let from_fastest = FASTEST_SHARES
        .iter()
        .map(|&top| {
            let k = ((by_speed.len() as f64 * top) as usize).clamp(1, by_speed.len().max(1));
            let starts = &by_speed[..k.min(by_speed.len())];
            FastestStarts {
                fastest: top,
                starts: starts.len(),
                down_to: starts.last().map_or(0.0, |&i| fraction(i)),
                reach: shares(starts),
            }
        })
        .collect();
    let mut largest: Vec<(usize, usize)> = counts.iter().map(|(&s, &n)| (s, n)).collect();
    largest.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let first_at = settings.at.first().copied().unwrap_or(1.0);
    let basins = largest
        .iter()
        .take(settings.basins)
        .map(|&(s, n)| Basin {
            fraction: fraction(s),
            share: n as f64 / ran.len().max(1) as f64,
            minimum: space.assignment(s),
            escapes: (fraction(s) < first_at).then(|| {
                let jumps = two_changes(space, s);
                (
                    jumps.iter().filter(|&&j| good(j, first_at)).count(),
                    jumps.len(),
                )
            }),
        })
        .collect();
    Landscape {
        space: space.name.clone(),
        neighbourhood: settings.neighbourhood,
        configurations: ran.len(),
        local_minima: counts.len(),
        from_random: shares(&ran),
        from_fastest,
        basins,
        by: combinations(space, &ran, &settings.by, |i| good(i, first_at)),
    }
}

/// The configurations that ran two parameter changes from `id`.
fn two_changes(space: &SearchSpace, id: usize) -> Vec<usize> {
    let radix = space.radix();
    let mut levels = space.levels(id).to_vec();
    let mut out = Vec::new();
    for i in 0..radix.len() {
        for j in i + 1..radix.len() {
            let (li, lj) = (levels[i], levels[j]);
            for a in (0..radix[i] as u16).filter(|&a| a != li) {
                for b in (0..radix[j] as u16).filter(|&b| b != lj) {
                    levels[i] = a;
                    levels[j] = b;
                    if let Some(k) = space.find(&levels).filter(|&k| space.time(k).is_some()) {
                        out.push(k);
                    }
                }
            }
            levels[i] = li;
            levels[j] = lj;
        }
    }
    out
}

/// The share of good starts per combination of the `by` parameters' values.
fn combinations(
    space: &SearchSpace,
    ran: &[usize],
    by: &[usize],
    good: impl Fn(usize) -> bool,
) -> Vec<Combination> {
    if by.is_empty() {
        return Vec::new();
    }
    let mut groups: HashMap<Vec<u16>, (usize, usize)> = HashMap::new();
    for &i in ran {
        let key: Vec<u16> = by.iter().map(|&p| space.levels(i)[p]).collect();
        let g = groups.entry(key).or_default();
        g.0 += 1;
        g.1 += usize::from(good(i));
    }
    let mut keys: Vec<Vec<u16>> = groups.keys().cloned().collect();
    keys.sort();
    keys.into_iter()
        .map(|key| {
            let (starts, good) = groups[&key];
            Combination {
                values: by
                    .iter()
                    .zip(&key)
                    .map(|(&p, &l)| (space.params[p].clone(), space.values[p][l as usize].clone()))
                    .collect(),
                starts,
                share: good as f64 / starts as f64,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests;
