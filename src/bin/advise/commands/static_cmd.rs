//! `advise static`: static metrics of every kernel of a .cu, .ptx or .cubin file, the
//! optimizations it already applies (with evidence), and with `--compare` the instruction-mix
//! differences of a second version.

use std::fmt::Write as _;
use std::path::PathBuf;

use super::output::Output;
use advise::error::{Error, Result};
use advise::report::table::TextTable;
use advise::static_analysis::{analyze, compare, Analysis, CompileOptions};

use crate::args::{CompileArgs, JsonArg};

/// `advise static`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub compile: CompileArgs,
    /// A second version: report the instruction-mix differences of B against A.
    #[arg(long)]
    pub compare: Option<PathBuf>,
    #[command(flatten)]
    pub json: JsonArg,
}

pub fn run(args: Args) -> Result<()> {
    analyze_file(
        &StaticSettings {
            options: args.compile.options()?,
            file: args.compile.file,
            compare: args.compare,
        },
        &args.json.into(),
    )
}

/// Settings of `advise static`.
#[derive(Debug, Clone)]
pub struct StaticSettings {
    pub file: PathBuf,
    pub compare: Option<PathBuf>,
    pub options: CompileOptions,
}

fn opt<T: std::fmt::Display>(v: Option<T>) -> String {
    v.map_or("-".into(), |x| x.to_string())
}

/// The analysis as terminal text.
pub fn render(a: &Analysis) -> String {
    let mut t = String::new();
    let _ = writeln!(t, "{} ({})", a.file.display(), a.arch);
    for k in &a.kernels {
        let m = &k.metrics;
        let _ = writeln!(t, "\nkernel {} ({})", k.short_name, k.name);
        let mut tab = TextTable::new(["metric", "value", "sass"]);
        let s = k.sass.as_ref();
        let f = |v: f64| format!("{v:.3}");
        // Counted on PTX only: a bare cubin has no virtual registers to follow.
        let ptx_only = |v: u64| opt((m.source == "ptx").then_some(v));
        let rows: Vec<(&str, String, String)> = vec![
            (
                "instructions",
                m.instructions.to_string(),
                opt(s.map(|s| s.instructions)),
            ),
            (
                "branch fraction",
                f(m.branch_fraction),
                opt(s.map(|s| f(s.branch_fraction))),
            ),
            (
                "load fraction",
                f(m.load_fraction),
                opt(s.map(|s| f(s.load_fraction))),
            ),
            (
                "integer fraction",
                f(m.int_fraction),
                opt(s.map(|s| f(s.int_fraction))),
            ),
            (
                "float fraction",
                f(m.float_fraction),
                opt(s.map(|s| f(s.float_fraction))),
            ),
            ("loops", m.loops.to_string(), opt(s.map(|s| s.loops))),
            (
                "__syncthreads",
                m.syncthreads.to_string(),
                opt(s.map(|s| s.syncthreads)),
            ),
            (
                "registers/thread",
                opt(m.registers),
                opt(s.and_then(|s| s.registers)),
            ),
            (
                "shared bytes/block",
                opt(m.shared_bytes),
                opt(s.and_then(|s| s.shared_bytes)),
            ),
            (
                "special functions",
                m.special_function.to_string(),
                opt(s.map(|s| s.special_function)),
            ),
            ("shuffles", m.shuffle.to_string(), opt(s.map(|s| s.shuffle))),
            ("votes", m.vote.to_string(), opt(s.map(|s| s.vote))),
            ("atomics", m.atomic.to_string(), opt(s.map(|s| s.atomic))),
            (
                "local memory",
                m.local_memory.to_string(),
                opt(s.map(|s| s.local_memory)),
            ),
            ("spill bytes", opt(m.spill_bytes), "-".into()),
            (
                "constant loads",
                m.constant_loads.to_string(),
                opt(s.map(|s| s.constant_loads)),
            ),
            // static_analysis::dataflow
            ("dependent loads", ptx_only(m.dependent_loads), "-".into()),
            ("data branches", ptx_only(m.data_branches), "-".into()),
        ];
        for (name, a, b) in rows {
            tab.push([name.to_string(), a, b]);
        }
        t.push_str(&tab.render());
        if k.applied.is_empty() {
            let _ = writeln!(t, "applied: none");
        }
        for d in &k.applied {
            let _ = writeln!(t, "applied: {} ({}, x{})", d.name, d.evidence, d.count);
        }
        for d in &k.other {
            let _ = writeln!(t, "also: {} ({}, x{})", d.name, d.evidence, d.count);
        }
        for n in &k.not_applicable {
            let _ = writeln!(t, "does not apply: {}: {}", n.name, n.reason);
        }
    }
    let names: Vec<&str> = a.not_detectable.iter().map(|n| n.name).collect();
    let _ = writeln!(
        t,
        "\nnot detectable from one binary: {} (use --compare)",
        names.join(" ")
    );
    for n in &a.notes {
        let _ = writeln!(t, "note: {n}");
    }
    t
}

fn analyze_file(s: &StaticSettings, out: &Output) -> Result<()> {
    let a = analyze(&s.file, &s.options)?;
    let Some(other) = &s.compare else {
        if out.json {
            return out.emit_json(&serde_json::json!({
                "file": a.file,
                "arch": a.arch,
                "kernels": a.kernels,
                "not_detectable": a.not_detectable,
                "notes": a.notes,
            }));
        }
        return out.emit(&render(&a));
    };
    let b = analyze(other, &s.options)?;
    let diffs = compare(&a, &b);
    if diffs.is_empty() {
        let names = |x: &Analysis| {
            x.kernels
                .iter()
                .map(|k| k.short_name.clone())
                .collect::<Vec<_>>()
                .join(", ")
        };
        return Err(Error::Usage(format!(
            "{} and {} have no kernel of the same name to compare ({} against {}); compare \
             two versions of one program, or two files of one kernel each",
            a.file.display(),
            b.file.display(),
            names(&a),
            names(&b)
        )));
    }
    if out.json {
        let list: Vec<_> = diffs
            .iter()
            .map(|(k, d)| serde_json::json!({"kernel": k, "differences": d}))
            .collect();
        return out.emit_json(&serde_json::json!({
            "a": a.file, "b": b.file, "arch": a.arch, "kernels": list,
        }));
    }
    let mut t = format!("A = {}\nB = {}\n", a.file.display(), b.file.display());
    for (k, d) in &diffs {
        let _ = writeln!(t, "\nkernel {k}");
        if d.is_empty() {
            let _ = writeln!(t, "  same instruction mix");
        }
        let mut tab = TextTable::new(["metric", "A", "B", "reading"]);
        for x in d {
            tab.push([
                x.metric.to_string(),
                format!("{}", (x.a * 1000.0).round() / 1000.0),
                format!("{}", (x.b * 1000.0).round() / 1000.0),
                x.reading.clone(),
            ]);
        }
        if !tab.is_empty() {
            t.push_str(&tab.render());
        }
    }
    out.emit(&t)
}
