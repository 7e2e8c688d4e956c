//! Readers for what the machine-code tools print: `cuobjdump -sass` (SASS instructions per
//! function), `cuobjdump -res-usage` and `ptxas -v` (registers, shared memory, stack and
//! spills per function).

use std::collections::BTreeMap;

use serde::Serialize;

/// One SASS instruction: `@!P0 LDG.E.CONSTANT R3, [R4.64] ;` has opcode `LDG.E.CONSTANT`.
#[derive(Debug, Clone, PartialEq)]
pub struct SassInst {
    /// Byte offset in the function, as cuobjdump prints it (`/*0150*/`).
    pub address: u64,
    pub opcode: String,
    pub operands: String,
}

impl SassInst {
    /// The opcode without modifiers (`LDG`).
    pub fn base(&self) -> &str {
        self.opcode.split('.').next().unwrap_or("")
    }
}

/// Parses `cuobjdump -sass` text into function name -> instructions.
pub fn parse_sass(text: &str) -> BTreeMap<String, Vec<SassInst>> {
    let mut out: BTreeMap<String, Vec<SassInst>> = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        let t = line.trim();
        if let Some(name) = t.strip_prefix("Function : ") {
            let name = name.trim().to_string();
            out.entry(name.clone()).or_default();
            current = Some(name);
            continue;
        }
        let Some(name) = current.as_ref() else {
            continue;
        };
        // `/*0040*/   ULDC.64 UR10, c[0x0][0x208] ;   /* 0x... */`
        let Some(rest) = t.strip_prefix("/*") else {
            continue;
        };
        let Some((addr, rest)) = rest.split_once("*/") else {
            continue;
        };
        if !addr.chars().all(|c| c.is_ascii_hexdigit()) {
            continue;
        }
        let stmt = rest.split(';').next().unwrap_or("").trim();
        // Never executed: the compiler's padding guarded by the false predicate.
        if stmt.starts_with("@!PT ") {
            continue;
        }
        let stmt = match stmt.strip_prefix('@') {
            Some(p) => p.split_once(char::is_whitespace).map_or("", |x| x.1).trim(),
            None => stmt,
        };
        if stmt.is_empty() {
            continue;
        }
        let (opcode, operands) = stmt.split_once(char::is_whitespace).unwrap_or((stmt, ""));
        let address = u64::from_str_radix(addr, 16).unwrap_or(0);
        // Padding after the kernel's exit: NOPs and the branch to itself that ends the code.
        let to_itself = opcode == "BRA"
            && operands
                .trim()
                .strip_prefix("0x")
                .and_then(|t| u64::from_str_radix(t, 16).ok())
                == Some(address);
        if opcode == "NOP" || to_itself {
            continue;
        }
        if let Some(v) = out.get_mut(name) {
            v.push(SassInst {
                address,
                opcode: opcode.to_string(),
                operands: operands.trim().to_string(),
            });
        }
    }
    out
}

/// Resources of one compiled function.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Resources {
    pub registers: u32,
    /// Static shared memory per block in bytes.
    pub shared_bytes: u64,
    pub stack_bytes: u64,
    pub spill_store_bytes: u64,
    pub spill_load_bytes: u64,
    /// Constant bank 0 bytes (kernel parameters and compiler constants).
    pub cmem0_bytes: u64,
}

fn number_before(text: &str, unit: &str) -> Option<u64> {
    let i = text.find(unit)?;
    text[..i].split_whitespace().last()?.parse().ok()
}

/// Parses `ptxas -v` output (nvcc `-Xptxas -v` stderr) into function name -> resources.
pub fn parse_ptxas_info(text: &str) -> BTreeMap<String, Resources> {
    let mut out: BTreeMap<String, Resources> = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        let t = line.trim();
        let quoted = t.split('\'').nth(1);
        if t.contains("Compiling entry function") || t.contains("Function properties for") {
            let name = quoted
                .map(str::to_string)
                .or_else(|| t.rsplit(' ').next().map(str::to_string));
            if let Some(n) = name {
                out.entry(n.clone()).or_default();
                current = Some(n);
            }
            continue;
        }
        let Some(r) = current.as_ref().and_then(|n| out.get_mut(n)) else {
            continue;
        };
        if t.contains("bytes stack frame") {
            r.stack_bytes = number_before(t, "bytes stack frame").unwrap_or(0);
            r.spill_store_bytes = number_before(t, "bytes spill stores").unwrap_or(0);
            r.spill_load_bytes = number_before(t, "bytes spill loads").unwrap_or(0);
        } else if t.contains("Used ") && t.contains("registers") {
            r.registers = number_before(t, "registers").unwrap_or(0) as u32;
            r.shared_bytes = number_before(t, "bytes smem").unwrap_or(0);
            r.cmem0_bytes = number_before(t, "bytes cmem[0]").unwrap_or(0);
        }
    }
    out
}

