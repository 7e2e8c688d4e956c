//! The library's errors, by area, so that the binary can print one actionable line and exit
//! with a status a script can act on ([`Error::exit_code`]):
//!
//! | status | meaning | variants |
//! |---|---|---|
//! | 2 | usage: an argument or option is wrong | `Usage`, a model's `Parameter` |
//! | 3 | bad input data: a file or dataset is malformed or unsuitable | `Parse`, `Format`, `Data`, `MissingMetric`, a model's `Data`/`Columns` |
//! | 4 | an external tool is missing or failed (nvcc, ncu, GPGPU-Sim, the program) | `Tool` |
//! | 5 | a file could not be read or written | `Io` |
//! | 1 | an internal error (a bug: please report it) | `Internal` |
//!
//! Every variant that comes from a file names the file and, where there is one, the 1-based
//! line.

use std::path::PathBuf;

/// Errors raised by the advise library.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file could not be opened, read or written.
    #[error("{}: {source}", shown(.path))]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    /// A file was read but its content is not what the reader expects.
    #[error("{}:{line}: {message}", shown(.path))]
    Parse {
        path: PathBuf,
        line: usize,
        message: String,
    },

    /// A file's format could not be recognised at all.
    #[error("{}: {message}", shown(.path))]
    Format { path: PathBuf, message: String },

    /// Data that was read cannot serve the request (too few samples, no usable column, ...).
    #[error("{0}")]
    Data(String),

    /// A metric the computation needs is absent from the data.
    #[error("metric {metric} is missing {context}; {hint}")]
    MissingMetric {
        metric: String,
        context: String,
        hint: String,
    },

    /// An argument or option is not valid.
    #[error("{0}")]
    Usage(String),

    /// An external tool is missing or failed.
    #[error(transparent)]
    Tool(#[from] ToolError),

    /// A model could not be fitted or asked (from the learning layer).
    #[error(transparent)]
    Model(#[from] advise_ml::MlError),

    /// Something that cannot happen did (a worker thread panicked, a value would not
    /// serialize).
    #[error("internal error: {0} (please report it)")]
    Internal(String),
}

impl Error {
    /// A parse error at `line` (1-based) of `path`.
    pub fn parse(path: impl Into<PathBuf>, line: usize, message: impl Into<String>) -> Self {
        Error::Parse {
            path: path.into(),
            line,
            message: message.into(),
        }
    }

    /// A whole-file format error.
    pub fn format(path: impl Into<PathBuf>, message: impl Into<String>) -> Self {
        Error::Format {
            path: path.into(),
            message: message.into(),
        }
    }

    /// An I/O error on `path`. A folder given where a file is read says so in words, not as
    /// "Is a directory (os error 21)".
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        let path = path.into();
        let source = match source.kind() {
            std::io::ErrorKind::IsADirectory => std::io::Error::new(
                std::io::ErrorKind::IsADirectory,
                "a folder, where a file was expected: name a file in it",
            ),
            // Making a folder where a file stands (create_dir_all), the only way advise
            // meets "File exists".
            std::io::ErrorKind::AlreadyExists => std::io::Error::new(
                std::io::ErrorKind::AlreadyExists,
                "a file stands there, where a folder is to be made: name a folder",
            ),
            // A file named as a folder on the way (`file.csv/timings.csv`).
            std::io::ErrorKind::NotADirectory => std::io::Error::new(
                std::io::ErrorKind::NotADirectory,
                match path.ancestors().find(|a| a.is_file()) {
                    Some(file) if file == path => {
                        "this is a file, where a folder is to be made or read: name a folder"
                            .to_string()
                    }
                    Some(file) => format!("{} is a file, not a folder", file.display()),
                    None => "a part of this path is a file, not a folder".to_string(),
                },
            ),
            _ => source,
        };
        Error::Io { path, source }
    }

    /// A file or folder that is not there (exit 5), with what to do: "PATH: MESSAGE".
    pub fn missing(path: impl Into<PathBuf>, message: impl Into<String>) -> Self {
        Error::Io {
            path: path.into(),
            source: std::io::Error::new(std::io::ErrorKind::NotFound, message.into()),
        }
    }

    /// A tool that is there but cannot do the job; `message` says what to do.
    pub fn tool(tool: &str, message: impl Into<String>) -> Self {
        Error::Tool(ToolError::Unusable {
            tool: tool.into(),
            message: message.into(),
        })
    }

    /// A failed write of `path` by a writer with its own error type (csv, image encoders).
    pub fn write(path: impl Into<PathBuf>, e: impl std::fmt::Display) -> Self {
        Error::Io {
            path: path.into(),
            source: std::io::Error::other(e.to_string()),
        }
    }

    /// The process exit status for this error (see the module's table).
    pub fn exit_code(&self) -> i32 {
        use advise_ml::MlError;
        match self {
            Error::Usage(_) | Error::Model(MlError::Parameter(_)) => 2,
            Error::Parse { .. }
            | Error::Format { .. }
            | Error::Data(_)
            | Error::MissingMetric { .. }
            | Error::Model(_) => 3,
            Error::Tool(_) => 4,
            Error::Io { .. } => 5,
            Error::Internal(_) => 1,
        }
    }
}

