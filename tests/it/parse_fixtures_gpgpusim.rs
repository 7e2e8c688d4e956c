//! The GPGPU-Sim log reader on a real log of the simulated campaign (tests/fixtures, see
//! PROVENANCE.md there), and on logs cut short as a killed simulation leaves them.

use advise::profile::{parse_path, Format, FormatChoice};

use super::parse_fixtures::{close, fixture, parse, value};

/// A real GPGPU-Sim log of the project's own NB baseline (n = 512, one step) on the 2-SM
/// SM7_QV100 configuration of the simulated campaign (tests/fixtures/PROVENANCE.md).
const SIM_NB: &str = "gpgpusim/gpgpusim_SM7_QV100x2_NB_000000_512.log.gz";

/// The values of `name = V` lines of the log, in order: what the simulator printed.
fn printed(text: &str, name: &str) -> Vec<f64> {
    text.lines()
        .filter_map(|l| l.strip_prefix(name)?.trim_start().strip_prefix('='))
        .filter_map(|v| v.split_whitespace().next()?.parse().ok())
        .collect()
}

fn sim_text() -> String {
    use std::io::Read;
    let mut s = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(fixture(SIM_NB)).unwrap())
        .read_to_string(&mut s)
        .unwrap();
    s
}

#[test]
fn gpgpusim_log_gives_per_kernel_cycles_and_instructions() {
    let d = parse(SIM_NB);
    assert_eq!(d.format, Format::GpgpuSim);
    let text = sim_text();
    let cycles = printed(&text, "gpu_sim_cycle");
    let insn = printed(&text, "gpu_sim_insn");
    let launches = d.launches();
    assert_eq!(launches.len(), 2, "force and integrate");
    assert_eq!(launches[0].1, "force(Params)");
    assert_eq!(launches[1].1, "integrate(Params)");
    for (i, (launch, _)) in launches.iter().enumerate() {
        assert_eq!(value(&d, *launch, "gpc__cycles_elapsed.max").0, cycles[i]);
        assert_eq!(
            value(&d, *launch, "smsp__thread_inst_executed.sum").0,
            insn[i]
        );
        // 1132 MHz core clock of SM7_QV100: ns = cycles / 1.132.
        assert!(close(
            value(&d, *launch, "gpu__time_duration.sum").0,
            cycles[i] / 1.132
        ));
    }
    // Cumulative counters are differenced: the kernels' warp instructions add up to the
    // running total the last block printed.
    let warp_total = printed(&text, "gpgpu_n_tot_w_icount");
    let sum: f64 = launches
        .iter()
        .map(|(l, _)| value(&d, *l, "smsp__inst_executed.sum").0)
        .sum();
    assert_eq!(sum, *warp_total.last().unwrap());
    assert_eq!(value(&d, launches[0].0, "launch__grid_size").0, 2.0);
    // The log prints `gpu_occupancy = -nan%` for one kernel: counted and named, not read.
    assert!(d.skipped_cells >= 1, "{}", d.skipped_cells);
    let first = d.first_skipped.as_deref().unwrap_or("");
    assert!(
        first.contains("gpu_occupancy") && first.contains("NaN"),
        "{first}"
    );
    assert_eq!(value(&d, launches[0].0, "launch__block_size").0, 256.0);
    // The simulated QV100's compute capability, from the configuration options.
    for (name, v) in [
        ("device__attribute_compute_capability_major", 7.0),
        ("device__attribute_compute_capability_minor", 0.0),
    ] {
        assert_eq!(value(&d, launches[0].0, name).0, v);
    }
    // NB's force loop is uniform: every issued warp instruction has 32 active threads.
    let ratio = value(
        &d,
        launches[0].0,
        "smsp__thread_inst_executed_per_inst_executed.ratio",
    )
    .0;
    assert!(ratio > 31.0 && ratio <= 32.0, "{ratio}");
    assert!(value(&d, launches[0].0, "gpgpusim__gpgpu_n_load_insn").0 > 0.0);
}

