//! `advise static` on real compiled files: PTX and a cubin committed in tests/data/static
//! (nvcc 11.8; see PROVENANCE.md there), and .cu files compiled on the spot where nvcc exists.

use std::path::{Path, PathBuf};

use advise::static_analysis::{analyze, compare, nvcc, optimization_facts, CompileOptions};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/static")
        .join(name)
}

fn applied(file: &str, flags: &str) -> Vec<String> {
    let opts = CompileOptions::new("sm_90", flags).unwrap();
    let mut names: Vec<String> = optimization_facts(&fixture(file), &opts)
        .unwrap()
        .0
        .into_iter()
        .map(|d| d.name)
        .collect();
    names.sort();
    names.dedup();
    names
}

fn have(tool: Option<PathBuf>, what: &str) -> bool {
    if tool.is_none() {
        eprintln!("skipped: {what} not found");
    }
    tool.is_some()
}

#[test]
fn fast_math_ptx_shows_ftz_rsqrt_shmem_const_vote_and_shuffles() {
    assert_eq!(
        applied("nb_opt_fastmath_sm90.ptx", ""),
        ["CONST", "FTZ", "RSQRT", "SHMEM", "VOTE"]
    );
    let a = analyze(
        &fixture("nb_opt_fastmath_sm90.ptx"),
        &CompileOptions::default(),
    )
    .unwrap();
    let k = &a.kernels[0];
    assert_eq!(k.short_name, "nbody_step");
    assert_eq!(k.other[0].name, "SHFL");
    assert_eq!(k.metrics.shuffle, 5);
    assert_eq!(k.metrics.syncthreads, 2);
    assert!(k.applied.iter().any(|d| d.evidence.contains("c_soft2")));
    let nd: Vec<_> = a.not_detectable.iter().map(|n| n.name).collect();
    assert_eq!(nd, ["PEEL", "UNROLL", "SORT", "WARP", "VOLA"]);
}

#[test]
fn plain_twin_applies_nothing_and_parameters_are_not_const() {
    assert!(applied("nb_plain_sm90.ptx", "").is_empty());
    let a = analyze(&fixture("nb_plain_sm90.ptx"), &CompileOptions::default()).unwrap();
    // soft2 and dt are kernel parameters (ld.param), never CONST.
    assert_eq!(a.kernels[0].metrics.constant_loads, 0);
    assert_eq!(a.kernels[0].metrics.rsqrt, 0);
}

#[test]
fn rsqrt_does_not_apply_to_public_kernels_without_a_square_root() {
    let opts = CompileOptions::default();
    for (file, applies) in [
        ("nb_plain_sm90.ptx", true),
        ("rodinia_hotspot_sm75.ptx", false),
        ("kerneltuner_pnpoly_sm86.ptx", false),
    ] {
        let (_, inapplicable) = optimization_facts(&fixture(file), &opts).unwrap();
        let names: Vec<&str> = inapplicable.iter().map(|n| n.name).collect();
        assert_eq!(!names.contains(&"RSQRT"), applies, "{file}: {names:?}");
        let a = analyze(&fixture(file), &opts).unwrap();
        assert!(a
            .kernels
            .iter()
            .all(|k| (k.metrics.square_roots > 0) == applies));
    }
}

