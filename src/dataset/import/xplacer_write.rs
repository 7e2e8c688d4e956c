//! Writes an imported XPlacer benchmark as a dataset folder with its provenance.

use std::path::Path;

use super::xplacer::{Xplacer, POLICIES};
use crate::error::{Error, Result};

const CAVEATS: &str = "\
When: the upstream profiles carry 2020 timestamps (e.g. bfs graph4096 on AWS, 2020-05-29); the
files are those of the repository's commit of 2021-11-19 (UPSTREAM-PROVENANCE.md).

Caveats: the counters are the baseline's (the upstream notes say so, and the profiled durations
match the baseline's kernel times where the managed variants run 50-100x longer, as in hotspot).
The policy digits were read in the upstream `*_adapt.cu` files (gaussian_adapt.cu lines 283-297;
the same blocks in bfs, cfd and hotspot). gaussian's `-s N` runs (numeric inputs) never call the
function that gives the advice, so for them only policy 1 is kept. bfs varies four of its six
objects. Speedups are of one kernel's mean time per launch (`AVG`), not of the whole program:
page migrations outside kernels are not in them.
";

/// What [`write`](fn@write) wrote.
#[derive(Debug, Clone, serde::Serialize)]
pub struct XplacerSummary {
    pub program: String,
    pub kernel_inputs: usize,
    pub variants: usize,
    pub measurements: usize,
    pub switches: Vec<String>,
    pub without_counters: Vec<String>,
    pub without_baseline: Vec<String>,
}

/// Writes the dataset folder: `measurements.csv.gz`, `timings.csv`, `switches.csv`,
/// `PROVENANCE.md` (and the upstream provenance and license found above `dir`).
pub fn write(x: &Xplacer, dir: &Path, out: &Path, command: &str) -> Result<XplacerSummary> {
    use std::fmt::Write as _;
    super::write_tables(out, &x.measurements, &x.timings, &x.switches)?;
    let summary = XplacerSummary {
        program: x.program.clone(),
        kernel_inputs: x.kernel_inputs,
        variants: x.timings.len(),
        measurements: x.measurements.len(),
        switches: x
            .switches
            .iter()
            .map(|s| format!("{}:{}->{} ({})", s.param, s.from, s.to, s.family))
            .collect(),
        without_counters: x.without_counters.clone(),
        without_baseline: x.without_baseline.clone(),
    };
    // The upstream provenance and license of the copied repository, up to three levels up.
    for (from, to) in [
        ("PROVENANCE.md", "UPSTREAM-PROVENANCE.md"),
        ("LICENSE", "LICENSE.upstream"),
    ] {
        if let Some(f) = dir
            .ancestors()
            .take(4)
            .map(|a| a.join(from))
            .find(|f| f.is_file())
        {
            std::fs::copy(&f, out.join(to)).map_err(|e| Error::io(&f, e))?;
        }
    }
    let digest = |p: &Path| -> Result<String> {
        let bytes = std::fs::read(p).map_err(|e| Error::io(p, e))?;
        Ok(format!("{:016x}", super::fnv1a(&bytes)))
    };
    let mut t = String::new();
    let _ = writeln!(
        t,
        "# Imported XPlacer data-placement variants: {} (real, measured)\n",
        x.program
    );
    let _ = writeln!(t, "Converted by `advise import xplacer` from the files of XPlacer-ML-DataPlacement (UPSTREAM-PROVENANCE.md:");
    let _ = writeln!(
        t,
        "repository, commit, license). GPU: {}. Numbers are as",
        x.machine
    );
    let _ = writeln!(t, "the files hold them, in base units (`Duration` nanoseconds -> seconds; kernel times `AVG` in ms).\n");
    for p in [&x.kernel_stat, &x.counters] {
        let _ = writeln!(
            t,
            "- source: `{}` (FNV-1a 64: `{}`)",
            p.display(),
            digest(p)?
        );
    }
    let _ = writeln!(t, "- kernel and input pairs: {}; variants kept: {} (the baseline, every digit 0, and each variant that changes one object's policy)", summary.kernel_inputs, summary.variants);
    let _ = writeln!(t, "- counter measurements: {} (the baseline's Nsight Compute details-page values per launch from `dataset.csv`; the other variants have only their kernel time, as `gpu__time_duration.sum`)", summary.measurements);
    if !x.without_counters.is_empty() {
        let _ = writeln!(
            t,
            "- left out, no baseline counters: {}",
            x.without_counters.join("; ")
        );
    }
    if !x.without_baseline.is_empty() {
        let _ = writeln!(
            t,
            "- left out, no baseline time (no row with every advise column 0): {}",
            x.without_baseline.join("; ")
        );
    }
    if !x.unknown_units.is_empty() {
        let _ = writeln!(
            t,
            "- counter columns kept without a unit: {}",
            x.unknown_units.join(", ")
        );
    }
    let _ = writeln!(
        t,
        "- switches (object position: policy 0 -> p, family): {}",
        summary.switches.join(", ")
    );
    if let Some(link) = x.host_link {
        // The GPU and its link to the host, for the advisor's per-host answers
        // (dataset::host_link); every XPlacer machine is a V100-SXM2.
        let file = crate::dataset::devices::DeviceFile {
            device: "Tesla V100-SXM2-16GB".into(),
            compute_capability: "7.0".into(),
            host_link: Some(link),
        };
        let path = out.join(crate::dataset::devices::DEVICE_FILE);
        let text = serde_json::to_string_pretty(&file)
            .map_err(|e| Error::Internal(format!("device.json: {e}")))?;
        std::fs::write(&path, text + "\n").map_err(|e| Error::io(&path, e))?;
        let _ = writeln!(
            t,
            "- host link: {} (`device.json`; by the machine above: {})",
            link.label(),
            link.describe()
        );
    }
    let _ = writeln!(t, "- policies (the `advN` macros of every `*_adapt.cu`):");
    for (d, f, m) in POLICIES {
        let _ = writeln!(t, "  - {d} `{f}`: {m}");
    }
    let _ = writeln!(t, "- command: `{command}`\n");
    t.push_str(CAVEATS);
    let prov = out.join("PROVENANCE.md");
    std::fs::write(&prov, t).map_err(|e| Error::io(&prov, e))?;
    Ok(summary)
}
