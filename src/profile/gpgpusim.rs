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

use std::collections::HashMap;
use std::path::Path;

use super::gpgpusim_names::{classify, demangle, raw_name, Scope};
use super::text::Line;
use super::{Format, Measurement, ProfileData};
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
struct Dump {
    kernel: String,
    line: usize,
    uid: Option<u64>,
    stats: Vec<(String, f64, usize)>,
    /// Cumulative warp-state counts: Stall, W0_Idle, W0_Scoreboard, W1..W32.
    warp_states: Vec<(String, f64)>,
    ended: bool,
}

/// The launch configuration of a kernel, from the lines before its block.
#[derive(Default, Clone)]
struct LaunchInfo {
    grid: Option<f64>,
    block: Option<f64>,
    regs: Option<f64>,
    smem: Option<f64>,
    pushed_at: usize,
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
                read_stat_line(dump, l.number, t);
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
        } else if let Some(name) = t.strip_prefix(DUMP_START) {
            let name = name.trim().to_string();
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
    if dumps.is_empty() {
        return Err(Error::format(
            path,
            "a GPGPU-Sim log without kernel statistics (no `kernel_name = ` block): did the \
             program launch a kernel, and did it run with GPGPU-Sim's libcudart?",
        ));
    }
    let clock_mhz = options
        .get("gpgpu_clock_domains")
        .and_then(|v| v.split(':').next())
        .and_then(|v| v.parse::<f64>().ok())
        .filter(|v| *v > 0.0);
    let schedulers = options
        .get("gpgpu_num_sched_per_core")
        .and_then(|v| v.parse::<f64>().ok())
        .filter(|v| *v > 0.0);
    // The simulated GPU's compute capability, under Nsight Compute's device attribute names.
    let capability: Vec<(&str, f64)> = [
        (
            "device__attribute_compute_capability_major",
            "gpgpu_compute_capability_major",
        ),
        (
            "device__attribute_compute_capability_minor",
            "gpgpu_compute_capability_minor",
        ),
    ]
    .iter()
    .filter_map(|&(ncu, opt)| Some((ncu, options.get(opt)?.parse::<f64>().ok()?)))
    .collect();
    let mut data = ProfileData::empty(Format::GpgpuSim);
    let mut previous: HashMap<String, f64> = HashMap::new();
    for (i, (dump, info)) in dumps.iter().enumerate() {
        let launch = dump.uid.unwrap_or(i as u64);
        let kernel = demangle(&dump.kernel);
        let mut out = Emitter {
            data: &mut data,
            kernel: &kernel,
            launch,
        };
        let mut deltas: HashMap<&str, f64> = HashMap::new();
        for (name, value, line) in &dump.stats {
            let stat = classify(name);
            let v = match stat.scope {
                Scope::Skip => continue,
                Scope::PerKernel => *value,
                Scope::Cumulative => {
                    let before = previous.insert(name.clone(), *value).unwrap_or(0.0);
                    if *value < before {
                        return Err(Error::parse(
                            path,
                            *line,
                            format!(
                                "{name} = {value} is smaller than in the previous kernel's \
                                 statistics ({before}): not a running total, or two logs \
                                 were joined"
                            ),
                        ));
                    }
                    value - before
                }
            };
            deltas.insert(name, v);
            match name.as_str() {
                "gpu_sim_cycle" => {
                    out.push("gpc__cycles_elapsed.max", "cycle", v);
                    if let Some(mhz) = clock_mhz {
                        out.push("gpu__time_duration.sum", "nsecond", v / mhz * 1e3);
                    }
                }
                "gpu_sim_insn" => out.push("smsp__thread_inst_executed.sum", "inst", v),
                "gpgpu_n_tot_w_icount" => out.push("smsp__inst_executed.sum", "inst", v),
                "gpgpu_n_tot_thrd_icount" => {} // the same as gpu_sim_insn
                _ => out.push(&raw_name(name), stat.unit, v),
            }
        }
        for (cache, ncu) in [
            ("L1D", "l1tex__t_sector_hit_rate.pct"),
            ("L2", "lts__t_sector_hit_rate.pct"),
        ] {
            let acc = deltas.get(format!("{cache}_total_cache_accesses").as_str());
            let miss = deltas.get(format!("{cache}_total_cache_misses").as_str());
            if let (Some(&a), Some(&m)) = (acc, miss) {
                if a > 0.0 {
                    out.push(ncu, "%", 100.0 * (1.0 - m / a));
                }
            }
        }
        warp_state_measurements(&mut out, &dump.warp_states, &mut previous, schedulers);
        for (name, value) in [
            ("launch__grid_size", info.grid),
            ("launch__block_size", info.block),
            ("launch__registers_per_thread", info.regs),
            ("launch__shared_mem_per_block_static", info.smem),
        ] {
            if let Some(v) = value {
                let unit = if name.ends_with("static") { "byte" } else { "" };
                out.push(name, unit, v);
            }
        }
        if capability.len() == 2 {
            for &(name, v) in &capability {
                out.push(name, "", v);
            }
        }
    }
    Ok(data)
}

