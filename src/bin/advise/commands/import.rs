//! `advise import`: a real tuning space into a dataset folder.

use std::path::{Path, PathBuf};

use super::output::{note, Output};
use crate::args::{JsonArg, ToolArg};
use advise::dataset::import::{read_space, write_dataset, xplacer, xplacer_write, Tool};
use advise::error::Result;

/// The notes of a space's reading that say it was repaired, lost something or holds what
/// its tool would not search.
const REPAIR_NOTES: [&str; 6] = [
    advise::dataset::import::space::CUT_OFF_NOTE,
    advise::dataset::import::space::OUTSIDE_TUNE_PARAMS_NOTE,
    advise::dataset::import::space::REPEATED_KEYS_NOTE,
    advise::dataset::import::space_repair::REPEATED_VARIANTS_NOTE,
    advise::dataset::import::space_repair::COUNTERS_LEFT_OUT_NOTE,
    advise::dataset::import::space::UNUSABLE_TIMES_NOTE,
];

/// `advise import`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[arg(value_enum)]
    pub tool: ToolArg,
    /// The file (.json, .json.gz or .json.bz2); for `xplacer`, the benchmark folder.
    pub file: PathBuf,
    /// Dataset folder to write, e.g. datasets/ktt-convolution-rtx2080ti.
    #[arg(long = "out-dir", alias = "out")]
    pub out_dir: PathBuf,
    /// Keep each configuration's time and compile data, not the profiler's counters (`ktt`):
    /// for a run that profiled a few of its configurations, so that the dataset serves as
    /// the other GPU of leave one GPU out.
    #[arg(long)]
    pub times_only: bool,
    #[command(flatten)]
    pub json: JsonArg,
}

pub fn run(args: Args) -> Result<()> {
    import(
        args.tool,
        &args.file,
        &args.out_dir,
        args.json.json,
        args.times_only,
    )
}

fn import(tool: ToolArg, file: &Path, out: &Path, json: bool, times_only: bool) -> Result<()> {
    let command: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let tool = match tool {
        ToolArg::Auto if file.is_dir() => {
            return import(ToolArg::Xplacer, file, out, json, times_only)
        }
        ToolArg::Auto => match advise::dataset::import::guess_tool(file)? {
            Some(tool) => {
                note(&format!(
                    "{} looks like {}: importing it as `{}`",
                    file.display(),
                    tool.file_kind(),
                    tool.command_name()
                ));
                tool
            }
            None => {
                return Err(advise::error::Error::format(
                    file,
                    "not KTT output, a Kernel Tuner cache or results list, T4 tuning \
                     results or CLBlast tuner output (no KTT `Metadata`/`Results`, Kernel \
                     Tuner `cache`/`tune_params_keys` or array of results with a `time`, T4 \
                     `results` of `configuration`s or CLBlast `kernel_family` in its first \
                     4 kB): name the tool, `advise import ktt|kernel-tuner|t4|clblast|xplacer`",
                ))
            }
        },
        ToolArg::Ktt => Tool::Ktt,
        ToolArg::KernelTuner => Tool::KernelTuner,
        ToolArg::T4 => Tool::T4,
        ToolArg::Clblast => Tool::Clblast,
        ToolArg::Xplacer if times_only => {
            return Err(advise::error::Error::Usage(
                "--times-only is for `ktt` and `kernel-tuner` spaces; an XPlacer import \
                 keeps its baseline's counters"
                    .into(),
            ))
        }
        ToolArg::Xplacer => {
            let data = xplacer::read(file)?;
            let summary = xplacer_write::write(&data, file, out, &command.join(" "))?;
            let stdout = Output::default();
            if json {
                return stdout.emit_json(&summary);
            }
            note(&format!("wrote {}", out.display()));
            let mut text = format!(
                "{}: {} kernel and input pairs, {} variants, {} counter measurements\nswitches: {}\n",
                summary.program,
                summary.kernel_inputs,
                summary.variants,
                summary.measurements,
                summary.switches.join(", ")
            );
            if !summary.without_counters.is_empty() {
                text += &format!(
                    "left out (no baseline counters): {}\n",
                    summary.without_counters.join("; ")
                );
            }
            if !summary.without_baseline.is_empty() {
                text += &format!(
                    "left out (no baseline time, every advise column 0): {}\n",
                    summary.without_baseline.join("; ")
                );
            }
            return stdout.emit(&text);
        }
    };
    let mut space = read_space(tool, file)?;
    if times_only {
        advise::dataset::import::ktt::keep_times_only(&mut space);
    }
    space.keep_what_tables_hold();
    let summary = write_dataset(&space, file, out, &command.join(" "))?;
    // What the reading repaired or left out is said here too, not only in PROVENANCE.md.
    for (key, text) in &space.notes {
        if REPAIR_NOTES.contains(&key.as_str()) {
            note(&format!("{}: {text}", file.display()));
        }
    }
    let stdout = Output::default();
    if json {
        return stdout.emit_json(&summary);
    }
    note(&format!("wrote {}", out.display()));
    stdout.emit(&format!(
        "{} on {}: {} configurations ({} failed), {} counter measurements, input {}\nswitches: {}\nfamilies: {}\n",
        summary.program,
        summary.device,
        summary.configs,
        summary.failed,
        summary.measurements,
        summary.input,
        summary.switches.join(", "),
        advise::dataset::import::families_line(&summary.families)
    ))
}
