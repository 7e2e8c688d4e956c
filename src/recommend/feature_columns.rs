//! Which columns of a sample pool an advisor learns from: the counters a user's profile can
//! give that describe the code, not the machine or the profiling session.

use crate::experiment::data::SamplePool;

/// Columns a user's profile can provide: Nsight Compute metric names, not the normalizer
/// itself, not tool-specific extras of an imported space (`ktt__*`) and not what describes
/// the machine or the profiling session rather than the code (`describes_the_machine`).
pub fn usable_columns(pool: &SamplePool) -> Vec<usize> {
    (0..pool.columns.len())
        .filter(|&j| {
            let c = &pool.columns[j];
            c.contains("__")
                && !c.starts_with("ktt__")
                && !describes_the_machine(c)
                && Some(c) != pool.normalizer.as_ref()
        })
        .collect()
}

/// Whether an Nsight Compute metric describes the machine or the profiling session, not the
/// code: the device's attributes (`device__attribute_*`: its clocks, sizes and PCI identity),
/// its NUMA, NVLink and C2C links, the profiler's replay (`profiler__*`), and a launch's
/// identifiers and environment (context, device and stream IDs, function addresses, MPS,
/// vGPU, green contexts). As features they would tell GPUs and sessions apart, not code that
/// gains from an optimization from code that does not. (The portable view takes what it needs
/// of the device, its SM count and clocks, into ratios of its own.)
pub fn describes_the_machine(metric: &str) -> bool {
    const PREFIXES: [&str; 10] = [
        "device__attribute_",
        "numa__",
        "nvlink__",
        "c2clink__",
        "profiler__",
        "launch__context_id",
        "launch__device_id",
        "launch__stream_id",
        "launch__function_pcs",
        "launch__uses_",
    ];
    PREFIXES.iter().any(|p| metric.starts_with(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_machine_and_the_session_are_not_features() {
        for m in [
            "device__attribute_pci_bus_id",
            "device__attribute_clock_rate",
            "launch__stream_id",
            "launch__context_id",
            "launch__function_pcs",
            "launch__uses_mps",
            "numa__id_cpu",
            "nvlink__count_logical",
            "c2clink__present",
            "profiler__replayer_passes",
        ] {
            assert!(describes_the_machine(m), "{m}");
        }
        for m in [
            "launch__block_size",
            "launch__registers_per_thread",
            "launch__occupancy_limit_warps",
            "smsp__inst_executed.sum",
            "dram__bytes_read.sum",
            "portable__dram_bytes_per_inst",
        ] {
            assert!(!describes_the_machine(m), "{m}");
        }
    }
}
