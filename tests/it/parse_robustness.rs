//! Damaged profiler files: the parsers must answer with a clean error naming the file (and the
//! line where there is one), never a panic. The damage is applied to real fixture files.

use std::path::{Path, PathBuf};

use advise::profile::{parse, FormatChoice};
use proptest::prelude::*;

const FILES: &[&str] = &[
    "ncu/ncu_details_B200_superbenchmark_cublaslt.csv",
    "ncu/ncu_details_V100_xplacer_bfs_graph4096_aws.csv",
    "ncu/ncu_metrics_RTX4090_instroofline_ginkgo_spmm.csv",
    "ncu/ncu_raw_B200_roofline-analysis_torch_sdpa_flash.csv",
    "nvprof/nvprof_events_metrics_K40c_ieee2017_cheby_untiled.csv",
    "nvprof/nvprof_wide_aggoff_GTXTITAN_ieee2017_j3d7pt.csv",
    "nvprof/nvprof_gputrace_K20c_ieee2017_j2d5pt_jacobi-orig.csv",
    "nvprof/nvprof_metrics_text_GTX1070_thrust2D_gradient.txt",
];

fn read(rel: &str) -> Vec<u8> {
    let p: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(rel);
    std::fs::read(p).unwrap()
}

const NAME: &str = "damaged.csv";

/// Runs the parser; an error must be one line that starts with the file's name.
fn check(bytes: &[u8]) -> Result<usize, String> {
    match parse(Path::new(NAME), bytes, FormatChoice::Auto) {
        Ok(d) => Ok(d.measurements.len()),
        Err(e) => {
            let msg = e.to_string();
            assert!(msg.starts_with(NAME), "error does not name the file: {msg}");
            assert!(!msg.contains('\n'), "error is not one line: {msg}");
            Err(msg)
        }
    }
}

/// `damaged.csv:LINE: ...` -> LINE
fn line_of(msg: &str) -> Option<usize> {
    msg.strip_prefix(NAME)?
        .strip_prefix(':')?
        .split(':')
        .next()?
        .parse()
        .ok()
}

#[test]
fn empty_file_is_an_error_at_line_1() {
    for bytes in [&b""[..], b"\n\n  \n"] {
        let msg = check(bytes).unwrap_err();
        assert_eq!(line_of(&msg), Some(1), "{msg}");
    }
}

#[test]
fn binary_junk_is_an_error_with_a_line() {
    let mut bytes = read(FILES[0]);
    bytes.splice(200..200, [0u8, 159, 146, 150, 0]);
    let msg = check(&bytes).unwrap_err();
    assert!(msg.contains("binary"), "{msg}");
    assert!(line_of(&msg).is_some(), "{msg}");
}

#[test]
fn wrong_delimiter_is_an_error_at_the_header_line() {
    for (file, header_line) in [(FILES[0], 4), (FILES[4], 6)] {
        let text = String::from_utf8(read(file))
            .unwrap()
            .replace("\",\"", "\";\"");
        let msg = check(text.as_bytes()).unwrap_err();
        assert_eq!(line_of(&msg), Some(header_line), "{file}: {msg}");
        assert!(msg.contains("semicolons"), "{msg}");
    }
}

#[test]
fn a_row_cut_inside_a_quoted_field_is_an_error_at_that_row() {
    let text = String::from_utf8(read(FILES[1])).unwrap();
    // Cut the file in the middle of the kernel name of the last row.
    let last_row_start = text.trim_end().rfind('\n').unwrap() + 1;
    let cut = last_row_start + 30;
    let lines_before = text[..last_row_start].matches('\n').count();
    let msg = check(&text.as_bytes()[..cut]).unwrap_err();
    assert_eq!(line_of(&msg), Some(lines_before + 1), "{msg}");
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 64,
        // A fixed seed: the damage is random but the same on every run.
        rng_seed: proptest::test_runner::RngSeed::Fixed(20_261_123),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn truncation_never_panics(file in 0..FILES.len(), frac in 0.0f64..1.0) {
        let bytes = read(FILES[file]);
        let cut = (bytes.len() as f64 * frac) as usize;
        let _ = check(&bytes[..cut]);
    }

    #[test]
    fn byte_mutations_never_panic(
        file in 0..FILES.len(),
        edits in proptest::collection::vec((0.0f64..1.0, any::<u8>()), 1..20),
    ) {
        let mut bytes = read(FILES[file]);
        for (pos, b) in edits {
            let i = ((bytes.len() - 1) as f64 * pos) as usize;
            bytes[i] = b;
        }
        let _ = check(&bytes);
    }

    #[test]
    fn line_deletion_and_duplication_never_panic(
        file in 0..FILES.len(),
        ops in proptest::collection::vec((0.0f64..1.0, any::<bool>()), 1..6),
    ) {
        let text = String::from_utf8(read(FILES[file])).unwrap();
        let mut lines: Vec<&str> = text.lines().collect();
        for (pos, dup) in ops {
            let i = ((lines.len() - 1) as f64 * pos) as usize;
            if dup { lines.insert(i, lines[i]); } else if lines.len() > 1 { lines.remove(i); }
        }
        let _ = check(lines.join("\n").as_bytes());
    }
}
