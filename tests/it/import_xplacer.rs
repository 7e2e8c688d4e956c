//! `advise import xplacer`: XPlacer's unified-memory placement variants (a real benchmark
//! folder in tests/fixtures/xplacer, provenance in tests/fixtures/PROVENANCE.md) into a
//! dataset whose samples are the baseline against each one-object policy change.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use advise::dataset::features::View;
use advise::dataset::import::xplacer;
use advise::experiment::data::load_pool_view;
use predicates::prelude::*;

use crate::common::{advise, bench_transfer_baselines};

fn hotspot() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/xplacer/hotspot")
}

#[test]
fn hotspot_becomes_baseline_samples_of_every_policy() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("xplacer-hotspot");
    let summary = advise()
        .args(["-q", "import", "xplacer", "--json", "--out-dir"])
        .arg(&out)
        .arg(hotspot())
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&summary).unwrap();
    // 8 grid sizes; the baseline and 2 objects x 6 policies each; 26 section values of the
    // one launch per baseline, one kernel time per other variant.
    assert_eq!(v["kernel_inputs"], 8);
    assert_eq!(v["variants"], 8 * 13);
    assert_eq!(v["measurements"], 8 * 26 + 8 * 12);
    assert_eq!(v["switches"].as_array().unwrap().len(), 12);
    let prov = std::fs::read_to_string(out.join("PROVENANCE.md")).unwrap();
    assert!(prov.contains("UM_READ_MOSTLY") && prov.contains("command:"));

    let pool = load_pool_view(&out, View::Counters).unwrap();
    assert_eq!(pool.samples.len(), 8 * 12);
    assert_eq!(pool.family("advise0:0->2"), Some("UM_READ_MOSTLY"));
    // kernel_stat.csv: calculate_temp at 1024, AVG 0.053920 ms for variant 00 and
    // 3.153093 ms for variant 10 (object 0 managed, no advice; lines 2 and 58).
    let s = pool
        .samples
        .iter()
        .find(|s| s.switch == "advise0:0->1" && s.key.input == "input=1024,kernel=calculate_temp")
        .unwrap();
    assert!(
        (s.speedup - 0.053920 / 3.153093).abs() < 1e-12,
        "{}",
        s.speedup
    );
    // The baseline's section values are its features (labels read as their metrics).
    let occ = pool
        .columns
        .iter()
        .position(|c| c == "sm__warps_active.avg.pct_of_peak_sustained_active")
        .unwrap();
    assert_eq!(s.features[occ], Some(69.06));
}

/// A benchmark folder written by the test (synthetic numbers, not measurements).
fn synthetic_folder(dir: &Path, stat: &str, counters: &str) -> PathBuf {
    let b = dir.join("gaussian");
    let kl = b.join("kernel-level-measurement");
    std::fs::create_dir_all(kl.join("GPU-log")).unwrap();
    std::fs::write(kl.join("GPU-log/kernel_stat.csv"), stat).unwrap();
    std::fs::write(kl.join("dataset.csv"), counters).unwrap();
    b
}

#[test]
fn gaussian_size_runs_keep_only_managed_memory() {
    let dir = tempfile::tempdir().unwrap();
    let mut stat =
        String::from("kernel,InputData,advise0,variant,TimePerc,Time,calls,AVG,MIN,MAX\n");
    for input in ["16", "matrix4"] {
        for p in 0..7 {
            stat += &format!("Fan1,{input},{p},{p},1,1,1,{},1,1\n", 1.0 + p as f64);
        }
    }
    let counters = "Benchmark,InputData,ID,Kernel,Duration,Achieved Occupancy\n\
                    gaussian,16,0,Fan1,1000,50\ngaussian,matrix4,0,Fan1,1000,40\n";
    let b = synthetic_folder(dir.path(), &stat, counters);
    let x = xplacer::read(&b).unwrap();
    let kept = |input: &str| {
        x.timings
            .iter()
            .filter(|t| t.input.starts_with(&format!("input={input},")))
            .count()
    };
    // `-s 16`: the baseline and policy 1 only; the file input: all seven.
    assert_eq!(kept("16"), 2);
    assert_eq!(kept("matrix4"), 7);
    assert_eq!(x.switches.len(), 6);
}

