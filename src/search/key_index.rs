//! Integer-keyed indexes of a search space: the map from a configuration's mixed-radix key to
//! its index and the per-parameter lines the repair neighbourhood reads. Both find a key's
//! position among the keys present ([`KeyRank`]): a bitmap with a running count where the
//! keys are dense enough, a cheaply hashed map where they are not.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::space::SearchSpace;

/// A map from mixed-radix keys, hashed with [`KeyHasher`].
pub(crate) type KeyMap<V> = HashMap<u64, V, BuildHasherDefault<KeyHasher>>;

/// Distinct keys below a bound, each with its rank: its position among them in increasing
/// order. Where the bound allows at most [`WORDS_PER_KEY`] 64-bit words a key, a bitmap of the
/// keys present and the number of keys before each word (a rank directory, as in Jacobson's
/// "Space-efficient static trees and graphs", 1989): a lookup is a load, a mask and a
/// population count. Otherwise a hash map. On a 105,412-configuration space of hotspot's shape
/// (4.4 million possible keys) the bitmap and counts take 0.8 MB.
#[derive(Debug, Clone)]
pub(crate) enum KeyRank {
    Bitmap { bits: Vec<u64>, before: Vec<u32> },
    Hashed(KeyMap<u32>),
}

/// Most bitmap words a key may cost (12 bytes a word with its count) before a hash map is used.
const WORDS_PER_KEY: usize = 4;

impl KeyRank {
    /// The ranks of `sorted` (distinct keys in increasing order, all below `bound`).
    pub(crate) fn new(sorted: &[u64], bound: u64) -> KeyRank {
        let words = bound.div_ceil(64);
        if words > (WORDS_PER_KEY * sorted.len() + 1024) as u64 {
            return KeyRank::Hashed(
                sorted
                    .iter()
                    .enumerate()
                    .map(|(r, &k)| (k, r as u32))
                    .collect(),
            );
        }
        let mut bits = vec![0u64; words as usize];
        for &k in sorted {
            bits[(k >> 6) as usize] |= 1 << (k & 63);
        }
        let mut before = Vec::with_capacity(bits.len());
        let mut count = 0u32;
        for w in &bits {
            before.push(count);
            count += w.count_ones();
        }
        KeyRank::Bitmap { bits, before }
    }

    /// The rank of `key`, if it is one of the keys.
    #[inline]
    pub(crate) fn rank(&self, key: u64) -> Option<usize> {
        match self {
            KeyRank::Bitmap { bits, before } => {
                let w = usize::try_from(key >> 6).ok()?;
                let word = *bits.get(w)?;
                let bit = 1u64 << (key & 63);
                (word & bit != 0)
                    .then(|| before[w] as usize + (word & (bit - 1)).count_ones() as usize)
            }
            KeyRank::Hashed(map) => map.get(&key).map(|&r| r as usize),
        }
    }

    /// Whether `key` is one of the keys (a bitmap's bit: no count or rank read).
    #[inline]
    pub(crate) fn contains(&self, key: u64) -> bool {
        match self {
            KeyRank::Bitmap { bits, .. } => bit_set(bits, key),
            KeyRank::Hashed(map) => map.contains_key(&key),
        }
    }

    /// Asks the processor to fetch what [`KeyRank::rank`] of `key` reads into its cache (the
    /// bitmap's word and its count; nothing for the hash map), so that a batch of lookups'
    /// cache misses overlap.
    #[inline]
    pub(crate) fn prefetch(&self, key: u64) {
        if let KeyRank::Bitmap { bits, before } = self {
            let w = (key >> 6) as usize;
            if let (Some(b), Some(c)) = (bits.get(w), before.get(w)) {
                prefetch_line((b as *const u64).cast());
                prefetch_line((c as *const u32).cast());
            }
        }
    }
}

/// Whether bit `key % 64` of word `key / 64` of `bits` is set (false past its end).
#[inline]
pub(crate) fn bit_set(bits: &[u64], key: u64) -> bool {
    usize::try_from(key >> 6)
        .ok()
        .and_then(|w| bits.get(w))
        .is_some_and(|word| word >> (key & 63) & 1 != 0)
}

/// A hint to the processor to fetch the cache line at `at`: it reads nothing the program
/// sees, and is nothing on processors other than x86_64.
#[inline(always)]
pub(crate) fn prefetch_line(at: *const i8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE is part of every x86_64 processor, and a prefetch accesses no memory the
    // program sees, whatever the address.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(at)
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = at;
}

/// A space's configurations by mixed-radix key.
#[derive(Debug, Clone)]
pub(crate) struct KeyIndex {
    ranks: KeyRank,
    /// Configuration indices in increasing key order.
    ids: Vec<u32>,
}

impl KeyIndex {
    /// The index of `pairs` (distinct keys below `bound`, each with its configuration).
    pub(crate) fn new(mut pairs: Vec<(u64, u32)>, bound: u64) -> KeyIndex {
        pairs.sort_unstable();
        let keys: Vec<u64> = pairs.iter().map(|p| p.0).collect();
        KeyIndex {
            ranks: KeyRank::new(&keys, bound),
            ids: pairs.into_iter().map(|p| p.1).collect(),
        }
    }

    /// Whether a key is found by a bitmap's word rather than hashed.
    pub(crate) fn is_bitmap(&self) -> bool {
        matches!(self.ranks, KeyRank::Bitmap { .. })
    }

    /// The bitmap of the keys (bit `key % 64` of word `key / 64` set for each key), where a
    /// key is found by a bitmap's word.
    pub(crate) fn bitmap(&self) -> Option<&[u64]> {
        match &self.ranks {
            KeyRank::Bitmap { bits, .. } => Some(bits),
            KeyRank::Hashed(_) => None,
        }
    }

