//! Numbers and units as profilers print them, and what kind of quantity a metric is.
//!
//! ncu prints numbers with thousands separators (`"4,102"`) under `--print-units dynamic` (the
//! default) scales units (`Kbyte`, `usecond`, `Ghz`); nvprof glues units to its values
//! (`12.5GB/s`, `45.3%`, `100B`). Every value is brought to one base unit per dimension so that
//! files written with different settings or tools agree. Byte prefixes are decimal (K = 1000), as
//! ncu documents for its SI units.

use serde::{Deserialize, Serialize};

/// A parsed metric value in its base unit.
#[derive(Debug, Clone, PartialEq)]
pub struct Quantity {
    pub value: f64,
    pub unit: String,
}

/// Parses a value cell. `unit` is the unit column's text (empty where the tool glues units to
/// values). Returns `None` for cells that hold no number: `n/a`, empty, `nan`, or text such as
/// `CachePreferNone` or nvprof's `Idle (0)` levels (for those the level number is returned).
/// Text glued to a number must be a unit this module knows (`%`, bytes, seconds, hertz, cycles,
/// instructions and their rates), and only where there is no unit column: `12abc`, `0x10` or
/// `3 byte` beside a unit column are not numbers, and are counted as cells without one rather
/// than cut to their leading digits.
pub fn parse_quantity(cell: &str, unit: &str) -> Option<Quantity> {
    let cell = cell.trim();
    if cell.is_empty() || cell.eq_ignore_ascii_case("n/a") {
        return None;
    }
    if let Some(level) = utilization_level(cell) {
        return Some(Quantity {
            value: level,
            unit: String::new(),
        });
    }
    let (number, glued) = split_number(cell)?;
    let glued_ok = glued.is_empty() || unit.trim().is_empty() && is_known_unit(glued);
    if !glued_ok {
        return None;
    }
    let unit = if unit.trim().is_empty() {
        glued
    } else {
        unit.trim()
    };
    let (exp10, base) = base_unit(unit);
    let value = scale10(number, exp10);
    value.is_finite().then(|| Quantity {
        value,
        unit: base.to_string(),
    })
}

/// nvprof prints utilization metrics as levels: `Idle (0)`, `Low (1)`, ..., `Max (10)`.
fn utilization_level(cell: &str) -> Option<f64> {
    let open = cell.find('(')?;
    let inner = cell[open + 1..].strip_suffix(')')?;
    let word = cell[..open].trim();
    let known = ["Idle", "Low", "Mid", "High", "Max"];
    if known.contains(&word) {
        inner.trim().parse().ok()
    } else {
        None
    }
}

/// Splits `12,345.6GB/s` into (12345.6, "GB/s"). Thousands separators are accepted only in
/// groups of three digits, so `1,2` is not a number.
fn split_number(cell: &str) -> Option<(f64, &str)> {
    let end = cell
        .char_indices()
        .find(|&(_, c)| !(c.is_ascii_digit() || matches!(c, '.' | ',' | '-' | '+' | 'e' | 'E')))
        .map(|(i, _)| i)
        .unwrap_or(cell.len());
    // `e` may start a unit (never in practice) but must be followed by a digit to be an exponent.
    let (mut num, mut rest) = cell.split_at(end);
    if let Some(pos) = num.find(['e', 'E']) {
        let exp = &num[pos + 1..];
        if exp.is_empty() || exp == "-" || exp == "+" {
            rest = &cell[pos..];
            num = &cell[..pos];
        }
    }
    let plain = if num.contains(',') {
        let int_part = num.split(['.', 'e', 'E']).next().unwrap_or("");
        let groups: Vec<&str> = int_part.trim_start_matches(['-', '+']).split(',').collect();
        let ok = !groups[0].is_empty()
            && groups[0].len() <= 3
            && groups[1..].iter().all(|g| g.len() == 3);
        if !ok {
            return None;
        }
        num.replace(',', "")
    } else {
        num.to_string()
    };
    let value: f64 = plain.parse().ok()?;
    let rest = rest.trim();
    // Anything after the unit (e.g. `12 foo bar`) means this is text, not a number.
    if rest.contains(char::is_whitespace) {
        return None;
    }
    Some((value, rest))
}

