//! `advise collect`: for every job of a shard, check the variant against the baseline, time it
//! without the profiler, then profile it with ncu, and append the rows as each job finishes.
//!
//! One process runs all runs of a batch (the jobs of one variant in this shard) so that
//! process start-up does not dominate; ncu profiles only the time steps the program brackets.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::Serialize;

use super::batch::{inputs_tag, program_args, run_batch, run_program, save_raw, JobResult};
use super::campaign::{Campaign, LedgerLine, Status, RAW};
use super::jobs::{batches, job_list, shard_jobs, Input, Job, Shard};
use super::ncu;
use super::resume_check::{campaign_device, check_device, check_settings};
use super::runs::{parse_records, Reference};
use super::{build, tool, Progress};
use crate::error::{Error, Result};
use crate::variant::{Program, Variant};

/// What `advise collect` was asked to do.
#[derive(Debug, Clone)]
pub struct CollectSettings {
    pub program: Program,
    pub inputs: Vec<Input>,
    /// Only these variants (all 64 when None).
    pub variants: Option<Vec<Variant>>,
    pub runs: u32,
    pub reps: u32,
    pub warmup: u32,
    pub seed: u64,
    pub shard: Shard,
    pub resume: bool,
    /// The campaign folder; a shard of several writes to `out/shard-K-of-N`.
    pub out: PathBuf,
    /// Where `advise build` put the binaries.
    pub bin_dir: PathBuf,
    pub metrics: PathBuf,
    pub profile: bool,
    pub profile_steps: u32,
    pub profile_runs: u32,
    /// Largest relative difference of a checksum from the baseline's.
    pub tolerance: f64,
    pub timeout: Duration,
    /// Most inputs one process runs.
    pub batch_inputs: usize,
    /// The repository's variants/ folder, for building missing simulator binaries.
    pub variants_dir: PathBuf,
    pub backend: Backend,
}

/// Where the runs happen.
#[derive(Debug, Clone)]
pub enum Backend {
    /// A GPU: CUDA-event times, Nsight Compute counters.
    Ncu,
    /// GPGPU-Sim: simulated times and statistics, `jobs` simulations at once.
    GpgpuSim {
        config: super::gpgpusim::SimConfig,
        jobs: usize,
    },
}

impl CollectSettings {
    /// The folder this shard writes to.
    pub fn dir(&self) -> PathBuf {
        if self.shard.count > 1 {
            self.out.join(self.shard.dir_name())
        } else {
            self.out.clone()
        }
    }
}

/// Default checksum tolerance: FTZ and RSQRT change the last bits of NB's forces; BH's WARP
/// also opens more cells than the thread-based walk, so its forces differ more.
pub fn default_tolerance(program: Program) -> f64 {
    match program {
        Program::Nb => 1e-4,
        Program::Bh => 1e-3,
    }
}

/// What a campaign (shard) did.
#[derive(Debug, Clone, Default, Serialize)]
pub struct CollectSummary {
    pub dir: PathBuf,
    pub jobs: usize,
    pub already_done: usize,
    pub ok: usize,
    pub mismatched: Vec<(String, String)>,
    pub failed: Vec<(String, String)>,
    /// Most replay passes one kernel needed, as ncu reported.
    pub max_passes: Option<u32>,
    pub missing_metrics: Vec<String>,
    pub seconds: f64,
}

/// The jobs of `jobs` that `campaign` has not finished (`id` names a job as its ledger does),
/// and a summary that counts them.
pub(super) fn pending<J: Clone>(
    campaign: &Campaign,
    jobs: &[J],
    id: impl Fn(&J) -> String,
) -> (Vec<J>, CollectSummary) {
    let finished = campaign.finished();
    let todo: Vec<J> = jobs
        .iter()
        .filter(|j| !finished.contains_key(&id(j)))
        .cloned()
        .collect();
    let summary = CollectSummary {
        dir: campaign.dir.clone(),
        jobs: jobs.len(),
        already_done: jobs.len() - todo.len(),
        ..Default::default()
    };
    (todo, summary)
}