#[test]
fn public_kernels_rodinia_hotspot_and_kernel_tuner_pnpoly() {
    let a = analyze(
        &fixture("rodinia_hotspot_sm75.ptx"),
        &CompileOptions::default(),
    )
    .unwrap();
    assert_eq!(
        a.arch, "sm_75",
        "a PTX file's report is for its own target, not --arch's"
    );
    assert!(
        a.notes
            .iter()
            .any(|n| n.contains("is for sm_75") && n.contains("--arch sm_90")),
        "the note says --arch did not apply: {:?}",
        a.notes
    );
    let k = a
        .kernels
        .iter()
        .find(|k| k.short_name == "calculate_temp")
        .unwrap();
    // Three 16x16 float tiles: the 3072 bytes nvprof reports as static.smem for this kernel
    // in the Rodinia nvprof data set (gpuperfpredict, all four GPUs).
    assert_eq!(k.metrics.shared_bytes, Some(3072));
    assert!(k.metrics.syncthreads >= 2);
    assert!(k.metrics.loops >= 1);
    let names: Vec<_> = k.applied.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(names, ["SHMEM"]);

    let p = analyze(
        &fixture("kerneltuner_pnpoly_sm86.ptx"),
        &CompileOptions::default(),
    )
    .unwrap();
    let k = p
        .kernels
        .iter()
        .find(|k| k.short_name == "cn_pnpoly")
        .unwrap();
    let names: Vec<_> = k.applied.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(
        names,
        ["CONST"],
        "pnpoly reads its polygon from __constant__ d_vertices"
    );
    assert!(k.metrics.branch_fraction > 0.0 && k.metrics.float_fraction > 0.0);
}

#[test]
fn cubin_is_read_with_cuobjdump() {
    if !have(nvcc::cuobjdump(), "cuobjdump") {
        return;
    }
    let a = analyze(
        &fixture("nb_opt_fastmath_sm90.cubin"),
        &CompileOptions::new("sm_80", "").unwrap(),
    )
    .unwrap();
    assert_eq!(a.arch, "sm_90", "a cubin's report is for the SASS it holds");
    let k = &a.kernels[0];
    assert_eq!(k.metrics.source, "sass");
    assert_eq!(k.metrics.shared_bytes, Some(2048));
    let names: Vec<_> = k.applied.iter().map(|d| d.name.as_str()).collect();
    // RSQRT cannot be read from SASS (IEEE sqrt uses MUFU.RSQ too).
    assert_eq!(names, ["FTZ", "SHMEM", "CONST", "VOTE"]);
}

#[test]
fn cu_files_compile_and_show_what_they_apply() {
    if !have(nvcc::nvcc().ok(), "nvcc") {
        return;
    }
    assert_eq!(
        applied("nb_opt.cu", "-use_fast_math"),
        ["CONST", "FTZ", "RSQRT", "SHMEM", "VOTE"]
    );
    assert_eq!(applied("nb_opt.cu", ""), ["CONST", "SHMEM", "VOTE"]);
    assert!(applied("nb_plain.cu", "").is_empty());
    let opts = CompileOptions::default();
    let a = analyze(&fixture("nb_opt.cu"), &opts).unwrap();
    let m = &a.kernels[0].metrics;
    assert!(m.registers.is_some_and(|r| r > 0));
    assert_eq!(m.shared_bytes, Some(2048));
}

#[test]
fn compare_reads_vola_and_peel() {
    if !have(nvcc::nvcc().ok(), "nvcc") {
        return;
    }
    let opts = CompileOptions::default();
    let run = |a: &str, b: &str| {
        let a = analyze(&fixture(a), &opts).unwrap();
        let b = analyze(&fixture(b), &opts).unwrap();
        compare(&a, &b).remove(0).1
    };
    let v = run("vola_before.cu", "vola_after.cu");
    assert!(v.iter().any(|d| d.metric == "volatile_loads" && d.b < d.a));
    let p = run("peel_before.cu", "peel_after.cu");
    assert!(p.iter().any(|d| d.metric == "loops" && d.b > d.a));
}

/// Two files without a kernel of the same name have nothing to compare: an error that lists
/// both files' kernels, not an empty comparison.
#[test]
fn compare_without_a_common_kernel_is_an_error() {
    crate::common::advise()
        .arg("static")
        .arg(fixture("rodinia_hotspot_sm75.ptx"))
        .arg("--compare")
        .arg(fixture("bh_000000_sm90.ptx"))
        .assert()
        .code(2)
        .stderr(predicates::str::contains("no kernel of the same name"))
        .stderr(predicates::str::contains("calculate_temp against clear"));
}