    /// Whether some configuration's key is `key`.
    #[inline]
    pub(crate) fn contains(&self, key: u64) -> bool {
        self.ranks.contains(key)
    }

    /// The configuration whose key is `key`, if any.
    #[inline]
    pub(crate) fn get(&self, key: u64) -> Option<usize> {
        self.ranks.rank(key).map(|r| self.ids[r] as usize)
    }
}

/// The configurations of a space that differ in one parameter alone: `members` holds every
/// configuration as (level of the parameter, index), grouped by the key without the
/// parameter's place and in increasing level within a group; group `g` is
/// `members[bounds[g]..bounds[g + 1]]`, and `groups` ranks the groups' keys with the
/// parameter's place taken out (its digit removed, so that they lie below the number of
/// combinations of the other parameters).
#[derive(Debug, Clone)]
pub(crate) struct Line {
    members: Vec<(u16, u32)>,
    groups: KeyRank,
    bounds: Vec<u32>,
    /// The parameter's place value, and its place value times its number of levels.
    stride: u64,
    span: u64,
}

impl Line {
    /// The line of parameter `j` of `space`.
    pub(crate) fn new(space: &SearchSpace, j: usize) -> Line {
        let stride = space.stride(j);
        let radix = space.radix()[j] as u64;
        let span = stride * radix;
        let mut all: Vec<(u64, u16, u32)> = (0..space.len())
            .map(|id| {
                let l = space.levels(id)[j];
                (space.key_of(id) - l as u64 * stride, l, id as u32)
            })
            .collect();
        all.sort_unstable();
        let (mut keys, bounds) = groups(all.iter().map(|e| e.0));
        for k in &mut keys {
            *k = Self::squeeze(*k, stride, span);
        }
        Line {
            members: all.into_iter().map(|e| (e.1, e.2)).collect(),
            groups: KeyRank::new(&keys, space.key_bound() / radix),
            bounds,
            stride,
            span,
        }
    }

    /// A line that holds nothing: that of a parameter whose levels the repairs probe instead
    /// ([`SearchSpace::probes_levels`]).
    pub(crate) fn empty() -> Line {
        Line {
            members: Vec::new(),
            groups: KeyRank::Hashed(KeyMap::default()),
            bounds: vec![0],
            stride: 1,
            span: 1,
        }
    }

    /// A key whose place for the parameter is 0, with that place removed.
    #[inline]
    fn squeeze(masked: u64, stride: u64, span: u64) -> u64 {
        masked / span * stride + masked % stride
    }

    /// Asks the processor to fetch what [`Line::get`] of `masked` reads first.
    #[inline]
    pub(crate) fn prefetch(&self, masked: u64) {
        self.groups
            .prefetch(Self::squeeze(masked, self.stride, self.span));
    }

    /// The group whose masked key is `masked`: (level, index) in increasing level.
    pub(crate) fn get(&self, masked: u64) -> &[(u16, u32)] {
        match self
            .groups
            .rank(Self::squeeze(masked, self.stride, self.span))
        {
            Some(g) => &self.members[self.bounds[g] as usize..self.bounds[g + 1] as usize],
            None => &[],
        }
    }
}

/// The distinct keys of `sorted` (in increasing order) and where each one's run ends: run `g`
/// is `bounds[g]..bounds[g + 1]`.
pub(crate) fn groups(sorted: impl Iterator<Item = u64>) -> (Vec<u64>, Vec<u32>) {
    let mut keys: Vec<u64> = Vec::new();
    let mut bounds = vec![0u32];
    for (i, k) in sorted.enumerate() {
        if keys.last() == Some(&k) {
            if let Some(end) = bounds.last_mut() {
                *end = i as u32 + 1;
            }
        } else {
            keys.push(k);
            bounds.push(i as u32 + 1);
        }
    }
    (keys, bounds)
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

#[cfg(test)]
mod tests {
    use super::*;
    use advise_ml::Rng;

    /// Synthetic keys: the bitmap and the hash map rank every key as its position among the
    /// sorted keys, and answer `None` for every other key below the bound and beyond it.
    #[test]
    fn bitmap_and_hash_ranks_agree_with_positions() {
        let mut rng = Rng::new(7);
        for bound in [1u64, 63, 64, 65, 1000, 5000] {
            let keys: Vec<u64> = (0..bound).filter(|_| rng.chance(0.3)).collect();
            let dense = KeyRank::new(&keys, bound);
            assert!(matches!(dense, KeyRank::Bitmap { .. }));
            let hashed = KeyRank::Hashed(
                keys.iter()
                    .enumerate()
                    .map(|(r, &k)| (k, r as u32))
                    .collect(),
            );
            for key in 0..bound + 70 {
                let want = keys.binary_search(&key).ok();
                assert_eq!(dense.rank(key), want, "bound {bound}, key {key}");
                assert_eq!(
                    dense.contains(key),
                    want.is_some(),
                    "bound {bound}, key {key}"
                );
                assert_eq!(hashed.rank(key), want, "bound {bound}, key {key}");
            }
        }
        // Few keys under a large bound: the hash map.
        let sparse = KeyRank::new(&[3, 1 << 40], 1 << 41);
        assert!(matches!(sparse, KeyRank::Hashed(_)));
        assert_eq!(sparse.rank(1 << 40), Some(1));
        assert_eq!(sparse.rank(4), None);
        assert!(sparse.contains(1 << 40) && !sparse.contains(4));
    }
}
