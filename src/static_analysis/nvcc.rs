//! The CUDA tools static analysis runs: nvcc (to PTX and cubin), ptxas (resource usage of a
//! PTX file) and cuobjdump (SASS and resource usage of a cubin), found and run through
//! `crate::tool` (the `NVCC`, `PTXAS` and `CUOBJDUMP` environment variables, PATH, the CUDA
//! install folders); a missing tool is an error with the install hint, and a failing one keeps
//! the tail of its stderr.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::error::{Error, Result};
use crate::tool;

/// Compilation settings of `advise static`.
#[derive(Debug, Clone)]
pub struct CompileOptions {
    /// Target architecture, e.g. `sm_90`.
    pub arch: String,
    /// Extra nvcc flags, split on whitespace (e.g. `-use_fast_math`).
    pub flags: Vec<String>,
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions {
            arch: "sm_90".into(),
            flags: Vec::new(),
        }
    }
}

impl CompileOptions {
    /// Settings from `--arch` and a `--nvcc-flags` string.
    pub fn new(arch: &str, flags: &str) -> Result<Self> {
        let Some(arch) = tool::sm_arch(arch) else {
            return Err(Error::Usage(format!(
                "--arch {}: expected a real architecture such as sm_75, sm_86 or sm_90",
                arch.trim()
            )));
        };
        let flags = tool::split_words(flags).ok_or_else(|| {
            Error::Usage(format!("--nvcc-flags `{flags}`: a quote is not closed"))
        })?;
        Ok(CompileOptions { arch, flags })
    }
}

/// nvcc, or the error that says how to get it (`crate::tool`'s one look-up: `$NVCC`, PATH,
/// the CUDA install folders).
pub fn nvcc() -> Result<PathBuf> {
    Ok(tool::find(tool::NVCC)?)
}

/// ptxas, where it exists: `$PTXAS`, else next to nvcc, else the usual look-up.
pub fn ptxas() -> Option<PathBuf> {
    sibling_of_nvcc(tool::PTXAS)
}

/// cuobjdump, where it exists: `$CUOBJDUMP`, else next to nvcc, else the usual look-up.
pub fn cuobjdump() -> Option<PathBuf> {
    sibling_of_nvcc(tool::CUOBJDUMP)
}