#[test]
fn missing_nvcc_is_an_error_with_the_install_hint() {
    // A .cu input with NVCC pointing nowhere must say how to install the toolkit.
    let err = std::process::Command::new(env!("CARGO_BIN_EXE_advise"))
        .args(["static"])
        .arg(fixture("nb_plain.cu"))
        .env("NVCC", "/nonexistent/nvcc")
        .output()
        .unwrap();
    assert!(!err.status.success());
    let text = String::from_utf8_lossy(&err.stderr);
    assert!(
        text.contains("/nonexistent/nvcc") && text.contains("apt-get install nvidia-cuda-toolkit"),
        "{text}"
    );
}

#[test]
fn json_has_kernels_with_name_metrics_and_applied() {
    let v = crate::common::run_json([
        PathBuf::from("static"),
        PathBuf::from("--json"),
        fixture("nb_opt_fastmath_sm90.ptx"),
    ]);
    let k = &v["kernels"][0];
    assert_eq!(k["name"], "_Z10nbody_stepPK6float4PS_iPi");
    for key in [
        "branch_fraction",
        "load_fraction",
        "int_fraction",
        "float_fraction",
        "loops",
        "syncthreads",
        "registers",
        "shared_bytes",
        "special_function",
        "shuffle",
        "vote",
        "atomic",
        "local_memory",
        "constant_loads",
    ] {
        assert!(!k["metrics"][key].is_null() || key == "registers", "{key}");
    }
    let names: Vec<&str> = k["applied"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["FTZ", "RSQRT", "SHMEM", "CONST", "VOTE"]);
    assert!(k["applied"][0]["evidence"]
        .as_str()
        .unwrap()
        .contains(".ftz"));
}

/// SORT needs loads at addresses computed from loaded data and WARP branches on loaded data
/// (`dataflow::indirection`): BH's tree building and walk have both, N-body's all-pairs loop,
/// Rodinia's hotspot stencil and the matrix multiplies neither; pnpoly branches on the
/// polygon's vertices but reaches them by index.
#[test]
fn sort_and_warp_need_a_data_dependent_walk() {
    let opts = CompileOptions::default();
    for (file, sort, warp) in [
        ("bh_000000_sm90.ptx", true, true),
        ("nb_plain_sm90.ptx", false, false),
        ("rodinia_hotspot_sm75.ptx", false, false),
        ("kerneltuner_pnpoly_sm86.ptx", false, true),
    ] {
        let (_, inapplicable) = optimization_facts(&fixture(file), &opts).unwrap();
        let names: Vec<&str> = inapplicable.iter().map(|n| n.name).collect();
        assert_eq!(!names.contains(&"SORT"), sort, "{file}: {names:?}");
        assert_eq!(!names.contains(&"WARP"), warp, "{file}: {names:?}");
    }
    let bh = analyze(&fixture("bh_000000_sm90.ptx"), &opts).unwrap();
    let force = bh
        .kernels
        .iter()
        .find(|k| k.short_name == "force")
        .expect("BH's force kernel");
    assert!(force.metrics.dependent_loads > 0 && force.metrics.data_branches > 0);
    if !have(nvcc::nvcc().ok(), "nvcc") {
        return;
    }
    let matmul = Path::new(env!("CARGO_MANIFEST_DIR")).join("variants/verify/matmul");
    for name in ["matMul-Gm.cu", "matMul-Sm-Un.cu"] {
        let (_, inapplicable) = optimization_facts(&matmul.join(name), &opts).unwrap();
        let names: Vec<&str> = inapplicable.iter().map(|n| n.name).collect();
        assert!(
            names.contains(&"SORT") && names.contains(&"WARP"),
            "{name}: {names:?}"
        );
    }
}

