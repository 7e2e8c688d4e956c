//! Compiling the 128 variants with nvcc: one binary per (program, bit string), built in
//! parallel, each with the switches of its bits (variants/README.md).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::SystemTime;

use serde::Serialize;

use super::tool;
use super::Progress;
use crate::error::{Error, Result};
use crate::variant::{Optimization, Program, Variant};

/// What `advise build` was asked to do.
#[derive(Debug, Clone)]
pub struct BuildSettings {
    pub programs: Vec<Program>,
    pub arch: String,
    pub jobs: usize,
    pub out: PathBuf,
    pub variants_dir: PathBuf,
    /// Rebuild even binaries newer than their sources.
    pub force: bool,
    /// Only these variants (all 64 per program when None).
    pub only: Option<Vec<Variant>>,
    /// Build for GPGPU-Sim: embed only PTX for `arch`'s virtual architecture and link the
    /// CUDA runtime dynamically (`-cudart shared`), so the simulator's runtime replaces it.
    pub simulator: bool,
}

/// The outcome for one variant.
#[derive(Debug, Clone, Serialize)]
pub struct Built {
    pub program: String,
    pub variant: String,
    pub ok: bool,
    pub path: PathBuf,
    pub error: Option<String>,
    /// False when an up-to-date binary was kept.
    pub compiled: bool,
    pub seconds: f64,
}

/// The source file of a program inside the variants folder.
pub fn source(variants_dir: &Path, program: Program) -> PathBuf {
    match program {
        Program::Nb => variants_dir.join("nbody/nbody.cu"),
        Program::Bh => variants_dir.join("bh/bh.cu"),
    }
}

/// Where a variant's binary goes: `OUT/nb/nb_010011`.
pub fn binary(out: &Path, variant: Variant) -> PathBuf {
    let p = variant.program.name().to_ascii_lowercase();
    out.join(&p).join(format!("{p}_{}", variant.bit_string()))
}

/// nvcc's arguments for a variant: FTZ is the compiler flag (plus -DFTZ=1 so the binary can
/// report its bits); every other switch is a macro set to 0 or 1. For the simulator the
/// binary carries PTX only (`sm_70` -> `compute_70`) and loads the CUDA runtime at run time.
pub fn nvcc_flags(variant: Variant, arch: &str, simulator: bool) -> Vec<String> {
    let mut flags = vec!["-O3".to_string()];
    if simulator {
        let virt = arch.replace("sm_", "compute_");
        flags.extend([
            "-cudart".to_string(),
            "shared".to_string(),
            "-gencode".to_string(),
            format!("arch={virt},code={virt}"),
        ]);
    } else {
        flags.push(format!("-arch={arch}"));
    }
    for opt in variant.program.optimizations() {
        let on = variant.has(opt);
        if opt == Optimization::Ftz {
            flags.push(format!("-ftz={on}"));
        }
        flags.push(format!("-D{}={}", opt.name(), u8::from(on)));
    }
    flags
}

/// Files whose change makes a binary stale.
fn inputs_of(variants_dir: &Path, program: Program) -> Vec<PathBuf> {
    let mut v = vec![source(variants_dir, program)];
    if let Ok(rd) = std::fs::read_dir(variants_dir.join("common")) {
        v.extend(rd.filter_map(|e| e.ok().map(|e| e.path())));
    }
    v
}

fn modified(p: &Path) -> Option<SystemTime> {
    std::fs::metadata(p).and_then(|m| m.modified()).ok()
}

/// The file beside a binary that records the nvcc arguments it was built with
/// (`nb_010011.flags`), so that another `--arch` or `--for-simulator` rebuilds it.
fn flags_record(bin: &Path) -> PathBuf {
    bin.with_extension("flags")
}

/// Whether `bin` is newer than its inputs and was built with `flags`.
fn up_to_date(bin: &Path, inputs: &[PathBuf], flags: &str) -> bool {
    let Some(built) = modified(bin) else {
        return false;
    };
    std::fs::read_to_string(flags_record(bin)).is_ok_and(|f| f == flags)
        && inputs
            .iter()
            .all(|i| modified(i).is_some_and(|t| t <= built))
}

/// Whether a usable binary of `v` exists for `settings`: the file is there and, where its
/// flags record is (binaries built before records were kept have none), it was built with
/// the same nvcc arguments. Collection calls this to build only what it lacks.
pub fn usable(settings: &BuildSettings, v: Variant) -> bool {
    let bin = binary(&settings.out, v);
    let record = record_text(&nvcc_flags(v, &settings.arch, settings.simulator));
    bin.is_file() && std::fs::read_to_string(flags_record(&bin)).map_or(true, |f| f == record)
}

/// What a flags record holds: the nvcc arguments on one line.
fn record_text(flags: &[String]) -> String {
    flags.join(" ") + "\n"
}

