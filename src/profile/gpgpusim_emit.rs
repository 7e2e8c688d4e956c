//! GPGPU-Sim logs, second half: a parsed log's kernel blocks turned into per-launch
//! measurements under Nsight Compute's names where it has them (`gpgpusim` reads the log).

use std::collections::HashMap;
use std::path::Path;

use super::gpgpusim::{Dump, LaunchInfo};
use super::gpgpusim_names::{classify, demangle, raw_name, Scope};
use super::{Format, Measurement, ProfileData};
use crate::error::{Error, Result};

/// The measurements of every kernel block, given the log's configuration options: cumulative
/// statistics differenced against the previous block, hit rates, warp states, the launch
/// configuration and the simulated GPU's compute capability.
pub(super) fn emit(
    path: &Path,
    options: &HashMap<String, String>,
    dumps: &[(Dump, LaunchInfo)],
) -> Result<ProfileData> {
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
            if *value < 0.0 {
                return Err(Error::parse(
                    path,
                    *line,
                    format!(
                        "{name} = {value}: the simulator's statistics are counts and rates, \
                         never negative (is the log damaged?)"
                    ),
                ));
            }
            // A kernel whose statistics say it ran no cycle cannot have run: its rates would
            // divide by zero and its time be 0.
            if name == "gpu_sim_cycle" && *value == 0.0 {
                return Err(Error::parse(
                    path,
                    *line,
                    "gpu_sim_cycle = 0: a kernel that ran takes at least one cycle (is the log \
                     damaged?)",
                ));
            }
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
            // GPGPU-Sim prints `-nan` and `inf` for rates of nothing (gpu_occupancy of a
            // kernel it saw no warp of): counted, and the first named, as other formats' cells.
            self.data.skip_cell(metric, &value.to_string());
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
