//! A reader for PTX text, just deep enough for instruction-mix metrics: the module's
//! `.const` and `.shared` globals, and for every `.entry` (kernel) and `.func` its
//! instructions with their full opcode (`ld.global.nc.f32`), labels, and declared
//! `.shared` / `.local` bytes.

use std::collections::HashMap;

/// One instruction: `@%p1 bra $L__BB0_2;` has opcode `bra`, operands `$L__BB0_2`.
#[derive(Debug, Clone, PartialEq)]
pub struct PtxInst {
    /// The opcode with its modifiers, e.g. `ld.global.nc.f32`.
    pub opcode: String,
    pub operands: String,
    /// The guard predicate of a predicated instruction (`%p1`, or `!%p1` when negated).
    pub guard: Option<String>,
}

impl PtxInst {
    /// The opcode without modifiers (`ld`).
    pub fn base(&self) -> &str {
        self.opcode.split('.').next().unwrap_or("")
    }

    /// Whether the opcode carries modifier `m` (`has("ftz")`).
    pub fn has(&self, m: &str) -> bool {
        self.opcode.split('.').skip(1).any(|x| x == m)
    }
}

/// A kernel (`.entry`) or device function (`.func`).
#[derive(Debug, Clone, Default)]
pub struct PtxFunction {
    pub name: String,
    pub is_entry: bool,
    pub instructions: Vec<PtxInst>,
    /// Label name -> index of the instruction that follows it.
    pub labels: HashMap<String, usize>,
    /// Bytes of `.shared` declared in the body (static shared memory).
    pub shared_bytes: u64,
    /// Bytes of `.local` declared in the body (stack frame, spilled or indexed arrays).
    pub local_bytes: u64,
    /// The most threads a block may have (`__launch_bounds__`: `.maxntid` or `.reqntid`).
    pub max_threads: Option<u32>,
    /// The threads a block must have (`.reqntid`, which hand-written and Triton's PTX set):
    /// a launch of any other shape fails.
    pub required_threads: Option<u32>,
}

impl PtxFunction {
    /// Loops, counted as distinct labels that some branch jumps back to.
    pub fn loops(&self) -> usize {
        let mut heads: Vec<&str> = Vec::new();
        for (i, inst) in self.instructions.iter().enumerate() {
            if inst.base() != "bra" {
                continue;
            }
            let target = inst.operands.trim();
            if let Some(&at) = self.labels.get(target) {
                if at <= i && !heads.contains(&target) {
                    heads.push(target);
                }
            }
        }
        heads.len()
    }
}

/// A parsed PTX module.
#[derive(Debug, Clone, Default)]
pub struct PtxModule {
    pub target: String,
    /// Names of module-level `.const` variables (user `__constant__` data).
    pub const_symbols: Vec<String>,
    /// Module-level `.shared` variables (bytes), e.g. `extern __shared__` arrays.
    pub shared_symbols: Vec<(String, u64)>,
    pub functions: Vec<PtxFunction>,
}

impl PtxModule {
    /// The kernels (`.entry` functions).
    pub fn kernels(&self) -> impl Iterator<Item = &PtxFunction> {
        self.functions.iter().filter(|f| f.is_entry)
    }
}

fn strip_comment(line: &str) -> &str {
    match line.find("//") {
        Some(i) => &line[..i],
        None => line,
    }
}

/// Bytes of a declaration such as `.shared .align 4 .b8 name[1024];` or `.f32 x[3][4]`.
fn declared_bytes(decl: &str) -> u64 {
    let elem: u64 = decl
        .split_whitespace()
        .find_map(|t| {
            let t = t.strip_prefix('.')?;
            let bits: u64 = t
                .trim_start_matches(|c: char| c.is_ascii_alphabetic())
                .parse()
                .ok()?;
            matches!(t.chars().next(), Some('b' | 'u' | 's' | 'f')).then_some(bits / 8)
        })
        .unwrap_or(1)
        .max(1);
    let mut count = 1u64;
    let mut rest = decl;
    while let Some(open) = rest.find('[') {
        let Some(close) = rest[open..].find(']') else {
            break;
        };
        let inner = rest[open + 1..open + close].trim();
        // `name[]` (extern, dynamic) declares no static bytes.
        count = count.saturating_mul(inner.parse().unwrap_or(0));
        rest = &rest[open + close + 1..];
    }
    elem.saturating_mul(count)
}

