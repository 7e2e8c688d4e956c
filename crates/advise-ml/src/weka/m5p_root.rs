//! Lower bounds on fifth roots without `pow`, for the bounds M5P's split search compares
//! against its floor (m5p_bound.rs, m5p_screen.rs): a table of roots of 256 mantissa steps in
//! each of five octaves, scaled by the exponent's fifth.

/// [`root_lane`] on four lanes.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub(super) fn root4(
    v: std::arch::x86_64::__m256d,
    table: &[f64; TABLE_LEN],
) -> std::arch::x86_64::__m256d {
    use std::arch::x86_64::*;
    let bits = _mm256_castpd_si256(v);
    let biased = _mm256_and_si256(_mm256_srli_epi64::<52>(bits), _mm256_set1_epi64x(0x7ff));
    let root = root4_normal(v, table);
    let zero = _mm256_setzero_si256();
    let not_normal = _mm256_or_si256(
        _mm256_or_si256(
            _mm256_cmpeq_epi64(biased, zero),
            _mm256_cmpeq_epi64(biased, _mm256_set1_epi64x(0x7ff)),
        ),
        _mm256_cmpgt_epi64(zero, bits),
    );
    let root = _mm256_blendv_pd(
        root,
        _mm256_set1_pd(f64::NAN),
        _mm256_castsi256_pd(not_normal),
    );
    let is_zero = _mm256_cmpeq_epi64(_mm256_slli_epi64::<1>(bits), zero);
    _mm256_blendv_pd(root, _mm256_setzero_pd(), _mm256_castsi256_pd(is_zero))
}

/// [`root4`] for lanes that are +0, positive or +infinity (never negative or NaN): at most
/// the root in every lane, 0 for zero and subnormals, a finite number for infinity.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub(super) fn root4_nonnegative(
    v: std::arch::x86_64::__m256d,
    table: &[f64; TABLE_LEN],
) -> std::arch::x86_64::__m256d {
    use std::arch::x86_64::*;
    let tiny = _mm256_cmp_pd::<_CMP_LT_OQ>(v, _mm256_set1_pd(f64::MIN_POSITIVE));
    _mm256_andnot_pd(tiny, root4_normal(v, table))
}

/// [`root_lane`]'s table bound for positive normal lanes (other lanes: some number).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn root4_normal(
    v: std::arch::x86_64::__m256d,
    table: &[f64; TABLE_LEN],
) -> std::arch::x86_64::__m256d {
    use std::arch::x86_64::*;
    let bits = _mm256_castpd_si256(v);
    let biased = _mm256_and_si256(_mm256_srli_epi64::<52>(bits), _mm256_set1_epi64x(0x7ff));
    let shifted = _mm256_add_epi64(biased, _mm256_set1_epi64x(2));
    let q5 = _mm256_srli_epi64::<18>(_mm256_mul_epu32(shifted, _mm256_set1_epi64x(52429)));
    let r = _mm256_sub_epi64(shifted, _mm256_add_epi64(_mm256_slli_epi64::<2>(q5), q5));
    let k = _mm256_and_si256(_mm256_srli_epi64::<44>(bits), _mm256_set1_epi64x(0xff));
    let index = _mm256_and_si256(
        _mm256_or_si256(_mm256_slli_epi64::<8>(r), k),
        _mm256_set1_epi64x(TABLE_LEN as i64 - 1),
    );
    // SAFETY: every index is masked below the table's length.
    let t = unsafe { _mm256_i64gather_pd::<8>(table.as_ptr(), index) };
    let scale = _mm256_castsi256_pd(_mm256_slli_epi64::<52>(_mm256_add_epi64(
        q5,
        _mm256_set1_epi64x(1023 - 205),
    )));
    _mm256_mul_pd(scale, t)
}

/// Entries of the root table: (2^r (1 + k/256))^(1/5) at r * 256 + k, padded to a power of
/// two so that a masked index needs no bounds check.
pub(super) const TABLE_LEN: usize = 2048;

pub(super) fn root_table() -> &'static [f64; TABLE_LEN] {
    static TABLE: std::sync::OnceLock<Box<[f64; TABLE_LEN]>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = Box::new([f64::NAN; TABLE_LEN]);
        for r in 0..5 {
            for k in 0..256 {
                t[r * 256 + k] =
                    ((1u32 << r) as f64 * (1.0 + k as f64 / 256.0)).powf(0.2) * (1.0 - 1e-14);
            }
        }
        t
    })
}

