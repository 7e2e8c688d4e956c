//! The CUDA Occupancy Calculator: how many blocks of a kernel fit on one SM, given its block
//! size, registers per thread and shared memory per block, for a compute capability.
//!
//! Limits per compute capability are those of the CUDA C++ Programming Guide, table
//! "Technical Specifications per Compute Capability"; allocation granularities and the
//! order of the calculation follow NVIDIA's reference implementation `cuda_occupancy.h`
//! (shipped with the toolkit; CUDA 11.8 here): registers are allocated per warp in units of
//! 256 and split over the SM's sub-partitions, shared memory in units of 256 bytes (128 on
//! 8.x and 9.x) with 1 KB per block reserved by the driver on 8.x and 9.x, and the default
//! carveout gives a kernel the most shared memory per SM. tests/static_occupancy.rs checks
//! this against values computed with `cuda_occupancy.h` itself.
//!
//! The Blackwell capabilities (10.0, 10.3, 11.0 and 12.0) are newer than that header: their
//! per-SM limits are those of NVIDIA's CCCL (`cuda/__device/arch_traits.h`: 10.x and 11.0 as
//! 9.0, 228 KB of shared memory, 32 blocks and 64 warps; 12.0 with 100 KB, 32 blocks and 48
//! warps), and their granularities and carveout steps are taken as 9.0's (10.x, 11.0) and
//! 8.6's (12.0), not yet checked against a `cuda_occupancy.h` that knows them.

use serde::Serialize;

use crate::error::{Error, Result};

/// Per-SM limits of one compute capability.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Arch {
    pub major: u32,
    pub minor: u32,
    pub max_warps_per_sm: u32,
    pub max_blocks_per_sm: u32,
    pub max_threads_per_block: u32,
    pub regs_per_sm: u32,
    pub regs_per_block: u32,
    pub max_regs_per_thread: u32,
    /// Shared memory per SM with the default (largest) carveout, bytes.
    pub smem_per_sm: u32,
    /// Static shared memory a block may use without opting in, bytes.
    pub smem_per_block: u32,
    pub smem_alloc_unit: u32,
    pub reserved_smem_per_block: u32,
    pub reg_alloc_unit: u32,
    pub sub_partitions: u32,
}

const fn arch(
    major: u32,
    minor: u32,
    warps: u32,
    blocks: u32,
    regs: u32,
    max_regs: u32,
    smem_sm_kb: u32,
) -> Arch {
    let new = major >= 8;
    Arch {
        major,
        minor,
        max_warps_per_sm: warps,
        max_blocks_per_sm: blocks,
        max_threads_per_block: 1024,
        regs_per_sm: regs,
        regs_per_block: 65536,
        max_regs_per_thread: max_regs,
        smem_per_sm: smem_sm_kb * 1024,
        smem_per_block: 48 * 1024,
        smem_alloc_unit: if new { 128 } else { 256 },
        reserved_smem_per_block: if new { 1024 } else { 0 },
        reg_alloc_unit: 256,
        sub_partitions: if major == 6 && minor == 0 { 2 } else { 4 },
    }
}

/// The compute capabilities the calculator knows.
pub const ARCHES: &[Arch] = &[
    arch(3, 0, 64, 16, 65536, 63, 48),
    arch(3, 5, 64, 16, 65536, 255, 48),
    arch(3, 7, 64, 16, 131072, 255, 112),
    arch(5, 0, 64, 32, 65536, 255, 64),
    arch(5, 2, 64, 32, 65536, 255, 96),
    arch(6, 0, 64, 32, 65536, 255, 64),
    arch(6, 1, 64, 32, 65536, 255, 96),
    arch(7, 0, 64, 32, 65536, 255, 96),
    arch(7, 5, 32, 16, 65536, 255, 64),
    arch(8, 0, 64, 32, 65536, 255, 164),
    arch(8, 6, 48, 16, 65536, 255, 100),
    arch(8, 9, 48, 24, 65536, 255, 100),
    arch(9, 0, 64, 32, 65536, 255, 228),
    arch(10, 0, 64, 32, 65536, 255, 228),
    arch(10, 3, 64, 32, 65536, 255, 228),
    arch(11, 0, 64, 32, 65536, 255, 228),
    arch(12, 0, 48, 32, 65536, 255, 100),
];

