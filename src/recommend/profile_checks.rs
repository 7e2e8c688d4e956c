//! Optimizations a profile shows to have nothing to change, as the static checks
//! (`static_analysis::detect::not_applicable`) show it from the source. Each rule names the
//! counter it reads and holds on every measured sample the advisor learned the optimization
//! from (checked by a test over the shipped data).

use super::bundle::Advisor;

/// The feature whose value decides, the value at which the optimization has nothing to
/// change, and why.
struct Rule {
    optimization: &'static str,
    feature: &'static str,
    reason: &'static str,
}

/// WARP (a warp walks BH's tree together) removes divergence: a profile whose kernels never
/// took a divergent branch has none to remove. Every measured sample the shipped advisor
/// learned WARP from has a share above zero, WARP applied or not (tests/it/default_advisor.rs).
const RULES: [Rule; 1] = [Rule {
    optimization: "WARP",
    feature: "portable__divergent_branch_share",
    reason: "the profile shows no divergent branch (portable__divergent_branch_share = 0), so \
             there is no divergence for a warp walking together to remove",
}];

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
            advisor
                .features
                .iter()
                .position(|f| f == r.feature)
                .and_then(|j| x.get(j))
                .is_some_and(|&v| v == 0.0)
        })
        .map(|r| (r.optimization, r.reason))
        .collect()
}
