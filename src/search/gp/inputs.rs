//! The Gaussian process's inputs: training rows and queries as numbers or as level indices,
//! and the squared distances between them, summed in vector loops ([`super::columns`]) the
//! same, bit for bit, as one pair at a time.

use super::columns;
use super::memo::KernelMemo;
use std::borrow::Cow;

/// A process's training rows, `p` features each, flat: numbers, or level indices whose squared
/// distances are summed in 16-bit whole numbers, which the searches use only where every
/// squared distance of the space is below 2^16 ([`Rows::levels_fit`]). The kernel's value at a
/// distance is the same from either: a sum of squares of level indices is exact in `f64`.
#[derive(Clone)]
pub(crate) enum Rows {
    Numbers(Vec<f64>),
    Levels(Vec<u16>),
}

impl Rows {
    /// Whether every squared distance between level indices of a space of these radixes is
    /// below 2^16 (their largest, the sum over the parameters of (levels - 1)^2), so that
    /// [`Rows::Levels`] sums them exactly.
    pub(crate) fn levels_fit(radix: &[usize]) -> bool {
        radix
            .iter()
            .map(|&r| r.saturating_sub(1).saturating_pow(2))
            .fold(0usize, usize::saturating_add)
            < 1 << 16
    }

    /// The rows as numbers (level indices as they are).
    fn numbers(&self) -> Cow<'_, [f64]> {
        match self {
            Rows::Numbers(x) => Cow::Borrowed(x),
            Rows::Levels(x) => x.iter().map(|&l| f64::from(l)).collect(),
        }
    }
}

/// Queries as [`Rows`], borrowed: `c` rows of `p` features each, flat.
#[derive(Clone, Copy)]
pub(crate) enum Queries<'a> {
    Numbers(&'a [f64]),
    Levels(&'a [u16]),
}

/// Sets `k` (`n x c`, row-major) to the kernel between each of the `n` rows `x` and each of
/// the `c` queries `qs` (`p` features each; `shape` is (n, p, c)): the squared distances
/// summed feature by feature in order, as one pair at a time would sum them, along the
/// queries transposed in `dist`'s buffers (in vector instructions), and the kernel's value at
/// each from `memo` (whole distances of level rows through its direct table, others by their
/// bits), so every value is `kernel`'s at that distance, bit for bit. Every entry of `k` is
/// written: a buffer kept from call to call needs no zeroing.
#[inline]
pub(super) fn kernel_values_into(
    x: &Rows,
    qs: Queries,
    shape: (usize, usize, usize),
    dist: &mut Distances,
    memo: &mut KernelMemo,
    kernel: impl Fn(f64) -> f64 + Copy,
    k: &mut Vec<f64>,
) {
    let (n, p, c) = shape;
    k.resize(n * c, 0.0);
    match (x, qs) {
        (Rows::Levels(x), Queries::Levels(qs)) => {
            transpose_into(qs, p, c, &mut dist.t16);
            dist.d16.resize(n * c, 0);
            columns::whole_squared_distances_into(x, p, &dist.t16, c, &mut dist.d16);
            for (v, &d) in k.iter_mut().zip(&dist.d16) {
                *v = memo.get_whole(usize::from(d), kernel);
            }
        }
        (x, qs) => {
            // Numbers, or rows and queries of different kinds (which the searches never pass)
            // as numbers.
            let (x, qs) = (x.numbers(), qs.numbers());
            transpose_into(&qs, p, c, &mut dist.t);
            columns::squared_distances_into(&x, p, &dist.t, c, k);
            for d in k.iter_mut() {
                *d = memo.get(*d, kernel);
            }
        }
    }
}

/// Sets `d16` (`n x c`, row-major) to the squared distances between each of the `n` rows of
/// level indices `x` and each of the `c` queries `qs` (`p` each), in the vector loops of the
/// kernel columns, through `t16` (the queries transposed); exact where [`Rows::levels_fit`].
pub(crate) fn level_distances_into(
    (x, qs): (&[u16], &[u16]),
    (n, p, c): (usize, usize, usize),
    t16: &mut Vec<u16>,
    d16: &mut Vec<u16>,
) {
    transpose_into(qs, p, c, t16);
    d16.resize(n * c, 0);
    columns::whole_squared_distances_into(x, p, t16, c, d16);
}

/// The squared distances between every two of the `n` rows of `x` (`p` features each),
/// `n x n` row-major, each summed feature by feature in order, as one pair at a time would
/// sum it (the vectorised loops of the queries' kernel columns, the rows as their own
/// queries).
pub(crate) fn pairwise_squared_distances(x: &Rows, p: usize, n: usize) -> Vec<f64> {
    let mut d2 = Vec::new();
    pairwise_into(x, p, n, &mut Distances::default(), &mut d2);
    d2
}

/// [`pairwise_squared_distances`] into `d2`, through the buffers of `dist` (kept from call to
/// call: every entry is written, so their old values need no zeroing).
pub(super) fn pairwise_into(x: &Rows, p: usize, n: usize, dist: &mut Distances, d2: &mut Vec<f64>) {
    d2.resize(n * n, 0.0);
    match x {
        Rows::Levels(x) => {
            transpose_into(x, p, n, &mut dist.t16);
            dist.d16.resize(n * n, 0);
            columns::whole_squared_distances_into(x, p, &dist.t16, n, &mut dist.d16);
            for (d, &w) in d2.iter_mut().zip(&dist.d16) {
                *d = f64::from(w);
            }
        }
        Rows::Numbers(x) => {
            transpose_into(x, p, n, &mut dist.t);
            columns::squared_distances_into(x, p, &dist.t[..p * n], n, &mut d2[..n * n]);
        }
    }
}

/// Sets `t` to the `m` rows of `rows` (`p` features each) feature by feature: feature `j` of
/// every row, then feature `j + 1` (every entry is written: a buffer kept from call to call
/// needs no zeroing).
fn transpose_into<T: Copy + Default>(rows: &[T], p: usize, m: usize, t: &mut Vec<T>) {
    t.resize(p * m, T::default());
    for (i, row) in rows.chunks_exact(p.max(1)).take(m).enumerate() {
        for (j, &v) in row.iter().enumerate() {
            t[j * m + i] = v;
        }
    }
}

/// The buffers of the squared distances' loops: the queries (or rows) transposed, as numbers
/// or as level indices, and the whole distances before they become kernel values.
#[derive(Default)]
pub(super) struct Distances {
    t: Vec<f64>,
    t16: Vec<u16>,
    d16: Vec<u16>,
}

impl Queries<'_> {
    /// The queries as numbers (level indices as they are).
    fn numbers(&self) -> Cow<'_, [f64]> {
        match *self {
            Queries::Numbers(q) => Cow::Borrowed(q),
            Queries::Levels(q) => q.iter().map(|&l| f64::from(l)).collect(),
        }
    }
}
