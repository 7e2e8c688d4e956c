//! What each statistic of a GPGPU-Sim log means: whether the simulator prints it per kernel
//! or cumulatively over the run, its unit, and the Nsight Compute name of the same quantity
//! where NVIDIA's metric reference ("Nsight Compute CLI", "Metrics Reference") documents one.
//!
//! The classification follows GPGPU-Sim's `gpgpu_sim::gpu_print_stat` (accel-sim's
//! gpgpu-sim_distribution, branch dev): `gpu_sim_*` and the cache breakdown tables are reset
//! at every kernel; the shader counters (`gpgpu_n_*`, the warp-state line), the cache totals,
//! DRAM and interconnect counts accumulate over the whole run and are differenced here.

use serde::Serialize;

/// How a statistic relates to one kernel launch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Printed for the kernel just finished.
    PerKernel,
    /// A running total over the program; the kernel's value is the difference from the
    /// previous dump.
    Cumulative,
    /// Not kept: run-level averages and ratios that cannot be differenced, per-core and
    /// per-partition detail, simulator speed.
    Skip,
}

/// How to read one `name = value` statistic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stat {
    pub scope: Scope,
    /// The unit advise records (a count unit for counts, empty for ratios).
    pub unit: &'static str,
}

const fn stat(scope: Scope, unit: &'static str) -> Stat {
    Stat { scope, unit }
}

/// Classifies a statistic by the name GPGPU-Sim prints (brackets included).
pub fn classify(name: &str) -> Stat {
    use Scope::*;
    match name {
        "gpu_sim_cycle" => stat(PerKernel, "cycle"),
        "gpu_sim_insn" => stat(PerKernel, "inst"),
        "gpu_ipc" | "partiton_level_parallism" | "partiton_level_parallism_util" => {
            stat(PerKernel, "")
        }
        "gpu_occupancy" => stat(PerKernel, "%"),
        "gpu_stall_dramfull" | "gpu_stall_icnt2sh" | "gpu_reg_bank_conflict_stalls" => {
            stat(Cumulative, "cycle")
        }
        "total dram reads" | "total dram writes" => stat(Cumulative, "request"),
        _ => classify_family(name),
    }
}

fn classify_family(name: &str) -> Stat {
    use Scope::*;
    if name.starts_with("Total_core_cache_stats_breakdown[")
        || name.starts_with("Total_core_cache_fail_stats_breakdown[")
        || name.starts_with("L2_cache_stats_breakdown[")
        || name.starts_with("L2_cache_stats_fail_breakdown[")
    {
        return stat(PerKernel, "request");
    }
    if name.starts_with("traffic_breakdown_") {
        return stat(Cumulative, "byte");
    }
    if name.starts_with("icnt_total_pkts_") {
        return stat(Cumulative, "request");
    }
    if name.starts_with("gpgpu_stall_shd_mem[") || name == "gpgpu_n_stall_shd_mem" {
        return stat(Cumulative, "cycle");
    }
    if name.starts_with("gpgpu_n_") {
        let unit = if name.contains("_insn") || name.ends_with("_icount") {
            "inst"
        } else if name.contains("conflict") {
            "cycle"
        } else {
            "request"
        };
        return stat(Cumulative, unit);
    }
    let cache_total = ["L1I", "L1D", "L1C", "L1T", "L2"]
        .iter()
        .any(|c| name.starts_with(&format!("{c}_total_cache_")));
    if cache_total
        && (name.ends_with("_accesses")
            || name.ends_with("_misses")
            || name.ends_with("_pending_hits")
            || name.ends_with("_reservation_fails"))
    {
        return stat(Cumulative, "request");
    }
    stat(Skip, "")
}

/// A GPGPU-Sim quantity that Nsight Compute reports under its own name.
#[derive(Debug, Clone, Serialize)]
pub struct SimMetric {
    pub ncu: &'static str,
    /// How advise computes it from the log.
    pub from: &'static str,
    pub exact: bool,
    pub note: &'static str,
}

