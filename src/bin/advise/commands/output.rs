//! Where a command's result goes: standard output or the `-o` file, as text or JSON.

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

use serde::Serialize;

use advise::error::{Error, Result};

/// The `--json` / `-o` choice of one command.
#[derive(Debug, Clone, Default)]
pub struct Output {
    pub json: bool,
    pub path: Option<PathBuf>,
}

impl Output {
    /// Writes `text` to the file or standard output. A file whose name ends in `.gz` is
    /// written gzip-compressed, as its name says (every reader of the tool's files opens
    /// either).
    pub fn emit(&self, text: &str) -> Result<()> {
        match &self.path {
            Some(p) => advise::profile::compressed::write_by_name(
                p,
                text.as_bytes(),
                flate2::Compression::default(),
            ),
            None => to_stdout(|out| out.write_all(text.as_bytes())),
        }
    }

    /// Writes `value` as pretty JSON. Every document carries a `schema_version` (1 unless the
    /// command set its own), so scripts can tell when a layout changes.
    pub fn emit_json<T: Serialize>(&self, value: &T) -> Result<()> {
        let mut doc = serde_json::to_value(value).map_err(json_failed)?;
        if let serde_json::Value::Object(map) = &mut doc {
            map.entry("schema_version")
                .or_insert(serde_json::Value::from(SCHEMA_VERSION));
        }
        let mut text = serde_json::to_string_pretty(&doc).map_err(json_failed)?;
        text.push('\n');
        self.emit(&text)
    }

    /// Writes a large document as pretty JSON without first making it a JSON value (which
    /// [`Output::emit_json`] does to add its `schema_version`): `value` must carry its own.
    pub fn emit_json_streamed<T: Serialize>(&self, value: &T) -> Result<()> {
        if self.path.is_some() {
            let mut text = serde_json::to_vec_pretty(value).map_err(json_failed)?;
            text.push(b'\n');
            return self.emit(&String::from_utf8_lossy(&text));
        }
        to_stdout(|out| {
            serde_json::to_writer_pretty(&mut *out, value)?;
            out.write_all(b"\n")
        })
    }

    /// Whether `-o` names a CSV file (`x.csv`, or `x.csv.gz` compressed), for commands whose
    /// result is a table that prints as text or CSV.
    pub fn named_csv(&self) -> bool {
        self.path.as_ref().is_some_and(|p| {
            let name = p.to_string_lossy().to_ascii_lowercase();
            name.ends_with(".csv") || name.ends_with(".csv.gz")
        })
    }

    /// Writes one table: CSV where `-o` names a `.csv` file, else as text.
    pub fn emit_table(&self, table: &advise::report::table::TextTable) -> Result<()> {
        if self.named_csv() {
            self.emit(&table.to_csv())
        } else {
            self.emit(&table.render())
        }
    }

    /// Writes bytes produced by a CSV writer.
    pub fn emit_csv(&self, write: impl FnOnce(&mut Vec<u8>) -> Result<()>) -> Result<()> {
        let mut buf = Vec::new();
        write(&mut buf)?;
        self.emit(&String::from_utf8_lossy(&buf))
    }
}

/// Writes to standard output through `write`. A closed pipe (`advise parse f | head`) is not
/// an error worth reporting.
fn to_stdout(write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> Result<()> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    match write(&mut out).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(Error::io("<stdout>", e)),
        _ => Ok(()),
    }
}

/// A document that serde_json could not write (a map key that is not a string).
fn json_failed(e: serde_json::Error) -> Error {
    Error::Internal(format!("cannot write JSON: {e}"))
}

/// The schema version of JSON documents that do not state their own.
pub const SCHEMA_VERSION: u32 = 1;

static QUIET: AtomicBool = AtomicBool::new(false);

/// `--quiet`: no notes or progress on standard error (results and errors still appear).
pub fn set_quiet(quiet: bool) {
    QUIET.store(quiet, Ordering::Relaxed);
}

pub fn quiet() -> bool {
    QUIET.load(Ordering::Relaxed)
}

/// A note for the user on standard error (progress, summaries), kept apart from results.
pub fn note(text: &str) {
    if !quiet() {
        to_stderr(text);
    }
}

/// A warning on standard error, said even with `--quiet`: something the user must know.
pub fn warn(text: &str) {
    to_stderr(&format!("advise: warning: {text}"));
}

/// One line on standard error. A closed stderr (`advise ... 2>&1 | head -1`) is no reason to
/// fail: `eprintln!` would panic there.
pub fn to_stderr(text: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{text}");
}

