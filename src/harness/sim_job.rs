//! One simulated job of `advise collect --backend gpgpu-sim` (collect_sim.rs): the simulator
//! run in its own directory, its statistics parsed, its checksum judged against the baseline's,
//! and its log kept.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use super::batch::program_args;
use super::build;
use super::campaign::{join, TimingOut};
use super::collect::CollectSettings;
use super::gpgpusim::{SimConfig, Simulator};
use super::jobs::{Input, Job};
use super::runs::{disagreement, parse_records, Reference};
use crate::dataset::measurements::{rows_of, MeasurementRow, RunKey};
use crate::error::{Error, Result};
use crate::profile::{self, FormatChoice, ProfileData};
use crate::variant::Variant;

/// One simulation: a job of the campaign with one input seed. Under a deterministic
/// simulator a replicate of the same input is the same run, so run `r` simulates a new
/// instance of the input, generated with seed `--seed + r - 1`; its id adds `/run=r` for
/// `r > 1`, so run 1 keeps the id of a single-run campaign.
#[derive(Debug, Clone)]
pub(super) struct SimJob {
    pub(super) job: Job,
    pub(super) run: u32,
}

impl SimJob {
    pub(super) fn id(&self) -> String {
        match self.run {
            1 => self.job.id(),
            r => format!("{}/run={r}", self.job.id()),
        }
    }

    pub(super) fn seed(&self, s: &CollectSettings) -> u64 {
        s.seed + u64::from(self.run) - 1
    }
}

/// The key of a baseline checksum: the input, plus the seed when it is not the first run's.
pub(super) fn reference_key(input: Input, run: u32) -> String {
    match run {
        1 => input.label(),
        r => format!("{};run={r}", input.label()),
    }
}

/// What a worker needs of the campaign: the baseline checksums and where files go.
pub(super) struct Place {
    pub(super) references: Vec<Reference>,
    pub(super) raw: PathBuf,
    pub(super) work: PathBuf,
}

pub(super) enum JobOutcome {
    Ok {
        rows: Vec<MeasurementRow>,
        timing: Box<TimingOut>,
    },
    Mismatch(String),
    Failed(String),
}

/// One simulated job: run, parse, check against the baseline, keep the log.
pub(super) fn run_job(
    s: &CollectSettings,
    sim: &Simulator,
    config: &SimConfig,
    place: &Place,
    sim_job: &SimJob,
) -> JobOutcome {
    let job = &sim_job.job;
    let mut tag = format!(
        "sim_{}_{}_{}x{}",
        job.variant.program.name(),
        job.variant.bit_string(),
        job.input.bodies,
        job.input.steps
    );
    if sim_job.run > 1 {
        tag.push_str(&format!("_run{}", sim_job.run));
    }
    let run_dir = place.work.join(&tag);
    let seed = sim_job.seed(s);
    let log = match simulate(
        (s, sim, config),
        &run_dir,
        job.variant,
        job.input,
        seed,
        false,
    ) {
        Ok(l) => l,
        Err(e) => return JobOutcome::Failed(e.to_string()),
    };
    let outcome = judge(s, config, place, sim_job, &log);
    if let Err(e) = save_raw(&place.raw, &tag, &log.text) {
        return JobOutcome::Failed(e.to_string());
    }
    if !matches!(outcome, JobOutcome::Failed(_)) {
        let _ = std::fs::remove_dir_all(&run_dir);
    }
    outcome
}

pub(super) fn judge(
    s: &CollectSettings,
    config: &SimConfig,
    place: &Place,
    sim_job: &SimJob,
    log: &SimLog,
) -> JobOutcome {
    let job = &sim_job.job;
    let data = match profile::parse(&log.path, log.text.as_bytes(), FormatChoice::GpgpuSim) {
        Ok(d) => d,
        Err(e) => return JobOutcome::Failed(e.to_string()),
    };
    let who = (s.program.name(), job.variant.bit_string());
    let records = match parse_records(&log.text, &log.path, (who.0, &who.1)) {
        Ok(r) => r,
        Err(e) => return JobOutcome::Failed(e.to_string()),
    };
    let label = job.input.label();
    let Some(rec) = records.iter().find(|r| r.input == label) else {
        return JobOutcome::Failed(format!(
            "the program printed no result for {label} (see {})",
            log.path.display()
        ));
    };
    let reference = place
        .references
        .iter()
        .find(|r| r.program == s.program.name() && r.input == reference_key(job.input, sim_job.run))
        .map(|r| r.checksum.clone())
        .unwrap_or_default();
    if let Some(why) = disagreement(rec, &reference, s.tolerance) {
        return JobOutcome::Mismatch(why);
    }
    let key = RunKey {
        program: s.program.name().to_string(),
        input: label,
        run: sim_job.run,
        variant: job.variant.bit_string(),
    };
    let (total_ns, kernels) = simulated_times(&data);
    let timing = TimingOut {
        program: key.program.clone(),
        input: key.input.clone(),
        run: sim_job.run,
        variant: key.variant.clone(),
        time_ms: total_ns / 1e6,
        repetitions: 1,
        checksum_ok: true,
        times_ms: join(&[total_ns / 1e6]),
        kernel_ms: kernels
            .iter()
            .map(|(k, ns)| format!("{k}={}", ns / 1e6))
            .collect::<Vec<_>>()
            .join(";"),
        checksum: join(&rec.checksum),
        device: format!("GPGPU-Sim {} (simulated)", config.describe()),
        force_error: rec
            .force_error
            .as_ref()
            .map(|f| f.rms.to_string())
            .unwrap_or_default(),
    };
    JobOutcome::Ok {
        rows: rows_of(&key, &data),
        timing: Box::new(timing),
    }
}

