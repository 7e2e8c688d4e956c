//! The configurations of a sparse space that differ in two parameters alone, grouped: what a
//! repair of a missing single change reads ([`super::neighbours::repairs`]). On a space that
//! holds few of its parameters' combinations (hotspot on an RTX A4000 from Willemsen's search
//! space paper: 12,819 of 22 million) nearly every single change is missing, and the repairs
//! found through [`super::key_index::Line`] cost one hashed lookup per missing change and
//! other parameter (about 700 a local minimum there); the group of a pair of parameters that
//! holds the configuration answers all the missing changes of that pair, and is found without
//! a lookup.

use super::key_index::groups;
use super::space::SearchSpace;

/// Spaces up to this many plane entries in all (pairs of parameters x configurations) get
/// planes, where they are sparse enough to need them ([`SearchSpace::planes`]).
pub(crate) const MAX_MEMBERS: usize = 4_000_000;

/// A space gets planes where it holds under 1/SPARSE_SHARE of its parameters' combinations.
/// gemm on an A100 (Willemsen's search-space paper; 10,073 configurations, 1/66 of its
/// combinations, 17 parameters in the file) costs `auto` 10-16% less CPU a search at 2% and
/// 5% with planes than with lines (the same searches, bit for bit; four alternations of
/// `advise -q bench search --repeats 100` on 2026-11-29: 5% 3.71-3.75 -> 3.08-3.15 ms, 2.31 ->
/// 2.06 on a faster stretch) for 37-50 ms of index once instead of 6-7. On the synthetic
/// hotspot-shaped space (1/42 of its combinations; scripts/search/synthetic-hotspot-space.py)
/// planes saved nothing and took its index from 27 to 154 ms (2026-11-29), so it keeps lines;
/// the rule was 1/256 until then.
pub(crate) const SPARSE_SHARE: u64 = 48;

/// For every pair of parameters `j < k`, the configurations that agree on every parameter
/// but `j` and `k`, grouped. A repair reads the groups of the configuration it starts from,
/// so no key is looked up: `spans[id * pairs + pair_index(j, k)]` gives where `id`'s group of
/// pair `(j, k)` lies in `members`, each member as (level of `j`, level of `k`, index) in
/// increasing levels. A group of one configuration alone is left empty (a repair finds
/// nothing in it), so that on a sparse space most reads touch the spans only.
#[derive(Debug, Clone)]
pub(crate) struct Planes {
    params: usize,
    pairs: usize,
    members: Vec<(u16, u16, u32)>,
    spans: Vec<(u32, u32)>,
}

impl Planes {
    /// The planes of every pair of parameters of `space`.
    pub(crate) fn new(space: &SearchSpace) -> Planes {
        let p = space.n_params();
        let pairs = p * p.saturating_sub(1) / 2;
        let mut planes = Planes {
            params: p,
            pairs,
            members: Vec::new(),
            spans: vec![(0, 0); space.len() * pairs],
        };
        for j in 0..p {
            for k in j + 1..p {
                planes.add(space, j, k);
            }
        }
        planes
    }

    /// Groups the configurations of `space` by their key without `j`'s and `k`'s places.
    fn add(&mut self, space: &SearchSpace, j: usize, k: usize) {
        let (sj, sk) = (space.stride(j), space.stride(k));
        let mut all: Vec<(u64, u16, u16, u32)> = (0..space.len())
            .map(|id| {
                let l = space.levels(id);
                let masked = space.key_of(id) - l[j] as u64 * sj - l[k] as u64 * sk;
                (masked, l[j], l[k], id as u32)
            })
            .collect();
        all.sort_unstable();
        let pair = pair_index(self.params, j, k);
        let (_, bounds) = groups(all.iter().map(|e| e.0));
        for w in bounds.windows(2) {
            let group = &all[w[0] as usize..w[1] as usize];
            if group.len() < 2 {
                continue;
            }
            let span = (self.members.len() as u32, group.len() as u32);
            self.members.extend(group.iter().map(|e| (e.1, e.2, e.3)));
            for e in group {
                self.spans[e.3 as usize * self.pairs + pair] = span;
            }
        }
    }

    /// The configurations that differ from configuration `id` in `j` and `k` alone (`j != k`),
    /// `id` among them, as (level of the smaller of `j` and `k`, level of the larger,
    /// index); empty where `id` is alone.
    #[inline]
    pub(crate) fn group(&self, id: usize, j: usize, k: usize) -> &[(u16, u16, u32)] {
        let (start, len) =
            self.spans[id * self.pairs + pair_index(self.params, j.min(k), j.max(k))];
        &self.members[start as usize..(start + len) as usize]
    }
}

/// Where pair `j < k` of `p` parameters sits in the list of planes.
fn pair_index(p: usize, j: usize, k: usize) -> usize {
    j * p - j * (j + 1) / 2 + (k - j - 1)
}
