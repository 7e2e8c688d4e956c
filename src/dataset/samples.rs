//! Speedup samples: for an optimization o, every variant v that lacks it, with v's features
//! and the target T(v) / T(v with o) measured in the same (input, run) (thesis section 5.1).
//!
//! An optimization is a `Switch`: one of the six bits of NB/BH, or, for imported tuning
//! spaces, one parameter changed from one value to another with all else equal.

use std::collections::HashMap;
use std::fmt;
use std::io::Write;

use serde::Serialize;

use super::features::{fmt_opt, FeatureTable};
use super::measurements::RunKey;
use crate::error::{Error, Result};
use crate::number_format::fmt_sig;
use crate::variant::{Optimization, Program, Variant};

mod no_start;
pub use no_start::why_no_start;

/// An optimization as a change of variant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Switch {
    /// One bit of an NB or BH bit string.
    Bit(Program, Optimization),
    /// Parameter `param` changed from `from` to `to` in a `k=v,k=v` assignment.
    Param {
        param: String,
        from: String,
        to: String,
    },
}

impl fmt::Display for Switch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Switch::Bit(_, o) => write!(f, "{o}"),
            Switch::Param { param, from, to } => write!(f, "{param}:{from}->{to}"),
        }
    }
}

impl Switch {
    /// The six bits of a program.
    pub fn bits_of(program: Program) -> Vec<Switch> {
        program
            .optimizations()
            .into_iter()
            .map(|o| Switch::Bit(program, o))
            .collect()
    }

    /// The variant with the switch applied, or `None` when `variant` already has it (or does
    /// not parse as this switch's kind of variant).
    pub fn partner(&self, variant: &str) -> Option<String> {
        match self {
            Switch::Bit(program, opt) => {
                let v = Variant::parse(*program, variant).ok()?;
                if v.has(*opt) {
                    return None;
                }
                let bit = program.bit_of(*opt)?;
                Variant::new(*program, v.bits() | (1 << bit))
                    .ok()
                    .map(|p| p.bit_string())
            }
            Switch::Param { param, from, to } => {
                let mut found = false;
                let parts: Vec<String> = variant
                    .split(',')
                    .map(|kv| match kv.split_once('=') {
                        Some((k, v)) if k.trim() == param && v.trim() == from => {
                            found = true;
                            format!("{}={}", k, to)
                        }
                        _ => kv.to_string(),
                    })
                    .collect();
                found.then(|| parts.join(","))
            }
        }
    }
}

/// One training or test sample for one switch.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SpeedupSample {
    pub switch: String,
    pub key: RunKey,
    /// The partner variant (with the switch applied).
    pub partner: String,
    /// Features of `key`'s variant, in the table's column order.
    pub features: Vec<Option<f64>>,
    /// T(v) / T(partner).
    pub speedup: f64,
    /// The speedup's range over repetitions (slowest v / fastest partner and the reverse),
    /// where both timings record repetitions: a range containing 1.0 is no clear effect.
    pub speedup_range: Option<(f64, f64)>,
    /// The dataset the sample came from, where a merged pool holds two campaigns of its
    /// program and input (two GPUs, or two visits to one): their samples share keys. Empty
    /// otherwise.
    pub campaign: String,
}

impl SpeedupSample {
    /// How reports and validation name the sample: program/input/run/variant, with
    /// `@campaign` where a merged pool needs it to tell two campaigns' samples apart.
    pub fn id(&self) -> String {
        let k = &self.key;
        let id = format!("{}/{}/{}/{}", k.program, k.input, k.run, k.variant);
        if self.campaign.is_empty() {
            id
        } else {
            format!("{id}@{}", self.campaign)
        }
    }
}

#[cfg(test)]
impl SpeedupSample {
    /// A sample of `switch` for a test: `program` and `input` name it, run 1, no variant,
    /// partner or feature.
    pub(crate) fn for_test(switch: &str, program: &str, input: &str, speedup: f64) -> Self {
        SpeedupSample {
            switch: switch.into(),
            key: RunKey {
                program: program.into(),
                input: input.into(),
                run: 1,
                variant: String::new(),
            },
            partner: String::new(),
            features: Vec::new(),
            speedup,
            speedup_range: None,
            campaign: String::new(),
        }
    }
}

/// Samples of one switch and the pairs that could not be formed.
#[derive(Debug, Clone, Default)]
pub struct SampleSet {
    pub columns: Vec<String>,
    pub samples: Vec<SpeedupSample>,
    /// Variants without the switch whose partner or either time is missing.
    pub unpaired: usize,
}

/// An error where a row of NB or BH has a variant that is no bit string of the program's
/// optimizations: [`pair`] would leave it out of every pair unsaid. Callers name the file.
pub fn check_bit_variants(table: &FeatureTable) -> Result<()> {
    for r in &table.rows {
        if let Some((p, parsed)) = bit_variant(&r.key.program, &r.key.variant) {
            parsed.map_err(|e| {
                Error::Data(format!(
                    "program {} input {} run {}: {e} (the tables name {}'s variants by the bit \
                     string of its six optimizations)",
                    r.key.program,
                    r.key.input,
                    r.key.run,
                    p.name()
                ))
            })?;
        }
    }
    Ok(())
}

/// Where the program label `program` names NB or BH (its short name, in any case): that
/// program, and `variant` read as one of its bit strings. `None` for another program, whose
/// variants are any label.
pub fn bit_variant(program: &str, variant: &str) -> Option<(Program, Result<Variant>)> {
    let p = Program::ALL
        .into_iter()
        .find(|p| program.eq_ignore_ascii_case(p.name()))?;
    Some((p, Variant::parse(p, variant)))
}

