//! Damaged data files beyond the profilers' (those are `parse_robustness`): ARFF and CSV
//! instance tables, campaign measurement and timing tables, Kernel Tuner and KTT tuning-space
//! JSON, and GPGPU-Sim logs. Every reader must answer a truncated, mutated or reshuffled real
//! file with an error that names the file, never a panic. The damage is random with a fixed
//! seed, so every run tries the same files.

use std::io::Read;
use std::path::{Path, PathBuf};

use advise::dataset::import::{read_space, Tool};
use advise::dataset::instances::Instances;
use advise::dataset::measurements::{read_measurements, read_timings};
use advise::profile::{parse_path, FormatChoice};
use advise::search::SearchSpace;
use proptest::prelude::*;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

/// A real file's bytes (gzip undone), at most `limit` lines of it.
fn real(rel: &str, limit: usize) -> Vec<u8> {
    let raw = std::fs::read(root().join(rel)).unwrap();
    let bytes = if rel.ends_with(".gz") {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(raw.as_slice())
            .read_to_end(&mut out)
            .unwrap();
        out
    } else {
        raw
    };
    let text = String::from_utf8(bytes).unwrap();
    let mut lines: Vec<&str> = text.lines().take(limit).collect();
    if lines.is_empty() {
        lines.push("");
    }
    (lines.join("\n") + "\n").into_bytes()
}

/// What a damaged file is, how it is read, and the real file it starts from.
struct Kind {
    name: &'static str,
    source: &'static str,
    lines: usize,
    read: fn(&Path) -> Result<(), String>,
}

fn err(e: advise::Error) -> String {
    e.to_string()
}

const KINDS: &[Kind] = &[
    Kind {
        name: "train.arff",
        source: "tests/golden/weka/data/cpu_vendor_train.arff",
        lines: 400,
        read: |p| Instances::read(p).map(drop).map_err(err),
    },
    Kind {
        name: "train.csv",
        source: "tests/golden/weka/data/ktt_conv_train.csv",
        lines: 60,
        read: |p| Instances::read(p).map(drop).map_err(err),
    },
    Kind {
        name: "measurements.csv",
        source: "datasets/sim-qv100-nb/measurements.csv.gz",
        lines: 300,
        read: |p| read_measurements(p).map(drop).map_err(err),
    },
    Kind {
        name: "timings.csv",
        source: "datasets/sim-qv100-nb/timings.csv",
        lines: 40,
        read: |p| read_timings(p).map(drop).map_err(err),
    },
    Kind {
        name: "cache.json",
        source: "tests/fixtures/spaces/pnpoly__RTX_2080_Ti.json.gz",
        lines: 400,
        read: |p| {
            read_space(Tool::KernelTuner, p).map_err(err)?;
            SearchSpace::load(p).map(drop).map_err(err)
        },
    },
    Kind {
        name: "ktt.json",
        source: "tests/fixtures/spaces/KTPnpolyOutput_3090.json.gz",
        lines: usize::MAX,
        read: |p| read_space(Tool::Ktt, p).map(drop).map_err(err),
    },
    Kind {
        name: "sim.log",
        source: "tests/fixtures/gpgpusim/gpgpusim_SM7_QV100x2_NB_000000_512.log.gz",
        lines: 100_000,
        read: |p| parse_path(p, FormatChoice::GpgpuSim).map(drop).map_err(err),
    },
];

/// Writes `bytes` as the kind's file and reads it; an error must name the file.
fn check(kind: &Kind, bytes: &[u8]) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(kind.name);
    std::fs::write(&path, bytes).unwrap();
    if let Err(msg) = (kind.read)(&path) {
        assert!(
            msg.contains(kind.name),
            "{}: the error does not name the file: {msg}",
            kind.name
        );
    }
}

#[test]
fn every_real_file_reads() {
    for k in KINDS {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(k.name);
        std::fs::write(&path, real(k.source, k.lines)).unwrap();
        assert_eq!((k.read)(&path), Ok(()), "{}", k.source);
    }
}

#[test]
fn empty_files_are_errors_naming_the_file() {
    for k in KINDS {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(k.name);
        std::fs::write(&path, b"").unwrap();
        match (k.read)(&path) {
            Ok(()) => panic!("{}: an empty file was read without an error", k.name),
            Err(msg) => assert!(msg.contains(k.name), "{msg}"),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 48,
        rng_seed: proptest::test_runner::RngSeed::Fixed(20_261_124),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn truncation_never_panics(kind in 0..KINDS.len(), frac in 0.0f64..1.0) {
        let k = &KINDS[kind];
        let bytes = real(k.source, k.lines);
        check(k, &bytes[..(bytes.len() as f64 * frac) as usize]);
    }

    #[test]
    fn byte_mutations_never_panic(
        kind in 0..KINDS.len(),
        edits in proptest::collection::vec((0.0f64..1.0, any::<u8>()), 1..12),
    ) {
        let k = &KINDS[kind];
        let mut bytes = real(k.source, k.lines);
        for (pos, b) in edits {
            let i = ((bytes.len() - 1) as f64 * pos) as usize;
            bytes[i] = b;
        }
        check(k, &bytes);
    }

    #[test]
    fn line_deletion_and_duplication_never_panic(
        kind in 0..KINDS.len(),
        ops in proptest::collection::vec((0.0f64..1.0, any::<bool>()), 1..6),
    ) {
        let k = &KINDS[kind];
        let text = String::from_utf8(real(k.source, k.lines)).unwrap();
        let mut lines: Vec<&str> = text.lines().collect();
        for (pos, dup) in ops {
            let i = ((lines.len() - 1) as f64 * pos) as usize;
            if dup { lines.insert(i, lines[i]); } else if lines.len() > 1 { lines.remove(i); }
        }
        check(k, lines.join("\n").as_bytes());
    }
}
