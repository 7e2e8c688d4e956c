//! The configurations of a sparse space that differ in two parameters alone, grouped: what a
//! repair of a missing single change reads ([`super::neighbours::repairs`]). On a space that
//! holds few of its parameters' combinations (hotspot on an RTX A4000 from Willemsen's search
//! space paper: 12,819 of 22 million) nearly every single change is missing, and the repairs
//! found through [`super::key_index::Line`] cost one hashed lookup per missing change and
//! other parameter (about 700 a local minimum there); a plane answers all the missing changes
//! of one parameter pair in one lookup.

use super::key_index::{groups, KeyRank};
use super::space::SearchSpace;

/// Spaces up to this many plane members in all (pairs of parameters x configurations) get
/// planes, where they are sparse enough to need them ([`SearchSpace::planes`]).
pub(crate) const MAX_MEMBERS: usize = 4_000_000;

/// The configurations that agree on every parameter but `j` and `k` (`j < k`): `members`
/// holds each as (level of `j`, level of `k`, index), grouped by the key with both places
/// taken out, in increasing levels within a group; group `g` is
/// `members[bounds[g]..bounds[g + 1]]`.
#[derive(Debug, Clone)]
pub(crate) struct Plane {
    members: Vec<(u16, u16, u32)>,
    groups: KeyRank,
    bounds: Vec<u32>,
    /// Place value and place value times levels of `j`, then of `k`.
    places: [(u64, u64); 2],
}

impl Plane {
    /// The plane of parameters `j < k` of `space`.
    pub(crate) fn new(space: &SearchSpace, j: usize, k: usize) -> Plane {
        let radix = space.radix();
        let places = [
            (space.stride(j), space.stride(j) * radix[j] as u64),
            (space.stride(k), space.stride(k) * radix[k] as u64),
        ];
        let mut all: Vec<(u64, u16, u16, u32)> = (0..space.len())
            .map(|id| {
                let l = space.levels(id);
                let masked =
                    space.key_of(id) - l[j] as u64 * places[0].0 - l[k] as u64 * places[1].0;
                (Self::squeeze(masked, &places), l[j], l[k], id as u32)
            })
            .collect();
        all.sort_unstable();
        let (keys, bounds) = groups(all.iter().map(|e| e.0));
        Plane {
            members: all.into_iter().map(|e| (e.1, e.2, e.3)).collect(),
            groups: KeyRank::new(&keys, space.key_bound() / (radix[j] * radix[k]) as u64),
            bounds,
            places,
        }
    }

    /// A key whose places for both parameters are 0, with both places removed: `j`'s first,
    /// whose place value is the larger (`j < k`, and every parameter of a search space has two
    /// or more levels), so that `k`'s place stays where it was.
    fn squeeze(masked: u64, places: &[(u64, u64); 2]) -> u64 {
        let one = |m: u64, (stride, span): (u64, u64)| m / span * stride + m % stride;
        one(one(masked, places[0]), places[1])
    }

    /// The group whose key, with both parameters' places 0, is `masked`.
    pub(crate) fn get(&self, masked: u64) -> &[(u16, u16, u32)] {
        match self.groups.rank(Self::squeeze(masked, &self.places)) {
            Some(g) => &self.members[self.bounds[g] as usize..self.bounds[g + 1] as usize],
            None => &[],
        }
    }
}

/// Where pair `j < k` of `p` parameters sits in the list of planes.
pub(crate) fn pair_index(p: usize, j: usize, k: usize) -> usize {
    j * p - j * (j + 1) / 2 + (k - j - 1)
}
