//! `advise metric-map`: the nvprof -> Nsight Compute name map.

use super::output::Output;
use crate::error::Result;
use crate::profile::metric_map::{Match, METRIC_MAP};
use crate::report::table::TextTable;

pub fn run(out: &Output) -> Result<()> {
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
    out.emit(&t.render())
}
