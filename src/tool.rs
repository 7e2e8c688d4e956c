//! External tools (nvcc, ptxas, cuobjdump, ncu, the variant programs): the one way advise
//! finds them and runs them, so that a failure keeps the tail of the child's standard error.
//!
//! A tool's path comes from its environment variable (`NVCC`, `PTXAS`, `CUOBJDUMP`, `NCU`)
//! when set (a bare name there is looked up on `PATH`; anything else that is not a file is an
//! error), else from `PATH`, else from the usual CUDA install folders. A missing tool is an
//! error that says how to install it, never a panic.

use std::ffi::OsStr;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

mod arguments;
pub use arguments::{sm_arch, split_words};

/// How many bytes of a failed child's standard error an error message keeps.
const STDERR_TAIL: usize = 2000;

/// A tool the harness runs, with what to tell a user who lacks it.
#[derive(Debug, Clone, Copy)]
pub struct Tool {
    pub name: &'static str,
    pub env: &'static str,
    pub hint: &'static str,
}

pub const NVCC: Tool = Tool {
    name: "nvcc",
    env: "NVCC",
    hint: "install the CUDA toolkit (Debian 12: enable the non-free component and \
           `apt-get install nvidia-cuda-toolkit`; or scripts/ci/compile-variants.sh does it), \
           or set NVCC=/path/to/nvcc",
};

pub const PTXAS: Tool = Tool {
    name: "ptxas",
    env: "PTXAS",
    hint: "ptxas comes with nvcc in the CUDA toolkit; or set PTXAS=/path/to/ptxas",
};

pub const CUOBJDUMP: Tool = Tool {
    name: "cuobjdump",
    env: "CUOBJDUMP",
    hint: "cuobjdump comes with nvcc in the CUDA toolkit; or set CUOBJDUMP=/path/to/cuobjdump",
};

pub const NCU: Tool = Tool {
    name: "ncu",
    env: "NCU",
    hint: "install Nsight Compute (it ships with the CUDA toolkit 11+ as \
           /usr/local/cuda/bin/ncu), or set NCU=/path/to/ncu",
};

pub use crate::error::ToolError;

/// Finds `tool`: `$ENV` if set, else `PATH`, else the CUDA install folders.
pub fn find(tool: Tool) -> Result<PathBuf, ToolError> {
    find_with(
        tool,
        std::env::var_os(tool.env).as_deref(),
        std::env::var_os("PATH"),
    )
}

/// `find` with the environment passed in, for tests.
pub fn find_with(
    tool: Tool,
    env_value: Option<&OsStr>,
    path_var: Option<std::ffi::OsString>,
) -> Result<PathBuf, ToolError> {
    if let Some(v) = env_value.filter(|v| !v.is_empty()) {
        let p = PathBuf::from(v);
        // A bare name in the variable is looked up on PATH like any command.
        if p.components().count() == 1 && !p.is_file() {
            if let Some(found) = search_path(v, path_var.as_deref()) {
                return Ok(found);
            }
        }
        return if p.is_file() {
            Ok(p)
        } else {
            Err(ToolError::BadOverride {
                tool: tool.name.into(),
                env: tool.env.into(),
                path: p,
                hint: tool.hint.into(),
            })
        };
    }
    if let Some(found) = search_path(OsStr::new(tool.name), path_var.as_deref()) {
        return Ok(found);
    }
    for dir in ["/usr/local/cuda/bin", "/opt/cuda/bin"] {
        let p = Path::new(dir).join(tool.name);
        if p.is_file() {
            return Ok(p);
        }
    }
    Err(ToolError::Missing {
        tool: tool.name.into(),
        hint: tool.hint.into(),
    })
}

