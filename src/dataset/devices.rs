//! GPUs named by tuning tools, and the `device.json` of a dataset folder.
//!
//! Tuning tools record a device name (KTT's `Metadata.Device`, Kernel Tuner's `device_name`),
//! not a compute capability; the occupancy calculator needs the capability. The names and
//! capabilities are NVIDIA's ("CUDA GPUs - Compute Capability", developer.nvidia.com/cuda-gpus).

use serde::{Deserialize, Serialize};

/// A dataset folder's `device.json`: the GPU the data was measured on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DeviceFile {
    pub device: String,
    pub compute_capability: String,
    /// How the GPU was attached to its host, where the source says
    /// (dataset::host_link; an importer that knows the machine writes it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host_link: Option<super::host_link::HostLink>,
}

/// The file name of [`DeviceFile`] in a dataset folder.
pub const DEVICE_FILE: &str = "device.json";

/// Marketing names (matched as whole words, the first that occurs wins, so a name that holds
/// another comes first) and their compute capability; only capabilities the occupancy
/// calculator knows (static_analysis::occupancy).
pub const DEVICES: &[(&str, &str)] = &[
    ("RTX 2080 Ti", "7.5"),
    ("RTX 2080", "7.5"),
    ("RTX 2070", "7.5"),
    ("RTX 2060", "7.5"),
    ("TITAN RTX", "7.5"),
    ("Tesla T4", "7.5"),
    ("GTX 1660", "7.5"),
    ("GTX 1650", "7.5"),
    ("Quadro RTX 8000", "7.5"),
    ("Quadro RTX 6000", "7.5"),
    ("Quadro RTX 5000", "7.5"),
    ("Quadro RTX 4000", "7.5"),
    ("RTX 3090", "8.6"),
    ("RTX 3080", "8.6"),
    ("RTX 3070", "8.6"),
    ("RTX 3060", "8.6"),
    ("RTX 3050", "8.6"),
    ("RTX A4000", "8.6"),
    ("RTX A6000", "8.6"),
    ("RTX A5500", "8.6"),
    ("RTX A5000", "8.6"),
    ("RTX A4500", "8.6"),
    ("RTX A2000", "8.6"),
    ("A4000", "8.6"),
    ("A6000", "8.6"),
    ("A40", "8.6"),
    ("A10", "8.6"),
    ("A10G", "8.6"),
    ("A16", "8.6"),
    ("RTX 4090", "8.9"),
    ("RTX 4080", "8.9"),
    ("RTX 4070", "8.9"),
    ("RTX 4060", "8.9"),
    ("RTX 6000 Ada", "8.9"),
    ("RTX 5000 Ada", "8.9"),
    ("RTX 4500 Ada", "8.9"),
    ("RTX 4000 Ada", "8.9"),
    ("RTX 3500 Ada", "8.9"),
    ("RTX 2000 Ada", "8.9"),
    ("RTX 1000 Ada", "8.9"),
    ("RTX 500 Ada", "8.9"),
    ("L40S", "8.9"),
    ("L40", "8.9"),
    ("L4", "8.9"),
    ("A100", "8.0"),
    ("A30", "8.0"),
    ("A800", "8.0"),
    ("RTX 5090", "12.0"),
    ("RTX 5080", "12.0"),
    ("RTX 5070", "12.0"),
    ("RTX 5060", "12.0"),
    ("RTX PRO 6000 Blackwell", "12.0"),
    ("B200", "10.0"),
    ("GB200", "10.0"),
    ("B300", "10.3"),
    ("GB300", "10.3"),
    ("H100", "9.0"),
    ("H200", "9.0"),
    ("GH200", "9.0"),
    ("H800", "9.0"),
    ("V100", "7.0"),
    ("TITAN V", "7.0"),
    ("P100", "6.0"),
    ("TITAN X (Pascal)", "6.1"),
    ("GTX 1080", "6.1"),
    ("GTX 1070", "6.1"),
    ("GTX 1060", "6.1"),
    ("GTX 1050", "6.1"),
    ("Tesla P40", "6.1"),
    ("Tesla P4", "6.1"),
    ("Quadro P6000", "6.1"),
    ("TITAN Xp", "6.1"),
    ("GTX 980", "5.2"),
    ("GTX 970", "5.2"),
    ("TITAN X", "5.2"),
    ("GTX 960", "5.2"),
    ("Tesla M40", "5.2"),
    ("Tesla M60", "5.2"),
    ("Quadro M6000", "5.2"),
    ("GTX 750", "5.0"),
    ("K80", "3.7"),
    ("K40", "3.5"),
    ("K20", "3.5"),
    ("GTX 680", "3.0"),
    ("GTX 780", "3.5"),
    ("GTX TITAN", "3.5"),
];

