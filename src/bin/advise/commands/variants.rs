//! `advise variants`: the variant catalogue as a table or JSON.

use serde::Serialize;

use super::output::Output;
use advise::error::{Error, Result};
use advise::report::table::TextTable;
use advise::variant::Program;

use crate::args::{OutputArgs, ProgramsArg};

/// `advise variants`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Which program's variants.
    #[arg(long, value_enum, default_value = "all", ignore_case = true)]
    pub program: ProgramsArg,
    #[command(flatten)]
    pub out: OutputArgs,
}

pub fn run(args: Args) -> Result<()> {
    list(args.program.as_str(), &args.out.into())
}

#[derive(Serialize)]
struct VariantJson {
    program: &'static str,
    variant: String,
    optimizations: Vec<&'static str>,
}

/// Programs named by `--program` (nb, bh or all).
pub fn programs(arg: &str) -> Result<Vec<Program>> {
    if arg.eq_ignore_ascii_case("all") {
        Ok(Program::ALL.to_vec())
    } else {
        Ok(vec![arg.parse()?])
    }
}

fn list(program: &str, out: &Output) -> Result<()> {
    let programs = programs(program)?;
    let variants: Vec<_> = programs.iter().flat_map(|p| p.variants()).collect();
    if out.json {
        let rows: Vec<VariantJson> = variants
            .iter()
            .map(|v| VariantJson {
                program: v.program.name(),
                variant: v.bit_string(),
                optimizations: v.applied().iter().map(|o| o.name()).collect(),
            })
            .collect();
        return out.emit_json(&serde_json::json!({ "variants": rows }));
    }
    if out.named_csv() {
        // `-o FILE.csv`: one CSV table of every variant, optimizations joined by `+`.
        return out.emit_csv(|buf| {
            let mut w = csv::Writer::from_writer(buf);
            let err = |e: csv::Error| Error::Internal(format!("cannot write CSV: {e}"));
            w.write_record(["program", "variant", "optimizations"])
                .map_err(err)?;
            for v in &variants {
                w.write_record([v.program.name(), &v.bit_string(), &v.label()])
                    .map_err(err)?;
            }
            w.flush()
                .map_err(|e| Error::Internal(format!("cannot write CSV: {e}")))
        });
    }
    let mut text = String::new();
    for p in programs {
        let order: Vec<_> = p.optimizations().iter().map(|o| o.name()).collect();
        text.push_str(&format!(
            "{} - {}; bits 5..0 = {}\n",
            p.name(),
            p.long_name(),
            order.join(" ")
        ));
        let mut t = TextTable::new(["program", "variant", "optimizations"]);
        for v in p.variants() {
            t.push([p.name().to_string(), v.bit_string(), v.label()]);
        }
        text.push_str(&t.render());
        text.push('\n');
    }
    out.emit(&text)
}
