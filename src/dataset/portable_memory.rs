//! The portable view's memory features: loads and stores of each memory space per
//! instruction, the sectors they move at L1, L2 and DRAM, hit rates and shared-memory bank
//! conflicts. Their order in the view is the table's (src/dataset/portable_table.rs).

use super::portable::{Expr, Formula, PortableFeature};
use super::portable_table::{approx, ratio, share, value, I_T, I_W, THREAD_LEVEL};

const SIM_GLOBAL: &str = "thread-level counts of PTX instructions, global and local memory \
    together (shader.cc); ncu counts warp-level SASS, global memory only";

pub(super) const GLOBAL_LD_PER_INST: PortableFeature = share(
    "portable__global_ld_per_inst",
    "global load instructions per warp instruction",
    &[
        ratio(
            "ncu, nvprof",
            &["smsp__inst_executed_op_global_ld.sum"],
            I_W,
        ),
        ratio(
            "KTT",
            &["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"],
            I_W,
        ),
        approx(
            ratio("GPGPU-Sim", &["gpgpusim__gpgpu_n_load_insn"], I_T),
            SIM_GLOBAL,
        ),
    ],
);

pub(super) const GLOBAL_ST_PER_INST: PortableFeature = share(
    "portable__global_st_per_inst",
    "global store instructions per warp instruction",
    &[
        ratio(
            "ncu, nvprof",
            &["smsp__inst_executed_op_global_st.sum"],
            I_W,
        ),
        approx(
            ratio("GPGPU-Sim", &["gpgpusim__gpgpu_n_store_insn"], I_T),
            SIM_GLOBAL,
        ),
    ],
);

pub(super) const LOCAL_PER_INST: PortableFeature = share(
    "portable__local_per_inst",
    "local-memory loads and stores per warp instruction",
    &[
        ratio(
            "ncu",
            &[
                "smsp__inst_executed_op_local_ld.sum",
                "smsp__inst_executed_op_local_st.sum",
            ],
            I_W,
        ),
        ratio("nvprof", &["local_load", "local_store"], I_W),
    ],
);

pub(super) const SHARED_PER_INST: PortableFeature = share(
    "portable__shared_per_inst",
    "shared-memory loads and stores per warp instruction",
    &[
        ratio(
            "ncu, nvprof",
            &[
                "smsp__inst_executed_op_shared_ld.sum",
                "smsp__inst_executed_op_shared_st.sum",
            ],
            I_W,
        ),
        approx(
            ratio("GPGPU-Sim", &["gpgpusim__gpgpu_n_shmem_insn"], I_T),
            THREAD_LEVEL,
        ),
    ],
);

pub(super) const CONST_PER_INST: PortableFeature = share(
    "portable__const_per_inst",
    "constant-memory loads per thread instruction",
    &[approx(
        ratio("GPGPU-Sim", &["gpgpusim__gpgpu_n_const_mem_insn"], I_T),
        THREAD_LEVEL,
    )],
);

pub(super) const ATOMIC_PER_INST: PortableFeature = share(
    "portable__atomic_per_inst",
    "global atomics per warp instruction",
    // Nsight Compute 2025.3 on Hopper (the H200 campaign) does not know the first; the
    // SASS-level count is the same warp instructions.
    &[
        ratio("ncu", &["smsp__inst_executed_op_global_atom.sum"], I_W),
        ratio("ncu", &["smsp__sass_inst_executed_op_global_atom.sum"], I_W),
    ],
);

pub(super) const L1_SECTORS_PER_INST: PortableFeature = share(
    "portable__l1_sectors_per_inst",
    "L1 sectors of global and local accesses per warp instruction",
    &[
        ratio(
            "ncu",
            &[
                "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
                "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum",
                "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum",
            ],
            I_W,
        ),
        approx(
            ratio("GPGPU-Sim", &["gpgpusim__l1d_total_cache_accesses"], I_W),
            "L1 data-cache accesses (one per memory request)",
        ),
    ],
);

pub(super) const L2_SECTORS_PER_INST: PortableFeature = share(
    "portable__l2_sectors_per_inst",
    "L2 sectors per warp instruction",
    &[
        ratio("ncu", &["lts__t_sectors.sum"], I_W),
        ratio(
            "KTT, nvprof",
            &["lts__t_sectors_op_read.sum", "lts__t_sectors_op_write.sum"],
            I_W,
        ),
        approx(
            ratio("GPGPU-Sim", &["gpgpusim__l2_total_cache_accesses"], I_W),
            "L2 accesses (one per memory request)",
        ),
    ],
);

pub(super) const DRAM_SECTORS_PER_INST: PortableFeature = share(
    "portable__dram_sectors_per_inst",
    "DRAM sectors (32 B) read and written per warp instruction",
    &[
        Formula {
            source: "ncu",
            expr: Expr::Ratio {
                num: &["dram__bytes_read.sum", "dram__bytes_write.sum"],
                den: I_W,
                scale: 1.0 / 32.0,
            },
            approximate: false,
            note: "",
        },
        ratio(
            "KTT, nvprof",
            &["dram__sectors_read.sum", "dram__sectors_write.sum"],
            I_W,
        ),
        approx(
            ratio(
                "GPGPU-Sim",
                &["gpgpusim__total_dram_reads", "gpgpusim__total_dram_writes"],
                I_W,
            ),
            "DRAM requests",
        ),
    ],
);

pub(super) const L1_HIT_RATE: PortableFeature = share(
    "portable__l1_hit_rate",
    "L1 hit rate (0-1)",
    &[value(
        "ncu, nvprof, GPGPU-Sim",
        "l1tex__t_sector_hit_rate.pct",
        0.01,
    )],
);

pub(super) const L2_HIT_RATE: PortableFeature = share(
    "portable__l2_hit_rate",
    "L2 hit rate (0-1)",
    &[value(
        "ncu, nvprof, GPGPU-Sim",
        "lts__t_sector_hit_rate.pct",
        0.01,
    )],
);

pub(super) const BANK_CONFLICTS_PER_SHARED: PortableFeature = share(
    "portable__bank_conflicts_per_shared",
    "extra shared-memory wavefronts (bank conflicts) per shared instruction",
    &[
        ratio(
            "ncu",
            &["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"],
            &["smsp__inst_executed_op_shared_ld.sum"],
        ),
        Formula {
            source: "nvprof",
            expr: Expr::Excess {
                num: &[
                    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
                    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
                ],
                den: &[
                    "smsp__inst_executed_op_shared_ld.sum",
                    "smsp__inst_executed_op_shared_st.sum",
                ],
            },
            approximate: false,
            note: "",
        },
        // GPGPU-Sim adds a cycle to `gpgpu_n_shmem_bkconflict` for each extra cycle a
        // warp's conflicting shared access takes (shader.cc), and counts shared
        // instructions per thread (`gpgpu_n_shmem_insn`, the active threads of each).
        Formula {
            source: "GPGPU-Sim",
            expr: Expr::PerWarp {
                num: &["gpgpusim__gpgpu_n_shmem_bkconflict"],
                den: &["gpgpusim__gpgpu_n_shmem_insn"],
                warps: I_W,
                threads: I_T,
            },
            approximate: true,
            note: "extra cycles of conflicting loads and stores over the shared \
                   instructions, counted per thread and divided by the run's active threads \
                   per warp instruction; ncu counts loads only",
        },
    ],
);
