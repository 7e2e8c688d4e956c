//! Where a report's data comes from, one line per dataset folder: a simulated campaign says
//! SIMULATED with its simulator, commit and configuration (`simulator.json`); a measured one
//! names the GPUs its timings record (`timings.csv`'s `device` column), where it has them.

use std::path::PathBuf;

use advise::dataset::table::{csv_error, table_path, with_header};
use advise::error::Result;
use advise::harness::collect_sim::SimRecord;

/// The lines for `dirs`, in their order; folders that record neither give none.
pub fn data_notes(dirs: &[PathBuf]) -> Result<Vec<String>> {
    let mut out = Vec::new();
    for dir in dirs {
        if let Some(r) = SimRecord::read(dir)? {
            out.push(format!("SIMULATED: {}: {}", dir.display(), r.describe()));
            continue;
        }
        let Some(path) = table_path(dir, "timings") else {
            continue;
        };
        let (mut rdr, header) = with_header(&path)?;
        let Some(col) = header.iter().position(|c| c == "device") else {
            continue;
        };
        let mut devices: Vec<String> = Vec::new();
        for rec in rdr.records() {
            let rec = rec.map_err(|e| csv_error(&path, e))?;
            if let Some(d) = rec.get(col).filter(|d| !d.is_empty()) {
                if !devices.iter().any(|x| x == d) {
                    devices.push(d.to_string());
                }
            }
        }
        if !devices.is_empty() {
            out.push(format!(
                "measured: {} on {} (its PROVENANCE.md has the versions and commands)",
                dir.display(),
                devices.join(", ")
            ));
        }
    }
    Ok(out)
}
