//! A search's budget: a share of the space or a number of evaluations.

use crate::error::{Error, Result};

/// A budget as a share of the space (`2%`) or a number of evaluations (`100`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Budget {
    Share(f64),
    Count(usize),
}

impl Budget {
    /// Parses `2%`, `0.5%` or `100`.
    pub fn parse(text: &str) -> Result<Budget> {
        let t = text.trim();
        let bad = || {
            Error::Usage(format!(
                "budget `{t}`: expected a percentage (2%) or a count"
            ))
        };
        if let Some(p) = t.strip_suffix('%') {
            let v: f64 = p.trim().parse().map_err(|_| bad())?;
            if !(v > 0.0 && v <= 100.0) {
                return Err(Error::Usage(format!(
                    "budget `{t}`: a share of the space must be above 0% and at most 100%"
                )));
            }
            Ok(Budget::Share(v / 100.0))
        } else {
            t.parse::<usize>().map(Budget::Count).map_err(|_| bad())
        }
    }

    /// Parses a comma-separated list (`1%,2%,100`), each budget once, in the order first named.
    pub fn parse_list(text: &str) -> Result<Vec<Budget>> {
        let mut budgets: Vec<Budget> = Vec::new();
        for b in text.split(',').filter(|b| !b.trim().is_empty()) {
            let b = Budget::parse(b)?;
            if !budgets.contains(&b) {
                budgets.push(b);
            }
        }
        Ok(budgets)
    }

    /// Evaluations on a space of `n` configurations (a share rounds up).
    pub fn evaluations(self, n: usize) -> usize {
        match self {
            Budget::Share(s) => ((s * n as f64).ceil() as usize).max(1),
            Budget::Count(c) => c,
        }
    }

    pub fn label(self) -> String {
        match self {
            Budget::Share(s) => format!("{}%", (s * 100.0 * 1000.0).round() / 1000.0),
            Budget::Count(c) => c.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_parse_count_and_label() {
        assert_eq!(Budget::parse("2%").unwrap().evaluations(17956), 360);
        assert_eq!(Budget::parse("50").unwrap(), Budget::Count(50));
        assert_eq!(Budget::parse("2%").unwrap().label(), "2%");
        assert!(Budget::parse("x").is_err());
        for share in ["0%", "150%", "-1%"] {
            let e = Budget::parse(share).unwrap_err().to_string();
            assert!(e.contains("above 0% and at most 100%"), "{e}");
        }
        assert_eq!(
            Budget::parse_list("1%, 50,,1%,2%").unwrap(),
            [Budget::Share(0.01), Budget::Count(50), Budget::Share(0.02)]
        );
        assert!(Budget::parse_list("1%,x").is_err());
    }
}
