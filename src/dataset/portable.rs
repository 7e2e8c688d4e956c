//! The portable feature view: about thirty features defined by formula, meaning the same on
//! every GPU, program and data source (Nsight Compute, nvprof, KTT's counters, GPGPU-Sim):
//! instruction-mix shares, memory instructions and traffic per instruction, hit rates, bank
//! conflicts, active threads per instruction, issue activity, occupancy and stall shares.
//!
//! Raw counters do not carry over between programs and GPUs: a kernel that runs longer has
//! more of everything, and each source names and counts things its own way. Ratios of counts
//! of the same run do carry over. Each feature lists its formulas per source, tried in order;
//! the first whose inputs the run has gives the value. A feature whose inputs are missing is
//! missing (never a value computed from a different quantity). docs/portable-features.md is
//! this table in prose. Names are the canonical ones after the nvprof -> ncu map, so nvprof
//! data that maps exactly uses the ncu formula.

use serde::Serialize;

/// How a feature is computed from a run's aggregated (not normalized) metrics.
#[derive(Debug, Clone, Copy, Serialize)]
pub enum Expr {
    /// sum(num) / sum(den) * scale.
    Ratio {
        num: &'static [&'static str],
        den: &'static [&'static str],
        scale: f64,
    },
    /// (sum(num) - sum(den)) / sum(den): the excess of one count over another.
    Excess {
        num: &'static [&'static str],
        den: &'static [&'static str],
    },
    /// A metric that is already a rate or a ratio, times scale.
    Value { metric: &'static str, scale: f64 },
}

/// One way to compute a feature, and the data source it is for.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Formula {
    pub source: &'static str,
    pub expr: Expr,
    /// Whether the source counts a different but closely related quantity (said in `note`).
    pub approximate: bool,
    pub note: &'static str,
}

/// A portable feature.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct PortableFeature {
    pub name: &'static str,
    pub meaning: &'static str,
    pub formulas: &'static [Formula],
}

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
        ],
    ),
    share(
        "portable__global_st_per_inst",
        "global store instructions per warp instruction",
        &[ratio(
            "ncu, nvprof",
            &["smsp__inst_executed_op_global_st.sum"],
            I_W,
        )],
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
        &[ratio(
            "ncu",
            &["smsp__inst_executed_op_global_atom.sum"],
            I_W,
        )],
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
];

/// The view as a Markdown table, one row per feature and source (docs/portable-features.md
/// is this text; a test keeps the two equal).
pub fn markdown() -> String {
    let list = |names: &[&str]| -> String {
        names
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(" + ")
    };
    let mut out =
        String::from("| feature | meaning | source | formula | note |\n|---|---|---|---|---|\n");
    for f in PORTABLE {
        for (i, formula) in f.formulas.iter().enumerate() {
            let scaled = |text: String, scale: f64| -> String {
                if scale == 1.0 {
                    text
                } else {
                    format!("{text} x {scale}")
                }
            };
            let expr = match formula.expr {
                Expr::Ratio { num, den, scale } => {
                    scaled(format!("({}) / ({})", list(num), list(den)), scale)
                }
                Expr::Excess { num, den } => {
                    format!("(({}) - ({})) / ({})", list(num), list(den), list(den))
                }
                Expr::Value { metric, scale } => scaled(format!("`{metric}`"), scale),
            };
            let note = if formula.approximate {
                format!("approximate: {}", formula.note)
            } else {
                formula.note.to_string()
            };
            out.push_str(&format!(
                "| {} | {} | {} | {} | {} |\n",
                if i == 0 {
                    format!("`{}`", f.name)
                } else {
                    String::new()
                },
                if i == 0 { f.meaning } else { "" },
                formula.source,
                expr,
                note
            ));
        }
    }
    out
}

/// The portable feature names, in order.
pub fn names() -> Vec<String> {
    PORTABLE.iter().map(|f| f.name.to_string()).collect()
}

/// The Nsight Compute metrics the view's ncu formulas read: what to ask ncu for when a
/// profile is taken for a portable-feature advisor.
pub fn ncu_inputs() -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for f in PORTABLE {
        for formula in f.formulas.iter().filter(|x| x.source.starts_with("ncu")) {
            let names: Vec<&'static str> = match formula.expr {
                Expr::Ratio { num, den, .. } | Expr::Excess { num, den } => {
                    num.iter().chain(den).copied().collect()
                }
                Expr::Value { metric, .. } => vec![metric],
            };
            for n in names {
                if !out.contains(&n) {
                    out.push(n);
                }
            }
        }
    }
    out
}

