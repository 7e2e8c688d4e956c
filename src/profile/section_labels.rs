//! Nsight Compute's details page (`ncu --csv` with sections, the default page) names each value
//! by its section's label ("Achieved Occupancy") instead of the metric behind it
//! (`sm__warps_active.avg.pct_of_peak_sustained_active`). This table gives the metric for the
//! labels whose metric is the same in every version whose section files we read: Nsight
//! Compute's `sections/*.section` files (`Metrics { Label: ... Name: ... }`) of about 2021.1
//! and of a current release. Labels whose metric changed between versions ("Issue Slots
//! Busy", "SM Busy": `_active` then `_elapsed`) or could not be read from a section file of
//! the 2019-2020 versions ("SOL FB", "SOL L2", "SOL TEX", "Memory Frequency") are left out, so
//! they keep their label and never stand in for a metric they may not be.

/// (label, metric). Values are the same quantity in the same unit as the metric's.
pub const SECTION_LABELS: &[(&str, &str)] = &[
    // GPU Speed Of Light
    ("Duration", "gpu__time_duration.sum"),
    ("Elapsed Cycles", "gpc__cycles_elapsed.max"),
    ("SM Frequency", "gpc__cycles_elapsed.avg.per_second"),
    ("SM Active Cycles", "sm__cycles_active.avg"),
    ("SM [%]", "sm__throughput.avg.pct_of_peak_sustained_elapsed"),
    (
        "Memory [%]",
        "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
    ),
    // Compute Workload Analysis
    (
        "Executed Ipc Active",
        "sm__inst_executed.avg.per_cycle_active",
    ),
    (
        "Executed Ipc Elapsed",
        "sm__inst_executed.avg.per_cycle_elapsed",
    ),
    ("Issued Ipc Active", "sm__inst_issued.avg.per_cycle_active"),
    // Memory Workload Analysis
    ("Memory Throughput", "dram__bytes.sum.per_second"),
    (
        "Mem Busy",
        "gpu__compute_memory_access_throughput.avg.pct_of_peak_sustained_elapsed",
    ),
    (
        "Max Bandwidth",
        "gpu__compute_memory_request_throughput.avg.pct_of_peak_sustained_elapsed",
    ),
    ("L2 Hit Rate", "lts__t_sector_hit_rate.pct"),
    ("L1/TEX Hit Rate", "l1tex__t_sector_hit_rate.pct"),
    // The 2020 label of the same table row (same unit, same place in the section).
    ("L1 Hit Rate", "l1tex__t_sector_hit_rate.pct"),
    (
        "Mem Pipes Busy",
        "sm__memory_throughput.avg.pct_of_peak_sustained_elapsed",
    ),
    // Scheduler Statistics
    (
        "Active Warps Per Scheduler",
        "smsp__warps_active.avg.per_cycle_active",
    ),
    (
        "Eligible Warps Per Scheduler",
        "smsp__warps_eligible.avg.per_cycle_active",
    ),
    (
        "No Eligible",
        "smsp__issue_inst0.avg.pct_of_peak_sustained_active",
    ),
    (
        "Issued Warp Per Scheduler",
        "smsp__issue_active.avg.per_cycle_active",
    ),
    (
        "One or More Eligible",
        "smsp__issue_active.avg.pct_of_peak_sustained_active",
    ),
    // Warp State Statistics
    (
        "Avg. Not Predicated Off Threads Per Warp",
        "smsp__thread_inst_executed_pred_on_per_inst_executed.ratio",
    ),
    (
        "Avg. Active Threads Per Warp",
        "smsp__thread_inst_executed_per_inst_executed.ratio",
    ),
    (
        "Warp Cycles Per Executed Instruction",
        "smsp__average_warps_active_per_inst_executed.ratio",
    ),
    (
        "Warp Cycles Per Issued Instruction",
        "smsp__average_warp_latency_per_inst_issued.ratio",
    ),
    // Instruction Statistics
    ("Executed Instructions", "smsp__inst_executed.sum"),
    ("Issued Instructions", "smsp__inst_issued.sum"),
    (
        "Avg. Executed Instructions Per Scheduler",
        "smsp__inst_executed.avg",
    ),
    // Launch Statistics
    ("Block Size", "launch__block_size"),
    ("Grid Size", "launch__grid_size"),
    ("Registers Per Thread", "launch__registers_per_thread"),
    (
        "Shared Memory Configuration Size",
        "launch__shared_mem_config_size",
    ),
    (
        "Dynamic Shared Memory Per Block",
        "launch__shared_mem_per_block_dynamic",
    ),
    (
        "Static Shared Memory Per Block",
        "launch__shared_mem_per_block_static",
    ),
    ("Threads", "launch__thread_count"),
    ("Waves Per SM", "launch__waves_per_multiprocessor"),
    // Occupancy
    ("Block Limit SM", "launch__occupancy_limit_blocks"),
    ("Block Limit Registers", "launch__occupancy_limit_registers"),
    (
        "Block Limit Shared Mem",
        "launch__occupancy_limit_shared_mem",
    ),
    ("Block Limit Warps", "launch__occupancy_limit_warps"),
    (
        "Achieved Active Warps Per SM",
        "sm__warps_active.avg.per_cycle_active",
    ),
    (
        "Achieved Occupancy",
        "sm__warps_active.avg.pct_of_peak_sustained_active",
    ),
    (
        "Theoretical Active Warps per SM",
        "sm__maximum_warps_avg_per_active_cycle",
    ),
    (
        "Theoretical Occupancy",
        "sm__maximum_warps_per_active_cycle_pct",
    ),
];

/// The metric behind a details-page label, if the table knows it.
pub fn metric_of(label: &str) -> Option<&'static str> {
    SECTION_LABELS
        .iter()
        .find(|(l, _)| *l == label)
        .map(|(_, m)| *m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_unique_and_metrics_look_like_ncu_names() {
        let mut labels: Vec<&str> = SECTION_LABELS.iter().map(|(l, _)| *l).collect();
        labels.sort_unstable();
        let n = labels.len();
        labels.dedup();
        assert_eq!(labels.len(), n, "a label twice");
        for (l, m) in SECTION_LABELS {
            assert!(m.contains("__") && !m.contains(' '), "{l}: {m}");
        }
        assert_eq!(
            metric_of("Achieved Occupancy"),
            Some("sm__warps_active.avg.pct_of_peak_sustained_active")
        );
        assert_eq!(metric_of("SOL FB"), None);
    }
}
