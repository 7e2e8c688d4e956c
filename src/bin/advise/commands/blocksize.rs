//! `advise blocksize`: the block size STATuner's SVM recommends for each kernel of a file,
//! beside the occupancy calculator's choices, and why.

use std::fmt::Write as _;
use std::path::PathBuf;

use super::output::Output;
use advise::dataset::blocksize::Dataset;
use advise::error::Result;
use advise::static_analysis::blocksize::{recommend, LaunchBound};
use advise::static_analysis::occupancy::{Arch, KernelResources};
use advise::static_analysis::{analyze, CompileOptions};

use crate::args::{CompileArgs, JsonArg};

/// `advise blocksize`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub compile: CompileArgs,
    /// Block-size dataset folder (default: the repository's datasets/blocksize).
    #[arg(long)]
    pub dataset: Option<PathBuf>,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[command(flatten)]
    pub json: JsonArg,
}

pub fn run(args: Args) -> Result<()> {
    recommend_sizes(
        &BlocksizeSettings {
            options: args.compile.options()?,
            file: args.compile.file,
            dataset: args.dataset,
            seed: args.seed,
        },
        &args.json.into(),
    )
}

/// Settings of `advise blocksize`.
#[derive(Debug, Clone)]
pub struct BlocksizeSettings {
    pub file: PathBuf,
    pub options: CompileOptions,
    pub dataset: Option<PathBuf>,
    pub seed: u64,
}

fn recommend_sizes(s: &BlocksizeSettings, out: &Output) -> Result<()> {
    let arch = Arch::parse(&s.options.arch)?;
    let a = analyze(&s.file, &s.options)?;
    // A .ptx or .cubin was analysed for its own target: its registers and shared memory are
    // that architecture's, and a cubin runs on no other major version.
    if a.arch != s.options.arch {
        super::output::warn(&format!(
            "{} is compiled for {}, not --arch {}: its registers and shared memory are {}'s, \
             and the occupancy below is --arch's; compile the source for --arch to match",
            s.file.display(),
            a.arch,
            s.options.arch,
            a.arch
        ));
    }
    let ds = Dataset::load(&s.dataset.clone().unwrap_or_else(Dataset::default_dir))?;
    let mut recs = Vec::new();
    for k in &a.kernels {
        let res = KernelResources {
            registers_per_thread: k.metrics.registers.unwrap_or(32),
            shared_bytes_per_block: k.metrics.shared_bytes.unwrap_or(0) as u32,
        };
        recs.push(recommend(
            &ds,
            &k.short_name,
            k.metrics.statuner_features(),
            &arch,
            &res,
            LaunchBound {
                most: k.metrics.max_threads,
                required: k.metrics.required_threads,
            },
            s.seed,
        )?);
    }
    if out.json {
        return out.emit_json(&serde_json::json!({ "kernels": recs }));
    }
    let mut t = String::new();
    for r in &recs {
        let _ = writeln!(t, "{}: block size {} on {}", r.kernel, r.block_size, r.arch);
        if let Some(required) = r.required {
            let _ = writeln!(
                t,
                "  launch bounds: exactly {required} threads per block (.reqntid): a launch of \
                 any other size fails, so there is nothing to choose{}",
                match r.above_launch_bound {
                    Some(svm) => format!(" (the SVM would choose {svm})"),
                    None => String::new(),
                }
            );
        } else if let Some(most) = r.launch_bound {
            let _ = writeln!(
                t,
                "  launch bounds: at most {most} threads per block (__launch_bounds__); {}",
                match r.above_launch_bound {
                    _ if most > 1024 => {
                        "above the 1024 any GPU launches, so it limits nothing".to_string()
                    }
                    Some(svm) => format!(
                        "the SVM chose {svm}, which cannot launch, so the largest size within \
                         the bound"
                    ),
                    None => "larger sizes are left out".into(),
                }
            );
        }
        let _ = writeln!(
            t,
            "  why: an SVM on the 8 STATuner static metrics and the GPU's limits, trained on {} real tuning spaces; the kernels nearest in those metrics were fastest at {}",
            ds.kernels.len(),
            r.nearest.iter().map(|(k, g, b)| format!("{b} ({k} on {g})")).collect::<Vec<_>>().join(", ")
        );
        let _ = writeln!(
            t,
            "  occupancy at {}: {:.0}%; the occupancy calculator's maximum is {:.0}% at {}",
            r.block_size,
            100.0 * r.occupancy,
            100.0 * r.max_occupancy,
            r.max_occupancy_sizes
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
    out.emit(&t)
}