fn search_path(name: &OsStr, path_var: Option<&OsStr>) -> Option<PathBuf> {
    std::env::split_paths(path_var?)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

/// What a finished child wrote.
#[derive(Debug, Clone)]
pub struct Captured {
    pub stdout: String,
    pub stderr: String,
    pub elapsed: Duration,
}

/// Runs `cmd` to the end (or until `timeout`), capturing both streams. A non-zero exit is a
/// `ToolError::Failed` carrying the tail of standard error.
pub fn run(cmd: &mut Command, timeout: Option<Duration>) -> Result<Captured, ToolError> {
    let program = describe(cmd);
    let start = Instant::now();
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|source| ToolError::Spawn {
            program: program.clone(),
            source,
        })?;
    // Readers on their own threads, so a chatty child never blocks on a full pipe.
    let out = child.stdout.take().map(reader_thread);
    let err = child.stderr.take().map(reader_thread);
    let status = wait(&mut child, timeout);
    // A child stopped for its time may have started processes of its own (a shell script's
    // commands) that still hold its output open: what they wrote so far is read, not waited
    // for to the end.
    let patience = match status {
        Ok(None) => Some(Instant::now() + Duration::from_secs(2)),
        _ => None,
    };
    let stdout = out.map(|r| join_reader(r, patience)).unwrap_or_default();
    let stderr = err.map(|r| join_reader(r, patience)).unwrap_or_default();
    let elapsed = start.elapsed();
    match status {
        Ok(Some(status)) if status.success() => Ok(Captured {
            stdout,
            stderr,
            elapsed,
        }),
        Ok(Some(status)) => Err(ToolError::Failed {
            program,
            status: describe_status(status),
            stderr_tail: tail(&stderr),
        }),
        Ok(None) => Err(ToolError::TimedOut {
            program,
            seconds: timeout.map(|t| t.as_secs()).unwrap_or_default(),
            stderr_tail: tail(&stderr),
        }),
        Err(source) => Err(ToolError::Spawn { program, source }),
    }
}

/// Runs `cmd` whose output streams the caller has already pointed somewhere (a log file):
/// `Ok(true)` when it succeeded, `Ok(false)` when it was stopped for running past `timeout`,
/// `Err` with the reason when it could not start or failed.
pub fn run_detached(cmd: &mut Command, timeout: Option<Duration>) -> Result<bool, String> {
    let mut child = cmd
        .stdin(Stdio::null())
        .spawn()
        .map_err(|e| format!("could not start: {e}"))?;
    match wait(&mut child, timeout) {
        Ok(Some(status)) if status.success() => Ok(true),
        Ok(Some(status)) => Err(format!("failed ({})", describe_status(status))),
        Ok(None) => Ok(false),
        Err(e) => Err(format!("could not be waited for: {e}")),
    }
}

/// Waits for the child; `Ok(None)` when it was killed for running past `timeout`.
fn wait(
    child: &mut std::process::Child,
    timeout: Option<Duration>,
) -> std::io::Result<Option<ExitStatus>> {
    let Some(limit) = timeout else {
        return child.wait().map(Some);
    };
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(Some(status));
        }
        if start.elapsed() >= limit {
            // Only this child, which we started, is stopped.
            let _ = child.kill();
            let _ = child.wait();
            return Ok(None);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Reads a stream to its end on a thread of its own; the text comes back in pieces as it
/// arrives, so that a reader given up on still yields what it read.
fn reader_thread(mut r: impl Read + Send + 'static) -> std::sync::mpsc::Receiver<Vec<u8>> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = [0u8; 8192];
        loop {
            match r.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    if tx.send(buf[..n].to_vec()).is_err() {
                        break;
                    }
                }
            }
        }
    });
    rx
}

/// The text a reader read: to the stream's end, or, with a deadline, what arrived before it.
fn join_reader(rx: std::sync::mpsc::Receiver<Vec<u8>>, deadline: Option<Instant>) -> String {
    let mut text = Vec::new();
    loop {
        let piece = match deadline {
            None => rx.recv().ok(),
            Some(d) => rx
                .recv_timeout(d.saturating_duration_since(Instant::now()))
                .ok(),
        };
        match piece {
            Some(piece) => text.extend_from_slice(&piece),
            None => break,
        }
    }
    String::from_utf8_lossy(&text).into_owned()
}

/// The last `STDERR_TAIL` bytes of `text`, cut at a character boundary.
pub fn tail(text: &str) -> String {
    if text.len() <= STDERR_TAIL {
        return text.to_string();
    }
    let mut start = text.len() - STDERR_TAIL;
    while !text.is_char_boundary(start) {
        start += 1;
    }
    format!("...{}", &text[start..])
}