/// The GPGPU-Sim -> Nsight Compute map: what `advise parse` writes under ncu names. Every
/// other statistic keeps its GPGPU-Sim name behind the prefix `gpgpusim__`.
pub const SIM_MAP: &[SimMetric] = &[
    SimMetric {
        ncu: "gpc__cycles_elapsed.max",
        from: "gpu_sim_cycle",
        exact: true,
        note: "cycles from the kernel's start to its end (one clock domain)",
    },
    SimMetric {
        ncu: "gpu__time_duration.sum",
        from: "gpu_sim_cycle / core clock of -gpgpu_clock_domains",
        exact: true,
        note: "simulated time in ns; the program's own CUDA-event times are host wall-clock",
    },
    SimMetric {
        ncu: "sm__cycles_active.sum",
        from: "warp-state cycles (Stall + W0_Idle + W0_Scoreboard + W1..W32) / -gpgpu_num_sched_per_core",
        exact: false,
        note: "each scheduler of an active SM records one state per cycle (issue counts once per instruction)",
    },
    SimMetric {
        ncu: "smsp__inst_executed.sum",
        from: "difference of gpgpu_n_tot_w_icount",
        exact: false,
        note: "warp instructions, counted on PTX rather than SASS",
    },
    SimMetric {
        ncu: "smsp__thread_inst_executed.sum",
        from: "gpu_sim_insn",
        exact: false,
        note: "thread instructions, counted on PTX rather than SASS",
    },
    SimMetric {
        ncu: "smsp__thread_inst_executed_per_inst_executed.ratio",
        from: "sum of k * Wk / sum of Wk over the warp-state line",
        exact: true,
        note: "active threads per issued warp instruction",
    },
    SimMetric {
        ncu: "launch__grid_size",
        from: "gridDim of `pushing kernel`",
        exact: true,
        note: "",
    },
    SimMetric {
        ncu: "launch__block_size",
        from: "blockDim of `pushing kernel`",
        exact: true,
        note: "",
    },
    SimMetric {
        ncu: "launch__registers_per_thread",
        from: "regs of `Kernel ... : regs=`",
        exact: true,
        note: "ptxas's allocation for the simulated compute capability",
    },
    SimMetric {
        ncu: "launch__shared_mem_per_block_static",
        from: "smem of `Kernel ... : smem=`",
        exact: true,
        note: "bytes",
    },
    SimMetric {
        ncu: "l1tex__t_sector_hit_rate.pct",
        from: "100 * (1 - L1D misses / L1D accesses), differenced totals",
        exact: false,
        note: "GPGPU-Sim counts accesses per memory request of the L1 data cache",
    },
    SimMetric {
        ncu: "lts__t_sector_hit_rate.pct",
        from: "100 * (1 - L2 misses / L2 accesses), differenced totals",
        exact: false,
        note: "",
    },
];

/// The map as a Markdown table (docs/simulator.md holds this text; a test keeps them equal).
pub fn markdown() -> String {
    let mut out = String::from(
        "| Nsight Compute name | computed from the GPGPU-Sim log | same quantity | note |\n|---|---|---|---|\n",
    );
    for m in SIM_MAP {
        out.push_str(&format!(
            "| `{}` | {} | {} | {} |\n",
            m.ncu,
            m.from,
            if m.exact { "yes" } else { "approximately" },
            m.note
        ));
    }
    out
}

/// The name advise records for a statistic it keeps under GPGPU-Sim's own name:
/// `gpgpusim__` + the name, brackets turned into dots and spaces into underscores, so
/// `gpgpu_stall_shd_mem[gl_mem][coal_stall]` becomes
/// `gpgpusim__gpgpu_stall_shd_mem.gl_mem.coal_stall`.
pub fn raw_name(name: &str) -> String {
    let mut out = String::from("gpgpusim__");
    for c in name.chars() {
        match c {
            '[' => out.push('.'),
            ']' => {}
            ' ' => out.push('_'),
            c => out.push(c.to_ascii_lowercase()),
        }
    }
    out
}

/// `_Z5force6Arrays` -> `force(Arrays)`, as Nsight Compute prints demangled names. Handles
/// the plain Itanium forms of free functions (builtin types, pointers, const, named types);
/// anything else (templates, namespaces, substitutions) is returned unchanged.
pub fn demangle(mangled: &str) -> String {
    demangle_inner(mangled).unwrap_or_else(|| mangled.to_string())
}

