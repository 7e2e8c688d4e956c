//! Real public tuning spaces into the project's tables (`advise import`): KTT output with
//! Nsight Compute counters, Kernel Tuner caches and T4 results with times and any counters
//! their observers recorded, and CLBlast tuner output with times only.

pub mod clblast;
mod dataset_folder;
mod guess;
#[cfg(test)]
use guess::tool_of_text;
pub use guess::{guess_tool, refuse_binary};
pub mod kernel_tuner;
mod kernel_tuner_entries;
mod kernel_tuner_list;
pub mod ktt;
pub use dataset_folder::write_tables;
mod reading_notes;
pub mod recorded_time;
pub mod run_noise;
pub mod space;
pub mod space_repair;
pub mod t4;
pub mod xplacer;
mod xplacer_meaning;
pub mod xplacer_write;

use std::fmt::Write as _;
use std::path::Path;

use crate::error::{Error, Result};
pub use space::{Config, SwitchRow, TuningSpace};

/// Which tool wrote a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    Ktt,
    KernelTuner,
    /// The T4 results format (Kernel Tuner's schema; benchmark_hub's `*_T4.json.gz`).
    T4,
    /// CLBlast's tuner output (`clblast_xgemm_1_32.json`).
    Clblast,
}

impl Tool {
    /// The name `advise import` takes for it.
    pub fn command_name(self) -> &'static str {
        match self {
            Tool::Ktt => "ktt",
            Tool::KernelTuner => "kernel-tuner",
            Tool::T4 => "t4",
            Tool::Clblast => "clblast",
        }
    }

    /// What a reader calls its files.
    pub fn file_kind(self) -> &'static str {
        match self {
            Tool::Ktt => "KTT output",
            Tool::KernelTuner => "a Kernel Tuner cache or results list",
            Tool::T4 => "T4 tuning results",
            Tool::Clblast => "CLBlast tuner output",
        }
    }
}

/// Reads a space from a file (gzip or bzip2 allowed). Where the file does not parse as `tool`'s and
/// its first few kB look like another tool's, the error says which and how to import it.
pub fn read_space(tool: Tool, path: &Path) -> Result<TuningSpace> {
    let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    let read = match tool {
        Tool::Ktt => ktt::read(path, file),
        Tool::KernelTuner => kernel_tuner::read(path, file),
        Tool::T4 => t4::read(path, file),
        Tool::Clblast => clblast::read(path, file),
    };
    let read = read.map(|mut space| {
        space.fail_unusable_times();
        // A file that names no kernel (a cache without `kernel_name`) is named by the file, as
        // the program of the tables it becomes.
        if space.kernel.trim().is_empty() {
            space.kernel = file_stem(path);
        }
        space
    });
    read.map_err(|e| {
        let Some(other) = guess_tool(path).ok().flatten().filter(|&t| t != tool) else {
            return e;
        };
        let hint = format!(
            "; it looks like {}: import it as `advise import {}`",
            other.file_kind(),
            other.command_name()
        );
        match e {
            Error::Parse {
                path,
                line,
                message,
            } => Error::parse(path, line, message + &hint),
            Error::Format { path, message } => Error::format(path, message + &hint),
            other => other,
        }
    })
}

/// A tuning file's name without its `.gz`, `.bz2`, `.json`, `.csv` and KTT's `.t4` endings, in
/// that order: what a T4 import names its kernel and a search its space.
pub fn file_stem(path: &Path) -> String {
    let mut name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    for ext in [".gz", ".bz2", ".json", ".csv", ".t4"] {
        if let Some(stripped) = name.strip_suffix(ext) {
            name = stripped.to_string();
        }
    }
    name
}

/// What `write_dataset` wrote.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ImportSummary {
    pub program: String,
    pub device: String,
    pub input: String,
    pub configs: usize,
    pub failed: usize,
    pub measurements: usize,
    pub switches: Vec<String>,
    /// The switches by optimization family ("none": in no family), as their parameter's name
    /// where all of its steps share the family, else as `PARAM:FROM->TO`.
    pub families: std::collections::BTreeMap<String, Vec<String>>,
}

