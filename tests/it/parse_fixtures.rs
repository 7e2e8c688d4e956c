//! The parsers on real profiler output (tests/fixtures, see PROVENANCE.md there). Expected
//! counts and values come from tests/fixtures/EXPECTED.md, which was computed from the files
//! with Python's csv module, independently of this code.

use std::path::{Path, PathBuf};

use advise::profile::{parse_path, Format, FormatChoice, ProfileData};

pub(crate) fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(rel)
}

pub(crate) fn parse(rel: &str) -> ProfileData {
    parse_path(&fixture(rel), FormatChoice::Auto).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The value of `metric` in launch `launch` (first match), in base units.
pub(crate) fn value(d: &ProfileData, launch: u64, metric: &str) -> (f64, String) {
    let m = d
        .measurements
        .iter()
        .find(|m| m.launch == launch && m.metric == metric)
        .unwrap_or_else(|| panic!("{metric} of launch {launch} not found"));
    (m.value, m.unit.clone())
}

pub(crate) fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * a.abs().max(b.abs())
}

struct Expect {
    file: &'static str,
    format: Format,
    launches: usize,
    measurements: usize,
    rules: usize,
}

const EXPECTED: &[Expect] = &[
    Expect {
        file: "ncu/ncu_details_B200_superbenchmark_cublaslt.csv",
        format: Format::NcuLong,
        launches: 1,
        measurements: 47,
        rules: 8,
    },
    Expect {
        file: "ncu/ncu_details_RTX5090_llmperfopt_flash_fwd_splitkv.csv",
        format: Format::NcuLong,
        launches: 1,
        measurements: 41,
        rules: 4,
    },
    Expect {
        file: "ncu/ncu_details_V100_xplacer_bfs_graph4096_aws.csv",
        format: Format::NcuLong,
        launches: 13,
        measurements: 338,
        rules: 0,
    },
    Expect {
        file: "ncu/ncu_details_V100_xplacer_bfs_graph4096_lassen.csv",
        format: Format::NcuLong,
        launches: 13,
        measurements: 676,
        rules: 0,
    },
    Expect {
        file: "ncu/ncu_metrics_RTX4090_instroofline_ginkgo_spmm.csv",
        format: Format::NcuLong,
        launches: 5,
        measurements: 70,
        rules: 0,
    },
    Expect {
        file: "ncu/ncu_metrics_sections_RTX4090_instroofline_cusparse.csv",
        format: Format::NcuLong,
        launches: 3,
        measurements: 237,
        rules: 27,
    },
    Expect {
        file: "ncu/ncu_raw_B200_roofline-analysis_torch_sdpa_flash.csv",
        format: Format::NcuRaw,
        launches: 16,
        measurements: 7312,
        rules: 0,
    },
    // nvprof: EXPECTED.md counts utilisation levels (`Mid (5)`) apart from numbers; advise
    // reads them as their level, so they are measurements here.
    Expect {
        file: "nvprof/nvprof_metrics_K20c_ieee2017_j2d5pt_jacobi-orig.csv",
        format: Format::NvprofMetrics,
        launches: 4,
        measurements: 76,
        rules: 0,
    },
    Expect {
        file: "nvprof/nvprof_events_K20c_ieee2017_j3d27pt.csv",
        format: Format::NvprofEvents,
        launches: 1,
        measurements: 141,
        rules: 0,
    },
    Expect {
        file: "nvprof/nvprof_events_metrics_K40c_ieee2017_cheby_untiled.csv",
        format: Format::NvprofEvents,
        launches: 1,
        // Three metrics the metrics table repeats from the events table (inst_executed,
        // local_load_transactions, local_store_transactions), kept once.
        measurements: 141 + 124 - 3,
        rules: 0,
    },
    Expect {
        file: "nvprof/nvprof_wide_aggoff_GTXTITAN_ieee2017_j3d7pt.csv",
        format: Format::NvprofWide,
        launches: 4,
        // Multiprocessor Activity and Executed IPC are printed twice for each launch, kept once.
        measurements: 1024 + 36 - 8,
        rules: 0,
    },
    Expect {
        file: "nvprof/nvprof_gputrace_K20c_ieee2017_j2d5pt_jacobi-orig.csv",
        format: Format::NvprofTrace,
        launches: 12,
        measurements: 120,
        rules: 0,
    },
    Expect {
        file: "nvprof/nvprof_metrics_text_GTX1070_thrust2D_gradient.txt",
        format: Format::NvprofText,
        launches: 3,
        measurements: 15,
        rules: 0,
    },
];

