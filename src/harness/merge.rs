//! `advise merge`: joins shard folders into one campaign folder. Rows are kept byte-for-byte
//! (all columns, as written); a row whose key was already seen is dropped, and counted as a
//! conflict when its values differ from the kept one. The folder's records of where its data
//! came from (`simulator.json` for a simulated campaign, `device.json` for a GPU named by an
//! import) go with the rows: every shard must hold the same record or none, so that a merged
//! folder never labels simulated rows measured, nor mixes two configurations or two GPUs.

use std::path::{Path, PathBuf};

use serde::Serialize;

mod tables;
use tables::{check_tables, merge_table};

use super::campaign::{LEDGER, MEASUREMENTS, RAW, REFERENCES, TIMINGS};
use crate::dataset::devices::DEVICE_FILE;
use crate::dataset::table::{self, SIMULATOR_RECORD};
use crate::error::{Error, Result};

/// The key columns of each table: rows with equal keys describe the same thing.
const TABLES: [(&str, &[&str]); 4] = [
    (
        MEASUREMENTS,
        &[
            "program", "input", "run", "variant", "kernel", "launch", "metric",
        ],
    ),
    (TIMINGS, &["program", "input", "run", "variant"]),
    (LEDGER, &["job"]),
    (REFERENCES, &["program", "input"]),
];

