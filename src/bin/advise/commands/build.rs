//! `advise build`: compile the variants, then list what failed and `built N of M variants`.

use serde::Serialize;

use super::collect::Bar;
use super::output::Output;
use super::variants::programs;
use std::path::PathBuf;

use crate::args::ProgramsArg;
use advise::error::{Error, Result};
use advise::harness::build::{build_all, BuildSettings, Built};
use advise::variant::{Program, Variant};

/// `advise build`.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// Which program's variants.
    #[arg(long, value_enum, default_value = "all", ignore_case = true)]
    pub program: ProgramsArg,
    /// GPU architecture for nvcc -arch.
    #[arg(long, default_value = "sm_90")]
    pub arch: String,
    /// Parallel nvcc processes (default: the number of CPUs).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Build folder; binaries go to OUT/nb/nb_BITS and OUT/bh/bh_BITS.
    #[arg(long = "out-dir", alias = "out", default_value = "build/variants")]
    pub out: PathBuf,
    /// The repository's variants/ folder (CUDA sources).
    #[arg(long, default_value = "variants")]
    pub variants_dir: PathBuf,
    /// Only these bit strings (comma-separated), e.g. 000000,000101.
    #[arg(long)]
    pub variants: Option<String>,
    /// Leave out variants with any of these optimizations (comma-separated), e.g. FTZ.
    #[arg(long)]
    pub without: Option<String>,
    /// Build for GPGPU-Sim: PTX only for --arch's virtual architecture (use --arch sm_70
    /// for the Volta configurations) and a dynamically linked CUDA runtime.
    #[arg(long)]
    pub for_simulator: bool,
    /// Rebuild binaries that are newer than their sources too.
    #[arg(long)]
    pub force: bool,
    /// Print {"variants": [{"program","variant","ok","path","error"}]}.
    #[arg(long)]
    pub json: bool,
}

#[derive(Serialize)]
struct BuildJson<'a> {
    variants: &'a [Built],
}

/// Parses `--variants 000000,000101` for each program (a variant given twice once), then
/// leaves out the variants with any optimization of `--without FTZ,...`.
pub fn variant_list(
    programs: &[Program],
    arg: Option<&str>,
    without: Option<&str>,
) -> Result<Option<Vec<Variant>>> {
    let mut out = Vec::new();
    for &p in programs {
        match arg {
            Some(arg) => {
                for bits in arg.split(',').filter(|b| !b.trim().is_empty()) {
                    // A variant named twice is built (or run) once: two compilers writing one
                    // binary at once, or one job twice in a campaign, help no one.
                    let v = Variant::parse(p, bits)?;
                    if !out.contains(&v) {
                        out.push(v);
                    }
                }
            }
            None => out.extend(p.variants()),
        }
    }
    let Some(without) = without else {
        return Ok(arg.map(|_| out));
    };
    let mut excluded = Vec::new();
    for name in without.split(',').filter(|n| !n.trim().is_empty()) {
        excluded.push(name.parse::<advise::variant::Optimization>()?);
    }
    out.retain(|v| !excluded.iter().any(|&o| v.has(o)));
    Ok(Some(out))
}

pub fn run(args: Args) -> Result<()> {
    let args = &args;
    let programs = programs(args.program.as_str())?;
    if args.jobs == Some(0) {
        return Err(Error::Usage(
            "--jobs 0: give at least 1 (the default is the number of CPUs)".into(),
        ));
    }
    let settings = BuildSettings {
        only: variant_list(&programs, args.variants.as_deref(), args.without.as_deref())?,
        simulator: args.for_simulator,
        programs,
        // `90` is `sm_90`; anything else that is not an architecture is refused by build_all.
        arch: advise::tool::sm_arch(&args.arch).unwrap_or_else(|| args.arch.clone()),
        jobs: args.jobs.unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(2)
        }),
        out: args.out.clone(),
        variants_dir: args.variants_dir.clone(),
        force: args.force,
    };
    let started = std::time::Instant::now();
    let results = build_all(&settings, &Bar::new())?;
    let ok = results.iter().filter(|b| b.ok).count();
    let compiled = results.iter().filter(|b| b.compiled).count();
    let out = Output {
        json: args.json,
        path: None,
    };
    if args.json {
        out.emit_json(&BuildJson { variants: &results })?;
    } else {
        let mut text = String::new();
        for b in results.iter().filter(|b| !b.ok) {
            text.push_str(&format!(
                "{} {} failed: {}\n",
                b.program,
                b.variant,
                b.error.as_deref().unwrap_or("")
            ));
        }
        // nvcc ran for `compiled` variants; those that failed were not built.
        let failed = results.len() - ok;
        let newly = results.iter().filter(|b| b.compiled && b.ok).count();
        text.push_str(&format!(
            "built {ok} of {} variants ({newly} compiled, {}{} up to date) in {:.0} s with {} jobs into {}\n",
            results.len(),
            if failed > 0 { format!("{failed} failed, ") } else { String::new() },
            results.len() - compiled,
            started.elapsed().as_secs_f64(),
            // The compilers that ran at once: no more than there were variants to compile.
            settings.jobs.min(compiled.max(1)),
            settings.out.display()
        ));
        out.emit(&text)?;
    }
    if ok < results.len() {
        return Err(Error::tool(
            "nvcc",
            format!(
                "{} of {} variants did not compile",
                results.len() - ok,
                results.len()
            ),
        ));
    }
    Ok(())
}
