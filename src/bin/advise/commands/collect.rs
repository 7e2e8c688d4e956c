//! `advise collect`: one shard of a measurement campaign, with a progress bar on stderr.

use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::build::variant_list;
use super::output::{note, Output};
use std::path::PathBuf;

use crate::args::{BackendArg, ProgramArg};
use advise::error::{Error, Result};
use advise::harness::collect::{
    collect, default_tolerance, Backend, CollectSettings, CollectSummary,
};
use advise::harness::gpgpusim::{parse_override, SimConfig, Simulator};
use advise::harness::jobs::{parse_inputs, Shard};
use advise::harness::Progress;
use advise::variant::Program;

/// `advise collect`.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// Which program.
    #[arg(long, value_enum)]
    pub program: ProgramArg,
    /// `thesis` (Table 4.2) or BODIES:STEPS,... (e.g. 50000:2,1M:10).
    #[arg(long, default_value = "thesis")]
    pub inputs: String,
    /// Replicates per (variant, input) (default 3 with ncu). Under the deterministic
    /// simulator a replicate is a new instance of the input: run r uses seed --seed + r - 1
    /// (default 1 run).
    #[arg(long)]
    pub runs: Option<u32>,
    /// Timed repetitions per run (the median is the run's time).
    #[arg(long, default_value_t = 3)]
    pub reps: u32,
    /// Untimed repetitions per input before the first run.
    #[arg(long, default_value_t = 1)]
    pub warmup: u32,
    /// Seed of the generated input.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Only these bit strings (comma-separated).
    #[arg(long)]
    pub variants: Option<String>,
    /// Leave out variants with any of these optimizations (comma-separated), e.g. FTZ,
    /// which GPGPU-Sim's PTX-level timing cannot tell apart.
    #[arg(long)]
    pub without: Option<String>,
    /// Where the runs happen: `ncu` (a GPU: times with CUDA events, counters from Nsight
    /// Compute) or `gpgpu-sim` (no GPU: GPGPU-Sim simulates each run; needs GPGPUSIM_ROOT
    /// and CUDA_INSTALL_PATH; times and counters are simulated).
    #[arg(long, value_enum, default_value = "ncu")]
    pub backend: BackendArg,
    /// GPGPU-Sim configuration: a name under the simulator's configs/tested-cfgs or a folder
    /// with gpgpusim.config [default: SM7_QV100].
    #[arg(long)]
    pub sim_config: Option<String>,
    /// Override a configuration option, KEY=VALUE (repeatable), e.g. gpgpu_n_clusters=8.
    #[arg(long = "sim-set")]
    pub sim_set: Vec<String>,
    /// Simulations run at once (gpgpu-sim backend; each uses one core) [default: 1].
    #[arg(long)]
    pub jobs: Option<usize>,
    /// K/N: run every N-th job starting with the K-th, into OUT/shard-K-of-N.
    #[arg(long)]
    pub shard: Option<String>,
    /// Continue a campaign: skip finished jobs, retry failed ones.
    #[arg(long)]
    pub resume: bool,
    /// Campaign folder, e.g. datasets/h100-2025.
    #[arg(long = "out-dir", alias = "out")]
    pub out: PathBuf,
    /// Where `advise build` put the binaries (the gpgpu-sim backend builds missing ones
    /// there with --for-simulator).
    #[arg(long, default_value = "build/variants")]
    pub bin_dir: PathBuf,
    /// The repository's variants/ folder (CUDA sources).
    #[arg(long, default_value = "variants")]
    pub variants_dir: PathBuf,
    /// ncu metric list (one per line, reasons after #).
    #[arg(long, default_value = "variants/metrics.txt")]
    pub metrics: PathBuf,
    /// Time only; do not run ncu.
    #[arg(long)]
    pub no_profile: bool,
    /// Time steps ncu profiles per input (from the first).
    #[arg(long, default_value_t = 1)]
    pub profile_steps: u32,
    /// Profiled runs per (variant, input); the thesis profiled all 3.
    #[arg(long, default_value_t = 1)]
    pub profile_runs: u32,
    /// Largest relative difference of a checksum from the baseline's (default 1e-4 NB, 1e-3 BH).
    #[arg(long)]
    pub tolerance: Option<f64>,
    /// Seconds one program, ncu or simulator process may run (default 540; 21600 for
    /// gpgpu-sim).
    #[arg(long)]
    pub timeout: Option<u64>,
    /// Most inputs one process runs.
    #[arg(long, default_value_t = 16)]
    pub batch_inputs: usize,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
}

