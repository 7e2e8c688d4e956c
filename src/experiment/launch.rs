//! What a sample pool knows about its kernels' launches beyond the features: each run's
//! registers per thread and each program's GPU (its compute capability), from which the step
//! features (experiment::step_features) tell what a block-size step does to occupancy.
//!
//! The registers come from the measurements (`launch__registers_per_thread`: Nsight Compute,
//! KTT, GPGPU-Sim logs). The compute capability comes from Nsight Compute's device attributes
//! (`device__attribute_compute_capability_major` and `_minor`) where the measurements have
//! them, else from the dataset folder's `device.json` (`{"device": NAME,
//! "compute_capability": "7.5"}`, written by `advise import` from the tool's device name).
//! How each run's GPU was attached to its host (dataset::host_link) comes from the same two
//! places, the device attributes first.

use std::collections::BTreeMap;
use std::path::Path;

use super::host_links::HostLinks;
use crate::dataset::devices::{DeviceFile, DEVICE_FILE};
use crate::dataset::host_link::HostLink;
use crate::dataset::measurements::{MeasurementRow, RunKey};
use crate::error::{Error, Result};

/// Each run's registers per thread and each program's compute capability.
#[derive(Debug, Clone, Default)]
pub struct LaunchFacts {
    /// Registers per thread of a run where every launch of it has the same count.
    pub registers: BTreeMap<RunKey, f64>,
    /// Compute capability ("7.5") per program.
    pub compute_capability: BTreeMap<String, String>,
    /// How each run's GPU was attached to its host, where the data says
    /// (experiment::host_links).
    pub host_links: HostLinks,
}

impl LaunchFacts {
    /// Facts from a dataset's measurements and, for its `runs` (program and input) whose
    /// measurements lack the device attributes (a times-only space has no measurement at
    /// all), its folder's `device.json`. The host link is the measurements' where they show
    /// one (dataset::host_link), else the file's.
    pub fn read<'a>(
        dir: &Path,
        rows: &'a [MeasurementRow],
        runs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Self> {
        let mut facts = Self::of_rows(rows);
        let runs: std::collections::BTreeSet<(&str, &str)> = rows
            .iter()
            .map(|r| (r.program.as_str(), r.input.as_str()))
            .chain(runs)
            .collect();
        let mut link = HostLink::of_rows(rows);
        let path = dir.join(DEVICE_FILE);
        if path.is_file() {
            let text = std::fs::read_to_string(&path).map_err(|e| Error::io(&path, e))?;
            let file: DeviceFile = serde_json::from_str(&text).map_err(|e| Error::Format {
                path: path.clone(),
                message: format!(
                    "{e} (expected {{\"device\": NAME, \"compute_capability\": \"7.5\"}}, \
                     optionally with \"host_link\": \"pcie\" or \"coherent\")"
                ),
            })?;
            for (p, _) in &runs {
                facts
                    .compute_capability
                    .entry(p.to_string())
                    .or_insert_with(|| file.compute_capability.clone());
            }
            link = link.or(file.host_link);
        }
        let name = dir
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        facts.host_links = HostLinks::of_dataset(&name, link, runs);
        Ok(facts)
    }

    /// Facts from measurements alone.
    pub fn of_rows(rows: &[MeasurementRow]) -> Self {
        let mut registers: BTreeMap<RunKey, Option<f64>> = BTreeMap::new();
        let mut major: BTreeMap<String, f64> = BTreeMap::new();
        let mut minor: BTreeMap<String, f64> = BTreeMap::new();
        for r in rows.iter().filter(|r| r.value.is_finite()) {
            if let Some(v) = registers_of(r) {
                let e = registers.entry(r.key()).or_insert(Some(v));
                if *e != Some(v) {
                    *e = None;
                }
                continue;
            }
            match crate::profile::section_labels::metric_of(&r.metric).unwrap_or(&r.metric) {
                "device__attribute_compute_capability_major" => {
                    major.insert(r.program.clone(), r.value);
                }
                "device__attribute_compute_capability_minor" => {
                    minor.insert(r.program.clone(), r.value);
                }
                _ => {}
            }
        }
        let compute_capability = major
            .iter()
            .filter_map(|(p, ma)| Some((p.clone(), format!("{ma}.{}", minor.get(p)?))))
            .collect();
        LaunchFacts {
            registers: registers
                .into_iter()
                .filter_map(|(k, v)| Some((k, v?)))
                .collect(),
            compute_capability,
            host_links: Default::default(),
        }
    }