/// The switches grouped by family, for [`ImportSummary::families`].
pub fn switches_by_family(
    switches: &[SwitchRow],
) -> std::collections::BTreeMap<String, Vec<String>> {
    let family = |s: &SwitchRow| {
        if s.family.is_empty() {
            "none".to_string()
        } else {
            s.family.clone()
        }
    };
    let mut out: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    let mut params: Vec<&str> = Vec::new();
    for s in switches {
        if !params.contains(&s.param.as_str()) {
            params.push(&s.param);
        }
    }
    for param in params {
        let steps: Vec<&SwitchRow> = switches.iter().filter(|s| s.param == param).collect();
        if steps.iter().all(|s| s.family == steps[0].family) {
            out.entry(family(steps[0]))
                .or_default()
                .push(param.to_string());
        } else {
            for s in steps {
                out.entry(family(s))
                    .or_default()
                    .push(format!("{}:{}->{}", s.param, s.from, s.to));
            }
        }
    }
    out
}

/// The text line of [`ImportSummary::families`]: `BLOCK_SIZE: MDIMC, NDIMC; no family: MWG
/// (...)`.
pub fn families_line(families: &std::collections::BTreeMap<String, Vec<String>>) -> String {
    let mut parts: Vec<String> = families
        .iter()
        .filter(|(f, _)| f.as_str() != "none")
        .map(|(f, v)| format!("{f}: {}", v.join(", ")))
        .collect();
    if let Some(none) = families.get("none") {
        parts.push(format!(
            "no family: {} (name one in switches.csv's family column to match it across programs)",
            none.join(", ")
        ));
    }
    parts.join("; ")
}

/// Writes `measurements.csv.gz`, `timings.csv`, `switches.csv` and `PROVENANCE.md` into `out`.
/// `command` is the exact command line, recorded in the provenance note.
pub fn write_dataset(
    space: &TuningSpace,
    source: &Path,
    out: &Path,
    command: &str,
) -> Result<ImportSummary> {
    let (measurements, timings) = space.to_tables();
    let switches = space.switches();
    // A space that gives no speedup sample is refused before anything is written: its folder
    // would only fail later, at its own empty tables.
    let ran = space.configs.len() - space.failed();
    if ran < 2 || switches.is_empty() {
        return Err(Error::format(
            source,
            format!(
                "nothing to learn from: {} configurations, {ran} with a time, {} \
                 parameters with two or more values; a speedup sample needs two timed \
                 configurations that differ in one parameter",
                space.configs.len(),
                space
                    .params
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| {
                        let mut v: Vec<&str> = space
                            .configs
                            .iter()
                            .filter_map(|c| c.values.get(*j).map(String::as_str))
                            .collect();
                        v.sort_unstable();
                        v.dedup();
                        v.len() > 1
                    })
                    .count()
            ),
        ));
    }
    write_tables(out, &measurements, &timings, &switches)?;
    let summary = ImportSummary {
        program: space.kernel.clone(),
        device: space.device.clone(),
        input: space.input_label(),
        configs: space.configs.len(),
        failed: space.failed(),
        measurements: measurements.len(),
        switches: switches
            .iter()
            .map(|s| format!("{}:{}->{}", s.param, s.from, s.to))
            .collect(),
        families: switches_by_family(&switches),
    };
    // Keep the upstream provenance and license with the data they describe.
    if let Some(src_dir) = source.parent() {
        for (from, to) in [
            ("PROVENANCE.md", "UPSTREAM-PROVENANCE.md"),
            ("LICENSE", "LICENSE.upstream"),
        ] {
            let f = src_dir.join(from);
            if f.is_file() {
                std::fs::copy(&f, out.join(to)).map_err(|e| Error::io(&f, e))?;
            }
        }
    }
    // The GPU's compute capability, where the device name is one NVIDIA lists.
    let device = out.join(crate::dataset::devices::DEVICE_FILE);
    if let Some(cc) = crate::dataset::devices::compute_capability_of(&space.device) {
        let file = crate::dataset::devices::DeviceFile {
            device: space.device.clone(),
            compute_capability: cc.to_string(),
            host_link: None,
        };
        let text = serde_json::to_string_pretty(&file)
            .map_err(|e| Error::Internal(format!("device.json: {e}")))?;
        std::fs::write(&device, text + "\n").map_err(|e| Error::io(&device, e))?;
    } else if device.is_file() {
        std::fs::remove_file(&device).map_err(|e| Error::io(&device, e))?;
    }
    let prov = out.join("PROVENANCE.md");
    std::fs::write(&prov, provenance(space, source, &summary, command)?)
        .map_err(|e| Error::io(&prov, e))?;
    Ok(summary)
}