/// `value` times ten to the `exp10`, dividing for negative powers so that results such as
/// 3 us = 3e-6 s are correctly rounded.
pub fn scale10(value: f64, exp10: i32) -> f64 {
    let p = 10f64.powi(exp10.abs());
    if exp10 >= 0 {
        value * p
    } else {
        value / p
    }
}

/// The power of ten to the base unit and the base unit's name.
pub fn base_unit(unit: &str) -> (i32, &str) {
    let lower = unit.to_ascii_lowercase();
    if let Some((num, den)) = lower.split_once('/') {
        // Rates: scale numerator and denominator separately (MB/s, Gbyte/second, cycle/nsecond).
        let (fnum, bnum) = simple_base(num);
        let (fden, bden) = simple_base(den);
        let base = match (bnum, bden) {
            ("byte", "second") => "byte/second",
            ("cycle", "second") => "cycle/second",
            ("inst", "cycle") => "inst/cycle",
            _ => return (0, unit),
        };
        return (fnum - fden, base);
    }
    match simple_base(&lower) {
        (_, "") => (0, unit),
        (f, b) => (f, b),
    }
}

/// Whether `unit` (as glued to a value) is a unit `base_unit` converts: `%`, or bytes, seconds,
/// hertz, cycles or instructions, alone or as a rate of two of them.
fn is_known_unit(unit: &str) -> bool {
    let lower = unit.to_ascii_lowercase();
    if lower == "%" {
        return true;
    }
    match lower.split_once('/') {
        Some((num, den)) => !simple_base(num).1.is_empty() && !simple_base(den).1.is_empty(),
        None => !simple_base(&lower).1.is_empty(),
    }
}

/// Base of a unit without `/`: bytes, seconds, hertz, cycles, instructions. Returns (0, "")
/// when the unit is not one of these.
fn simple_base(u: &str) -> (i32, &'static str) {
    const BYTES: [(&str, i32); 10] = [
        ("byte", 0),
        ("b", 0),
        ("kbyte", 3),
        ("kb", 3),
        ("mbyte", 6),
        ("mb", 6),
        ("gbyte", 9),
        ("gb", 9),
        ("tbyte", 12),
        ("tb", 12),
    ];
    const SECONDS: [(&str, i32); 8] = [
        ("nsecond", -9),
        ("ns", -9),
        ("usecond", -6),
        ("us", -6),
        ("msecond", -3),
        ("ms", -3),
        ("second", 0),
        ("s", 0),
    ];
    const HERTZ: [(&str, i32); 4] = [("hz", 0), ("khz", 3), ("mhz", 6), ("ghz", 9)];
    if let Some(&(_, f)) = BYTES.iter().find(|(n, _)| *n == u) {
        return (f, "byte");
    }
    if let Some(&(_, f)) = SECONDS.iter().find(|(n, _)| *n == u) {
        return (f, "second");
    }
    if let Some(&(_, f)) = HERTZ.iter().find(|(n, _)| *n == u) {
        return (f, "hz");
    }
    match u {
        "cycle" | "cycles" => (0, "cycle"),
        "inst" => (0, "inst"),
        _ => (0, ""),
    }
}

/// Whether a metric counts something (and so grows with the work done) or is a rate, ratio or
/// setting. Counts are summed over kernel launches and divided by active cycles; the others are
/// averaged and left as they are (docs/ARCHITECTURE.md, "Data model").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MetricKind {
    Count,
    Intensive,
}

impl MetricKind {
    /// Decides from the unit first, then from the metric's name. nvprof events carry no unit and
    /// are all counts, so the nvprof reader passes `is_event`.
    pub fn classify(metric: &str, unit: &str, is_event: bool) -> MetricKind {
        let unit = unit.trim().to_ascii_lowercase();
        let name = metric.to_ascii_lowercase();
        if unit == "%" || unit.contains('/') || unit == "hz" || is_ratio_name(&name) {
            return MetricKind::Intensive;
        }
        if is_event {
            return MetricKind::Count;
        }
        const COUNT_UNITS: [&str; 13] = [
            "inst",
            "byte",
            "sector",
            "request",
            "cycle",
            "warp",
            "thread",
            "block",
            "transaction",
            "wavefront",
            "instruction",
            "second",
            "nsecond",
        ];
        if COUNT_UNITS.contains(&unit.as_str()) {
            return MetricKind::Count;
        }
        if name.ends_with(".sum") || crate::profile::metric_map::nvprof_is_count(&name) {
            return MetricKind::Count;
        }
        MetricKind::Intensive
    }
}

