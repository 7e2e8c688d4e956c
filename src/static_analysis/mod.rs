//! Static features of compiled CUDA code (STATuner, Gupta et al.): per-kernel instruction-mix
//! metrics from PTX and SASS, the optimizations one binary shows, the occupancy calculator,
//! and block-size prediction. Sits beside `profile`; never imports `model`.
//!
//! Input is a `.cu` file (compiled with nvcc to PTX and a cubin), a `.ptx` file (assembled
//! with ptxas where it exists, for registers and shared memory) or a `.cubin` (read with
//! cuobjdump: SASS and resource usage only).

pub mod blocksize;
pub mod blocksize_build;
pub mod dataflow;
pub mod detect;
mod facts;
pub mod metrics;
pub mod nvcc;
pub mod occupancy;
pub mod occupancy_step;
pub mod ptx;
pub mod sass;
pub mod version_diff;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::error::{Error, Result};
pub use detect::{Detected, NotApplicable, NotDetectable};
pub use facts::{optimization_facts, optimization_facts_for};
pub use metrics::Metrics;
pub use nvcc::CompileOptions;
pub use version_diff::Difference;

/// What `advise static` reports for one kernel.
#[derive(Debug, Clone, Serialize)]
pub struct KernelReport {
    /// The symbol (mangled for C++ kernels).
    pub name: String,
    /// The source-level name (`_Z6nbodyPf` -> `nbody`).
    pub short_name: String,
    /// From PTX where there is PTX, else from SASS.
    pub metrics: Metrics,
    /// From SASS, where cuobjdump could read the cubin.
    pub sass: Option<Metrics>,
    /// NB/BH optimizations the kernel shows.
    pub applied: Vec<Detected>,
    /// Other features worth knowing (warp shuffles).
    pub other: Vec<Detected>,
    /// NB/BH optimizations the kernel gives nothing to apply to (RSQRT without a square root).
    pub not_applicable: Vec<NotApplicable>,
}

/// The analysis of one file.
#[derive(Debug, Clone, Serialize)]
pub struct Analysis {
    pub file: PathBuf,
    pub arch: String,
    pub kernels: Vec<KernelReport>,
    pub not_detectable: Vec<NotDetectable>,
    /// What could not be done (no cuobjdump, no ptxas, ...).
    pub notes: Vec<String>,
}

/// The identifier inside an Itanium-mangled name (`_Z1kPKfPfi` -> `k`,
/// `_ZN2ns6kernelEv` -> `ns::kernel`); other names are returned unchanged.
pub fn short_name(symbol: &str) -> String {
    let Some(rest) = symbol.strip_prefix("_Z") else {
        return symbol.to_string();
    };
    let (nested, mut rest) = match rest.strip_prefix('N') {
        Some(r) => (true, r),
        None => (false, rest),
    };
    let mut parts = Vec::new();
    loop {
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        let Ok(len) = digits.parse::<usize>() else {
            break;
        };
        let start = digits.len();
        let Some(part) = rest.get(start..start + len) else {
            break;
        };
        parts.push(part.to_string());
        rest = &rest[start + len..];
        if !nested {
            break;
        }
    }
    if parts.is_empty() {
        symbol.to_string()
    } else {
        parts.join("::")
    }
}

fn kind_of(path: &Path) -> Result<&'static str> {
    match path.extension().and_then(|e| e.to_str()) {
        Some("cu" | "cuh") => Ok("cu"),
        Some("ptx") => Ok("ptx"),
        Some("cubin") => Ok("cubin"),
        _ => Err(Error::Usage(format!(
            "{}: expected a .cu, .ptx or .cubin file",
            path.display()
        ))),
    }
}

fn build_report(
    name: &str,
    metrics: Metrics,
    sass: Option<Metrics>,
    const_symbols: &[String],
) -> KernelReport {
    let (applied, other) = detect::detect(name, &metrics, const_symbols)
        .into_iter()
        .partition(|d| d.optimization.is_some());
    KernelReport {
        name: name.to_string(),
        short_name: short_name(name),
        not_applicable: detect::not_applicable(&metrics),
        metrics,
        sass,
        applied,
        other,
    }
}

/// The architecture cuobjdump's SASS listing names (`code for sm_90`), where it names one.
fn sass_arch(sass: &str) -> Option<String> {
    let at = sass.find("code for sm_")? + "code for ".len();
    let name: String = sass[at..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    crate::tool::sm_arch(&name)
}

/// Why a file may compile to no kernel, where its source says: a template `__global__`
/// function is compiled only where it is instantiated.
fn no_kernel_hint(path: &Path, kind: &str) -> &'static str {
    let text = match kind {
        "cu" => std::fs::read_to_string(path).unwrap_or_default(),
        _ => return "",
    };
    if text.contains("template") && text.contains("__global__") {
        ", or only templates nothing instantiates: a template kernel is compiled only where \
         it is instantiated, so add an explicit instantiation, e.g. `template __global__ void \
         k<float>(float *, int);`"
    } else {
        ""
    }
}

