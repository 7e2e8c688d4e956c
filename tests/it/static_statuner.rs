//! The STATuner experiment on the committed block-size dataset (datasets/blocksize): every
//! method has an error on every kernel and GPU, each error is at least 0, and the means are
//! the means of the rows.

use std::collections::BTreeMap;

use crate::common::advise;
use advise::dataset::blocksize::Dataset;
use advise::experiment::statuner::evaluate_folder as run_statuner;
use advise::experiment::statuner::METHODS;

#[test]
fn dataset_is_consistent() {
    let ds = Dataset::load(&Dataset::default_dir()).unwrap();
    assert!(
        ds.kernels.len() >= 10,
        "{} (kernel, GPU) rows",
        ds.kernels.len()
    );
    for k in &ds.kernels {
        let t: Vec<_> = ds
            .timings
            .iter()
            .filter(|t| t.kernel == k.kernel && t.gpu == k.gpu)
            .collect();
        assert!(t.len() >= 5, "{} on {}: {} sizes", k.kernel, k.gpu, t.len());
        for row in &t {
            assert!(row.block_size.is_multiple_of(32) && row.block_size <= 1024);
            assert!(row.time_ms > 0.0);
        }
        assert!(
            k.registers > 0 && k.instructions > 0,
            "{} on {}",
            k.kernel,
            k.gpu
        );
    }
}

#[test]
fn json_has_every_method_on_every_kernel_and_gpu() {
    let out = advise().args(["statuner", "--json"]).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = v["rows"].as_array().unwrap();
    let ds = Dataset::load(&Dataset::default_dir()).unwrap();
    let mut sums: BTreeMap<String, (f64, usize)> = BTreeMap::new();
    for k in &ds.kernels {
        for m in METHODS {
            let r: Vec<_> = rows
                .iter()
                .filter(|r| {
                    r["kernel"] == k.kernel.as_str()
                        && r["gpu"] == k.gpu.as_str()
                        && r["method"] == *m
                })
                .collect();
            assert_eq!(r.len(), 1, "{m} on {} {}", k.kernel, k.gpu);
            let e = r[0]["error"].as_f64().unwrap();
            assert!(e.is_finite() && e >= 0.0, "{m} {} {}: {e}", k.kernel, k.gpu);
            let s = sums.entry(m.to_string()).or_default();
            s.0 += e;
            s.1 += 1;
        }
    }
    assert_eq!(rows.len(), ds.kernels.len() * METHODS.len());
    for (m, (sum, n)) in sums {
        let mean = v["mean"][&m].as_f64().unwrap();
        assert!((mean - sum / n as f64).abs() < 1e-12, "{m}");
    }
}

#[test]
fn evaluation_is_deterministic_and_best_is_never_beaten() {
    let a = run_statuner(None, 7).unwrap();
    let b = run_statuner(None, 7).unwrap();
    assert_eq!(a.rows, b.rows);
    // The occupancy calculator's best pick is never worse than its worst.
    for r in a.rows.iter().filter(|r| r.method == "occupancy-best") {
        let worst = a
            .rows
            .iter()
            .find(|w| w.method == "occupancy-worst" && w.kernel == r.kernel && w.gpu == r.gpu)
            .unwrap();
        assert!(r.error <= worst.error);
    }
}