/// The compute capability ("7.5") of a device name such as "NVIDIA GeForce RTX 2080 Ti";
/// `None` for a name this table does not know (an AMD GPU, a new NVIDIA one).
pub fn compute_capability_of(device: &str) -> Option<&'static str> {
    let d = device.to_ascii_lowercase();
    DEVICES
        .iter()
        .find(|(name, _)| names(&d, &name.to_ascii_lowercase()))
        .map(|&(_, cc)| cc)
}

/// Whether `name` occurs in `device` as whole words ("a100" in "a100-sxm4-40gb", not in
/// "rtx a1000").
fn names(device: &str, name: &str) -> bool {
    device.match_indices(name).any(|(i, _)| {
        let before = device[..i].chars().next_back();
        let after = device[i + name.len()..].chars().next();
        !before.is_some_and(|c| c.is_ascii_alphanumeric())
            && !after.is_some_and(|c| c.is_ascii_alphanumeric())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn device_names_map_to_their_compute_capability() {
        assert_eq!(
            compute_capability_of("NVIDIA GeForce RTX 2080 Ti"),
            Some("7.5")
        );
        assert_eq!(compute_capability_of("GeForce GTX 1070"), Some("6.1"));
        assert_eq!(
            compute_capability_of("NVIDIA GeForce RTX 3090"),
            Some("8.6")
        );
        assert_eq!(compute_capability_of("NVIDIA H100 80GB HBM3"), Some("9.0"));
        assert_eq!(compute_capability_of("NVIDIA A100-SXM4-40GB"), Some("8.0"));
        assert_eq!(compute_capability_of("NVIDIA TITAN Xp"), Some("6.1"));
        assert_eq!(
            compute_capability_of("NVIDIA GeForce RTX 5090"),
            Some("12.0")
        );
        assert_eq!(compute_capability_of("NVIDIA B200"), Some("10.0"));
        assert_eq!(compute_capability_of("NVIDIA GB200"), Some("10.0"));
        // Names one of which holds another: the right one wins.
        for (name, cc) in [
            ("NVIDIA GeForce GTX TITAN X", "5.2"),
            ("NVIDIA TITAN X (Pascal)", "6.1"),
            ("GeForce GTX TITAN Black", "3.5"),
            ("NVIDIA RTX 6000 Ada Generation", "8.9"),
            ("NVIDIA RTX 500 Ada Generation Laptop GPU", "8.9"),
            ("Quadro RTX 6000", "7.5"),
            ("NVIDIA L40S", "8.9"),
            ("NVIDIA L4", "8.9"),
            ("NVIDIA A10G", "8.6"),
            ("NVIDIA A10", "8.6"),
            ("NVIDIA GH200 480GB", "9.0"),
            ("Tesla P4", "6.1"),
            ("Tesla K80", "3.7"),
            ("NVIDIA GeForce GTX 750 Ti", "5.0"),
        ] {
            assert_eq!(compute_capability_of(name), Some(cc), "{name}");
        }
        assert_eq!(compute_capability_of("NVIDIA RTX A1000"), None);
        assert_eq!(compute_capability_of("AMD Instinct MI250X"), None);
    }
}
