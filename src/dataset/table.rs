//! Reading and writing the project's CSV tables (`.csv`, `.csv.gz`; bzip2 is read too) with
//! serde, turning every csv error into one that names the file and line.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::error::{Error, Result};

mod line_cap;
pub use line_cap::{LineCap, LONGEST_LINE};

/// Opens a table for reading, unpacking gzip (and bzip2) by the file's content.
pub fn open(path: &Path) -> Result<Box<dyn Read>> {
    crate::profile::compressed::open(path)
}

/// An error on line 1 where `header` names one column twice (`same` says when two names are
/// one): a model, a table or a chart would otherwise take two columns for one.
pub fn refuse_repeated_columns(
    path: &Path,
    header: &[String],
    same: impl Fn(&str, &str) -> bool,
) -> Result<()> {
    for (j, name) in header.iter().enumerate() {
        if let Some(first) = header[..j].iter().position(|n| same(n, name)) {
            return Err(Error::parse(
                path,
                1,
                format!(
                    "column `{name}` is named twice (columns {} and {})",
                    first + 1,
                    j + 1
                ),
            ));
        }
    }
    Ok(())
}

/// Refuses a header that reads as one column holding `;`, a tab or `|`: a table written with
/// another separator, where every later message would be about a missing column.
pub fn refuse_other_separator<S: AsRef<str>>(path: &Path, header: &[S]) -> Result<()> {
    let [only] = header else {
        return Ok(());
    };
    let only = only.as_ref();
    match [';', '\t', '|'].into_iter().find(|&c| only.contains(c)) {
        Some(sep) => Err(Error::parse(
            path,
            1,
            format!(
                "one column `{only}`: the fields are separated by `{}`, and a CSV file's must \
                 be separated by commas",
                sep.escape_default()
            ),
        )),
        None => Ok(()),
    }
}

/// Reads all rows of a CSV table with a header into `T`.
pub fn read_rows<T: DeserializeOwned>(path: &Path) -> Result<Vec<T>> {
    read_rows_from(path, open(path)?)
}

/// Reads rows from any reader; `path` is used in errors only. A file without even a header
/// line is an error (an empty table still has its header).
pub fn read_rows_from<T: DeserializeOwned>(path: &Path, reader: impl Read) -> Result<Vec<T>> {
    read_rows_requiring(path, reader, &[])
}

/// Reads all rows of a CSV table whose header must name every column of `required`: a header
/// that lacks one is an error on line 1, whether or not the table has rows (a table of no rows
/// is never deserialized, so a wrong file would pass as an empty table).
pub fn read_rows_with<T: DeserializeOwned>(path: &Path, required: &[&str]) -> Result<Vec<T>> {
    read_rows_requiring(path, open(path)?, required)
}

fn read_rows_requiring<T: DeserializeOwned>(
    path: &Path,
    reader: impl Read,
    required: &[&str],
) -> Result<Vec<T>> {
    let mut rdr = csv::ReaderBuilder::new().from_reader(LineCap::new(reader));
    let header = rdr.headers().map_err(|e| csv_error(path, e))?;
    if header.iter().all(|h| h.trim().is_empty()) {
        return Err(Error::parse(
            path,
            1,
            "empty file: expected a CSV header line",
        ));
    }
    refuse_too_many_columns(path, header)?;
    refuse_other_separator(path, &header.iter().collect::<Vec<_>>())?;
    let missing: Vec<&str> = required
        .iter()
        .copied()
        .filter(|r| !header.iter().any(|h| h.trim() == *r))
        .collect();
    if !missing.is_empty() {
        return Err(Error::parse(
            path,
            1,
            format!(
                "the header lacks the column(s) {}: expected {}",
                missing.join(", "),
                required.join(",")
            ),
        ));
    }
    let names: Vec<String> = header.iter().map(|h| h.trim().to_string()).collect();
    let mut rows = Vec::new();
    for row in rdr.deserialize() {
        rows.push(row.map_err(|e| named_csv_error(path, e, &names))?);
    }
    Ok(rows)
}

/// [`csv_error`] with the column a value failed in named from the header, and what it must
/// hold said in words ("column 7 (invocations): `-3` is not a whole number from 0").
fn named_csv_error(path: &Path, e: csv::Error, names: &[String]) -> Error {
    let csv::ErrorKind::Deserialize { pos, err } = e.kind() else {
        return csv_error(path, e);
    };
    let Some(field) = err.field() else {
        return csv_error(path, e);
    };
    let line = pos
        .as_ref()
        .map(|p| line_at(path, p.byte()).unwrap_or(p.line() as usize))
        .unwrap_or_default();
    let column = match names.get(field as usize) {
        Some(name) => format!("column {} ({name})", field + 1),
        None => format!("column {}", field + 1),
    };
    let what = match err.kind() {
        csv::DeserializeErrorKind::ParseInt(e) => match e.kind() {
            std::num::IntErrorKind::PosOverflow | std::num::IntErrorKind::NegOverflow => {
                "a whole number too large for it"
            }
            _ => "not a whole number from 0 (digits only)",
        },
        csv::DeserializeErrorKind::ParseFloat(_) => "not a number",
        csv::DeserializeErrorKind::ParseBool(_) => "not true or false",
        _ => return csv_error(path, e),
    };
    Error::parse(path, line, format!("{column}: the value is {what}"))
}

/// The file that marks a campaign folder as simulated (harness::collect_sim writes it: the
/// simulator, its commit and configuration).
pub const SIMULATOR_RECORD: &str = "simulator.json";

/// Whether the campaign folder `dir` holds simulated data.
pub fn is_simulated(dir: &Path) -> bool {
    dir.join(SIMULATOR_RECORD).is_file()
}

