//! A memo of the Matern kernel by squared distance. A search space's configurations sit on a
//! grid, so the squared distances between measured configurations and candidates take few
//! values, the same ones step after step; looking a value up costs a fraction of the square
//! root, division and exponential that compute it. Keys are the distance's exact bits and the
//! length scale's, so a value from the memo is the computed one, bit for bit. Where the
//! process's inputs are level indices (Kernel Tuner's scaling, its step applied in the kernel)
//! the squared distances are whole numbers, which index a table directly; other distances go
//! to a hash table.

/// A table by whole squared distance below [`DIRECT_MAX`] (NaN: not computed yet), and open
/// addressing with linear probing over a power-of-two table, at most half full, for others.
pub(crate) struct KernelMemo {
    /// The length scale the values belong to (its bits); another one empties the memo.
    ell: u64,
    direct: Vec<f64>,
    keys: Vec<u64>,
    values: Vec<f64>,
    len: usize,
}

/// Whole squared distances below this many are looked up in the direct table: a space's
/// largest, the sum of its parameters' (levels - 1)^2, is a few thousand among the public
/// spaces (hotspot on an RTX A4000, whose block_size_x has 37 values: 1,662).
const DIRECT_MAX: usize = 1 << 16;

/// No squared distance has these bits: distances are sums of squares, never NaN.
const EMPTY: u64 = u64::MAX;

impl Default for KernelMemo {
    fn default() -> Self {
        KernelMemo {
            ell: EMPTY,
            direct: Vec::new(),
            keys: vec![EMPTY; 256],
            values: vec![0.0; 256],
            len: 0,
        }
    }
}

impl KernelMemo {
    /// Empties the memo unless it holds values of length scale `ell`.
    pub(crate) fn for_length_scale(&mut self, ell: f64) {
        if self.ell != ell.to_bits() {
            self.ell = ell.to_bits();
            self.direct.fill(f64::NAN);
            self.keys.fill(EMPTY);
            self.len = 0;
        }
    }

    /// The kernel at squared distance `d2`: from the memo, or `kernel(d2)` kept for next time.
    #[inline(always)]
    pub(crate) fn get(&mut self, d2: f64, kernel: impl Fn(f64) -> f64) -> f64 {
        let key = d2.to_bits();
        // A whole distance in range (not -0.0: the table keys bits too) is its own slot:
        // adding 2^52 leaves a whole number below 2^52 exact, in the low bits of the sum's
        // mantissa, and rounds any other (no conversion instructions, no saturation checks).
        const SHIFT: f64 = 4_503_599_627_370_496.0; // 2^52
        let shifted = d2 + SHIFT;
        if d2 < DIRECT_MAX as f64 && (shifted - SHIFT).to_bits() == key {
            let whole = shifted.to_bits().wrapping_sub(SHIFT.to_bits()) as usize;
            return match self.direct_hit(whole) {
                Some(v) => v,
                None => self.direct_miss(whole, kernel(d2)),
            };
        }
        let mask = self.keys.len() - 1;
        let mut slot = slot_of(key, mask);
        loop {
            let k = self.keys[slot];
            if k == key {
                return self.values[slot];
            }
            if k == EMPTY {
                break;
            }
            slot = (slot + 1) & mask;
        }
        let value = kernel(d2);
        if 2 * (self.len + 1) > self.keys.len() {
            self.grow();
            let mask = self.keys.len() - 1;
            slot = slot_of(key, mask);
            while self.keys[slot] != EMPTY {
                slot = (slot + 1) & mask;
            }
        }
        self.keys[slot] = key;
        self.values[slot] = value;
        self.len += 1;
        value
    }

    /// The kernel at the whole squared distance `whole` (below [`DIRECT_MAX`]), from the
    /// direct table: the value [`KernelMemo::get`] gives at that distance as a number, the same
    /// slot.
    #[inline(always)]
    pub(crate) fn get_whole(&mut self, whole: usize, kernel: impl Fn(f64) -> f64) -> f64 {
        match self.direct_hit(whole) {
            Some(v) => v,
            None => self.direct_miss(whole, kernel(whole as f64)),
        }
    }

    /// The direct table, holding the kernel at every whole squared distance of `wholes` (each
    /// below [`DIRECT_MAX`]: 16-bit distances), each computed by `kernel` once per length
    /// scale, as [`KernelMemo::get_whole`] gives it: for loops that look up many values after
    /// one pass over their distances.
    pub(crate) fn direct_table(
        &mut self,
        wholes: impl Iterator<Item = usize>,
        kernel: impl Fn(f64) -> f64,
    ) -> &[f64] {
        for whole in wholes {
            self.get_whole(whole, &kernel);
        }
        &self.direct
    }

    /// The direct table's value in slot `whole`, if it holds one.
    #[inline(always)]
    fn direct_hit(&self, whole: usize) -> Option<f64> {
        self.direct.get(whole).copied().filter(|v| !v.is_nan())
    }

