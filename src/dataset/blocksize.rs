//! The block-size dataset: for each (kernel, GPU) of real brute-force tuning spaces, the
//! fastest time at every block size (threads per block, a multiple of 32 up to 1024; the
//! block's shape and all other parameters at their best for that size), the kernel's static
//! metrics, and registers and shared memory at every block size for the occupancy
//! calculator. Built once with nvcc (`advise statuner --build-dataset`,
//! `static_analysis::blocksize_build::build`) and committed as three small CSV tables in
//! datasets/blocksize/, so evaluating needs no compiler.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

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

/// The columns each table's header must name (its rows' fields).
const TIMING_COLUMNS: &[&str] = &[
    "kernel",
    "family",
    "gpu",
    "arch",
    "block_size",
    "time_ms",
    "config",
];
const KERNEL_COLUMNS: &[&str] = &[
    "kernel",
    "family",
    "gpu",
    "arch",
    "instructions",
    "branch_fraction",
    "load_fraction",
    "loops",
    "syncthreads",
    "registers",
    "shared_bytes",
    "int_fraction",
    "float_fraction",
    "config",
];
const RESOURCE_COLUMNS: &[&str] = &["kernel", "gpu", "block_size", "registers", "shared_bytes"];

/// What a block-size dataset folder holds, for errors.
const FOLDER: &str = "a block-size dataset folder (timings.csv, kernels.csv, resources.csv: \
                      datasets/blocksize, or one `advise statuner --build-dataset` wrote)";

/// Reads one table of the folder: a missing file says what the folder should hold, a header
/// without one of `columns` is an error on line 1 (another project table, such as a
/// campaign's timings.csv, is named as not this one), a bad cell names its line.
fn read_csv<T: for<'de> Deserialize<'de>>(path: &Path, columns: &[&str]) -> Result<Vec<T>> {
    if !path.is_file() {
        return Err(Error::format(
            path,
            format!("no such file: the folder is not {FOLDER}"),
        ));
    }
    super::table::read_rows_with(path, columns)
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
        super::table::require_folder(dir, FOLDER)?;
        let ds = Dataset {
            timings: read_csv(&dir.join("timings.csv"), TIMING_COLUMNS)?,
            kernels: read_csv(&dir.join("kernels.csv"), KERNEL_COLUMNS)?,
            resources: read_csv(&dir.join("resources.csv"), RESOURCE_COLUMNS)?,
        };
        ds.check_rows(dir)?;
        for (name, empty) in [
            ("timings.csv", ds.timings.is_empty()),
            ("kernels.csv", ds.kernels.is_empty()),
        ] {
            if empty {
                return Err(Error::format(
                    dir.join(name),
                    format!("no rows: {FOLDER} holds at least one kernel timed at its sizes"),
                ));
            }
        }
        Ok(ds)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The shipped dataset with one table changed (a copy in a temporary folder).
    fn shipped_with(table: &str, change: impl Fn(&str) -> String) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for name in ["timings.csv", "kernels.csv", "resources.csv"] {
            let text = std::fs::read_to_string(Dataset::default_dir().join(name)).unwrap();
            let text = if name == table { change(&text) } else { text };
            std::fs::write(dir.path().join(name), text).unwrap();
        }
        dir
    }

    #[test]
    fn a_time_that_is_not_positive_or_an_empty_table_is_an_error() {
        let ok = shipped_with("timings.csv", str::to_string);
        assert!(Dataset::load(ok.path()).is_ok());
        let negative = shipped_with("timings.csv", |t| {
            let mut lines: Vec<String> = t.lines().map(str::to_string).collect();
            let mut cells: Vec<String> = lines[2].split(',').map(str::to_string).collect();
            cells[5] = "-1.5".into();
            lines[2] = cells.join(",");
            lines.join("\n") + "\n"
        });
        let e = Dataset::load(negative.path()).unwrap_err().to_string();
        assert!(e.contains("timings.csv:3: time_ms -1.5"), "{e}");
        let twice = shipped_with("kernels.csv", |t| {
            let second = t.lines().nth(1).unwrap();
            format!("{t}{second}\n")
        });
        let e = Dataset::load(twice.path()).unwrap_err().to_string();
        assert!(e.contains("again (line 2)"), "{e}");
        // Statistics no kernel has: over 255 registers a thread, a fraction over 1.
        for (column, value) in [(9, "registers 100000"), (5, "branch_fraction 7.5")] {
            let bad = shipped_with("kernels.csv", |t| {
                let mut lines: Vec<String> = t.lines().map(str::to_string).collect();
                let mut cells: Vec<&str> = lines[1].split(',').collect();
                cells[column] = value.split(' ').nth(1).unwrap();
                lines[1] = cells.join(",");
                lines.join("\n") + "\n"
            });
            let e = Dataset::load(bad.path()).unwrap_err().to_string();
            assert!(e.contains(&format!("kernels.csv:2: {value}")), "{e}");
        }
        let zero = shipped_with("timings.csv", |t| t.replacen(",64,", ",0,", 1));
        let e = Dataset::load(zero.path()).unwrap_err().to_string();
        assert!(e.contains("timings.csv:2: block size 0"), "{e}");
        let empty = shipped_with("kernels.csv", |t| {
            t.lines().next().unwrap().to_string() + "\n"
        });
        let e = Dataset::load(empty.path()).unwrap_err().to_string();
        assert!(e.contains("kernels.csv") && e.contains("no rows"), "{e}");
        // A timings.csv cut off after its first 20 rows loses kernels kernels.csv lists.
        let cut = shipped_with("timings.csv", |t| {
            t.lines().take(21).collect::<Vec<_>>().join("\n") + "\n"
        });
        let e = Dataset::load(cut.path()).unwrap_err().to_string();
        assert!(
            e.contains("kernels.csv:") && e.contains("(is timings.csv cut off?)"),
            "{e}"
        );
    }
}
