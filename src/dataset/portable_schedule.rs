//! The portable view's features of how the SMs schedule and how busy the GPU is: issue share,
//! IPC, occupancy, registers, the stall shares and the shares of the GPU's peaks (Nsight
//! Compute's "Speed Of Light" view). Their order in the view is the table's
//! (src/dataset/portable_table.rs).

use super::portable::PortableFeature;
use super::portable_table::{approx, ratio, share, value, I_W};

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

pub(super) const ISSUE_ACTIVE: PortableFeature = share(
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
);

pub(super) const IPC: PortableFeature = share(
    "portable__ipc",
    "warp instructions per active SM cycle",
    &[
        value("ncu, nvprof", "sm__inst_executed.avg.per_cycle_active", 1.0),
        ratio("GPGPU-Sim", I_W, &["sm__cycles_active.sum"]),
    ],
);

pub(super) const OCCUPANCY: PortableFeature = share(
    "portable__occupancy",
    "achieved occupancy (0-1)",
    &[value(
        "ncu, KTT, nvprof",
        "sm__warps_active.avg.pct_of_peak_sustained_active",
        0.01,
    )],
);

pub(super) const REGISTERS_PER_THREAD: PortableFeature = share(
    "portable__registers_per_thread",
    "registers per thread",
    &[value(
        "ncu, KTT, GPGPU-Sim",
        "launch__registers_per_thread",
        1.0,
    )],
);

pub(super) const STALL_DEPENDENCY_SHARE: PortableFeature = share(
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
);

pub(super) const STALL_THROTTLE_SHARE: PortableFeature = share(
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
);

pub(super) const STALL_IDLE_SHARE: PortableFeature = share(
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
);

pub(super) const SM_ACTIVE_SHARE: PortableFeature = share(
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
);

pub(super) const DRAM_BUSY: PortableFeature = share(
    "portable__dram_busy",
    "DRAM throughput, share of the GPU's peak",
    &[value(
        "ncu, KTT",
        "dram__throughput.avg.pct_of_peak_sustained_elapsed",
        0.01,
    )],
);

pub(super) const L2_BUSY: PortableFeature = share(
    "portable__l2_busy",
    "L2 sector throughput, share of the GPU's peak",
    &[value(
        "ncu, KTT",
        "lts__t_sectors.avg.pct_of_peak_sustained_elapsed",
        0.01,
    )],
);

pub(super) const LSU_BUSY: PortableFeature = share(
    "portable__lsu_busy",
    "load/store pipe issue, share of its peak in active cycles",
    &[value(
        "ncu, KTT",
        "smsp__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active",
        0.01,
    )],
);

pub(super) const FMA_BUSY: PortableFeature = share(
    "portable__fma_busy",
    "FMA pipe, share of its peak in active cycles",
    &[value(
        "ncu, KTT",
        "smsp__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active",
        0.01,
    )],
);