fn demangle_inner(mangled: &str) -> Option<String> {
    let rest = mangled.strip_prefix("_Z")?;
    let (name, mut rest) = source_name(rest)?;
    let mut params = Vec::new();
    while !rest.is_empty() {
        let (p, r) = param_type(rest)?;
        params.push(p);
        rest = r;
    }
    if params.len() == 1 && params[0] == "void" {
        params.clear();
    }
    Some(format!("{name}({})", params.join(", ")))
}

fn source_name(s: &str) -> Option<(&str, &str)> {
    let digits = s.chars().take_while(|c| c.is_ascii_digit()).count();
    let len: usize = s.get(..digits)?.parse().ok()?;
    let name = s.get(digits..digits + len)?;
    Some((name, &s[digits + len..]))
}

fn param_type(s: &str) -> Option<(String, &str)> {
    let first = s.chars().next()?;
    let builtin = match first {
        'v' => "void",
        'b' => "bool",
        'c' => "char",
        'a' => "signed char",
        'h' => "unsigned char",
        's' => "short",
        't' => "unsigned short",
        'i' => "int",
        'j' => "unsigned int",
        'l' => "long",
        'm' => "unsigned long",
        'x' => "long long",
        'y' => "unsigned long long",
        'f' => "float",
        'd' => "double",
        _ => "",
    };
    if !builtin.is_empty() {
        return Some((builtin.to_string(), &s[1..]));
    }
    match first {
        'P' => param_type(&s[1..]).map(|(t, r)| (format!("{t} *"), r)),
        'K' => param_type(&s[1..]).map(|(t, r)| (format!("const {t}"), r)),
        c if c.is_ascii_digit() => source_name(s).map(|(n, r)| (n.to_string(), r)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn demangles_the_variants_kernels() {
        assert_eq!(demangle("_Z5force6Arrays"), "force(Arrays)");
        assert_eq!(demangle("_Z5forcev"), "force()");
        assert_eq!(
            demangle("_Z9integrateP6float4S0_i"),
            "_Z9integrateP6float4S0_i",
            "substitutions are left alone"
        );
        assert_eq!(demangle("_Z3addPKfPfi"), "add(const float *, float *, int)");
        assert_eq!(demangle("plain_c_name"), "plain_c_name");
        assert_eq!(demangle("_Z99x"), "_Z99x");
    }

    #[test]
    fn classifies_by_how_the_simulator_prints() {
        assert_eq!(classify("gpu_sim_cycle").scope, Scope::PerKernel);
        assert_eq!(classify("gpgpu_n_load_insn").scope, Scope::Cumulative);
        assert_eq!(classify("gpgpu_n_load_insn").unit, "inst");
        assert_eq!(classify("gpgpu_n_shmem_bkconflict").unit, "cycle");
        assert_eq!(
            classify("L2_cache_stats_breakdown[GLOBAL_ACC_R][HIT]").scope,
            Scope::PerKernel
        );
        assert_eq!(classify("L1D_total_cache_misses").scope, Scope::Cumulative);
        assert_eq!(classify("L1D_total_cache_miss_rate").scope, Scope::Skip);
        assert_eq!(classify("averagemflatency").scope, Scope::Skip);
        assert_eq!(classify("gpu_tot_sim_cycle").scope, Scope::Skip);
    }

    #[test]
    fn raw_names_are_column_safe() {
        assert_eq!(
            raw_name("gpgpu_stall_shd_mem[gl_mem][coal_stall]"),
            "gpgpusim__gpgpu_stall_shd_mem.gl_mem.coal_stall"
        );
        assert_eq!(raw_name("total dram reads"), "gpgpusim__total_dram_reads");
    }

    #[test]
    fn the_docs_table_is_this_table() {
        let doc = include_str!("../../docs/simulator.md");
        assert!(
            doc.contains(&markdown()),
            "docs/simulator.md is out of date: copy the table from gpgpusim_names::markdown"
        );
    }
}
