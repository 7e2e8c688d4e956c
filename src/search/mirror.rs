//! The transposed configuration: a GPU kernel's two-dimensional parameters come in x and y
//! pairs (`block_size_x` and `block_size_y`, `tile_size_x` and `tile_size_y`), and a kernel
//! often has a fast region and its mirror image, the same shape turned by a quarter, each a
//! basin of its own: the 2D convolution of Schoonhoven et al.'s benchmarks has its optimum at
//! block 128 x 2, tile 1 x 8 on a GTX Titan X and at block 4 x 32, tile 8 x 1 on a GTX 1080 Ti,
//! and on each GPU the other orientation is a local minimum at 0.89-0.92 of the optimum that
//! no single change leaves. Swapping every pair's values leads from one basin to the other. A
//! matrix multiply's M and N dimensions pair up the same way: from the local minimum at 0.878
//! of the optimum that holds 17% of `auto`'s runs on CLBlast's Xgemm (2048^3) on a GTX Titan X
//! at 2%, the transpose's descent reaches the optimum.

use super::evaluator::{Eval, Evaluator};
use super::space::SearchSpace;

/// The pairs of parameters (first index smaller) whose names differ only in an `x` where the
/// other has a `y` (either case), standing as a word of its own: at the end of the name or
/// before `_` or a digit, and at its start, after `_`, or written in capitals in a name that
/// is not all capitals (`tileX`); or a matrix multiply's M and N pairs ([`is_gemm_mirror`]).
pub(crate) fn mirror_pairs(space: &SearchSpace) -> Vec<(usize, usize)> {
    pairs_where(space, is_mirror)
}

/// The matrix multiply's M and N pairs of [`mirror_pairs`] alone ([`is_gemm_mirror`]).
pub(crate) fn gemm_mirror_pairs(space: &SearchSpace) -> Vec<(usize, usize)> {
    pairs_where(space, is_gemm_mirror)
}

/// The pairs of parameters (first index smaller) whose names `keep` accepts.
fn pairs_where(space: &SearchSpace, keep: impl Fn(&str, &str) -> bool) -> Vec<(usize, usize)> {
    let p = space.params.len();
    (0..p)
        .flat_map(|a| (a + 1..p).map(move |b| (a, b)))
        .filter(|&(a, b)| keep(&space.params[a], &space.params[b]))
        .collect()
}

fn is_mirror(a: &str, b: &str) -> bool {
    if is_gemm_mirror(a, b) {
        return true;
    }
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if a.len() != b.len() {
        return false;
    }
    let mut differ = (0..a.len()).filter(|&i| a[i] != b[i]);
    let (Some(i), None) = (differ.next(), differ.next()) else {
        return false;
    };
    let pair = [a[i].to_ascii_lowercase(), b[i].to_ascii_lowercase()];
    if pair != ['x', 'y'] && pair != ['y', 'x'] {
        return false;
    }
    let ends = a.get(i + 1).is_none_or(|&c| c == '_' || c.is_ascii_digit());
    let all_caps = !a.iter().any(char::is_ascii_lowercase);
    let starts = i == 0 || a[i - 1] == '_' || (a[i].is_ascii_uppercase() && !all_caps);
    ends && starts
}

/// Two names in capitals that differ only where one has `M` and the other `N` (at least once)
/// or one `A` and the other `B`: a matrix multiply's parameters of its M and N dimensions and
/// of its A and B inputs (CLBlast's and CLTune's `MWG` and `NWG`, `MDIMC` and `NDIMC`, `MDIMA`
/// and `NDIMB`, `VWM` and `VWN`, `STRM` and `STRN`). Transposing C = A B gives C' = B' A',
/// the same multiply with M and N, A and B exchanged. Pairs of A and B alone (`SA` and `SB`)
/// are left out.
fn is_gemm_mirror(a: &str, b: &str) -> bool {
    if a.chars().count() != b.chars().count()
        || a.chars().chain(b.chars()).any(|c| c.is_ascii_lowercase())
    {
        return false;
    }
    let mut m_n = false;
    for (x, y) in a.chars().zip(b.chars()) {
        match (x, y) {
            _ if x == y => {}
            ('M', 'N') | ('N', 'M') => m_n = true,
            ('A', 'B') | ('B', 'A') => {}
            _ => return false,
        }
    }
    m_n
}

/// `id` with each pair's values swapped (each value moved to the nearest one the other
/// parameter takes), where the space holds that configuration and it differs from `id`.
pub(crate) fn transposed(
    space: &SearchSpace,
    id: usize,
    pairs: &[(usize, usize)],
) -> Option<usize> {
    if pairs.is_empty() {
        return None;
    }
    let mut levels = space.levels(id).to_vec();
    let nearest = |j: usize, v: f64| {
        let vals = &space.numeric[j];
        (0..vals.len()).min_by(|&x, &y| (vals[x] - v).abs().total_cmp(&(vals[y] - v).abs()))
    };
    for &(a, b) in pairs {
        let (va, vb) = (
            space.numeric[a][levels[a] as usize],
            space.numeric[b][levels[b] as usize],
        );
        levels[a] = nearest(a, vb)? as u16;
        levels[b] = nearest(b, va)? as u16;
    }
    space.find(&levels).filter(|&t| t != id)
}

