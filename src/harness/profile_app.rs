//! Profiling a user's program with Nsight Compute for `advise profile`: ncu runs the program
//! directly (no shell, arguments passed as they are), writes its CSV to a file that is kept
//! next to the report, and every known failure becomes an error that says how to fix it.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use super::ncu::{not_known, unknown_metric};
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
    /// More ncu options, passed as they are (`--set full`, `-c 10`, `--replay-mode
    /// application`, `--nvtx`, ...).
    pub ncu_args: Vec<String>,
}

/// ncu options advise sets itself: given again they would break the CSV it reads.
const OWN_OPTIONS: [&str; 7] = [
    "-o",
    "--csv",
    "--page",
    "--log-file",
    "--metrics",
    "--print-summary",
    "--export",
];

/// Splits `--ncu-args "..."` into options as a shell would for plain words and quotes (no
/// variables, no globs), and refuses the options advise sets itself.
pub fn split_ncu_args(text: &str) -> Result<Vec<String>> {
    let out = tool::split_words(text)
        .ok_or_else(|| Error::Usage(format!("--ncu-args `{text}`: a quote is not closed")))?;
    for a in &out {
        let name = a.split('=').next().unwrap_or(a);
        // `-oFILE` is `-o FILE` (ncu's short form of --export).
        let name = if name.starts_with("-o") && !name.starts_with("--") {
            "-o"
        } else {
            name
        };
        if OWN_OPTIONS.contains(&name) {
            return Err(Error::Usage(format!(
                "--ncu-args: advise sets {name} itself (it reads ncu's raw CSV page); leave it out"
            )));
        }
    }
    Ok(out)
}

/// A kernel filter as the user wrote it: ncu's `regex:PATTERN` form or a plain regular
/// expression; returns the regular expression.
pub fn kernel_pattern(filter: &str) -> &str {
    filter.strip_prefix("regex:").unwrap_or(filter)
}

/// The ncu command line for a request (public so tests can check it).
pub fn command(ncu: &Path, r: &ProfileRequest) -> Command {
    let mut cmd = Command::new(ncu);
    cmd.args(["--csv", "--page", "raw", "--target-processes", "all"]);
    if !r.metrics.is_empty() {
        cmd.args(["--metrics", &r.metrics.join(",")]);
    }
    if let Some(k) = &r.kernel_regex {
        cmd.args(["--kernel-name", &format!("regex:{}", kernel_pattern(k))]);
    }
    cmd.args(&r.ncu_args);
    cmd.arg("--log-file").arg(&r.csv).arg(&r.app).args(&r.args);
    cmd
}

/// Whether `app` names a file by its path (`./myapp`, `/usr/bin/x`), not a name looked up on
/// PATH.
fn names_a_path(app: &Path) -> bool {
    app.components().count() > 1 || app.is_absolute()
}

/// Whether `app` can be started: an existing file, or a name found on PATH.
fn app_exists(app: &str) -> bool {
    let p = Path::new(app);
    if names_a_path(p) {
        return p.is_file();
    }
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|d| d.join(app).is_file()))
}

