//! nvprof output: `--csv --metrics`, `--csv --events`, and the aligned text tables nvprof
//! prints without `--csv`.
//!
//! nvprof reports one row per (device, kernel, metric) summarised over the kernel's
//! invocations (Min, Max, Avg; events also Total). advise keeps `Avg` as the value and the
//! invocation count beside it, so aggregation can rebuild totals (Avg x Invocations).
//! Values carry their units (`12.5GB/s`, `45.3%`) unless `--csv` was combined with
//! `--normalized-time-unit`; `value::parse_quantity` brings them to base units.

use std::path::Path;

use super::text::{find_header, records, Header, Line};
use super::{Format, ProfileData};
use crate::error::{Error, Result};

/// Finds an nvprof table: CSV first, then the aligned text form.
pub fn detect(lines: &[Line<'_>]) -> Option<(Format, Header)> {
    if let Some(found) = super::nvprof_wide::detect(lines) {
        return Some(found);
    }
    if let Some(h) = find_header(lines, &["Device", "Kernel", "Invocations"]) {
        let fourth = h.columns.get(3).map(|c| c.trim());
        let format = match fourth {
            Some("Event Name") => Format::NvprofEvents,
            _ => Format::NvprofMetrics,
        };
        return Some((format, h));
    }
    text_header(lines)
}

/// The text form's header: `Invocations  Metric Name  Metric Description  Min  Max  Avg` (or
/// `Event Name ... Total`). The stored "columns" are the labels; positions are recomputed.
fn text_header(lines: &[Line<'_>]) -> Option<(Format, Header)> {
    lines.iter().enumerate().find_map(|(index, l)| {
        let t = l.text.trim_start();
        let metric = t.starts_with("Invocations") && t.contains("Metric Name");
        let event = t.starts_with("Invocations") && t.contains("Event Name");
        (metric || event).then(|| {
            (
                Format::NvprofText,
                Header {
                    index,
                    columns: labels(l.text).into_iter().map(|(s, _)| s).collect(),
                },
            )
        })
    })
}

/// Labels of an aligned header and the byte offset where each ends. Labels are separated by
/// two or more spaces (a label itself may hold one space, as in `Metric Name`).
fn labels(line: &str) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        while i < bytes.len() && bytes[i] == b' ' {
            i += 1;
        }
        let start = i;
        while i < bytes.len() && !(bytes[i] == b' ' && bytes.get(i + 1).is_none_or(|&b| b == b' '))
        {
            i += 1;
        }
        if i > start {
            out.push((line[start..i].to_string(), i));
        }
    }
    out
}

/// The columns of one nvprof summary table (a file may hold an events table and then a
/// metrics table, each with its own header).
struct SummaryColumns {
    device: usize,
    kernel: usize,
    invocations: usize,
    name: usize,
    avg: usize,
    width: usize,
}

impl SummaryColumns {
    fn of(path: &Path, line: usize, columns: &[String]) -> Result<Self> {
        let pos = |n: &str| columns.iter().position(|c| c.trim() == n);
        let need = |n: &str| {
            pos(n).ok_or_else(|| {
                Error::parse(path, line, format!("nvprof header has no `{n}` column"))
            })
        };
        Ok(SummaryColumns {
            device: need("Device")?,
            kernel: need("Kernel")?,
            invocations: need("Invocations")?,
            name: pos("Metric Name").or(pos("Event Name")).ok_or_else(|| {
                Error::parse(
                    path,
                    line,
                    "nvprof header has no Metric Name or Event Name column",
                )
            })?,
            avg: need("Avg")?,
            width: columns.len(),
        })
    }
}

fn is_summary_header(fields: &[String]) -> bool {
    fields.len() >= 3
        && fields[0] == "Device"
        && fields[1] == "Kernel"
        && fields[2] == "Invocations"
}

