//! One batch of `advise collect`: all runs of one variant's jobs in one process, checked
//! against the baseline's outputs, timed without the profiler, then profiled with ncu.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::campaign::{join, Campaign, TimingOut};
use super::collect::CollectSettings;
use super::jobs::{Input, Job};
use super::ncu::{self, MetricSpec};
use super::runs::{disagreement, parse_records, RunRecord};
use super::{build, tool};
use crate::dataset::measurements::{rows_of, MeasurementRow, RunKey};
use crate::error::{Error, Result};
use crate::profile::{self, FormatChoice, ProfileData};
use crate::variant::Variant;

pub(super) enum JobResult {
    Ok {
        measurements: Vec<MeasurementRow>,
        timings: Vec<TimingOut>,
        passes: Option<u32>,
        missing: Vec<String>,
    },
    Mismatch(String),
    Failed(String),
}

/// Verifies and times the batch in one process, then profiles the jobs that agree.
pub(super) fn run_batch(
    s: &CollectSettings,
    campaign: &Campaign,
    batch: &[Job],
    profiler: Option<&(PathBuf, Vec<MetricSpec>)>,
) -> Vec<JobResult> {
    let fail_all = |why: String| {
        batch
            .iter()
            .map(|_| JobResult::Failed(why.clone()))
            .collect()
    };
    let variant = batch[0].variant;
    let inputs: Vec<Input> = batch.iter().map(|j| j.input).collect();
    let bin = build::binary(&s.bin_dir, variant);
    let tag = format!(
        "{}_{}_{}",
        s.program.name(),
        variant.bit_string(),
        inputs_tag(&inputs)
    );
    let args = program_args(&inputs, s.runs, s.reps, s.warmup, s.seed, None);
    let timed = match run_program(s, &bin, &args) {
        Ok(out) => out,
        Err(e) => return fail_all(e.to_string()),
    };
    let raw = campaign.raw_dir().join(format!("time_{tag}.jsonl"));
    if let Err(e) = save_raw(&raw, &timed.stdout) {
        return fail_all(e.to_string());
    }
    let who = (s.program.name(), variant.bit_string());
    let records = match parse_records(&timed.stdout, &raw, (who.0, &who.1)) {
        Ok(r) => r,
        Err(e) => return fail_all(e.to_string()),
    };
    // Verify each job from its timed runs' final states.
    let mut verdicts: Vec<Verdict> = Vec::new();
    for job in batch {
        let label = job.input.label();
        let mine: Vec<&RunRecord> = records.iter().filter(|r| r.input == label).collect();
        let reference = campaign
            .reference(s.program.name(), &label)
            .map(|r| r.checksum.clone())
            .unwrap_or_default();
        let bad_time = mine.iter().find_map(|r| r.bad_time());
        let verdict = if mine.len() != s.runs as usize {
            Verdict::Broken(format!(
                "expected {} runs of {label}, the program printed {}",
                s.runs,
                mine.len()
            ))
        } else if let Some(why) = bad_time {
            Verdict::Broken(format!(
                "{} printed {why} for {label} (its output is in {})",
                bin.display(),
                raw.display()
            ))
        } else {
            match mine
                .iter()
                .find_map(|r| disagreement(r, &reference, s.tolerance))
            {
                Some(why) => Verdict::Disagrees(why),
                None => Verdict::Agrees(mine),
            }
        };
        verdicts.push(verdict);
    }
    let passed: Vec<Input> = batch
        .iter()
        .zip(&verdicts)
        .filter(|(_, v)| matches!(v, Verdict::Agrees(_)))
        .map(|(j, _)| j.input)
        .collect();
    let mut profiled: HashMap<(String, u32), Vec<MeasurementRow>> = HashMap::new();
    let mut passes = None;
    let mut missing = Vec::new();
    if let (Some((ncu_path, metrics)), false) = (profiler, passed.is_empty()) {
        for run in 1..=s.profile_runs.max(1) {
            match profile_once(s, campaign, &bin, variant, &passed, run, ncu_path, metrics) {
                Ok(p) => {
                    passes = p.passes.or(passes);
                    missing = p.missing;
                    profiled.extend(p.rows);
                }
                Err(e) => return fail_all(e.to_string()),
            }
        }
    }
    batch
        .iter()
        .zip(verdicts)
        .map(|(job, verdict)| match verdict {
            Verdict::Broken(why) => JobResult::Failed(why),
            Verdict::Disagrees(why) => JobResult::Mismatch(why),
            Verdict::Agrees(recs) => {
                let label = job.input.label();
                let mut measurements = Vec::new();
                for run in 1..=s.profile_runs.max(1) {
                    if let Some(rows) = profiled.remove(&(label.clone(), run)) {
                        measurements.extend(rows);
                    }
                }
                JobResult::Ok {
                    measurements,
                    timings: recs.iter().map(|r| timing_row(r, variant)).collect(),
                    passes,
                    missing: missing.clone(),
                }
            }
        })
        .collect()
}