/// Runs (or resumes) one shard of a campaign.
pub fn collect(s: &CollectSettings, progress: &dyn Progress) -> Result<CollectSummary> {
    if let Backend::GpgpuSim { config, jobs } = &s.backend {
        return super::collect_sim::collect(s, config, *jobs, progress);
    }
    let started = Instant::now();
    if s.runs == 0 || s.reps == 0 {
        return Err(Error::Usage("--runs and --reps must be at least 1".into()));
    }
    let fresh = !s.dir().exists();
    let mut campaign = Campaign::open(&s.dir(), s.resume)?;
    let jobs = shard_jobs(
        &job_list(s.program, &s.inputs, s.variants.as_deref()),
        s.shard,
    );
    let (todo, mut summary) = pending(&campaign, &jobs, Job::id);
    let baseline = Variant::new(s.program, 0)?;
    let ready = check_binaries(&s.bin_dir, baseline, &todo).and_then(|()| {
        Ok(if s.profile && !todo.is_empty() {
            Some((tool::find(tool::NCU)?, ncu::load_metric_list(&s.metrics)?))
        } else {
            None
        })
    });
    let profiler = match ready {
        Ok(p) => p,
        Err(e) => {
            if fresh {
                // Nothing ran: the folder this call made goes again (only while empty).
                let _ = std::fs::remove_dir(s.dir().join(RAW));
                let _ = std::fs::remove_dir(s.dir());
            }
            return Err(e);
        }
    };
    if !todo.is_empty() {
        check_settings(&s.dir(), s)?;
    }
    let mut device = campaign_device(&s.dir())?;
    progress.start(todo.len() as u64, "collecting");
    for batch in batches(&todo, s.batch_inputs) {
        let t0 = Instant::now();
        ensure_references(s, &mut campaign, baseline, &batch)?;
        let outcome = run_batch(s, &campaign, &batch, profiler.as_ref());
        let per_job = t0.elapsed().as_secs_f64() / batch.len() as f64;
        for (job, result) in batch.iter().zip(outcome) {
            let (status, message, rows, timings, passes) = match result {
                JobResult::Ok {
                    measurements,
                    timings,
                    passes,
                    missing,
                } => {
                    for t in &timings {
                        check_device(&s.dir(), device.as_deref(), &t.device, &job.id())?;
                        if device.is_none() && !t.device.trim().is_empty() {
                            device = Some(t.device.trim().to_string());
                        }
                    }
                    if summary.missing_metrics.is_empty() && !missing.is_empty() {
                        progress.note(&format!(
                            "ncu did not report {} of the requested metrics: {}",
                            missing.len(),
                            missing.join(", ")
                        ));
                        summary.missing_metrics = missing;
                    }
                    summary.ok += 1;
                    if let Some(p) = passes {
                        summary.max_passes = Some(summary.max_passes.unwrap_or(0).max(p));
                    }
                    (Status::Ok, String::new(), measurements, timings, passes)
                }
                JobResult::Mismatch(why) => {
                    progress.note(&format!(
                        "{}: does not agree with the baseline: {why}",
                        job.id()
                    ));
                    summary.mismatched.push((job.id(), why.clone()));
                    (Status::Mismatch, why, Vec::new(), Vec::new(), None)
                }
                JobResult::Failed(why) => {
                    progress.note(&format!("{}: failed: {why}", job.id()));
                    summary.failed.push((job.id(), why.clone()));
                    (Status::Error, why, Vec::new(), Vec::new(), None)
                }
            };
            campaign.append_job(
                &rows,
                &timings,
                LedgerLine {
                    job: job.id(),
                    status,
                    measurements_bytes: 0,
                    timings_bytes: 0,
                    passes: passes.unwrap_or(0),
                    seconds: per_job,
                    message,
                },
            )?;
            progress.advance(&job.id());
        }
    }
    progress.finish();
    summary.seconds = started.elapsed().as_secs_f64();
    Ok(summary)
}