/// Parses `cuobjdump -res-usage` into function name -> resources.
pub fn parse_res_usage(text: &str) -> BTreeMap<String, Resources> {
    let mut out = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        let t = line.trim();
        if let Some(name) = t.strip_prefix("Function ") {
            current = Some(name.trim_end_matches(':').trim().to_string());
            continue;
        }
        let Some(name) = current.take() else {
            continue;
        };
        let mut r = Resources::default();
        for field in t.split_whitespace() {
            let Some((k, v)) = field.split_once(':') else {
                continue;
            };
            let v: u64 = v.parse().unwrap_or(0);
            match k {
                "REG" => r.registers = v as u32,
                "SHARED" => r.shared_bytes = v,
                "STACK" => r.stack_bytes = v,
                "CONSTANT[0]" => r.cmem0_bytes = v,
                _ => {}
            }
        }
        out.insert(name, r);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_sass_lines() {
        let text = "\t\tFunction : _Z1kPf\n\t.headerflags @\"EF_CUDA_SM90\"\n        /*0000*/                   LDC R1, c[0x0][0x28] ;   /* 0x00000a00ff017b82 */\n                                                                                               /* 0x000e220000000800 */\n        /*00c0*/              @!P0 LDG.E.CONSTANT R3, [R4.64] ;  /* 0x0000000a04038981 */\n";
        let f = parse_sass(text);
        let k = &f["_Z1kPf"];
        assert_eq!(k.len(), 2);
        assert_eq!(k[0].opcode, "LDC");
        assert_eq!(k[0].operands, "R1, c[0x0][0x28]");
        assert_eq!(k[1].base(), "LDG");
    }

    /// The code after EXIT (the branch to itself, NOPs) and `@!PT` instructions never run
    /// and are not counted (a saxpy had shown a loop and a shuffle it does not have).
    #[test]
    fn padding_that_never_runs_is_left_out() {
        let text = "\t\tFunction : _Z1kPf\n        /*0000*/   LDC R1, c[0x0][0x28] ;\n        /*0010*/   @!PT SHFL.IDX PT, R2, R3, RZ, RZ ;\n        /*0020*/   EXIT ;\n        /*0030*/   BRA 0x30 ;\n        /*0040*/   NOP ;\n        /*0050*/   @P0 BRA 0x0 ;\n";
        let k = &parse_sass(text)["_Z1kPf"];
        let ops: Vec<&str> = k.iter().map(|i| i.opcode.as_str()).collect();
        assert_eq!(ops, ["LDC", "EXIT", "BRA"]);
    }

    #[test]
    fn reads_ptxas_and_res_usage() {
        let p = "ptxas info    : 24 bytes gmem\nptxas info    : Compiling entry function '_Z1kPKfPfi' for 'sm_90'\nptxas info    : Function properties for _Z1kPKfPfi\n    160 bytes stack frame, 8 bytes spill stores, 4 bytes spill loads\nptxas info    : Used 27 registers, 1024 bytes smem, 356 bytes cmem[0]\n";
        let r = &parse_ptxas_info(p)["_Z1kPKfPfi"];
        assert_eq!(
            (
                r.registers,
                r.shared_bytes,
                r.stack_bytes,
                r.spill_store_bytes
            ),
            (27, 1024, 160, 8)
        );
        assert_eq!(r.cmem0_bytes, 356);
        let u = "Resource usage:\n Common:\n  GLOBAL:24 CONSTANT[3]:64\n Function _Z1kPKfPfi:\n  REG:27 STACK:160 SHARED:2048 LOCAL:0 CONSTANT[0]:548 TEXTURE:0\n";
        let r = &parse_res_usage(u)["_Z1kPKfPfi"];
        assert_eq!(
            (r.registers, r.shared_bytes, r.stack_bytes),
            (27, 2048, 160)
        );
    }
}
