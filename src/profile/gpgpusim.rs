//! GPGPU-Sim logs: the statistics the simulator prints after every kernel, turned into the
//! same per-launch measurements as Nsight Compute output.
//!
//! A log holds the configuration options (`-name value # help`), one `Kernel 'X' : regs=..`
//! line per kernel, a `pushing kernel 'X' ... gridDim= (..) blockDim = (..)` line per launch,
//! and after each launch a block from `kernel_name = X` to `gpgpu_silicon_slowdown = ..`.
//! Per-kernel statistics are kept as printed, cumulative ones are differenced against the
//! previous block (`gpgpusim_names` says which is which), and the quantities Nsight Compute
//! also reports get its names (`gpgpusim_names::SIM_MAP`). The configuration's
//! `-gpgpu_compute_capability_major`/`_minor` become every launch's
//! `device__attribute_compute_capability_major`/`_minor`, as Nsight Compute names them.
//! This module reads the log into kernel blocks; `gpgpusim_emit` turns them into
//! measurements.

use std::collections::HashMap;
use std::path::Path;

use super::text::Line;
use super::ProfileData;
use crate::error::{Error, Result};

const DUMP_START: &str = "kernel_name = ";
const DUMP_END: &str = "gpgpu_silicon_slowdown";
const EXIT: &str = "GPGPU-Sim: *** exit detected ***";

/// Whether the lines come from a program run under GPGPU-Sim.
pub fn detect(lines: &[Line]) -> bool {
    lines.iter().take(400).any(|l| {
        l.text.contains("GPGPU-Sim Simulator Version")
            || l.text.starts_with("GPGPU-Sim: Configuration options:")
    }) || lines.iter().any(|l| l.text.starts_with(DUMP_START))
}

/// One kernel's block of statistics.
pub(super) struct Dump {
    pub(super) kernel: String,
    pub(super) line: usize,
    pub(super) uid: Option<u64>,
    pub(super) stats: Vec<(String, f64, usize)>,
    /// Cumulative warp-state counts: Stall, W0_Idle, W0_Scoreboard, W1..W32.
    pub(super) warp_states: Vec<(String, f64)>,
    pub(super) ended: bool,
}

/// The launch configuration of a kernel, from the lines before its block.
#[derive(Default, Clone)]
pub(super) struct LaunchInfo {
    pub(super) grid: Option<f64>,
    pub(super) block: Option<f64>,
    pub(super) regs: Option<f64>,
    pub(super) smem: Option<f64>,
    pub(super) pushed_at: usize,
}

/// Parses a whole GPGPU-Sim log.
pub fn parse(path: &Path, lines: &[Line]) -> Result<ProfileData> {
    let mut options: HashMap<String, String> = HashMap::new();
    let mut resources: HashMap<String, (f64, f64)> = HashMap::new();
    let mut pending: Option<(String, LaunchInfo)> = None;
    let mut dumps: Vec<(Dump, LaunchInfo)> = Vec::new();
    let mut current: Option<(Dump, LaunchInfo)> = None;
    let mut skipping_partitions = false;
    let mut exited = false;
    for l in lines {
        let t = l.text.trim_end();
        if let Some((dump, _)) = current.as_mut() {
            if t.starts_with(DUMP_END) {
                dump.ended = true;
                dumps.extend(current.take());
                skipping_partitions = false;
                continue;
            }
            if t.starts_with("Memory Partition ") {
                skipping_partitions = true;
            } else if t.starts_with("========= L2 cache stats") {
                skipping_partitions = false;
            }
            if !skipping_partitions {
                read_stat_line(dump, l.number, t).map_err(|e| Error::parse(path, l.number, e))?;
            }
            continue;
        }
        if t.starts_with('-') && options.len() < 2000 {
            if let Some((name, value)) = option(t) {
                options.entry(name).or_insert(value);
            }
        } else if let Some(rest) = t.strip_prefix("GPGPU-Sim PTX: Kernel '") {
            if let Some((name, r)) = kernel_resources(rest) {
                resources.insert(name, r);
            }
        } else if let Some(rest) = t.strip_prefix("GPGPU-Sim PTX: pushing kernel '") {
            pending = Some(pushed_kernel(rest, l.number));
        } else if let Some(name) = t.strip_prefix(DUMP_START.trim_end()) {
            let name = name.trim().to_string();
            if name.is_empty() {
                return Err(Error::parse(
                    path,
                    l.number,
                    "`kernel_name =` names no kernel: the statistics below belong to no kernel \
                     (is the log damaged?)",
                ));
            }
            let mut info = match pending.take() {
                Some((k, info)) if k == name => info,
                _ => LaunchInfo::default(),
            };
            if let Some(&(regs, smem)) = resources.get(&name) {
                info.regs = Some(regs);
                info.smem = Some(smem);
            }
            current = Some((
                Dump {
                    kernel: name,
                    line: l.number,
                    uid: None,
                    stats: Vec::new(),
                    warp_states: Vec::new(),
                    ended: false,
                },
                info,
            ));
        } else if t.contains("deadlock detected") {
            return Err(Error::parse(
                path,
                l.number,
                "GPGPU-Sim detected a deadlock: the program's threads wait on each other \
                 under the simulator's SIMT model (see variants/README.md on spin loops)",
            ));
        } else if t.starts_with(EXIT) {
            exited = true;
        }
    }
    if let Some((dump, _)) = current {
        return Err(Error::parse(
            path,
            dump.line,
            format!(
                "the statistics of kernel {} start here but the log ends before `{DUMP_END}`: \
                 the log is truncated (was the simulation killed?)",
                dump.kernel
            ),
        ));
    }
    if let (Some((kernel, info)), false) = (&pending, exited) {
        return Err(Error::parse(
            path,
            info.pushed_at,
            format!(
                "kernel {kernel} was launched here but the log ends before its statistics: \
                 the simulation did not finish (killed, or out of time?)"
            ),
        ));
    }
    if let (Some((dump, _)), false) = (dumps.last(), exited) {
        // Cut after a kernel's statistics and before the next launch: every line read is
        // whole, but the kernels after the cut are missing.
        return Err(Error::parse(
            path,
            lines.last().map_or(dump.line, |l| l.number),
            format!(
                "the log ends without GPGPU-Sim's `{EXIT}` line (the last kernel whose \
                 statistics it holds: {}): the log is truncated, and the kernels after it are \
                 missing (was the simulation killed?)",
                dump.kernel
            ),
        ));
    }
    if dumps.is_empty() {
        return Err(Error::format(
            path,
            "a GPGPU-Sim log without kernel statistics (no `kernel_name = ` block): did the \
             program launch a kernel, and did it run with GPGPU-Sim's libcudart?",
        ));
    }
    super::gpgpusim_emit::emit(path, &options, &dumps)
}

