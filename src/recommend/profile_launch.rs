//! What a user's profile says about its launches beyond the level: the GPU's compute
//! capability and the registers per thread, from which a block-size step gets its occupancy
//! (experiment::step_features), and what is missing where it cannot.

use crate::dataset::measurements::MeasurementRow;
use crate::experiment::step_features::StepValues;

/// What a profile says about its launches beyond the level: the GPU's compute capability
/// (Nsight Compute's device attributes) and the registers per thread, where every launch has
/// the same count.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ProfileLaunch {
    pub compute_capability: Option<String>,
    pub registers: Option<f64>,
    /// Every distinct register count per thread the profile's launches report, ascending
    /// (empty where it has none), so that a missing count can say why it is missing.
    pub register_counts: Vec<f64>,
    /// How the GPU is attached to its host, where the profile's device attributes show it.
    pub host_link: Option<crate::dataset::host_link::HostLink>,
}

impl ProfileLaunch {
    /// Why a block-size step of this profile has no occupancy, where the profile lacks what
    /// it takes; `None` where it has the GPU (one the occupancy calculator knows) and one
    /// register count.
    pub fn missing(&self) -> Option<String> {
        match (&self.compute_capability, self.registers) {
            (None, _) => Some("the profile names no GPU (--gpu names it)".into()),
            (Some(cc), _) if crate::experiment::launch::compute_capability_given(cc).is_none() => {
                Some(format!(
                    "the occupancy calculator does not know compute capability {cc}"
                ))
            }
            (Some(_), None) if self.register_counts.len() > 1 => Some(format!(
                "the profile's launches use {} different register counts per thread ({}); \
                 --kernel REGEX selects one kernel",
                self.register_counts.len(),
                self.register_counts
                    .iter()
                    .map(|r| r.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            (Some(_), None) if self.register_counts.is_empty() => Some(
                "the profile lacks launch__registers_per_thread (`ncu --metrics \
                 launch__registers_per_thread,...` or `advise profile` records it)"
                    .into(),
            ),
            // One count, reported by several runs of the profile rather than one.
            (Some(_), None) => Some(
                "the profile gives no one run's register count per thread (--kernel selects \
                 one kernel)"
                    .into(),
            ),
            _ => None,
        }
    }

    /// From a profile's measurements (one run).
    pub fn of_rows(rows: &[MeasurementRow]) -> Self {
        let facts = crate::experiment::launch::LaunchFacts::of_rows(rows);
        let one = |n: usize| n == 1;
        ProfileLaunch {
            compute_capability: one(facts.compute_capability.len())
                .then(|| facts.compute_capability.into_values().next())
                .flatten(),
            registers: one(facts.registers.len())
                .then(|| facts.registers.into_values().next())
                .flatten(),
            register_counts: register_counts(rows),
            host_link: crate::dataset::host_link::HostLink::of_rows(rows),
        }
    }

    /// Why raising `family`'s `level` by `factor` cannot be done, where this profile shows it:
    /// a block the GPU would not launch (experiment::launch::block_refusal: past 1,024
    /// threads, or, with the GPU and the registers per thread known, past the registers the
    /// SM gives one block).
    pub fn cannot_step(&self, family: &str, level: f64, factor: f64) -> Option<String> {
        if super::step_model::family_of(family) != "BLOCK_SIZE" {
            return None;
        }
        crate::experiment::launch::block_refusal(
            self.compute_capability.as_deref(),
            self.registers,
            level * factor,
        )
    }

    /// The step features of raising `family`'s `level` by `factor` for this profile.
    pub fn step(&self, family: &str, level: f64, factor: f64) -> StepValues {
        StepValues::new(level.log2(), factor.log2()).with_launch(
            super::step_model::family_of(family),
            self.compute_capability.as_deref(),
            self.registers,
        )
    }
}

/// The distinct positive register counts per thread among `rows` (by metric name or a details
/// page's label), ascending.
fn register_counts(rows: &[MeasurementRow]) -> Vec<f64> {
    let mut counts: Vec<f64> = rows
        .iter()
        .filter_map(crate::experiment::launch::registers_of)
        .collect();
    counts.sort_by(f64::total_cmp);
    counts.dedup();
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A profile with Nsight Compute's device attributes and one register count gives a
    /// block-size step its occupancy change; without the device it has none, and a tile step
    /// never has one.
    #[test]
    fn a_profile_with_its_gpu_gives_a_block_step_its_occupancy() {
        let regs = MeasurementRow::for_test("launch__registers_per_thread", 32.0);
        let major = MeasurementRow::for_test("device__attribute_compute_capability_major", 7.0);
        let minor = MeasurementRow::for_test("device__attribute_compute_capability_minor", 5.0);
        let launch = ProfileLaunch::of_rows(&[regs.clone(), major, minor]);
        assert_eq!(launch.compute_capability.as_deref(), Some("7.5"));
        assert_eq!(launch.registers, Some(32.0));
        // 96 -> 192 threads on Turing with 32 registers: 10 blocks of 3 warps, then 5 of 6.
        let step = launch.step("BLOCK_SIZE", 96.0, 2.0);
        assert_eq!(step.occupancy, Some(0.0));
        assert!((step.warp_fill.unwrap() - (0.75f64 / 0.75).log2()).abs() < 1e-12);
        let step = launch.step("BLOCK_SIZE", 64.0, 1.5);
        assert!((step.occupancy.unwrap() - (30.0f64 / 32.0).log2()).abs() < 1e-12);
        assert_eq!(launch.step("TILE_SIZE", 2.0, 2.0).occupancy, None);
        assert_eq!(launch.missing(), None);
        let no_gpu = ProfileLaunch::of_rows(&[regs]);
        assert!(no_gpu.missing().unwrap().contains("--gpu"));
        let unknown = ProfileLaunch {
            compute_capability: Some("13.0".into()),
            registers: Some(32.0),
            register_counts: vec![32.0],
            host_link: None,
        };
        assert!(unknown.missing().unwrap().contains("13.0"));
        let no_regs = ProfileLaunch {
            compute_capability: Some("7.5".into()),
            registers: None,
            register_counts: vec![],
            host_link: None,
        };
        assert!(no_regs
            .missing()
            .unwrap()
            .contains("lacks launch__registers_per_thread"));
        let two = [32.0, 40.0].map(|r| {
            let mut row = MeasurementRow::for_test("launch__registers_per_thread", r);
            row.kernel = format!("k{r}");
            row
        });
        let major = MeasurementRow::for_test("device__attribute_compute_capability_major", 7.0);
        let minor = MeasurementRow::for_test("device__attribute_compute_capability_minor", 5.0);
        let differ = ProfileLaunch::of_rows(&[two[0].clone(), two[1].clone(), major, minor]);
        assert_eq!(differ.register_counts, [32.0, 40.0]);
        let why = differ.missing().unwrap();
        assert!(
            why.contains("2 different register counts per thread (32, 40)"),
            "{why}"
        );
        assert!(why.contains("--kernel"), "{why}");
        // One count, but not from one run: neither missing nor differing.
        let runs = ProfileLaunch {
            register_counts: vec![32.0],
            ..no_regs.clone()
        };
        assert!(runs
            .missing()
            .unwrap()
            .contains("no one run's register count per thread"));
        assert_eq!(no_gpu.step("BLOCK_SIZE", 64.0, 2.0).occupancy, None);
    }

    /// A block step that no GPU or not this GPU can launch is named, with why; one that fits,
    /// or a family other than block size, is not.
    #[test]
    fn a_block_step_past_the_launch_limits_cannot_be_taken() {
        // 384 -> 768 threads at 168 registers: 129,024 registers, over the 65,536 a block
        // may have (the B200 details page of a cuBLASLt kernel in tests/fixtures has 384
        // threads at 168 registers; an H100's limits are the same).
        let h100 = ProfileLaunch {
            compute_capability: Some("9.0".into()),
            registers: Some(168.0),
            register_counts: vec![168.0],
            host_link: None,
        };
        let why = h100.cannot_step("BLOCK_SIZE up", 384.0, 2.0).unwrap();
        assert!(
            why.contains("768 threads") && why.contains("129024"),
            "{why}"
        );
        assert_eq!(h100.cannot_step("BLOCK_SIZE", 192.0, 2.0), None);
        assert_eq!(h100.cannot_step("TILE_SIZE", 384.0, 2.0), None);
        // Past 1,024 threads whatever the GPU.
        let unknown = ProfileLaunch::default();
        assert!(unknown
            .cannot_step("BLOCK_SIZE", 1024.0, 2.0)
            .unwrap()
            .contains("1,024"));
        assert_eq!(unknown.cannot_step("BLOCK_SIZE", 384.0, 2.0), None);
    }
}