/// Sum of the listed metrics, if all are present.
fn sum(get: &dyn Fn(&str) -> Option<f64>, names: &[&str]) -> Option<f64> {
    names.iter().map(|n| get(n)).sum()
}

impl Expr {
    /// The value, or None when an input is missing or the denominator is not positive.
    pub fn eval(&self, get: &dyn Fn(&str) -> Option<f64>) -> Option<f64> {
        let v = match *self {
            Expr::Ratio { num, den, scale } => {
                let d = sum(get, den)?;
                (d > 0.0).then_some(sum(get, num)? / d * scale)?
            }
            Expr::Excess { num, den } => {
                let d = sum(get, den)?;
                (d > 0.0).then_some((sum(get, num)? - d) / d)?
            }
            Expr::Value { metric, scale } => get(metric)? * scale,
        };
        v.is_finite().then_some(v)
    }
}

/// The portable features of one run, from its aggregated metrics.
pub fn compute(get: &dyn Fn(&str) -> Option<f64>) -> Vec<Option<f64>> {
    PORTABLE
        .iter()
        .map(|f| f.formulas.iter().find_map(|formula| formula.expr.eval(get)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn getter<'a>(m: &'a HashMap<&'a str, f64>) -> impl Fn(&str) -> Option<f64> + 'a {
        move |k| m.get(k).copied()
    }

    #[test]
    fn missing_inputs_give_missing_features() {
        let m: HashMap<&str, f64> = [("smsp__inst_executed.sum", 100.0)].into();
        let v = compute(&getter(&m));
        assert_eq!(v.len(), PORTABLE.len());
        assert!(v.iter().all(|x| x.is_none()), "{v:?}");
    }

    #[test]
    fn sources_reach_the_same_quantity() {
        // ncu: 30 global loads per 100 warp instructions.
        let ncu: HashMap<&str, f64> = [
            ("smsp__inst_executed.sum", 100.0),
            ("smsp__inst_executed_op_global_ld.sum", 30.0),
            ("lts__t_sector_hit_rate.pct", 80.0),
        ]
        .into();
        // KTT: the same loads counted as L1 requests.
        let ktt: HashMap<&str, f64> = [
            ("smsp__inst_executed.sum", 200.0),
            ("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 60.0),
        ]
        .into();
        let at = |name: &str| PORTABLE.iter().position(|f| f.name == name).unwrap();
        let g = at("portable__global_ld_per_inst");
        assert_eq!(compute(&getter(&ncu))[g], Some(0.3));
        assert_eq!(compute(&getter(&ktt))[g], Some(0.3));
        assert_eq!(
            compute(&getter(&ncu))[at("portable__l2_hit_rate")],
            Some(0.8)
        );
    }

    #[test]
    fn the_first_formula_with_all_inputs_wins_and_zero_denominators_are_missing() {
        let sim: HashMap<&str, f64> = [
            ("gpgpusim__warp_state.stall", 10.0),
            ("gpgpusim__warp_state.idle", 20.0),
            ("gpgpusim__warp_state.scoreboard", 30.0),
            ("gpgpusim__warp_state.issued", 40.0),
        ]
        .into();
        let at = |name: &str| PORTABLE.iter().position(|f| f.name == name).unwrap();
        let v = compute(&getter(&sim));
        assert_eq!(v[at("portable__issue_active")], Some(0.4));
        assert_eq!(v[at("portable__stall_idle_share")], Some(0.2));
        let zero: HashMap<&str, f64> = [
            ("smsp__inst_executed.sum", 0.0),
            ("smsp__inst_executed_op_branch.sum", 0.0),
        ]
        .into();
        assert_eq!(
            compute(&getter(&zero))[at("portable__branch_per_inst")],
            None
        );
    }

    #[test]
    fn names_are_unique_and_between_20_and_40() {
        let mut n = names();
        assert!((20..=40).contains(&n.len()), "{}", n.len());
        n.sort();
        n.dedup();
        assert_eq!(n.len(), PORTABLE.len());
    }

    #[test]
    fn the_docs_table_is_this_table() {
        let doc = include_str!("../../docs/portable-features.md");
        assert!(
            doc.contains(&markdown()),
            "docs/portable-features.md is out of date: regenerate it from `advise features --formulas`"
        );
    }
}
