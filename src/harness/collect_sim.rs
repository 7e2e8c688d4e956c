//! `advise collect --backend gpgpu-sim`: the campaign of `collect`, with every run simulated.
//!
//! The layout, ledger, shards and `--resume` are those of the ncu backend. What differs:
//! each job (variant, input) is one simulator process in its own directory under
//! `OUT/work/`; its time is the simulated cycles at the configuration's core clock (the
//! program's CUDA-event times are host wall-clock under the simulator); its counters are the
//! simulator's statistics (`profile::gpgpusim`); the baseline's checksum per input comes from
//! a run in GPGPU-Sim's functional mode. Jobs run `jobs` at a time; each finished job's rows
//! are appended at once, so a killed campaign loses only the simulations in flight.

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::build::{self, BuildSettings};
use super::campaign::{Campaign, LedgerLine, Status};
use super::collect::{pending, CollectSettings, CollectSummary};
use super::gpgpusim::{SimConfig, Simulator, PINNED_COMMIT};
use super::jobs::{job_list, shard_jobs, Input, Job};
use super::runs::{parse_records, Reference};
use super::sim_job::{reference_key, run_job, save_raw, simulate, JobOutcome, Place, SimJob};
use super::Progress;
use crate::dataset::table::SIMULATOR_RECORD as RECORD;
use crate::error::{Error, Result};
use crate::variant::Variant;

/// What the campaign folder records about its simulator (`simulator.json`): a resumed
/// campaign must keep the same configuration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SimRecord {
    pub simulator: String,
    pub version: String,
    pub pinned_commit: String,
    pub config: String,
    pub config_digest: String,
    pub core_clock_mhz: Option<f64>,
    pub note: String,
}

impl SimRecord {
    /// The record of a campaign folder, if it is a simulated one.
    pub fn read(dir: &Path) -> Result<Option<SimRecord>> {
        let path = dir.join(RECORD);
        let Ok(text) = std::fs::read_to_string(&path) else {
            return Ok(None);
        };
        serde_json::from_str(&text)
            .map(Some)
            .map_err(|e| Error::format(&path, format!("not a simulator record: {e}")))
    }

    /// One line for reports: which simulator, commit and configuration, and what it means.
    pub fn describe(&self) -> String {
        format!(
            "{} {} at commit {}, configuration {} (digest {}): {}",
            self.simulator,
            self.version,
            self.pinned_commit,
            self.config,
            self.config_digest,
            self.note
        )
    }
}

/// Runs (or resumes) one shard of a simulated campaign.
pub fn collect(
    s: &CollectSettings,
    config: &SimConfig,
    jobs_at_once: usize,
    progress: &dyn Progress,
) -> Result<CollectSummary> {
    let started = Instant::now();
    let sim = Simulator::find()?;
    let mut campaign = Campaign::open(&s.dir(), s.resume)?;
    let record = SimRecord {
        simulator: "GPGPU-Sim (accel-sim/gpgpu-sim_distribution)".into(),
        version: sim.version.clone(),
        pinned_commit: PINNED_COMMIT.into(),
        config: config.describe(),
        config_digest: config.digest()?,
        core_clock_mhz: config.core_clock_mhz()?,
        note: "simulated, not measured: times are simulated cycles at the configuration's \
               core clock; counters are GPGPU-Sim statistics"
            .into(),
    };
    check_record(&campaign.dir, &record)?;
    let jobs: Vec<SimJob> = shard_jobs(
        &job_list(s.program, &s.inputs, s.variants.as_deref()),
        s.shard,
    )
    .into_iter()
    .flat_map(|job| {
        (1..=s.runs.max(1)).map(move |run| SimJob {
            job: job.clone(),
            run,
        })
    })
    .collect();
    let (todo, mut summary) = pending(&campaign, &jobs, SimJob::id);
    let baseline = Variant::new(s.program, 0)?;
    let base_jobs: Vec<Job> = todo.iter().map(|j| j.job.clone()).collect();
    ensure_binaries(s, config, baseline, &base_jobs, progress)?;
    ensure_references(s, &sim, config, &mut campaign, baseline, &todo)?;
    progress.start(todo.len() as u64, "simulating");
    let place = Place {
        references: campaign.references.clone(),
        raw: campaign.raw_dir(),
        work: campaign.dir.join("work"),
    };
    let (tx, rx) = mpsc::channel::<(usize, JobOutcome, f64)>();
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| -> Result<()> {
        for _ in 0..jobs_at_once.max(1).min(todo.len().max(1)) {
            let tx = tx.clone();
            let (todo, sim, next, place) = (&todo, &sim, &next, &place);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(job) = todo.get(i) else { break };
                let t0 = Instant::now();
                let outcome = run_job(s, sim, config, place, job);
                if tx.send((i, outcome, t0.elapsed().as_secs_f64())).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        // Rows are appended here, on one thread, as each simulation ends.
        for (i, outcome, seconds) in rx {
            let job = &todo[i];
            let (status, message, rows, timings) = match outcome {
                JobOutcome::Ok { rows, timing } => {
                    summary.ok += 1;
                    (Status::Ok, String::new(), rows, vec![*timing])
                }
                JobOutcome::Mismatch(why) => {
                    progress.note(&format!(
                        "{}: does not agree with the baseline: {why}",
                        job.id()
                    ));
                    summary.mismatched.push((job.id(), why.clone()));
                    (Status::Mismatch, why, Vec::new(), Vec::new())
                }
                JobOutcome::Failed(why) => {
                    progress.note(&format!("{}: failed: {why}", job.id()));
                    summary.failed.push((job.id(), why.clone()));
                    (Status::Error, why, Vec::new(), Vec::new())
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
                    passes: 0,
                    seconds,
                    message,
                },
            )?;
            progress.advance(&job.id());
        }
        Ok(())
    })?;
    progress.finish();
    summary.seconds = started.elapsed().as_secs_f64();
    Ok(summary)
}