#[test]
fn every_fixture_parses_with_the_expected_counts() {
    for e in EXPECTED {
        let d = parse(e.file);
        assert_eq!(d.format, e.format, "{}", e.file);
        assert_eq!(d.launches().len(), e.launches, "{} launches", e.file);
        // EXPECTED.md counts the file's cells; ncu's launch columns add their facts apart.
        assert_eq!(
            d.measurements.len() - d.launch_facts,
            e.measurements,
            "{} measurements",
            e.file
        );
        assert_eq!(d.rules.len(), e.rules, "{} rules", e.file);
    }
}

/// ncu's launch columns ("Block Size", "CC") stand in for the metrics they give
/// where a launch's cells lack them, and only there: the B200 details page has a Launch
/// Statistics section (Block Size 384, Grid Size) and no device attributes; the RTX 4090 `--metrics` page
/// neither; the V100 pages were written by an ncu without those columns.
#[test]
fn ncu_launch_columns_fill_in_what_a_launch_lacks() {
    let d = parse("ncu/ncu_details_B200_superbenchmark_cublaslt.csv");
    assert_eq!(
        value(&d, 0, "device__attribute_compute_capability_major").0,
        10.0
    );
    assert_eq!(
        value(&d, 0, "device__attribute_compute_capability_minor").0,
        0.0
    );
    assert_eq!(value(&d, 0, "Block Size").0, 384.0);
    assert!(!d
        .measurements
        .iter()
        .any(|m| m.metric == "launch__block_size" || m.metric == "launch__grid_size"));
    assert_eq!(d.launch_facts, 2, "the two attributes");

    let d = parse("ncu/ncu_metrics_RTX4090_instroofline_ginkgo_spmm.csv");
    let of = |metric: &str| -> Vec<f64> {
        d.measurements
            .iter()
            .filter(|m| m.metric == metric)
            .map(|m| m.value)
            .collect()
    };
    assert_eq!(of("launch__block_size").len(), d.launches().len());
    assert!(of("launch__block_size").contains(&512.0));
    assert!(of("launch__block_size").contains(&128.0));
    assert!(of("launch__grid_size").is_empty());
    assert!(of("device__attribute_compute_capability_minor")
        .iter()
        .all(|&v| v == 9.0));
    assert_eq!(d.launch_facts, 3 * d.launches().len());

    let d = parse("ncu/ncu_details_V100_xplacer_bfs_graph4096_lassen.csv");
    assert_eq!(d.launch_facts, 0);
}

