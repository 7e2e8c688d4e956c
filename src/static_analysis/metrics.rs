//! Per-kernel static metrics: the eight of STATuner (Gupta et al.: branch, load, integer and float
//! instructions as fractions of all instructions; loops; `__syncthreads`; registers per thread;
//! shared memory per block) and the counts that show optimizations (special functions,
//! shuffles, votes, atomics, local memory, user constant loads, shared loads and stores,
//! `.ftz` arithmetic, `rsqrt.approx`, volatile loads). Computed from PTX (the virtual ISA, the
//! nearest thing to STATuner's LLVM IR) or, for a bare cubin, from SASS.

use serde::Serialize;

use super::ptx::{PtxFunction, PtxInst};
use super::sass::{Resources, SassInst};

/// Instruction-mix metrics of one kernel, from one instruction stream (PTX or SASS).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Metrics {
    /// `ptx` or `sass`: which stream the counts come from.
    pub source: &'static str,
    pub instructions: u64,
    pub branch_fraction: f64,
    pub load_fraction: f64,
    pub int_fraction: f64,
    pub float_fraction: f64,
    pub loops: u64,
    pub syncthreads: u64,
    /// From ptxas or the cubin; absent when neither could be read.
    pub registers: Option<u32>,
    /// Static shared memory per block (bytes).
    pub shared_bytes: Option<u64>,
    pub special_function: u64,
    pub shuffle: u64,
    pub vote: u64,
    pub atomic: u64,
    /// Loads and stores to local memory (register spills, indexed arrays).
    pub local_memory: u64,
    /// Bytes spilled (stores + loads) as ptxas reports them.
    pub spill_bytes: Option<u64>,
    /// Loads from user `__constant__` data (not kernel parameters).
    pub constant_loads: u64,
    pub shared_loads: u64,
    pub shared_stores: u64,
    pub global_loads: u64,
    pub global_stores: u64,
    pub volatile_loads: u64,
    /// Float arithmetic carrying the flush-to-zero modifier (not SFU approximations, which
    /// are always `.ftz`).
    pub ftz_arithmetic: u64,
    /// Float arithmetic of any kind that could carry `.ftz` (the denominator of the above).
    pub float_arithmetic: u64,
    pub rsqrt: u64,
    /// `sqrt.approx` (only from -prec-sqrt=false or -use_fast_math, under which 1/sqrtf
    /// becomes `rsqrt.approx`).
    pub sqrt_approx: u64,
    /// Square roots of any kind: `sqrt.*` and `rsqrt.*` in PTX, `MUFU.RSQ` and `MUFU.SQRT` in
    /// SASS (IEEE `sqrtf` too): zero means RSQRT has nothing to replace.
    pub square_roots: u64,
    /// PTX only: global loads at an address computed from loaded data (indirect access, as in
    /// a tree), and conditional branches on loaded data (`dataflow::indirection`).
    pub dependent_loads: u64,
    pub data_branches: u64,
    /// PTX only: the most threads a block may have (`__launch_bounds__`), where it is set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_threads: Option<u32>,
    /// PTX only: the threads a block must have (`.reqntid`), where it is set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub required_threads: Option<u32>,
}

impl Metrics {
    /// Empty PTX metrics, for tests to fill in.
    #[cfg(test)]
    pub(crate) fn ptx_for_test() -> Metrics {
        Metrics {
            source: "ptx",
            ..Default::default()
        }
    }

    /// The eight STATuner features, in the paper's order.
    pub fn statuner_features(&self) -> [f64; 8] {
        [
            self.branch_fraction,
            self.load_fraction,
            self.loops as f64,
            self.syncthreads as f64,
            self.registers.unwrap_or(0) as f64,
            self.shared_bytes.unwrap_or(0) as f64,
            self.int_fraction,
            self.float_fraction,
        ]
    }

    /// Names of `statuner_features`.
    pub const STATUNER_NAMES: [&'static str; 8] = [
        "branch_fraction",
        "load_fraction",
        "loops",
        "syncthreads",
        "registers",
        "shared_bytes",
        "int_fraction",
        "float_fraction",
    ];

    /// Fills registers, shared memory and spills from ptxas or the cubin.
    pub fn with_resources(mut self, r: Option<&Resources>) -> Self {
        if let Some(r) = r {
            self.registers = Some(r.registers);
            self.shared_bytes = Some(r.shared_bytes);
            self.spill_bytes = Some(r.spill_store_bytes + r.spill_load_bytes);
        }
        self
    }

    fn finish(&mut self, branches: u64, loads: u64, ints: u64, floats: u64) {
        let n = self.instructions.max(1) as f64;
        self.branch_fraction = branches as f64 / n;
        self.load_fraction = loads as f64 / n;
        self.int_fraction = ints as f64 / n;
        self.float_fraction = floats as f64 / n;
    }
}

