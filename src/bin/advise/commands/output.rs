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
            Some(parent) if parent.exists() && !parent.is_dir() => Some(format!(
                "{} is a file, not a folder; name a file in a folder",
                parent.display()
            )),
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
    // A probe file of a name no one else uses, made only where none is (create_new): removing
    // it can never remove a file of the user's.
    let probe = dir.join(format!(".advise-write-test-{}", std::process::id()));
    let tried = std::fs::create_dir_all(dir)
        .and_then(|()| {
            std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&probe)
        })
        .and_then(|_| std::fs::remove_file(&probe));
    tried.map_err(|e| Error::Usage(format!("{flag} {}: cannot write there: {e}", dir.display())))
}

pub use super::output_check::refuse_output_over_input;