/// A number at most the platform's `v.powf(0.2)` (glibc's `pow`, within one ulp of the exact
/// root) and within 0.08% of it; zero for zero, NaN for anything else that is not a
/// positive normal number. With v = m 2^e, m in [1, 2), e = 5q + r: v^(1/5) = 2^q (m 2^r)^(1/5), and m is at least
/// 1 + k/256 for its top eight bits k, so a table of (2^r (1 + k/256))^(1/5), each lowered by
/// 1e-14 of itself (more than `pow`'s one ulp and the table's own rounding), bounds the root
/// from below, the scaling by 2^q being exact. Written without branches or integer division, for one lane of a vector loop.
#[inline(always)]
pub(super) fn root_lane(v: f64, table: &[f64; TABLE_LEN]) -> f64 {
    let bits = v.to_bits();
    // 32-bit lanes where the values fit (AVX2 has no 64-bit multiply).
    let biased = ((bits >> 52) & 0x7ff) as u32;
    // e = biased - 1023 = 5q + r with r in 0..5; e + 1025 = biased + 2 >= 0 is a multiple of
    // five more than e, and 52429 / 2^18 divides by five exactly below 2^14.
    let shifted = biased + 2;
    let q5 = (shifted * 52429) >> 18;
    let r = shifted - 5 * q5;
    let k = ((bits >> 44) & 0xff) as u32;
    // 2^q with q = q5 - 205.
    let scale = f64::from_bits(u64::from(q5 + 1023 - 205) << 52);
    let root = scale * table[((r << 8) | k) as usize & (TABLE_LEN - 1)];
    let normal = biased != 0 && biased != 0x7ff && bits >> 63 == 0;
    let root = if normal { root } else { f64::NAN };
    if bits << 1 == 0 {
        0.0
    } else {
        root
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fifth_root_below(v: f64) -> Option<f64> {
        let root = root_lane(v, root_table());
        (!root.is_nan()).then_some(root)
    }

    #[test]
    fn fifth_root_bound_is_below_pow_and_close() {
        let mut rng = crate::rng::JavaRandom::new(7);
        let mut checked = 0;
        for _ in 0..200_000 {
            // Values over the whole normal range, and near powers of two.
            let e = (rng.next_double() * 2000.0 - 1000.0).round() as i32;
            let v = (1.0 + rng.next_double()) * 2f64.powi(e);
            let p = v.powf(0.2);
            if let Some(lo) = fifth_root_below(v) {
                assert!(lo <= p, "{v}: {lo} > {p}");
                assert!(lo >= p * (1.0 - 1e-3), "{v}: {lo} far below {p}");
                checked += 1;
            }
        }
        assert_eq!(checked, 200_000);
        // The tightest cases: the table's own bracket starts, for every residue of e mod 5.
        for e in -12..=12 {
            for k in 0..256 {
                let v = 2f64.powi(e) * (1.0 + k as f64 / 256.0);
                let lo = fifth_root_below(v).expect("a normal number");
                assert!(lo <= v.powf(0.2), "{v}");
            }
        }
        assert_eq!(fifth_root_below(0.0), Some(0.0));
        assert_eq!(fifth_root_below(-0.0), Some(0.0));
        for v in [f64::NAN, f64::INFINITY, -1.0, f64::MIN_POSITIVE / 4.0] {
            assert_eq!(fifth_root_below(v), None, "{v}");
        }
        // Every exponent, at both ends of the normal range included.
        for biased in 1..0x7ff_u64 {
            let v = f64::from_bits(biased << 52);
            let lo = fifth_root_below(v).expect("a normal number");
            assert!(lo <= v.powf(0.2) && lo >= v.powf(0.2) * (1.0 - 1e-3), "{v}");
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn nonnegative_vector_roots_stay_at_or_below_pow() {
        use std::arch::x86_64::*;
        if !std::arch::is_x86_feature_detected!("avx2") {
            return;
        }
        let mut rng = crate::rng::JavaRandom::new(13);
        let mut vals: Vec<f64> = (0..4001)
            .map(|_| {
                (1.0 + rng.next_double()) * 2f64.powi((rng.next_double() * 2100.0) as i32 - 1075)
            })
            .collect();
        vals.extend([
            0.0,
            f64::MIN_POSITIVE / 3.0,
            5e-324,
            f64::MAX,
            f64::INFINITY,
            1.0,
            32.0,
        ]);
        assert_eq!(vals.len() % 4, 0);
        for chunk in vals.chunks_exact(4) {
            let mut out = [0.0; 4];
            // SAFETY: the CPU has AVX2 (checked above); both arrays hold four values.
            unsafe {
                let r = root4_nonnegative(_mm256_loadu_pd(chunk.as_ptr()), root_table());
                _mm256_storeu_pd(out.as_mut_ptr(), r);
            }
            for (&v, &r) in chunk.iter().zip(&out) {
                let p = v.powf(0.2);
                assert!(r.is_finite() && r <= p, "{v}: {r} > {p}");
                if v >= f64::MIN_POSITIVE && v.is_finite() {
                    assert!(r >= p * (1.0 - 1e-3), "{v}: {r} far below {p}");
                }
            }
        }
    }
}