/// Total simulated time and time per kernel (ns), from `gpu__time_duration.sum`.
pub(super) fn simulated_times(data: &ProfileData) -> (f64, Vec<(String, f64)>) {
    let mut kernels: Vec<(String, f64)> = Vec::new();
    for m in data
        .measurements
        .iter()
        .filter(|m| m.metric == "gpu__time_duration.sum")
    {
        let name = m.kernel.split('(').next().unwrap_or(&m.kernel).to_string();
        match kernels.iter_mut().find(|(k, _)| *k == name) {
            Some((_, t)) => *t += m.value,
            None => kernels.push((name, m.value)),
        }
    }
    (kernels.iter().map(|(_, t)| t).sum(), kernels)
}

pub(super) struct SimLog {
    pub(super) path: PathBuf,
    pub(super) text: String,
}

/// Runs one variant on one input under the simulator in a fresh `run_dir`; the log (the
/// program's standard output, where GPGPU-Sim prints) is written there as it grows.
pub(super) fn simulate(
    (s, sim, config): (&CollectSettings, &Simulator, &SimConfig),
    run_dir: &Path,
    variant: Variant,
    input: Input,
    seed: u64,
    functional: bool,
) -> Result<SimLog> {
    let _ = std::fs::remove_dir_all(run_dir);
    config.install(run_dir)?;
    // Absolute (the run happens in run_dir), but not resolved: a program may be a link.
    let bin = build::binary(&s.bin_dir, variant);
    let bin = if bin.is_absolute() {
        bin
    } else {
        std::env::current_dir()
            .map_err(|e| Error::io(".", e))?
            .join(bin)
    };
    let mut args = program_args(&[input], 1, 1, 0, seed, None);
    if input.steps == 1 {
        args.extend(["--verify".to_string(), "1".to_string()]);
    }
    let path = run_dir.join("sim.log");
    let stdout = std::fs::File::create(&path).map_err(|e| Error::io(&path, e))?;
    let err_path = run_dir.join("stderr.txt");
    let stderr = std::fs::File::create(&err_path).map_err(|e| Error::io(&err_path, e))?;
    let mut cmd = sim.command(&bin, &args, run_dir, functional);
    cmd.stdout(Stdio::from(stdout)).stderr(Stdio::from(stderr));
    let status = super::tool::run_detached(&mut cmd, Some(s.timeout));
    let text = std::fs::read_to_string(&path).map_err(|e| Error::io(&path, e))?;
    let stderr_text = std::fs::read_to_string(&err_path).unwrap_or_default();
    match status {
        Ok(true) => Ok(SimLog { path, text }),
        Ok(false) => Err(Error::tool(
            "gpgpu-sim",
            format!(
                "the simulation ran longer than {} s and was stopped (log: {})",
                s.timeout.as_secs(),
                path.display()
            ),
        )),
        Err(why) => Err(Error::tool(
            "gpgpu-sim",
            format!(
                "{} under GPGPU-Sim {why} (log: {}){}",
                bin.display(),
                path.display(),
                last_lines(&stderr_text, &text)
            ),
        )),
    }
}

/// The end of the program's errors, or of the log when the program printed none.
pub(super) fn last_lines(stderr: &str, log: &str) -> String {
    let src = if stderr.trim().is_empty() {
        log
    } else {
        stderr
    };
    let tail: Vec<&str> = src.lines().rev().take(6).collect();
    let tail: Vec<&str> = tail.into_iter().rev().collect();
    format!("; it ends with:\n{}", tail.join("\n"))
}

/// Keeps a log, gzip-compressed, as `raw/TAG.log.gz`.
pub(super) fn save_raw(raw: &Path, tag: &str, text: &str) -> Result<()> {
    let path = raw.join(format!("{tag}.log.gz"));
    let file = std::fs::File::create(&path).map_err(|e| Error::io(&path, e))?;
    let mut gz = flate2::write::GzEncoder::new(file, flate2::Compression::best());
    gz.write_all(text.as_bytes())
        .and_then(|_| gz.finish().map(|_| ()))
        .map_err(|e| Error::io(&path, e))
}
