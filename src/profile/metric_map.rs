//! The nvprof -> Nsight Compute metric-name map for the counters advise's models use.
//!
//! ncu names are canonical. The pairs follow NVIDIA's "Metric Comparison" table in the Nsight
//! Compute CLI documentation (section "nvprof Transition Guide"); where it gives no equivalent,
//! or only a loose one, the entry says so. `scale` converts the nvprof value to the ncu one
//! (nvprof reports occupancy as a 0-1 ratio, ncu as a percentage).

use serde::Serialize;

/// How closely an ncu metric matches an nvprof one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Match {
    /// Same quantity (up to `scale`).
    Exact,
    /// Related quantity; comparable in trend, not in value.
    Approximate,
    /// No ncu equivalent.
    None,
}

/// One entry of the map.
#[derive(Debug, Clone, Serialize)]
pub struct MetricPair {
    pub nvprof: &'static str,
    pub ncu: Option<&'static str>,
    pub matches: Match,
    pub scale: f64,
    /// Whether the quantity is a count (summed and normalized) rather than a rate or ratio.
    pub count: bool,
    pub note: &'static str,
}

const fn pair(
    nvprof: &'static str,
    ncu: &'static str,
    matches: Match,
    count: bool,
    note: &'static str,
) -> MetricPair {
    MetricPair {
        nvprof,
        ncu: Some(ncu),
        matches,
        scale: 1.0,
        count,
        note,
    }
}

use Match::{Approximate as A, Exact as E};

