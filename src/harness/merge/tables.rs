//! The tables of a merge: read whole (a table cut off while it was written is refused), their
//! rows joined by key, written where the output's own rows were read from.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::super::campaign::{LedgerLine, Status, LEDGER, TIMINGS};
use super::super::resume_check::timing_column;
use super::{table_in, TableMerge, TABLES};
use crate::dataset::table;
use crate::error::{Error, Result};

/// A table's text, unpacked; one whose last line has no line end is refused: `collect`
/// writes whole lines, so the file was cut off inside a row (or its header), where a cut
/// inside the last field would otherwise pass as a shorter value.
fn whole_table(path: &Path) -> Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    table::open(path)?
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io(path, e))?;
    if bytes.last().is_some_and(|&b| b != b'\n') {
        let line = bytes.iter().filter(|&&b| b == b'\n').count() + 1;
        return Err(Error::parse(
            path,
            line,
            "the file ends inside this line (no line end): it was cut off while it was \
             written; delete the cut line, or its shard's ledger.csv line of that job, and run \
             `advise collect --resume` in the shard to measure the job again",
        ));
    }
    Ok(bytes)
}

/// Refuses, before anything is written, a table of `dirs` cut off inside a line
/// ([`whole_table`]), one whose header is not the first shard's ([`Headers`]) and runs of
/// more than one GPU among their timings (the `device` column): the shards of one campaign
/// come from one GPU, and a merge keeps the first of two rows with one key, so the other
/// GPU's would be dropped unseen.
pub(super) fn check_tables(dirs: &[PathBuf]) -> Result<()> {
    let mut headers = Headers::default();
    for dir in dirs {
        for (name, _) in TABLES {
            if let Some(path) = table_in(dir, name).filter(|_| name != TIMINGS) {
                headers.agree(name, &path, &whole_table(&path)?)?;
            }
        }
    }
    // A ledger's finished jobs without their timings: merged, the ledger would say they ran
    // and `collect --resume` would never measure them again.
    for dir in dirs {
        let (None, Some(ledger)) = (table_in(dir, TIMINGS), table_in(dir, LEDGER)) else {
            continue;
        };
        let lines: Vec<LedgerLine> = table::read_rows(&ledger)?;
        let ok = lines.iter().filter(|l| l.status == Status::Ok).count();
        if ok > 0 {
            return Err(Error::Usage(format!(
                "{} lists {ok} finished job(s) but {} has no {TIMINGS}: their runs are lost; \
                 restore the table, or delete that ledger's lines and measure the jobs again \
                 with `advise collect --resume` before merging",
                ledger.display(),
                dir.display()
            )));
        }
    }
    let mut first: Option<(String, PathBuf)> = None;
    for dir in dirs {
        let Some(path) = table_in(dir, TIMINGS) else {
            continue;
        };
        let bytes = whole_table(&path)?;
        headers.agree(TIMINGS, &path, &bytes)?;
        for (line, device) in timing_column(&path, &bytes[..], "device")? {
            match &first {
                None => first = Some((device, path.clone())),
                Some((kept, at)) if *kept != device => {
                    return Err(Error::Usage(format!(
                        "{} holds runs on {kept} and {}:{} one on {device}: the shards of one \
                         campaign come from one GPU, and merging would drop one GPU's runs \
                         where their keys meet; merge each GPU's shards into its own folder",
                        at.display(),
                        path.display(),
                        line
                    )))
                }
                Some(_) => {}
            }
        }
    }
    Ok(())
}

/// The first header each table of a merge was read with, and where.
#[derive(Default)]
struct Headers(HashMap<String, (csv::StringRecord, PathBuf)>);

impl Headers {
    /// Refuses a table `name` at `path` (its text `bytes`) whose header is not the one the
    /// first such table had: checked before anything is written, so that a merge stopped by
    /// it leaves the output as it was.
    fn agree(&mut self, name: &str, path: &Path, bytes: &[u8]) -> Result<()> {
        let mut rdr = csv::Reader::from_reader(table::LineCap::new(bytes));
        let h = rdr.headers().map_err(|e| table::csv_error(path, e))?;
        self.agree_header(name, path, h)
    }

    /// [`Headers::agree`] on a header already read (`h`); an empty one is no table's.
    fn agree_header(&mut self, name: &str, path: &Path, h: &csv::StringRecord) -> Result<()> {
        if h.is_empty() {
            return Ok(());
        }
        match self.0.get(name) {
            None => {
                self.0
                    .insert(name.to_string(), (h.clone(), path.to_path_buf()));
            }
            Some((first, first_path)) if first != h => {
                return Err(Error::format(
                    path,
                    format!(
                        "its columns differ from those of {}: {}; the shards of one campaign \
                         share one header (is one of them from another campaign, or edited?)",
                        first_path.display(),
                        header_differences(first, h)
                    ),
                ))
            }
            Some(_) => {}
        }
        Ok(())
    }