/// `advise blocksize ARGS --json`, which must succeed, as JSON.
fn blocksize_json(args: &[&str]) -> serde_json::Value {
    let out = advise()
        .arg("blocksize")
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn blocksize_recommends_a_size_and_says_why() {
    if advise::static_analysis::nvcc::nvcc().is_err() {
        eprintln!("skipped: nvcc not found");
        return;
    }
    let v = blocksize_json(&["tests/data/static/nb_opt.cu", "--arch", "sm_86"]);
    let k = &v["kernels"][0];
    let b = k["block_size"].as_u64().unwrap();
    assert!(b.is_multiple_of(32) && b <= 1024);
    assert!(!k["max_occupancy_sizes"].as_array().unwrap().is_empty());
    let text = advise()
        .args([
            "blocksize",
            "tests/data/static/nb_opt.cu",
            "--arch",
            "sm_86",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("why:") && text.contains("occupancy"),
        "{text}"
    );
}

#[test]
fn no_classifier_on_these_labels_beats_the_bound() {
    let r = run_statuner(None, 1).unwrap();
    for bound in r.rows.iter().filter(|x| x.method == "best-training-label") {
        for m in ["statuner-svm", "svm-flat-labels"] {
            let svm = r
                .rows
                .iter()
                .find(|x| x.method == m && x.kernel == bound.kernel && x.gpu == bound.gpu)
                .unwrap();
            assert!(bound.error <= svm.error + 1e-12, "{m} {bound:?} {svm:?}");
            let s = svm.similarity.unwrap();
            assert!((0.0..=1.0).contains(&s), "{s}");
        }
    }
}

/// A folder that is not a block-size dataset says so: a campaign's dataset names the columns
/// its timings.csv lacks, an empty folder names the file it lacks and what the folder holds.
#[test]
fn a_folder_that_is_not_a_block_size_dataset_says_what_it_lacks() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let campaign = root.join("datasets/h200-nb-20261126");
    advise()
        .args(["statuner", "--dataset"])
        .arg(&campaign)
        .assert()
        .failure()
        .stderr(predicates::str::contains(
            "timings.csv:1: the header lacks the column(s) kernel, family",
        ));
    let empty = tempfile::tempdir().unwrap();
    advise()
        .args(["statuner", "--dataset"])
        .arg(empty.path())
        .assert()
        .failure()
        .stderr(predicates::str::contains(
            "timings.csv: no such file: the folder is not a block-size dataset folder",
        ));
    // --build-dataset from a folder without the caches: said before any compilation, and
    // nothing is written.
    let out = empty.path().join("built");
    advise()
        .args(["statuner", "--build-dataset"])
        .arg(empty.path())
        .arg("--dataset")
        .arg(&out)
        .assert()
        .code(3)
        .stderr(predicates::str::contains(
            "14 of them are not in this folder (convolution__RTX_2080_Ti.json.gz,",
        ));
    assert!(!out.exists());
}

/// PTX of a kernel with `__launch_bounds__(64)` (nvcc 11.8's output for a synthetic kernel,
/// cut to its header): the SVM's choice above the bound cannot launch and is not given.
const BOUNDED_PTX: &str = ".version 7.8
.target sm_90
.address_size 64

.visible .entry _Z2lbPf(
	.param .u64 _Z2lbPf_param_0
)
.maxntid 64, 1, 1
{
	.reg .f32 	%f<4>;
	.reg .b32 	%r<9>;
	.reg .b64 	%rd<5>;
	.shared .align 4 .b8 _ZZ2lbPfE1s[48000];

	ld.param.u64 	%rd1, [_Z2lbPf_param_0];
	cvta.to.global.u64 	%rd2, %rd1;
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd3, %r1, 4;
	add.s64 	%rd4, %rd2, %rd3;
	ld.global.f32 	%f1, [%rd4];
	bar.sync 	0;
	rsqrt.approx.f32 	%f3, %f1;
	st.global.f32 	[%rd4], %f3;
	ret;

}
";

#[test]
fn blocksize_keeps_within_a_kernels_launch_bounds() {
    if advise::static_analysis::nvcc::nvcc().is_err() {
        eprintln!("skipped: nvcc not found");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let ptx = dir.path().join("lb.ptx");
    std::fs::write(&ptx, BOUNDED_PTX).unwrap();
    let v = blocksize_json(&["--arch", "sm_90", ptx.to_str().unwrap()]);
    let k = &v["kernels"][0];
    assert_eq!(k["launch_bound"], 64, "{k}");
    assert!(k["block_size"].as_u64().unwrap() <= 64, "{k}");
    for s in k["max_occupancy_sizes"].as_array().unwrap() {
        assert!(s.as_u64().unwrap() <= 64, "{k}");
    }
}

/// The same kernel with `.reqntid 100, 1, 1` (as Triton and hand-written PTX set it): only
/// blocks of exactly 100 threads launch, so that is the size given, and the only one the
/// occupancy calculator weighs.
#[test]
fn blocksize_gives_a_required_size_as_it_is() {
    if advise::static_analysis::nvcc::nvcc().is_err() {
        eprintln!("skipped: nvcc not found");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let ptx = dir.path().join("req.ptx");
    std::fs::write(
        &ptx,
        BOUNDED_PTX.replace(".maxntid 64, 1, 1", ".reqntid 100, 1, 1"),
    )
    .unwrap();
    let v = blocksize_json(&["--arch", "sm_90", ptx.to_str().unwrap()]);
    let k = &v["kernels"][0];
    assert_eq!(k["required"], 100, "{k}");
    assert_eq!(k["block_size"], 100, "{k}");
    assert_eq!(k["max_occupancy_sizes"], serde_json::json!([100]), "{k}");
}

/// A source whose only kernel is a template nobody instantiates compiles to no kernel:
/// `static` and `blocksize` both say so as an error (exit 2, as `suggest --source` does;
/// `static` printed an empty report and exited 0, `blocksize` exited 3), with the fix.
#[test]
fn a_file_without_kernels_is_an_error_that_names_template_instantiation() {
    if advise::static_analysis::nvcc::nvcc().is_err() {
        eprintln!("skipped: nvcc not found");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let cu = dir.path().join("tpl.cu");
    std::fs::write(
        &cu,
        "template <typename T>\n__global__ void k(T *a) { a[threadIdx.x] *= 2; }\n",
    )
    .unwrap();
    for command in ["static", "blocksize"] {
        advise()
            .args([command, "--arch", "sm_80"])
            .arg(&cu)
            .assert()
            .code(2)
            .stderr(predicates::str::contains(
                "tpl.cu holds no kernel (no __global__ function, or only templates nothing \
                 instantiates: a template kernel is compiled only where it is instantiated",
            ));
    }
}
