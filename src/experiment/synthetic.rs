//! A generated (synthetic) NB/BH campaign of the thesis's size, for benchmarks and tests only:
//! the thesis's inputs, 3 runs, all 64 variants of both programs, with times and counters
//! computed from each variant's bits by a fixed formula plus seeded noise. Never a stand-in
//! for measurements: everything built from it is labelled synthetic.

use crate::dataset::measurements::{MeasurementRow, TimingRow};
use crate::input::{thesis_inputs, Input};
use crate::variant::Program;
use advise_ml::SplitMix64;

/// Per-bit time factors (bit 0 first): below 1 helps, above 1 hurts.
pub fn factors(p: Program) -> [f64; 6] {
    match p {
        Program::Nb => [0.9, 0.6, 1.0, 0.98, 0.95, 1.01],
        Program::Bh => [0.8, 1.005, 0.97, 0.85, 0.5, 0.9],
    }
}

/// The campaign: `counters` extra counters per run besides active cycles, named
/// `synthetic__counter_K.sum`.
pub fn campaign(counters: usize, seed: u64) -> (Vec<MeasurementRow>, Vec<TimingRow>) {
    let mut rng = SplitMix64::new(seed);
    let mut m = Vec::new();
    let mut t = Vec::new();
    for p in Program::ALL {
        for Input { bodies, steps } in thesis_inputs(p) {
            let input = format!("bodies={bodies},steps={steps}");
            for run in 1..=3u32 {
                for v in p.variants() {
                    let bits = v.bits();
                    let mut time = bodies as f64 * steps as f64 * 1e-4;
                    for (b, f) in factors(p).iter().enumerate() {
                        if bits & (1 << b) != 0 {
                            time *= f;
                        }
                    }
                    time *= 1.0 + 0.004 * (rng.next_f64() - 0.5);
                    let cycles = time * 1.4e6;
                    let row = |metric: String, unit: &str, value: f64| MeasurementRow {
                        program: p.name().into(),
                        input: input.clone(),
                        run,
                        variant: v.bit_string(),
                        kernel: "force".into(),
                        launch: 0,
                        invocations: 1,
                        metric,
                        unit: unit.into(),
                        value,
                    };
                    m.push(row("sm__cycles_active.sum".into(), "cycle", cycles));
                    for k in 0..counters {
                        let shape = 1.0 + 0.2 * ((bits as usize >> (k % 6)) & 1) as f64;
                        let value = cycles
                            * (0.1 + 0.01 * k as f64)
                            * shape
                            * (1.0 + 0.02 * rng.next_f64());
                        m.push(row(format!("synthetic__counter_{k}.sum"), "inst", value));
                    }
                    t.push(TimingRow {
                        program: p.name().into(),
                        input: input.clone(),
                        run,
                        variant: v.bit_string(),
                        time_ms: time,
                        repetitions: Some(1),
                        checksum_ok: Some(true),
                        times_ms: None,
                    });
                }
            }
        }
    }
    (m, t)
}