impl Arch {
    /// `sm_86`, `86`, `8.6` or `compute_86`.
    pub fn parse(s: &str) -> Result<Arch> {
        let t = s.trim();
        let t = t
            .strip_prefix("sm_")
            .or_else(|| t.strip_prefix("compute_"))
            .unwrap_or(t);
        let digits: String = t.chars().filter(char::is_ascii_digit).collect();
        let (major, minor) = match digits.len() {
            2 | 3 => (
                digits[..digits.len() - 1].parse::<u32>().ok(),
                digits[digits.len() - 1..].parse::<u32>().ok(),
            ),
            _ => (None, None),
        };
        ARCHES
            .iter()
            .find(|a| Some(a.major) == major && Some(a.minor) == minor)
            .copied()
            .ok_or_else(|| {
                let known: Vec<String> = ARCHES.iter().map(|a| a.name()).collect();
                Error::Usage(format!(
                    "unknown compute capability `{s}`; known: {}",
                    known.join(" ")
                ))
            })
    }

    pub fn name(&self) -> String {
        format!("sm_{}{}", self.major, self.minor)
    }

    /// Shared memory per SM after aligning the carveout up to a size the hardware offers
    /// (Volta and later), as `cudaOccAlignUpShmemSizeVoltaPlus`.
    fn align_up_carveout(&self, bytes: u32) -> u32 {
        let kb = |k: u32| k * 1024;
        let sizes: &[u32] = match (self.major, self.minor) {
            (7, 5) => &[32, 64],
            (7, _) => &[0, 8, 16, 32, 64, 96],
            (8, 0) | (8, 7) => &[0, 8, 16, 32, 64, 100, 132, 164],
            (8, _) | (12, _) => &[0, 8, 16, 32, 64, 100],
            _ => &[0, 8, 16, 32, 64, 100, 132, 164, 196, 228],
        };
        sizes
            .iter()
            .map(|&k| kb(k))
            .find(|&s| s >= bytes)
            .unwrap_or(bytes)
    }
}

/// The resources of a kernel that limit occupancy.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct KernelResources {
    pub registers_per_thread: u32,
    /// Static plus dynamic shared memory per block, bytes.
    pub shared_bytes_per_block: u32,
}

/// How many blocks fit on an SM and what limits them.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Occupancy {
    pub block_size: u32,
    pub active_blocks: u32,
    pub active_warps: u32,
    /// Active warps over the SM's maximum, 0..=1.
    pub occupancy: f64,
    pub limit_warps: u32,
    pub limit_registers: u32,
    pub limit_shared: u32,
    pub limit_blocks: u32,
}

fn round_up(x: u32, unit: u32) -> u32 {
    x.div_ceil(unit) * unit
}

/// Occupancy of `block_size` threads per block on `arch`.
pub fn occupancy(arch: &Arch, block_size: u32, k: &KernelResources) -> Occupancy {
    let warp = 32;
    let warps_per_block = block_size.div_ceil(warp).max(1);
    let limit_warps = if block_size > arch.max_threads_per_block || block_size == 0 {
        0
    } else {
        arch.max_warps_per_sm / warps_per_block
    };

    let mut limit_registers = regs_limit(arch, warps_per_block, k.registers_per_thread);
    // GP100 (6.0): a block must also fit the register rules of 6.1 (cuda_occupancy.h).
    if arch.major == 6 && arch.minor == 0 && limit_registers > 0 {
        let gp10x = Arch {
            minor: 1,
            sub_partitions: 4,
            ..*arch
        };
        if regs_limit(&gp10x, warps_per_block, k.registers_per_thread) == 0 {
            limit_registers = 0;
        }
    }

    let smem = round_up(
        k.shared_bytes_per_block + arch.reserved_smem_per_block,
        arch.smem_alloc_unit,
    );
    let limit_shared = if k.shared_bytes_per_block > arch.smem_per_block {
        0
    } else if smem == 0 {
        u32::MAX
    } else {
        let mut per_sm = arch.smem_per_sm;
        if arch.major >= 7 {
            per_sm = arch.align_up_carveout(per_sm);
            if per_sm < smem {
                per_sm = arch.align_up_carveout(smem);
            }
        }
        per_sm / smem
    };
    let limit_blocks = arch.max_blocks_per_sm;
    let active_blocks = limit_warps
        .min(limit_registers)
        .min(limit_shared)
        .min(limit_blocks);
    let active_warps = active_blocks * warps_per_block;
    Occupancy {
        block_size,
        active_blocks,
        active_warps,
        occupancy: active_warps as f64 / arch.max_warps_per_sm as f64,
        limit_warps,
        limit_registers,
        limit_shared,
        limit_blocks,
    }
}

