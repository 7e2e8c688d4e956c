//! `advise explain`: the catalogue entry of an optimization, for people who are not GPU experts.

use std::fmt::Write as _;

use super::output::Output;
use advise::error::{Error, Result};
use advise::recommend::catalogue::{entries, lookup, Entry};

use crate::args::OutputArgs;

/// `advise explain`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// FTZ, RSQRT, CONST, PEEL, SHMEM, UNROLL, VOTE, WARP, SORT, VOLA, or a tuning switch such
    /// as 'READ_ONLY:0->1' (quoted: a shell reads an unquoted `>` as a redirection).
    pub name: Option<String>,
    /// Every entry of the catalogue.
    #[arg(long)]
    pub all: bool,
    #[command(flatten)]
    pub out: OutputArgs,
}

pub fn run(args: Args) -> Result<()> {
    explain(args.name.as_deref(), args.all, &args.out.into())
}

fn indent(code: &str) -> String {
    code.lines().map(|l| format!("    {l}\n")).collect()
}

/// The entry as terminal text.
pub fn render(e: &Entry) -> String {
    let mut t = String::new();
    let _ = writeln!(t, "{}: {}\n", e.name, e.summary);
    let _ = writeln!(t, "What it does\n  {}\n", e.what.replace('\n', "\n  "));
    let _ = writeln!(t, "Counters that point to it");
    for s in &e.signals {
        let _ = writeln!(t, "  - {s}");
    }
    let _ = writeln!(t, "\nHow to apply\n  {}", e.how);
    if !e.nvcc_flags.is_empty() {
        let _ = writeln!(t, "  nvcc flags: {}", e.nvcc_flags);
    }
    if !e.before.is_empty() {
        let _ = writeln!(
            t,
            "\n  Before:\n{}\n  After:\n{}",
            indent(&e.before),
            indent(&e.after)
        );
    }
    let _ = writeln!(t, "\nRisks");
    for r in &e.risks {
        let _ = writeln!(t, "  - {r}");
    }
    let _ = writeln!(t, "\nRead more");
    for r in &e.read_more {
        let _ = writeln!(t, "  - {r}");
    }
    t
}

fn explain(name: Option<&str>, all: bool, out: &Output) -> Result<()> {
    if let (Some(n), true) = (name, all) {
        return Err(Error::Usage(format!(
            "`{n}` and --all: give one optimization's name or --all for every entry"
        )));
    }
    if let Some((param, change)) = name.and_then(|n| n.split_once(':')) {
        let ok = change
            .split_once("->")
            .is_some_and(|(from, to)| !from.trim().is_empty() && !to.trim().is_empty());
        if !ok || param.trim().is_empty() {
            return Err(Error::Usage(format!(
                "`{param}:{change}`: a tuning switch is written PARAM:FROM->TO, e.g. \
                 'READ_ONLY:0->1' (quoted for the shell)"
            )));
        }
        if let Some((from, to)) = change
            .split_once("->")
            .filter(|(f, t)| f.trim() == t.trim())
        {
            return Err(Error::Usage(format!(
                "`{param}:{change}`: {} -> {} changes nothing; a switch goes from one value \
                 to another",
                from.trim(),
                to.trim()
            )));
        }
    }
    let list = if all {
        entries()?
    } else {
        let name = name.ok_or_else(|| {
            Error::Usage("name an optimization (e.g. `advise explain SHMEM`) or pass --all".into())
        })?;
        vec![lookup(name)?.ok_or_else(|| {
            let known: Vec<String> = entries()
                .unwrap_or_default()
                .into_iter()
                .map(|e| e.name)
                .collect();
            Error::Usage(format!(
                "no catalogue entry for `{}`; known: {}",
                advise::error::shown_text(name),
                known.join(" ")
            ))
        })?]
    };
    if out.json {
        return out.emit_json(&serde_json::json!({ "optimizations": list }));
    }
    out.emit(
        &list
            .iter()
            .map(render)
            .collect::<Vec<_>>()
            .join("\n----\n\n"),
    )
}