/// The text table shows the indirection counts on PTX, and "-" for a bare cubin, which has
/// no virtual registers to follow.
#[test]
fn the_table_shows_dependent_loads_and_data_branches_on_ptx_only() {
    let table = |file: &str| {
        let out = crate::common::advise()
            .args(["-q", "static"])
            .arg(fixture(file))
            .assert()
            .success();
        String::from_utf8_lossy(&out.get_output().stdout).to_string()
    };
    // Each kernel's row `name`: its two columns (PTX, SASS).
    let rows = |text: &str, name: &str| -> Vec<Vec<String>> {
        text.lines()
            .filter_map(|l| l.strip_prefix(name))
            .map(|rest| rest.split_whitespace().map(String::from).collect())
            .collect()
    };
    // clear, bounding_box, build_tree, summarize, sort_bodies, force, integrate: the tree's
    // building, summary, sorting and walk load through loaded indices.
    let bh = table("bh_000000_sm90.ptx");
    let dependent: Vec<bool> = rows(&bh, "dependent loads")
        .iter()
        .map(|r| r[0] != "0")
        .collect();
    assert_eq!(
        dependent,
        [false, false, true, true, true, true, false],
        "{bh}"
    );
    assert!(rows(&bh, "data branches").iter().all(|r| r[1] == "-"));
    if !have(nvcc::cuobjdump(), "cuobjdump") {
        return;
    }
    let cubin = table("nb_opt_fastmath_sm90.cubin");
    assert_eq!(rows(&cubin, "dependent loads"), [["-", "-"]]);
    assert_eq!(rows(&cubin, "data branches"), [["-", "-"]]);
}

fn stuck_tool() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/stand-ins/stuck_cuda_tool.sh")
}

/// A CUDA tool that fails names the file it was run on (a .cubin cuobjdump cannot read is
/// bad input, exit 3); one that hangs (ptxas on a PTX file declaring a billion registers
/// runs for hours) is stopped at the time limit with exit 4.
#[test]
fn a_failing_or_hanging_cuda_tool_names_the_file_and_is_stopped() {
    let ptx = fixture("nb_plain_sm90.ptx");
    let out = crate::common::advise()
        .arg("static")
        .arg(&ptx)
        .env("PTXAS", stuck_tool())
        .env_remove("STANDIN_TOOL_HANG")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(4), "{text}");
    assert!(
        text.contains(&format!("on {} failed (exit status 255)", ptx.display()))
            && text.contains("cannot read the input"),
        "{text}"
    );
    // A .cubin of the user's that cuobjdump cannot read is bad input with the fix.
    let out = crate::common::advise()
        .arg("static")
        .arg(fixture("nb_opt_fastmath_sm90.cubin"))
        .env("CUOBJDUMP", stuck_tool())
        .env_remove("STANDIN_TOOL_HANG")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{text}");
    assert!(
        text.contains("nb_opt_fastmath_sm90.cubin: cuobjdump cannot read it (exit status 255")
            && text.contains("nvcc -cubin"),
        "{text}"
    );
    let start = std::time::Instant::now();
    let out = crate::common::advise()
        .arg("static")
        .arg(fixture("nb_opt_fastmath_sm90.cubin"))
        .env("CUOBJDUMP", stuck_tool())
        .env("STANDIN_TOOL_HANG", "1")
        .env("ADVISE_TOOL_TIMEOUT", "1")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(4), "{text}");
    assert!(
        text.contains("nb_opt_fastmath_sm90.cubin ran longer than 1 s"),
        "{text}"
    );
    assert!(start.elapsed().as_secs() < 30, "{:?}", start.elapsed());
    // A ptxas that ends well but writes no cubin is named, not cuobjdump after it.
    let out = crate::common::advise()
        .arg("static")
        .arg(&ptx)
        .env("PTXAS", "/bin/true")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(4), "{text}");
    assert!(
        text.contains("ended without error but wrote no cubin"),
        "{text}"
    );
}
