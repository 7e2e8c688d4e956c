//! Pieces of Weka's and Java's runtime whose exact behaviour decides Weka's results:
//! `java.util.Random`, and the (unstable) quicksort of `weka.core.Utils`, whose order of equal
//! keys changes which instance comes first and so the order of floating-point sums.

/// `java.util.Random`: a 48-bit linear congruential generator.
#[derive(Debug, Clone)]
pub struct JavaRandom {
    seed: u64,
}

const MULTIPLIER: u64 = 0x5_DEEC_E66D;
const MASK: u64 = (1 << 48) - 1;

impl JavaRandom {
    pub fn new(seed: i64) -> Self {
        JavaRandom {
            seed: (seed as u64 ^ MULTIPLIER) & MASK,
        }
    }

    fn next(&mut self, bits: u32) -> i32 {
        self.seed = (self.seed.wrapping_mul(MULTIPLIER).wrapping_add(0xB)) & MASK;
        (self.seed >> (48 - bits)) as i64 as i32
    }

    /// `nextInt(bound)`, uniform in `0..bound`; `bound` must be positive.
    pub fn next_int(&mut self, bound: i32) -> i32 {
        debug_assert!(bound > 0);
        if bound & bound.wrapping_neg() == bound {
            return ((bound as i64 * self.next(31) as i64) >> 31) as i32;
        }
        loop {
            let bits = self.next(31);
            let val = bits % bound;
            if bits.wrapping_sub(val).wrapping_add(bound - 1) >= 0 {
                return val;
            }
        }
    }

    /// `nextDouble()`, uniform in [0, 1).
    pub fn next_double(&mut self) -> f64 {
        let hi = (self.next(26) as i64) << 27;
        (hi + self.next(27) as i64) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// `Instances.randomize`: a Fisher-Yates shuffle from the end.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for j in (1..items.len()).rev() {
            let k = self.next_int(j as i32 + 1) as usize;
            items.swap(j, k);
        }
    }
}

/// `Utils.sort` / `sortWithNoMissingValues`: the permutation that sorts `values` ascending,
/// NaN (missing) treated as `f64::MAX`, ties in Weka's quicksort order.
pub fn sort_indices(values: &[f64]) -> Vec<usize> {
    let vals: Vec<f64> = values
        .iter()
        .map(|&v| if v.is_nan() { f64::MAX } else { v })
        .collect();
    let mut index: Vec<usize> = (0..vals.len()).collect();
    if vals.len() > 1 {
        quick_sort(&vals, &mut index, 0, vals.len() as isize - 1);
    }
    index
}

fn conditional_swap(a: &[f64], index: &mut [usize], l: usize, r: usize) {
    if a[index[l]] > a[index[r]] {
        index.swap(l, r);
    }
}

fn quick_sort(a: &[f64], index: &mut [usize], left: isize, right: isize) {
    let diff = right - left;
    if diff <= 0 {
        return;
    }
    let (l, r) = (left as usize, right as usize);
    match diff {
        1 => conditional_swap(a, index, l, r),
        2 => {
            conditional_swap(a, index, l, l + 1);
            conditional_swap(a, index, l, r);
            conditional_swap(a, index, l + 1, r);
        }
        _ => {
            let c = (l + r) / 2;
            conditional_swap(a, index, l, c);
            conditional_swap(a, index, l, r);
            conditional_swap(a, index, c, r);
            index.swap(c, r - 1);
            let pivot = a[index[r - 1]];
            // partition(array, index, l, r, pivot)
            let mut i = l;
            let mut j = r - 1;
            loop {
                i += 1;
                while a[index[i]] < pivot {
                    i += 1;
                }
                j -= 1;
                while a[index[j]] > pivot {
                    j -= 1;
                }
                if i >= j {
                    break;
                }
                index.swap(i, j);
            }
            let center = i;
            index.swap(center, r - 1);
            quick_sort(a, index, left, center as isize - 1);
            quick_sort(a, index, center as isize + 1, right);
        }
    }
}

/// `Utils.eq` with M5's tolerance: `YongSplitInfo` sets `Utils.SMALL` to 1e-10.
pub fn eq_small(a: f64, b: f64) -> bool {
    const SMALL: f64 = 1e-10;
    a == b || (a - b < SMALL && b - a < SMALL)
}

/// The index of the first largest value (`Utils.maxIndex`).
pub fn max_index(values: &[f64]) -> usize {
    let mut best = 0;
    for (i, &v) in values.iter().enumerate() {
        if v > values[best] {
            best = i;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_random_matches_java() {
        // new java.util.Random(1): nextInt(10) x5 = 5 8 7 3 4; nextInt(16) from a fresh one = 11.
        let mut r = JavaRandom::new(1);
        let got: Vec<i32> = (0..5).map(|_| r.next_int(10)).collect();
        assert_eq!(got, vec![5, 8, 7, 3, 4]);
        assert_eq!(JavaRandom::new(1).next_int(16), 11);
    }

    #[test]
    fn sort_orders_values() {
        let v = [3.0, 1.0, f64::NAN, 2.0, 1.0, 5.0, 0.5];
        let idx = sort_indices(&v);
        let sorted: Vec<f64> = idx.iter().map(|&i| v[i]).collect();
        assert_eq!(&sorted[..6], &[0.5, 1.0, 1.0, 2.0, 3.0, 5.0]);
        assert!(sorted[6].is_nan());
    }
}
