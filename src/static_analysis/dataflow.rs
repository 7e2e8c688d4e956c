//! Where a PTX kernel's addresses and branches depend on data it loaded: the code that BH's
//! SORT (bodies reordered so that a warp's threads walk nearby tree nodes) and WARP (a warp
//! walks the tree together, so its threads no longer diverge) change. A load whose address was
//! computed from a loaded value is an indirect access, as in a tree or a neighbour list; a
//! branch whose condition was computed from a loaded value is data-dependent control flow.
//! A matrix multiply has neither: its addresses and loop bounds come from thread indices and
//! parameters only.
//!
//! Taint analysis over virtual registers: every load (but `ld.param`) and atomic result is
//! tainted, taint flows from an instruction's sources to its destinations, and the pass
//! repeats until nothing changes, so values carried around a loop (`node = child[node]`) are
//! followed.

use std::collections::HashSet;

use super::ptx::{PtxFunction, PtxInst};

/// Counts of one kernel's data-dependent accesses and branches.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Indirection {
    /// Global (or generic) loads whose address depends on a loaded value.
    pub dependent_loads: u64,
    /// Conditional branches whose predicate depends on a loaded value.
    pub data_branches: u64,
}

/// The virtual registers named in `text` (`%rd5`, `%f1`); special registers such as
/// `%tid.x` come out as `%tid`, which nothing taints.
fn registers(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let start = i;
            i += 1;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            if i > start + 1 {
                out.push(&text[start..i]);
            }
        } else {
            i += 1;
        }
    }
    out
}

/// The first operand (a destination, `{...}` for vectors) and the rest.
fn split_destination(operands: &str) -> (&str, &str) {
    let s = operands.trim();
    let end = if s.starts_with('{') {
        s.find('}').map_or(s.len(), |e| e + 1)
    } else {
        s.find(',').unwrap_or(s.len())
    };
    (&s[..end], s[end..].trim_start_matches(','))
}

/// Instructions that write no register.
fn writes_nothing(base: &str) -> bool {
    matches!(
        base,
        "st" | "bra"
            | "brx"
            | "bar"
            | "barrier"
            | "ret"
            | "exit"
            | "red"
            | "membar"
            | "fence"
            | "call"
            | "prefetch"
            | "trap"
    )
}

fn is_indirect_candidate(i: &PtxInst) -> bool {
    let spaces = ["shared", "local", "const", "param", "tex"];
    matches!(i.base(), "ld" | "ldu") && !spaces.iter().any(|s| i.has(s))
}

/// The kernel's data-dependent loads and branches.
pub fn indirection(f: &PtxFunction) -> Indirection {
    let mut tainted: HashSet<&str> = HashSet::new();
    // Each pass follows taint one more time around the loops; chains of loop-carried values
    // settle within a few passes, and 16 bounds the work on odd code.
    for _ in 0..16 {
        let before = tainted.len();
        for i in &f.instructions {
            let base = i.base();
            if writes_nothing(base) {
                continue;
            }
            let (dest, sources) = split_destination(&i.operands);
            let loads = (matches!(base, "ld" | "ldu") && !i.has("param")) || base == "atom";
            if loads || registers(sources).iter().any(|r| tainted.contains(r)) {
                tainted.extend(registers(dest));
            }
        }
        if tainted.len() == before {
            break;
        }
    }
    let mut out = Indirection::default();
    for i in &f.instructions {
        if is_indirect_candidate(i) {
            let (_, address) = split_destination(&i.operands);
            if registers(address).iter().any(|r| tainted.contains(r)) {
                out.dependent_loads += 1;
            }
        }
        if let (true, Some(p)) = (i.base() == "bra", i.guard.as_deref()) {
            if tainted.contains(p.trim_start_matches('!')) {
                out.data_branches += 1;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::static_analysis::ptx::parse;

    fn kernel(body: &str) -> Indirection {
        let text = format!(".visible .entry k(\n.param .u64 k_param_0\n)\n{{\n{body}\n}}\n");
        let m = parse(&text);
        let k = m.kernels().next().map(indirection);
        k.expect("one kernel")
    }

    #[test]
    fn a_tree_walk_has_indirect_loads_and_data_dependent_branches() {
        // node = child[node] until node < 0: the address and the exit test come from loads.
        let k = kernel(
            "ld.param.u64 %rd1, [k_param_0];\n\
             mov.u32 %r1, 0;\n\
             $L__BB0_1:\n\
             mul.wide.s32 %rd2, %r1, 4;\n\
             add.s64 %rd3, %rd1, %rd2;\n\
             ld.global.u32 %r1, [%rd3];\n\
             setp.gt.s32 %p1, %r1, -1;\n\
             @%p1 bra $L__BB0_1;\n\
             ret;",
        );
        assert_eq!(k.dependent_loads, 1);
        assert_eq!(k.data_branches, 1);
    }

    #[test]
    fn a_matrix_multiply_loop_has_neither() {
        // sum += a[row * n + k] * b[k * n + col] for k < n: addresses and the loop test come
        // from thread indices, the counter and parameters.
        let k = kernel(
            "ld.param.u64 %rd1, [k_param_0];\n\
             mov.u32 %r1, %tid.x;\n\
             mov.u32 %r2, 0;\n\
             mov.f32 %f1, 0f00000000;\n\
             $L__BB0_1:\n\
             add.s32 %r3, %r1, %r2;\n\
             mul.wide.s32 %rd2, %r3, 4;\n\
             add.s64 %rd3, %rd1, %rd2;\n\
             ld.global.nc.f32 %f2, [%rd3];\n\
             ld.global.nc.f32 %f3, [%rd3+4];\n\
             fma.rn.f32 %f1, %f2, %f3, %f1;\n\
             add.s32 %r2, %r2, 1;\n\
             setp.lt.s32 %p1, %r2, 64;\n\
             @%p1 bra $L__BB0_1;\n\
             st.global.f32 [%rd1], %f1;\n\
             ret;",
        );
        assert_eq!(k, Indirection::default());
    }

    #[test]
    fn registers_and_destinations_are_read_from_operands() {
        assert_eq!(registers("{%f1, %f2}, [%rd4+8]"), ["%f1", "%f2", "%rd4"]);
        assert_eq!(registers("%r1, %tid.x"), ["%r1", "%tid"]);
        assert_eq!(split_destination("{%f1, %f2}, [%rd4]").0, "{%f1, %f2}");
        assert_eq!(split_destination("%p1|%p2, %r1, 3").0, "%p1|%p2");
    }
}
