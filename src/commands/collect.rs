//! `advise collect`: one shard of a measurement campaign, with a progress bar on stderr.

use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::build::variant_list;
use super::output::{note, Output};
use crate::cli::{BackendArg, CollectArgs};
use crate::error::{Error, Result};
use crate::harness::collect::{
    collect, default_tolerance, Backend, CollectSettings, CollectSummary,
};
use crate::harness::gpgpusim::{parse_override, SimConfig, Simulator};
use crate::harness::jobs::{parse_inputs, Shard};
use crate::harness::Progress;
use crate::variant::Program;

/// The progress bar of `build` and `collect`: a bar with ETA on a terminal, one line per
/// finished step otherwise (logs of batch jobs).
pub struct Bar {
    bar: ProgressBar,
}

impl Bar {
    pub fn new() -> Self {
        let target = if super::output::quiet() {
            ProgressDrawTarget::hidden()
        } else {
            ProgressDrawTarget::stderr()
        };
        let bar = ProgressBar::with_draw_target(Some(0), target);
        Bar { bar }
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
            let eta = self.bar.eta().as_secs();
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

pub fn run(args: &CollectArgs) -> Result<()> {
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
        Err(Error::Invalid(format!(
            "{} jobs failed and {} disagree with the baseline (see {}/ledger.csv); \
             `--resume` retries the failed ones",
            summary.failed.len(),
            summary.mismatched.len(),
            summary.dir.display()
        )))
    }
}

/// Turns the command line into settings.
pub fn settings(args: &CollectArgs) -> Result<CollectSettings> {
    let program: Program = args.program.parse()?;
    let shard: Shard = match &args.shard {
        Some(s) => s.parse()?,
        None => Shard::ALL,
    };
    let tolerance = args.tolerance.unwrap_or_else(|| default_tolerance(program));
    let backend = match args.backend {
        BackendArg::Ncu => Backend::Ncu,
        BackendArg::GpgpuSim => {
            let sim = Simulator::find()?;
            let overrides = args
                .sim_set
                .iter()
                .map(|o| parse_override(o))
                .collect::<Result<Vec<_>>>()?;
            Backend::GpgpuSim {
                config: SimConfig::new(sim.config_dir(&args.sim_config)?, overrides),
                jobs: args.jobs.max(1),
            }
        }
    };
    let timeout = args.timeout.unwrap_or(match args.backend {
        BackendArg::Ncu => 540,
        BackendArg::GpgpuSim => 21_600,
    });
    if !(tolerance >= 0.0 && tolerance.is_finite()) {
        return Err(Error::Invalid(format!(
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
        runs: args.runs.unwrap_or(match args.backend {
            BackendArg::Ncu => 3,
            BackendArg::GpgpuSim => 1,
        }),
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
