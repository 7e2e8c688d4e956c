//! `advise samples`: speedup samples of one optimization from a feature table.

use std::path::{Path, PathBuf};

use super::output::{note, Output};
use advise::dataset::features::FeatureTable;
use advise::dataset::samples::{check_bit_variants, pair, why_no_start, Switch};
use advise::error::{Error, Result};
use advise::variant::{Optimization, Program};

use crate::args::{OutputArgs, ProgramArg};

/// `advise samples`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// features.csv from `advise features` (with time_ms filled in).
    #[arg(long)]
    pub features: PathBuf,
    /// An NB/BH optimization (FTZ, RSQRT, ..., with --program), or a parameter switch written
    /// PARAM:FROM->TO for imported spaces, quoted for the shell (e.g. 'READ_ONLY:0->1').
    #[arg(long)]
    pub optimization: String,
    /// The program of an NB/BH optimization.
    #[arg(long, value_enum)]
    pub program: Option<ProgramArg>,
    #[command(flatten)]
    pub out: OutputArgs,
}

pub fn run(args: Args) -> Result<()> {
    samples(
        &args.features,
        &args.optimization,
        args.program.map(ProgramArg::as_str),
        &args.out.into(),
    )
}

/// Reads `FTZ` (with a program) or `PARAM:FROM->TO` (without one: a program given with it
/// would be ignored, so it is refused).
pub fn parse_switch(text: &str, program: Option<&str>) -> Result<Switch> {
    if let Some((param, change)) = text.split_once(':') {
        if let Some(p) = program {
            return Err(Error::Usage(format!(
                "--program {p} names the program of an NB/BH optimization (FTZ, RSQRT, ...); \
                 `{text}` is a parameter switch, which applies to every program of the \
                 table: leave out --program"
            )));
        }
        let (from, to) = change.split_once("->").ok_or_else(|| {
            Error::Usage(format!(
                "`{text}`: write a parameter switch as PARAM:FROM->TO"
            ))
        })?;
        let (param, from, to) = (param.trim(), from.trim(), to.trim());
        if param.is_empty() || from.is_empty() || to.is_empty() || to.contains("->") {
            return Err(Error::Usage(format!(
                "`{text}`: write a parameter switch as PARAM:FROM->TO, each part given once"
            )));
        }
        if from == to {
            return Err(Error::Usage(format!(
                "`{text}`: FROM and TO are the same value, so the switch changes nothing"
            )));
        }
        return Ok(Switch::Param {
            param: param.into(),
            from: from.into(),
            to: to.into(),
        });
    }
    let opt: Optimization = text.parse()?;
    let program: Program = match program {
        Some(p) => p.parse()?,
        None => {
            let owners: Vec<Program> = Program::ALL
                .into_iter()
                .filter(|p| p.bit_of(opt).is_some())
                .collect();
            match owners.as_slice() {
                [one] => *one,
                _ => {
                    return Err(Error::Usage(format!(
                        "{opt} exists in both NB and BH: add --program nb or --program bh"
                    )))
                }
            }
        }
    };
    if program.bit_of(opt).is_none() {
        return Err(Error::Usage(format!(
            "{} has no optimization {opt}",
            program.name()
        )));
    }
    Ok(Switch::Bit(program, opt))
}

fn samples(features: &Path, optimization: &str, program: Option<&str>, out: &Output) -> Result<()> {
    let switch = parse_switch(optimization, program)?;
    let table = FeatureTable::read_csv(features)?;
    let set = check_bit_variants(&table)
        .and_then(|()| pair(&table, &switch))
        .map_err(|e| match e {
            Error::Data(m) => Error::format(features, m),
            e => e,
        })?;
    let untimed = table.rows.iter().filter(|r| r.time_ms.is_none()).count();
    if set.samples.is_empty() {
        return Err(Error::Data(if set.unpaired > 0 && untimed > 0 {
            format!(
                "{}: no {switch} sample: none of the {} rows without it has a partner with it \
                 and both times ({untimed} rows have no time_ms: build the table with \
                 `advise features --timings timings.csv`)",
                features.display(),
                set.unpaired
            )
        } else if set.unpaired > 0 {
            format!(
                "{}: no {switch} sample: none of the {} rows without it has a partner with it \
                 in the table (the same program, input, run and variant but for {switch}): \
                 were variants with it collected?",
                features.display(),
                set.unpaired
            )
        } else {
            format!(
                "{}: no {switch} sample: no row is a starting point for it: {}",
                features.display(),
                why_no_start(&table, &switch)
            )
        }));
    }
    note(&format!(
        "{switch}: {} samples, {} variants without it could not be paired (partner or time missing)",
        set.samples.len(),
        set.unpaired
    ));
    if out.json {
        return out.emit_json(&serde_json::json!({
            "switch": switch.to_string(),
            "columns": set.columns,
            "samples": set.samples,
            "unpaired": set.unpaired,
        }));
    }
    out.emit_csv(|buf| set.write_csv(buf))
}
