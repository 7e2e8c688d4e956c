//! Nsight Compute CSV, as ncu versions from 2019 (`nv-nsight-cu-cli`) to 2025 write it.
//!
//! Two shapes share the leading columns `"ID","Process ID",...`:
//! - long (details page, `--metrics`, the default page): one row per (launch, metric) with
//!   `Metric Name`, `Metric Unit`, `Metric Value`; since 2024 also rule rows (`Rule Name`, ...,
//!   `Estimated Speedup`) whose metric cells are empty, and metric rows that stop early with a
//!   trailing comma;
//! - raw (`--page raw`): one row per launch, metric names as columns, a second row of units.
//!
//! Identification columns differ by version (`Kernel Time` in 2020; `Block Size`, `Grid Size`,
//! `Device`, `CC` since 2023), so columns are found by name, never by position; the launch
//! columns stand in for the metrics they give where a launch's cells lack them (ncu_launch).

use std::path::Path;

use super::ncu_launch::LaunchFacts;
use super::text::{records, split_units_row, Header, Line, Record};
use super::value::parse_quantity;
use super::{Format, ProfileData, RuleFinding};
use crate::error::{Error, Result};

const LEADING: [&str; 2] = ["ID", "Process ID"];

/// Columns that describe a launch rather than measure it (raw page).
const ID_COLUMNS: [&str; 14] = [
    "ID",
    "Process ID",
    "Process Name",
    "Host Name",
    "Kernel Name",
    "Kernel Time",
    "Context",
    "Stream",
    "Block Size",
    "Grid Size",
    "Device",
    "CC",
    "Function Name",
    "Demangled Name",
];

