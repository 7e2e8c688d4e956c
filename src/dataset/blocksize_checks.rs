//! The checks a block-size dataset's rows pass when it is read: each kernel once, times and
//! block sizes a GPU can have, statistics a kernel can have.

use std::path::Path;

use super::blocksize::{Dataset, KernelRow};
use crate::error::{Error, Result};

impl KernelRow {
    /// Why the row's statistics cannot be a kernel's, if so: an architecture not written
    /// `sm_NN`, more than 255 registers a thread (no CUDA GPU allows more), more than 1 MiB of
    /// shared memory a block, or a fraction outside 0..=1.
    pub(super) fn implausible(&self) -> Option<String> {
        let digits = self.arch.strip_prefix("sm_").unwrap_or("");
        if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
            return Some(format!(
                "arch `{}`: write the compute capability as sm_NN (sm_75, sm_90)",
                self.arch
            ));
        }
        if self.registers > 255 {
            return Some(format!(
                "registers {}: no CUDA GPU gives a thread more than 255",
                self.registers
            ));
        }
        if self.shared_bytes > 1 << 20 {
            return Some(format!(
                "shared_bytes {}: no CUDA GPU gives a block more than 1 MiB of shared memory",
                self.shared_bytes
            ));
        }
        let (b, l, i, f) = (
            self.branch_fraction,
            self.load_fraction,
            self.int_fraction,
            self.float_fraction,
        );
        [
            ("branch_fraction", b),
            ("load_fraction", l),
            ("int_fraction", i),
            ("float_fraction", f),
        ]
        .iter()
        .find(|(_, v)| !(0.0..=1.0).contains(v))
        .map(|(name, v)| format!("{name} {v}: a share of the instructions, from 0 to 1"))
    }
}

impl Dataset {
    /// A kernel on a GPU listed twice in kernels.csv (it would count twice in every mean), a
    /// block size timed twice for one of them, a block size outside 1..=1024 (no CUDA GPU runs
    /// another) or a time that is not a positive number is an error naming its line.
    pub(super) fn check_rows(&self, dir: &Path) -> Result<()> {
        let mut seen = std::collections::HashMap::new();
        for (i, k) in self.kernels.iter().enumerate() {
            if let Some(why) = k.implausible() {
                return Err(Error::parse(dir.join("kernels.csv"), i + 2, why));
            }
            if let Some(first) = seen.insert((&k.kernel, &k.gpu), i) {
                return Err(Error::parse(
                    dir.join("kernels.csv"),
                    i + 2,
                    format!(
                        "kernel {} on {} again (line {}): each kernel and GPU once",
                        k.kernel,
                        k.gpu,
                        first + 2
                    ),
                ));
            }
        }
        let mut seen = std::collections::HashMap::new();
        for (i, t) in self.timings.iter().enumerate() {
            let line = i + 2;
            // A time that is not a positive number would pick its block size as the best.
            if !(t.time_ms.is_finite() && t.time_ms > 0.0) {
                return Err(Error::parse(
                    dir.join("timings.csv"),
                    line,
                    format!(
                        "time_ms {}: a time is a positive number of milliseconds",
                        t.time_ms
                    ),
                ));
            }
            if !(1..=1024).contains(&t.block_size) {
                return Err(Error::parse(
                    dir.join("timings.csv"),
                    line,
                    format!(
                        "block size {}: a block holds 1 to 1024 threads",
                        t.block_size
                    ),
                ));
            }
            if let Some(first) = seen.insert((&t.kernel, &t.gpu, t.block_size), i) {
                return Err(Error::parse(
                    dir.join("timings.csv"),
                    line,
                    format!(
                        "kernel {} on {} at block size {} again (line {}): one time each",
                        t.kernel,
                        t.gpu,
                        t.block_size,
                        first + 2
                    ),
                ));
            }
        }
        // Every kernel the folder lists is timed: a cut-off timings.csv loses the last ones.
        for (i, k) in self.kernels.iter().enumerate() {
            if !seen
                .keys()
                .any(|(kernel, gpu, _)| **kernel == k.kernel && **gpu == k.gpu)
            {
                return Err(Error::parse(
                    dir.join("kernels.csv"),
                    i + 2,
                    format!(
                        "kernel {} on {} has no row in {} (is timings.csv cut off?): each \
                         kernel listed is timed at its block sizes",
                        k.kernel,
                        k.gpu,
                        dir.join("timings.csv").display()
                    ),
                ));
            }
        }
        Ok(())
    }
}