/// The symbol declared by `.const .align 4 .b8 coeffs[64];` (`coeffs`).
fn declared_name(decl: &str) -> Option<String> {
    let last = decl
        .trim_end_matches(';')
        .split('=')
        .next()?
        .split_whitespace()
        .last()?;
    let name = last.split('[').next()?;
    (!name.is_empty() && !name.starts_with('.')).then(|| name.to_string())
}

/// The product of `.maxntid X, Y, Z` (or `.reqntid`) in a kernel's header: the most threads
/// its blocks may have, as `__launch_bounds__` set it.
fn launch_bound(header: &str) -> Option<u32> {
    threads_of(header, ".maxntid").or_else(|| threads_of(header, ".reqntid"))
}

/// The product of the dimensions a kernel header's `directive` (`.maxntid`, `.reqntid`)
/// gives, where it has that directive.
fn threads_of(header: &str, directive: &str) -> Option<u32> {
    let at = header.find(directive)?;
    let dims = header[at + directive.len()..].split(['{', '.']).next()?;
    dims.split(',')
        .map(|d| d.trim().parse::<u32>().ok())
        .try_fold(1u32, |product, d| product.checked_mul(d?))
}

/// The function name in `.visible .entry _Z1kPf(` or `.func (.param .b32 r) foo(`.
fn function_name(header: &str) -> Option<String> {
    let after = header
        .split_once(".entry")
        .or_else(|| header.split_once(".func"))?
        .1;
    // Skip a return-value list `(.param ...)` of a .func.
    let after = after.trim_start();
    let after = if after.starts_with('(') {
        &after[after.find(')')? + 1..]
    } else {
        after
    };
    let name: String = after
        .trim_start()
        .chars()
        .take_while(|c| c.is_alphanumeric() || matches!(c, '_' | '$' | '.'))
        .collect();
    (!name.is_empty()).then_some(name)
}

fn parse_instruction(stmt: &str) -> Option<PtxInst> {
    let mut s = stmt.trim();
    let mut guard = None;
    if let Some(rest) = s.strip_prefix('@') {
        let (p, after) = rest.split_once(char::is_whitespace)?;
        guard = Some(p.to_string());
        s = after.trim_start();
    }
    let (opcode, operands) = match s.split_once(char::is_whitespace) {
        Some((o, rest)) => (o, rest.trim()),
        None => (s, ""),
    };
    if opcode.is_empty() || !opcode.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return None;
    }
    Some(PtxInst {
        opcode: opcode.to_string(),
        operands: operands.to_string(),
        guard,
    })
}

/// Parses PTX text. Unknown lines are skipped: the reader never fails, it only sees less.
pub fn parse(text: &str) -> PtxModule {
    let mut module = PtxModule::default();
    let mut current: Option<PtxFunction> = None;
    let mut header = String::new();
    let mut depth = 0usize;
    for raw in text.lines() {
        let line = strip_comment(raw).trim();
        if line.is_empty() {
            continue;
        }
        if current.is_none() {
            if line.starts_with(".target") {
                module.target = line.trim_start_matches(".target").trim().to_string();
                continue;
            }
            if header.is_empty() && (line.contains(".entry") || line.contains(".func")) {
                header = line.to_string();
            } else if !header.is_empty() {
                header.push(' ');
                header.push_str(line);
            } else {
                let words: Vec<&str> = line.split_whitespace().collect();
                if words.contains(&".const") {
                    if let Some(n) = declared_name(line) {
                        module.const_symbols.push(n);
                    }
                } else if words.contains(&".shared") {
                    if let Some(n) = declared_name(line) {
                        module.shared_symbols.push((n, declared_bytes(line)));
                    }
                }
                continue;
            }
            if header.trim_end().ends_with(';') {
                header.clear(); // a prototype, no body
                continue;
            }
            if let Some(i) = header.find('{') {
                let name = function_name(&header).unwrap_or_default();
                current = Some(PtxFunction {
                    name,
                    is_entry: header.contains(".entry"),
                    max_threads: launch_bound(&header),
                    required_threads: threads_of(&header, ".reqntid"),
                    ..Default::default()
                });
                depth = 1;
                let rest = header[i + 1..].to_string();
                header.clear();
                if rest.trim().is_empty() {
                    continue;
                }
            }
            continue;
        }
        let Some(f) = current.as_mut() else { continue };
        for stmt in line.split_inclusive(';') {
            let stmt = stmt.trim();
            let opens = stmt.matches('{').count();
            let closes = stmt.matches('}').count();
            depth = (depth + opens).saturating_sub(closes);
            let body = stmt
                .trim_matches(|c| c == '{' || c == '}' || c == ';')
                .trim();
            if let Some(label) = body.strip_suffix(':') {
                f.labels
                    .insert(label.trim().to_string(), f.instructions.len());
            } else if body.starts_with('.') {
                let words: Vec<&str> = body.split_whitespace().collect();
                if words.contains(&".shared") {
                    f.shared_bytes += declared_bytes(body);
                } else if words.contains(&".local") {
                    f.local_bytes += declared_bytes(body);
                }
            } else if let Some(inst) = parse_instruction(body) {
                f.instructions.push(inst);
            }
        }
        if depth == 0 {
            if let Some(f) = current.take() {
                module.functions.push(f);
            }
        }
    }
    module
}

