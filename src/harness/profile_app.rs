//! Profiling a user's program with Nsight Compute for `advise profile`: ncu runs the program
//! directly (no shell, arguments passed as they are), writes its CSV to a file that is kept
//! next to the report, and every known failure becomes an error that says how to fix it.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use super::tool::{self, ToolError, NCU};
use crate::error::{Error, Result};

/// What to profile and how.
#[derive(Debug, Clone)]
pub struct ProfileRequest {
    pub app: String,
    pub args: Vec<String>,
    pub metrics: Vec<String>,
    /// Only kernels whose name matches (ncu's `--kernel-name regex:...`).
    pub kernel_regex: Option<String>,
    /// Where ncu's CSV goes.
    pub csv: PathBuf,
    pub timeout: Option<Duration>,
}

/// The ncu command line for a request (public so tests can check it).
pub fn command(ncu: &Path, r: &ProfileRequest) -> Command {
    let mut cmd = Command::new(ncu);
    cmd.args(["--csv", "--page", "raw", "--target-processes", "all"]);
    if !r.metrics.is_empty() {
        cmd.args(["--metrics", &r.metrics.join(",")]);
    }
    if let Some(k) = &r.kernel_regex {
        cmd.args(["--kernel-name", &format!("regex:{k}")]);
    }
    cmd.arg("--log-file").arg(&r.csv).arg(&r.app).args(&r.args);
    cmd
}

/// Whether `app` can be started: an existing file, or a name found on PATH.
fn app_exists(app: &str) -> bool {
    let p = Path::new(app);
    if p.components().count() > 1 || p.is_absolute() {
        return p.is_file();
    }
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|d| d.join(app).is_file()))
}

/// Runs ncu on the app; returns the path of the CSV it wrote.
pub fn profile(r: &ProfileRequest) -> Result<PathBuf> {
    if !app_exists(&r.app) {
        return Err(Error::Invalid(format!(
            "{}: program not found (give a path such as ./myapp, or a name on PATH)",
            r.app
        )));
    }
    let ncu = tool::find(NCU)?;
    if let Some(dir) = r.csv.parent() {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    }
    // A CSV left by an earlier run must not be read as this run's.
    if r.csv.exists() {
        std::fs::remove_file(&r.csv).map_err(|e| Error::io(&r.csv, e))?;
    }
    let outcome = tool::run(&mut command(&ncu, r), r.timeout);
    let log = std::fs::read_to_string(&r.csv).unwrap_or_default();
    let said = |needle: &str| {
        log.contains(needle)
            || matches!(&outcome, Err(ToolError::Failed { stderr_tail, .. }) if stderr_tail.contains(needle))
    };
    if said("ERR_NVGPUCTRPERM") {
        return Err(Error::Invalid(
            "ncu may not read the GPU's performance counters (ERR_NVGPUCTRPERM): run as root, or \
             allow all users (`options nvidia NVreg_RestrictProfilingToAdminUsers=0` in \
             /etc/modprobe.d, then reload the driver); see NVIDIA's ERR_NVGPUCTRPERM page"
                .into(),
        ));
    }
    match outcome {
        Err(ToolError::Failed {
            status,
            stderr_tail,
            ..
        }) => {
            return Err(Error::Invalid(format!(
                "{} exited with {status} under ncu; fix the program (or its arguments) first{}",
                r.app,
                if stderr_tail.trim().is_empty() {
                    String::new()
                } else {
                    format!(": {}", stderr_tail.trim().lines().last().unwrap_or(""))
                }
            )))
        }
        Err(e) => return Err(e.into()),
        Ok(_) => {}
    }
    if said("No kernels were profiled") || !log.contains("\"ID\"") {
        return Err(Error::Invalid(format!(
            "ncu profiled no kernel of {}{}: does it launch CUDA kernels (on this GPU)?",
            r.app,
            r.kernel_regex
                .as_ref()
                .map(|k| format!(" matching `{k}`"))
                .unwrap_or_default()
        )));
    }
    Ok(r.csv.clone())
}