/// Reads one line inside a kernel's block. A statistic advise keeps (or the launch's id) whose
/// value is not a number is an error: dropping it would change the measurements unnoticed.
fn read_stat_line(dump: &mut Dump, number: usize, t: &str) -> std::result::Result<(), String> {
    let t = t.trim();
    if t.starts_with("Stall:") {
        for part in t.split_whitespace() {
            if let Some((k, v)) = part.split_once(':') {
                if let Ok(v) = v.parse::<f64>() {
                    dump.warp_states.push((k.to_string(), v));
                }
            }
        }
        return Ok(());
    }
    let Some((key, value)) = t.split_once('=') else {
        return Ok(());
    };
    let key = key.trim();
    if key.is_empty() || key.contains(':') || key.contains(' ') && !key.starts_with("total dram") {
        return Ok(());
    }
    let token = value.split_whitespace().next().unwrap_or("");
    let token = token.trim_end_matches('%');
    let not_a_number = || {
        format!(
            "`{key}` reads `{}`, not a number: the log is damaged (a statistic GPGPU-Sim \
             prints as a number)",
            value.trim()
        )
    };
    if key == "kernel_launch_uid" {
        dump.uid = Some(token.parse().map_err(|_| not_a_number())?);
        return Ok(());
    }
    match token.parse::<f64>() {
        Ok(v) => {
            if !dump.stats.iter().any(|(k, _, _)| k == key) {
                dump.stats.push((key.to_string(), v, number));
            }
            Ok(())
        }
        Err(_)
            if super::gpgpusim_names::classify(key).scope != super::gpgpusim_names::Scope::Skip =>
        {
            Err(not_a_number())
        }
        // Statistics advise does not keep may print text (`gpgpu_simulation_rate = ...`).
        Err(_) => Ok(()),
    }
}

/// `-gpgpu_clock_domains 1132.0:1132.0:1132.0:850.0 # help` -> (name, first value).
fn option(t: &str) -> Option<(String, String)> {
    let body = t.split('#').next()?.trim();
    let mut parts = body.split_whitespace();
    let name = parts.next()?.strip_prefix('-')?;
    let value = parts.next()?;
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':')
    {
        return None;
    }
    Some((name.to_string(), value.to_string()))
}

/// `_Z5force6Arrays' : regs=32, lmem=0, smem=1216, cmem=520` -> (name, (regs, smem)).
fn kernel_resources(rest: &str) -> Option<(String, (f64, f64))> {
    let (name, tail) = rest.split_once('\'')?;
    let field = |key: &str| -> Option<f64> {
        let start = tail.find(key)? + key.len();
        let digits: String = tail[start..]
            .chars()
            .take_while(|c| c.is_ascii_digit())
            .collect();
        digits.parse().ok()
    };
    Some((name.to_string(), (field("regs=")?, field("smem=")?)))
}

/// `_Z5clear6Arrays' to stream 0, gridDim= (64,1,1) blockDim = (256,1,1)`.
fn pushed_kernel(rest: &str, line: usize) -> (String, LaunchInfo) {
    let (name, tail) = rest.split_once('\'').unwrap_or((rest, ""));
    let dims = |key: &str| -> Option<f64> {
        let start = tail.find(key)? + key.len();
        let open = tail[start..].find('(')? + start + 1;
        let close = tail[open..].find(')')? + open;
        tail[open..close]
            .split(',')
            .map(|d| d.trim().parse::<f64>().ok())
            .product::<Option<f64>>()
    };
    (
        name.to_string(),
        LaunchInfo {
            grid: dims("gridDim"),
            block: dims("blockDim"),
            pushed_at: line,
            ..Default::default()
        },
    )
}