/// A job's timed runs checked against the baseline.
enum Verdict<'a> {
    Agrees(Vec<&'a RunRecord>),
    Disagrees(String),
    /// The output is not what was asked for (a crash mid-way, missing runs).
    Broken(String),
}

struct Profiled {
    rows: HashMap<(String, u32), Vec<MeasurementRow>>,
    passes: Option<u32>,
    missing: Vec<String>,
}

/// One ncu run over the given inputs, its launches split by input in program order.
#[allow(clippy::too_many_arguments)]
fn profile_once(
    s: &CollectSettings,
    campaign: &Campaign,
    bin: &Path,
    variant: Variant,
    inputs: &[Input],
    run: u32,
    ncu_path: &Path,
    metrics: &[MetricSpec],
) -> Result<Profiled> {
    let tag = format!(
        "{}_{}_{}_run{run}",
        s.program.name(),
        variant.bit_string(),
        inputs_tag(inputs)
    );
    let log = campaign.raw_dir().join(format!("ncu_{tag}.csv"));
    let args = program_args(inputs, 1, 1, 0, s.seed, Some(s.profile_steps.max(1)));
    let out = ncu::run_knowing(ncu_path, metrics, &log, bin, &args, s.timeout)?;
    let raw = campaign.raw_dir().join(format!("ncu_{tag}.jsonl"));
    save_raw(&raw, &out.stdout)?;
    let log_text = std::fs::read_to_string(&log).map_err(|e| Error::io(&log, e))?;
    let data = match profile::parse(&log, log_text.as_bytes(), FormatChoice::Ncu) {
        Ok(d) => d,
        // Some ncu versions print the CSV on standard output despite --log-file.
        Err(first) => {
            profile::parse(&log, out.stdout.as_bytes(), FormatChoice::Ncu).map_err(|_| first)?
        }
    };
    let records = parse_records(&out.stdout, &raw, (s.program.name(), &variant.bit_string()))?;
    let passes = ncu::replay_passes(&format!("{log_text}\n{}", out.stdout))
        .into_iter()
        .map(|(_, n)| n)
        .max();
    let found: Vec<String> = {
        let mut f: Vec<String> = data.measurements.iter().map(|m| m.metric.clone()).collect();
        f.sort();
        f.dedup();
        f
    };
    let mut rows = HashMap::new();
    for (input, part) in split_by_input(&log, &data, inputs, &records)? {
        let key = RunKey {
            program: s.program.name().to_string(),
            input: input.label(),
            run,
            variant: variant.bit_string(),
        };
        rows.insert((input.label(), run), rows_of(&key, &part));
    }
    Ok(Profiled {
        rows,
        passes,
        missing: ncu::missing_metrics(metrics, &found),
    })
}