/// Finds an ncu table and tells long from raw from the per-kernel summary.
pub fn detect(lines: &[Line<'_>]) -> Option<(Format, Header)> {
    // The per-kernel summary starts with `Process ID`, or with `ID` in some ncu versions; it is
    // told from the long page by its statistics columns instead of `Metric Value`.
    let is_summary = |header: &Header| {
        ["Invocations", "Metric Name", "Average"]
            .iter()
            .all(|c| header.position(c).is_some())
            && header.position("Metric Value").is_none()
    };
    let Some(header) = super::text::find_header(lines, &LEADING) else {
        let header = super::text::find_header(lines, &["Process ID"])?;
        return is_summary(&header).then_some((Format::NcuSummary, header));
    };
    if is_summary(&header) {
        return Some((Format::NcuSummary, header));
    }
    let long =
        header.position("Metric Name").is_some() && header.position("Metric Value").is_some();
    Some((
        if long {
            Format::NcuLong
        } else {
            Format::NcuRaw
        },
        header,
    ))
}

/// Column positions every reader needs.
struct Columns {
    id: usize,
    kernel: usize,
}

fn launch_columns(path: &Path, lines: &[Line<'_>], header: &Header) -> Result<Columns> {
    let line = lines[header.index].number;
    let need = |name: &str| {
        header.position(name).ok_or_else(|| {
            Error::parse(
                path,
                line,
                format!("ncu header has no `{name}` column; is this a complete ncu --csv file?"),
            )
        })
    };
    Ok(Columns {
        id: need("ID")?,
        kernel: need("Kernel Name")?,
    })
}

fn field(record: &Record, pos: usize) -> &str {
    record.fields.get(pos).map(String::as_str).unwrap_or("")
}

fn launch_id(path: &Path, record: &Record, pos: usize) -> Result<u64> {
    let cell = field(record, pos).trim();
    cell.replace(',', "").parse().map_err(|_| {
        Error::parse(
            path,
            record.line,
            format!("launch ID `{cell}` is not a number (row cut off or not ncu output?)"),
        )
    })
}

/// Checks a row's width: rows may stop early (trailing columns left out) but must reach `min`
/// fields, and may not have more fields than the header (apart from empty trailing ones).
fn check_width(path: &Path, record: &Record, header: &Header, min: usize) -> Result<()> {
    let n = record.fields.len();
    let extra_nonempty = record.fields[header.columns.len().min(n)..]
        .iter()
        .any(|f| !f.is_empty());
    if n < min || extra_nonempty {
        return Err(Error::parse(
            path,
            record.line,
            format!(
                "row has {n} fields, the header has {} (file cut off, or a different delimiter?)",
                header.columns.len()
            ),
        ));
    }
    Ok(())
}

/// Reads the long form.
pub fn parse_long(path: &Path, lines: &[Line<'_>], header: &Header) -> Result<ProfileData> {
    let cols = launch_columns(path, lines, header)?;
    let pos = |name: &str| header.position(name);
    let (Some(name), Some(value)) = (pos("Metric Name"), pos("Metric Value")) else {
        return Err(Error::parse(
            path,
            lines[header.index].number,
            "no Metric Name / Metric Value columns",
        ));
    };
    let unit = pos("Metric Unit");
    let section = pos("Section Name");
    let rule = pos("Rule Name");
    let min_width = cols.id.max(cols.kernel).max(name) + 1;
    let mut data = ProfileData::empty(Format::NcuLong);
    let mut facts = LaunchFacts::new(header);
    for record in records(path, lines, header.index)? {
        check_width(path, &record, header, min_width)?;
        let launch = launch_id(path, &record, cols.id)?;
        let kernel = field(&record, cols.kernel).to_string();
        facts.note(&record, &kernel, launch, 1);
        let metric = field(&record, name);
        if metric.is_empty() {
            if let Some(r) = rule.filter(|&r| !field(&record, r).is_empty()) {
                data.rules
                    .push(rule_finding(&record, header, r, kernel, launch, section));
            }
            continue;
        }
        let unit_text = unit.map(|u| field(&record, u)).unwrap_or("");
        data.push_cell(&kernel, launch, 1, metric, field(&record, value), unit_text);
    }
    facts.add_missing(&mut data);
    Ok(data)
}

fn rule_finding(
    record: &Record,
    header: &Header,
    rule: usize,
    kernel: String,
    launch: u64,
    section: Option<usize>,
) -> RuleFinding {
    let get = |name: &str| {
        header
            .position(name)
            .map(|p| field(record, p).to_string())
            .unwrap_or_default()
    };
    let speedup = get("Estimated Speedup");
    RuleFinding {
        kernel,
        launch,
        section: section
            .map(|s| field(record, s).to_string())
            .unwrap_or_default(),
        rule: field(record, rule).to_string(),
        rule_type: get("Rule Type"),
        description: get("Rule Description"),
        speedup_type: get("Estimated Speedup Type"),
        estimated_speedup: parse_quantity(&speedup, "").map(|q| q.value),
    }
}

/// Reads `--print-summary per-kernel --csv`: one row per (kernel and launch shape, section,
/// metric) with `Invocations`, `Minimum`, `Maximum` and `Average`. Each kernel and launch shape
/// becomes one pseudo-launch (numbered in order of appearance) standing for its invocations,
/// with the average as its value, as nvprof's summary rows are read.
pub fn parse_summary(path: &Path, lines: &[Line<'_>], header: &Header) -> Result<ProfileData> {
    let line = lines[header.index].number;
    let need = |name: &str| {
        header.position(name).ok_or_else(|| {
            Error::parse(
                path,
                line,
                format!("ncu summary header has no `{name}` column"),
            )
        })
    };
    let (kernel, invocations, name, average) = (
        need("Kernel Name")?,
        need("Invocations")?,
        need("Metric Name")?,
        need("Average")?,
    );
    let unit = header.position("Metric Unit");
    let shape: Vec<usize> = ["Block Size", "Grid Size", "Device"]
        .iter()
        .filter_map(|c| header.position(c))
        .collect();
    let min_width = kernel.max(invocations).max(name).max(average) + 1;
    let mut data = ProfileData::empty(Format::NcuSummary);
    let mut facts = LaunchFacts::new(header);
    let mut groups: Vec<String> = Vec::new();
    for record in records(path, lines, header.index)? {
        check_width(path, &record, header, min_width)?;
        let k = field(&record, kernel).to_string();
        let mut group = k.clone();
        for &c in &shape {
            group.push('|');
            group.push_str(field(&record, c));
        }
        let launch = match groups.iter().position(|g| *g == group) {
            Some(i) => i,
            None => {
                groups.push(group);
                groups.len() - 1
            }
        } as u64;
        let count =
            super::nvprof::parse_invocations(path, record.line, field(&record, invocations))?;
        let unit_text = unit.map(|u| field(&record, u)).unwrap_or("");
        facts.note(&record, &k, launch, count);
        data.push_cell(
            &k,
            launch,
            count,
            field(&record, name),
            field(&record, average),
            unit_text,
        );
    }
    facts.add_missing(&mut data);
    Ok(data)
}

/// Reads the raw page: header of metric names, then (usually) a row of units whose ID cell is
/// empty, then one row per launch.
pub fn parse_raw(path: &Path, lines: &[Line<'_>], header: &Header) -> Result<ProfileData> {
    let cols = launch_columns(path, lines, header)?;
    let metrics: Vec<usize> = (0..header.columns.len())
        .filter(|&i| !ID_COLUMNS.contains(&header.columns[i].as_str()))
        .filter(|&i| !header.columns[i].is_empty())
        .collect();
    if metrics.is_empty() {
        return Err(Error::parse(
            path,
            lines[header.index].number,
            "ncu header has neither metric columns nor Metric Name/Metric Value",
        ));
    }
    let (units, rows) = split_units_row(
        records(path, lines, header.index)?,
        header.columns.len(),
        |r| field(r, cols.id).trim().is_empty(),
    );
    let min_width = cols.id.max(cols.kernel) + 1;
    let mut data = ProfileData::empty(Format::NcuRaw);
    let mut facts = LaunchFacts::new(header);
    for record in rows {
        check_width(path, &record, header, min_width)?;
        let launch = launch_id(path, &record, cols.id)?;
        let kernel = field(&record, cols.kernel);
        facts.note(&record, kernel, launch, 1);
        for &m in &metrics {
            data.push_cell(
                kernel,
                launch,
                1,
                &header.columns[m],
                field(&record, m),
                &units[m],
            );
        }
    }
    facts.add_missing(&mut data);
    Ok(data)
}

#[cfg(test)]
mod tests {
    use super::super::{parse, FormatChoice};
    use std::path::Path;

    #[test]
    fn raw_page_with_units_row() {
        let text = "==PROF== Connected to process 7 (./a)\n\
            \"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"dram__bytes_read.sum\",\"gpu__time_duration.sum\",\"sm__cycles_active.avg\"\n\
            \"\",\"\",\"\",\"\",\"\",\"Kbyte\",\"usecond\",\"cycle\"\n\
            \"0\",\"7\",\"a\",\"h\",\"k1\",\"1,024.5\",\"3.5\",\"n/a\"\n\
            \"1\",\"7\",\"a\",\"h\",\"k2\",\"2\",\"4\",\"100\"\n";
        let d = parse(Path::new("t.csv"), text.as_bytes(), FormatChoice::Auto).unwrap();
        assert_eq!(d.format, super::Format::NcuRaw);
        assert_eq!(d.measurements.len(), 5);
        assert_eq!(d.skipped_cells, 1);
        assert_eq!(d.measurements[0].value, 1_024_500.0);
        assert_eq!(d.measurements[0].unit, "byte");
        assert_eq!(d.launches().len(), 2);
    }

    #[test]
    fn short_row_names_its_line() {
        let text = "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n\
            \"0\",\"1\",\"p\",\"h\",\"k\",\"m\",\"cycle\",\"5\"\n\
            \"0\",\"1\",\"p\"\n";
        let err = parse(Path::new("t.csv"), text.as_bytes(), FormatChoice::Auto).unwrap_err();
        assert_eq!(err.to_string().split(':').nth(1), Some("3"));
    }

    #[test]
    fn summary_with_a_leading_id_column_is_still_the_summary() {
        let text = "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Block Size\",\"Grid Size\",\"Device\",\"CC\",\"Invocations\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Minimum\",\"Maximum\",\"Average\"\n\
            \"0\",\"7\",\"a\",\"h\",\"k\",\"(256, 1, 1)\",\"(8, 1, 1)\",\"0\",\"9.0\",\"3\",\"s\",\"sm__cycles_active.avg\",\"cycle\",\"1,000\",\"3,000\",\"2,000.5\"\n";
        let d = parse(Path::new("t.csv"), text.as_bytes(), FormatChoice::Auto).unwrap();
        assert_eq!(d.format, super::Format::NcuSummary);
        // The cell, then the launch columns' block size and compute capability (ncu_launch).
        assert_eq!((d.measurements.len(), d.launch_facts), (4, 3));
        assert_eq!(d.measurements[0].value, 2_000.5);
        assert_eq!(d.measurements[1].metric, "launch__block_size");
        assert_eq!(d.measurements[1].value, 256.0);
        assert_eq!(d.measurements[1].invocations, 3);
        assert_eq!(d.measurements[0].invocations, 3);
        // A launch cell that holds no block size or capability is counted as a cell without
        // a number (it was left out unsaid); an empty one is not.
        let bad = text
            .replace("(256, 1, 1)", "(-256, 1, 1)")
            .replace("\"9.0\"", "\"\"");
        let d = parse(Path::new("t.csv"), bad.as_bytes(), FormatChoice::Auto).unwrap();
        assert_eq!((d.measurements.len(), d.launch_facts), (1, 0));
        assert_eq!(d.skipped_cells, 1);
        assert_eq!(
            d.first_skipped.as_deref(),
            Some("Block Size = `(-256, 1, 1)`")
        );
    }
}