/// Counts for one merged table.
#[derive(Debug, Clone, Default, Serialize)]
pub struct TableMerge {
    pub table: String,
    pub rows_in: usize,
    pub rows_out: usize,
    pub duplicates: usize,
    pub conflicts: usize,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct MergeSummary {
    pub out: PathBuf,
    pub tables: Vec<TableMerge>,
    pub raw_files: usize,
    /// Raw files of a shard that another shard already gave, with other content: the first
    /// is kept, as for table rows.
    pub raw_conflicts: Vec<String>,
    /// The folder records (`simulator.json`, `device.json`) the merged folder holds.
    pub records: Vec<String>,
    /// Whether the merged folder has a PROVENANCE.md (the shards' joined).
    pub provenance: bool,
}

/// Where a folder says where its data came from, in words.
const PROVENANCE: &str = "PROVENANCE.md";

/// The records a campaign folder may hold about its data's origin, which merging keeps.
const RECORDS: [&str; 2] = [SIMULATOR_RECORD, DEVICE_FILE];

/// Merges the campaign folders `sources` into `out` (which may be one of them: its rows come
/// first then).
pub fn merge(sources: &[PathBuf], out: &Path) -> Result<MergeSummary> {
    if sources.is_empty() {
        return Err(Error::Usage("nothing to merge: name shard folders".into()));
    }
    for s in sources {
        if !s.is_dir() {
            return Err(Error::Usage(format!("{} is not a folder", s.display())));
        }
        if !holds_campaign(s) {
            return Err(Error::Usage(format!(
                "{} holds no campaign: none of {} (or their .gz), nor a {RAW}/ folder; name \
                 the shard folders `advise collect --out-dir` wrote",
                s.display(),
                TABLES.map(|t| t.0).join(", ")
            )));
        }
    }
    // The output's own rows count as the first source, so merging is repeatable.
    let mut all: Vec<PathBuf> = vec![out.to_path_buf()];
    all.extend(sources.iter().filter(|s| !same(s, out)).cloned());
    let with_data: Vec<PathBuf> = all
        .iter()
        .filter(|d| holds_campaign(d) || RECORDS.iter().any(|r| d.join(r).is_file()))
        .cloned()
        .collect();
    let records = RECORDS
        .iter()
        .map(|r| agreed_record(&with_data, r))
        .collect::<Result<Vec<_>>>()?;
    check_tables(&all)?;
    std::fs::create_dir_all(out.join(RAW)).map_err(|e| Error::io(out, e))?;
    let mut summary = MergeSummary {
        out: out.to_path_buf(),
        ..Default::default()
    };
    for (name, record) in RECORDS.iter().zip(records) {
        if let Some(from) = record {
            let target = out.join(name);
            if !target.is_file() {
                std::fs::copy(&from, &target).map_err(|e| Error::io(&from, e))?;
            }
            summary.records.push(name.to_string());
        }
    }
    for (name, keys) in TABLES {
        if let Some(t) = merge_table(&all, out, name, keys)? {
            summary.tables.push(t);
        }
    }
    for s in sources.iter().filter(|s| !same(s, out)) {
        let (copied, conflicts) = copy_raw(&s.join(RAW), &out.join(RAW))?;
        summary.raw_files += copied;
        summary.raw_conflicts.extend(conflicts);
    }
    summary.provenance = merge_provenance(sources, out)?;
    Ok(summary)
}

/// The shards' PROVENANCE.md files joined into the merged folder's: the first as it is, each
/// other one whose text is not already there under a heading naming its shard, then a line
/// naming the shards merged (once). Whether the folder has one.
fn merge_provenance(sources: &[PathBuf], out: &Path) -> Result<bool> {
    let target = out.join(PROVENANCE);
    let read = |p: &Path| std::fs::read_to_string(p).map_err(|e| Error::io(p, e));
    let mut text = if target.is_file() {
        read(&target)?
    } else {
        String::new()
    };
    let before = text.clone();
    let shards: Vec<&PathBuf> = sources.iter().filter(|s| !same(s, out)).collect();
    for s in &shards {
        let file = s.join(PROVENANCE);
        if !file.is_file() {
            continue;
        }
        let theirs = read(&file)?;
        if text.contains(theirs.trim()) {
            continue;
        }
        if text.trim().is_empty() {
            text = theirs;
        } else {
            text = format!(
                "{}\n\n## Provenance of the shard {}\n\n{}",
                text.trim_end(),
                s.display(),
                theirs.trim()
            );
        }
    }
    if text.trim().is_empty() {
        return Ok(false);
    }
    let names: Vec<String> = shards.iter().map(|s| s.display().to_string()).collect();
    let line = format!("Merged with `advise merge` from: {}.", names.join(", "));
    if !text.contains(&line) {
        text = format!("{}\n\n{line}\n", text.trim_end());
    }
    if text != before {
        std::fs::write(&target, text).map_err(|e| Error::io(&target, e))?;
    }
    Ok(true)
}

/// The record `name` that every folder of `dirs` holds alike (compared as JSON values), as the
/// path of its first copy; `None` when no folder holds it. Folders that disagree, or where some
/// hold it and others do not, are an error naming both.
fn agreed_record(dirs: &[PathBuf], name: &str) -> Result<Option<PathBuf>> {
    let mut first: Option<(PathBuf, serde_json::Value)> = None;
    let mut lacking: Option<&PathBuf> = None;
    for dir in dirs {
        let path = dir.join(name);
        if !path.is_file() {
            lacking.get_or_insert(dir);
            continue;
        }
        let text = std::fs::read_to_string(&path).map_err(|e| Error::io(&path, e))?;
        let value: serde_json::Value = serde_json::from_str(&text)
            .map_err(|e| Error::format(&path, format!("not a JSON record: {e}")))?;
        match &first {
            None => first = Some((path, value)),
            Some((kept, v)) if *v != value => {
                return Err(Error::Usage(format!(
                    "{} and {} differ: the shards come from different {}; merge only shards \
                     of one {}, or merge each into its own folder",
                    kept.display(),
                    path.display(),
                    what_differs(name).0,
                    what_differs(name).1
                )))
            }
            Some(_) => {}
        }
    }
    match (first, lacking) {
        (Some((kept, _)), Some(dir)) => Err(Error::Usage(format!(
            "{} holds {name} but {} has none: {}; merge each into its own folder",
            kept.parent().unwrap_or(Path::new(".")).display(),
            dir.display(),
            what_differs(name).2
        ))),
        (first, _) => Ok(first.map(|(p, _)| p)),
    }
}

/// For a record's name: what differing copies mean, what one merge may hold, and what one
/// present beside one missing means.
fn what_differs(name: &str) -> (&'static str, &'static str, &'static str) {
    if name == SIMULATOR_RECORD {
        (
            "simulators or configurations",
            "simulator configuration",
            "one is SIMULATED and the other is not, and a merged folder would label every row \
             simulated",
        )
    } else {
        (
            "GPUs",
            "GPU",
            "one names its GPU and the other does not, and a merged folder would give every \
             row that GPU",
        )
    }
}

/// Whether `dir` holds one of a campaign's tables or its raw folder.
fn holds_campaign(dir: &Path) -> bool {
    dir.join(RAW).is_dir() || TABLES.iter().any(|(name, _)| table_in(dir, name).is_some())
}

/// Where `dir` holds the table `name` (`measurements.csv`), plain or compressed
/// (`measurements.csv.gz`, as a committed campaign may).
fn table_in(dir: &Path, name: &str) -> Option<PathBuf> {
    table::table_path(dir, name.trim_end_matches(".csv"))
}

fn same(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}

/// Copies raw files that `to` does not have yet; returns how many were copied, and the
/// names `to` already has with other content (kept as they are).
fn copy_raw(from: &Path, to: &Path) -> Result<(usize, Vec<String>)> {
    let Ok(entries) = std::fs::read_dir(from) else {
        return Ok((0, Vec::new()));
    };
    let mut n = 0;
    let mut conflicts = Vec::new();
    for e in entries {
        let e = e.map_err(|e| Error::io(from, e))?;
        let target = to.join(e.file_name());
        if !e.path().is_file() {
            continue;
        }
        if !target.exists() {
            std::fs::copy(e.path(), &target).map_err(|err| Error::io(e.path(), err))?;
            n += 1;
        } else if !same_content(&e.path(), &target)? {
            conflicts.push(e.file_name().to_string_lossy().into_owned());
        }
    }
    conflicts.sort();
    Ok((n, conflicts))
}

/// Whether two files hold the same bytes (sizes first).
fn same_content(a: &Path, b: &Path) -> Result<bool> {
    let size = |p: &Path| {
        std::fs::metadata(p)
            .map(|m| m.len())
            .map_err(|e| Error::io(p, e))
    };
    if size(a)? != size(b)? {
        return Ok(false);
    }
    let read = |p: &Path| std::fs::read(p).map_err(|e| Error::io(p, e));
    Ok(read(a)? == read(b)?)
}

#[cfg(test)]
mod tests;
