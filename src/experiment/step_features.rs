//! Step features: what a sample's switch does, in words every program shares. A counter says
//! how the code runs; whether raising a block size helps depends as much on where it starts
//! (64 threads or 1,024) and how far it goes. For a switch that changes a numeric tuning
//! parameter these are
//!
//! - `step.level_log2`: log2 of the product of the variant's values of every parameter of the
//!   switch's family (threads per block for BLOCK_SIZE, outputs per thread for TILE_SIZE),
//! - `step.factor_log2`: log2(to / from), how far the step goes,
//! - for BLOCK_SIZE steps where the registers per thread and the GPU are known
//!   (experiment::launch), `step.occupancy_log2`: log2 of the theoretical occupancy after the
//!   step over the one before (the CUDA occupancy calculator, registers per thread unchanged,
//!   shared memory not counted), and `step.warp_fill_log2`: log2 of how evenly one block's
//!   warps fill the SM's warp schedulers after the step over before
//!   (static_analysis::occupancy_step::warp_fill). Across programs these carry over where
//!   the level alone does not (docs/families.md).
//!
//! Static features in the sense of STATuner (Gupta et al., "STATuner: Efficient Tuning of CUDA
//! Kernels Parameters", SC 2015): known from the source and launch, not measured. On/off
//! switches and NB/BH bits get missing values, never invented ones.

use std::collections::BTreeMap;

use serde::Serialize;

use super::data::SamplePool;

/// Whether models see the step features: not at all, beside the other features, or alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Step {
    #[default]
    Off,
    Add,
    Only,
}

/// Applies the choice to a pool: `Add` appends the step features, `Only` keeps nothing else.
pub fn apply(pool: &mut SamplePool, step: Step) {
    if step == Step::Off {
        return;
    }
    let added = add_step_features(pool);
    if step == Step::Only {
        let n = pool.columns.len() - added;
        pool.columns.drain(..n);
        for s in &mut pool.samples {
            s.features.drain(..n);
        }
    }
}

/// The step features' column names.
pub const STEP_COLUMNS: [&str; 4] = [
    "step.level_log2",
    "step.factor_log2",
    "step.occupancy_log2",
    "step.warp_fill_log2",
];

/// Positions in [`STEP_COLUMNS`] of the features the launch (GPU and registers) gives: its
/// tail, left out of a pool where no sample has them.
pub const LAUNCH_COLUMNS: [usize; 2] = [2, 3];

/// One sample's step: where it starts (log2 of the level), how far it goes (log2 of the
/// factor) and, for a block size on a known GPU, what it does to occupancy.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StepValues {
    pub level: f64,
    pub factor: f64,
    pub occupancy: Option<f64>,
    pub warp_fill: Option<f64>,
}

impl StepValues {
    /// A step without occupancy (a family other than BLOCK_SIZE, or an unknown GPU).
    pub fn new(level: f64, factor: f64) -> Self {
        StepValues {
            level,
            factor,
            occupancy: None,
            warp_fill: None,
        }
    }

    /// With the occupancy of a step of `family`, `registers` per thread, on a GPU of compute
    /// capability `cc`: only a BLOCK_SIZE step has one, and only where both are known and the
    /// GPU holds both blocks.
    pub fn with_launch(self, family: &str, cc: Option<&str>, registers: Option<f64>) -> Self {
        if family != "BLOCK_SIZE" {
            return self;
        }
        let arch = cc.and_then(|c| crate::static_analysis::occupancy::Arch::parse(c).ok());
        let (Some(arch), Some(regs)) = (arch, registers) else {
            return self;
        };
        let from = self.level.exp2().round();
        let to = (self.level + self.factor).exp2().round();
        let fits = |v: f64| v >= 1.0 && v <= f64::from(u32::MAX);
        if !(fits(from) && fits(to) && regs.is_finite() && regs > 0.0) {
            return self;
        }
        match crate::static_analysis::occupancy_step::block_step(
            &arch,
            regs.round() as u32,
            from as u32,
            to as u32,
        ) {
            Some((occupancy, fill)) => StepValues {
                occupancy: Some(occupancy),
                warp_fill: Some(fill),
                ..self
            },
            None => self,
        }
    }

    /// The values in the order of [`STEP_COLUMNS`] (missing as `None`).
    pub fn features(&self) -> [Option<f64>; 4] {
        [
            Some(self.level),
            Some(self.factor),
            self.occupancy,
            self.warp_fill,
        ]
    }

    /// As a matrix row (missing as NaN).
    pub fn row(&self) -> Vec<f64> {
        self.features()
            .iter()
            .map(|v| v.unwrap_or(f64::NAN))
            .collect()
    }
}

/// Each sample's step, `None` where the step features do not apply.
pub fn step_values(pool: &SamplePool) -> Vec<Option<StepValues>> {
    let mut family_of_param: BTreeMap<String, String> = BTreeMap::new();
    for sw in &pool.switches {
        if let (Some((param, _)), Some(fam)) = (sw.split_once(':'), pool.family(sw)) {
            family_of_param.insert(param.trim().to_string(), fam.to_string());
        }
    }
    pool.samples
        .iter()
        .map(|s| {
            let fam = pool.family(&s.switch)?;
            let (level, factor) = step_of(&s.switch, &s.key.variant, fam, &family_of_param)?;
            Some(
                StepValues::new(level, factor).with_launch(
                    fam,
                    pool.launch
                        .compute_capability
                        .get(&s.key.program)
                        .map(String::as_str),
                    pool.launch.registers.get(&s.key).copied(),
                ),
            )
        })
        .collect()
}

