//! The library's one error type. Every variant that comes from a file names the file and,
//! where there is one, the 1-based line, so the binary can print a one-line, actionable error.

use std::path::PathBuf;

/// Errors raised by the advise library.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file could not be opened or read.
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    /// A file was read but its content is not what the reader expects.
    #[error("{path}:{line}: {message}")]
    Parse {
        path: PathBuf,
        line: usize,
        message: String,
    },

    /// A file's format could not be recognised at all.
    #[error("{path}: {message}")]
    Format { path: PathBuf, message: String },

    /// A value given on the command line or in a settings struct is not valid.
    #[error("{0}")]
    Invalid(String),

    /// A metric the computation needs is absent from the data.
    #[error("metric {metric} is missing {context}; {hint}")]
    MissingMetric {
        metric: String,
        context: String,
        hint: String,
    },
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

    /// An I/O error on `path`.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }
}

/// The library's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
