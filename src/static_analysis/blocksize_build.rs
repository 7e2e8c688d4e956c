//! Building the block-size dataset (STATuner, Gupta et al.): every configuration of the
//! Kernel Tuner caches compiled with nvcc for its GPU, its static metrics and resources read
//! from the PTX and SASS, compile results kept in the user's cache folder.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::dataset::blocksize::{Dataset, KernelRow, ResourceRow, TimingRow, SPECS};
use crate::dataset::import::{read_space, Tool};
use crate::error::{Error, Result};
use crate::static_analysis::nvcc::{self, CompileOptions};
use crate::static_analysis::{metrics, ptx, sass, short_name};

/// A source that includes `source` after the configuration's parameters, the way Kernel
/// Tuner compiles a configuration: `#define name value`, except `loop_unroll_factor_*`,
/// which Kernel Tuner declares as `constexpr int` (a `#pragma unroll` argument is not
/// macro-expanded).
fn wrapper(params: &[String], values: &[String], source: &Path) -> String {
    let mut text = String::new();
    for (p, v) in params.iter().zip(values) {
        if p.starts_with("loop_unroll_factor") {
            text.push_str(&format!("constexpr int {p} = {v};\n"));
        } else {
            text.push_str(&format!("#define {p} {v}\n"));
        }
    }
    text.push_str(&format!("#include \"{}\"\n", source.display()));
    text
}

fn label(params: &[String], values: &[String]) -> String {
    params
        .iter()
        .zip(values)
        .map(|(p, v)| format!("{p}={v}"))
        .collect::<Vec<_>>()
        .join(";")
}

/// The user's cache folder for compile results: `$XDG_CACHE_HOME/advise/blocksize`, else
/// `$HOME/.cache/advise/blocksize` (never a fixed name in the shared /tmp, where another user
/// could plant results); `None` where neither variable is set (nothing is cached).
fn cache_dir() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))?;
    Some(base.join("advise").join("blocksize"))
}

/// A compile result kept in the user's cache folder, keyed by what was compiled, so that
/// rebuilding the dataset only compiles configurations it has not seen.
fn cached(key: &str, compute: impl FnOnce() -> Result<String>) -> Result<String> {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    key.hash(&mut h);
    let Some(dir) = cache_dir() else {
        return compute();
    };
    let file = dir.join(format!("{:016x}.txt", h.finish()));
    if let Ok(text) = std::fs::read_to_string(&file) {
        return Ok(text);
    }
    let text = compute()?;
    if std::fs::create_dir_all(&dir).is_ok() {
        let _ = std::fs::write(&file, &text);
    }
    Ok(text)
}