fn check_binaries(bin_dir: &Path, baseline: Variant, todo: &[Job]) -> Result<()> {
    let mut needed = vec![baseline];
    needed.extend(todo.iter().map(|j| j.variant));
    for v in needed {
        let b = build::binary(bin_dir, v);
        if b.exists() && !b.is_file() {
            return Err(Error::Usage(format!(
                "{}: a folder (or other non-file) where the variant's program should be; remove \
                 it and run `advise build --program {} --out-dir {}`",
                b.display(),
                v.program.name().to_ascii_lowercase(),
                bin_dir.display()
            )));
        }
        if !b.is_file() {
            // A missing file (exit 5), with the command that makes it.
            return Err(Error::missing(
                &b,
                format!(
                    "missing: run `advise build --program {} --out-dir {}` first",
                    v.program.name().to_ascii_lowercase(),
                    bin_dir.display()
                ),
            ));
        }
    }
    Ok(())
}

/// Runs the baseline once (one repetition) on the batch's inputs that have no reference yet.
fn ensure_references(
    s: &CollectSettings,
    campaign: &mut Campaign,
    baseline: Variant,
    batch: &[Job],
) -> Result<()> {
    let program = s.program.name();
    let missing: Vec<Input> = batch
        .iter()
        .map(|j| j.input)
        .filter(|i| campaign.reference(program, &i.label()).is_none())
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    let args = program_args(&missing, 1, 1, 0, s.seed, None);
    let out = run_program(s, &build::binary(&s.bin_dir, baseline), &args).map_err(|e| {
        Error::tool(
            "variant",
            format!(
                "the baseline {program} {} failed, so no variant can be checked: {e}",
                baseline.bit_string()
            ),
        )
    })?;
    let raw = campaign.raw_dir().join(format!(
        "reference_{program}_{}.jsonl",
        inputs_tag(&missing)
    ));
    save_raw(&raw, &out.stdout)?;
    let records = parse_records(&out.stdout, &raw, (program, &baseline.bit_string()))?;
    for input in missing {
        let rec = records
            .iter()
            .find(|r| r.input == input.label())
            .ok_or_else(|| {
                Error::tool(
                    "variant",
                    format!(
                        "the baseline {} printed no result line for {} (its output is in {}): \
                         is it a variant `advise build` compiled?",
                        build::binary(&s.bin_dir, baseline).display(),
                        input.label(),
                        raw.display()
                    ),
                )
            })?;
        campaign.add_reference(Reference {
            program: program.to_string(),
            input: input.label(),
            checksum: rec.checksum.clone(),
        })?;
    }
    Ok(())
}

#[cfg(test)]
impl CollectSettings {
    /// Settings for tests: NB, one run of one repetition, no profile, writing to `out`.
    pub(crate) fn for_tests(out: PathBuf) -> CollectSettings {
        CollectSettings {
            program: Program::Nb,
            inputs: vec![],
            variants: None,
            runs: 1,
            reps: 1,
            warmup: 0,
            seed: 1,
            shard: Shard::ALL,
            resume: false,
            out,
            bin_dir: PathBuf::from("b"),
            metrics: PathBuf::from("m"),
            profile: false,
            profile_steps: 1,
            profile_runs: 1,
            tolerance: 1e-4,
            timeout: Duration::from_secs(1),
            batch_inputs: 10,
            variants_dir: PathBuf::from("variants"),
            backend: Backend::Ncu,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_folders_only_when_sharded() {
        let mut s = CollectSettings::for_tests(PathBuf::from("d"));
        assert_eq!(s.dir(), PathBuf::from("d"));
        s.shard = "2/4".parse().unwrap();
        assert_eq!(s.dir(), PathBuf::from("d/shard-2-of-4"));
    }
}