/// Registers a block of `warps_per_block` warps takes at `regs` per thread: each warp's
/// allocated in units of `reg_alloc_unit`.
pub fn registers_per_block(arch: &Arch, warps_per_block: u32, regs: u32) -> u32 {
    round_up(regs * 32, arch.reg_alloc_unit) * warps_per_block
}

/// Blocks per SM the register file allows: registers are allocated per warp in units of
/// `reg_alloc_unit` and each sub-partition holds whole warps (cudaOccMaxBlocksPerSMRegsLimit).
fn regs_limit(arch: &Arch, warps_per_block: u32, regs: u32) -> u32 {
    let regs_per_warp = round_up(regs * 32, arch.reg_alloc_unit);
    let per_block = registers_per_block(arch, warps_per_block, regs);
    let assumed = regs_per_warp * round_up(warps_per_block, arch.sub_partitions);
    if arch.regs_per_block < assumed
        || arch.regs_per_block < per_block
        || regs > arch.max_regs_per_thread
    {
        return 0;
    }
    match (arch.regs_per_sm / arch.sub_partitions).checked_div(regs_per_warp) {
        Some(warps_per_sub) => warps_per_sub * arch.sub_partitions / warps_per_block,
        None => u32::MAX,
    }
}

/// The calculator's choice among `candidates`: the block sizes with the highest occupancy,
/// best first (ties: larger block first, the usual reading of the calculator's chart).
pub fn max_occupancy_sizes(arch: &Arch, candidates: &[u32], k: &KernelResources) -> Vec<u32> {
    let occ: Vec<Occupancy> = candidates.iter().map(|&b| occupancy(arch, b, k)).collect();
    let best = occ.iter().map(|o| o.active_warps).max().unwrap_or(0);
    let mut sizes: Vec<u32> = occ
        .iter()
        .filter(|o| o.active_warps == best && best > 0)
        .map(|o| o.block_size)
        .collect();
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    sizes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k(regs: u32, smem: u32) -> KernelResources {
        KernelResources {
            registers_per_thread: regs,
            shared_bytes_per_block: smem,
        }
    }

    /// CUDA C++ Best Practices Guide, "Calculating Occupancy": on compute capability 7.0,
    /// 128-thread blocks with 37 registers per thread give 75% occupancy (12 blocks), and
    /// 320-thread blocks with the same registers give 4 blocks (40 of 64 warps).
    #[test]
    fn best_practices_guide_example_cc70() {
        let a = Arch::parse("sm_70").unwrap();
        let o = occupancy(&a, 128, &k(37, 0));
        assert_eq!((o.active_blocks, o.occupancy), (12, 0.75));
        let o = occupancy(&a, 320, &k(37, 0));
        assert_eq!((o.active_blocks, o.active_warps), (4, 40));
    }

    #[test]
    fn parse_forms() {
        assert_eq!(Arch::parse("sm_86").unwrap().max_warps_per_sm, 48);
        assert_eq!(Arch::parse("7.5").unwrap().max_blocks_per_sm, 16);
        assert!(Arch::parse("sm_42").is_err());
    }

    /// The Blackwell limits as CCCL gives them: a 12.0 SM holds 48 warps (one block of 1,024
    /// threads, 32 of them), a 10.0 SM 64 (two such blocks).
    #[test]
    fn blackwell_limits() {
        let consumer = Arch::parse("12.0").unwrap();
        assert_eq!(consumer.name(), "sm_120");
        let o = occupancy(&consumer, 1024, &k(32, 0));
        assert_eq!((o.active_blocks, o.active_warps), (1, 32));
        assert!((o.occupancy - 32.0 / 48.0).abs() < 1e-12);
        let datacenter = Arch::parse("sm_100").unwrap();
        let o = occupancy(&datacenter, 1024, &k(32, 0));
        assert_eq!((o.active_blocks, o.occupancy), (2, 1.0));
        assert_eq!(Arch::parse("10.3").unwrap().max_warps_per_sm, 64);
    }

    #[test]
    fn too_big_blocks_do_not_fit() {
        let a = Arch::parse("sm_90").unwrap();
        assert_eq!(occupancy(&a, 1024, &k(128, 0)).active_blocks, 0);
        assert_eq!(occupancy(&a, 2048, &k(16, 0)).active_blocks, 0);
    }

    #[test]
    fn every_named_gpu_has_a_known_compute_capability() {
        for (name, cc) in crate::dataset::devices::DEVICES {
            assert!(Arch::parse(cc).is_ok(), "{name}: {cc}");
        }
    }
}