/// Builds the dataset from Kernel Tuner caches named `<kernel>__<GPU>.json.gz` in `caches`
/// and kernel sources in `sources`; `progress` hears about each (kernel, GPU).
pub fn build(caches: &Path, sources: &Path, mut progress: impl FnMut(&str)) -> Result<Dataset> {
    let mut ds = Dataset::default();
    // Every cache is there before the first (slow) compilation.
    let missing: Vec<String> = SPECS
        .iter()
        .flat_map(|spec| {
            spec.gpus
                .iter()
                .map(move |(gpu, _)| format!("{}__{gpu}.json.gz", spec.kernel))
        })
        .filter(|name| !caches.join(name).is_file())
        .collect();
    if !missing.is_empty() {
        return Err(Error::format(
            caches,
            format!(
                "--build-dataset reads Kernel Tuner caches named <kernel>__<GPU>.json.gz, and \
                 {} of them are not in this folder ({}{}); the public caches it was built \
                 from are in ../shared/data/kerneltuner-caches-rtx",
                missing.len(),
                missing[..missing.len().min(3)].join(", "),
                if missing.len() > 3 { ", ..." } else { "" }
            ),
        ));
    }
    // The generated wrapper includes the source by absolute path.
    let sources = &sources.canonicalize().map_err(|e| Error::io(sources, e))?;
    for spec in SPECS {
        let source = sources.join(spec.source);
        for &(gpu, arch) in spec.gpus {
            progress(&format!("{} on {gpu}", spec.kernel));
            let path = caches.join(format!("{}__{gpu}.json.gz", spec.kernel));
            let space = read_space(Tool::KernelTuner, &path)?;
            let idx = |name: &str| space.params.iter().position(|p| p == name);
            let bx = idx("block_size_x")
                .ok_or_else(|| Error::format(&path, "no block_size_x parameter"))?;
            let by = idx("block_size_y");
            // Best config per block size.
            let mut best: BTreeMap<u32, (f64, &Vec<String>)> = BTreeMap::new();
            for c in &space.configs {
                let Some(t) = c.time_ms.filter(|t| t.is_finite() && *t > 0.0) else {
                    continue;
                };
                let x: u32 = c.values[bx].parse().unwrap_or(0);
                let y: u32 = by
                    .map_or(Some(1), |i| c.values[i].parse().ok())
                    .unwrap_or(0);
                let threads = x.saturating_mul(y);
                if threads == 0 || !threads.is_multiple_of(32) || threads > 1024 {
                    continue;
                }
                let e = best.entry(threads).or_insert((t, &c.values));
                if t < e.0 {
                    *e = (t, &c.values);
                }
            }
            let tmp = nvcc::TempDir::new()?;
            let wrapped = tmp.path.join("config.cu");
            let opts = CompileOptions {
                arch: arch.to_string(),
                flags: vec![format!("-I{}", sources.display()), "-std=c++11".into()],
            };
            let write = |values: &Vec<String>| -> Result<()> {
                let text = wrapper(&space.params, values, &source);
                std::fs::write(&wrapped, text).map_err(|e| Error::io(&wrapped, e))
            };
            for (&b, &(t, values)) in &best {
                ds.timings.push(TimingRow {
                    kernel: spec.kernel.into(),
                    family: spec.family.into(),
                    gpu: gpu.into(),
                    arch: arch.into(),
                    block_size: b,
                    time_ms: t,
                    config: label(&space.params, values),
                });
                let key = format!("info {arch} {}", wrapper(&space.params, values, &source));
                let info = match cached(&key, || {
                    write(values)?;
                    nvcc::resources(&wrapped, &opts)
                }) {
                    Ok(info) => info,
                    Err(e) => {
                        // E.g. more than 48 KB of static shared memory, which the tuner's
                        // own compile accepted: the occupancy baseline then uses the
                        // reference configuration's resources for this size.
                        let text = e.to_string();
                        let why = text
                            .lines()
                            .find(|l| l.contains("error"))
                            .unwrap_or("")
                            .trim()
                            .to_string();
                        progress(&format!("  {b} threads: resources unknown ({why})"));
                        continue;
                    }
                };
                let res = sass::parse_ptxas_info(&info);
                if let Some((_, r)) = res.iter().find(|(n, _)| short_name(n) == spec.function) {
                    ds.resources.push(ResourceRow {
                        kernel: spec.kernel.into(),
                        gpu: gpu.into(),
                        block_size: b,
                        registers: r.registers,
                        shared_bytes: r.shared_bytes,
                    });
                }
            }
            let reference = best
                .get(&256)
                .or_else(|| best.values().next())
                .ok_or_else(|| Error::format(&path, "no timed configuration"))?;
            let key = format!(
                "ref {arch} {}",
                wrapper(&space.params, reference.1, &source)
            );
            let both = cached(&key, || {
                write(reference.1)?;
                let c = nvcc::compile(&wrapped, &opts)?;
                Ok(format!("{}\n//@@ptxas@@\n{}", c.ptx, c.ptxas_info))
            })?;
            let (ptx_text, info) = both.split_once("\n//@@ptxas@@\n").unwrap_or((&both, ""));
            let module = ptx::parse(ptx_text);
            let res = sass::parse_ptxas_info(info);
            let f = module
                .kernels()
                .find(|f| short_name(&f.name) == spec.function)
                .ok_or_else(|| {
                    Error::format(&source, format!("no kernel {} in the PTX", spec.function))
                })?;
            let m = metrics::from_ptx(f).with_resources(res.get(&f.name));
            // Without ptxas's count a kernel's occupancy would be taken at 0 registers.
            let registers = m.registers.ok_or_else(|| {
                Error::format(
                    &source,
                    format!(
                        "ptxas -v printed no register count for kernel {} (`{}`): its \
                         occupancy cannot be computed",
                        spec.function, f.name
                    ),
                )
            })?;
            ds.kernels.push(KernelRow {
                kernel: spec.kernel.into(),
                family: spec.family.into(),
                gpu: gpu.into(),
                arch: arch.into(),
                instructions: m.instructions,
                branch_fraction: m.branch_fraction,
                load_fraction: m.load_fraction,
                loops: m.loops,
                syncthreads: m.syncthreads,
                registers,
                shared_bytes: m.shared_bytes.unwrap_or(f.shared_bytes),
                int_fraction: m.int_fraction,
                float_fraction: m.float_fraction,
                config: label(&space.params, reference.1),
            });
        }
    }
    Ok(ds)
}
