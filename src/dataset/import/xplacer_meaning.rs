//! What XPlacer's files mean, read from its sources and logs: the unit of each details-page
//! column, the machine of each measurement folder, and the placement policy of each digit
//! (xplacer.rs reads the files with these).

use std::path::Path;

use crate::dataset::host_link::HostLink;

/// Units of the details-page columns of `dataset.csv` (the unit Nsight Compute prints beside
/// each label in the same benchmark's `nsight_*.log`; tests/fixtures/ncu has the AWS and the
/// Lassen log of bfs), and the factor to base units.
pub(super) fn unit_of(label: &str) -> Option<(&'static str, f64)> {
    Some(match label {
        "Duration" => ("second", 1e-9),
        "Memory Frequency" | "SM Frequency" => ("cycle/second", 1.0),
        "Elapsed Cycles" | "SM Active Cycles" => ("cycle", 1.0),
        "SOL FB"
        | "Memory [%]"
        | "SOL L2"
        | "SM [%]"
        | "SOL TEX"
        | "Achieved Occupancy"
        | "Theoretical Occupancy" => ("%", 1.0),
        "Block Size" | "Grid Size" | "Waves Per SM" => ("", 1.0),
        "Registers Per Thread" => ("register/thread", 1.0),
        "Shared Memory Configuration Size" => ("byte", 1.0),
        "Dynamic Shared Memory Per Block" | "Static Shared Memory Per Block" => ("byte/block", 1.0),
        "Threads" => ("thread", 1.0),
        "Block Limit SM"
        | "Block Limit Registers"
        | "Block Limit Shared Mem"
        | "Block Limit Warps" => ("block", 1.0),
        "Achieved Active Warps Per SM" => ("warp", 1.0),
        "Theoretical Active Warps per SM" => ("warp/cycle", 1.0),
        // The further sections of the Lassen profiles.
        "Executed Ipc Active"
        | "Executed Ipc Elapsed"
        | "Issued Ipc Active"
        | "Instructions Per Active Issue Slot" => ("inst/cycle", 1.0),
        "Issue Slots Busy"
        | "SM Busy"
        | "Mem Busy"
        | "Max Bandwidth"
        | "L2 Hit Rate"
        | "Mem Pipes Busy"
        | "L1 Hit Rate"
        | "No Eligible"
        | "One or More Eligible" => ("%", 1.0),
        "Memory Throughput" => ("byte/second", 1.0),
        "Active Warps Per Scheduler" | "Eligible Warps Per Scheduler" => ("warp", 1.0),
        "Issued Warp Per Scheduler"
        | "Avg. Not Predicated Off Threads Per Warp"
        | "Avg. Active Threads Per Warp"
        | "Warp Cycles Per Issued Instruction"
        | "Warp Cycles Per Issue Active" => ("", 1.0),
        "Warp Cycles Per Executed Instruction" => ("cycle", 1.0),
        "Avg. Executed Instructions Per Scheduler"
        | "Executed Instructions"
        | "Avg. Issued Instructions Per Scheduler"
        | "Issued Instructions" => ("inst", 1.0),
        _ => return None,
    })
}

/// The machine of a measurement folder, by the folder names of the upstream repository
/// (its PROVENANCE and the fixture provenance in tests/fixtures say which is which), and how
/// its GPU was attached to the host: Lassen's POWER9 hosts reach their V100s over NVLink 2.0
/// with address translation services (a coherent link, dataset::host_link); an AWS V100
/// instance is an x86 host with its GPUs on PCIe.
pub(super) fn machine_of(counters: &Path) -> (String, Option<HostLink>) {
    let folder = counters
        .parent()
        .and_then(Path::file_name)
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    if folder.starts_with("lassen") {
        (
            "NVIDIA Tesla V100-SXM2-16GB on LLNL's Lassen (IBM POWER9 host)".into(),
            Some(HostLink::Coherent),
        )
    } else if folder == "kernel-level-measurement" {
        (
            "NVIDIA Tesla V100-SXM2-16GB on AWS".into(),
            Some(HostLink::Pcie),
        )
    } else {
        (
            format!("not stated for `{folder}` (see UPSTREAM-PROVENANCE.md)"),
            None,
        )
    }
}

/// What XPlacer's policy digits mean (every `*_adapt.cu` of the four benchmarks expands its
/// `advN` macro the same way), and the family each becomes. 0 is the original code: host
/// memory and explicit `cudaMemcpy`; 1-6 allocate with `cudaMallocManaged`, 2-6 then advise.
pub const POLICIES: [(&str, &str, &str); 7] = [
    (
        "0",
        "UM_NONE",
        "host allocation and explicit cudaMemcpy (the original code)",
    ),
    ("1", "UM_MANAGED", "cudaMallocManaged, no advice"),
    ("2", "UM_READ_MOSTLY", "managed, cudaMemAdviseSetReadMostly"),
    (
        "3",
        "UM_PREFERRED_GPU",
        "managed, cudaMemAdviseSetPreferredLocation on the GPU",
    ),
    (
        "4",
        "UM_ACCESSED_BY_GPU",
        "managed, cudaMemAdviseSetAccessedBy the GPU",
    ),
    (
        "5",
        "UM_PREFERRED_CPU",
        "managed, cudaMemAdviseSetPreferredLocation on the CPU",
    ),
    (
        "6",
        "UM_ACCESSED_BY_CPU",
        "managed, cudaMemAdviseSetAccessedBy the CPU",
    ),
];

/// The family of placement policy `p` (the digit XPlacer's variant strings use).
pub fn policy_family(p: &str) -> String {
    POLICIES
        .iter()
        .find(|(d, _, _)| *d == p)
        .map_or_else(|| format!("UM_POLICY_{p}"), |(_, f, _)| f.to_string())
}

/// Whether policies 2-6 reach the data in this run: gaussian's `-s N` runs (numeric inputs)
/// allocate without ever calling `InitProblemOnce`, where the advice is given, so there
/// digits 2-6 build the same code as 1.
pub(super) fn advice_applied(program: &str, input: &str) -> bool {
    !(program.eq_ignore_ascii_case("gaussian") && input.trim().parse::<f64>().is_ok())
}