    /// Joins another pool's facts.
    pub fn extend(&mut self, other: LaunchFacts) {
        self.registers.extend(other.registers);
        self.compute_capability.extend(other.compute_capability);
        self.host_links.extend(other.host_links);
    }
}

/// The compute capability ("7.5") a user means by `gpu`: a GPU name NVIDIA lists ("RTX 2080
/// Ti", "A100") or a capability the occupancy calculator knows ("7.5", "75", "sm_75",
/// "compute_75"); `None` for anything else.
pub fn compute_capability_given(gpu: &str) -> Option<String> {
    if let Some(cc) = crate::dataset::devices::compute_capability_of(gpu) {
        return Some(cc.to_string());
    }
    let t = gpu.trim();
    let t = match t.strip_prefix("sm_").or_else(|| t.strip_prefix("compute_")) {
        // nvcc's architecture-specific and family names (`sm_90a`, `sm_100f`) have the
        // limits of their compute capability.
        Some(arch) => arch.strip_suffix(['a', 'f']).unwrap_or(arch),
        None => t,
    };
    let numeric = !t.is_empty() && t.chars().all(|c| c.is_ascii_digit() || c == '.');
    let arch = crate::static_analysis::occupancy::Arch::parse(t).ok();
    arch.filter(|_| numeric)
        .map(|a| format!("{}.{}", a.major, a.minor))
}

/// Whether a row is Nsight Compute's `launch__registers_per_thread` (a details page names it
/// by its label, "Registers Per Thread").
pub fn names_registers(r: &MeasurementRow) -> bool {
    crate::profile::section_labels::metric_of(&r.metric).unwrap_or(&r.metric)
        == "launch__registers_per_thread"
}

/// The registers per thread a row reports, where it is [`names_registers`]'s metric and a
/// positive number.
pub fn registers_of(r: &MeasurementRow) -> Option<f64> {
    (names_registers(r) && r.value.is_finite() && r.value > 0.0).then_some(r.value)
}

