//! Helpers shared by the prediction-identity tests.

#[allow(dead_code)]
pub mod weka_cases;

/// FNV-1a over the predictions' bit patterns.
pub fn hash(values: &[f64]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for v in values {
        for b in v.to_bits().to_le_bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}
