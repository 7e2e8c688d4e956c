//! What changed between two versions of a kernel: the instruction-mix differences that hint
//! at a source change (fewer volatile loads: VOLA; a split loop: PEEL), read by `advise static
//! --compare`.

use serde::Serialize;

use super::metrics::Metrics;

/// One instruction-mix difference between version A and version B of a kernel.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Difference {
    pub metric: &'static str,
    pub a: f64,
    pub b: f64,
    /// What the change suggests, e.g. "fewer volatile loads (VOLA)".
    pub reading: String,
}

/// The differences of B against A that hint at a source change.
pub fn compare(a: &Metrics, b: &Metrics) -> Vec<Difference> {
    let mut out = Vec::new();
    let mut diff = |metric: &'static str, x: f64, y: f64, more: &str, fewer: &str| {
        if (x - y).abs() > 1e-12 {
            let reading = if y > x { more } else { fewer };
            out.push(Difference {
                metric,
                a: x,
                b: y,
                reading: reading.to_string(),
            });
        }
    };
    let c = |v: u64| v as f64;
    diff(
        "instructions",
        c(a.instructions),
        c(b.instructions),
        "more instructions (unrolled or duplicated code: UNROLL or PEEL?)",
        "fewer instructions",
    );
    diff(
        "loops",
        c(a.loops),
        c(b.loops),
        "more loops (a loop split in two: PEEL?)",
        "fewer loops (a loop fully unrolled or merged: UNROLL?)",
    );
    diff(
        "branch_fraction",
        a.branch_fraction,
        b.branch_fraction,
        "more branches per instruction",
        "fewer branches per instruction (longer loop bodies: UNROLL?)",
    );
    diff(
        "volatile_loads",
        c(a.volatile_loads),
        c(b.volatile_loads),
        "more volatile loads",
        "fewer volatile loads (VOLA)",
    );
    diff(
        "shared_loads",
        c(a.shared_loads),
        c(b.shared_loads),
        "more shared-memory loads (SHMEM)",
        "fewer shared-memory loads",
    );
    diff(
        "constant_loads",
        c(a.constant_loads),
        c(b.constant_loads),
        "more constant-memory loads (CONST)",
        "fewer constant-memory loads",
    );
    diff(
        "global_loads",
        c(a.global_loads),
        c(b.global_loads),
        "more global loads",
        "fewer global loads (data reuse: SHMEM, CONST, WARP or VOLA?)",
    );
    diff(
        "ftz_arithmetic",
        c(a.ftz_arithmetic),
        c(b.ftz_arithmetic),
        "more flush-to-zero arithmetic (FTZ)",
        "less flush-to-zero arithmetic",
    );
    diff(
        "rsqrt",
        c(a.rsqrt),
        c(b.rsqrt),
        "more rsqrt.approx (RSQRT)",
        "fewer rsqrt.approx",
    );
    diff(
        "vote",
        c(a.vote),
        c(b.vote),
        "more votes (VOTE or WARP)",
        "fewer votes",
    );
    diff(
        "shuffle",
        c(a.shuffle),
        c(b.shuffle),
        "more warp shuffles (WARP?)",
        "fewer warp shuffles",
    );
    diff(
        "local_memory",
        c(a.local_memory),
        c(b.local_memory),
        "more local-memory traffic (spills or indexed arrays)",
        "less local-memory traffic",
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compare_reads_fewer_volatile_loads_and_a_split_loop() {
        let mut a = Metrics::ptx_for_test();
        a.volatile_loads = 6;
        a.loops = 1;
        let mut b = a.clone();
        b.volatile_loads = 2;
        b.loops = 2;
        let d = compare(&a, &b);
        assert!(d.iter().any(|x| x.reading.contains("VOLA")));
        assert!(d.iter().any(|x| x.reading.contains("PEEL")));
    }
}