/// The map. Sorted by nvprof name.
pub const METRIC_MAP: &[MetricPair] = &[
    MetricPair {
        scale: 100.0,
        ..pair(
            "achieved_occupancy",
            "sm__warps_active.avg.pct_of_peak_sustained_active",
            E,
            false,
            "nvprof ratio 0-1, ncu percent",
        )
    },
    pair(
        "active_cycles",
        "sm__cycles_active.sum",
        E,
        true,
        "the normalizer A",
    ),
    pair("active_warps", "sm__warps_active.sum", E, true, ""),
    pair(
        "branch",
        "smsp__inst_executed_op_branch.sum",
        E,
        true,
        "branch instructions executed",
    ),
    pair(
        "branch_efficiency",
        "smsp__sass_average_branch_targets_threads_uniform.pct",
        E,
        false,
        "",
    ),
    pair(
        "cf_executed",
        "smsp__inst_executed_op_branch.sum",
        A,
        true,
        "control-flow instructions",
    ),
    pair(
        "divergent_branch",
        "smsp__sass_branch_targets_threads_divergent.sum",
        E,
        true,
        "",
    ),
    pair("dram_read_bytes", "dram__bytes_read.sum", E, true, ""),
    pair(
        "dram_read_throughput",
        "dram__bytes_read.sum.per_second",
        E,
        false,
        "",
    ),
    pair(
        "dram_read_transactions",
        "dram__sectors_read.sum",
        E,
        true,
        "32-byte sectors",
    ),
    pair(
        "dram_utilization",
        "dram__throughput.avg.pct_of_peak_sustained_elapsed",
        A,
        false,
        "nvprof level 0-10, ncu percent",
    ),
    pair("dram_write_bytes", "dram__bytes_write.sum", E, true, ""),
    pair(
        "dram_write_throughput",
        "dram__bytes_write.sum.per_second",
        E,
        false,
        "",
    ),
    pair(
        "dram_write_transactions",
        "dram__sectors_write.sum",
        E,
        true,
        "32-byte sectors",
    ),
    pair("elapsed_cycles_sm", "sm__cycles_elapsed.sum", E, true, ""),
    pair(
        "eligible_warps_per_active_cycle",
        "smsp__warps_eligible.sum.per_cycle_active",
        E,
        false,
        "",
    ),
    pair(
        "executed_ipc",
        "sm__inst_executed.avg.per_cycle_active",
        E,
        false,
        "",
    ),
    pair(
        "gld_efficiency",
        "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct",
        E,
        false,
        "",
    ),
    pair(
        "gld_inst_32bit",
        "smsp__sass_inst_executed_op_global_ld.sum",
        A,
        true,
        "ncu counts loads of every width",
    ),
    pair(
        "gld_request",
        "smsp__inst_executed_op_global_ld.sum",
        E,
        true,
        "",
    ),
    pair(
        "gld_throughput",
        "l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum.per_second",
        E,
        false,
        "",
    ),
    pair(
        "gld_transactions",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
        E,
        true,
        "sectors since Maxwell",
    ),
    pair(
        "global_hit_rate",
        "l1tex__t_sector_hit_rate.pct",
        A,
        false,
        "ncu rate covers all L1 traffic",
    ),
    pair(
        "gst_efficiency",
        "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct",
        E,
        false,
        "",
    ),
    pair(
        "gst_inst_32bit",
        "smsp__sass_inst_executed_op_global_st.sum",
        A,
        true,
        "ncu counts stores of every width",
    ),
    pair(
        "gst_request",
        "smsp__inst_executed_op_global_st.sum",
        E,
        true,
        "",
    ),
    pair(
        "gst_throughput",
        "l1tex__t_bytes_pipe_lsu_mem_global_op_st.sum.per_second",
        E,
        false,
        "",
    ),
    pair(
        "gst_transactions",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
        E,
        true,
        "sectors since Maxwell",
    ),
    pair("inst_executed", "smsp__inst_executed.sum", E, true, ""),
    pair("inst_issued", "smsp__inst_issued.sum", E, true, ""),
    pair(
        "inst_issued1",
        "smsp__inst_issued.sum",
        A,
        true,
        "single-issue event; Volta+ issues one per cycle",
    ),
    pair(
        "ipc",
        "sm__inst_executed.avg.per_cycle_active",
        E,
        false,
        "",
    ),
    pair(
        "issued_ipc",
        "sm__inst_issued.avg.per_cycle_active",
        E,
        false,
        "",
    ),
    pair(
        "l2_read_transactions",
        "lts__t_sectors_op_read.sum",
        E,
        true,
        "",
    ),
    pair(
        "l2_tex_hit_rate",
        "lts__t_sector_hit_rate.pct",
        E,
        false,
        "",
    ),
    pair(
        "l2_write_transactions",
        "lts__t_sectors_op_write.sum",
        E,
        true,
        "",
    ),
    pair(
        "local_load_transactions",
        "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum",
        E,
        true,
        "",
    ),
    pair(
        "local_store_transactions",
        "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum",
        E,
        true,
        "",
    ),
    pair(
        "shared_load",
        "smsp__inst_executed_op_shared_ld.sum",
        E,
        true,
        "event: shared load instructions",
    ),
    pair(
        "shared_load_transactions",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
        E,
        true,
        "wavefronts in ncu",
    ),
    pair(
        "shared_store",
        "smsp__inst_executed_op_shared_st.sum",
        E,
        true,
        "event: shared store instructions",
    ),
    pair(
        "shared_store_transactions",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
        E,
        true,
        "wavefronts in ncu",
    ),
    pair(
        "sm_efficiency",
        "smsp__cycles_active.avg.pct_of_peak_sustained_elapsed",
        E,
        false,
        "",
    ),
    pair(
        "stall_exec_dependency",
        "smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct",
        A,
        false,
        "ncu splits it: short_scoreboard + wait",
    ),
    pair(
        "stall_inst_fetch",
        "smsp__warp_issue_stalled_no_instruction_per_warp_active.pct",
        E,
        false,
        "",
    ),
    pair(
        "stall_memory_dependency",
        "smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct",
        E,
        false,
        "",
    ),
    pair(
        "stall_memory_throttle",
        "smsp__warp_issue_stalled_drain_per_warp_active.pct",
        A,
        false,
        "ncu splits it: drain + lg_throttle",
    ),
    pair(
        "stall_not_selected",
        "smsp__warp_issue_stalled_not_selected_per_warp_active.pct",
        E,
        false,
        "",
    ),
    pair(
        "stall_pipe_busy",
        "smsp__warp_issue_stalled_mio_throttle_per_warp_active.pct",
        A,
        false,
        "ncu splits it: mio/math pipe throttle",
    ),
    pair(
        "stall_sync",
        "smsp__warp_issue_stalled_barrier_per_warp_active.pct",
        E,
        false,
        "",
    ),
    pair(
        "warp_execution_efficiency",
        "smsp__thread_inst_executed_per_inst_executed.ratio",
        A,
        false,
        "ncu gives threads per instruction (0-32)",
    ),
    pair("warps_launched", "smsp__warps_launched.sum", E, true, ""),
    MetricPair {
        nvprof: "inst_replay_overhead",
        ncu: None,
        matches: Match::None,
        scale: 1.0,
        count: false,
        note: "instruction replays no longer exist on Volta and later",
    },
];

/// The map entry for an nvprof metric or event name.
pub fn lookup(nvprof: &str) -> Option<&'static MetricPair> {
    METRIC_MAP.iter().find(|p| p.nvprof == nvprof)
}

/// The ncu name and scale for an nvprof name, where an equivalent exists.
pub fn to_ncu(nvprof: &str) -> Option<(&'static str, f64)> {
    lookup(nvprof).and_then(|p| p.ncu.map(|n| (n, p.scale)))
}

/// Whether a known nvprof name is a count. Names ending in `_transactions`, `_request`,
/// `inst_*` or `_bytes` are counts too, even when the map has no entry for them.
pub fn nvprof_is_count(name: &str) -> bool {
    if let Some(p) = lookup(name) {
        return p.count;
    }
    name.ends_with("_transactions")
        || name.ends_with("_request")
        || name.ends_with("_bytes")
        || name.starts_with("inst_")
        || name.starts_with("flop_count")
        || name.ends_with("_instructions")
}

/// The normalizer A of the thesis: active cycles, by ncu and by nvprof name.
pub const ACTIVE_CYCLES: [&str; 2] = ["sm__cycles_active.sum", "active_cycles"];

#[cfg(test)]
mod tests;
