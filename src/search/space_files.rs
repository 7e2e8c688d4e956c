//! The tuning-space files a command is given: a folder stands for the spaces in it, so that
//! `search-bench --space spaces/` runs on a folder of caches as a shell glob would.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// How the name of a file [`super::space::SearchSpace::load`] reads ends (any case).
pub const SPACE_SUFFIXES: [&str; 6] = [
    ".json",
    ".json.gz",
    ".json.bz2",
    ".csv",
    ".csv.gz",
    ".csv.bz2",
];

/// `paths` with each folder replaced by the files directly in it whose names end in one of
/// [`SPACE_SUFFIXES`], sorted by name. Other paths are kept as they are (reading them says
/// what is wrong with them); a folder without such a file is an error that names it. A file
/// given twice (by two names, or by itself and its folder) is kept once, where it came first,
/// as a budget given twice is run once.
///
/// Two files that would go by one name (a space is named by its file name without its
/// endings: `a/x.json.gz` and `b/x.csv` are both `x`) are an error: their rows, JSON entries
/// and chart would be told apart by nothing.
pub fn space_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut out = files_of(paths)?;
    let mut seen = std::collections::HashSet::new();
    out.retain(|p| seen.insert(p.canonicalize().unwrap_or_else(|_| p.clone())));
    let mut names: std::collections::HashMap<String, &PathBuf> = Default::default();
    for p in &out {
        let name = crate::dataset::import::file_stem(p);
        if let Some(first) = names.insert(name.clone(), p) {
            return Err(Error::Usage(format!(
                "{} and {} are both the space `{name}` in tables, JSON and charts: rename one \
                 (a space is named by its file name without .json, .csv, .gz or .bz2)",
                first.display(),
                p.display()
            )));
        }
    }
    Ok(out)
}

fn files_of(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut out = Vec::with_capacity(paths.len());
    for path in paths {
        if path.is_dir() {
            let files = spaces_in(path)?;
            if files.is_empty() {
                return Err(Error::format(
                    path,
                    format!(
                        "a folder with no tuning space in it (files whose names end in {})",
                        SPACE_SUFFIXES.join(", ")
                    ),
                ));
            }
            out.extend(files);
        } else {
            out.push(path.clone());
        }
    }
    Ok(out)
}

/// The space files directly in `dir` (names ending in one of [`SPACE_SUFFIXES`]), sorted by
/// name.
pub fn spaces_in(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))? {
        let path = entry.map_err(|e| Error::io(dir, e))?.path();
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_ascii_lowercase())
            .unwrap_or_default();
        if path.is_file() && SPACE_SUFFIXES.iter().any(|s| name.ends_with(s)) {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_stands_for_its_space_files_in_name_order() {
        let dir = tempfile::tempdir().unwrap();
        for name in [
            "b.json.gz",
            "a.JSON",
            "c.csv",
            "notes.md",
            "d.csv.gz",
            "e.json.bz2",
        ] {
            std::fs::write(dir.path().join(name), "").unwrap();
        }
        std::fs::create_dir(dir.path().join("inner.json")).unwrap();
        let lone = PathBuf::from("elsewhere/x.json");
        let got = space_files(&[lone.clone(), dir.path().to_path_buf()]).unwrap();
        let names: Vec<String> = got
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            names,
            [
                "x.json",
                "a.JSON",
                "b.json.gz",
                "c.csv",
                "d.csv.gz",
                "e.json.bz2"
            ]
        );
        assert_eq!(got[0], lone);
        // A file given again, by its folder or by another name, is kept once.
        let b = dir.path().join("b.json.gz");
        let again = dir.path().join(".").join("b.json.gz");
        let got = space_files(&[b.clone(), dir.path().to_path_buf(), again]).unwrap();
        assert_eq!(got.len(), 5);
        assert_eq!(got[0], b);
    }

    #[test]
    fn two_files_of_one_space_name_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        for sub in ["a", "b"] {
            std::fs::create_dir(dir.path().join(sub)).unwrap();
        }
        let x = dir.path().join("a/x.json.gz");
        let y = dir.path().join("b/x.csv");
        let err = space_files(&[x, y]).unwrap_err().to_string();
        assert!(err.contains("x.csv are both the space `x`"), "{err}");
    }

    #[test]
    fn a_folder_without_spaces_is_named() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("notes.md"), "").unwrap();
        let err = space_files(&[dir.path().to_path_buf()])
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with(&dir.path().display().to_string()) && err.contains("no tuning space"),
            "{err}"
        );
    }
}
