//! A tuning tool's recorded time of one configuration: a positive time, or a failure the tool
//! marks as one. Anything else (`0.05 ms`, `abc`, `-0.5`, 0) is an error for the reader to
//! report with its file and line: read as a failure, it would take a configuration out of the
//! space unseen and could move the optimum every search is scored against.

/// What a recorded time says.
#[derive(Debug, Clone, PartialEq)]
pub enum RecordedTime {
    /// Milliseconds, positive and finite.
    Ms(f64),
    /// A failed configuration, with the tool's mark (`CompilationFailedConfig`, `nan`).
    Failed(String),
}

impl RecordedTime {
    /// The time and the failure as a configuration keeps them.
    pub fn split(self) -> (Option<f64>, Option<String>) {
        match self {
            RecordedTime::Ms(t) => (Some(t), None),
            RecordedTime::Failed(f) => (None, Some(f)),
        }
    }
}

/// The failure marks a time may be instead of a number, as words they contain (Kernel
/// Tuner's `CompilationFailedConfig`, `RuntimeFailedConfig`, `InvalidConfig`; KTT's
/// `CompilationFailed`, `ValidationFailed`; a user's `failed`, `error`, `timeout`).
const FAILURE_WORDS: [&str; 5] = ["fail", "error", "invalid", "timeout", "crash"];

/// What the errors say a time may be.
pub const EXPECTED: &str = "a positive number, or a failure mark (empty, nan, inf, or a word \
                            such as CompilationFailedConfig, failed, error or timeout)";

/// Whether `text` marks a failure in words.
fn is_failure_mark(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    FAILURE_WORDS.iter().any(|w| lower.contains(w))
}

/// A number the tool recorded, times `scale` into milliseconds. NaN and infinity mark a
/// failure (a CSV's `nan`, `inf`); 0 and negative numbers are errors.
pub fn from_number(x: f64, scale: f64) -> Result<RecordedTime, String> {
    if x.is_nan() || x.is_infinite() {
        Ok(RecordedTime::Failed(format!("{x}")))
    } else if x > 0.0 {
        let ms = x * scale;
        // A time that no number of milliseconds holds (1e307 seconds, 1e-320 microseconds)
        // would become infinity (a failure) or 0 (an error later) without a word.
        if ms.is_finite() && ms >= f64::MIN_POSITIVE {
            Ok(RecordedTime::Ms(ms))
        } else {
            // 1e-320 written out in full would be 330 digits.
            Err(format!(
                "time {x:e} is out of the range of times in milliseconds: a time is {EXPECTED}"
            ))
        }
    } else {
        Err(format!("time {x} is not positive: a time is {EXPECTED}"))
    }
}

/// A time cell of text (a CSV's), times `scale` into milliseconds: empty is a failure
/// without a mark ("no time").
pub fn from_text(cell: &str, scale: f64) -> Result<RecordedTime, String> {
    let cell = cell.trim();
    if cell.is_empty() {
        return Ok(RecordedTime::Failed("no time".into()));
    }
    match cell.parse::<f64>() {
        // A number too large for a float (`1e309`) reads as infinity: it is not the
        // failure mark `inf`.
        Ok(x) if x.is_infinite() && !cell.to_ascii_lowercase().contains("inf") => Err(format!(
            "time `{cell}` is too large for a number: a time is {EXPECTED}"
        )),
        Ok(x) => match from_number(x, scale) {
            Ok(RecordedTime::Failed(_)) => Ok(RecordedTime::Failed(cell.to_string())),
            Ok(ms) => Ok(ms),
            Err(_) if x > 0.0 => Err(format!(
                "time `{cell}` is out of the range of times in milliseconds: a time is \
                 {EXPECTED}"
            )),
            Err(_) => Err(format!(
                "time `{cell}` is not positive: a time is {EXPECTED}"
            )),
        },
        Err(_) if is_failure_mark(cell) => Ok(RecordedTime::Failed(cell.to_string())),
        Err(_) => Err(format!("time `{cell}` is not {EXPECTED}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_failures_and_errors() {
        assert_eq!(from_text("2.5", 1e-3), Ok(RecordedTime::Ms(2.5e-3)));
        for (cell, mark) in [
            ("CompilationFailedConfig", "CompilationFailedConfig"),
            (" ", "no time"),
            ("NaN", "NaN"),
            ("-inf", "-inf"),
            ("timeout", "timeout"),
        ] {
            assert_eq!(
                from_text(cell, 1.0),
                Ok(RecordedTime::Failed(mark.into())),
                "{cell:?}"
            );
        }
        for bad in ["0.05 ms", "abc", "-0.5", "0"] {
            let e = from_text(bad, 1.0).unwrap_err();
            assert!(e.contains("failure mark"), "{bad}: {e}");
        }
        assert!(from_number(0.0, 1.0).is_err());
        assert_eq!(from_number(3.0, 2.0), Ok(RecordedTime::Ms(6.0)));
    }

    /// A number too large for a float is not the failure mark `inf`, and a time that scaling
    /// into milliseconds makes infinite or 0 is refused, not turned into a failure or a zero.
    #[test]
    fn times_out_of_range_are_errors() {
        let e = from_text("1e309", 1.0).unwrap_err();
        assert!(e.contains("too large"), "{e}");
        assert_eq!(
            from_text("Infinity", 1.0),
            Ok(RecordedTime::Failed("Infinity".into()))
        );
        assert!(from_number(1e307, 1e3)
            .unwrap_err()
            .contains("out of the range"));
        assert!(from_text("1e-310", 1e-3)
            .unwrap_err()
            .contains("out of the range"));
        assert_eq!(from_number(1e-300, 1.0), Ok(RecordedTime::Ms(1e-300)));
    }
}
