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
    /// sum(num) / (sum(den) * sum(warps) / sum(threads)): a count per warp instruction where
    /// the source counts the denominator per thread, brought to warp instructions by the
    /// run's own warp instructions per thread instruction.
    PerWarp {
        num: &'static [&'static str],
        den: &'static [&'static str],
        warps: &'static [&'static str],
        threads: &'static [&'static str],
    },
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

pub use super::portable_table::PORTABLE;

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
                Expr::PerWarp {
                    num,
                    den,
                    warps,
                    threads,
                } => format!(
                    "({}) / (({}) x ({}) / ({}))",
                    list(num),
                    list(den),
                    list(warps),
                    list(threads)
                ),
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
            for n in formula.expr.inputs() {
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
    /// The metrics the expression reads.
    pub fn inputs(&self) -> Vec<&'static str> {
        match *self {
            Expr::Ratio { num, den, .. } | Expr::Excess { num, den } => {
                num.iter().chain(den).copied().collect()
            }
            Expr::Value { metric, .. } => vec![metric],
            Expr::PerWarp {
                num,
                den,
                warps,
                threads,
            } => num
                .iter()
                .chain(den)
                .chain(warps)
                .chain(threads)
                .copied()
                .collect(),
        }
    }

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
            Expr::PerWarp {
                num,
                den,
                warps,
                threads,
            } => {
                let t = sum(get, threads)?;
                let d = sum(get, den)? * sum(get, warps)?;
                (t > 0.0 && d > 0.0).then_some(sum(get, num)? / (d / t))?
            }
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

    /// The position of a feature in the view.
    fn at(name: &str) -> usize {
        PORTABLE
            .iter()
            .position(|f| f.name == name)
            .unwrap_or_else(|| panic!("no portable feature {name}"))
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
        let g = at("portable__global_ld_per_inst");
        assert_eq!(compute(&getter(&ncu))[g], Some(0.3));
        assert_eq!(compute(&getter(&ktt))[g], Some(0.3));
        assert_eq!(
            compute(&getter(&ncu))[at("portable__l2_hit_rate")],
            Some(0.8)
        );
    }

    #[test]
    fn sm_active_share_from_each_source() {
        let s = at("portable__sm_active_share");
        // KTT and ncu by name: a percentage of the elapsed cycles.
        let ktt: HashMap<&str, f64> = [(
            "smsp__cycles_active.avg.pct_of_peak_sustained_elapsed",
            75.0,
        )]
        .into();
        // ncu's details page: "SM Active Cycles" over "Elapsed Cycles".
        let details: HashMap<&str, f64> = [
            ("sm__cycles_active.avg", 300.0),
            ("gpc__cycles_elapsed.max", 400.0),
        ]
        .into();
        // nvprof: active_cycles over elapsed_cycles_sm, both summed over the SMs.
        let nvprof: HashMap<&str, f64> = [
            ("sm__cycles_active.sum", 6000.0),
            ("sm__cycles_elapsed.sum", 8000.0),
        ]
        .into();
        for m in [&ktt, &details, &nvprof] {
            assert_eq!(compute(&getter(m))[s], Some(0.75), "{m:?}");
        }
        // The peak shares read their percentage and nothing else.
        let dram: HashMap<&str, f64> =
            [("dram__throughput.avg.pct_of_peak_sustained_elapsed", 40.0)].into();
        let v = compute(&getter(&dram));
        assert_eq!(v[at("portable__dram_busy")], Some(0.4));
        assert_eq!(v.iter().filter(|x| x.is_some()).count(), 1);
    }

    #[test]
    fn a_simulator_log_reaches_ncus_per_warp_quantities() {
        // ncu: per 100 warp instructions, 30 global loads, 10 global stores and 20 shared
        // loads, which 40 bank conflicts slow.
        let ncu: HashMap<&str, f64> = [
            ("smsp__inst_executed.sum", 100.0),
            ("smsp__inst_executed_op_global_ld.sum", 30.0),
            ("smsp__inst_executed_op_global_st.sum", 10.0),
            ("smsp__inst_executed_op_shared_ld.sum", 20.0),
            (
                "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
                40.0,
            ),
        ]
        .into();
        // GPGPU-Sim: the same run counted per thread (16 active threads a warp instruction),
        // and the conflicts' extra cycles per warp.
        let sim: HashMap<&str, f64> = [
            ("smsp__inst_executed.sum", 100.0),
            ("smsp__thread_inst_executed.sum", 1600.0),
            ("gpgpusim__gpgpu_n_load_insn", 480.0),
            ("gpgpusim__gpgpu_n_store_insn", 160.0),
            ("gpgpusim__gpgpu_n_shmem_insn", 320.0),
            ("gpgpusim__gpgpu_n_shmem_bkconflict", 40.0),
        ]
        .into();
        let (a, b) = (compute(&getter(&ncu)), compute(&getter(&sim)));
        for name in [
            "portable__global_ld_per_inst",
            "portable__global_st_per_inst",
            "portable__bank_conflicts_per_shared",
        ] {
            assert!(a[at(name)].is_some(), "{name}");
            assert_eq!(a[at(name)], b[at(name)], "{name}");
        }
        assert_eq!(b[at("portable__bank_conflicts_per_shared")], Some(2.0));
        // Without the thread instructions the per-warp estimate is missing, not guessed.
        let mut partial = sim.clone();
        partial.remove("smsp__thread_inst_executed.sum");
        let c = compute(&getter(&partial));
        assert_eq!(c[at("portable__bank_conflicts_per_shared")], None);
        assert_eq!(c[at("portable__global_ld_per_inst")], None);
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
