//! How the GPU is attached to its host CPU, where it decides what an optimization does.
//!
//! Unified (managed) memory migrates pages between the CPU's memory and the GPU's. Over PCIe
//! (an x86 server with a discrete GPU: the XPlacer measurements on AWS, the H100 and H200
//! visits) every migration is a page fault served over a link a few times slower than the
//! GPU's memory; over a cache-coherent link (IBM POWER9 with NVLink 2.0 and address
//! translation services, as on LLNL's Lassen; NVIDIA Grace with NVLink-C2C) the GPU reads
//! the CPU's memory directly and the same advice can turn a slowdown into a gain. NVIDIA's
//! "CUDA C++ Programming Guide", section "Unified Memory Programming", lists the device
//! attributes that tell the two apart; Nsight Compute records them in every raw-page profile
//! (`device__attribute_*`, `c2clink__present`).

use serde::{Deserialize, Serialize};

use super::measurements::MeasurementRow;

/// The CPU-GPU link, as far as managed memory is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum HostLink {
    /// A discrete GPU on PCIe: managed pages migrate on faults; the GPU cannot read pageable
    /// host memory.
    Pcie,
    /// A cache-coherent link (NVLink 2.0 with ATS, NVLink-C2C): the GPU can access pageable
    /// host memory through the host's page tables.
    Coherent,
}

/// The device attributes (and Nsight Compute's C2C metric) whose value 1 means a coherent
/// link; a profile where all that it has of them are 0 is on PCIe.
pub const COHERENT_SIGNS: [&str; 3] = [
    "device__attribute_pageable_memory_access_uses_host_page_tables",
    "device__attribute_host_native_atomic_supported",
    "c2clink__present",
];

impl HostLink {
    /// Words for a reader: "a PCIe-attached GPU".
    pub fn describe(self) -> &'static str {
        match self {
            HostLink::Pcie => "a PCIe-attached GPU",
            HostLink::Coherent => "a GPU on a cache-coherent link (NVLink with ATS, or C2C)",
        }
    }

    /// A short label: "PCIe" or "coherent".
    pub fn label(self) -> &'static str {
        match self {
            HostLink::Pcie => "PCIe",
            HostLink::Coherent => "coherent",
        }
    }

    /// The link a profile's measurements show; `None` where they have none of the
    /// [`COHERENT_SIGNS`] (an older Nsight Compute, nvprof, a simulator, a details page).
    pub fn of_rows(rows: &[MeasurementRow]) -> Option<HostLink> {
        let mut seen = false;
        for r in rows.iter().filter(|r| r.value.is_finite()) {
            if COHERENT_SIGNS.contains(&r.metric.as_str()) {
                if r.value > 0.0 {
                    return Some(HostLink::Coherent);
                }
                seen = true;
            }
        }
        seen.then_some(HostLink::Pcie)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(metric: &str, value: f64) -> MeasurementRow {
        MeasurementRow::for_test(metric, value)
    }

    #[test]
    fn attributes_tell_the_link_and_their_absence_tells_nothing() {
        assert_eq!(
            HostLink::of_rows(&[row("sm__cycles_active.sum", 5.0)]),
            None
        );
        assert_eq!(
            HostLink::of_rows(&[
                row("c2clink__present", 0.0),
                row("device__attribute_host_native_atomic_supported", 0.0),
            ]),
            Some(HostLink::Pcie)
        );
        assert_eq!(
            HostLink::of_rows(&[
                row("c2clink__present", 0.0),
                row(
                    "device__attribute_pageable_memory_access_uses_host_page_tables",
                    1.0
                ),
            ]),
            Some(HostLink::Coherent)
        );
        // An unreadable value says nothing.
        assert_eq!(
            HostLink::of_rows(&[row("c2clink__present", f64::NAN)]),
            None
        );
    }

    #[test]
    fn the_link_reads_and_writes_in_lower_case() {
        let l: HostLink = serde_json::from_str("\"pcie\"").unwrap();
        assert_eq!(l, HostLink::Pcie);
        assert_eq!(
            serde_json::to_string(&HostLink::Coherent).unwrap(),
            "\"coherent\""
        );
    }
}
