//! A campaign folder on disk and how it survives being killed.
//!
//! ```text
//! DIR/measurements.csv  DIR/timings.csv   rows, appended as each job finishes
//! DIR/ledger.csv        one line per finished job: its status and the byte lengths of the
//!                       two tables right after its rows were written
//! DIR/references.csv    the baseline's checksum per input (what variants are checked against)
//! DIR/raw/              program output and ncu logs exactly as produced
//! ```
//! A job's rows are appended before its ledger line. On `--resume` both tables are cut back to
//! the largest lengths the ledger records, which drops the rows of a job that was in flight
//! when the process died; finished jobs (status ok or mismatch) are skipped, failed ones
//! retried.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::runs::Reference;
use crate::dataset::measurements::MeasurementRow;
use crate::dataset::table;
use crate::error::{Error, Result};

pub const MEASUREMENTS: &str = "measurements.csv";
pub const TIMINGS: &str = "timings.csv";
pub const LEDGER: &str = "ledger.csv";
pub const REFERENCES: &str = "references.csv";
pub const RAW: &str = "raw";

/// How a job ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Verified, timed (and profiled); its rows are in the tables.
    Ok,
    /// Its result disagrees with the baseline: reported, not timed.
    Mismatch,
    /// The program or the profiler failed; retried by `--resume`.
    Error,
}

/// One line of `ledger.csv`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LedgerLine {
    pub job: String,
    pub status: Status,
    pub measurements_bytes: u64,
    pub timings_bytes: u64,
    /// Most replay passes ncu needed for one kernel of the job (0 when not profiled).
    pub passes: u32,
    pub seconds: f64,
    pub message: String,
}

/// One row of `timings.csv`: the columns `dataset::measurements::TimingRow` reads, plus every
/// repetition, the per-kernel medians and the checksum (readers ignore extra columns).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TimingOut {
    pub program: String,
    pub input: String,
    pub run: u32,
    pub variant: String,
    pub time_ms: f64,
    pub repetitions: u32,
    pub checksum_ok: bool,
    /// Every repetition's time, `;`-separated.
    pub times_ms: String,
    /// Median time per kernel: `force=1.25;integrate=0.02`.
    pub kernel_ms: String,
    /// The final state's checksum, `;`-separated.
    pub checksum: String,
    pub device: String,
    /// Relative RMS force error against direct summation, where the run checked it.
    #[serde(default)]
    pub force_error: String,
}

/// An open campaign folder.
#[derive(Debug)]
pub struct Campaign {
    pub dir: PathBuf,
    pub ledger: Vec<LedgerLine>,
    pub references: Vec<Reference>,
}

impl Campaign {
    /// Opens `dir`, creating it. An existing campaign needs `resume`; its tables are then
    /// cut back to the last finished job.
    pub fn open(dir: &Path, resume: bool) -> Result<Campaign> {
        // A compressed table is a finished campaign as committed: appending beside it would
        // split its rows over two files, and the ledger's byte offsets no longer hold.
        for f in [MEASUREMENTS, TIMINGS] {
            let gz = dir.join(format!("{f}.gz"));
            if gz.is_file() {
                return Err(Error::Usage(format!(
                    "{} is compressed: that campaign is closed; collect into a new --out-dir \
                     folder and join the two with `advise merge`",
                    gz.display()
                )));
            }
        }
        std::fs::create_dir_all(dir.join(RAW)).map_err(|e| Error::io(dir, e))?;
        let ledger_path = dir.join(LEDGER);
        let ledger: Vec<LedgerLine> = if ledger_path.is_file() {
            table::read_rows(&ledger_path)?
        } else {
            Vec::new()
        };
        let has_rows = [MEASUREMENTS, TIMINGS]
            .iter()
            .any(|f| std::fs::metadata(dir.join(f)).is_ok_and(|m| m.len() > 0));
        if !resume && (!ledger.is_empty() || has_rows) {
            return Err(Error::Usage(format!(
                "{} already holds a campaign: add --resume to continue it, or choose another --out",
                dir.display()
            )));
        }
        // Rows past the finished jobs' are a job in flight when the campaign was stopped. The
        // largest offsets, not the last line's: a ledger whose lines were reordered must not
        // cut away rows of jobs it lists as done.
        let (m_len, t_len) = ledger.iter().fold((0, 0), |(m, t), l| {
            (m.max(l.measurements_bytes), t.max(l.timings_bytes))
        });
        refuse_short_tables(dir, &ledger)?;
        refuse_rows_the_ledger_lacks(dir, &ledger, t_len)?;
        truncate(&dir.join(MEASUREMENTS), m_len)?;
        truncate(&dir.join(TIMINGS), t_len)?;
        let ref_path = dir.join(REFERENCES);
        let references = if ref_path.is_file() {
            let rows: Vec<RefRow> = table::read_rows(&ref_path)?;
            rows.into_iter()
                .map(|r| {
                    Ok(Reference {
                        checksum: split(&r.checksum).ok_or_else(|| {
                            Error::format(&ref_path, format!("bad checksum `{}`", r.checksum))
                        })?,
                        program: r.program,
                        input: r.input,
                    })
                })
                .collect::<Result<_>>()?
        } else {
            Vec::new()
        };
        Ok(Campaign {
            dir: dir.to_path_buf(),
            ledger,
            references,
        })
    }

