//! `advise merge`: join shard folders into one campaign folder.

use super::output::Output;
use advise::error::Result;
use advise::harness::merge::merge;
use std::path::PathBuf;

/// `advise merge`.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// Shard folders (e.g. datasets/c/shard-*).
    #[arg(required = true)]
    pub shards: Vec<PathBuf>,
    /// The merged campaign folder.
    #[arg(long = "out-dir", alias = "out")]
    pub out: PathBuf,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args) -> Result<()> {
    let args = &args;
    let summary = merge(&args.shards, &args.out)?;
    let out = Output {
        json: args.json,
        path: None,
    };
    if args.json {
        return out.emit_json(&summary);
    }
    let mut text = format!(
        "merged {} folder{} into {}\n",
        args.shards.len(),
        if args.shards.len() == 1 { "" } else { "s" },
        args.out.display()
    );
    for t in &summary.tables {
        text.push_str(&format!(
            "{}: {} rows in, {} out, {} duplicates dropped{}\n",
            t.table,
            t.rows_in,
            t.rows_out,
            t.duplicates,
            if t.conflicts > 0 {
                format!(
                    " ({} with different values: the first was kept)",
                    t.conflicts
                )
            } else {
                String::new()
            }
        ));
    }
    text.push_str(&format!("raw files copied: {}\n", summary.raw_files));
    text.push_str(if summary.provenance {
        "PROVENANCE.md: the shards' joined\n"
    } else {
        "PROVENANCE.md: no shard has one; write one (hardware or simulator, versions, date, \
         the exact command)\n"
    });
    if !summary.raw_conflicts.is_empty() {
        text.push_str(&format!(
            "raw files given again with other content (the first was kept): {}\n",
            summary.raw_conflicts.join(", ")
        ));
    }
    if !summary.records.is_empty() {
        text.push_str(&format!(
            "records kept (the same in every folder): {}\n",
            summary.records.join(", ")
        ));
    }
    out.emit(&text)
}