    /// Keeps `value` in the direct table's slot `whole`, growing the table to hold it (a
    /// negative whole distance, which no sum of squares gives, wraps past the table's range
    /// and is not kept).
    #[cold]
    #[inline(never)]
    fn direct_miss(&mut self, whole: usize, value: f64) -> f64 {
        if whole >= DIRECT_MAX {
            return value;
        }
        if whole >= self.direct.len() {
            self.direct
                .resize((whole + 1).next_power_of_two().max(64), f64::NAN);
        }
        self.direct[whole] = value;
        value
    }

    fn grow(&mut self) {
        let size = 2 * self.keys.len();
        let keys = std::mem::replace(&mut self.keys, vec![EMPTY; size]);
        let values = std::mem::replace(&mut self.values, vec![0.0; size]);
        let mask = self.keys.len() - 1;
        for (key, value) in keys.into_iter().zip(values) {
            if key != EMPTY {
                let mut slot = slot_of(key, mask);
                while self.keys[slot] != EMPTY {
                    slot = (slot + 1) & mask;
                }
                self.keys[slot] = key;
                self.values[slot] = value;
            }
        }
    }
}

/// Fibonacci hashing (Knuth, "The Art of Computer Programming", vol. 3, 6.4): the top bits of
/// the key times 2^64 / golden ratio, which depend on all of the key's bits (a grid's distances
/// are often short binary fractions, their low mantissa bits all zero).
fn slot_of(key: u64, mask: usize) -> usize {
    // `mask` is 2^bits - 1, `mask.leading_zeros()` is 64 - bits (a shift count that needs no
    // population count, which the baseline x86-64 has no instruction for).
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (mask.leading_zeros() % 64)) as usize & mask
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    #[test]
    fn computes_each_distance_once_per_length_scale_and_grows() {
        let calls = Cell::new(0);
        let kernel = |d: f64| {
            calls.set(calls.get() + 1);
            (-d).exp()
        };
        let mut memo = KernelMemo::default();
        memo.for_length_scale(0.5);
        // 1,000 distinct squared distances, twice: the table grows past its 256 slots.
        for round in 0..2 {
            for i in 0..1000 {
                let d2 = i as f64 * 0.25;
                assert_eq!(memo.get(d2, kernel).to_bits(), (-d2).exp().to_bits());
            }
            assert_eq!(calls.get(), 1000, "round {round}");
        }
        memo.for_length_scale(0.5);
        memo.get(3.0, kernel);
        assert_eq!(calls.get(), 1000, "the same length scale keeps the values");
        memo.for_length_scale(0.25);
        memo.get(3.0, kernel);
        assert_eq!(calls.get(), 1001, "another length scale empties the memo");
        // 0.0, new to this length scale's memo, then -0.0, of other bits, is a key of its own.
        memo.get(0.0, kernel);
        assert_eq!(calls.get(), 1002);
        memo.get(-0.0, kernel);
        assert_eq!(calls.get(), 1003);
    }

    #[test]
    fn whole_distances_come_from_the_direct_table_once_per_length_scale() {
        let calls = Cell::new(0);
        let kernel = |d: f64| {
            calls.set(calls.get() + 1);
            (-d / 100.0).exp()
        };
        let mut memo = KernelMemo::default();
        memo.for_length_scale(0.5);
        // Whole distances up to past the table's first size, twice; one past its range, which
        // the hash table keeps.
        for _ in 0..2 {
            for d2 in [0.0, 1.0, 2.0, 63.0, 64.0, 1000.0, DIRECT_MAX as f64] {
                assert_eq!(
                    memo.get(d2, kernel).to_bits(),
                    (-d2 / 100.0).exp().to_bits()
                );
            }
        }
        assert_eq!(calls.get(), 7);
        assert!(memo.direct.len() > 1000 && memo.direct.len() <= DIRECT_MAX);
        assert_eq!(memo.len, 1, "only the distance out of range is hashed");
        // A negative whole distance (no sum of squares) is computed, not kept.
        assert_eq!(memo.get(-3.0, kernel).to_bits(), (0.03f64).exp().to_bits());
        assert_eq!(calls.get(), 8);
        memo.for_length_scale(0.25);
        memo.get(1000.0, kernel);
        assert_eq!(calls.get(), 9, "another length scale empties the table");
    }

    #[test]
    fn the_direct_table_holds_the_values_of_the_distances_passed() {
        let calls = Cell::new(0);
        let kernel = |d: f64| {
            calls.set(calls.get() + 1);
            (-d / 10.0).exp()
        };
        let mut memo = KernelMemo::default();
        memo.for_length_scale(0.5);
        let table = memo.direct_table([4, 9, 4].into_iter(), kernel);
        assert_eq!(table[4].to_bits(), (-0.4f64).exp().to_bits());
        assert_eq!(table[9].to_bits(), (-0.9f64).exp().to_bits());
        assert!(table[5].is_nan(), "a distance not passed is not computed");
        assert_eq!(calls.get(), 2);
        // The same values get_whole gives, computed once per length scale.
        assert_eq!(
            memo.get_whole(9, kernel).to_bits(),
            (-0.9f64).exp().to_bits()
        );
        assert_eq!(calls.get(), 2);
        memo.for_length_scale(1.0);
        memo.direct_table([4].into_iter(), kernel);
        assert_eq!(calls.get(), 3);
    }
}