/// A progress bar on standard error for work of `len` steps (hidden with `--quiet`).
pub fn bar(what: &str, len: u64) -> indicatif::ProgressBar {
    if quiet() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(len);
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{prefix} [{bar:30}] {pos}/{len} {elapsed_precise} ETA {eta} {msg}",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_prefix(what.to_string());
    bar
}

/// A usage error unless `path` can be a file to write: not a folder, and in a folder that
/// exists. Said before long work (training, a benchmark), not after it. `flag` names the
/// option, as in "-o" or "--runs-csv".
pub fn check_output_file(flag: &str, path: &std::path::Path) -> Result<()> {
    let problem = if path.is_dir() {
        Some("a folder; name a file to write".to_string())
    } else {
        match path.parent().filter(|p| !p.as_os_str().is_empty()) {
            Some(parent) if !parent.is_dir() => Some(format!(
                "its folder {} does not exist; create it first",
                parent.display()
            )),
            _ => None,
        }
    };
    match problem {
        Some(p) => Err(Error::Usage(format!("{flag} {}: {p}", path.display()))),
        None => Ok(()),
    }
}

/// A usage error unless `dir` is a folder files can be written into: made where missing, then
/// tried with a file that is removed again. Said before long work, not after it.
pub fn check_output_dir(flag: &str, dir: &std::path::Path) -> Result<()> {
    if dir.is_file() {
        return Err(Error::Usage(format!(
            "{flag} {}: a file, not a folder; name a folder to write into",
            dir.display()
        )));
    }
    let probe = dir.join(".advise-write-test");
    let tried = std::fs::create_dir_all(dir)
        .and_then(|()| std::fs::write(&probe, b""))
        .and_then(|()| std::fs::remove_file(&probe));
    tried.map_err(|e| Error::Usage(format!("{flag} {}: cannot write there: {e}", dir.display())))
}

/// The tables of a dataset or campaign folder (each also `.gz`).
const DATA_TABLES: [&str; 9] = [
    "measurements.csv",
    "timings.csv",
    "switches.csv",
    "ledger.csv",
    "references.csv",
    "kernels.csv",
    "resources.csv",
    "simulator.json",
    "device.json",
];

/// The options that name a file a command writes.
const OUTPUT_FLAGS: [&str; 5] = ["-o", "--output", "--trace", "--rules", "--runs-csv"];

/// Options whose value is another tool's options and may begin with `-` (`--ncu-args "-o x"`):
/// their value names no output of advise's.
const TOOL_OPTIONS: [&str; 3] = ["--ncu-args", "--nvcc-flags", "--weka-options"];

/// A usage error where a file an option writes (`-o`, `--trace`, `--rules`, `--runs-csv`)
/// cannot be written ([`check_output_file`]: a folder, or in a folder that does not exist), or
/// is also an argument the command reads (`advise parse -o x.csv x.csv`): writing it would
/// destroy the input before, or while, it is read. Files are compared as the system resolves
/// them, so `./x.csv` and a link to it are the same file.
pub fn refuse_output_over_input(args: &[String]) -> Result<()> {
    // (index of the value in `args`, the value, the option)
    let mut outputs: Vec<(usize, &str, &str)> = Vec::new();
    // After `--` come the profiled program's own arguments, whose `-o` is its own.
    let own = args.iter().position(|a| a == "--").unwrap_or(args.len());
    for (i, a) in args[..own].iter().enumerate() {
        if i > 0 && TOOL_OPTIONS.contains(&args[i - 1].as_str()) {
            continue;
        }
        for flag in OUTPUT_FLAGS {
            if a == flag {
                if let Some(v) = args.get(i + 1) {
                    outputs.push((i + 1, v, flag));
                }
            } else if let Some(v) = a.strip_prefix(flag).and_then(|r| r.strip_prefix('=')) {
                outputs.push((i, v, flag));
            } else if let Some(v) = a
                .strip_prefix(flag)
                .filter(|v| flag == "-o" && !v.is_empty())
            {
                // The short option's value written onto it, `-ox.csv`, as clap reads it.
                outputs.push((i, v, flag));
            }
        }
    }
    // A file that cannot be written is said before the work, not after it.
    for (_, out, flag) in &outputs {
        check_output_file(flag, std::path::Path::new(out))?;
    }
    // Two outputs in one file: the second would overwrite the first.
    for (i, (_, a, _)) in outputs.iter().enumerate() {
        if outputs[..i]
            .iter()
            .any(|(_, b, _)| resolved(a) == resolved(b))
        {
            return Err(Error::Usage(format!(
                "{a} is named for two outputs: each would overwrite the other; name two files"
            )));
        }
    }
    for (at, out, _) in outputs {
        let Ok(written) = std::path::Path::new(out).canonicalize() else {
            continue; // a file that does not exist yet is nobody's input
        };
        if !written.is_file() {
            continue;
        }
        // A dataset folder named as an input is read whole: its tables are inputs too.
        let table = written.file_name().is_some_and(|n| {
            let n = n.to_string_lossy();
            DATA_TABLES
                .iter()
                .any(|t| n == *t || n == format!("{t}.gz"))
        });
        for (i, a) in args.iter().enumerate().skip(1) {
            let value = a
                .split_once('=')
                .filter(|_| a.starts_with("--"))
                .map_or(a.as_str(), |(_, v)| v);
            if i == at || value.is_empty() {
                continue;
            }
            let input = std::path::Path::new(value).canonicalize();
            if table
                && input
                    .as_ref()
                    .is_ok_and(|d| d.is_dir() && written.parent() == Some(d.as_path()))
            {
                return Err(Error::Usage(format!(
                    "{out} is a table of the dataset folder {value}, which this command reads: \
                     writing it would destroy the data; name a file outside the folder"
                )));
            }
            if input.is_ok_and(|p| p == written) {
                return Err(Error::Usage(format!(
                    "{out} is both an input and a file to write: writing it would destroy the \
                     input; name another output file"
                )));
            }
        }
    }
    Ok(())
}