/// Writes `simulator.json`, or checks that a resumed campaign used the same configuration.
fn check_record(dir: &Path, record: &SimRecord) -> Result<()> {
    let path = dir.join(RECORD);
    if let Some(old) = SimRecord::read(dir)? {
        if old.config_digest != record.config_digest {
            return Err(Error::Usage(format!(
                "{} was simulated with {} (digest {}); this run's configuration is {} (digest \
                 {}): one campaign keeps one configuration, so give the same --sim-config and \
                 --sim-set, or another --out",
                dir.display(),
                old.config,
                old.config_digest,
                record.config,
                record.config_digest
            )));
        }
        return Ok(());
    }
    let text = serde_json::to_string_pretty(record)
        .map_err(|e| Error::Internal(format!("cannot write {}: {e}", path.display())))?;
    std::fs::write(&path, text + "\n").map_err(|e| Error::io(&path, e))
}

/// Builds the binaries the jobs need that are missing, for the configuration's compute
/// capability (`-gpgpu_ptx_force_max_capability`, 70 for the Volta configurations).
fn ensure_binaries(
    s: &CollectSettings,
    config: &SimConfig,
    baseline: Variant,
    todo: &[Job],
    progress: &dyn Progress,
) -> Result<()> {
    let cc = config
        .option("gpgpu_ptx_force_max_capability")?
        .unwrap_or_else(|| "70".into());
    let mut settings = BuildSettings {
        programs: vec![s.program],
        arch: format!("sm_{cc}"),
        jobs: std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(2),
        out: s.bin_dir.clone(),
        variants_dir: s.variants_dir.clone(),
        force: false,
        only: None,
        simulator: true,
    };
    let mut missing: Vec<Variant> = std::iter::once(baseline)
        .chain(todo.iter().map(|j| j.variant))
        .filter(|v| !build::usable(&settings, *v))
        .collect();
    missing.sort();
    missing.dedup();
    if missing.is_empty() {
        return Ok(());
    }
    settings.only = Some(missing);
    let built = build::build_all(&settings, progress)?;
    if let Some(bad) = built.iter().find(|b| !b.ok) {
        return Err(Error::tool(
            "nvcc",
            format!(
                "{} {} did not compile for the simulator: {}",
                bad.program,
                bad.variant,
                bad.error.as_deref().unwrap_or("")
            ),
        ));
    }
    Ok(())
}

/// The baseline's checksum for each input that has none yet, from a functional-mode run.
fn ensure_references(
    s: &CollectSettings,
    sim: &Simulator,
    config: &SimConfig,
    campaign: &mut Campaign,
    baseline: Variant,
    todo: &[SimJob],
) -> Result<()> {
    let program = s.program.name();
    let mut inputs: Vec<(Input, u32)> = todo.iter().map(|j| (j.job.input, j.run)).collect();
    inputs.sort();
    inputs.dedup();
    for (input, run) in inputs {
        let key = reference_key(input, run);
        if campaign.reference(program, &key).is_some() {
            continue;
        }
        let tag = match run {
            1 => format!("reference_{program}_{}x{}", input.bodies, input.steps),
            r => format!(
                "reference_{program}_{}x{}_run{r}",
                input.bodies, input.steps
            ),
        };
        let run_dir = campaign.dir.join("work").join(&tag);
        let seed = s.seed + u64::from(run) - 1;
        let log =
            simulate((s, sim, config), &run_dir, baseline, input, seed, true).map_err(|e| {
                Error::tool(
                    "gpgpu-sim",
                    format!(
                    "the baseline {program} 000000 failed under the simulator, so no variant can \
                 be checked: {e}"
                ),
                )
            })?;
        let records = parse_records(&log.text, &log.path, (program, "000000"))?;
        let rec = records
            .iter()
            .find(|r| r.input == input.label())
            .ok_or_else(|| {
                Error::tool(
                    "gpgpu-sim",
                    format!(
                        "the baseline printed no result for {} (see {})",
                        input.label(),
                        log.path.display()
                    ),
                )
            })?;
        campaign.add_reference(Reference {
            program: program.to_string(),
            input: key,
            checksum: rec.checksum.clone(),
        })?;
        save_raw(&campaign.raw_dir(), &tag, &log.text)?;
        let _ = std::fs::remove_dir_all(&run_dir);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::SimRecord;

    #[test]
    fn a_record_is_read_absent_or_refused_with_its_path() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(SimRecord::read(dir.path()).unwrap(), None);
        std::fs::write(dir.path().join("simulator.json"), "{\"simulator\": 3").unwrap();
        let e = SimRecord::read(dir.path()).unwrap_err().to_string();
        assert!(
            e.contains("simulator.json") && e.contains("not a simulator record"),
            "{e}"
        );
        let r = SimRecord {
            simulator: "GPGPU-Sim".into(),
            version: "4.2.0".into(),
            pinned_commit: "abc".into(),
            config: "SM7_QV100".into(),
            config_digest: "d1".into(),
            core_clock_mhz: Some(1132.0),
            note: "simulated, not measured".into(),
        };
        std::fs::write(
            dir.path().join("simulator.json"),
            serde_json::to_string(&r).unwrap(),
        )
        .unwrap();
        assert_eq!(SimRecord::read(dir.path()).unwrap(), Some(r.clone()));
        assert!(r
            .describe()
            .contains("commit abc, configuration SM7_QV100 (digest d1)"));
    }
}
