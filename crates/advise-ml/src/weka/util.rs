//! Pieces of Weka's runtime whose exact behaviour decides Weka's results (`java.util.Random`
//! is `crate::rng::JavaRandom`): the (unstable) quicksort of `weka.core.Utils`, whose order of equal
//! keys changes which instance comes first and so the order of floating-point sums.

/// `Utils.sort` / `sortWithNoMissingValues`: the permutation that sorts `values` ascending,
/// NaN (missing) treated as `f64::MAX`, ties in Weka's quicksort order.
pub fn sort_indices(values: &[f64]) -> Vec<usize> {
    let mut index = Vec::new();
    sort_indices_into(values.iter().copied(), &mut Vec::new(), &mut index);
    index
}

/// [`sort_indices`] into `index`, with `keys` as scratch (both cleared first), so that a caller
/// sorting many times reuses its buffers.
pub fn sort_indices_into(
    values: impl Iterator<Item = f64>,
    keys: &mut Vec<f64>,
    index: &mut Vec<usize>,
) {
    keys.clear();
    keys.extend(values.map(|v| if v.is_nan() { f64::MAX } else { v }));
    index.clear();
    index.extend(0..keys.len());
    if keys.len() > 1 {
        quick_sort(keys, index, 0, keys.len() as isize - 1);
    }
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
    fn sort_orders_values() {
        let v = [3.0, 1.0, f64::NAN, 2.0, 1.0, 5.0, 0.5];
        let idx = sort_indices(&v);
        let sorted: Vec<f64> = idx.iter().map(|&i| v[i]).collect();
        assert_eq!(&sorted[..6], &[0.5, 1.0, 1.0, 2.0, 3.0, 5.0]);
        assert!(sorted[6].is_nan());
    }
}
