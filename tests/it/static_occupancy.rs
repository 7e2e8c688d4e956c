//! The occupancy calculator against NVIDIA's own numbers:
//! - every row of tests/data/static/occupancy/occupancy_golden.csv.gz, computed with
//!   NVIDIA's reference calculator `cuda_occupancy.h` (CUDA 11.8) by gen_occupancy.cpp beside
//!   it, for 13 compute capabilities (3.0 to 9.0);
//! - the per-SM limits of the CUDA C++ Programming Guide's table "Technical Specifications per
//!   Compute Capability" for 3.5, 7.0, 7.5, 8.0, 8.6 and 9.0;
//! - the Best Practices Guide's worked example (7.0, 37 registers: 75% at 128 threads).

use std::io::Read;

use advise::static_analysis::occupancy::{max_occupancy_sizes, occupancy, Arch, KernelResources};

fn k(regs: u32, smem: u32) -> KernelResources {
    KernelResources {
        registers_per_thread: regs,
        shared_bytes_per_block: smem,
    }
}

#[test]
fn matches_cuda_occupancy_h_everywhere() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/static/occupancy/occupancy_golden.csv.gz"
    );
    let mut text = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(path).unwrap())
        .read_to_string(&mut text)
        .unwrap();
    let mut n = 0;
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let arch = Arch::parse(f[0]).unwrap();
        let (b, r, s, want): (u32, u32, u32, u32) = (
            f[1].parse().unwrap(),
            f[2].parse().unwrap(),
            f[3].parse().unwrap(),
            f[4].parse().unwrap(),
        );
        let got = occupancy(&arch, b, &k(r, s)).active_blocks;
        assert_eq!(got, want, "cc {} block {b} regs {r} smem {s}", f[0]);
        n += 1;
    }
    assert!(n > 18_000, "{n} rows");
}

#[test]
fn programming_guide_limits() {
    // (cc, max resident warps/SM, max resident blocks/SM, 32-bit registers/SM, max shared KB/SM)
    let table = [
        ("3.5", 64, 16, 65536, 48),
        ("7.0", 64, 32, 65536, 96),
        ("7.5", 32, 16, 65536, 64),
        ("8.0", 64, 32, 65536, 164),
        ("8.6", 48, 16, 65536, 100),
        ("9.0", 64, 32, 65536, 228),
    ];
    for (cc, warps, blocks, regs, smem_kb) in table {
        let a = Arch::parse(cc).unwrap();
        assert_eq!(
            (
                a.max_warps_per_sm,
                a.max_blocks_per_sm,
                a.regs_per_sm,
                a.smem_per_sm / 1024
            ),
            (warps, blocks, regs, smem_kb),
            "{cc}"
        );
        // A tiny kernel fills the SM's warps at 1024 threads per block.
        let o = occupancy(&a, 1024, &k(16, 0));
        assert_eq!(o.active_warps, (warps / 32) * 32, "{cc}");
    }
}

#[test]
fn best_practices_guide_example() {
    let a = Arch::parse("sm_70").unwrap();
    assert_eq!(occupancy(&a, 128, &k(37, 0)).occupancy, 0.75);
    assert_eq!(occupancy(&a, 320, &k(37, 0)).active_blocks, 4);
}

#[test]
fn max_occupancy_sizes_list_ties_largest_first() {
    let a = Arch::parse("sm_86").unwrap();
    let sizes = max_occupancy_sizes(&a, &[64, 96, 128, 192, 256, 384, 512, 768, 1024], &k(32, 0));
    // 32 registers do not limit; 48 warps are reached by every size whose warps divide 48
    // within 16 blocks per SM (64 threads would need 24 blocks).
    assert_eq!(sizes, [768, 512, 384, 256, 192, 128, 96]);
}
