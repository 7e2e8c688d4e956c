//! The CUDA tools static analysis runs: nvcc (to PTX and cubin), ptxas (resource usage of a
//! PTX file) and cuobjdump (SASS and resource usage of a cubin). Paths come from the `NVCC`,
//! `PTXAS` and `CUOBJDUMP` environment variables, else from PATH; a missing tool is an error
//! with the install hint, and a failing one keeps the tail of its stderr.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::error::{Error, Result};

/// How to install the CUDA compiler, shown whenever nvcc cannot be found.
pub const INSTALL_HINT: &str = "install the CUDA toolkit (https://developer.nvidia.com/cuda-downloads; \
on Debian/Ubuntu `apt-get install nvidia-cuda-toolkit`) or point the NVCC environment variable at nvcc";

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
        let arch = arch.trim();
        let digits = arch.strip_prefix("sm_").unwrap_or(arch);
        if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(Error::Usage(format!(
                "--arch {arch}: expected a real architecture such as sm_75, sm_86 or sm_90"
            )));
        }
        Ok(CompileOptions {
            arch: format!("sm_{digits}"),
            flags: flags.split_whitespace().map(String::from).collect(),
        })
    }
}

/// A CUDA tool looked up through its environment variable, then PATH.
pub fn find_tool(name: &str, env_var: &str) -> Option<PathBuf> {
    if let Some(p) = std::env::var_os(env_var) {
        let p = PathBuf::from(p);
        return p.is_file().then_some(p);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// nvcc, or the error that says how to get it.
pub fn nvcc() -> Result<PathBuf> {
    find_tool("nvcc", "NVCC").ok_or_else(|| {
        Error::tool(
            "nvcc",
            format!("nvcc not found (NVCC is unset and nvcc is not on PATH); {INSTALL_HINT}"),
        )
    })
}

/// ptxas, where it exists (next to nvcc first).
pub fn ptxas() -> Option<PathBuf> {
    sibling_or_path("ptxas", "PTXAS")
}

/// cuobjdump, where it exists (next to nvcc first).
pub fn cuobjdump() -> Option<PathBuf> {
    sibling_or_path("cuobjdump", "CUOBJDUMP")
}

fn sibling_or_path(name: &str, env_var: &str) -> Option<PathBuf> {
    if std::env::var_os(env_var).is_none() {
        if let Some(dir) = find_tool("nvcc", "NVCC").and_then(|n| n.parent().map(Path::to_path_buf))
        {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    find_tool(name, env_var)
}

/// The last `n` lines of a child's stderr, for error messages.
pub fn stderr_tail(stderr: &[u8], n: usize) -> String {
    let text = String::from_utf8_lossy(stderr);
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// Runs a tool; returns (stdout, stderr) or an error naming the command and its stderr tail.
pub fn run_tool(tool: &Path, args: &[&str]) -> Result<(String, String)> {
    let out = Command::new(tool)
        .args(args)
        .output()
        .map_err(|e| Error::tool("nvcc", format!("cannot run {}: {e}", tool.display())))?;
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    if !out.status.success() {
        return Err(Error::tool(
            "nvcc",
            format!(
                "{} {} failed ({}):\n{}",
                tool.display(),
                args.join(" "),
                out.status,
                stderr_tail(&out.stderr, 20)
            ),
        ));
    }
    Ok((stdout, stderr))
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
    run_tool(&nvcc, &args)?;

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
    let (_, ptxas_info) = run_tool(&nvcc, &args)?;
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
    Ok(run_tool(&nvcc, &args)?.1)
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
    let (stdout, stderr) = run_tool(&ptxas, &[&arch, "-v", &src, "-o", &out])?;
    Ok(Some((stdout + &stderr, cubin, dir)))
}

/// `cuobjdump -sass` and `cuobjdump -res-usage` of a cubin, where cuobjdump exists.
pub fn disassemble(cubin: &Path) -> Result<Option<(String, String)>> {
    let Some(tool) = cuobjdump() else {
        return Ok(None);
    };
    let path = cubin.to_string_lossy().into_owned();
    let (sass, _) = run_tool(&tool, &["-sass", &path])?;
    let (res, _) = run_tool(&tool, &["-res-usage", &path])?;
    Ok(Some((sass, res)))
}

/// A temporary folder removed on drop (std has none; tempfile is only a dev-dependency).
#[derive(Debug)]
pub struct TempDir {
    pub path: PathBuf,
}

impl TempDir {
    pub fn new() -> Result<Self> {
        use std::sync::atomic::{AtomicU64, Ordering};
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!("advise-static-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&path).map_err(|e| Error::io(&path, e))?;
        Ok(TempDir { path })
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
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
        let o = CompileOptions::new("sm_75", " -use_fast_math  -O3 ").unwrap();
        assert_eq!(o.flags, ["-use_fast_math", "-O3"]);
    }

    #[test]
    fn stderr_tail_keeps_last_lines() {
        assert_eq!(stderr_tail(b"a\nb\nc\n", 2), "b\nc");
    }
}