/// Why running a tool failed.
#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    #[error("{tool} not found: {hint}")]
    Missing { tool: String, hint: String },

    #[error("{tool} (from ${env}) names no program file: {path} is missing or a folder; {hint}")]
    BadOverride {
        tool: String,
        env: String,
        path: PathBuf,
        hint: String,
    },

    #[error("cannot start {program}: {source}")]
    Spawn {
        program: String,
        #[source]
        source: std::io::Error,
    },

    #[error("{program} failed ({status}){}", tail_suffix(.stderr_tail))]
    Failed {
        program: String,
        status: String,
        stderr_tail: String,
    },

    #[error("{program} ran longer than {seconds} s and was stopped{}", tail_suffix(.stderr_tail))]
    TimedOut {
        program: String,
        seconds: u64,
        stderr_tail: String,
    },

    /// The tool is there but cannot do the job (not built, no permission for the counters,
    /// the profiled program failed under it, it produced nothing): `message` says what to do.
    #[error("{message}")]
    Unusable { tool: String, message: String },
}

impl ToolError {
    /// The same error with the file the tool was run on named after the tool ("ptxas on
    /// k.ptx failed ..."), where it says that the tool failed or ran too long.
    pub fn on_file(mut self, file: &std::path::Path) -> Self {
        if let ToolError::Failed { program, .. } | ToolError::TimedOut { program, .. } = &mut self {
            *program = format!("{program} on {}", file.display());
        }
        self
    }
}

fn tail_suffix(tail: &str) -> String {
    if tail.trim().is_empty() {
        String::new()
    } else {
        format!("; its stderr ends with:\n{}", tail.trim_end())
    }
}

/// A path as an error message names it: as it is, or, where it holds a control character (a
/// newline, a tab, an escape sequence), quoted with those characters escaped, so that a
/// message stays one line and cannot drive the terminal.
pub fn shown(path: &std::path::Path) -> String {
    shown_text(&path.display().to_string())
}

/// A name read from a file or given on the command line (a kernel's, a space's, an option's
/// value) as a message shows it: as it is, or quoted and escaped where it holds a control
/// character, as [`shown`] shows a path.
pub fn shown_text(text: &str) -> String {
    if text.chars().any(char::is_control) {
        format!("{text:?}")
    } else {
        text.to_string()
    }
}

/// The library's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    /// A file name with a newline or an escape sequence is named quoted and escaped; a plain
    /// one as it is.
    #[test]
    fn control_characters_in_a_file_name_are_escaped() {
        let said = Error::format("a\nb\u{1b}[31m.csv", "bad").to_string();
        assert_eq!(said, "\"a\\nb\\u{1b}[31m.csv\": bad");
        let said = Error::parse("dir/plain name.csv", 3, "bad").to_string();
        assert_eq!(said, "dir/plain name.csv:3: bad");
        assert_eq!(shown_text("k\nwith newline"), "\"k\\nwith newline\"");
        assert_eq!(shown_text("force_kernel"), "force_kernel");
    }

    /// A file standing where a folder is made or read is named: the path itself, or the part
    /// of it that is a file.
    #[test]
    fn a_file_where_a_folder_should_be_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("out");
        std::fs::write(&file, "x").unwrap();
        let inner = file.join("raw");
        let e = std::fs::create_dir_all(&inner).unwrap_err();
        let said = Error::io(&inner, e).to_string();
        assert!(said.ends_with(&format!("{} is a file, not a folder", file.display())));
        let e = std::fs::create_dir_all(file.join("raw")).unwrap_err();
        let said = Error::io(&file, e).to_string();
        assert!(
            said.contains("this is a file, where a folder is to be made"),
            "{said}"
        );
    }
}