fn provenance(
    space: &TuningSpace,
    source: &Path,
    s: &ImportSummary,
    command: &str,
) -> Result<String> {
    let mut t = String::new();
    let _ = writeln!(
        t,
        "# Imported tuning space: {} on {}\n",
        s.program, s.device
    );
    let _ = writeln!(t, "Converted by `advise import` from a real recorded space; numbers are as the tool wrote them");
    let _ = writeln!(t, "(times converted to milliseconds, KTT durations also kept as `gpu__time_duration.sum` in seconds).\n");
    let _ = writeln!(t, "- source file: `{}`", source.display());
    let _ = writeln!(
        t,
        "- source digest (FNV-1a 64 of the file's bytes): `{}`",
        file_digest(source)?
    );
    let _ = writeln!(t, "- tool: {}", space.tool);
    let _ = writeln!(t, "- GPU: {}", s.device);
    if let Some(cc) = crate::dataset::devices::compute_capability_of(&s.device) {
        let _ = writeln!(
            t,
            "- compute capability: {cc} (from the GPU's name by NVIDIA's list; `device.json`)"
        );
    }
    for (k, v) in &space.notes {
        let _ = writeln!(t, "- {k}: {v}");
    }
    if let Some(n) = &space.run_noise {
        let _ = writeln!(
            t,
            "- recorded runs: the mean times of the {} fastest configurations have a standard \
             error of {:.2}% ({} runs each; a warm-up first run in {})",
            n.configurations,
            n.standard_error * 100.0,
            n.runs,
            n.warm_up_first_runs
        );
    }
    let _ = writeln!(t, "- input (fixed parameters): `{}`", s.input);
    let _ = writeln!(
        t,
        "- configurations: {} ({} failed, without a time)",
        s.configs, s.failed
    );
    let _ = writeln!(t, "- counter measurements: {}", s.measurements);
    let _ = writeln!(t, "- switches: {}", s.switches.join(", "));
    let _ = writeln!(t, "- command: `{command}`");
    let _ = writeln!(
        t,
        "\nThe upstream provenance of the source file (repository, commit, license) is copied into\n\
         UPSTREAM-PROVENANCE.md (its license into LICENSE.upstream) when it lies beside the source;\n\
         GPU, driver and profiler versions are only those it states."
    );
    Ok(t)
}

/// FNV-1a (64 bit) of a file's bytes: a short fingerprint for provenance notes, not security.
fn file_digest(path: &Path) -> Result<String> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    Ok(format!("{:016x}", fnv1a(&bytes)))
}

/// FNV-1a (64 bit) of some bytes: a short, stable fingerprint (not for security).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    fnv1a_on(FNV1A_START, bytes)
}

/// FNV-1a's state before any byte.
pub(crate) const FNV1A_START: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a's state `h` after `bytes` more ([`space::TextHasher`] hashes with it too).
pub(crate) fn fnv1a_on(h: u64, bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(h, |h, &b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
}

#[cfg(test)]
mod tests;