fn is_ratio_name(name: &str) -> bool {
    [
        "pct",
        "ratio",
        "per_second",
        "per_cycle",
        "per_request",
        "per_warp",
        "efficiency",
        "utilization",
        "occupancy",
        "ipc",
        "_rate",
        "throughput",
        "registers_per_thread",
        "block_size",
        "grid_size",
        // Details-page settings and averages whose unit looks like a count (warp, block).
        "limit",
        "theoretical",
        "achieved",
        "per sm",
        "waves",
        "per_multiprocessor",
        "per_block",
    ]
    .iter()
    .any(|k| name.contains(k))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(cell: &str, unit: &str) -> Option<(f64, String)> {
        parse_quantity(cell, unit).map(|q| (q.value, q.unit))
    }

    #[test]
    fn thousands_separators_and_units() {
        assert_eq!(q("4,102", "sector"), Some((4102.0, "sector".into())));
        assert_eq!(q("1,234,567.5", ""), Some((1234567.5, "".into())));
        assert_eq!(q("1,2", ""), None);
        assert_eq!(q("2.5", "Kbyte"), Some((2500.0, "byte".into())));
        assert_eq!(q("3", "usecond"), Some((3e-6, "second".into())));
        assert_eq!(q("1.5", "Ghz"), Some((1.5e9, "hz".into())));
        assert_eq!(q("2", "cycle/nsecond"), Some((2e9, "cycle/second".into())));
    }

    #[test]
    fn nvprof_glued_units() {
        assert_eq!(q("12.5GB/s", ""), Some((12.5e9, "byte/second".into())));
        assert_eq!(q("45.30%", ""), Some((45.3, "%".into())));
        assert_eq!(q("100B", ""), Some((100.0, "byte".into())));
        assert_eq!(q("Low (1)", ""), Some((1.0, "".into())));
        assert_eq!(q("1.5e+03", ""), Some((1500.0, "".into())));
    }

    #[test]
    fn non_numbers_are_none() {
        for cell in [
            "n/a",
            "",
            "CachePreferNone",
            "nan",
            "(384, 1, 1)",
            "12 ab cd",
            "12abc",
            "0x10",
            "7-",
        ] {
            assert_eq!(q(cell, ""), None, "{cell}");
        }
        // Beside a unit column nothing may be glued to the number.
        for cell in ["3byte", "45%"] {
            assert_eq!(q(cell, "byte"), None, "{cell}");
        }
    }

    #[test]
    fn glued_units_that_are_known_pass() {
        for cell in [
            "3ms",
            "3 ms",
            "2.5KB",
            "1.2GHz",
            "4cycles",
            "9inst/cycle",
            "7MB/s",
        ] {
            assert!(q(cell, "").is_some(), "{cell}");
        }
    }

    #[test]
    fn kinds() {
        use MetricKind::*;
        assert_eq!(
            MetricKind::classify("sm__cycles_active.sum", "cycle", false),
            Count
        );
        assert_eq!(
            MetricKind::classify("dram__sectors_read.sum", "", false),
            Count
        );
        assert_eq!(
            MetricKind::classify("Memory Throughput", "%", false),
            Intensive
        );
        assert_eq!(
            MetricKind::classify("achieved_occupancy", "", false),
            Intensive
        );
        assert_eq!(MetricKind::classify("inst_executed", "", false), Count);
        assert_eq!(MetricKind::classify("active_cycles", "", true), Count);
        assert_eq!(
            MetricKind::classify(
                "sm__throughput.avg.pct_of_peak_sustained_elapsed",
                "",
                false
            ),
            Intensive
        );
    }
}