#[test]
fn ncu_spot_values_in_base_units() {
    let d = parse("ncu/ncu_details_B200_superbenchmark_cublaslt.csv");
    assert_eq!(value(&d, 0, "Duration"), (406240e-9, "second".into()));
    assert_eq!(value(&d, 0, "Memory Throughput"), (21.68, "%".into()));
    assert_eq!(value(&d, 0, "# SMs").0, 152.0);

    let d = parse("ncu/ncu_details_RTX5090_llmperfopt_flash_fwd_splitkv.csv");
    let (dur, unit) = value(&d, 0, "gpu__time_duration.sum");
    assert!(close(dur, 10.34e-6) && unit == "second", "{dur} {unit}");
    assert_eq!(
        value(&d, 0, "sm__ops_path_tensor_src_bf16_dst_fp32.sum").0,
        335_544_320.0
    );
    assert_eq!(value(&d, 0, "Elapsed Cycles"), (20830.0, "cycle".into()));
    assert_eq!(value(&d, 0, "SM Active Cycles").0, 7914.56);
    assert_eq!(value(&d, 0, "DRAM Frequency").0, 13.77e9);
    // The same name in two sections with two units stays apart.
    assert_eq!(value(&d, 0, "Memory Throughput"), (26.0, "%".into()));
    let (bw, unit) = value(&d, 0, "Memory Throughput [byte/second]");
    assert!(close(bw, 458.30e9) && unit == "byte/second");
    assert!(
        !d.measurements
            .iter()
            .any(|m| m.metric == "flop_count_hp.sum"),
        "n/a is not a value"
    );

    let d = parse("ncu/ncu_details_V100_xplacer_bfs_graph4096_aws.csv");
    assert_eq!(value(&d, 1, "Duration").0, 9344e-9);
    assert_eq!(value(&d, 12, "Achieved Occupancy"), (23.39, "%".into()));
    assert_eq!(
        value(&d, 0, "SM Frequency"),
        (963802083.33, "cycle/second".into())
    );
    assert_eq!(
        d.measurements[0].kernel,
        "Kernel2(bool*,bool*,bool*,bool*,int)"
    );

    let d = parse("ncu/ncu_metrics_RTX4090_instroofline_ginkgo_spmm.csv");
    assert_eq!(value(&d, 0, "smsp__thread_inst_executed.sum").0, 4102.0);
    assert_eq!(
        value(&d, 3, "lts__t_sectors_op_read.sum"),
        (517856.0, "sector".into())
    );

    let d = parse("ncu/ncu_metrics_sections_RTX4090_instroofline_cusparse.csv");
    assert_eq!(
        value(&d, 2, "smsp__inst_executed.sum"),
        (4614456.0, "inst".into())
    );
    assert_eq!(value(&d, 0, "Memory Throughput"), (6.91, "%".into()));
    assert_eq!(
        value(&d, 0, "Memory Throughput [byte/second]").0,
        62500000.0
    );
    assert_eq!(d.rules[0].rule, "SOLBottleneck");
    assert_eq!(d.rules[0].rule_type, "WRN");

    let d = parse("ncu/ncu_raw_B200_roofline-analysis_torch_sdpa_flash.csv");
    assert_eq!(value(&d, 0, "gpu__time_duration.sum").0, 685280e-9);
    assert_eq!(value(&d, 15, "gpu__time_duration.sum").0, 685568e-9);
    assert_eq!(value(&d, 0, "launch__registers_per_thread").0, 255.0);
    assert_eq!(
        value(&d, 0, "device__attribute_multiprocessor_count").0,
        148.0
    );
}

#[test]
fn ncu_rule_findings_carry_estimated_speedups() {
    let d = parse("ncu/ncu_details_B200_superbenchmark_cublaslt.csv");
    let with_speedup: Vec<_> = d
        .rules
        .iter()
        .filter(|r| r.estimated_speedup.is_some())
        .collect();
    assert!(!with_speedup.is_empty());
    let imbalance: Vec<f64> = d
        .rules
        .iter()
        .filter(|r| r.rule == "WorkloadImbalance")
        .filter_map(|r| r.estimated_speedup)
        .collect();
    assert!(imbalance.contains(&14.55), "{imbalance:?}");
}

