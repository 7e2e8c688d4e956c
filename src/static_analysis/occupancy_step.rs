//! What a change of block size does to a kernel's occupancy and to how its warps fill the
//! SM's warp schedulers (the step features of experiment::step_features).

use super::occupancy::{occupancy, Arch, KernelResources};

/// How evenly one block's warps fill the SM's sub-partitions (warp schedulers): warps per
/// block over the sub-partitions times the warps each must then hold, 1.0 when every
/// scheduler gets as many of the block's warps (4 warps on 4 sub-partitions), 0.75 for 3.
pub fn warp_fill(arch: &Arch, block_size: u32) -> f64 {
    let warps = block_size.div_ceil(32).max(1);
    let p = arch.sub_partitions.max(1);
    f64::from(warps) / f64::from(p * warps.div_ceil(p))
}

/// What raising the threads per block from `from` to `to` does, with the registers per
/// thread unchanged: log2 of the new theoretical occupancy over the old, and log2 of the new
/// [`warp_fill`] over the old. Shared memory is not counted: how a kernel's shared memory
/// changes with its block size depends on the kernel. `None` where either occupancy is zero
/// (a block the SM cannot hold).
pub fn block_step(arch: &Arch, registers: u32, from: u32, to: u32) -> Option<(f64, f64)> {
    let k = KernelResources {
        registers_per_thread: registers,
        shared_bytes_per_block: 0,
    };
    let (a, b) = (
        occupancy(arch, from, &k).occupancy,
        occupancy(arch, to, &k).occupancy,
    );
    (a > 0.0 && b > 0.0).then(|| {
        (
            (b / a).log2(),
            (warp_fill(arch, to) / warp_fill(arch, from)).log2(),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On a Turing SM (32 warps, 16 blocks, 4 schedulers) with 32 registers per thread: 64
    /// threads fill it (16 blocks of 2 warps), 96 do not (10 blocks of 3 warps, 30 of 32
    /// warps) and leave a scheduler of four without a warp of each block.
    #[test]
    fn a_block_step_reports_occupancy_and_warp_fill() {
        let turing = Arch::parse("7.5").unwrap();
        let (occ, fill) = block_step(&turing, 32, 64, 96).unwrap();
        assert!((occ - (30.0f64 / 32.0).log2()).abs() < 1e-12);
        assert!((fill - (0.75f64 / 0.5).log2()).abs() < 1e-12);
        let (occ, fill) = block_step(&turing, 32, 96, 128).unwrap();
        assert!((occ - (32.0f64 / 30.0).log2()).abs() < 1e-12);
        assert!((fill - (1.0f64 / 0.75).log2()).abs() < 1e-12);
        // 2048 threads: no SM holds the block.
        assert!(block_step(&turing, 32, 1024, 2048).is_none());
    }
}
