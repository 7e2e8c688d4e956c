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
            None => {
                let mut out = std::io::stdout().lock();
                // A closed pipe (`advise parse f | head`) is not an error worth reporting.
                match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
                    Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                        Err(Error::io("<stdout>", e))
                    }
                    _ => Ok(()),
                }
            }
        }
    }

    /// Writes `value` as pretty JSON. Every document carries a `schema_version` (1 unless the
    /// command set its own), so scripts can tell when a layout changes.
    pub fn emit_json<T: Serialize>(&self, value: &T) -> Result<()> {
        let mut doc = serde_json::to_value(value)
            .map_err(|e| Error::Internal(format!("cannot write JSON: {e}")))?;
        if let serde_json::Value::Object(map) = &mut doc {
            map.entry("schema_version")
                .or_insert(serde_json::Value::from(SCHEMA_VERSION));
        }
        let mut text = serde_json::to_string_pretty(&doc)
            .map_err(|e| Error::Internal(format!("cannot write JSON: {e}")))?;
        text.push('\n');
        self.emit(&text)
    }

    /// Writes bytes produced by a CSV writer.
    pub fn emit_csv(&self, write: impl FnOnce(&mut Vec<u8>) -> Result<()>) -> Result<()> {
        let mut buf = Vec::new();
        write(&mut buf)?;
        self.emit(&String::from_utf8_lossy(&buf))
    }
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
        eprintln!("{text}");
    }
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