/// The progress bar of `build` and `collect`: a bar with ETA on a terminal, one line per
/// finished step otherwise (logs of batch jobs).
pub struct Bar {
    bar: ProgressBar,
    /// When the current stage started: the ETA of the log lines is the mean time per step so
    /// far times the steps left (indicatif's own estimate, a decaying average, reads 0 when
    /// steps take minutes, as simulations do).
    started: std::sync::Mutex<std::time::Instant>,
}

impl Bar {
    pub fn new() -> Self {
        let target = if super::output::quiet() {
            ProgressDrawTarget::hidden()
        } else {
            ProgressDrawTarget::stderr()
        };
        let bar = ProgressBar::with_draw_target(Some(0), target);
        Bar {
            bar,
            started: std::sync::Mutex::new(std::time::Instant::now()),
        }
    }
}

impl Default for Bar {
    fn default() -> Self {
        Self::new()
    }
}

impl Progress for Bar {
    fn start(&self, total: u64, what: &str) {
        self.bar.set_length(total);
        self.bar.set_position(0);
        self.bar.set_prefix(what.to_string());
        if let Ok(mut started) = self.started.lock() {
            *started = std::time::Instant::now();
        }
        if let Ok(style) = ProgressStyle::with_template(
            "{prefix} [{bar:30}] {pos}/{len} {elapsed_precise} ETA {eta} {wide_msg}",
        ) {
            self.bar.set_style(style.progress_chars("=> "));
        }
        self.bar.enable_steady_tick(Duration::from_millis(500));
    }

    fn advance(&self, message: &str) {
        self.bar.inc(1);
        self.bar.set_message(message.to_string());
        if self.bar.is_hidden() {
            let (done, total) = (self.bar.position(), self.bar.length().unwrap_or(0));
            let elapsed = self
                .started
                .lock()
                .map(|s| s.elapsed().as_secs_f64())
                .unwrap_or(0.0);
            let eta = eta_seconds(elapsed, done, total);
            note(&format!(
                "[{}/{}] {message} (ETA {}m{:02}s)",
                self.bar.position(),
                self.bar.length().unwrap_or(0),
                eta / 60,
                eta % 60
            ));
        }
    }

    fn note(&self, message: &str) {
        if self.bar.is_hidden() {
            note(message);
        } else {
            self.bar.println(message);
        }
    }

    fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// Seconds left after `done` of `total` steps took `elapsed` seconds, at the mean pace so far.
fn eta_seconds(elapsed: f64, done: u64, total: u64) -> u64 {
    if done == 0 {
        return 0;
    }
    (elapsed / done as f64 * total.saturating_sub(done) as f64).round() as u64
}

pub fn run(args: Args) -> Result<()> {
    let args = &args;
    let settings = settings(args)?;
    let summary = collect(&settings, &Bar::new())?;
    let out = Output {
        json: args.json,
        path: None,
    };
    if args.json {
        out.emit_json(&summary)?;
    } else {
        out.emit(&render(&summary))?;
    }
    if summary.failed.is_empty() && summary.mismatched.is_empty() {
        Ok(())
    } else {
        Err(Error::tool(
            "variant",
            format!(
                "{} jobs failed and {} disagree with the baseline (see {}/ledger.csv); \
             `--resume` retries the failed ones",
                summary.failed.len(),
                summary.mismatched.len(),
                summary.dir.display()
            ),
        ))
    }
}

/// Turns the command line into settings.
pub fn settings(args: &Args) -> Result<CollectSettings> {
    let program: Program = args.program.as_str().parse()?;
    let shard: Shard = match &args.shard {
        Some(s) => s.parse()?,
        None => Shard::ALL,
    };
    let tolerance = args.tolerance.unwrap_or_else(|| default_tolerance(program));
    let backend = match args.backend {
        BackendArg::Ncu => {
            // The simulator's options mean nothing on a GPU: accepted, they would be ignored.
            let given: Vec<&str> = [
                (args.sim_config.is_some(), "--sim-config"),
                (!args.sim_set.is_empty(), "--sim-set"),
                (args.jobs.is_some(), "--jobs"),
            ]
            .iter()
            .filter_map(|&(given, name)| given.then_some(name))
            .collect();
            if !given.is_empty() {
                return Err(Error::Usage(format!(
                    "{} {} for --backend gpgpu-sim; a GPU campaign (--backend ncu) runs one \
                     program at a time",
                    given.join(", "),
                    if given.len() == 1 { "is" } else { "are" }
                )));
            }
            Backend::Ncu
        }
        BackendArg::GpgpuSim => {
            let sim = Simulator::find()?;
            let overrides = args
                .sim_set
                .iter()
                .map(|o| parse_override(o))
                .collect::<Result<Vec<_>>>()?;
            Backend::GpgpuSim {
                config: SimConfig::new(
                    sim.config_dir(args.sim_config.as_deref().unwrap_or("SM7_QV100"))?,
                    overrides,
                ),
                jobs: args.jobs.unwrap_or(1).max(1),
            }
        }
    };
    let timeout = args.timeout.unwrap_or(match args.backend {
        BackendArg::Ncu => 540,
        BackendArg::GpgpuSim => 21_600,
    });
    let runs = args.runs.unwrap_or(match args.backend {
        BackendArg::Ncu => 3,
        BackendArg::GpgpuSim => 1,
    });
    if runs == 0 {
        return Err(Error::Usage(
            "--runs 0: give the runs of each variant and input, at least 1".into(),
        ));
    }
    if args.batch_inputs == 0 {
        return Err(Error::Usage(
            "--batch-inputs 0: give the most inputs one process runs, at least 1".into(),
        ));
    }
    if timeout == 0 {
        return Err(Error::Usage(
            "--timeout 0: give the seconds one run may take, at least 1".into(),
        ));
    }
    if args.profile_runs == 0 || args.profile_steps == 0 {
        return Err(Error::Usage(format!(
            "--profile-{} 0: give at least 1, or --no-profile to time without profiling",
            if args.profile_runs == 0 {
                "runs"
            } else {
                "steps"
            }
        )));
    }
    // A profiled run pairs with the timed run of its number: more would be counters of runs
    // that have no time.
    let profiled = !args.no_profile && matches!(args.backend, BackendArg::Ncu);
    if profiled && args.profile_runs > runs {
        return Err(Error::Usage(format!(
            "--profile-runs {} is more than --runs {runs}: each profiled run pairs with the \
             timed run of its number",
            args.profile_runs
        )));
    }
    if !(tolerance >= 0.0 && tolerance.is_finite()) {
        return Err(Error::Usage(format!(
            "--tolerance {tolerance} must be a number >= 0"
        )));
    }
    Ok(CollectSettings {
        program,
        inputs: parse_inputs(program, &args.inputs)?,
        variants: variant_list(
            &[program],
            args.variants.as_deref(),
            args.without.as_deref(),
        )?,
        runs,
        reps: args.reps,
        warmup: args.warmup,
        seed: args.seed,
        shard,
        resume: args.resume,
        out: args.out.clone(),
        bin_dir: args.bin_dir.clone(),
        metrics: args.metrics.clone(),
        profile: !args.no_profile,
        profile_steps: args.profile_steps,
        profile_runs: args.profile_runs,
        tolerance,
        timeout: Duration::from_secs(timeout.max(1)),
        batch_inputs: args.batch_inputs.max(1),
        variants_dir: args.variants_dir.clone(),
        backend,
    })
}

fn render(s: &CollectSummary) -> String {
    let mut t = format!(
        "{}: {} jobs in this shard, {} already done, {} collected now, {} disagree with the \
         baseline, {} failed ({:.0} s)\n",
        s.dir.display(),
        s.jobs,
        s.already_done,
        s.ok,
        s.mismatched.len(),
        s.failed.len(),
        s.seconds
    );
    if let Some(p) = s.max_passes {
        t.push_str(&format!("ncu replay passes per kernel launch: up to {p}\n"));
    }
    if !s.missing_metrics.is_empty() {
        t.push_str(&format!(
            "metrics this ncu did not report: {}\n",
            s.missing_metrics.join(", ")
        ));
    }
    for (job, why) in &s.mismatched {
        t.push_str(&format!("MISMATCH {job}: {why}\n"));
    }
    for (job, why) in &s.failed {
        t.push_str(&format!("FAILED {job}: {why}\n"));
    }
    t
}

#[cfg(test)]
mod tests {
    use super::eta_seconds;

    #[test]
    fn eta_is_the_mean_pace_times_the_steps_left() {
        // 4 of 64 simulations in 20 minutes: 60 left at 5 minutes each.
        assert_eq!(eta_seconds(1200.0, 4, 64), 18_000);
        assert_eq!(eta_seconds(1200.0, 0, 64), 0);
        assert_eq!(eta_seconds(10.0, 5, 5), 0);
    }
}