#[test]
fn wrong_folders_and_values_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    advise()
        .args(["import", "xplacer", "--out-dir"])
        .arg(dir.path().join("out"))
        .arg(dir.path())
        .assert()
        .failure()
        .stderr(
            predicate::str::contains("kernel_stat.csv")
                .and(predicate::str::contains("benchmarks/hotspot")),
        );
    let stat = "kernel,InputData,advise0,variant,TimePerc,Time,calls,AVG,MIN,MAX\n\
                Fan1,16,0,0,1,1,1,2.0,1,1\nFan1,16,x,x,1,1,1,2.0,1,1\n";
    let counters = "Benchmark,InputData,ID,Kernel,Duration\ngaussian,16,0,Fan1,1000\n";
    let b = synthetic_folder(dir.path(), stat, counters);
    advise()
        .args(["import", "xplacer", "--out-dir"])
        .arg(dir.path().join("out"))
        .arg(&b)
        .assert()
        .failure()
        .stderr(predicate::str::contains("kernel_stat.csv:3").and(predicate::str::contains("`x`")));
    let counters = "Benchmark,InputData,ID,Kernel,Duration\ngaussian,16,first,Fan1,1000\n";
    let b = synthetic_folder(&dir.path().join("bad-id"), stat, counters);
    advise()
        .args(["import", "xplacer", "--out-dir"])
        .arg(dir.path().join("out"))
        .arg(&b)
        .assert()
        .failure()
        .stderr(
            predicate::str::contains("dataset.csv:2")
                .and(predicate::str::contains("not a launch number")),
        );
    // A kernel_stat.csv with its header only imports nothing: an error, not an empty dataset.
    let header = "kernel,InputData,advise0,variant,TimePerc,Time,calls,AVG,MIN,MAX\n";
    let counters = "Benchmark,InputData,ID,Kernel,Duration\ngaussian,16,0,Fan1,1000\n";
    let b = synthetic_folder(&dir.path().join("header-only"), header, counters);
    advise()
        .args(["import", "xplacer", "--out-dir"])
        .arg(dir.path().join("out"))
        .arg(&b)
        .assert()
        .code(3)
        .stderr(
            predicate::str::contains("kernel_stat.csv: no rows below the header")
                .and(predicate::str::contains("cut off")),
        );
    assert!(!dir.path().join("out").exists());
}

/// The error `xplacer::read` gives for a synthetic folder (numbers made up by the test).
fn read_error(dir: &Path, name: &str, stat: &str, counters: &str) -> String {
    let b = synthetic_folder(&dir.join(name), stat, counters);
    match xplacer::read(&b) {
        Ok(x) => panic!("{name}: read {} timings", x.timings.len()),
        Err(e) => e.to_string(),
    }
}

#[test]
fn times_and_policies_that_cannot_make_samples_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let head = "kernel,InputData,advise0,variant,TimePerc,Time,calls,AVG,MIN,MAX\n";
    let counters = "Benchmark,InputData,ID,Kernel,Duration\ngaussian,matrix4,0,Fan1,1000\n";
    let stat = |rows: &str| format!("{head}{rows}");
    let e = read_error(
        dir.path(),
        "negative",
        &stat("Fan1,matrix4,0,0,1,1,1,2.0,1,1\nFan1,matrix4,1,1,1,1,1,-1,1,1\n"),
        counters,
    );
    assert!(
        e.contains("kernel_stat.csv:3") && e.contains("AVG -1"),
        "{e}"
    );
    let e = read_error(
        dir.path(),
        "zero",
        &stat("Fan1,matrix4,0,0,1,1,1,0,1,1\n"),
        counters,
    );
    assert!(
        e.contains("kernel_stat.csv:2") && e.contains("AVG 0"),
        "{e}"
    );
    let e = read_error(
        dir.path(),
        "twice",
        &stat("Fan1,matrix4,0,0,1,1,1,2.0,1,1\nFan1,matrix4,1,1,1,1,1,3,1,1\nFan1,matrix4,0,0,1,1,1,2.5,1,1\n"),
        counters,
    );
    assert!(
        e.contains("kernel_stat.csv:4") && e.contains("the first on line 2"),
        "{e}"
    );
    let e = read_error(
        dir.path(),
        "policy",
        &stat("Fan1,matrix4,0,0,1,1,1,2.0,1,1\nFan1,matrix4,12,12,1,1,1,3,1,1\n"),
        counters,
    );
    assert!(
        e.contains("kernel_stat.csv:3") && e.contains("`12`") && e.contains("0-6"),
        "{e}"
    );
    let e = read_error(
        dir.path(),
        "no-baseline",
        &stat("Fan1,matrix4,1,1,1,1,1,3,1,1\nFan1,matrix4,2,2,1,1,1,4,1,1\n"),
        counters,
    );
    assert!(
        e.contains("no kernel and input pair has both a baseline time"),
        "{e}"
    );
    let e = read_error(
        dir.path(),
        "no-counters",
        &stat("Fan1,matrix4,0,0,1,1,1,2.0,1,1\n"),
        "Benchmark,InputData,ID,Kernel,Duration\n",
    );
    assert!(
        e.contains("dataset.csv") && e.contains("no rows below the header"),
        "{e}"
    );
}

#[test]
fn pairs_without_a_baseline_time_are_left_out_and_named() {
    let dir = tempfile::tempdir().unwrap();
    let stat = "kernel,InputData,advise0,variant,TimePerc,Time,calls,AVG,MIN,MAX\n\
                Fan1,matrix4,0,0,1,1,1,2.0,1,1\nFan1,matrix4,1,1,1,1,1,3,1,1\n\
                Fan1,matrix8,1,1,1,1,1,3,1,1\n";
    let counters = "Benchmark,InputData,ID,Kernel,Duration\n\
                    gaussian,matrix4,0,Fan1,1000\ngaussian,matrix8,0,Fan1,1000\n";
    let b = synthetic_folder(dir.path(), stat, counters);
    let out = dir.path().join("out");
    advise()
        .args(["-q", "import", "xplacer", "--out-dir"])
        .arg(&out)
        .arg(&b)
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "left out (no baseline time, every advise column 0): Fan1 on matrix8",
        ));
    let prov = std::fs::read_to_string(out.join("PROVENANCE.md")).unwrap();
    assert!(prov.contains("no baseline time") && prov.contains("Fan1 on matrix8"));
}