/// Analyzes a `.cu`, `.ptx` or `.cubin` file; one that holds no kernel is an error.
pub fn analyze(path: &Path, opts: &CompileOptions) -> Result<Analysis> {
    let kind = kind_of(path)?;
    crate::dataset::table::require_file(path, "a .cu, .ptx or .cubin file")?;
    let mut notes = Vec::new();
    let mut resources = BTreeMap::new();
    let mut sass_text = None;
    let mut ptx_text = None;
    // A .ptx file's module, parsed once for its target and its kernels.
    let mut ptx_module = None;
    // Keeps temporary cubins alive until cuobjdump has read them.
    let mut _keep: Option<nvcc::TempDir> = None;
    // The architecture the report is for: --arch for a .cu, the PTX's own target for a .ptx
    // (ptxas assembles for it), the SASS's for a .cubin.
    let mut arch_used = opts.arch.clone();
    let cubin: Option<PathBuf> = match kind {
        "cu" => {
            let c = nvcc::compile(path, opts)?;
            resources = sass::parse_ptxas_info(&c.ptxas_info);
            ptx_text = Some(c.ptx);
            let p = c.cubin.clone();
            _keep = Some(c._dir);
            Some(p)
        }
        "ptx" => {
            let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
            let text = crate::profile::text::read_text_expecting(path, file, "PTX (text)")?;
            if !text.contains(".version") || !text.contains(".target") {
                return Err(Error::format(
                    path,
                    "not PTX: no `.version` or `.target` directive (PTX from `nvcc -ptx` \
                     starts with both)",
                ));
            }
            let module = ptx::parse(&text);
            let arch = Some(
                module
                    .target
                    .split(',')
                    .next()
                    .unwrap_or("")
                    .trim()
                    .to_string(),
            )
            .filter(|t| t.starts_with("sm_"))
            .unwrap_or_else(|| opts.arch.clone());
            ptx_text = Some(text);
            ptx_module = Some(module);
            arch_used = arch.clone();
            match nvcc::assemble(path, &arch)? {
                Some((info, cubin, dir)) => {
                    resources = sass::parse_ptxas_info(&info);
                    _keep = Some(dir);
                    Some(cubin)
                }
                None => {
                    notes.push("ptxas not found: registers and shared memory unknown".into());
                    None
                }
            }
        }
        _ => Some(path.to_path_buf()),
    };
    let mut user_banks = vec![3];
    if let Some(cubin) = &cubin {
        let read = nvcc::disassemble(cubin).map_err(|e| match kind {
            "cubin" => nvcc::unreadable_cubin(path, e),
            _ => e,
        });
        match read? {
            Some((sass, res)) => {
                if resources.is_empty() {
                    resources = sass::parse_res_usage(&res);
                    // cuobjdump counts the 1 KB of shared memory sm_90 reserves per block
                    // (ptxas -v does not); report what the kernel itself declares.
                    if sass.contains("code for sm_90") {
                        for r in resources.values_mut() {
                            r.shared_bytes = r.shared_bytes.saturating_sub(1024);
                        }
                    }
                }
                if kind == "cubin" {
                    if let Some(a) = sass_arch(&sass) {
                        arch_used = a;
                    }
                }
                let banks = metrics::user_constant_banks(&res);
                if !banks.is_empty() || kind == "cubin" {
                    user_banks = banks;
                }
                sass_text = Some(sass);
            }
            None => notes.push("cuobjdump not found: no SASS counts".into()),
        }
    }
    let sass_fns = sass_text
        .as_deref()
        .map(sass::parse_sass)
        .unwrap_or_default();
    let sass_metrics = |name: &str| {
        sass_fns
            .get(name)
            .map(|insts| metrics::from_sass(insts, &user_banks).with_resources(resources.get(name)))
    };
    let mut kernels = Vec::new();
    if let Some(text) = &ptx_text {
        let module = ptx_module.unwrap_or_else(|| ptx::parse(text));
        for f in module.kernels() {
            let m = metrics::from_ptx(f).with_resources(resources.get(&f.name));
            let m = if m.shared_bytes.is_none() {
                Metrics {
                    shared_bytes: Some(f.shared_bytes),
                    ..m
                }
            } else {
                m
            };
            kernels.push(build_report(
                &f.name,
                m,
                sass_metrics(&f.name),
                &module.const_symbols,
            ));
        }
    } else {
        for name in sass_fns.keys() {
            if let Some(m) = sass_metrics(name) {
                kernels.push(build_report(name, m.clone(), Some(m), &[]));
            }
        }
        notes.push(
            "metrics from SASS only (a cubin holds no PTX); RSQRT cannot be told from IEEE sqrt in SASS"
                .into(),
        );
    }
    if kernels.is_empty() {
        return Err(Error::Usage(format!(
            "{} holds no kernel (no __global__ function{}); name a file with one",
            path.display(),
            no_kernel_hint(path, kind)
        )));
    }
    if kind != "cu" && arch_used != opts.arch {
        notes.push(format!(
            "the {kind} is for {arch_used}, and is reported as it is: --arch {} applies to a .cu \
             file only (compile the .cu for {} to see that target)",
            opts.arch, opts.arch
        ));
    }
    Ok(Analysis {
        file: path.to_path_buf(),
        arch: arch_used,
        kernels,
        not_detectable: detect::not_detectable(),
        notes,
    })
}

/// Instruction-mix differences of B against A, kernel by kernel (kernels matched by name;
/// when each file has one kernel they are paired whatever their names).
pub fn compare(a: &Analysis, b: &Analysis) -> Vec<(String, Vec<Difference>)> {
    if a.kernels.len() == 1 && b.kernels.len() == 1 {
        let (x, y) = (&a.kernels[0], &b.kernels[0]);
        let name = if x.short_name == y.short_name {
            x.short_name.clone()
        } else {
            format!("{} vs {}", x.short_name, y.short_name)
        };
        return vec![(name, version_diff::compare(&x.metrics, &y.metrics))];
    }
    a.kernels
        .iter()
        .filter_map(|x| {
            let y = b.kernels.iter().find(|y| y.name == x.name)?;
            Some((
                x.short_name.clone(),
                version_diff::compare(&x.metrics, &y.metrics),
            ))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_names() {
        assert_eq!(short_name("_Z1kPKfPfi"), "k");
        assert_eq!(short_name("_ZN2ns6kernelEv"), "ns::kernel");
        assert_eq!(short_name("cn_pnpoly"), "cn_pnpoly");
    }
}