/// Pairs every row lacking `switch` with its partner in the same program, input and run.
/// Feature tables built per kernel are refused: a speedup is a property of a whole run.
pub fn pair(table: &FeatureTable, switch: &Switch) -> Result<SampleSet> {
    if table.rows.iter().any(|r| r.kernel.is_some()) {
        return Err(Error::Usage(
            "speedup samples need a feature table aggregated per run, not per kernel".into(),
        ));
    }
    let program = match switch {
        Switch::Bit(p, _) => Some(p.name()),
        Switch::Param { .. } => None,
    };
    let index: HashMap<&RunKey, usize> = table
        .rows
        .iter()
        .enumerate()
        .map(|(i, r)| (&r.key, i))
        .collect();
    let mut set = SampleSet {
        columns: table.columns.clone(),
        ..Default::default()
    };
    for row in &table.rows {
        if program.is_some_and(|p| !row.key.program.eq_ignore_ascii_case(p)) {
            continue;
        }
        let Some(partner) = switch.partner(&row.key.variant) else {
            continue;
        };
        let pkey = RunKey {
            variant: partner.clone(),
            ..row.key.clone()
        };
        let other = index.get(&pkey).map(|&i| &table.rows[i]);
        match (row.time_ms, other.and_then(|o| o.time_ms)) {
            (Some(t), Some(tp)) if tp > 0.0 && !(t / tp).is_normal() => {
                return Err(Error::Data(format!(
                    "program {} input {} run {}: variant {} took {t} ms and {partner} {tp} ms, \
                     a speedup of {}: one of the times is damaged (fix or drop its row)",
                    row.key.program,
                    row.key.input,
                    row.key.run,
                    row.key.variant,
                    t / tp,
                    t = fmt_sig(t, 6),
                    tp = fmt_sig(tp, 6),
                )))
            }
            (Some(t), Some(tp)) if tp > 0.0 => set.samples.push(SpeedupSample {
                switch: switch.to_string(),
                key: row.key.clone(),
                partner,
                features: row.values.clone(),
                speedup: t / tp,
                speedup_range: match (row.time_spread, other.and_then(|o| o.time_spread)) {
                    (Some((lo, hi)), Some((plo, phi))) if plo > 0.0 => Some((lo / phi, hi / plo)),
                    _ => None,
                },
                campaign: String::new(),
            }),
            _ => set.unpaired += 1,
        }
    }
    Ok(set)
}

impl SampleSet {
    /// Writes the samples as CSV, key columns first and the target `speedup` last (the column
    /// Weka takes as the class by default).
    pub fn write_csv(&self, out: impl Write) -> Result<()> {
        let mut w = csv::Writer::from_writer(out);
        let err = |e: csv::Error| Error::Internal(format!("cannot write CSV: {e}"));
        let mut header: Vec<&str> = vec!["switch", "program", "input", "run", "variant", "partner"];
        header.extend(self.columns.iter().map(String::as_str));
        header.push("speedup");
        w.write_record(&header).map_err(err)?;
        for s in &self.samples {
            let mut rec = vec![
                s.switch.clone(),
                s.key.program.clone(),
                s.key.input.clone(),
                s.key.run.to_string(),
                s.key.variant.clone(),
                s.partner.clone(),
            ];
            rec.extend(s.features.iter().map(|v| fmt_opt(*v)));
            rec.push(s.speedup.to_string());
            w.write_record(&rec).map_err(err)?;
        }
        w.flush()
            .map_err(|e| Error::Internal(format!("cannot write CSV: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::features::FeatureRow;

    /// A synthetic table: all 64 NB variants of one input and run, time = 64 - bits.
    fn synthetic_table() -> FeatureTable {
        FeatureTable {
            columns: vec!["x".into()],
            rows: Program::Nb
                .variants()
                .map(|v| FeatureRow {
                    key: RunKey {
                        program: "NB".into(),
                        input: "bodies=50000,steps=2".into(),
                        run: 1,
                        variant: v.bit_string(),
                    },
                    kernel: None,
                    time_ms: Some(64.0 - v.bits() as f64),
                    time_spread: None,
                    values: vec![Some(v.bits() as f64)],
                })
                .collect(),
            normalizer: None,
        }
    }

    #[test]
    fn thirty_two_samples_per_bit_with_the_right_target() {
        let t = synthetic_table();
        for s in Switch::bits_of(Program::Nb) {
            let set = pair(&t, &s).unwrap();
            assert_eq!(set.samples.len(), 32, "{s}");
            assert_eq!(set.unpaired, 0);
        }
        let set = pair(&t, &Switch::Bit(Program::Nb, Optimization::Ftz)).unwrap();
        let first = &set.samples[0];
        assert_eq!(first.key.variant, "000000");
        assert_eq!(first.partner, "100000");
        assert_eq!(first.speedup, 64.0 / 32.0);
    }

    #[test]
    fn param_switch_partners() {
        let s = Switch::Param {
            param: "READ_ONLY".into(),
            from: "0".into(),
            to: "1".into(),
        };
        assert_eq!(
            s.partner("PADDING=1,READ_ONLY=0,TILE=2").as_deref(),
            Some("PADDING=1,READ_ONLY=1,TILE=2")
        );
        assert_eq!(s.partner("PADDING=1,READ_ONLY=1"), None);
    }

    #[test]
    fn missing_partner_is_counted() {
        let mut t = synthetic_table();
        t.rows.retain(|r| r.key.variant != "100000");
        let set = pair(&t, &Switch::Bit(Program::Nb, Optimization::Ftz)).unwrap();
        assert_eq!(set.samples.len(), 31);
        assert_eq!(set.unpaired, 1);
    }
}
