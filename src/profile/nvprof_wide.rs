//! nvprof's one-row-per-launch CSV tables:
//! - `--csv --aggregate-mode off --events/--metrics`: `"Device","Context","Stream","Kernel"`
//!   and then one column per counter (events by name, metrics by their *description*, e.g.
//!   `Achieved Occupancy`), a row of units, then one row per launch;
//! - `--csv --print-gpu-trace`: `"Start","Duration",...,"Name"`, a row of units, then one row
//!   per kernel launch or memory copy. Copies (`[CUDA memcpy HtoD]`) are not kernels and are
//!   left out; the trace's `Duration`, grid and block sizes, registers and shared memory become
//!   measurements of each launch. Kernel names lose nvprof's ` [123]` correlation suffix.

use std::path::Path;

use super::nvprof::index_of;
use super::text::{find_header, records, split_units_row, Header, Line, Record};
use super::{Format, ProfileData};
use crate::error::{Error, Result};

const WIDE_ID: [&str; 4] = ["Device", "Context", "Stream", "Kernel"];
const TRACE_ID: [&str; 2] = ["Start", "Duration"];
/// Trace columns that are not numbers of the launch.
const TRACE_TEXT: [&str; 5] = ["Start", "Device", "Context", "Stream", "Name"];

pub fn detect(lines: &[Line<'_>]) -> Option<(Format, Header)> {
    if let Some(h) = find_header(lines, &WIDE_ID) {
        return Some((Format::NvprofWide, h));
    }
    let h = find_header(lines, &TRACE_ID)?;
    h.position("Name").map(|_| (Format::NvprofTrace, h))
}

/// Whether a row is the units row: no cell holds a number.
fn is_units_row(r: &Record) -> bool {
    r.fields
        .iter()
        .all(|c| c.trim().is_empty() || c.trim().parse::<f64>().is_err())
}

/// Strips nvprof's correlation suffix: `k(int) [115]` -> `k(int)`.
fn kernel_name(name: &str) -> &str {
    match name.rfind(" [") {
        Some(i)
            if name.ends_with(']')
                && name[i + 2..name.len() - 1]
                    .bytes()
                    .all(|b| b.is_ascii_digit()) =>
        {
            &name[..i]
        }
        _ => name,
    }
}

pub fn parse(
    path: &Path,
    lines: &[Line<'_>],
    header: &Header,
    format: Format,
) -> Result<ProfileData> {
    let name_col = match format {
        Format::NvprofTrace => "Name",
        _ => "Kernel",
    };
    let (Some(kernel_col), Some(device_col)) =
        (header.position(name_col), header.position("Device"))
    else {
        return Err(Error::parse(
            path,
            lines[header.index].number,
            format!("nvprof header has no `{name_col}` or `Device` column"),
        ));
    };
    let skip: &[&str] = if format == Format::NvprofTrace {
        &TRACE_TEXT
    } else {
        &WIDE_ID
    };
    let counters: Vec<usize> = (0..header.columns.len())
        .filter(|&i| !skip.contains(&header.columns[i].as_str()))
        .collect();
    let (units, rows) = split_units_row(
        records(path, lines, header.index)?,
        header.columns.len(),
        is_units_row,
    );
    let mut data = ProfileData::empty(format);
    let mut launches: Vec<(String, String)> = Vec::new();
    for (row, record) in rows.into_iter().enumerate() {
        if record.fields.len() != header.columns.len() {
            return Err(Error::parse(
                path,
                record.line,
                format!(
                    "row has {} fields, the header has {} (file cut off?)",
                    record.fields.len(),
                    header.columns.len()
                ),
            ));
        }
        let name = record.fields[kernel_col].as_str();
        if format == Format::NvprofTrace && name.starts_with("[CUDA ") {
            continue;
        }
        let kernel = kernel_name(name).to_string();
        // Every row is its own launch; the key includes the row so repeated kernels stay apart.
        let launch = index_of(
            &mut launches,
            (record.fields[device_col].clone(), format!("{row}:{kernel}")),
        );
        for &c in &counters {
            data.push_cell(
                &kernel,
                launch,
                1,
                &header.columns[c],
                &record.fields[c],
                &units[c],
            );
        }
    }
    Ok(data)
}

#[cfg(test)]
mod tests {
    #[test]
    fn correlation_suffix_is_stripped() {
        assert_eq!(super::kernel_name("k(float*, int) [115]"), "k(float*, int)");
        assert_eq!(super::kernel_name("k [x]"), "k [x]");
        assert_eq!(super::kernel_name("k"), "k");
    }
}
