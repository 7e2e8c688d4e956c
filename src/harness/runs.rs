//! What a variant program prints: one JSON line per (input, run) (variants/README.md), and
//! the check that a variant's final state agrees with the baseline's.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// One kernel's times in one run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KernelTime {
    pub name: String,
    pub median_ms: f64,
    #[serde(default)]
    pub times_ms: Vec<f64>,
}

/// One JSON line of a variant program.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunRecord {
    pub program: String,
    pub variant: String,
    pub input: String,
    pub bodies: u32,
    pub steps: u32,
    #[serde(default)]
    pub seed: u64,
    pub run: u32,
    pub repetitions: u32,
    #[serde(default)]
    pub warmup: u32,
    /// Median over the repetitions of the timed region (all time steps), CUDA events.
    pub time_ms: f64,
    pub times_ms: Vec<f64>,
    #[serde(default)]
    pub kernels: Vec<KernelTime>,
    #[serde(default)]
    pub launches: u32,
    #[serde(default)]
    pub profiled_steps: u32,
    /// Kernel launches inside cudaProfilerStart/Stop: how ncu's launches split by input.
    #[serde(default)]
    pub profiled_launches: u32,
    /// Sum of |position| and sum of |velocity| of the final state.
    pub checksum: Vec<f64>,
    #[serde(default)]
    pub device: String,
    #[serde(default)]
    pub cc: String,
    /// With `--verify 1`: the forces' error against direct summation on the CPU.
    #[serde(default)]
    pub force_error: Option<ForceError>,
}

/// How far a program's forces are from direct summation in double precision
/// (variants/README.md, "Agreement with the baseline").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ForceError {
    /// sqrt(sum |a - a_ref|^2 / sum |a_ref|^2).
    pub rms: f64,
    /// The largest |a_i - a_ref_i| over the RMS of |a_ref|.
    pub worst: f64,
    /// The program's own limit on `rms`.
    pub tolerance: f64,
}

/// Reads every JSON line of a program's standard output; other lines (ncu's `==PROF==`
/// messages when the program runs under the profiler) are skipped.
pub fn parse_records(stdout: &str) -> Result<Vec<RunRecord>> {
    stdout
        .lines()
        .enumerate()
        .filter(|(_, l)| l.trim_start().starts_with('{'))
        .map(|(i, l)| {
            serde_json::from_str(l.trim()).map_err(|e| {
                Error::parse("<program stdout>", i + 1, format!("not a run record: {e}"))
            })
        })
        .collect()
}

/// The baseline's checksum for one input, against which variants are compared.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reference {
    pub program: String,
    pub input: String,
    pub checksum: Vec<f64>,
}

/// Why a variant's result disagrees with the baseline, or None when it agrees. Each checksum
/// component may differ by at most `tolerance` relative to the baseline's.
pub fn disagreement(record: &RunRecord, reference: &[f64], tolerance: f64) -> Option<String> {
    if record.checksum.len() != reference.len() || reference.is_empty() {
        return Some(format!(
            "checksum has {} values, the baseline's {}",
            record.checksum.len(),
            reference.len()
        ));
    }
    for (i, (&got, &want)) in record.checksum.iter().zip(reference).enumerate() {
        if !got.is_finite() {
            return Some(format!("checksum[{i}] is {got}"));
        }
        let rel = relative_difference(got, want);
        if rel > tolerance {
            return Some(format!(
                "checksum[{i}] = {got} differs from the baseline's {want} by {rel:.3e} \
                 (tolerance {tolerance:.1e})"
            ));
        }
    }
    None
}

/// |a - b| / max(|b|, tiny).
pub fn relative_difference(a: f64, b: f64) -> f64 {
    (a - b).abs() / b.abs().max(1e-30)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: &str = r#"{"program":"NB","variant":"010011","input":"bodies=1000,steps=2","bodies":1000,"steps":2,"seed":1,"run":1,"repetitions":3,"warmup":1,"time_ms":1.5,"times_ms":[1.4,1.5,1.6],"kernels":[{"name":"force","median_ms":1.2,"times_ms":[1.1,1.2,1.3]}],"launches":4,"profiled_steps":0,"checksum":[712.5,655.25],"device":"NVIDIA H100","cc":"9.0"}"#;

    #[test]
    fn reads_json_lines_and_skips_profiler_chatter() {
        let out = format!("==PROF== Connected to process 1\n{LINE}\n==PROF== Disconnected\n");
        let recs = parse_records(&out).unwrap();
        assert_eq!(recs.len(), 1);
        assert_eq!(recs[0].variant, "010011");
        assert_eq!(recs[0].kernels[0].name, "force");
        assert_eq!(recs[0].checksum, vec![712.5, 655.25]);
    }

    #[test]
    fn tolerance_decides_agreement() {
        let rec = parse_records(LINE).unwrap().remove(0);
        assert_eq!(disagreement(&rec, &[712.5, 655.25], 1e-6), None);
        assert_eq!(disagreement(&rec, &[712.51, 655.25], 1e-4), None);
        let why = disagreement(&rec, &[713.5, 655.25], 1e-4).unwrap();
        assert!(why.contains("checksum[0]"), "{why}");
        assert!(disagreement(&rec, &[1.0], 1.0).is_some());
    }

    #[test]
    fn broken_json_is_an_error_with_its_line() {
        let e = parse_records("{\"program\":").unwrap_err();
        assert!(e.to_string().contains(":1:"), "{e}");
    }
}