const PTX_ARITH: &[&str] = &[
    "add", "sub", "mul", "mad", "mul24", "mad24", "sad", "div", "rem", "abs", "neg", "min", "max",
    "fma", "rcp", "sqrt", "rsqrt", "sin", "cos", "lg2", "ex2", "tanh", "popc", "clz", "bfind",
    "brev", "bfe", "bfi", "shl", "shr", "and", "or", "xor", "not", "cnot", "lop3", "shf", "prmt",
    "dp4a", "dp2a", "setp", "set", "selp", "slct", "testp", "copysign", "cvt", "fns",
];
const PTX_SFU: &[&str] = &["sin", "cos", "ex2", "lg2", "tanh", "rsqrt"];

fn is_float_type(m: &str) -> bool {
    matches!(
        m,
        "f16" | "f16x2" | "bf16" | "bf16x2" | "f32" | "f64" | "tf32"
    )
}

fn is_int_type(m: &str) -> bool {
    let Some(first) = m.chars().next() else {
        return false;
    };
    matches!(first, 's' | 'u' | 'b') && matches!(&m[1..], "8" | "16" | "32" | "64")
}

fn ptx_space(i: &PtxInst, space: &str) -> bool {
    i.has(space) || i.opcode.contains(&format!(".{space}::"))
}

/// Metrics of a PTX kernel.
pub fn from_ptx(f: &PtxFunction) -> Metrics {
    let mut m = Metrics {
        source: "ptx",
        instructions: f.instructions.len() as u64,
        loops: f.loops() as u64,
        max_threads: f.max_threads,
        required_threads: f.required_threads,
        ..Default::default()
    };
    let (mut branches, mut loads, mut ints, mut floats) = (0, 0, 0, 0);
    for i in &f.instructions {
        let base = i.base();
        match base {
            "bra" | "brx" => branches += 1,
            "ld" | "ldu" if !i.has("param") => {
                loads += 1;
                if ptx_space(i, "shared") {
                    m.shared_loads += 1;
                } else if i.has("const") {
                    m.constant_loads += 1;
                } else if i.has("local") {
                    m.local_memory += 1;
                } else if i.has("global") {
                    m.global_loads += 1;
                }
                if i.has("volatile") {
                    m.volatile_loads += 1;
                }
            }
            "tex" | "tld4" | "suld" => loads += 1,
            "st" => {
                if ptx_space(i, "shared") {
                    m.shared_stores += 1;
                } else if i.has("local") {
                    m.local_memory += 1;
                } else if i.has("global") {
                    m.global_stores += 1;
                }
            }
            "bar" | "barrier" if !i.has("warp") => m.syncthreads += 1,
            "shfl" => m.shuffle += 1,
            "vote" => m.vote += 1,
            "atom" | "red" => m.atomic += 1,
            _ => {}
        }
        if PTX_ARITH.contains(&base) {
            let mods: Vec<&str> = i.opcode.split('.').skip(1).collect();
            if mods.iter().any(|x| is_float_type(x)) {
                floats += 1;
                if !i.has("approx") && !PTX_SFU.contains(&base) {
                    m.float_arithmetic += 1;
                    if i.has("ftz") {
                        m.ftz_arithmetic += 1;
                    }
                }
            } else if mods.iter().any(|x| is_int_type(x)) {
                ints += 1;
            }
            if PTX_SFU.contains(&base) || (i.has("approx") && matches!(base, "rcp" | "sqrt")) {
                m.special_function += 1;
            }
            if base == "rsqrt" {
                m.rsqrt += 1;
            }
            if base == "sqrt" && i.has("approx") {
                m.sqrt_approx += 1;
            }
            if matches!(base, "sqrt" | "rsqrt") {
                m.square_roots += 1;
            }
        }
    }
    let indirection = super::dataflow::indirection(f);
    m.dependent_loads = indirection.dependent_loads;
    m.data_branches = indirection.data_branches;
    m.finish(branches, loads, ints, floats);
    m
}

/// The constant banks that hold user `__constant__` data: those `cuobjdump -res-usage` lists
/// under `Common` other than bank 0 (parameters); bank 3 where that is unknown.
pub fn user_constant_banks(res_usage: &str) -> Vec<u32> {
    let mut banks = Vec::new();
    let mut in_common = false;
    for line in res_usage.lines() {
        let t = line.trim();
        if t.starts_with("Common") {
            in_common = true;
            continue;
        }
        if t.starts_with("Function") {
            in_common = false;
        }
        if in_common {
            for field in t.split_whitespace() {
                if let Some(rest) = field.strip_prefix("CONSTANT[") {
                    if let Some(n) = rest.split(']').next().and_then(|n| n.parse().ok()) {
                        if n != 0 {
                            banks.push(n);
                        }
                    }
                }
            }
        }
    }
    banks
}

fn references_bank(operands: &str, banks: &[u32]) -> bool {
    banks
        .iter()
        .any(|b| operands.contains(&format!("c[{b:#x}]")))
}

