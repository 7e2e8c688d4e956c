//! The fidelity tables as text: each optimization's share of faster variant pairs beside the
//! thesis's Tesla K20, and, where a program is both simulated and measured, how far the
//! simulator and the GPU agree on the same variant pairs (experiment::fidelity).

use crate::experiment::fidelity::{Agreement, FidelityRow};
use crate::report::table::TextTable;

/// Both tables; the second only where `agreement` has rows.
pub fn render(rows: &[FidelityRow], agreement: &[Agreement]) -> String {
    let mut text = render_rows(rows);
    if !agreement.is_empty() {
        text.push('\n');
        text.push_str(&render_agreement(agreement));
    }
    text
}

/// Each optimization's share of faster pairs and median speedup beside the thesis's K20.
pub fn render_rows(rows: &[FidelityRow]) -> String {
    let mut t = TextTable::new([
        "program",
        "optimization",
        "pairs",
        "faster here %",
        "median speedup",
        "faster on the thesis's K20 %",
    ]);
    for r in rows {
        let program = if r.simulated {
            format!("{} (SIMULATED)", r.program)
        } else {
            r.program.clone()
        };
        t.push([
            program,
            r.optimization.clone(),
            r.pairs.to_string(),
            r.share_faster
                .map(|v| format!("{:.0}", 100.0 * v))
                .unwrap_or_else(|| "not in the data".into()),
            r.median_speedup
                .map(|v| format!("{v:.3}x"))
                .unwrap_or_else(|| "-".into()),
            match (&r.thesis_share_faster, &r.thesis_table) {
                (Some(s), Some(t)) => format!("{:.0} ({t})", 100.0 * s),
                _ => "-".into(),
            },
        ]);
    }
    format!(
        "Fidelity: the share of variant pairs each optimization speeds up in this data, beside \
         the share measured on the thesis's Tesla K20 (its tables' PP + NP, IBk)\n{}",
        t.render()
    )
}

/// The simulator against the GPU on the variant pairs both have.
pub fn render_agreement(agreement: &[Agreement]) -> String {
    agreement_table("Simulator against the GPU", agreement)
}

/// One GPU's campaign against another's (`first` and `second` name them).
pub fn render_gpu_agreement(first: &str, second: &str, agreement: &[Agreement]) -> String {
    agreement_table(&format!("{first} against {second}"), agreement)
}

fn agreement_table(what: &str, agreement: &[Agreement]) -> String {
    let mut t = TextTable::new([
        "program",
        "optimization",
        "pairs",
        "same direction %",
        "rank correlation",
    ]);
    for a in agreement {
        t.push([
            a.program.clone(),
            a.optimization.clone(),
            a.pairs.to_string(),
            format!("{:.0}", 100.0 * a.same_direction),
            a.rank_correlation
                .map(|r| format!("{r:.2}"))
                .unwrap_or_else(|| "-".into()),
        ]);
    }
    format!(
        "{what} on the variant pairs both have (each side's median speedup per variant): the \
         share sped up or slowed down alike, and Spearman's rank correlation of the speedups\n{}",
        t.render()
    )
}
