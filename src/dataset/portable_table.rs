//! The portable feature view's table: each feature's meaning and its formulas per data
//! source (see the portable module for how they are read).

use super::portable::{Expr, Formula, PortableFeature};

const I_W: &[&str] = &["smsp__inst_executed.sum"];
const I_T: &[&str] = &["smsp__thread_inst_executed.sum"];
const OPS: &[&str] = &[
    "smsp__sass_thread_inst_executed_op_fp32_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_fp64_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_fp16_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_integer_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_control_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_conversion_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_memory_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_misc_pred_on.sum",
];
const NV_OPS: &[&str] = &[
    "inst_fp_32",
    "inst_fp_64",
    "inst_fp_16",
    "inst_integer",
    "inst_bit_convert",
    "inst_control",
    "inst_compute_ld_st",
    "inst_misc",
    "inst_inter_thread_communication",
];
const SIM_MEM: &[&str] = &[
    "gpgpusim__gpgpu_n_load_insn",
    "gpgpusim__gpgpu_n_store_insn",
    "gpgpusim__gpgpu_n_shmem_insn",
    "gpgpusim__gpgpu_n_sstarr_insn",
    "gpgpusim__gpgpu_n_tex_insn",
    "gpgpusim__gpgpu_n_const_mem_insn",
    "gpgpusim__gpgpu_n_param_mem_insn",
];
const SIM_STATES: &[&str] = &[
    "gpgpusim__warp_state.stall",
    "gpgpusim__warp_state.idle",
    "gpgpusim__warp_state.scoreboard",
    "gpgpusim__warp_state.issued",
];
const NCU_STALLS: &[&str] = &[
    "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_membar_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_wait_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_branch_resolving_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_no_instruction_per_issue_active.ratio",
];

const fn ratio(
    source: &'static str,
    num: &'static [&'static str],
    den: &'static [&'static str],
) -> Formula {
    Formula {
        source,
        expr: Expr::Ratio {
            num,
            den,
            scale: 1.0,
        },
        approximate: false,
        note: "",
    }
}

const fn approx(mut f: Formula, note: &'static str) -> Formula {
    f.approximate = true;
    f.note = note;
    f
}

const fn value(source: &'static str, metric: &'static str, scale: f64) -> Formula {
    Formula {
        source,
        expr: Expr::Value { metric, scale },
        approximate: false,
        note: "",
    }
}

const fn share(
    name: &'static str,
    meaning: &'static str,
    formulas: &'static [Formula],
) -> PortableFeature {
    PortableFeature {
        name,
        meaning,
        formulas,
    }
}

const THREAD_LEVEL: &str = "thread-level counts of PTX instructions; ncu counts warp-level SASS";
const SIM_GLOBAL: &str =
    "thread-level counts of PTX instructions, global and local memory together \
                          (shader.cc); ncu counts warp-level SASS, global memory only";