    /// The header the first table `name` was read with.
    fn first(&self, name: &str) -> Option<&csv::StringRecord> {
        self.0.get(name).map(|(h, _)| h)
    }
}

/// Where two headers differ, column by column: `column 5 is `time_MS` here, `time_ms`
/// there`, the first three such columns and a count of the rest, or the column counts.
pub(super) fn header_differences(first: &csv::StringRecord, here: &csv::StringRecord) -> String {
    let mut parts: Vec<String> = first
        .iter()
        .zip(here.iter())
        .enumerate()
        .filter(|(_, (a, b))| a != b)
        .map(|(i, (a, b))| format!("column {} is `{b}` here, `{a}` there", i + 1))
        .collect();
    let more = parts.len().saturating_sub(3);
    parts.truncate(3);
    match more {
        0 => {}
        1 => parts.push("1 more column differs".into()),
        _ => parts.push(format!("{more} more columns differ")),
    }
    if first.len() != here.len() {
        parts.push(format!(
            "{} columns here, {} there",
            here.len(),
            first.len()
        ));
    }
    parts.join("; ")
}

pub(super) fn merge_table(
    dirs: &[PathBuf],
    out: &Path,
    name: &str,
    keys: &[&str],
) -> Result<Option<TableMerge>> {
    let mut headers = Headers::default();
    let mut rows: Vec<csv::StringRecord> = Vec::new();
    let mut seen: HashMap<Vec<String>, usize> = HashMap::new();
    let mut t = TableMerge {
        table: name.to_string(),
        ..Default::default()
    };
    for dir in dirs {
        let Some(path) = table_in(dir, name) else {
            continue;
        };
        let bytes = whole_table(&path)?;
        let mut rdr = csv::Reader::from_reader(table::LineCap::new(&bytes[..]));
        let h = rdr
            .headers()
            .map_err(|e| table::csv_error(&path, e))?
            .clone();
        if h.is_empty() {
            continue;
        }
        headers.agree_header(name, &path, &h)?;
        let idx: Vec<usize> = keys
            .iter()
            .map(|k| {
                h.iter()
                    .position(|c| c == *k)
                    .ok_or_else(|| Error::format(&path, format!("has no `{k}` column to merge on")))
            })
            .collect::<Result<_>>()?;
        for rec in rdr.records() {
            let rec = rec.map_err(|e| table::csv_error(&path, e))?;
            t.rows_in += 1;
            let key: Vec<String> = idx
                .iter()
                .map(|&i| rec.get(i).unwrap_or("").to_string())
                .collect();
            match seen.get(&key) {
                Some(&at) => {
                    t.duplicates += 1;
                    if rows[at] != rec {
                        t.conflicts += 1;
                    }
                }
                None => {
                    seen.insert(key, rows.len());
                    rows.push(rec);
                }
            }
        }
    }
    let Some(header) = headers.first(name) else {
        return Ok(None);
    };
    t.rows_out = rows.len();
    // The table is written where the output's own rows were read from (they came first):
    // a committed campaign's compressed table stays compressed, as `gzip -n` writes it (no
    // name or time in the header); a new output gets a plain one.
    let path = table_in(out, name).unwrap_or_else(|| out.join(name));
    let compressed = path.extension().is_some_and(|e| e == "gz");
    let tmp = out.join(format!("{name}.merging"));
    let file = std::fs::File::create(&tmp).map_err(|e| Error::io(&tmp, e))?;
    if compressed {
        let gz = write_rows(
            flate2::write::GzEncoder::new(file, flate2::Compression::best()),
            header,
            &rows,
            &tmp,
        )?;
        gz.finish().map_err(|e| Error::io(&tmp, e))?;
    } else {
        write_rows(file, header, &rows, &tmp)?;
    }
    std::fs::rename(&tmp, &path).map_err(|e| Error::io(&path, e))?;
    Ok(Some(t))
}

/// Writes the header and rows as CSV to `sink` (`tmp` names it in errors); returns the sink.
fn write_rows<W: std::io::Write>(
    sink: W,
    header: &csv::StringRecord,
    rows: &[csv::StringRecord],
    tmp: &Path,
) -> Result<W> {
    let mut w = csv::Writer::from_writer(sink);
    w.write_record(header)
        .map_err(|e| table::csv_error(tmp, e))?;
    for r in rows {
        w.write_record(r).map_err(|e| table::csv_error(tmp, e))?;
    }
    w.into_inner().map_err(|e| Error::write(tmp, e))
}