/// Appends measurements of one launch.
struct Emitter<'a> {
    data: &'a mut ProfileData,
    kernel: &'a str,
    launch: u64,
}

impl Emitter<'_> {
    fn push(&mut self, metric: &str, unit: &str, value: f64) {
        if !value.is_finite() {
            self.data.skipped_cells += 1;
            return;
        }
        self.data.measurements.push(Measurement {
            kernel: self.kernel.to_string(),
            launch: self.launch,
            invocations: 1,
            metric: metric.to_string(),
            unit: unit.to_string(),
            value,
        });
    }
}

/// The warp-state line (`Stall:.. W0_Idle:.. W0_Scoreboard:.. W1:.. .. W32:..`, cumulative):
/// the kernel's shares of stalled, idle, waiting and issuing scheduler cycles, active threads
/// per issued instruction, and SM active cycles.
fn warp_state_measurements(
    out: &mut Emitter,
    states: &[(String, f64)],
    previous: &mut HashMap<String, f64>,
    schedulers: Option<f64>,
) {
    if states.is_empty() {
        return;
    }
    let (mut stall, mut idle, mut scoreboard, mut issued, mut threads) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for (name, value) in states {
        let key = format!("warp_state.{name}");
        let before = previous.insert(key, *value).unwrap_or(0.0);
        let d = (value - before).max(0.0);
        match name.as_str() {
            "Stall" => stall = d,
            "W0_Idle" => idle = d,
            "W0_Scoreboard" => scoreboard = d,
            w => {
                if let Some(k) = w.strip_prefix('W').and_then(|k| k.parse::<f64>().ok()) {
                    issued += d;
                    threads += k * d;
                }
            }
        }
    }
    out.push("gpgpusim__warp_state.stall", "cycle", stall);
    out.push("gpgpusim__warp_state.idle", "cycle", idle);
    out.push("gpgpusim__warp_state.scoreboard", "cycle", scoreboard);
    out.push("gpgpusim__warp_state.issued", "cycle", issued);
    if issued > 0.0 {
        out.push(
            "smsp__thread_inst_executed_per_inst_executed.ratio",
            "",
            threads / issued,
        );
    }
    if let Some(s) = schedulers {
        let total = stall + idle + scoreboard + issued;
        out.push("sm__cycles_active.sum", "cycle", total / s);
    }
}

/// Reads one line inside a kernel's block.
fn read_stat_line(dump: &mut Dump, number: usize, t: &str) {
    let t = t.trim();
    if t.starts_with("Stall:") {
        for part in t.split_whitespace() {
            if let Some((k, v)) = part.split_once(':') {
                if let Ok(v) = v.parse::<f64>() {
                    dump.warp_states.push((k.to_string(), v));
                }
            }
        }
        return;
    }
    let Some((key, value)) = t.split_once('=') else {
        return;
    };
    let key = key.trim();
    if key.is_empty() || key.contains(':') || key.contains(' ') && !key.starts_with("total dram") {
        return;
    }
    let token = value.split_whitespace().next().unwrap_or("");
    let token = token.trim_end_matches('%');
    if key == "kernel_launch_uid" {
        dump.uid = token.parse().ok();
        return;
    }
    if let Ok(v) = token.parse::<f64>() {
        if !dump.stats.iter().any(|(k, _, _)| k == key) {
            dump.stats.push((key.to_string(), v, number));
        }
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
