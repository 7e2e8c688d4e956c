//! The check of every command line before any work: the files its options write can be
//! written, and none of them is a file the command reads (`advise parse -o x.csv x.csv` would
//! destroy its input before, or while, reading it).

use super::output::check_output_file;
use advise::error::{Error, Result};

/// The tables of a dataset or campaign folder (each also `.gz`).
const DATA_TABLES: [&str; 9] = [
    "measurements.csv",
    "timings.csv",
    "switches.csv",
    "ledger.csv",
    "references.csv",
    "kernels.csv",
    "resources.csv",
    "simulator.json",
    "device.json",
];

/// The options that name a file a command writes.
const OUTPUT_FLAGS: [&str; 5] = ["-o", "--output", "--trace", "--rules", "--runs-csv"];

/// The options that name a folder a command writes fixed files into: `suggest --report-dir`
/// (alias `--report`) writes index.html and report.md there.
const REPORT_FLAGS: [&str; 2] = ["--report-dir", "--report"];
const REPORT_FILES: [&str; 2] = ["index.html", "report.md"];

/// Options whose value is another tool's options and may begin with `-` (`--ncu-args "-o x"`):
/// their value names no output of advise's.
const TOOL_OPTIONS: [&str; 3] = ["--ncu-args", "--nvcc-flags", "--weka-options"];

/// A usage error where a file an option writes (`-o`, `--trace`, `--rules`, `--runs-csv`)
/// cannot be written ([`check_output_file`]: a folder, or in a folder that does not exist), or
/// is also an argument the command reads (`advise parse -o x.csv x.csv`): writing it would
/// destroy the input before, or while, it is read. Files are compared as the system resolves
/// them, so `./x.csv` and a link to it are the same file.
pub fn refuse_output_over_input(args: &[String]) -> Result<()> {
    // (index of the value in `args`, the value, the option)
    let mut outputs: Vec<(usize, String, &str)> = Vec::new();
    // The files a report folder gets, checked as outputs of their own (the folder is made).
    let mut reports: Vec<(usize, String, &str)> = Vec::new();
    // After `--` come the profiled program's own arguments, whose `-o` is its own.
    let own = args.iter().position(|a| a == "--").unwrap_or(args.len());
    for (i, a) in args[..own].iter().enumerate() {
        if i > 0 && TOOL_OPTIONS.contains(&args[i - 1].as_str()) {
            continue;
        }
        for flag in OUTPUT_FLAGS {
            if a == flag {
                if let Some(v) = args.get(i + 1) {
                    outputs.push((i + 1, v.clone(), flag));
                }
            } else if let Some(v) = a.strip_prefix(flag).and_then(|r| r.strip_prefix('=')) {
                outputs.push((i, v.to_string(), flag));
            } else if let Some(v) = a
                .strip_prefix(flag)
                .filter(|v| flag == "-o" && !v.is_empty())
            {
                // The short option's value written onto it, `-ox.csv`, as clap reads it.
                outputs.push((i, v.to_string(), flag));
            }
        }
        for flag in REPORT_FLAGS {
            let dir = match a.strip_prefix(flag) {
                Some("") => args.get(i + 1).map(|v| (i + 1, v.as_str())),
                Some(r) => r.strip_prefix('=').map(|v| (i, v)),
                None => None,
            };
            if let Some((at, dir)) = dir {
                for name in REPORT_FILES {
                    let file = std::path::Path::new(dir).join(name);
                    reports.push((at, file.display().to_string(), flag));
                }
            }
        }
    }
    // A file that cannot be written is said before the work, not after it.
    for (_, out, flag) in &outputs {
        check_output_file(flag, std::path::Path::new(out))?;
    }
    outputs.extend(reports);
    // Two outputs in one file: the second would overwrite the first.
    for (i, (_, a, _)) in outputs.iter().enumerate() {
        if outputs[..i]
            .iter()
            .any(|(_, b, _)| resolved(a) == resolved(b))
        {
            return Err(Error::Usage(format!(
                "{a} is named for two outputs: each would overwrite the other; name two files"
            )));
        }
    }
    refuse_output_in_space_folder(&args[..own], &outputs)?;
    for (at, out, flag) in &outputs {
        let (at, out) = (*at, out.as_str());
        let Ok(written) = std::path::Path::new(out).canonicalize() else {
            continue; // a file that does not exist yet is nobody's input
        };
        if !written.is_file() {
            continue;
        }
        // A dataset folder named as an input is read whole: its tables are inputs too.
        let table = written.file_name().is_some_and(|n| {
            let n = n.to_string_lossy();
            DATA_TABLES
                .iter()
                .any(|t| n == *t || n == format!("{t}.gz"))
        });
        for (i, a) in args.iter().enumerate().skip(1) {
            let value = a
                .split_once('=')
                .filter(|_| a.starts_with("--"))
                .map_or(a.as_str(), |(_, v)| v);
            if i == at || value.is_empty() {
                continue;
            }
            let input = std::path::Path::new(value).canonicalize();
            if table
                && input
                    .as_ref()
                    .is_ok_and(|d| d.is_dir() && written.parent() == Some(d.as_path()))
            {
                return Err(Error::Usage(format!(
                    "{out} is a table of the dataset folder {value}, which this command reads: \
                     writing it would destroy the data; name a file outside the folder"
                )));
            }
            if input.is_ok_and(|p| same_file(&p, &written)) {
                let fix = if REPORT_FLAGS.contains(flag) {
                    format!("name another {flag} folder (it gets index.html and report.md)")
                } else {
                    "name another output file".to_string()
                };
                return Err(Error::Usage(format!(
                    "{out} is both an input and a file to write: writing it would destroy the \
                     input; {fix}"
                )));
            }
        }
    }
    Ok(())
}