/// Whether a program named by a path may be executed (a name looked up on PATH passes):
/// some execute bit set, on Unix.
fn may_execute(app: &Path) -> bool {
    if !names_a_path(app) {
        return true;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(app).is_ok_and(|m| m.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        true
    }
}

/// What a profile gave: ncu's CSV, and the requested metrics this ncu did not know, which it
/// was run again without.
#[derive(Debug, Clone)]
pub struct Profiled {
    pub csv: PathBuf,
    pub unknown_metrics: Vec<String>,
}

/// Runs ncu on the app; a requested metric ncu does not know ("Failed to find metric") is
/// dropped and ncu run again, so an older Nsight Compute still gives the counters it has.
pub fn profile(r: &ProfileRequest) -> Result<Profiled> {
    let mut request = r.clone();
    let mut unknown_metrics = Vec::new();
    loop {
        match profile_once(&request)? {
            Err(name) => match request.metrics.iter().position(|m| *m == name) {
                Some(at) => {
                    request.metrics.remove(at);
                    unknown_metrics.push(name);
                }
                None => {
                    return Err(Error::tool(
                        "ncu",
                        format!(
                            "{}: update Nsight Compute, or profile the program yourself with \
                             `ncu --csv --page raw --set full` and give that CSV to `advise \
                             suggest --profile`",
                            not_known(&name)
                        ),
                    ));
                }
            },
            Ok(csv) => {
                return Ok(Profiled {
                    csv,
                    unknown_metrics,
                })
            }
        }
    }
}

/// ": LINE", the last line of a failed run's standard error, or nothing where it is empty.
fn last_line(stderr_tail: &str) -> String {
    match stderr_tail.trim().lines().last() {
        Some(line) => format!(": {line}"),
        None => String::new(),
    }
}

/// What ncu prints when the program it profiles exits with an error.
const APP_FAILED: &str = "The application returned an error code";

/// What must hold before ncu runs: the program exists and may be executed, and ncu is found
/// ($NCU or PATH); the ncu to run. [`profile`] checks it again; a caller that says what it is
/// about to do checks it first.
pub fn preflight(r: &ProfileRequest) -> Result<PathBuf> {
    let shown = crate::error::shown(Path::new(&r.app));
    if !app_exists(&r.app) {
        return Err(Error::Usage(format!(
            "{shown}: program not found (give a path such as ./myapp, or a name on PATH)"
        )));
    }
    if !may_execute(Path::new(&r.app)) {
        return Err(Error::Usage(format!(
            "{shown}: not executable: ncu would fail to start it (`chmod +x {shown}`, or name \
             the interpreter first: `-- python3 {shown}`)"
        )));
    }
    Ok(tool::find(NCU)?)
}

/// One ncu run of the request: its CSV, or (inner `Err`) the name of a metric ncu stopped at
/// because it does not know it (possibly empty).
fn profile_once(r: &ProfileRequest) -> Result<std::result::Result<PathBuf, String>> {
    let ncu = preflight(r)?;
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
        return Err(Error::tool(
            "ncu",
            "ncu may not read the GPU's performance counters (ERR_NVGPUCTRPERM): run as root, or \
             allow all users (`options nvidia NVreg_RestrictProfilingToAdminUsers=0` in \
             /etc/modprobe.d, then reload the driver); see NVIDIA's ERR_NVGPUCTRPERM page",
        ));
    }
    if let Some(metric) = unknown_metric(&log).or_else(|| match &outcome {
        Err(ToolError::Failed { stderr_tail, .. }) => unknown_metric(stderr_tail),
        _ => None,
    }) {
        return Ok(Err(metric));
    }
    match outcome {
        // ncu says so when the program failed under it; an ncu that failed by itself
        // (`NCU=/bin/false`) is not the program's fault.
        Err(ToolError::Failed {
            status,
            stderr_tail,
            ..
        }) if !log.contains(APP_FAILED) && !stderr_tail.contains(APP_FAILED) => {
            return Err(Error::tool(
                "ncu",
                format!(
                    "{} failed ({status}) without saying that {} returned an error: ncu itself \
                     may not work here (try `{} --version`; $NCU names another), or the \
                     program stopped before ncu reached it{}",
                    ncu.display(),
                    r.app,
                    ncu.display(),
                    last_line(&stderr_tail)
                ),
            ))
        }
        Err(ToolError::Failed {
            status,
            stderr_tail,
            ..
        }) => {
            return Err(Error::tool(
                "ncu",
                format!(
                    "{} exited with {status} under ncu; fix the program (or its arguments) first{}",
                    r.app,
                    last_line(&stderr_tail)
                ),
            ))
        }
        Err(e) => return Err(e.into()),
        Ok(_) => {}
    }
    if said("No kernels were profiled") || !log.contains("\"ID\"") {
        return Err(Error::tool(
            "ncu",
            format!(
                "ncu profiled no kernel of {}{}: does it launch CUDA kernels (on this GPU)?",
                r.app,
                r.kernel_regex
                    .as_ref()
                    .map(|k| format!(" matching `{k}`"))
                    .unwrap_or_default()
            ),
        ));
    }
    Ok(Ok(r.csv.clone()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ncu_args_split_as_a_shell_would_and_advise_s_own_are_refused() {
        assert_eq!(
            split_ncu_args(r#"--set full -c 10 --nvtx-include "a b" ''"#).unwrap(),
            ["--set", "full", "-c", "10", "--nvtx-include", "a b", ""]
        );
        assert!(split_ncu_args("--set 'full").is_err());
        for own in [
            "-o report",
            "-oreport",
            "--export=r",
            "--csv",
            "--page raw",
            "--metrics x",
        ] {
            let e = split_ncu_args(own).unwrap_err().to_string();
            assert!(e.contains("advise sets"), "{own}: {e}");
        }
    }
}