/// `bench transfer --method baselines --dataset <hotspot imported into a temporary folder>`,
/// run in `cwd`.
fn transfer_on_hotspot(cwd: &Path) -> assert_cmd::assert::Assert {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("xplacer-hotspot");
    advise()
        .args(["-q", "import", "xplacer", "--out-dir"])
        .arg(&out)
        .arg(hotspot())
        .assert()
        .success();
    bench_transfer_baselines(cwd, &[OsStr::new("--dataset"), out.as_os_str()])
}

/// One small program: no k-fold or leave-one-program-out split exists, and `bench transfer`
/// says so for each instead of stopping at the first; with nothing evaluated at all, it fails
/// (exit 3) with those reasons.
#[test]
fn transfer_on_one_small_program_notes_the_missing_splits() {
    let empty = tempfile::tempdir().unwrap();
    transfer_on_hotspot(empty.path()).code(3).stderr(
        predicate::str::contains("no evaluation could be made")
            .and(predicate::str::contains("grouped k-fold:"))
            .and(predicate::str::contains("leave one program out:")),
    );
}

/// `--dataset` names what is evaluated: the GPU pairs of datasets/ that are not named stay
/// out (run from the repository root, where datasets/ has two).
#[test]
fn named_datasets_leave_other_gpu_pairs_out() {
    transfer_on_hotspot(Path::new(env!("CARGO_MANIFEST_DIR")))
        .code(3)
        .stderr(predicate::str::contains("leave one GPU out").not());
}

/// A measurement folder itself (`lassen-kernel-level-measurement`: `dataset.csv` and
/// `lassen-log/kernel_stat.csv`) reads too, and the provenance names its machine.
#[test]
fn a_lassen_measurement_folder_reads_and_names_its_machine() {
    let dir = tempfile::tempdir().unwrap();
    let kl = dir.path().join("hotspot/lassen-kernel-level-measurement");
    std::fs::create_dir_all(kl.join("lassen-log")).unwrap();
    // Synthetic numbers in the layout of the upstream Lassen folders.
    std::fs::write(
        kl.join("lassen-log/kernel_stat.csv"),
        "kernel,InputData,advise0,variant,TimePerc,Time,calls,AVG,MIN,MAX\n\
         calculate_temp,64,0,0,1,1,1,2.0,1,1\ncalculate_temp,64,3,3,1,1,1,4.0,1,1\n",
    )
    .unwrap();
    std::fs::write(
        kl.join("dataset.csv"),
        "Benchmark,InputData,ID,Kernel,Duration,Executed Ipc Active\n\
         hotspot,64,0,calculate_temp,2000,0.5\n",
    )
    .unwrap();
    let x = xplacer::read(&kl).unwrap();
    assert!(x.machine.contains("Lassen"), "{}", x.machine);
    assert_eq!(x.timings.len(), 2);
    assert!(x
        .measurements
        .iter()
        .any(|m| m.metric == "Executed Ipc Active" && m.unit == "inst/cycle"));
    assert!(x.unknown_units.is_empty());
}

/// The same program imported twice into datasets/ as `X` and `X-<machine>` (both with
/// counters): bench transfer's defaults pair them both ways as leave one GPU out.
#[test]
fn a_machine_twin_in_datasets_is_left_out_both_ways() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["xplacer-hotspot", "xplacer-hotspot-lassen"] {
        advise()
            .args(["-q", "import", "xplacer", "--out-dir"])
            .arg(dir.path().join("datasets").join(name))
            .arg(hotspot())
            .assert()
            .success();
    }
    // The twin's machine twice as slow (synthetic): a byte-for-byte copy is refused as one.
    let t = dir
        .path()
        .join("datasets/xplacer-hotspot-lassen/timings.csv");
    let mut rdr = csv::Reader::from_path(&t).unwrap();
    let header = rdr.headers().unwrap().clone();
    let col = header.iter().position(|c| c == "time_ms").unwrap();
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(&header).unwrap();
    for rec in rdr.records() {
        let rec = rec.unwrap();
        let mut cells: Vec<String> = rec.iter().map(str::to_string).collect();
        cells[col] = (cells[col].parse::<f64>().unwrap() * 2.0).to_string();
        w.write_record(&cells).unwrap();
    }
    std::fs::write(&t, w.into_inner().unwrap()).unwrap();
    bench_transfer_baselines(dir.path(), &["--features", "counters"].map(OsStr::new))
        .success()
        .stdout(
            predicate::str::contains(
                "leave one GPU out (96 folds; xplacer-hotspot -> xplacer-hotspot-lassen;",
            )
            .and(predicate::str::contains(
                "leave one GPU out (96 folds; xplacer-hotspot-lassen -> xplacer-hotspot;",
            )),
        );
}