/// Splits one profile of several inputs: the program ran the inputs in order and said how
/// many launches each had inside the profiled bracket; ncu numbers launches in order.
fn split_by_input(
    log: &Path,
    data: &ProfileData,
    inputs: &[Input],
    records: &[RunRecord],
) -> Result<Vec<(Input, ProfileData)>> {
    let mut ids: Vec<u64> = data.launches().iter().map(|(id, _)| *id).collect();
    ids.sort_unstable();
    ids.dedup();
    let mut counts = Vec::new();
    for input in inputs {
        let rec = records
            .iter()
            .find(|r| r.input == input.label())
            .ok_or_else(|| {
                Error::format(log, format!("the program printed no result for {input}"))
            })?;
        counts.push(rec.profiled_launches as usize);
    }
    let total: usize = counts.iter().sum();
    if total != ids.len() {
        return Err(Error::format(
            log,
            format!(
                "ncu profiled {} kernel launches, the program reported {total} in its \
                 profiled steps",
                ids.len()
            ),
        ));
    }
    let mut out = Vec::new();
    let mut at = 0;
    for (input, n) in inputs.iter().zip(counts) {
        let mine = &ids[at..at + n];
        at += n;
        let mut part = data.clone();
        part.measurements.retain(|m| mine.contains(&m.launch));
        part.rules.clear();
        out.push((*input, part));
    }
    Ok(out)
}

fn timing_row(r: &RunRecord, variant: Variant) -> TimingOut {
    TimingOut {
        program: variant.program.name().to_string(),
        input: r.input.clone(),
        run: r.run,
        variant: variant.bit_string(),
        time_ms: r.time_ms,
        repetitions: r.repetitions,
        checksum_ok: true,
        times_ms: join(&r.times_ms),
        kernel_ms: r
            .kernels
            .iter()
            .map(|k| format!("{}={}", k.name, k.median_ms))
            .collect::<Vec<_>>()
            .join(";"),
        checksum: join(&r.checksum),
        device: r.device.clone(),
        force_error: r
            .force_error
            .as_ref()
            .map(|f| f.rms.to_string())
            .unwrap_or_default(),
    }
}

/// The variant program's arguments.
pub fn program_args(
    inputs: &[Input],
    runs: u32,
    reps: u32,
    warmup: u32,
    seed: u64,
    profile_steps: Option<u32>,
) -> Vec<String> {
    let list: Vec<String> = inputs.iter().map(|i| i.arg()).collect();
    let mut a = vec![
        "--inputs".to_string(),
        list.join(","),
        "--runs".into(),
        runs.to_string(),
        "--reps".into(),
        reps.to_string(),
        "--warmup".into(),
        warmup.to_string(),
        "--seed".into(),
        seed.to_string(),
    ];
    if let Some(p) = profile_steps {
        a.push("--profile-steps".into());
        a.push(p.to_string());
    }
    a
}

pub(super) fn run_program(
    s: &CollectSettings,
    bin: &Path,
    args: &[String],
) -> Result<tool::Captured> {
    let mut cmd = Command::new(bin);
    cmd.args(args);
    Ok(tool::run(&mut cmd, Some(s.timeout))?)
}

pub(super) fn save_raw(path: &Path, text: &str) -> Result<()> {
    std::fs::write(path, text).map_err(|e| Error::io(path, e))
}

/// `50000x2+100000x2`, for raw file names.
pub(super) fn inputs_tag(inputs: &[Input]) -> String {
    inputs
        .iter()
        .map(|i| format!("{}x{}", i.bodies, i.steps))
        .collect::<Vec<_>>()
        .join("+")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn program_args_name_every_input() {
        let a = program_args(
            &[Input::new(50_000, 2), Input::new(100_000, 5)],
            3,
            5,
            1,
            7,
            Some(1),
        );
        assert_eq!(a[1], "50000:2,100000:5");
        assert!(a.ends_with(&["--profile-steps".to_string(), "1".to_string()]));
    }
}
