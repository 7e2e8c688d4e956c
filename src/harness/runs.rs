//! What a variant program prints: one JSON line per (input, run) (variants/README.md), and
//! the check that a variant's final state agrees with the baseline's.

use std::path::Path;

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
/// messages when the program runs under the profiler) are skipped. `source` names the file
/// the output was saved to, `who` what printed it (`NB 010011`): a line that is not a run
/// record, or a record of another program or variant, is an error at its line.
pub fn parse_records(stdout: &str, source: &Path, who: (&str, &str)) -> Result<Vec<RunRecord>> {
    let (program, variant) = who;
    stdout
        .lines()
        .enumerate()
        .filter(|(_, l)| l.trim_start().starts_with('{'))
        .map(|(i, l)| {
            let at = |why: String| {
                Error::parse(
                    source,
                    i + 1,
                    format!("{why} (the output of {program} {variant})"),
                )
            };
            let r: RunRecord =
                serde_json::from_str(l.trim()).map_err(|e| at(format!("not a run record: {e}")))?;
            if !r.program.eq_ignore_ascii_case(program) || r.variant != variant {
                return Err(at(format!(
                    "the record is of {} {}: is the binary in --bin-dir the variant it is \
                     named after?",
                    r.program, r.variant
                )));
            }
            Ok(r)
        })
        .collect()
}

impl RunRecord {
    /// The first time of a timed run that cannot be: the run's or a repetition's not a
    /// plausible number of milliseconds, a kernel's negative or not finite (a kernel that ran
    /// under a microsecond may print 0); `None` when all can. Not for runs under GPGPU-Sim,
    /// whose CUDA events return no real time (the simulator's cycles are its times).
    pub fn bad_time(&self) -> Option<String> {
        let run = std::iter::once(("time_ms", self.time_ms))
            .chain(self.times_ms.iter().map(|&t| ("times_ms", t)))
            .find(|&(_, t)| !crate::dataset::measurements::plausible_time_ms(t));
        let kernel = || {
            self.kernels.iter().find_map(|k| {
                std::iter::once(k.median_ms)
                    .chain(k.times_ms.iter().copied())
                    .find(|t| !(t.is_finite() && *t >= 0.0))
                    .map(|t| (k.name.as_str(), t))
            })
        };
        match (run, kernel()) {
            (Some((name, t)), _) => Some(format!(
                "{name} {t}: a run's time must be a positive, finite number of milliseconds"
            )),
            (None, Some((name, t))) => Some(format!(
                "kernel {name} took {t} ms: a kernel's time must be a finite number, 0 or more"
            )),
            (None, None) => None,
        }
    }
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
    if reference.is_empty() {
        return Some(
            "the baseline printed an empty checksum, so no variant can be checked against it"
                .into(),
        );
    }
    if record.checksum.len() != reference.len() {
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
        let recs = parse_records(&out, Path::new("t.jsonl"), ("NB", "010011")).unwrap();
        assert_eq!(recs.len(), 1);
        assert_eq!(recs[0].variant, "010011");
        assert_eq!(recs[0].kernels[0].name, "force");
        assert_eq!(recs[0].checksum, vec![712.5, 655.25]);
    }

    #[test]
    fn tolerance_decides_agreement() {
        let rec = parse_records(LINE, Path::new("t.jsonl"), ("NB", "010011"))
            .unwrap()
            .remove(0);
        assert_eq!(disagreement(&rec, &[712.5, 655.25], 1e-6), None);
        assert_eq!(disagreement(&rec, &[712.51, 655.25], 1e-4), None);
        let why = disagreement(&rec, &[713.5, 655.25], 1e-4).unwrap();
        assert!(why.contains("checksum[0]"), "{why}");
        assert!(disagreement(&rec, &[1.0], 1.0).is_some());
    }

    #[test]
    fn broken_json_is_an_error_with_its_line() {
        let e = parse_records("{\"program\":", Path::new("t.jsonl"), ("NB", "010011"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("t.jsonl:1: not a run record"), "{e}");
        assert!(e.ends_with("(the output of NB 010011)"), "{e}");
    }

    #[test]
    fn a_record_of_another_variant_or_an_impossible_time_is_said() {
        let e = parse_records(LINE, Path::new("t.jsonl"), ("BH", "010011"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("t.jsonl:1: the record is of NB 010011"), "{e}");
        let e = parse_records(LINE, Path::new("t.jsonl"), ("NB", "000000"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("the record is of NB 010011"), "{e}");
        let rec = |from: &str, to: &str| {
            parse_records(&LINE.replace(from, to), Path::new("t"), ("NB", "010011"))
                .unwrap()
                .remove(0)
        };
        assert_eq!(rec("", "").bad_time(), None);
        let why = rec("\"time_ms\":1.5", "\"time_ms\":-5").bad_time().unwrap();
        assert!(
            why.starts_with("time_ms -5: a run's time must be a positive"),
            "{why}"
        );
        let why = rec("1.4,1.5", "0,1.5").bad_time().unwrap();
        assert!(why.starts_with("times_ms 0:"), "{why}");
        let why = rec("\"median_ms\":1.2", "\"median_ms\":-1")
            .bad_time()
            .unwrap();
        assert!(why.starts_with("kernel force took -1 ms"), "{why}");
        // A kernel under a microsecond prints 0.
        assert_eq!(rec("1.1,1.2,1.3", "0,0,0").bad_time(), None);
        let empty = rec("", "");
        let why = disagreement(&empty, &[], 1e-6).unwrap();
        assert!(
            why.starts_with("the baseline printed an empty checksum"),
            "{why}"
        );
    }
}