/// A path as the system resolves it, where its folder exists (the file itself need not).
fn resolved(path: &str) -> std::path::PathBuf {
    let p = std::path::Path::new(path);
    if let Ok(c) = p.canonicalize() {
        return c;
    }
    let parent = p
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    match (parent.canonicalize(), p.file_name()) {
        (Ok(d), Some(name)) => d.join(name),
        _ => p.to_path_buf(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_output_that_is_also_an_input_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in.csv");
        std::fs::write(&input, "x\n").unwrap();
        let i = input.display().to_string();
        let dotted = format!("{}/./in.csv", dir.path().display());
        let args = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        for bad in [
            args(&["advise", "parse", "-o", &i, &i]),
            args(&["advise", "parse", &dotted, &format!("--output={i}")]),
            // The short option with its value written onto it.
            args(&[
                "advise",
                "features",
                "--measurements",
                &i,
                &format!("-o{dotted}"),
            ]),
            args(&[
                "advise",
                "search",
                &format!("--space={i}"),
                "--trace",
                &dotted,
            ]),
        ] {
            let e = refuse_output_over_input(&bad).unwrap_err().to_string();
            assert!(
                e.contains("both an input and a file to write"),
                "{bad:?}: {e}"
            );
        }
        // A dataset folder's table, where the folder is an input.
        let table = dir.path().join("timings.csv");
        std::fs::write(&table, "x\n").unwrap();
        let folder = dir.path().display().to_string();
        let t = table.display().to_string();
        let e =
            refuse_output_over_input(&args(&["advise", "train", "--dataset", &folder, "-o", &t]))
                .unwrap_err()
                .to_string();
        assert!(e.contains("a table of the dataset folder"), "{e}");
        // Another tool's options are theirs, even where they begin with -o.
        assert!(refuse_output_over_input(&args(&[
            "advise",
            "predict",
            "--weka-options",
            &format!("-o{i}"),
            &i
        ]))
        .is_ok());
        // The profiled program's own -o is its business.
        assert!(
            refuse_output_over_input(&args(&["advise", "profile", "--", "app", "-o", &i, &i]))
                .is_ok()
        );
        let other = dir.path().join("out.csv").display().to_string();
        let e = refuse_output_over_input(&args(&[
            "advise", "search", "--trace", &other, "-o", &other,
        ]))
        .unwrap_err()
        .to_string();
        assert!(e.contains("named for two outputs"), "{e}");
        assert!(refuse_output_over_input(&args(&["advise", "parse", "-o", &other, &i])).is_ok());
        std::fs::write(&other, "x\n").unwrap();
        assert!(refuse_output_over_input(&args(&["advise", "parse", "-o", &other, &i])).is_ok());
        // A file in a folder that does not exist, or a folder, before any work.
        let nowhere = dir.path().join("no/such/x.json").display().to_string();
        for (bad, says) in [
            (
                args(&["advise", "search", &format!("--trace={nowhere}")]),
                "--trace ",
            ),
            (args(&["advise", "explain", "-o", &nowhere]), "-o "),
            (args(&["advise", "parse", "--rules", &folder]), "a folder"),
        ] {
            let e = refuse_output_over_input(&bad).unwrap_err().to_string();
            assert!(e.starts_with(says) || e.contains(says), "{bad:?}: {e}");
        }
        let e = refuse_output_over_input(&args(&["advise", "search", "-o", &nowhere]))
            .unwrap_err()
            .to_string();
        assert!(e.contains("does not exist; create it first"), "{e}");
    }
}