/// Reads `--csv --metrics` and `--csv --events` output, including files where an events table
/// is followed by a metrics table.
pub fn parse_csv(
    path: &Path,
    lines: &[Line<'_>],
    header: &Header,
    format: Format,
) -> Result<ProfileData> {
    let mut cols = SummaryColumns::of(path, lines[header.index].number, &header.columns)?;
    let mut data = ProfileData::empty(format);
    let mut kernels: Vec<(String, String)> = Vec::new();
    for record in records(path, lines, header.index)? {
        if is_summary_header(&record.fields) {
            cols = SummaryColumns::of(path, record.line, &record.fields)?;
            continue;
        }
        if record.fields.len() != cols.width {
            return Err(Error::parse(
                path,
                record.line,
                format!(
                    "row has {} fields, the header has {} (file cut off?)",
                    record.fields.len(),
                    cols.width
                ),
            ));
        }
        let f = |i: usize| record.fields[i].as_str();
        let invocations = parse_invocations(path, record.line, f(cols.invocations))?;
        let key = (f(cols.device).to_string(), f(cols.kernel).to_string());
        let launch = index_of(&mut kernels, key);
        data.push_cell(
            f(cols.kernel),
            launch,
            invocations,
            f(cols.name),
            f(cols.avg),
            "",
        );
    }
    Ok(data)
}

/// Reads the aligned text form: `Device "..."` and `Kernel: ...` lines introduce rows whose
/// columns are right-aligned under the header's labels.
pub fn parse_text(path: &Path, lines: &[Line<'_>], header: &Header) -> Result<ProfileData> {
    let ends: Vec<usize> = labels(lines[header.index].text)
        .into_iter()
        .map(|(_, e)| e)
        .collect();
    let col = |name: &str| header.position(name);
    let (Some(inv), Some(name), Some(avg)) = (
        col("Invocations"),
        col("Metric Name").or(col("Event Name")),
        col("Avg"),
    ) else {
        return Err(Error::parse(
            path,
            lines[header.index].number,
            "nvprof text header lacks Invocations, Metric/Event Name or Avg",
        ));
    };
    let mut data = ProfileData::empty(Format::NvprofText);
    let mut kernels: Vec<(String, String)> = Vec::new();
    let mut device = String::new();
    let mut kernel: Option<String> = None;
    for line in &lines[header.index + 1..] {
        let t = line.text.trim();
        if t.is_empty() || super::text::is_notice(t) {
            continue;
        }
        if let Some(d) = t.strip_prefix("Device ") {
            device = d.trim_matches('"').to_string();
            continue;
        }
        if let Some(k) = t.strip_prefix("Kernel: ") {
            kernel = Some(k.to_string());
            continue;
        }
        let Some(kernel) = &kernel else {
            return Err(Error::parse(
                path,
                line.number,
                "row before any `Kernel:` line",
            ));
        };
        let cell = |i: usize| {
            let start = if i == 0 { 0 } else { ends[i - 1] };
            line.text.get(start..ends[i]).unwrap_or("").trim()
        };
        if line.text.len() < ends[ends.len() - 1] {
            return Err(Error::parse(
                path,
                line.number,
                "row is shorter than the header's columns (file cut off?)",
            ));
        }
        let invocations = parse_invocations(path, line.number, cell(inv))?;
        let launch = index_of(&mut kernels, (device.clone(), kernel.clone()));
        data.push_cell(kernel, launch, invocations, cell(name), cell(avg), "");
    }
    Ok(data)
}

/// An `Invocations` cell (nvprof's, or an Nsight Compute summary's): a positive whole number,
/// thousands separated by commas or not (`1,400`). 0 is an error: the cell weighs the
/// kernel's averages in every total, and a kernel run no time has no averages to weigh.
pub(super) fn parse_invocations(path: &Path, line: usize, cell: &str) -> Result<u64> {
    let count: u64 = cell.trim().replace(',', "").parse().map_err(|_| {
        Error::parse(
            path,
            line,
            format!("Invocations `{cell}` is not a whole number"),
        )
    })?;
    if count == 0 {
        return Err(Error::parse(
            path,
            line,
            "Invocations 0: a kernel that ran no time has no measurements to weigh (is the \
             summary damaged?)",
        ));
    }
    Ok(count)
}

/// The position of `key` in `seen`, appending it when new: nvprof's stand-in for a launch ID.
pub(super) fn index_of(seen: &mut Vec<(String, String)>, key: (String, String)) -> u64 {
    let pos = seen.iter().position(|k| *k == key).unwrap_or_else(|| {
        seen.push(key);
        seen.len() - 1
    });
    pos as u64
}

#[cfg(test)]
mod tests {
    use super::super::{parse, Format, FormatChoice};
    use std::path::Path;

    #[test]
    fn csv_metrics_with_glued_units() {
        let text = "==1== NVPROF is profiling process 1, command: ./a\n\
            ==1== Metric result:\n\
            \"Device\",\"Kernel\",\"Invocations\",\"Metric Name\",\"Metric Description\",\"Min\",\"Max\",\"Avg\"\n\
            \"Tesla K20m (0)\",\"k(int)\",2,\"gld_throughput\",\"Global Load Throughput\",1.0GB/s,3.0GB/s,2.0GB/s\n\
            \"Tesla K20m (0)\",\"k(int)\",2,\"inst_executed\",\"Instructions Executed\",10,30,20\n";
        let d = parse(Path::new("n.csv"), text.as_bytes(), FormatChoice::Auto).unwrap();
        assert_eq!(d.format, Format::NvprofMetrics);
        assert_eq!(d.measurements.len(), 2);
        assert_eq!(d.measurements[0].value, 2e9);
        assert_eq!(d.measurements[0].unit, "byte/second");
        assert_eq!(d.measurements[1].invocations, 2);
    }

    #[test]
    fn csv_events() {
        let text = "\"Device\",\"Kernel\",\"Invocations\",\"Event Name\",\"Min\",\"Max\",\"Avg\",\"Total\"\n\
            \"GTX 680 (0)\",\"k\",1,\"active_cycles\",100,100,100,100\n";
        let d = parse(Path::new("n.csv"), text.as_bytes(), FormatChoice::Nvprof).unwrap();
        assert_eq!(d.format, Format::NvprofEvents);
        assert_eq!(d.measurements[0].metric, "active_cycles");
    }

    /// Thousands separated or not, the count is read; 0 and text are errors naming the line
    /// (the Nsight Compute summary reads its cells the same way).
    #[test]
    fn invocation_counts() {
        let p = Path::new("n.txt");
        assert_eq!(super::parse_invocations(p, 3, " 1,400 ").unwrap(), 1400);
        assert_eq!(super::parse_invocations(p, 3, "7").unwrap(), 7);
        let e = super::parse_invocations(p, 4, "0").unwrap_err().to_string();
        assert!(e.starts_with("n.txt:4: Invocations 0"), "{e}");
        let e = super::parse_invocations(p, 5, "many")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("n.txt:5: Invocations `many`"), "{e}");
    }

    #[test]
    fn labels_keep_single_spaces() {
        let l = super::labels("Invocations    Metric Name   Min");
        let names: Vec<_> = l.iter().map(|(s, _)| s.as_str()).collect();
        assert_eq!(names, vec!["Invocations", "Metric Name", "Min"]);
        assert_eq!(l[1].1, 26);
    }
}
