//! Every before/after snippet of the catalogue compiles with nvcc for sm_90. Skipped, with a
//! message, where nvcc is absent (CI installs CUDA 11.8's nvcc, see scripts/ci/).

use std::path::PathBuf;
use std::process::Command;

use advise::recommend::catalogue::entries;

fn nvcc() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("NVCC") {
        return Some(PathBuf::from(p));
    }
    let found = Command::new("nvcc")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    found.then(|| PathBuf::from("nvcc"))
}

#[test]
fn snippets_compile_for_sm_90() {
    let Some(nvcc) = nvcc() else {
        eprintln!("SKIPPED: nvcc not found (set NVCC or install the CUDA toolkit); catalogue snippets not compiled");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut compiled = 0;
    for e in entries().unwrap() {
        for (which, code) in [("before", &e.before), ("after", &e.after)] {
            if code.is_empty() {
                continue;
            }
            let src = dir.path().join(format!("{}_{which}.cu", e.name));
            std::fs::write(&src, code).unwrap();
            let mut cmd = Command::new(&nvcc);
            cmd.args(["-arch=sm_90", "-c", "-o"])
                .arg(dir.path().join("out.o"))
                .arg(&src);
            cmd.args(e.nvcc_flags.split_whitespace());
            let out = cmd.output().expect("run nvcc");
            assert!(
                out.status.success(),
                "{} {which}:\n{}",
                e.name,
                String::from_utf8_lossy(&out.stderr)
            );
            compiled += 1;
        }
    }
    eprintln!(
        "compiled {compiled} catalogue snippets with {}",
        nvcc.display()
    );
}
