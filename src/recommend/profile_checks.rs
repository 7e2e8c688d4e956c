//! Optimizations a profile shows to have nothing to change, as the static checks
//! (`static_analysis::detect::not_applicable`) show it from the source. Each rule names the
//! counter it reads and holds on every measured sample the advisor learned the optimization
//! from (checked by a test over the shipped data). And the reverse: problems a profile shows
//! that an optimization exists to remove where the advisor's training data never showed them,
//! so that its answer cannot be trusted there (`unseen_problem`).

use super::bundle::{Advisor, OptimizationModel};

/// The feature whose value decides, the values at which the optimization has nothing to
/// change (or has nothing the advisor learned to predict from), and why.
struct Rule {
    optimization: &'static str,
    feature: &'static str,
    holds: fn(f64) -> bool,
    reason: &'static str,
}

/// WARP (a warp walks BH's tree together) removes divergence: a profile whose kernels never
/// took a divergent branch has none to remove. Every measured sample the shipped advisor
/// learned WARP from has a share above zero, WARP applied or not (tests/it/default_advisor.rs).
///
/// SHMEM stages data a block reuses in shared memory: the advisor learned it only from
/// kernels that used none (every sample before the change has no shared-memory instruction,
/// measured or simulated; tests/it/default_advisor.rs), so a profile whose kernels already
/// load and store shared memory is already what SHMEM makes (the program's source, with
/// `--source`, says the same through `advise static`).
///
/// PADDING pads shared-memory arrays: a profile without a shared-memory instruction has no
/// such array to pad. The advisor learned PADDING from KTT's convolution, whose counters lack
/// shared-memory instructions but whose every configuration has shared memory
/// (`ktt__local_memory_size` of 1,936 bytes or more per block; tests/it/default_advisor.rs).
const RULES: [Rule; 3] = [
    Rule {
        optimization: "WARP",
        feature: "portable__divergent_branch_share",
        holds: |v| v == 0.0,
        reason: "the profile shows no divergent branch (portable__divergent_branch_share = 0), \
                 so there is no divergence for a warp walking together to remove",
    },
    Rule {
        optimization: "SHMEM",
        feature: "portable__shared_per_inst",
        holds: |v| v > 0.0,
        reason: "the profile shows shared-memory loads and stores (portable__shared_per_inst \
                 above 0): the kernel already stages data in shared memory, and the advisor \
                 learned SHMEM only from kernels that used none",
    },
    Rule {
        optimization: "PADDING",
        feature: "portable__shared_per_inst",
        holds: |v| v == 0.0,
        reason: "the profile shows no shared-memory load or store (portable__shared_per_inst \
                 = 0), so there is no shared-memory array to pad",
    },
];

/// The optimizations the advisor knows that the profile's features `x` (in the advisor's
/// feature order) show to have nothing to change, each with its reason.
pub fn inapplicable(advisor: &Advisor, x: &[f64]) -> Vec<(&'static str, &'static str)> {
    RULES
        .iter()
        .filter(|r| {
            advisor
                .optimizations
                .iter()
                .any(|m| m.name == r.optimization)
        })
        .filter(|r| {
            column(advisor, r.feature)
                .and_then(|j| x.get(j))
                .is_some_and(|&v| (r.holds)(v))
        })
        .map(|r| (r.optimization, r.reason))
        .collect()
}

/// Where the advisor's feature rows hold `feature`.
fn column(advisor: &Advisor, feature: &str) -> Option<usize> {
    advisor.features.iter().position(|f| f == feature)
}

/// A problem a profile can show that an optimization exists to remove: the portable feature
/// that measures it, and the value from which the profile shows it.
struct Problem {
    optimization: &'static str,
    feature: &'static str,
    from: f64,
    what: &'static str,
}

/// PADDING removes shared-memory bank conflicts: an n-way conflict costs n - 1 extra
/// wavefronts (CUDA C++ Best Practices Guide, "Shared Memory and Memory Banks"), so one extra
/// wavefront per shared instruction is a two-way conflict on every access. The advisor learned
/// PADDING from KTT's convolution, whose counters lack bank conflicts; a matrix transpose with
/// a 32 x 32 tile showed 31 per shared load on the H200 and ran 2.15x faster padded, where
/// PADDING's answer had been 1.00x (datasets/verify-h200-20261127).
const PROBLEMS: [Problem; 1] = [Problem {
    optimization: "PADDING",
    feature: "portable__bank_conflicts_per_shared",
    from: 1.0,
    what: "extra shared-memory wavefronts (bank conflicts) per shared instruction, which padding \
           a shared-memory array removes",
}];

/// Where the profile `x` shows the problem an optimization removes and none of the rows the
/// model `m` learned from did (the feature missing or below the problem's threshold), nothing
/// the model learned speaks to this profile: the sentence that says so, else `None`.
pub fn unseen_problem(advisor: &Advisor, m: &OptimizationModel, x: &[f64]) -> Option<String> {
    let p = PROBLEMS.iter().find(|p| p.optimization == m.name)?;
    let j = column(advisor, p.feature)?;
    let value = *x.get(j).filter(|v| v.is_finite() && **v >= p.from)?;
    let seen = m
        .rows
        .iter()
        .filter_map(|r| r.get(j))
        .filter(|v| v.is_finite());
    let (known, shown) = seen.fold((0, 0), |(k, s), &v| (k + 1, s + usize::from(v >= p.from)));
    if shown > 0 {
        return None;
    }
    let learned = if known == 0 {
        format!("none of the {} training pairs measured it", m.rows.len())
    } else {
        format!(
            "none of the {known} training pairs that measured it had {} or more",
            crate::number_format::fmt_sig(p.from, 3)
        )
    };
    Some(format!(
        "the profile shows {} {} ({}), and {learned}: what the advisor learned says nothing \
         about this profile; measure it",
        crate::number_format::fmt_sig(value, 3),
        p.what,
        p.feature
    ))
}