/// Why a block of `threads` threads would not launch, where that is known: more than 1,024
/// threads (no CUDA GPU launches one), or, on compute capability `cc` with `registers` per
/// thread, more registers than the SM gives one block (the occupancy calculator's register
/// limit). Shared memory is not judged: how it grows with the block depends on the kernel.
pub fn block_refusal(cc: Option<&str>, registers: Option<f64>, threads: f64) -> Option<String> {
    use crate::static_analysis::occupancy::{
        occupancy, registers_per_block, Arch, KernelResources,
    };
    let to = threads.round();
    if !(to.is_finite() && to >= 1.0) {
        return None;
    }
    if to > 1024.0 {
        return Some(format!(
            "a block of {to} threads would not launch: no CUDA GPU takes more than 1,024 \
             threads per block"
        ));
    }
    let arch = Arch::parse(cc?).ok()?;
    let regs = registers.filter(|r| r.is_finite() && *r > 0.0)?;
    let k = KernelResources {
        registers_per_thread: regs.round() as u32,
        shared_bytes_per_block: 0,
    };
    let warps = (to as u32).div_ceil(32);
    (occupancy(&arch, to as u32, &k).limit_registers == 0).then(|| {
        format!(
            "a block of {to} threads would not launch on {}: at {regs} registers per thread \
             its {warps} warps need {} registers, more than one block may have ({})",
            arch.name(),
            registers_per_block(&arch, warps, k.registers_per_thread),
            arch.regs_per_block
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(variant: &str, metric: &str, value: f64) -> MeasurementRow {
        MeasurementRow {
            variant: variant.into(),
            ..MeasurementRow::for_test(metric, value)
        }
    }

    #[test]
    fn a_gpu_is_given_by_name_or_compute_capability() {
        for given in ["RTX 2080 Ti", "7.5", "75", "sm_75", "compute_75"] {
            assert_eq!(
                compute_capability_given(given).as_deref(),
                Some("7.5"),
                "{given}"
            );
        }
        assert_eq!(compute_capability_given("sm_90a").as_deref(), Some("9.0"));
        assert_eq!(compute_capability_given("sm_100f").as_deref(), Some("10.0"));
        for wrong in ["Voodoo3", "Z80", "9.9", "", "sm_", "90a", "sm_a"] {
            assert_eq!(compute_capability_given(wrong), None, "{wrong}");
        }
    }

    #[test]
    fn registers_per_run_and_the_device_from_attributes_or_the_folder() {
        let mut second = row("a", "launch__registers_per_thread", 40.0);
        second.launch = 1;
        let rows = vec![
            row("a", "launch__registers_per_thread", 32.0),
            second,
            row("b", "launch__registers_per_thread", 24.0),
        ];
        let facts = LaunchFacts::of_rows(&rows);
        // Two launches of "a" disagree: no count for it.
        assert_eq!(facts.registers.len(), 1);
        assert_eq!(facts.registers.values().next(), Some(&24.0));
        assert!(facts.compute_capability.is_empty());

        let dir = std::env::temp_dir().join(format!("advise-launch-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join(DEVICE_FILE),
            r#"{"device": "NVIDIA GeForce RTX 2080 Ti", "compute_capability": "7.5"}"#,
        )
        .unwrap();
        let facts = LaunchFacts::read(&dir, &rows, []).unwrap();
        assert_eq!(
            facts.compute_capability.get("p").map(String::as_str),
            Some("7.5")
        );
        // A times-only space has no measurement: its programs come from its samples.
        let facts = LaunchFacts::read(&dir, &[], [("q", "i")]).unwrap();
        assert_eq!(
            facts.compute_capability.get("q").map(String::as_str),
            Some("7.5")
        );
        // The measured attributes win over the folder's file.
        let mut with_attr = rows.clone();
        with_attr.push(row("a", "device__attribute_compute_capability_major", 9.0));
        with_attr.push(row("a", "device__attribute_compute_capability_minor", 0.0));
        let facts = LaunchFacts::read(&dir, &with_attr, []).unwrap();
        assert_eq!(
            facts.compute_capability.get("p").map(String::as_str),
            Some("9.0")
        );
        // The host link: the file's where the measurements show none, theirs where they do.
        std::fs::write(
            dir.join(DEVICE_FILE),
            r#"{"device": "V100", "compute_capability": "7.0", "host_link": "coherent"}"#,
        )
        .unwrap();
        let key = |p: &str| crate::dataset::samples::SpeedupSample {
            switch: "s".into(),
            key: RunKey {
                program: p.into(),
                input: "i".into(),
                run: 1,
                variant: String::new(),
            },
            partner: String::new(),
            features: vec![],
            speedup: 1.0,
            speedup_range: None,
            campaign: String::new(),
        };
        let facts = LaunchFacts::read(&dir, &rows, []).unwrap();
        assert_eq!(facts.host_links.of(&key("p")), Some(HostLink::Coherent));
        let mut pcie = rows.clone();
        pcie.push(row("a", "c2clink__present", 0.0));
        let facts = LaunchFacts::read(&dir, &pcie, []).unwrap();
        assert_eq!(facts.host_links.of(&key("p")), Some(HostLink::Pcie));
        // A link the file may not name is refused with the file's name and what it may hold.
        std::fs::write(
            dir.join(DEVICE_FILE),
            r#"{"device": "V100", "compute_capability": "7.0", "host_link": "nvlink"}"#,
        )
        .unwrap();
        let err = LaunchFacts::read(&dir, &rows, []).unwrap_err().to_string();
        assert!(
            err.contains(DEVICE_FILE) && err.contains(r#""host_link": "pcie" or "coherent""#),
            "{err}"
        );
        std::fs::write(dir.join(DEVICE_FILE), "{").unwrap();
        let err = LaunchFacts::read(&dir, &rows, []).unwrap_err().to_string();
        assert!(err.contains(DEVICE_FILE), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