/// Metrics of a SASS function. `user_banks`: see [`user_constant_banks`].
pub fn from_sass(insts: &[SassInst], user_banks: &[u32]) -> Metrics {
    let mut m = Metrics {
        source: "sass",
        instructions: insts.len() as u64,
        ..Default::default()
    };
    let (mut branches, mut loads, mut ints, mut floats) = (0, 0, 0, 0);
    let mut targets: Vec<(usize, u64)> = Vec::new();
    for (idx, i) in insts.iter().enumerate() {
        let base = i.base();
        let mods: Vec<&str> = i.opcode.split('.').skip(1).collect();
        match base {
            "BRA" | "BRX" | "JMP" | "JMX" => {
                branches += 1;
                if let Some(t) = i
                    .operands
                    .split([' ', ','])
                    .find_map(|t| u64::from_str_radix(t.trim_start_matches("0x"), 16).ok())
                {
                    targets.push((idx, t));
                }
            }
            "LDG" | "LD" | "LDS" | "LDL" | "LDSM" | "TEX" | "TLD" | "TLD4" | "LDGSTS" => {
                loads += 1;
                match base {
                    "LDS" | "LDSM" => m.shared_loads += 1,
                    "LDL" => m.local_memory += 1,
                    "LDG" | "LD" => m.global_loads += 1,
                    _ => {}
                }
                if mods.contains(&"STRONG") && mods.contains(&"SYS") {
                    m.volatile_loads += 1;
                }
            }
            "STS" => m.shared_stores += 1,
            "STL" => m.local_memory += 1,
            "STG" | "ST" => m.global_stores += 1,
            "BAR" if !mods.contains(&"ARV") => m.syncthreads += 1,
            "SHFL" => m.shuffle += 1,
            // `VOTE.ANY R0, PT, PT` is the compiler reading the active mask, not a vote.
            "VOTE" | "VOTEU" if !i.operands.ends_with("PT, PT") => m.vote += 1,
            "ATOM" | "ATOMG" | "ATOMS" | "RED" | "REDG" | "REDS" => m.atomic += 1,
            "MUFU" => {
                m.special_function += 1;
                floats += 1;
                if mods.contains(&"RSQ") {
                    m.rsqrt += 1;
                }
                if mods.contains(&"RSQ") || mods.contains(&"SQRT") {
                    m.square_roots += 1;
                }
            }
            _ => {}
        }
        if references_bank(&i.operands, user_banks) {
            m.constant_loads += 1;
        }
        let first = base.chars().next().unwrap_or(' ');
        if base != "MUFU" && matches!(first, 'F' | 'D' | 'H') && base != "FLO" {
            floats += 1;
            if matches!(base, "FADD" | "FMUL" | "FFMA" | "FSETP" | "FMNMX") {
                m.float_arithmetic += 1;
                if mods.contains(&"FTZ") {
                    m.ftz_arithmetic += 1;
                }
            }
        } else if base.starts_with('I')
            || matches!(
                base,
                "LOP"
                    | "LOP3"
                    | "SHF"
                    | "SHL"
                    | "SHR"
                    | "LEA"
                    | "PRMT"
                    | "POPC"
                    | "FLO"
                    | "BREV"
                    | "BMSK"
                    | "SGXT"
                    | "XMAD"
                    | "SEL"
            )
        {
            ints += 1;
        }
    }
    // Loops: distinct targets of backward branches.
    let mut heads: Vec<u64> = Vec::new();
    for &(idx, t) in &targets {
        if t <= insts[idx].address && !heads.contains(&t) {
            heads.push(t);
        }
    }
    m.loops = heads.len() as u64;
    m.finish(branches, loads, ints, floats);
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::static_analysis::ptx::parse;

    #[test]
    fn ptx_mix_is_counted() {
        let m = parse(
            ".visible .entry k(.param .u64 p)\n{\n ld.param.u64 %rd1, [p];\n$L1:\n ld.shared.f32 %f1, [%r1];\n ld.const.f32 %f2, [c];\n add.ftz.f32 %f3, %f1, %f2;\n ex2.approx.ftz.f32 %f4, %f3;\n add.s32 %r2, %r2, 1;\n bar.sync 0;\n shfl.sync.down.b32 %r3, %r2, 1, 31, -1;\n vote.sync.all.pred %p2, %p1, -1;\n ld.volatile.global.f32 %f5, [%rd1];\n @%p1 bra $L1;\n}\n",
        );
        let k = m.kernels().next().unwrap();
        let x = from_ptx(k);
        assert_eq!(x.instructions, 11);
        assert_eq!(
            (x.shared_loads, x.constant_loads, x.volatile_loads),
            (1, 1, 1)
        );
        assert_eq!((x.ftz_arithmetic, x.float_arithmetic), (1, 1));
        assert_eq!(
            (x.special_function, x.shuffle, x.vote, x.syncthreads),
            (1, 1, 1, 1)
        );
        assert_eq!(x.loops, 1);
        assert!((x.branch_fraction - 1.0 / 11.0).abs() < 1e-12);
        assert!((x.load_fraction - 3.0 / 11.0).abs() < 1e-12);
    }

    #[test]
    fn user_banks_come_from_common() {
        let t = "Resource usage:\n Common:\n  GLOBAL:24 CONSTANT[3]:64\n Function k:\n  REG:27 CONSTANT[0]:548 CONSTANT[2]:8\n";
        assert_eq!(user_constant_banks(t), [3]);
    }
}
