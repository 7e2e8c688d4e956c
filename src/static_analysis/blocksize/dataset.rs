//! The block-size dataset: for each (kernel, GPU) of real brute-force tuning spaces, the
//! fastest time at every block size (threads per block, a multiple of 32 up to 1024; the
//! block's shape and all other parameters at their best for that size), the kernel's static
//! metrics, and registers and shared memory at every block size for the occupancy
//! calculator. Built once with nvcc (`advise statuner --build-dataset`) and committed as
//! three small CSV tables in datasets/blocksize/, so evaluating needs no compiler.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::dataset::import::{read_space, Tool};
use crate::error::{Error, Result};
use crate::static_analysis::nvcc::{self, CompileOptions};
use crate::static_analysis::{metrics, ptx, sass, short_name};

/// One kernel of the dataset and where its tuning spaces come from.
pub struct Spec {
    pub kernel: &'static str,
    /// Kernels of one family (two versions of a convolution) are held out together.
    pub family: &'static str,
    pub source: &'static str,
    pub function: &'static str,
    /// (GPU as in the cache file name, architecture).
    pub gpus: &'static [(&'static str, &'static str)],
}

const RTX: &[(&str, &str)] = &[
    ("RTX_2080_Ti", "sm_75"),
    ("RTX_3060_laptop", "sm_86"),
    ("RTX_3090", "sm_86"),
    ("RTX_Titan", "sm_75"),
];
const AMPERE: &[(&str, &str)] = &[("A100", "sm_80"), ("A4000", "sm_86"), ("A6000", "sm_86")];

/// The kernels with real block-size spaces (see datasets/blocksize/PROVENANCE.md).
pub const SPECS: &[Spec] = &[
    Spec {
        kernel: "convolution",
        family: "convolution",
        source: "convolution.cu",
        function: "convolution_kernel",
        gpus: RTX,
    },
    Spec {
        kernel: "pnpoly",
        family: "pnpoly",
        source: "pnpoly.cu",
        function: "cn_pnpoly",
        gpus: RTX,
    },
    Spec {
        kernel: "dedispersion",
        family: "dedispersion",
        source: "dedispersion.cu",
        function: "dedispersion_kernel",
        gpus: AMPERE,
    },
    Spec {
        kernel: "convolution_milo",
        family: "convolution",
        source: "convolution_milo.cu",
        function: "convolution_kernel",
        gpus: AMPERE,
    },
];

/// Fastest time of one block size of one (kernel, GPU).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TimingRow {
    pub kernel: String,
    pub family: String,
    pub gpu: String,
    pub arch: String,
    pub block_size: u32,
    pub time_ms: f64,
    /// The configuration that gave the time, `param=value;...`.
    pub config: String,
}

/// Static metrics of one (kernel, GPU), compiled at 256 threads per block with the other
/// parameters at their best for 256 threads (so the features do not encode the label).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KernelRow {
    pub kernel: String,
    pub family: String,
    pub gpu: String,
    pub arch: String,
    pub instructions: u64,
    pub branch_fraction: f64,
    pub load_fraction: f64,
    pub loops: u64,
    pub syncthreads: u64,
    pub registers: u32,
    pub shared_bytes: u64,
    pub int_fraction: f64,
    pub float_fraction: f64,
    pub config: String,
}

impl KernelRow {
    /// The eight STATuner features, in `Metrics::STATUNER_NAMES` order.
    pub fn features(&self) -> [f64; 8] {
        [
            self.branch_fraction,
            self.load_fraction,
            self.loops as f64,
            self.syncthreads as f64,
            self.registers as f64,
            self.shared_bytes as f64,
            self.int_fraction,
            self.float_fraction,
        ]
    }
}

/// Registers and shared memory of one (kernel, GPU) at one block size (its best config).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResourceRow {
    pub kernel: String,
    pub gpu: String,
    pub block_size: u32,
    pub registers: u32,
    pub shared_bytes: u64,
}

/// The three tables.
#[derive(Debug, Clone, Default)]
pub struct Dataset {
    pub timings: Vec<TimingRow>,
    pub kernels: Vec<KernelRow>,
    pub resources: Vec<ResourceRow>,
}

fn read_csv<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<Vec<T>> {
    let mut r = csv::Reader::from_path(path).map_err(|e| Error::format(path, e.to_string()))?;
    r.deserialize()
        .enumerate()
        .map(|(i, row)| row.map_err(|e| Error::parse(path, i + 2, e.to_string())))
        .collect()
}

fn write_csv<T: Serialize>(path: &Path, rows: &[T]) -> Result<()> {
    let mut w = csv::Writer::from_path(path).map_err(|e| Error::format(path, e.to_string()))?;
    for r in rows {
        w.serialize(r)
            .map_err(|e| Error::format(path, e.to_string()))?;
    }
    w.flush().map_err(|e| Error::io(path, e))
}

impl Dataset {
    /// Reads timings.csv, kernels.csv and resources.csv from `dir`.
    pub fn load(dir: &Path) -> Result<Dataset> {
        Ok(Dataset {
            timings: read_csv(&dir.join("timings.csv"))?,
            kernels: read_csv(&dir.join("kernels.csv"))?,
            resources: read_csv(&dir.join("resources.csv"))?,
        })
    }

    pub fn save(&self, dir: &Path) -> Result<()> {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        write_csv(&dir.join("timings.csv"), &self.timings)?;
        write_csv(&dir.join("kernels.csv"), &self.kernels)?;
        write_csv(&dir.join("resources.csv"), &self.resources)
    }

    /// The dataset folder shipped in the repository.
    pub fn default_dir() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/blocksize")
    }
}

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

/// A compile result kept in the temporary folder, keyed by what was compiled, so that
/// rebuilding the dataset only compiles configurations it has not seen.
fn cached(key: &str, compute: impl FnOnce() -> Result<String>) -> Result<String> {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    key.hash(&mut h);
    let dir = std::env::temp_dir().join("advise-blocksize-cache");
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
                let threads = x * y;
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
                registers: m.registers.unwrap_or(0),
                shared_bytes: m.shared_bytes.unwrap_or(f.shared_bytes),
                int_fraction: m.int_fraction,
                float_fraction: m.float_fraction,
                config: label(&space.params, reference.1),
            });
        }
    }
    Ok(ds)
}
