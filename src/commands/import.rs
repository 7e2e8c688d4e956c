//! `advise import`: a real tuning space into a dataset folder.

use std::path::Path;

use super::output::{note, Output};
use crate::cli::ToolArg;
use crate::dataset::import::{read_space, write_dataset, Tool};
use crate::error::Result;

pub fn run(tool: ToolArg, file: &Path, out: &Path, json: bool) -> Result<()> {
    let tool = match tool {
        ToolArg::Ktt => Tool::Ktt,
        ToolArg::KernelTuner => Tool::KernelTuner,
    };
    let space = read_space(tool, file)?;
    let command: Vec<String> = std::env::args().collect();
    let summary = write_dataset(&space, file, out, &command.join(" "))?;
    let stdout = Output::default();
    if json {
        return stdout.emit_json(&summary);
    }
    note(&format!("wrote {}", out.display()));
    stdout.emit(&format!(
        "{} on {}: {} configurations ({} failed), {} counter measurements, input {}\nswitches: {}\n",
        summary.program,
        summary.device,
        summary.configs,
        summary.failed,
        summary.measurements,
        summary.input,
        summary.switches.join(", ")
    ))
}
