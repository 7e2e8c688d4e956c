//! Which optimizations one compiled kernel shows, each with its evidence (what changed between
//! two versions of a kernel is `version_diff`'s).
//!
//! Rules (PTX, the default): FTZ = most float arithmetic carries `.ftz` (SFU approximations
//! such as `ex2.approx.ftz` are `.ftz` even in plain builds, so they do not count); RSQRT =
//! `rsqrt.approx` (1/sqrtf compiles to `sqrt.rn` + `div.rn` unless -use_fast_math or
//! -prec-sqrt=false); SHMEM = `ld/st.shared`; CONST = `ld.const`, which PTX uses only for
//! `.const` globals (user `__constant__` data), never for kernel parameters (`ld.param`);
//! VOTE = `vote`; shuffles = `shfl` (not an NB/BH optimization, reported beside them).
//! From SASS alone (a bare cubin) RSQRT cannot be told apart from IEEE sqrt (both use
//! `MUFU.RSQ`), and parameters live in constant bank 0, so CONST counts only the banks the
//! cubin lists as user constant data.

use serde::Serialize;

use super::metrics::Metrics;
use crate::variant::Optimization;

/// One optimization (or code feature) found in a kernel.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Detected {
    /// FTZ, RSQRT, SHMEM, CONST, VOTE, or SHFL for warp shuffles.
    pub name: String,
    /// The NB/BH optimization it is, where it is one (SHFL is not).
    #[serde(skip)]
    pub optimization: Option<Optimization>,
    pub kernel: String,
    /// The instruction that shows it.
    pub evidence: String,
    pub count: u64,
}

/// An optimization a single binary cannot show, and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NotDetectable {
    pub name: &'static str,
    pub reason: &'static str,
}

/// The NB/BH optimizations that only show as a difference between two versions.
pub fn not_detectable() -> Vec<NotDetectable> {
    vec![
        NotDetectable {
            name: "PEEL",
            reason: "a peeled loop looks like any two loops; compare two versions (--compare) to see a loop split in two",
        },
        NotDetectable {
            name: "UNROLL",
            reason: "the compiler unrolls on its own; only the change in instructions per loop between two versions shows a source-level unroll",
        },
        NotDetectable {
            name: "SORT",
            reason: "reordering the input data changes no instruction of the kernel",
        },
        NotDetectable {
            name: "WARP",
            reason: "warp-cooperative work is a change of algorithm; compare two versions for more shuffles/votes and fewer loads",
        },
        NotDetectable {
            name: "VOLA",
            reason: "some volatile loads are always needed; compare two versions for fewer volatile loads",
        },
    ]
}

/// An optimization the kernel gives nothing to apply to, and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NotApplicable {
    pub name: &'static str,
    pub reason: String,
}

/// The NB/BH optimizations that cannot apply to a kernel with metrics `m`, each for want of
/// the code it changes: RSQRT replaces a square root and a division; FTZ flushes the
/// denormals of single-precision arithmetic; UNROLL and PEEL work on loops; VOTE replaces a
/// shared-memory reduction with a warp vote; VOLA reads a volatile variable once (judged on
/// PTX only, where `volatile` is its own modifier); SORT reorders data reached indirectly and
/// WARP removes divergence on loaded data (PTX only: `dataflow::indirection` follows virtual
/// registers, which SASS does not have).
pub fn not_applicable(m: &Metrics) -> Vec<NotApplicable> {
    let sass = m.source == "sass";
    let mut out = Vec::new();
    let mut push = |name: &'static str, lacks: bool, reason: String| {
        if lacks {
            out.push(NotApplicable { name, reason });
        }
    };
    let what = if sass {
        "MUFU.RSQ or MUFU.SQRT"
    } else {
        "sqrt or rsqrt"
    };
    push(
        "RSQRT",
        m.square_roots == 0,
        format!("the kernel has no square root (no {what} instruction)"),
    );
    push(
        "FTZ",
        m.float_arithmetic == 0,
        "the kernel has no single-precision floating-point arithmetic".into(),
    );
    for name in ["UNROLL", "PEEL"] {
        push(name, m.loops == 0, "the kernel has no loop".into());
    }
    push(
        "VOTE",
        m.shared_loads + m.shared_stores == 0,
        "the kernel uses no shared memory, so it has no shared-memory reduction for a warp \
         vote to replace"
            .into(),
    );
    push(
        "VOLA",
        !sass && m.volatile_loads == 0,
        "the kernel reads no volatile variable (no ld.volatile instruction)".into(),
    );
    push(
        "SORT",
        !sass && m.dependent_loads == 0,
        "no global load's address depends on loaded data (no indirect access, as through a \
         tree or a neighbour list), so reordering the data cannot bring neighbouring threads' \
         accesses closer"
            .into(),
    );
    push(
        "WARP",
        !sass && m.data_branches == 0,
        "no branch depends on loaded data, so the threads of a warp do not diverge on data and \
         walking a structure warp by warp has no divergence to remove"
            .into(),
    );
    out
}

fn push(
    out: &mut Vec<Detected>,
    name: &str,
    opt: Option<Optimization>,
    kernel: &str,
    count: u64,
    evidence: String,
) {
    if count > 0 {
        out.push(Detected {
            name: name.into(),
            optimization: opt,
            kernel: kernel.into(),
            evidence,
            count,
        });
    }
}