    /// Jobs that need no more work: finished, or found to disagree with the baseline.
    pub fn finished(&self) -> HashMap<String, Status> {
        let mut m = HashMap::new();
        for l in &self.ledger {
            m.insert(l.job.clone(), l.status);
        }
        m.retain(|_, s| *s != Status::Error);
        m
    }

    pub fn raw_dir(&self) -> PathBuf {
        self.dir.join(RAW)
    }

    /// The baseline checksum of `input`, if known.
    pub fn reference(&self, program: &str, input: &str) -> Option<&Reference> {
        self.references
            .iter()
            .find(|r| r.program == program && r.input == input)
    }

    /// Records a baseline checksum (and rewrites references.csv).
    pub fn add_reference(&mut self, r: Reference) -> Result<()> {
        self.references
            .retain(|x| !(x.program == r.program && x.input == r.input));
        self.references.push(r);
        let rows: Vec<RefRow> = self
            .references
            .iter()
            .map(|r| RefRow {
                program: r.program.clone(),
                input: r.input.clone(),
                checksum: join(&r.checksum),
            })
            .collect();
        let path = self.dir.join(REFERENCES);
        let mut buf = Vec::new();
        table::write_rows(&mut buf, &rows)?;
        std::fs::write(&path, buf).map_err(|e| Error::io(&path, e))
    }

    /// Appends a finished job: its rows first, then its ledger line.
    pub fn append_job(
        &mut self,
        measurements: &[MeasurementRow],
        timings: &[TimingOut],
        mut line: LedgerLine,
    ) -> Result<()> {
        line.measurements_bytes = append_rows(&self.dir.join(MEASUREMENTS), measurements)?;
        line.timings_bytes = append_rows(&self.dir.join(TIMINGS), timings)?;
        append_rows(&self.dir.join(LEDGER), std::slice::from_ref(&line))?;
        self.ledger.push(line);
        Ok(())
    }
}

/// Appends rows to a CSV table, writing the header when the file is new or empty; returns
/// the file's length afterwards. The bytes go out in one write and are flushed to disk.
pub fn append_rows<T: Serialize>(path: &Path, rows: &[T]) -> Result<u64> {
    let len = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    let mut buf = Vec::new();
    {
        let mut w = csv::WriterBuilder::new()
            .has_headers(len == 0)
            .from_writer(&mut buf);
        for r in rows {
            w.serialize(r).map_err(|e| Error::write(path, e))?;
        }
        w.flush().map_err(|e| Error::io(path, e))?;
    }
    let mut f = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| Error::io(path, e))?;
    f.write_all(&buf).map_err(|e| Error::io(path, e))?;
    f.sync_data().map_err(|e| Error::io(path, e))?;
    Ok(len + buf.len() as u64)
}