fn describe(cmd: &Command) -> String {
    Path::new(cmd.get_program())
        .file_name()
        .unwrap_or(cmd.get_program())
        .to_string_lossy()
        .into_owned()
}

fn describe_status(status: ExitStatus) -> String {
    match status.code() {
        Some(code) => format!("exit status {code}"),
        None => signal_of(status).map_or_else(
            || "killed by a signal".to_string(),
            |s| format!("killed by signal {s}: it crashed or was stopped"),
        ),
    }
}

/// The signal that ended a process, by name where it is a common one (`SIGSEGV (11)`).
fn signal_of(status: ExitStatus) -> Option<String> {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        let n = status.signal()?;
        let name = match n {
            2 => "SIGINT",
            4 => "SIGILL",
            6 => "SIGABRT",
            7 => "SIGBUS",
            8 => "SIGFPE",
            9 => "SIGKILL",
            11 => "SIGSEGV",
            13 => "SIGPIPE",
            15 => "SIGTERM",
            _ => return Some(n.to_string()),
        };
        Some(format!("{name} ({n})"))
    }
    #[cfg(not(unix))]
    {
        let _ = status;
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_tool_names_the_install_hint() {
        let e = find_with(NVCC, None, Some("/nonexistent-dir".into())).unwrap_err();
        let msg = e.to_string();
        // /usr/local/cuda may exist on a developer machine; only check when it does not.
        if !Path::new("/usr/local/cuda/bin/nvcc").exists() && !Path::new("/opt/cuda").exists() {
            assert!(msg.contains("nvcc not found"), "{msg}");
            assert!(msg.contains("apt-get install nvidia-cuda-toolkit"), "{msg}");
        }
    }

    #[test]
    fn env_override_must_exist() {
        let e = find_with(NCU, Some(OsStr::new("/no/such/ncu")), None).unwrap_err();
        assert!(e.to_string().contains("$NCU"), "{e}");
    }

    #[test]
    fn env_override_wins_over_path() {
        let dir = tempfile::tempdir().unwrap();
        let fake = dir.path().join("my-nvcc");
        std::fs::write(&fake, "").unwrap();
        let got = find_with(NVCC, Some(fake.as_os_str()), Some("/usr/bin".into())).unwrap();
        assert_eq!(got, fake);
    }

    #[test]
    fn failure_keeps_stderr_tail() {
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "echo out; echo 'something broke' >&2; exit 3"]);
        let e = run(&mut cmd, None).unwrap_err();
        let msg = e.to_string();
        assert!(msg.contains("exit status 3"), "{msg}");
        assert!(msg.contains("something broke"), "{msg}");
    }

    #[test]
    fn timeout_stops_the_child() {
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "sleep 5"]);
        let e = run(&mut cmd, Some(Duration::from_millis(200))).unwrap_err();
        assert!(matches!(e, ToolError::TimedOut { .. }), "{e}");
    }

    /// A script stopped for its time whose own command (here `sleep`, forked because more
    /// follows it) still holds its output open: the run ends within seconds, not when the
    /// command does, and keeps what the script wrote before.
    #[test]
    fn timeout_does_not_wait_for_what_the_child_started() {
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "echo started >&2; sleep 30; echo never"]);
        let start = Instant::now();
        let e = run(&mut cmd, Some(Duration::from_millis(300))).unwrap_err();
        assert!(
            start.elapsed() < Duration::from_secs(15),
            "{:?}",
            start.elapsed()
        );
        match e {
            ToolError::TimedOut { stderr_tail, .. } => assert!(stderr_tail.contains("started")),
            e => panic!("{e}"),
        }
    }

    /// A child ended by a signal is said with the signal's name.
    #[test]
    fn a_signal_is_named() {
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "kill -SEGV $$"]);
        let e = run(&mut cmd, None).unwrap_err().to_string();
        assert!(e.contains("killed by signal SIGSEGV (11)"), "{e}");
    }

    #[test]
    fn tail_cuts_long_text() {
        let long = "é".repeat(3000);
        let t = tail(&long);
        assert!(t.len() <= STDERR_TAIL + 5);
        assert!(t.starts_with("..."));
    }
}
