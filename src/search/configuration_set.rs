//! A set of one space's configurations, one bit each: bit `id % 64` of word `id / 64`. An
//! eighth of the memory of a `bool` each to clear for every search and to keep in cache (30 KB
//! on the 241,600-configuration UCI SGEMM space). The evaluator keeps the measured
//! configurations in one, the local search those it has settled.

/// Configurations `0..n` of one space, each in the set or not.
#[derive(Debug, Clone)]
pub(crate) struct ConfigurationSet(Vec<u64>);

impl ConfigurationSet {
    /// The empty set of a space of `configurations`.
    pub(crate) fn new(configurations: usize) -> Self {
        ConfigurationSet(vec![0; configurations.div_ceil(64)])
    }

    /// Adds `c` (one outside the space is ignored).
    #[inline]
    pub(crate) fn insert(&mut self, c: usize) {
        if let Some(w) = self.0.get_mut(c / 64) {
            *w |= 1 << (c % 64);
        }
    }

    /// Whether `c` is in the set (never, outside the space).
    #[inline]
    pub(crate) fn contains(&self, c: usize) -> bool {
        self.0.get(c / 64).is_some_and(|w| w & (1 << (c % 64)) != 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_what_was_inserted_and_nothing_else() {
        let mut s = ConfigurationSet::new(130);
        for c in [0, 63, 64, 129] {
            assert!(!s.contains(c));
            s.insert(c);
            assert!(s.contains(c));
        }
        assert!(!s.contains(1) && !s.contains(65) && !s.contains(128));
        // Outside the space: ignored, never held.
        s.insert(500);
        assert!(!s.contains(500));
    }
}
