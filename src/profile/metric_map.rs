//! The nvprof -> Nsight Compute metric-name map for the counters advise's models use.
//!
//! ncu names are canonical. The pairs follow NVIDIA's "Metric Comparison" table in the Nsight
//! Compute CLI documentation (section "nvprof Transition Guide"); where it gives no equivalent,
//! or only a loose one, the entry says so. `scale` converts the nvprof value to the ncu one
//! (nvprof reports occupancy as a 0-1 ratio, ncu as a percentage).

use serde::Serialize;

/// How closely an ncu metric matches an nvprof one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Match {
    /// Same quantity (up to `scale`).
    Exact,
    /// Related quantity; comparable in trend, not in value.
    Approximate,
    /// No ncu equivalent.
    None,
}

/// One entry of the map.
#[derive(Debug, Clone, Serialize)]
pub struct MetricPair {
    pub nvprof: &'static str,
    pub ncu: Option<&'static str>,
    pub matches: Match,
    pub scale: f64,
    /// Whether the quantity is a count (summed and normalized) rather than a rate or ratio.
    pub count: bool,
    pub note: &'static str,
}

mod table;
pub use table::METRIC_MAP;

/// The map entry for an nvprof metric or event name.
pub fn lookup(nvprof: &str) -> Option<&'static MetricPair> {
    METRIC_MAP.iter().find(|p| p.nvprof == nvprof)
}

/// The ncu name and scale for an nvprof name, where an equivalent exists.
pub fn to_ncu(nvprof: &str) -> Option<(&'static str, f64)> {
    lookup(nvprof).and_then(|p| p.ncu.map(|n| (n, p.scale)))
}

/// Whether a known nvprof name is a count. Names ending in `_transactions`, `_request`,
/// `inst_*` or `_bytes` are counts too, even when the map has no entry for them.
pub fn nvprof_is_count(name: &str) -> bool {
    if let Some(p) = lookup(name) {
        return p.count;
    }
    name.ends_with("_transactions")
        || name.ends_with("_request")
        || name.ends_with("_bytes")
        || name.starts_with("inst_")
        || name.starts_with("flop_count")
        || name.ends_with("_instructions")
}

/// The normalizer A of the thesis: active cycles, by ncu and by nvprof name.
pub const ACTIVE_CYCLES: [&str; 2] = ["sm__cycles_active.sum", "active_cycles"];

#[cfg(test)]
mod tests;
