//! Which tool wrote a tuning file, from its first few kB (`advise import auto`, `advise search`).

use std::path::Path;

use super::{clblast, Tool};
use crate::error::{Error, Result};

/// Which tool wrote a JSON tuning file, from its first few kB (gzip or bzip2 allowed): KTT's
/// `Metadata` and `Results`, Kernel Tuner's `cache` and `tune_params_keys`, T4's `results` of
/// `configuration`s, CLBlast's `kernel_family` and `results`; `None` where it shows none of
/// them.
pub fn guess_tool(path: &Path) -> Result<Option<Tool>> {
    Ok(tool_of_text(&head_of(path)?))
}

pub(super) fn tool_of_text(text: &str) -> Option<Tool> {
    if clblast::looks_like(text) {
        Some(Tool::Clblast)
    } else if text.contains("\"Results\"") || text.contains("\"Metadata\"") {
        Some(Tool::Ktt)
    } else if text.contains("\"cache\"")
        || text.contains("tune_params_keys")
        || (text.trim_start().starts_with('[') && text.contains("\"time\""))
    {
        // A cache, or `tune_kernel`'s results list (an array of results with their times).
        Some(Tool::KernelTuner)
    } else if text.contains("\"results\"") && text.contains("\"configuration\"") {
        Some(Tool::T4)
    } else {
        None
    }
}

/// Refuses a file whose first few kB (unpacked) are binary, not text: a CSV space's reader
/// would otherwise fail on "invalid UTF-8 in field 0".
pub fn refuse_binary(path: &Path) -> Result<()> {
    head_of(path).map(drop)
}

/// The first few kB of a (possibly gzipped) file; binary content is refused here, where it
/// would otherwise fail as "not a cache".
fn head_of(path: &Path) -> Result<String> {
    use std::io::Read;
    // A pipe (`<(zcat x.json.gz)`, /dev/stdin) gives its first kB to this look and not again
    // to the reader after it, which would then blame a good file; a FIFO with no writer
    // would wait without a word.
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
        return Err(Error::format(
            path,
            "a pipe or device, not a file: a tuning file is read twice (first to tell its \
             format), so save it to a file first (e.g. `zcat x.json.gz > x.json`; .gz and \
             .bz2 files are read as they are)",
        ));
    }
    let mut head = Vec::with_capacity(4096);
    crate::dataset::table::open(path)?
        .take(4096)
        .read_to_end(&mut head)
        .map_err(|e| crate::profile::compressed::read_failed(path, e))?;
    // A UTF-8 sequence cut by the 4 kB is not an error; one broken inside is.
    let broken_utf8 = std::str::from_utf8(&head)
        .err()
        .filter(|e| e.error_len().is_some());
    if head.contains(&0) || broken_utf8.is_some() {
        let gz_name = path.to_string_lossy().to_ascii_lowercase().ends_with(".gz");
        // The packing of the file as it lies (`head` is unpacked).
        use crate::profile::compressed::{packing_of_file, Packing};
        let plain = packing_of_file(path) == Packing::Plain;
        let named = if gz_name && plain {
            "; its name ends in .gz, but it is not gzip-compressed"
        } else {
            ""
        };
        return Err(Error::format(
            path,
            format!(
                "binary content, not text: expected a tuning space (a Kernel Tuner cache, T4 \
                 results, KTT output or CLBlast tuner output as JSON, plain, gzip or bzip2, or \
                 a CSV file){named}"
            ),
        ));
    }
    Ok(String::from_utf8_lossy(&head).into_owned())
}
