//! The campaigns shipped in `datasets/` that `advise demo` runs the experiments on: the
//! real KTT tuning spaces, the simulated and the measured NB/BH campaigns, and the measured
//! campaigns with profiled replicates or several inputs, with the experiments each allows.

/// The real datasets the demo validates on.
pub(super) const DEMO_DATASETS: [&str; 2] = [
    "datasets/ktt-convolution-rtx2080ti",
    "datasets/ktt-pnpoly-rtx2080ti",
];

/// The simulated NB/BH campaign (GPGPU-Sim), shown first when present.
pub(super) const SIM_DATASETS: [&str; 2] = ["datasets/sim-qv100-nb", "datasets/sim-qv100-bh"];

/// The measured NB/BH campaign (one input on an NVIDIA H200), shown next when present.
pub(super) const GPU_DATASETS: [&str; 2] =
    ["datasets/h200-nb-20261126", "datasets/h200-bh-20261126"];

/// How the demo names a measured NB/BH campaign's results.
pub(super) const GPU_LABEL: &str = "H200, measured";

/// A measured campaign with profiled replicates or several inputs: the thesis's experiments
/// it allows (1-3 with profiled runs, 4 and leave one input out with inputs) on one program,
/// and the demo's note on it.
pub(super) struct Replicates {
    pub datasets: &'static [&'static str],
    pub program: &'static str,
    pub experiments: &'static str,
    pub label: &'static str,
    pub note: &'static str,
}

/// NB on an NVIDIA H100, BH on an H200 (3 profiled runs each), then NB and BH on three inputs
/// on an H200.
pub(super) const REPLICATES: [Replicates; 4] = [
    Replicates {
        datasets: &["datasets/h100-nb-20261126"],
        program: "NB",
        experiments: "1,2,3",
        label: "H100, measured",
        note: "Measured NB data with profiled replicates: the 64 NB variants timed 3 times and \
               profiled 3 times on an NVIDIA H100 with CUDA 13.0, one input \
               (datasets/h100-nb-20261126/PROVENANCE.md): the thesis's experiments 1-3, which \
               train on one profiled run and test on another, on real hardware.",
    },
    Replicates {
        datasets: &["datasets/h200-bh-20261126-3", "datasets/h200-bh-20261127"],
        program: "BH",
        experiments: "1,2,3",
        label: GPU_LABEL,
        note: "Measured BH data with profiled replicates: the 64 BH variants timed 3 times and \
               profiled 3 times on an NVIDIA H200 with CUDA 13.0, one input, over two visits \
               (datasets/h200-bh-20261126-3 and datasets/h200-bh-20261127, PROVENANCE.md): the \
               thesis's experiments 1-3 on its own irregular program, on real hardware.",
    },
    Replicates {
        datasets: &[
            "datasets/h200-nb-20261126",
            "datasets/h200-nb-20261127",
            "datasets/h200-nb-20261130",
        ],
        program: "NB",
        experiments: "4,loio",
        label: GPU_LABEL,
        note: "Measured NB data on three inputs: the 64 NB variants timed and profiled on an \
               NVIDIA H200 with 50000, 30000 and 100000 bodies (datasets/h200-nb-20261126, \
               datasets/h200-nb-20261127 and datasets/h200-nb-20261130, PROVENANCE.md): the \
               thesis's experiment 4, train on one input and test on each other, and leave one \
               input out, train on two and test on the third, on real hardware.",
    },
    Replicates {
        datasets: &[
            "datasets/h200-bh-20261126",
            "datasets/h200-bh-20261127-2",
            "datasets/h200-bh-20261130",
        ],
        program: "BH",
        experiments: "4,loio",
        label: GPU_LABEL,
        note: "Measured BH data on three inputs: the BH variants timed and profiled on an NVIDIA \
               H200 with 100000 (63 of 64 variants), 50000 (all 64) and 250000 bodies (the 32 \
               without VOTE; datasets/h200-bh-20261126, datasets/h200-bh-20261127-2 and \
               datasets/h200-bh-20261130, PROVENANCE.md): the thesis's experiment 4 and leave \
               one input out on real hardware.",
    },
];
