//! Integer-keyed indexes of a search space: the map from a configuration's mixed-radix key to
//! its index, hashed cheaply, and the per-parameter lines the repair neighbourhood reads.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::space::SearchSpace;

/// A map from mixed-radix keys, hashed with [`KeyHasher`].
pub(crate) type KeyMap<V> = HashMap<u64, V, BuildHasherDefault<KeyHasher>>;

/// The configurations of a space that differ in one parameter alone: `members` holds every
/// configuration as (level of the parameter, index), grouped by the key without the
/// parameter's place and in increasing level within a group; `start` maps that masked key to
/// its group's range.
#[derive(Debug, Clone)]
pub(crate) struct Line {
    members: Vec<(u16, u32)>,
    start: KeyMap<(u32, u32)>,
}

impl Line {
    /// The line of parameter `j` of `space`.
    pub(crate) fn new(space: &SearchSpace, j: usize) -> Line {
        let mut all: Vec<(u64, u16, u32)> = (0..space.len())
            .map(|id| {
                let l = space.levels(id)[j];
                (space.key_of(id) - l as u64 * space.stride(j), l, id as u32)
            })
            .collect();
        all.sort_unstable();
        let mut start = KeyMap::default();
        let mut from = 0;
        for (i, e) in all.iter().enumerate() {
            if i + 1 == all.len() || all[i + 1].0 != e.0 {
                start.insert(e.0, (from as u32, i as u32 + 1));
                from = i + 1;
            }
        }
        Line {
            members: all.into_iter().map(|e| (e.1, e.2)).collect(),
            start,
        }
    }

    /// The group whose masked key is `masked`: (level, index) in increasing level.
    pub(crate) fn get(&self, masked: u64) -> &[(u16, u32)] {
        match self.start.get(&masked) {
            Some(&(from, to)) => &self.members[from as usize..to as usize],
            None => &[],
        }
    }
}

/// Hashes the index's keys, which are already distinct integers, with MurmurHash3's 64-bit
/// finaliser (`fmix64`: two multiplications and three shifts that spread every input bit over
/// the whole hash) instead of SipHash, which the standard map spends most of a lookup on.
/// Nothing an attacker chooses reaches this map, so SipHash's protection buys nothing here.
#[derive(Default)]
pub(crate) struct KeyHasher(u64);

fn fmix64(mut k: u64) -> u64 {
    k ^= k >> 33;
    k = k.wrapping_mul(0xff51_afd7_ed55_8ccd);
    k ^= k >> 33;
    k = k.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    k ^ (k >> 33)
}

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = fmix64(self.0 ^ b as u64);
        }
    }

    fn write_u64(&mut self, k: u64) {
        self.0 = fmix64(k);
    }
}