/// The view, in a fixed order.
pub const PORTABLE: &[PortableFeature] = &[
    share(
        "portable__fp32_share",
        "single-precision instructions per thread instruction",
        &[
            ratio(
                "ncu, KTT",
                &["smsp__sass_thread_inst_executed_op_fp32_pred_on.sum"],
                OPS,
            ),
            ratio(
                "ncu",
                &[
                    "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum",
                    "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum",
                    "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",
                ],
                I_T,
            ),
            ratio("nvprof", &["inst_fp_32"], NV_OPS),
        ],
    ),
    share(
        "portable__fp64_share",
        "double-precision instructions per thread instruction",
        &[
            ratio(
                "ncu, KTT",
                &["smsp__sass_thread_inst_executed_op_fp64_pred_on.sum"],
                OPS,
            ),
            ratio("nvprof", &["inst_fp_64"], NV_OPS),
        ],
    ),
    share(
        "portable__int_share",
        "integer instructions per thread instruction",
        &[
            ratio(
                "ncu, KTT",
                &["smsp__sass_thread_inst_executed_op_integer_pred_on.sum"],
                OPS,
            ),
            ratio("nvprof", &["inst_integer"], NV_OPS),
        ],
    ),
    share(
        "portable__control_share",
        "control-flow instructions per thread instruction",
        &[
            ratio(
                "ncu, KTT",
                &["smsp__sass_thread_inst_executed_op_control_pred_on.sum"],
                OPS,
            ),
            ratio("nvprof", &["inst_control"], NV_OPS),
        ],
    ),
    share(
        "portable__memory_share",
        "load/store instructions (all spaces) per thread instruction",
        &[
            ratio(
                "ncu, KTT",
                &["smsp__sass_thread_inst_executed_op_memory_pred_on.sum"],
                OPS,
            ),
            ratio("nvprof", &["inst_compute_ld_st"], NV_OPS),
            approx(ratio("GPGPU-Sim", SIM_MEM, I_T), THREAD_LEVEL),
        ],
    ),
    share(
        "portable__conversion_share",
        "conversion instructions per thread instruction",
        &[
            ratio(
                "ncu, KTT",
                &["smsp__sass_thread_inst_executed_op_conversion_pred_on.sum"],
                OPS,
            ),
            ratio("nvprof", &["inst_bit_convert"], NV_OPS),
        ],
    ),
    share(
        "portable__sfu_per_inst",
        "special-function (XU pipe) instructions per warp instruction",
        &[ratio("ncu", &["smsp__inst_executed_pipe_xu.sum"], I_W)],
    ),
    share(
        "portable__branch_per_inst",
        "branch instructions per warp instruction",
        &[ratio(
            "ncu, nvprof",
            &["smsp__inst_executed_op_branch.sum"],
            I_W,
        )],
    ),
    share(
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
    ),
    share(
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
    ),
    share(
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
    ),
    share(
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
    ),
    share(
        "portable__const_per_inst",
        "constant-memory loads per thread instruction",
        &[approx(
            ratio("GPGPU-Sim", &["gpgpusim__gpgpu_n_const_mem_insn"], I_T),
            THREAD_LEVEL,
        )],
    ),
    share(
        "portable__atomic_per_inst",
        "global atomics per warp instruction",
        // Nsight Compute 2025.3 on Hopper (the H200 campaign) does not know the first; the
        // SASS-level count is the same warp instructions.
        &[
            ratio("ncu", &["smsp__inst_executed_op_global_atom.sum"], I_W),
            ratio("ncu", &["smsp__sass_inst_executed_op_global_atom.sum"], I_W),
        ],
    ),
    share(
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
    ),
    share(
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
    ),
    share(
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
    ),
    share(
        "portable__l1_hit_rate",
        "L1 hit rate (0-1)",
        &[value(
            "ncu, nvprof, GPGPU-Sim",
            "l1tex__t_sector_hit_rate.pct",
            0.01,
        )],
    ),
    share(
        "portable__l2_hit_rate",
        "L2 hit rate (0-1)",
        &[value(
            "ncu, nvprof, GPGPU-Sim",
            "lts__t_sector_hit_rate.pct",
            0.01,
        )],
    ),
    share(
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
    ),
    share(
        "portable__active_threads_share",
        "active threads per warp instruction, of 32",
        &[value(
            "ncu, KTT, GPGPU-Sim",
            "smsp__thread_inst_executed_per_inst_executed.ratio",
            1.0 / 32.0,
        )],
    ),
    share(
        "portable__divergent_branch_share",
        "branch targets that diverge, of all branch targets",
        &[ratio(
            "ncu, nvprof",
            &["smsp__sass_branch_targets_threads_divergent.sum"],
            &["smsp__sass_branch_targets.sum"],
        )],
    ),
    share(
        "portable__issue_active",
        "share of scheduler cycles that issue an instruction",
        &[
            value(
                "ncu, KTT",
                "smsp__issue_active.avg.pct_of_peak_sustained_active",
                0.01,
            ),
            value("nvprof", "issue_slot_utilization", 0.01),
            ratio("GPGPU-Sim", &["gpgpusim__warp_state.issued"], SIM_STATES),
        ],
    ),
    share(
        "portable__ipc",
        "warp instructions per active SM cycle",
        &[
            value("ncu, nvprof", "sm__inst_executed.avg.per_cycle_active", 1.0),
            ratio("GPGPU-Sim", I_W, &["sm__cycles_active.sum"]),
        ],
    ),
    share(
        "portable__occupancy",
        "achieved occupancy (0-1)",
        &[value(
            "ncu, KTT, nvprof",
            "sm__warps_active.avg.pct_of_peak_sustained_active",
            0.01,
        )],
    ),
    share(
        "portable__registers_per_thread",
        "registers per thread",
        &[value(
            "ncu, KTT, GPGPU-Sim",
            "launch__registers_per_thread",
            1.0,
        )],
    ),
    share(
        "portable__stall_dependency_share",
        "stalls waiting on a result (scoreboard), of all stall and issue states",
        &[
            ratio(
                "ncu",
                &[
                    "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio",
                    "smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio",
                    "smsp__average_warps_issue_stalled_wait_per_issue_active.ratio",
                ],
                NCU_STALLS,
            ),
            approx(
                ratio(
                    "GPGPU-Sim",
                    &["gpgpusim__warp_state.scoreboard"],
                    SIM_STATES,
                ),
                "scheduler cycles whose ready warps all wait on the scoreboard",
            ),
        ],
    ),
    share(
        "portable__stall_throttle_share",
        "stalls on a busy pipe or memory queue, of all stall and issue states",
        &[
            ratio(
                "ncu",
                &[
                    "smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio",
                    "smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio",
                    "smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio",
                ],
                NCU_STALLS,
            ),
            approx(
                ratio("GPGPU-Sim", &["gpgpusim__warp_state.stall"], SIM_STATES),
                "scheduler cycles with a ready instruction that the pipeline could not take",
            ),
        ],
    ),
    share(
        "portable__stall_idle_share",
        "cycles without an instruction to issue (fetch, branch, barrier), of all states",
        &[
            ratio(
                "ncu",
                &[
                    "smsp__average_warps_issue_stalled_no_instruction_per_issue_active.ratio",
                    "smsp__average_warps_issue_stalled_branch_resolving_per_issue_active.ratio",
                    "smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio",
                    "smsp__average_warps_issue_stalled_membar_per_issue_active.ratio",
                ],
                NCU_STALLS,
            ),
            approx(
                ratio("GPGPU-Sim", &["gpgpusim__warp_state.idle"], SIM_STATES),
                "scheduler cycles without a valid instruction",
            ),
        ],
    ),
    share(
        "portable__sm_active_share",
        "share of the elapsed cycles in which the SMs had work (low: too few blocks, a tail)",
        &[
            value(
                "ncu, KTT",
                "smsp__cycles_active.avg.pct_of_peak_sustained_elapsed",
                0.01,
            ),
            ratio(
                "ncu",
                &["sm__cycles_active.avg"],
                &["sm__cycles_elapsed.avg"],
            ),
            ratio(
                "ncu",
                &["sm__cycles_active.avg"],
                &["gpc__cycles_elapsed.max"],
            ),
            ratio(
                "nvprof",
                &["sm__cycles_active.sum"],
                &["sm__cycles_elapsed.sum"],
            ),
        ],
    ),
    share(
        "portable__dram_busy",
        "DRAM throughput, share of the GPU's peak",
        &[value(
            "ncu, KTT",
            "dram__throughput.avg.pct_of_peak_sustained_elapsed",
            0.01,
        )],
    ),
    share(
        "portable__l2_busy",
        "L2 sector throughput, share of the GPU's peak",
        &[value(
            "ncu, KTT",
            "lts__t_sectors.avg.pct_of_peak_sustained_elapsed",
            0.01,
        )],
    ),
    share(
        "portable__lsu_busy",
        "load/store pipe issue, share of its peak in active cycles",
        &[value(
            "ncu, KTT",
            "smsp__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active",
            0.01,
        )],
    ),
    share(
        "portable__fma_busy",
        "FMA pipe, share of its peak in active cycles",
        &[value(
            "ncu, KTT",
            "smsp__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active",
            0.01,
        )],
    ),
];