/// A folder given to `--space` stands for the space files in it (`search-bench --space
/// spaces/`): an output with a space file's name directly in it would be read as a space, and
/// overwrite one where it exists (`--runs-csv spaces/runs.csv`, `-o spaces/a.json`).
fn refuse_output_in_space_folder(args: &[String], outputs: &[(usize, String, &str)]) -> Result<()> {
    let mut folders = Vec::new();
    let mut after_space = false;
    for a in args {
        if let Some(v) = a.strip_prefix("--space=") {
            folders.push(v.to_string());
            after_space = false;
        } else if a == "--space" {
            after_space = true;
        } else if after_space && !a.starts_with('-') {
            folders.push(a.clone());
        } else {
            after_space = false;
        }
    }
    for folder in folders {
        let Ok(dir) = std::path::Path::new(&folder).canonicalize() else {
            continue;
        };
        if !dir.is_dir() {
            continue;
        }
        for (_, out, flag) in outputs {
            let written = resolved(out);
            let name = written
                .file_name()
                .map(|n| n.to_string_lossy().to_ascii_lowercase())
                .unwrap_or_default();
            let space_name = advise::search::space_files::SPACE_SUFFIXES
                .iter()
                .any(|s| name.ends_with(s));
            if space_name && written.parent() == Some(dir.as_path()) {
                return Err(Error::Usage(format!(
                    "{out} ({flag}) lies in {folder}, whose .json, .csv, .gz and .bz2 files \
                     --space reads as tuning spaces: writing it there would {}; name a file \
                     outside the folder",
                    if written.is_file() {
                        "destroy a space"
                    } else {
                        "make it a space of the next run"
                    }
                )));
            }
        }
    }
    Ok(())
}

/// Whether two resolved paths are one file: the same path, or on Unix the same device and
/// inode (a hard link has its own path).
fn same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
    if a == b {
        return true;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(x), Ok(y)) = (a.metadata(), b.metadata()) {
            return x.is_file() && x.dev() == y.dev() && x.ino() == y.ino();
        }
    }
    false
}

/// A path as the system resolves it, where its folder exists (the file itself need not).
fn resolved(path: &str) -> std::path::PathBuf {
    let p = std::path::Path::new(path);
    if let Ok(c) = p.canonicalize() {
        return c;
    }
    let parent = p
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    match (parent.canonicalize(), p.file_name()) {
        (Ok(d), Some(name)) => d.join(name),
        _ => p.to_path_buf(),
    }
}

#[cfg(test)]
mod tests;