/// Appends the step features to every sample of the pool (missing where they do not apply),
/// and returns how many columns it added: the occupancy pair only where some sample has it
/// (a pool of times-only spaces without registers gets the first two, so that columns no
/// sample has do not change a forest's draw of columns).
pub fn add_step_features(pool: &mut SamplePool) -> usize {
    let steps = step_values(pool);
    let with_launch = steps.iter().flatten().any(|s| s.occupancy.is_some());
    let keep = if with_launch {
        STEP_COLUMNS.len()
    } else {
        LAUNCH_COLUMNS[0]
    };
    for (s, step) in pool.samples.iter_mut().zip(steps) {
        match step {
            Some(step) => s.features.extend_from_slice(&step.features()[..keep]),
            None => s.features.extend(std::iter::repeat_n(None, keep)),
        }
    }
    pool.columns
        .extend(STEP_COLUMNS[..keep].iter().map(|c| c.to_string()));
    keep
}

/// (level, factor) of a numeric parameter step `param:from->to` taken from `variant`.
fn step_of(
    switch: &str,
    variant: &str,
    family: &str,
    family_of_param: &BTreeMap<String, String>,
) -> Option<(f64, f64)> {
    let (_, change) = switch.split_once(':')?;
    let (from, to) = change.split_once("->")?;
    let (from, to) = (positive(from)?, positive(to)?);
    let mut level = 1.0;
    for kv in variant.split(',') {
        let (k, v) = kv.split_once('=')?;
        if family_of_param.get(k.trim()).map(String::as_str) == Some(family) {
            level *= positive(v)?;
        }
    }
    Some((level.log2(), (to / from).log2()))
}

fn positive(s: &str) -> Option<f64> {
    s.trim()
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite() && *v > 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::measurements::RunKey;
    use crate::dataset::samples::SpeedupSample;

    fn sample(switch: &str, variant: &str) -> SpeedupSample {
        SpeedupSample {
            switch: switch.into(),
            key: RunKey {
                program: "p".into(),
                input: "i".into(),
                run: 0,
                variant: variant.into(),
            },
            partner: String::new(),
            features: vec![Some(1.0)],
            speedup: 1.0,
            speedup_range: None,
            campaign: String::new(),
        }
    }

    /// Synthetic: a 16 x 8 block raised in x to 32; an on/off switch and a bit get missing
    /// values.
    #[test]
    fn a_block_size_step_knows_its_threads_and_its_factor() {
        let mut pool = SamplePool {
            name: "p".into(),
            columns: vec!["c".into()],
            samples: vec![
                sample("bx:16->32", "bx=16,by=8,u=0"),
                sample("u:0->1", "bx=16,by=8,u=0"),
                sample("SHMEM", "000000"),
            ],
            switches: vec!["bx:16->32".into(), "by:8->16".into(), "u:0->1".into()],
            normalizer: None,
            families: [
                ("bx:16->32", Some("BLOCK_SIZE")),
                ("by:8->16", Some("BLOCK_SIZE")),
                ("u:0->1", Some("UNROLL")),
                ("SHMEM", Some("SHMEM")),
            ]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v.map(str::to_string)))
            .collect(),
            simulated: Default::default(),
            launch: Default::default(),
        };
        let mut with_gpu = pool.clone();
        // No GPU known: no sample has occupancy, so the pair is left out.
        assert_eq!(add_step_features(&mut pool), 2);
        assert_eq!(pool.columns.len(), 3);
        assert_eq!(
            pool.samples[0].features,
            vec![Some(1.0), Some(7.0), Some(1.0)]
        );
        // u's level is 0: no positive value, so no step.
        assert_eq!(pool.samples[1].features, vec![Some(1.0), None, None]);
        assert_eq!(pool.samples[2].features, vec![Some(1.0), None, None]);
        let mut only = with_gpu.clone();
        apply(&mut only, Step::Only);
        assert_eq!(only.columns, STEP_COLUMNS[..2]);
        assert_eq!(only.samples[0].features, vec![Some(7.0), Some(1.0)]);

        // On a Turing GPU with 32 registers per thread, 128 -> 256 threads keeps every warp
        // slot filled (8 blocks, then 4): occupancy and warp fill unchanged.
        with_gpu
            .launch
            .compute_capability
            .insert("p".into(), "7.5".into());
        with_gpu
            .launch
            .registers
            .insert(with_gpu.samples[0].key.clone(), 32.0);
        assert_eq!(add_step_features(&mut with_gpu), STEP_COLUMNS.len());
        assert_eq!(
            with_gpu.samples[0].features,
            vec![Some(1.0), Some(7.0), Some(1.0), Some(0.0), Some(0.0)]
        );
        // The UNROLL step gets no occupancy even where the GPU is known.
        assert_eq!(with_gpu.samples[1].features[3], None);
    }
}