#[cfg(test)]
mod tests {
    use super::*;

    const PTX: &str = r#"
.version 7.8
.target sm_90
.address_size 64
.const .align 4 .b8 coeffs[64];
.extern .shared .align 4 .b8 dyn[];

.visible .entry _Z1kPf(
	.param .u64 _Z1kPf_param_0
)
{
	.reg .pred 	%p<3>;
	.shared .align 4 .b8 _ZZ1kPfE1s[1024];
	ld.param.u64 	%rd1, [_Z1kPf_param_0];
$L__BB0_1:
	ld.const.f32 	%f1, [coeffs];
	add.ftz.f32 	%f2, %f1, %f1; // comment
	@%p1 bra 	$L__BB0_1;
	{ .reg .b32 tmp; mov.b32 tmp, 0; }
	ret;
}
"#;

    #[test]
    fn launch_bounds_are_the_product_of_maxntid_or_reqntid() {
        assert_eq!(
            launch_bound(".entry k( .param .u64 p ) .maxntid 64, 1, 1 {"),
            Some(64)
        );
        assert_eq!(
            launch_bound(".entry k() .reqntid 16, 8, 2 .minnctapersm 2 {"),
            Some(256)
        );
        assert_eq!(launch_bound(".entry k() {"), None);
        let required = |header: &str| {
            let text = format!("{header}\nret;\n}}\n");
            parse(&text).functions[0].required_threads
        };
        assert_eq!(
            required(".visible .entry k() .reqntid 32, 4, 1 {"),
            Some(128)
        );
        assert_eq!(required(".visible .entry k() .maxntid 32, 4, 1 {"), None);
        assert_eq!(
            required(".visible .entry k() .maxntid 256, 1, 1 .reqntid 64, 1, 1 {"),
            Some(64)
        );
        assert_eq!(launch_bound(".entry k() .maxntid x {"), None);
    }

    #[test]
    fn reads_kernels_constants_shared_and_loops() {
        let m = parse(PTX);
        assert_eq!(m.target, "sm_90");
        assert_eq!(m.const_symbols, ["coeffs"]);
        assert_eq!(m.shared_symbols, [("dyn".to_string(), 0)]);
        let k: Vec<_> = m.kernels().collect();
        assert_eq!(k.len(), 1);
        assert_eq!(k[0].name, "_Z1kPf");
        assert_eq!(k[0].shared_bytes, 1024);
        let ops: Vec<_> = k[0]
            .instructions
            .iter()
            .map(|i| i.opcode.as_str())
            .collect();
        assert_eq!(
            ops,
            [
                "ld.param.u64",
                "ld.const.f32",
                "add.ftz.f32",
                "bra",
                "mov.b32",
                "ret"
            ]
        );
        assert_eq!(k[0].instructions[3].guard.as_deref(), Some("%p1"));
        assert!(k[0].instructions[2].has("ftz"));
        assert_eq!(k[0].loops(), 1);
    }

    #[test]
    fn declared_bytes_handles_types_and_dimensions() {
        assert_eq!(declared_bytes(".shared .align 4 .f32 a[16][8];"), 512);
        assert_eq!(
            declared_bytes(".local .align 8 .b8 __local_depot0[160];"),
            160
        );
        assert_eq!(declared_bytes(".shared .b8 d[];"), 0);
    }
}