#[test]
fn nvprof_spot_values() {
    let d = parse("nvprof/nvprof_metrics_K20c_ieee2017_j2d5pt_jacobi-orig.csv");
    let m = d
        .measurements
        .iter()
        .find(|m| m.metric == "inst_issued" && m.kernel.starts_with("__kernel___forma_kernel__2__"))
        .unwrap();
    assert_eq!((m.value, m.invocations), (134227145.0, 3));
    assert_eq!(value(&d, 0, "gld_efficiency"), (83.340104, "%".into()));

    let d = parse("nvprof/nvprof_events_K20c_ieee2017_j3d27pt.csv");
    assert_eq!(value(&d, 0, "active_cycles").0, 450536271.0);
    assert_eq!(value(&d, 0, "elapsed_cycles_sm").0, 451544364.0);

    let d = parse("nvprof/nvprof_events_metrics_K40c_ieee2017_cheby_untiled.csv");
    assert_eq!(value(&d, 0, "active_cycles").0, 544053156.0);
    assert_eq!(value(&d, 0, "achieved_occupancy").0, 0.831314);
    assert_eq!(value(&d, 0, "stall_not_selected"), (7.738261, "%".into()));
    assert_eq!(value(&d, 0, "l1_shared_utilization").0, 1.0);
    assert_eq!(value(&d, 0, "gld_throughput"), (0.0, "byte/second".into()));

    let d = parse("nvprof/nvprof_wide_aggoff_GTXTITAN_ieee2017_j3d7pt.csv");
    assert_eq!(value(&d, 0, "elapsed_cycles_sm").0, 88336276.0);
    assert!(close(
        value(&d, 0, "Device Memory Read Throughput").0,
        34.827004e9
    ));
    assert_eq!(value(&d, 3, "inst_executed").0, 202217548.0);

    let d = parse("nvprof/nvprof_gputrace_K20c_ieee2017_j2d5pt_jacobi-orig.csv");
    let (dur, unit) = value(&d, 0, "Duration");
    assert!(close(dur, 7.922282e-3) && unit == "second");
    assert_eq!(
        d.measurements[0].kernel,
        "__kernel___forma_kernel__0__(float*, int, int, float*)"
    );

    let d = parse("nvprof/nvprof_metrics_text_GTX1070_thrust2D_gradient.txt");
    let m = d
        .measurements
        .iter()
        .find(|m| m.metric == "gst_efficiency" && m.kernel.starts_with("void better_reduce_kernel"))
        .unwrap();
    assert_eq!((m.value, m.invocations), (12.5, 1000));
}

#[test]
fn forced_format_that_does_not_match_is_an_error() {
    let f = fixture("ncu/ncu_details_B200_superbenchmark_cublaslt.csv");
    let err = parse_path(&f, FormatChoice::Nvprof)
        .unwrap_err()
        .to_string();
    assert!(err.contains("no nvprof table found"), "{err}");
    let f = fixture("nvprof/nvprof_events_K20c_ieee2017_j3d27pt.csv");
    assert!(parse_path(&f, FormatChoice::Ncu).is_err());
}

#[test]
fn gzipped_files_read_the_same() {
    use std::io::Write;
    let f = fixture("ncu/ncu_metrics_RTX4090_instroofline_ginkgo_spmm.csv");
    let dir = tempfile::tempdir().unwrap();
    let gz = dir.path().join("x.csv.gz");
    let mut enc = flate2::write::GzEncoder::new(
        std::fs::File::create(&gz).unwrap(),
        flate2::Compression::default(),
    );
    enc.write_all(&std::fs::read(&f).unwrap()).unwrap();
    enc.finish().unwrap();
    let a = parse_path(&f, FormatChoice::Auto).unwrap();
    let b = parse_path(&gz, FormatChoice::Auto).unwrap();
    assert_eq!(a.measurements, b.measurements);
}

/// `ncu --csv --print-summary per-kernel`: the header and the four rows an NVIDIA Jetson AGX
/// Thor run printed in apexedgesystems/vernier's walkthrough (tests/fixtures/PROVENANCE.md).
#[test]
fn ncu_per_kernel_summary_reads_averages_per_launch_shape() {
    let d = parse("ncu/ncu_summary_perkernel_Thor_vernier_saxpy.csv");
    assert_eq!(d.format, Format::NcuSummary);
    // Two launch shapes of one kernel, 14 invocations each.
    let launches = d.launches();
    assert_eq!(launches.len(), 2);
    assert!(d.measurements.iter().all(|m| m.invocations == 14));
    assert_eq!(value(&d, 0, "Achieved Occupancy"), (74.92, "%".to_string()));
    assert_eq!(value(&d, 1, "Achieved Occupancy"), (28.52, "%".to_string()));
    assert_eq!(value(&d, 1, "Theoretical Occupancy").0, 50.0);
}
