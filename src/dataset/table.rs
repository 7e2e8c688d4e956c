//! Reading and writing the project's CSV tables (`.csv`, `.csv.gz`; bzip2 is read too) with
//! serde, turning every csv error into one that names the file and line.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::error::{Error, Result};

/// Opens a table for reading, unpacking gzip (and bzip2) by the file's content.
pub fn open(path: &Path) -> Result<Box<dyn Read>> {
    crate::profile::compressed::open(path)
}

/// Reads all rows of a CSV table with a header into `T`.
pub fn read_rows<T: DeserializeOwned>(path: &Path) -> Result<Vec<T>> {
    read_rows_from(path, open(path)?)
}

/// Reads rows from any reader; `path` is used in errors only. A file without even a header
/// line is an error (an empty table still has its header).
pub fn read_rows_from<T: DeserializeOwned>(path: &Path, reader: impl Read) -> Result<Vec<T>> {
    let mut rdr = csv::ReaderBuilder::new().from_reader(reader);
    let header = rdr.headers().map_err(|e| csv_error(path, e))?;
    if header.iter().all(|h| h.trim().is_empty()) {
        return Err(Error::parse(
            path,
            1,
            "empty file: expected a CSV header line",
        ));
    }
    let mut rows = Vec::new();
    for row in rdr.deserialize() {
        rows.push(row.map_err(|e| csv_error(path, e))?);
    }
    Ok(rows)
}

/// The file that marks a campaign folder as simulated (harness::collect_sim writes it: the
/// simulator, its commit and configuration).
pub const SIMULATOR_RECORD: &str = "simulator.json";

/// Whether the campaign folder `dir` holds simulated data.
pub fn is_simulated(dir: &Path) -> bool {
    dir.join(SIMULATOR_RECORD).is_file()
}

/// A usage error unless `dir` is a folder: "DIR: no such folder; name WANTED" (or "a file, not
/// a folder"), `wanted` saying which folder the command reads.
pub fn require_folder(dir: &Path, wanted: &str) -> Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    Err(Error::Usage(format!(
        "{}: {}; name {wanted}",
        dir.display(),
        if dir.exists() {
            "a file, not a folder"
        } else {
            "no such folder"
        }
    )))
}

/// `dir/<stem>.csv`, or else `dir/<stem>.csv.gz`, whichever exists.
pub fn table_path(dir: &Path, stem: &str) -> Option<PathBuf> {
    [format!("{stem}.csv"), format!("{stem}.csv.gz")]
        .into_iter()
        .map(|n| dir.join(n))
        .find(|p| p.is_file())
}

/// A CSV file being read (gzip or bzip2 allowed).
pub type CsvReader = csv::Reader<Box<dyn Read>>;

/// A CSV reader over `path` (gzip or bzip2 allowed) and its header row.
pub fn with_header(path: &Path) -> Result<(CsvReader, Vec<String>)> {
    let mut rdr = csv::Reader::from_reader(open(path)?);
    let header = rdr
        .headers()
        .map_err(|e| csv_error(path, e))?
        .iter()
        .map(str::to_string)
        .collect();
    Ok((rdr, header))
}

/// Writes rows as CSV with a header to `out`. The writer is dropped at the end, which
/// finishes a gzip stream.
pub fn write_rows<T: Serialize>(out: impl Write, rows: &[T]) -> Result<()> {
    let mut wtr = csv::Writer::from_writer(out);
    for row in rows {
        wtr.serialize(row)
            .map_err(|e| Error::write("<CSV output>", e))?;
    }
    let inner = wtr
        .into_inner()
        .map_err(|e| Error::write("<CSV output>", e))?;
    drop(inner);
    Ok(())
}

/// Converts a csv crate error into a file:line error.
pub fn csv_error(path: &Path, e: csv::Error) -> Error {
    let line = e.position().map(|p| p.line() as usize).unwrap_or_default();
    let message = match e.kind() {
        csv::ErrorKind::Deserialize { err, .. } => match err.field() {
            Some(f) => format!("column {}: {}", f + 1, err.kind()),
            None => err.kind().to_string(),
        },
        csv::ErrorKind::UnequalLengths {
            expected_len, len, ..
        } => format!("row has {len} fields, the header has {expected_len}"),
        csv::ErrorKind::Io(io) => io.to_string(),
        csv::ErrorKind::Utf8 { .. } => "invalid UTF-8: not a text file".to_string(),
        _ => e.to_string(),
    };
    Error::parse(path, line, message)
}
