//! The portable feature view's table: each feature's meaning and its formulas per data
//! source (see the portable module for how they are read). The instruction mix is written
//! here; the memory features (portable_memory.rs) and those of scheduling and the GPU's peaks
//! (portable_schedule.rs) are written there and listed here in the view's order.

use super::portable::{Expr, Formula, PortableFeature};
use super::portable_memory as memory;
use super::portable_schedule as schedule;

pub(super) const I_W: &[&str] = &["smsp__inst_executed.sum"];
pub(super) const I_T: &[&str] = &["smsp__thread_inst_executed.sum"];
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

pub(super) const fn ratio(
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

pub(super) const fn approx(mut f: Formula, note: &'static str) -> Formula {
    f.approximate = true;
    f.note = note;
    f
}

pub(super) const fn value(source: &'static str, metric: &'static str, scale: f64) -> Formula {
    Formula {
        source,
        expr: Expr::Value { metric, scale },
        approximate: false,
        note: "",
    }
}

pub(super) const fn share(
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

pub(super) const THREAD_LEVEL: &str =
    "thread-level counts of PTX instructions; ncu counts warp-level SASS";

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
    memory::GLOBAL_LD_PER_INST,
    memory::GLOBAL_ST_PER_INST,
    memory::LOCAL_PER_INST,
    memory::SHARED_PER_INST,
    memory::CONST_PER_INST,
    memory::ATOMIC_PER_INST,
    memory::L1_SECTORS_PER_INST,
    memory::L2_SECTORS_PER_INST,
    memory::DRAM_SECTORS_PER_INST,
    memory::L1_HIT_RATE,
    memory::L2_HIT_RATE,
    memory::BANK_CONFLICTS_PER_SHARED,
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
    schedule::ISSUE_ACTIVE,
    schedule::IPC,
    schedule::OCCUPANCY,
    schedule::REGISTERS_PER_THREAD,
    schedule::STALL_DEPENDENCY_SHARE,
    schedule::STALL_THROTTLE_SHARE,
    schedule::STALL_IDLE_SHARE,
    schedule::SM_ACTIVE_SHARE,
    schedule::DRAM_BUSY,
    schedule::L2_BUSY,
    schedule::LSU_BUSY,
    schedule::FMA_BUSY,
];