fn sibling_of_nvcc(t: tool::Tool) -> Option<PathBuf> {
    if std::env::var_os(t.env).is_none() {
        if let Some(dir) = nvcc().ok().and_then(|n| n.parent().map(Path::to_path_buf)) {
            let p = dir.join(t.name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    tool::find(t).ok()
}

/// How long one nvcc, ptxas or cuobjdump call may run before it is stopped: nvcc compiles
/// the largest Barnes-Hut variant in under a minute, while ptxas given a PTX file that
/// declares a billion registers runs on for hours. `ADVISE_TOOL_TIMEOUT` (seconds) overrides.
const TOOL_SECONDS: u64 = 600;

fn tool_limit() -> std::time::Duration {
    let seconds = std::env::var("ADVISE_TOOL_TIMEOUT")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .filter(|&s| s > 0)
        .unwrap_or(TOOL_SECONDS);
    std::time::Duration::from_secs(seconds)
}

/// Runs a CUDA tool on `subject` (the file it reads, named in its errors); returns (stdout,
/// stderr), or the tool error with its stderr tail.
pub fn run_tool(program: &Path, args: &[&str], subject: &Path) -> Result<(String, String)> {
    let out = tool::run(Command::new(program).args(args), Some(tool_limit()))
        .map_err(|e| e.on_file(subject))?;
    Ok((out.stdout, out.stderr))
}

/// What compiling one `.cu` file produced.
#[derive(Debug)]
pub struct Compiled {
    pub ptx: String,
    /// `ptxas -v` lines (registers, shared memory, spills per kernel).
    pub ptxas_info: String,
    /// The cubin, kept in a temporary folder for cuobjdump.
    pub cubin: PathBuf,
    /// Owns the folder of `cubin`; removed when dropped.
    pub _dir: TempDir,
}

/// Compiles `source` to PTX and to a cubin for `opts.arch`.
pub fn compile(source: &Path, opts: &CompileOptions) -> Result<Compiled> {
    let nvcc = nvcc()?;
    let dir = TempDir::new()?;
    let ptx_path = dir.path.join("kernel.ptx");
    let cubin_path = dir.path.join("kernel.cubin");
    let src = source.to_string_lossy().into_owned();
    let arch = format!("-arch={}", opts.arch);
    let mut common: Vec<&str> = vec![arch.as_str()];
    common.extend(opts.flags.iter().map(String::as_str));

    let ptx_out = ptx_path.to_string_lossy().into_owned();
    let mut args = common.clone();
    args.extend(["-ptx", src.as_str(), "-o", ptx_out.as_str()]);
    run_tool(&nvcc, &args, source)?;

    let cubin_out = cubin_path.to_string_lossy().into_owned();
    let mut args = common;
    args.extend([
        "-cubin",
        "-Xptxas",
        "-v",
        src.as_str(),
        "-o",
        cubin_out.as_str(),
    ]);
    let (_, ptxas_info) = run_tool(&nvcc, &args, source)?;
    let ptx = std::fs::read_to_string(&ptx_path).map_err(|e| Error::io(&ptx_path, e))?;
    Ok(Compiled {
        ptx,
        ptxas_info,
        cubin: cubin_path,
        _dir: dir,
    })
}

/// Registers and shared memory per kernel of `source`, from `ptxas -v` (one nvcc call, no PTX).
pub fn resources(source: &Path, opts: &CompileOptions) -> Result<String> {
    let nvcc = nvcc()?;
    let dir = TempDir::new()?;
    let cubin = dir.path.join("kernel.cubin").to_string_lossy().into_owned();
    let src = source.to_string_lossy().into_owned();
    let arch = format!("-arch={}", opts.arch);
    let mut args: Vec<&str> = vec![arch.as_str()];
    args.extend(opts.flags.iter().map(String::as_str));
    args.extend([
        "-cubin",
        "-Xptxas",
        "-v",
        src.as_str(),
        "-o",
        cubin.as_str(),
    ]);
    Ok(run_tool(&nvcc, &args, source)?.1)
}

/// Assembles a PTX file with ptxas to learn registers and shared memory, where ptxas exists.
/// Returns the `ptxas -v` text and the cubin it wrote.
pub fn assemble(ptx: &Path, arch: &str) -> Result<Option<(String, PathBuf, TempDir)>> {
    let Some(ptxas) = ptxas() else {
        return Ok(None);
    };
    let dir = TempDir::new()?;
    let cubin = dir.path.join("kernel.cubin");
    let arch = format!("-arch={arch}");
    let src = ptx.to_string_lossy().into_owned();
    let out = cubin.to_string_lossy().into_owned();
    let (stdout, stderr) = run_tool(&ptxas, &[&arch, "-v", &src, "-o", &out], ptx)?;
    // A ptxas that ends well but writes nothing would have cuobjdump blamed for the cubin.
    if !cubin.is_file() {
        return Err(Error::tool(
            "ptxas",
            format!(
                "{} ({}) ended without error but wrote no cubin for {}: is $PTXAS a ptxas?",
                ptxas.display(),
                arch,
                crate::error::shown(ptx)
            ),
        ));
    }
    Ok(Some((stdout + &stderr, cubin, dir)))
}

/// `cuobjdump -sass` and `cuobjdump -res-usage` of a cubin, where cuobjdump exists.
pub fn disassemble(cubin: &Path) -> Result<Option<(String, String)>> {
    let Some(tool) = cuobjdump() else {
        return Ok(None);
    };
    let path = cubin.to_string_lossy().into_owned();
    let (sass, _) = run_tool(&tool, &["-sass", &path], cubin)?;
    let (res, _) = run_tool(&tool, &["-res-usage", &path], cubin)?;
    Ok(Some((sass, res)))
}

/// The error for a user's own .cubin that cuobjdump failed on: bad input (exit 3) that says
/// what to do, not a tool failure. Other errors are returned as they are.
pub fn unreadable_cubin(path: &Path, e: Error) -> Error {
    match e {
        Error::Tool(tool::ToolError::Failed {
            status,
            stderr_tail,
            ..
        }) => Error::format(
            path,
            format!(
                "cuobjdump cannot read it ({status}{}): the file is damaged, not a cubin, or \
                 for a GPU newer than this cuobjdump knows; `nvcc -cubin -arch=sm_XX k.cu` \
                 writes one, or pass the .cu or .ptx instead",
                if stderr_tail.trim().is_empty() {
                    String::new()
                } else {
                    format!(": {}", stderr_tail.trim())
                }
            ),
        ),
        e => e,
    }
}

/// A private temporary folder (made with owner-only permissions under a random name, so
/// another user of a shared machine cannot plant it), removed on drop.
#[derive(Debug)]
pub struct TempDir {
    pub path: PathBuf,
    _dir: tempfile::TempDir,
}

impl TempDir {
    pub fn new() -> Result<Self> {
        let dir = tempfile::Builder::new()
            .prefix("advise-static-")
            .tempdir()
            .map_err(|e| Error::io(std::env::temp_dir(), e))?;
        Ok(TempDir {
            path: dir.path().to_path_buf(),
            _dir: dir,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arch_is_normalised_and_checked() {
        assert_eq!(CompileOptions::new("90", "").unwrap().arch, "sm_90");
        assert_eq!(CompileOptions::new("sm_86", "").unwrap().arch, "sm_86");
        assert!(CompileOptions::new("sm_9 0", "").is_err());
        assert!(CompileOptions::new("banana", "").is_err());
        let o = CompileOptions::new("sm_75", " -use_fast_math  -O3 ").unwrap();
        assert_eq!(o.flags, ["-use_fast_math", "-O3"]);
    }

    #[test]
    fn private_temp_dirs_are_fresh_and_removed() {
        let a = TempDir::new().unwrap();
        let b = TempDir::new().unwrap();
        assert_ne!(a.path, b.path);
        let p = a.path.clone();
        assert!(p.is_dir());
        drop(a);
        assert!(!p.exists());
    }
}