/// `--resume` keeps the timings' first `keep` bytes, the rows of the jobs the ledger lists,
/// and runs every job it does not list. Kept rows of a job it does not list are a ledger line
/// that went missing (the job would run again and its rows be there twice); rows of more than
/// one job past `keep` are finished jobs whose lines went missing (they would be erased). One
/// job's rows past `keep` are the job in flight when the campaign stopped: cut, and run again.
fn refuse_rows_the_ledger_lacks(dir: &Path, ledger: &[LedgerLine], keep: u64) -> Result<()> {
    let path = dir.join(TIMINGS);
    if std::fs::metadata(&path).map_or(true, |m| m.len() == 0) {
        return Ok(());
    }
    let mut rdr = csv::Reader::from_reader(table::LineCap::new(table::open(&path)?));
    let header = rdr
        .headers()
        .map_err(|e| table::csv_error(&path, e))?
        .clone();
    let col = |name: &str| header.iter().position(|c| c == name);
    let (Some(p), Some(v), Some(i)) = (col("program"), col("variant"), col("input")) else {
        return Ok(());
    };
    let listed: std::collections::HashSet<&str> = ledger.iter().map(|l| l.job.as_str()).collect();
    let (mut unlisted, mut cut) = (Vec::new(), std::collections::BTreeSet::new());
    for rec in rdr.records() {
        let rec = match rec {
            Ok(rec) => rec,
            // A row cut off past the finished jobs' is the job in flight's; resume cuts it.
            Err(e) if e.position().is_some_and(|pos| pos.byte() >= keep) => break,
            Err(e) => return Err(table::csv_error(&path, e)),
        };
        let field = |c: usize| rec.get(c).unwrap_or("").trim();
        let job = format!("{}/{}/{}", field(p), field(v), field(i));
        let start = rec.position().map_or(0, |pos| pos.byte());
        if start >= keep {
            cut.insert(job);
        } else if !listed.contains(job.as_str()) && !unlisted.contains(&job) {
            unlisted.push(job);
        }
    }
    let ledger_path = dir.join(LEDGER);
    if let Some(first) = unlisted.first() {
        return Err(Error::Usage(format!(
            "{} holds runs of {} job(s) that {} does not list (the first: {first}): a ledger \
             line went missing, and resuming would run them again beside their rows; restore \
             the ledger, or collect into a new --out-dir",
            path.display(),
            unlisted.len(),
            ledger_path.display()
        )));
    }
    if cut.len() > 1 {
        return Err(Error::Usage(format!(
            "{} holds runs of {} jobs past the last that {} lists: resuming would erase them; \
             restore the ledger, or collect into a new --out-dir",
            path.display(),
            cut.len(),
            ledger_path.display()
        )));
    }
    Ok(())
}

/// Refuses a table shorter than the ledger's finished jobs left it (a partial copy, a full
/// disk): those jobs count as done, so `--resume` would never collect their missing rows.
fn refuse_short_tables(dir: &Path, ledger: &[LedgerLine]) -> Result<()> {
    type Bytes = fn(&LedgerLine) -> u64;
    let tables: [(&str, Bytes); 2] = [
        (MEASUREMENTS, |l| l.measurements_bytes),
        (TIMINGS, |l| l.timings_bytes),
    ];
    for (name, bytes) in tables {
        let path = dir.join(name);
        let len = std::fs::metadata(&path).map_or(0, |m| m.len());
        let missing: Vec<&str> = ledger
            .iter()
            .filter(|l| l.status == Status::Ok && bytes(l) > len)
            .map(|l| l.job.as_str())
            .collect();
        if missing.is_empty() {
            continue;
        }
        let most = ledger.iter().map(bytes).max().unwrap_or(0);
        let shown: Vec<&str> = missing.iter().take(5).copied().collect();
        return Err(Error::format(
            &path,
            format!(
                "{len} bytes, where the ledger's finished jobs wrote {most}: the rows of {} \
                 job(s) it lists as done are missing ({}{}); restore the file from a whole \
                 copy, or delete those jobs' lines from {LEDGER} and run with --resume to \
                 collect them again",
                missing.len(),
                shown.join(", "),
                if missing.len() > shown.len() {
                    ", ..."
                } else {
                    ""
                }
            ),
        ));
    }
    Ok(())
}

/// Cuts `path` to `len` bytes when it is longer (creating nothing when it does not exist).
fn truncate(path: &Path, len: u64) -> Result<()> {
    match std::fs::metadata(path) {
        Ok(m) if m.len() > len => {
            let f = File::options()
                .write(true)
                .open(path)
                .map_err(|e| Error::io(path, e))?;
            f.set_len(len).map_err(|e| Error::io(path, e))
        }
        _ => Ok(()),
    }
}

/// A row of references.csv.
#[derive(Debug, Serialize, Deserialize)]
struct RefRow {
    program: String,
    input: String,
    checksum: String,
}

/// Parses numbers joined with `;`.
pub fn split(text: &str) -> Option<Vec<f64>> {
    text.split(';').map(|v| v.trim().parse().ok()).collect()
}

/// Numbers joined with `;` (full precision).
pub fn join(values: &[f64]) -> String {
    values
        .iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(";")
}

#[cfg(test)]
pub(crate) mod tests;