#[test]
fn a_killed_simulation_is_a_clear_error_with_the_line() {
    let text = sim_text();
    let lines: Vec<&str> = text.lines().collect();
    let dir = tempfile::tempdir().unwrap();
    // Killed inside the second kernel's statistics (they start at the second kernel_name).
    let second = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.starts_with("kernel_name = "))
        .nth(1)
        .unwrap()
        .0;
    let cut = dir.path().join("killed.log");
    std::fs::write(&cut, lines[..second + 40].join("\n")).unwrap();
    let e = parse_path(&cut, FormatChoice::Auto)
        .unwrap_err()
        .to_string();
    assert!(e.contains(&format!("killed.log:{}:", second + 1)), "{e}");
    assert!(e.contains("truncated"), "{e}");
    // Killed while the second kernel ran: it was launched but has no statistics.
    let pushed = lines
        .iter()
        .position(|l| l.contains("pushing kernel '_Z9integrate"))
        .unwrap();
    std::fs::write(&cut, lines[..pushed + 3].join("\n")).unwrap();
    let e = parse_path(&cut, FormatChoice::Auto)
        .unwrap_err()
        .to_string();
    assert!(e.contains(&format!("killed.log:{}:", pushed + 1)), "{e}");
    assert!(e.contains("did not finish"), "{e}");
    // Killed between the first kernel's statistics and the second launch: every line is
    // whole, but the log lacks the exit line and the second kernel.
    std::fs::write(&cut, lines[..pushed - 1].join("\n")).unwrap();
    let e = parse_path(&cut, FormatChoice::Auto)
        .unwrap_err()
        .to_string();
    assert!(e.contains(&format!("killed.log:{}:", pushed - 1)), "{e}");
    assert!(e.contains("exit detected"), "{e}");
}

/// The error of parsing the shipped log with its first line that starts with `key` replaced
/// by `damaged`, and that line's number.
fn error_for_damaged_line(key: &str, damaged: &str) -> (String, usize) {
    let text = sim_text();
    let at = text.lines().position(|l| l.starts_with(key)).unwrap();
    let lines: Vec<&str> = text
        .lines()
        .enumerate()
        .map(|(i, l)| if i == at { damaged } else { l })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("damaged.log");
    std::fs::write(&path, lines.join("\n")).unwrap();
    let e = parse_path(&path, FormatChoice::Auto)
        .unwrap_err()
        .to_string();
    (e, at + 1)
}

#[test]
fn a_negative_statistic_is_an_error_with_its_line() {
    let (e, line) = error_for_damaged_line("gpu_sim_cycle = ", "gpu_sim_cycle = -1234");
    assert!(e.contains(&format!("damaged.log:{line}:")), "{e}");
    assert!(e.contains("gpu_sim_cycle = -1234"), "{e}");
    assert!(e.contains("never negative"), "{e}");
}

#[test]
fn a_statistic_that_is_not_a_number_is_an_error_with_its_line() {
    for (key, damaged) in [
        ("gpu_sim_cycle = ", "gpu_sim_cycle = abc"),
        ("kernel_launch_uid = ", "kernel_launch_uid = one"),
    ] {
        let (e, line) = error_for_damaged_line(key, damaged);
        assert!(e.contains(&format!("damaged.log:{line}:")), "{e}");
        assert!(e.contains("not a number"), "{e}");
    }
}

#[test]
fn a_kernel_of_no_cycles_or_no_name_is_an_error_with_its_line() {
    let (e, line) = error_for_damaged_line("gpu_sim_cycle = ", "gpu_sim_cycle = 0");
    assert!(e.contains(&format!("damaged.log:{line}:")), "{e}");
    assert!(e.contains("at least one cycle"), "{e}");
    let (e, line) = error_for_damaged_line("kernel_name = ", "kernel_name = ");
    assert!(e.contains(&format!("damaged.log:{line}:")), "{e}");
    assert!(e.contains("names no kernel"), "{e}");
}