/// An error unless `dir` is a folder: "DIR: no such folder; name WANTED" (exit 5), or "DIR: a
/// file, not a folder; name WANTED" (exit 2), `wanted` saying which folder the command reads.
pub fn require_folder(dir: &Path, wanted: &str) -> Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    if !dir.exists() {
        // A missing folder is a missing file (exit 5), as the README's table of exit codes
        // says; a file where a folder is wanted is a usage error.
        return Err(Error::missing(
            dir,
            format!("no such folder; name {wanted}"),
        ));
    }
    Err(Error::Usage(format!(
        "{}: a file, not a folder; name {wanted}",
        dir.display()
    )))
}

/// An error unless `path` is a regular file: "PATH: no such file" (exit 5), "PATH: a folder,
/// not a file; name WANTED" or "PATH: not a regular file (a FIFO, socket or device); name
/// WANTED" (exit 2).
pub fn require_file(path: &Path, wanted: &str) -> Result<()> {
    match std::fs::metadata(path) {
        Ok(m) if m.is_file() => Ok(()),
        Ok(m) => Err(Error::Usage(format!(
            "{}: {}; name {wanted}",
            path.display(),
            if m.is_dir() {
                "a folder, not a file"
            } else {
                "not a regular file (a FIFO, socket or device)"
            }
        ))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            Err(Error::missing(path, "no such file"))
        }
        Err(e) => Err(Error::io(path, e)),
    }
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
    let reader: Box<dyn Read> = Box::new(LineCap::new(open(path)?));
    let mut rdr = csv::Reader::from_reader(reader);
    let header = rdr.headers().map_err(|e| csv_error(path, e))?;
    let header = header_names(path, header)?;
    Ok((rdr, header))
}

/// The most columns a CSV header may have: far more than any table advise writes or reads
/// (an ncu page holds some thousands of metrics), far fewer than a file of one long line.
pub const MOST_COLUMNS: usize = 100_000;

/// The names of a CSV header row; more than [`MOST_COLUMNS`] is an error at line 1, before
/// each name becomes a string of its own (a 50 MB file of one line took 1.8 GB to refuse).
pub fn header_names(path: &Path, header: &csv::StringRecord) -> Result<Vec<String>> {
    refuse_too_many_columns(path, header)?;
    Ok(header.iter().map(str::to_string).collect())
}

/// More than [`MOST_COLUMNS`] columns in `header` is an error at line 1.
fn refuse_too_many_columns(path: &Path, header: &csv::StringRecord) -> Result<()> {
    if header.len() > MOST_COLUMNS {
        return Err(Error::parse(
            path,
            1,
            format!(
                "the header line has {} columns, more than the {} advise reads: is the file \
                 one long line (rows end in a line break)?",
                header.len(),
                MOST_COLUMNS
            ),
        ));
    }
    Ok(())
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

/// The line a record starts on, for error messages, without re-reading the file: the csv
/// crate's count runs one short where lines end in CRLF, so a record is on at least the line
/// after the one before it (its index + 1, the header being record 0). Exact for tables of
/// one record a line, whatever their line endings, and for LF tables with quoted line breaks.
pub fn record_line(rec: &csv::StringRecord) -> usize {
    rec.position()
        .map_or(0, |p| (p.line() as usize).max(p.record() as usize + 1))
}

/// Converts a csv crate error into a file:line error. The line is counted from the error's
/// byte offset, re-reading the file up to it: the csv crate's own count runs one short per
/// CRLF line ending. A read error (a gzip stream cut off) has no position: it is a whole-file
/// error, not one at "line 0".
pub fn csv_error(path: &Path, e: csv::Error) -> Error {
    if let Some(long) = match e.kind() {
        csv::ErrorKind::Io(io) => line_cap::line_too_long(io),
        _ => None,
    } {
        return Error::format(path, long.to_string());
    }
    let line = e
        .position()
        .map(|p| line_at(path, p.byte()).unwrap_or(p.line() as usize));
    if let (csv::ErrorKind::Io(io), None) = (e.kind(), line) {
        return Error::format(
            path,
            format!("not readable to its end: {io} (file cut off?)"),
        );
    }
    let line = line.unwrap_or_default();
    let message = match e.kind() {
        csv::ErrorKind::Deserialize { err, .. } => {
            // serde calls one of a closed set of values (a status, a kind) a "variant".
            let what = err
                .kind()
                .to_string()
                .replacen("unknown variant", "unknown value", 1);
            match err.field() {
                Some(f) => format!("column {}: {what}", f + 1),
                None => what,
            }
        }
        csv::ErrorKind::UnequalLengths {
            expected_len, len, ..
        } => format!("row has {len} fields, the header has {expected_len}"),
        csv::ErrorKind::Io(io) => io.to_string(),
        csv::ErrorKind::Utf8 { .. } => "invalid UTF-8: not a text file".to_string(),
        _ => e.to_string(),
    };
    Error::parse(path, line, message)
}

/// The line (from 1) that byte offset `byte` of `path`'s content (unpacked) lies on; `None`
/// where the file cannot be read that far.
/// After a CRLF line the csv crate's record starts at the line's closing '\n': a line
/// feed at `byte` itself ends the line before, so it is counted too.
fn line_at(path: &Path, byte: u64) -> Option<usize> {
    let mut head = Vec::new();
    open(path)
        .ok()?
        .take(byte + 1)
        .read_to_end(&mut head)
        .ok()?;
    (head.len() as u64 >= byte).then(|| 1 + head.iter().filter(|&&b| b == b'\n').count())
}

#[cfg(test)]
mod tests;
