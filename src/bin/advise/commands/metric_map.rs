//! `advise metric-map`: the nvprof -> Nsight Compute name map.

use super::output::Output;
use advise::error::Result;
use advise::profile::metric_map::{Match, METRIC_MAP};
use advise::report::table::TextTable;

use crate::args::OutputArgs;

/// `advise metric-map`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The GPGPU-Sim statistics that advise records under Nsight Compute names.
    #[arg(long)]
    pub gpgpu_sim: bool,
    #[command(flatten)]
    pub out: OutputArgs,
}

pub fn run(args: Args) -> Result<()> {
    let out: Output = args.out.into();
    if args.gpgpu_sim {
        if out.json {
            return out.emit_json(&serde_json::json!({
                "schema_version": 1,
                "metrics": advise::profile::gpgpusim_names::SIM_MAP,
            }));
        }
        if out.named_csv() {
            let mut t = TextTable::new(["ncu", "computed_from", "same_quantity", "note"]);
            for m in advise::profile::gpgpusim_names::SIM_MAP {
                let same = if m.exact { "yes" } else { "approximately" };
                t.push([m.ncu, m.from, same, m.note]);
            }
            return out.emit_table(&t);
        }
        return out.emit(&advise::profile::gpgpusim_names::markdown());
    }
    nvprof_map(&out)
}

fn nvprof_map(out: &Output) -> Result<()> {
    if out.json {
        return out.emit_json(&serde_json::json!({ "metrics": METRIC_MAP }));
    }
    let mut t = TextTable::new(["nvprof", "ncu", "match", "scale", "kind", "note"]);
    for p in METRIC_MAP {
        t.push([
            p.nvprof.to_string(),
            p.ncu.unwrap_or("-").to_string(),
            match p.matches {
                Match::Exact => "exact",
                Match::Approximate => "approx",
                Match::None => "none",
            }
            .to_string(),
            p.scale.to_string(),
            if p.count { "count" } else { "rate" }.to_string(),
            p.note.to_string(),
        ]);
    }
    out.emit_table(&t)
}