/// Builds the variants; one result per variant, in catalogue order. Fails early only when
/// nvcc or a source file is missing; a variant that does not compile is a result with `ok:
/// false` and the tail of nvcc's messages.
pub fn build_all(settings: &BuildSettings, progress: &dyn Progress) -> Result<Vec<Built>> {
    if tool::sm_arch(&settings.arch).as_deref() != Some(settings.arch.as_str()) {
        return Err(Error::Usage(format!(
            "--arch {}: expected a real architecture such as sm_70, sm_80 or sm_90",
            settings.arch
        )));
    }
    if settings.only.as_ref().is_some_and(Vec::is_empty) {
        return Err(Error::Usage(
            "no variant to build: --variants names none, or --without leaves none out of it".into(),
        ));
    }
    let nvcc = tool::find(tool::NVCC)?;
    for &p in &settings.programs {
        let src = source(&settings.variants_dir, p);
        if !src.is_file() {
            return Err(Error::Usage(format!(
                "{} is missing: point --variants-dir at the repository's variants/ folder",
                src.display()
            )));
        }
        let dir =
            binary(&settings.out, p.variants().next().expect("64 variants")).with_file_name("");
        std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
    }
    let todo: Vec<Variant> = match &settings.only {
        Some(v) => v.clone(),
        None => settings
            .programs
            .iter()
            .flat_map(|p| p.variants())
            .collect(),
    };
    progress.start(todo.len() as u64, "building");
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Built>>> = Mutex::new(vec![None; todo.len()]);
    std::thread::scope(|s| {
        for _ in 0..settings.jobs.max(1).min(todo.len().max(1)) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(&v) = todo.get(i) else { break };
                let built = build_one(&nvcc, settings, v);
                let msg = format!(
                    "{} {} {}",
                    v.program,
                    v.bit_string(),
                    if built.ok { "ok" } else { "FAILED" }
                );
                if let Ok(mut r) = results.lock() {
                    r[i] = Some(built);
                }
                progress.advance(&msg);
            });
        }
    });
    progress.finish();
    let results = results
        .into_inner()
        .map_err(|_| Error::Internal("a build thread panicked".into()))?;
    Ok(results.into_iter().flatten().collect())
}

fn build_one(nvcc: &Path, settings: &BuildSettings, v: Variant) -> Built {
    let out = binary(&settings.out, v);
    let start = std::time::Instant::now();
    let mut built = Built {
        program: v.program.name().to_string(),
        variant: v.bit_string(),
        ok: true,
        path: out.clone(),
        error: None,
        compiled: false,
        seconds: 0.0,
    };
    let flags = nvcc_flags(v, &settings.arch, settings.simulator);
    let record = record_text(&flags);
    let inputs = inputs_of(&settings.variants_dir, v.program);
    if !settings.force && up_to_date(&out, &inputs, &record) {
        return built;
    }
    // The old binary and its record go first: a failed build leaves neither behind.
    let _ = std::fs::remove_file(&out);
    let _ = std::fs::remove_file(flags_record(&out));
    let mut cmd = Command::new(nvcc);
    cmd.args(&flags)
        .arg("-o")
        .arg(&out)
        .arg(source(&settings.variants_dir, v.program));
    built.compiled = true;
    let failure = match tool::run(&mut cmd, None) {
        Err(e) => Some(e.to_string()),
        Ok(_) if !out.is_file() => Some(format!(
            "{} exited 0 but wrote no {}",
            nvcc.display(),
            out.display()
        )),
        Ok(_) => std::fs::write(flags_record(&out), &record)
            .err()
            .map(|e| format!("cannot write {}: {e}", flags_record(&out).display())),
    };
    if let Some(e) = failure {
        built.ok = false;
        built.error = Some(e);
        let _ = std::fs::remove_file(&out);
    }
    built.seconds = start.elapsed().as_secs_f64();
    built
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_follow_the_bits() {
        let v = Variant::parse(Program::Nb, "110000").unwrap();
        let f = nvcc_flags(v, "sm_90", false);
        assert!(f.contains(&"-ftz=true".to_string()));
        assert!(f.contains(&"-DFTZ=1".to_string()));
        assert!(f.contains(&"-DRSQRT=1".to_string()));
        assert!(f.contains(&"-DUNROLL=0".to_string()));
        assert!(f.contains(&"-arch=sm_90".to_string()));
        let b = Variant::parse(Program::Bh, "000001").unwrap();
        let f = nvcc_flags(b, "sm_80", false);
        assert!(f.contains(&"-ftz=false".to_string()));
        let sim = nvcc_flags(b, "sm_70", true);
        assert!(sim.contains(&"arch=compute_70,code=compute_70".to_string()));
        assert!(sim.windows(2).any(|w| w == ["-cudart", "shared"]));
        assert!(!sim.iter().any(|f| f.starts_with("-arch")));
        assert!(f.contains(&"-DVOLA=1".to_string()));
        assert!(f.contains(&"-DVOTE=0".to_string()));
    }

    #[test]
    fn binaries_are_named_by_bit_string() {
        let v = Variant::parse(Program::Bh, "000101").unwrap();
        assert_eq!(
            binary(Path::new("build"), v),
            Path::new("build/bh/bh_000101")
        );
    }
}