/// Measures the transpose of `id` where the space holds it and it is not measured yet: the
/// configuration and what measuring it gave, or `None` where there is nothing to measure.
pub(crate) fn measure_transpose(
    ev: &mut Evaluator,
    id: usize,
    pairs: &[(usize, usize)],
) -> Option<(usize, Eval)> {
    let t = transposed(ev.space(), id, pairs).filter(|&t| !ev.is_evaluated(t))?;
    Some((t, ev.evaluate(t)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::import::space::Config;
    use crate::search::testutil::space_of;

    #[test]
    fn names_that_mirror() {
        for (a, b) in [
            ("block_size_x", "block_size_y"),
            ("BLOCK_SIZE_Y", "BLOCK_SIZE_X"),
            ("tileX", "tileY"),
            ("x", "y"),
            ("x_tile", "y_tile"),
            ("tile_x2", "tile_y2"),
            ("MWG", "NWG"),
            ("MDIMA", "NDIMB"),
            ("VWM", "VWN"),
            ("STRM", "STRN"),
        ] {
            assert!(is_mirror(a, b), "{a} {b}");
        }
        for (a, b) in [
            ("max", "may"),
            ("block_size_x", "block_size_z"),
            ("SA", "SB"),
            ("mwg", "nwg"),
            ("MWG", "MWG"),
            ("taxi", "tayi"),
            ("AXB", "AYB"),
            ("block_size_x", "block_size_x"),
        ] {
            assert!(!is_mirror(a, b), "{a} {b}");
        }
    }

    #[test]
    fn the_matrix_multiply_pairs_alone() {
        // Two configurations, so that no parameter is constant (a constant one is dropped).
        let configs = ["1", "2"]
            .map(|v| Config {
                values: vec![v.to_string(); 6],
                time_ms: Some(1.0),
                failure: None,
                counters: Vec::new(),
            })
            .to_vec();
        let names = ["block_size_x", "MWG", "KWG", "block_size_y", "NWG", "VWN"];
        let s = space_of("synthetic", &names, configs);
        assert_eq!(mirror_pairs(&s), [(0, 3), (1, 4)]);
        assert_eq!(gemm_mirror_pairs(&s), [(1, 4)]);
    }

    /// A synthetic space: block sizes x in {2, 4, 8, 16} and y in {1, 2, 4}, a switch.
    fn block_space(drop: &[(u32, u32)]) -> SearchSpace {
        let mut configs = Vec::new();
        for x in [2u32, 4, 8, 16] {
            for y in [1u32, 2, 4] {
                for s in 0..2u32 {
                    if drop.contains(&(x, y)) {
                        continue;
                    }
                    configs.push(Config {
                        values: vec![x.to_string(), y.to_string(), s.to_string()],
                        time_ms: Some(f64::from(x + 10 * y + s)),
                        failure: None,
                        counters: Vec::new(),
                    });
                }
            }
        }
        space_of("synthetic", &["block_size_x", "block_size_y", "s"], configs)
    }

    #[test]
    fn transposing_swaps_each_pair_to_the_nearest_values() {
        let s = block_space(&[]);
        let pairs = mirror_pairs(&s);
        assert_eq!(pairs, [(0, 1)]);
        let at = |x: &str, y: &str, sw: &str| {
            let want = format!("block_size_x={x},block_size_y={y},s={sw}");
            (0..s.len()).find(|&i| s.describe(i) == want).unwrap()
        };
        // (4, 2) -> (2, 4); (16, 1) -> (2, 4): 1 is nearest 2 among x's values, 16 nearest 4.
        assert_eq!(
            transposed(&s, at("4", "2", "1"), &pairs),
            Some(at("2", "4", "1"))
        );
        assert_eq!(
            transposed(&s, at("16", "1", "0"), &pairs),
            Some(at("2", "4", "0"))
        );
        // (2, 2) is its own transpose: none.
        assert_eq!(transposed(&s, at("2", "2", "0"), &pairs), None);
        // A transpose the space lacks: none.
        let s = block_space(&[(2, 4)]);
        let pairs = mirror_pairs(&s);
        let id = (0..s.len())
            .find(|&i| s.describe(i) == "block_size_x=4,block_size_y=2,s=0")
            .unwrap();
        assert_eq!(transposed(&s, id, &pairs), None);
        assert_eq!(transposed(&s, id, &[]), None);
    }
}