/// The optimizations `m` shows. `const_symbols`: the module's `__constant__` variables, named
/// in the evidence.
pub fn detect(kernel: &str, m: &Metrics, const_symbols: &[String]) -> Vec<Detected> {
    let sass = m.source == "sass";
    let mut out = Vec::new();
    if m.float_arithmetic > 0 && 2 * m.ftz_arithmetic >= m.float_arithmetic {
        let what = if sass {
            "FADD/FMUL/FFMA/FSETP/FMNMX .FTZ"
        } else {
            ".ftz on add/sub/mul/fma/setp.f32"
        };
        push(
            &mut out,
            "FTZ",
            Some(Optimization::Ftz),
            kernel,
            m.ftz_arithmetic,
            format!(
                "{what}: {} of {} float arithmetic instructions",
                m.ftz_arithmetic, m.float_arithmetic
            ),
        );
    }
    if !sass && m.rsqrt > 0 {
        push(
            &mut out,
            "RSQRT",
            Some(Optimization::Rsqrt),
            kernel,
            m.rsqrt,
            "rsqrt.approx.f32".into(),
        );
    } else if !sass {
        // Built with approximate square roots (-use_fast_math or -prec-sqrt=false): any
        // 1/sqrtf would already be rsqrt.approx, so suggesting RSQRT gains nothing.
        push(
            &mut out,
            "RSQRT",
            Some(Optimization::Rsqrt),
            kernel,
            m.sqrt_approx,
            "sqrt.approx.f32 (approximate square roots: -use_fast_math or -prec-sqrt=false)".into(),
        );
    }
    let shared = m.shared_loads + m.shared_stores;
    let (ld, st) = if sass {
        ("LDS", "STS")
    } else {
        ("ld.shared", "st.shared")
    };
    push(
        &mut out,
        "SHMEM",
        Some(Optimization::Shmem),
        kernel,
        shared,
        format!("{ld} x{}, {st} x{}", m.shared_loads, m.shared_stores),
    );
    // Tables the compiler or CUDA's math library may place in constant space are not user
    // `__constant__` data.
    let const_symbols: Vec<&String> = const_symbols
        .iter()
        .filter(|s| !(s.starts_with("__cudart") || s.starts_with("__nv") || s.starts_with('$')))
        .collect();
    let user_constants = sass || !const_symbols.is_empty();
    let symbols = if const_symbols.is_empty() {
        String::new()
    } else {
        let names: Vec<&str> = const_symbols.iter().map(|s| s.as_str()).collect();
        format!(" from __constant__ {}", names.join(", "))
    };
    push(
        &mut out,
        "CONST",
        Some(Optimization::Const),
        kernel,
        if user_constants { m.constant_loads } else { 0 },
        if sass {
            format!("operands in a user constant bank{symbols}")
        } else {
            format!("ld.const{symbols}")
        },
    );
    push(
        &mut out,
        "VOTE",
        Some(Optimization::Vote),
        kernel,
        m.vote,
        if sass { "VOTE.ALL/ANY" } else { "vote.sync" }.into(),
    );
    push(
        &mut out,
        "SHFL",
        None,
        kernel,
        m.shuffle,
        if sass { "SHFL" } else { "shfl.sync" }.into(),
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m() -> Metrics {
        Metrics::ptx_for_test()
    }

    #[test]
    fn rsqrt_does_not_apply_without_a_square_root() {
        let mut x = m();
        assert_eq!(not_applicable(&x)[0].name, "RSQRT");
        x.square_roots = 1;
        assert!(not_applicable(&x).iter().all(|n| n.name != "RSQRT"));
    }

    #[test]
    fn each_optimization_needs_the_code_it_changes() {
        let names =
            |x: &Metrics| -> Vec<&str> { not_applicable(x).iter().map(|n| n.name).collect() };
        let mut x = m();
        assert_eq!(
            names(&x),
            ["RSQRT", "FTZ", "UNROLL", "PEEL", "VOTE", "VOLA", "SORT", "WARP"]
        );
        x.square_roots = 1;
        x.float_arithmetic = 10;
        x.loops = 1;
        x.shared_loads = 4;
        x.volatile_loads = 2;
        x.dependent_loads = 3;
        assert_eq!(names(&x), ["WARP"]);
        x.data_branches = 1;
        assert!(names(&x).is_empty());
        // SASS has no volatile modifier of its own: VOLA is not judged there.
        let mut y = Metrics {
            source: "sass",
            ..Default::default()
        };
        y.shared_stores = 1;
        assert_eq!(names(&y), ["RSQRT", "FTZ", "UNROLL", "PEEL"]);
    }

    #[test]
    fn ftz_needs_most_arithmetic_flushed() {
        let mut x = m();
        x.float_arithmetic = 10;
        x.ftz_arithmetic = 2;
        assert!(detect("k", &x, &[]).is_empty());
        x.ftz_arithmetic = 9;
        let d = detect("k", &x, &[]);
        assert_eq!(d[0].name, "FTZ");
        assert_eq!(d[0].optimization, Some(Optimization::Ftz));
    }

    #[test]
    fn approximate_sqrt_counts_as_rsqrt() {
        let mut x = m();
        x.sqrt_approx = 2;
        let d = detect("k", &x, &[]);
        assert_eq!(d[0].name, "RSQRT");
        assert!(d[0].evidence.contains("sqrt.approx"));
    }

    #[test]
    fn each_rule_names_its_evidence() {
        let mut x = m();
        x.rsqrt = 2;
        x.shared_loads = 3;
        x.constant_loads = 1;
        x.vote = 1;
        x.shuffle = 5;
        let d = detect("k", &x, &["coeffs".into()]);
        assert!(detect("k", &x, &["__cudart_i2opi_f".into()])
            .iter()
            .all(|d| d.name != "CONST"));
        let names: Vec<_> = d.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(names, ["RSQRT", "SHMEM", "CONST", "VOTE", "SHFL"]);
        assert!(d[2].evidence.contains("coeffs"));
        assert_eq!(d[4].optimization, None);
    }
}
