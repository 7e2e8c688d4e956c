//! A program input of the NB and BH variants: the number of bodies and of time steps, the
//! thesis's inputs (its Table 4.2), and the ways users write them (`50000:2`, `1M:10`,
//! `bodies=50000,steps=2`).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::variant::Program;

/// One input: number of bodies and time steps (thesis Table 4.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Input {
    pub bodies: u32,
    pub steps: u32,
}

impl Input {
    pub fn new(bodies: u32, steps: u32) -> Self {
        Input { bodies, steps }
    }

    /// The label used in every table: `bodies=50000,steps=2`.
    pub fn label(self) -> String {
        format!("bodies={},steps={}", self.bodies, self.steps)
    }

    /// The programs' own argument form: `50000:2`.
    pub fn arg(self) -> String {
        format!("{}:{}", self.bodies, self.steps)
    }

    /// Parses a label written by `label`.
    pub fn from_label(s: &str) -> Result<Self> {
        let mut bodies = None;
        let mut steps = None;
        for part in s.split(',') {
            match part.split_once('=') {
                Some(("bodies", v)) => bodies = v.parse().ok(),
                Some(("steps", v)) => steps = v.parse().ok(),
                _ => {}
            }
        }
        match (bodies, steps) {
            (Some(b), Some(s)) => Ok(Input::new(b, s)),
            _ => Err(Error::Usage(format!(
                "`{s}` is not an input label like bodies=50000,steps=2"
            ))),
        }
    }
}

impl fmt::Display for Input {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.label())
    }
}

impl FromStr for Input {
    type Err = Error;
    /// `50000:2`, `50k:2`, `1M:10` or a label `bodies=50000,steps=2`.
    fn from_str(s: &str) -> Result<Self> {
        let s = s.trim();
        if s.contains('=') {
            return Input::from_label(s);
        }
        let bad = || {
            Error::Usage(format!(
                "`{s}` is not an input: expected BODIES:STEPS such as 50000:2 or 1M:10"
            ))
        };
        let (b, st) = s.split_once(':').ok_or_else(bad)?;
        let bodies = parse_count(b).ok_or_else(bad)?;
        let steps: u32 = st.trim().parse().map_err(|_| bad())?;
        if bodies == 0 || steps == 0 {
            return Err(bad());
        }
        Ok(Input::new(bodies, steps))
    }
}

fn parse_count(s: &str) -> Option<u32> {
    let s = s.trim();
    let (num, mult) = match s.chars().last()? {
        'k' | 'K' => (&s[..s.len() - 1], 1_000),
        'm' | 'M' => (&s[..s.len() - 1], 1_000_000),
        _ => (s, 1),
    };
    num.parse::<u32>().ok()?.checked_mul(mult)
}

/// The thesis inputs (Table 4.2).
pub fn thesis_inputs(program: Program) -> Vec<Input> {
    let pairs: &[(u32, u32)] = match program {
        Program::Nb => &[(50_000, 2), (100_000, 2), (100_000, 5), (200_000, 5)],
        Program::Bh => &[
            (125_000, 2),
            (250_000, 2),
            (250_000, 5),
            (500_000, 5),
            (500_000, 10),
            (1_000_000, 10),
        ],
    };
    pairs.iter().map(|&(b, s)| Input::new(b, s)).collect()
}

/// `thesis` or a comma-separated list of inputs.
pub fn parse_inputs(program: Program, arg: &str) -> Result<Vec<Input>> {
    if arg.trim().eq_ignore_ascii_case("thesis") {
        return Ok(thesis_inputs(program));
    }
    let inputs: Vec<Input> = arg
        .split(',')
        .filter(|s| !s.trim().is_empty())
        .map(str::parse)
        .collect::<Result<_>>()?;
    if inputs.is_empty() {
        return Err(Error::Usage("no inputs given".into()));
    }
    let mut seen = std::collections::HashSet::new();
    if let Some(dup) = inputs.iter().find(|i| !seen.insert(**i)) {
        return Err(Error::Usage(format!("input {dup} is listed twice")));
    }
    Ok(inputs)
}
