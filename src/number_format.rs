//! How advise writes numbers for people: significant digits rather than fixed decimals, so
//! that 1.0234 and 0.000123 both keep what matters. Tables, reports and the suggestions'
//! reasons use it alike.

/// A number with `digits` significant digits, without exponent for ordinary magnitudes.
pub fn fmt_sig(v: f64, digits: usize) -> String {
    if v == 0.0 || !v.is_finite() {
        return format!("{v}");
    }
    let mag = v.abs().log10().floor() as i32;
    if !(-4..=12).contains(&mag) {
        return format!("{:.*e}", digits.saturating_sub(1), v);
    }
    let decimals = (digits as i32 - 1 - mag).max(0) as usize;
    format!("{v:.decimals$}")
}

/// A p-value for a reader: three decimals, and "< 0.001" below that (not "0.000", which
/// reads as impossible).
/// "p = 0.123", or "p < 0.001" (`fmt_p`), for a sentence.
pub fn p_is(p: f64) -> String {
    if p < 0.001 {
        "p < 0.001".to_string()
    } else {
        format!("p = {p:.3}")
    }
}

pub fn fmt_p(p: f64) -> String {
    if p < 0.001 {
        "< 0.001".to_string()
    } else {
        format!("{p:.3}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_p_values_are_bounded_not_zero() {
        assert_eq!(fmt_p(0.0), "< 0.001");
        assert_eq!(fmt_p(0.0004), "< 0.001");
        assert_eq!(fmt_p(0.0421), "0.042");
        assert_eq!(fmt_p(1.0), "1.000");
    }

    #[test]
    fn keeps_significant_digits() {
        assert_eq!(fmt_sig(1.02345, 3), "1.02");
        assert_eq!(fmt_sig(0.000123456, 2), "0.00012");
        assert_eq!(fmt_sig(123456.0, 3), "123456");
        assert_eq!(fmt_sig(0.0, 3), "0");
        assert_eq!(fmt_sig(1.5e20, 2), "1.5e20");
    }
}
