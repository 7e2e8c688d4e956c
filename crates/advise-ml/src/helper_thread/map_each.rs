//! A list of independent jobs shared between this thread and the helper thread.

use std::sync::atomic::{AtomicUsize, Ordering};

use super::join;

/// `f(0)`, ..., `f(n - 1)` on this thread and the helper thread (where it is free, as
/// [`join`]), each taking the next index as it finishes one, so lower indices start first
/// (put the largest jobs there); the results in index order.
pub fn map_each<R: Send>(n: usize, f: impl Fn(usize) -> R + Sync) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let work = || {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= n {
                break done;
            }
            done.push((i, f(i)));
        }
    };
    let (mine, theirs) = join(work, work);
    let mut all: Vec<(usize, R)> = mine.into_iter().chain(theirs).collect();
    all.sort_unstable_by_key(|(i, _)| *i);
    all.into_iter().map(|(_, r)| r).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every index once, the results in index order, whichever thread ran each.
    #[test]
    fn results_come_back_in_index_order() {
        for n in [0usize, 1, 2, 37] {
            let calls = AtomicUsize::new(0);
            let out = map_each(n, |i| {
                calls.fetch_add(1, Ordering::Relaxed);
                i * i
            });
            assert_eq!(out, (0..n).map(|i| i * i).collect::<Vec<_>>());
            assert_eq!(calls.load(Ordering::Relaxed), n);
        }
    }
}
