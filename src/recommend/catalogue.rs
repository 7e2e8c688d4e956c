//! The optimization catalogue (catalogue/optimizations.toml, compiled into the binary): for
//! each optimization advise can suggest, what it is in plain words, the counters that point
//! to it, how to apply it (flag or before/after CUDA that compiles on its own), its risks and
//! where NVIDIA's guides explain it. Kept as data so that it is read and reviewed as text.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

const CATALOGUE: &str = include_str!("../../catalogue/optimizations.toml");

/// One catalogue entry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    pub name: String,
    /// A generic entry covers a family of tuning-space switches (READ_ONLY, TILE_SIZE_X, ...).
    #[serde(default)]
    pub generic: bool,
    /// What it does depends on how the GPU is attached to its host (dataset::host_link):
    /// `advise train` fits it once per link its training data has, and a profile gets the
    /// answer of its own link.
    #[serde(default)]
    pub per_host_link: bool,
    pub summary: String,
    pub what: String,
    pub signals: Vec<String>,
    pub how: String,
    pub before: String,
    pub after: String,
    pub nvcc_flags: String,
    pub risks: Vec<String>,
    pub read_more: Vec<String>,
}

#[derive(Deserialize)]
struct File {
    optimization: Vec<Entry>,
}

/// All entries, in file order.
pub fn entries() -> Result<Vec<Entry>> {
    let f: File = toml::from_str(CATALOGUE)
        .map_err(|e| Error::Data(format!("catalogue/optimizations.toml: {e}")))?;
    Ok(f.optimization)
}

/// The entry for an optimization or switch name. Imported switches match a generic entry by
/// their parameter's name: `READ_ONLY:0->1` -> READ_ONLY, `TILE_SIZE_X:1->2` -> TILE_SIZE,
/// `block_size_x` -> BLOCK_SIZE.
pub fn lookup(name: &str) -> Result<Option<Entry>> {
    let param = name
        .split(':')
        .next()
        .unwrap_or(name)
        .trim()
        .to_ascii_uppercase();
    let all = entries()?;
    if let Some(e) = all.iter().find(|e| e.name == param) {
        return Ok(Some(e.clone()));
    }
    Ok(all
        .into_iter()
        .filter(|e| e.generic)
        .find(|e| param.starts_with(&e.name) || param.replace("USE_", "").starts_with(&e.name)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_thesis_optimization_has_a_complete_entry() {
        for o in crate::variant::Optimization::ALL {
            let e = lookup(o.name())
                .unwrap()
                .unwrap_or_else(|| panic!("{o} missing"));
            assert!(!e.summary.is_empty() && !e.what.is_empty() && !e.how.is_empty());
            assert!(!e.signals.is_empty() && !e.risks.is_empty() && !e.read_more.is_empty());
            assert!(
                !e.before.is_empty() || !e.nvcc_flags.is_empty(),
                "{o}: neither snippet nor flag"
            );
            assert_eq!(e.before.is_empty(), e.after.is_empty(), "{o}");
        }
    }

    /// Every entry, the families' and the unified-memory ones too, is complete, and every
    /// family a dataset can name has one.
    #[test]
    fn every_entry_is_complete_and_every_family_has_one() {
        let all = entries().unwrap();
        for e in &all {
            assert!(
                !e.summary.is_empty() && !e.what.is_empty() && !e.how.is_empty(),
                "{}",
                e.name
            );
            assert!(!e.signals.is_empty() && !e.risks.is_empty() && !e.read_more.is_empty());
            assert!(
                !e.before.is_empty() || !e.nvcc_flags.is_empty(),
                "{}",
                e.name
            );
            assert_eq!(e.before.is_empty(), e.after.is_empty(), "{}", e.name);
        }
        for f in crate::dataset::families::FAMILIES {
            assert!(
                all.iter().any(|e| e.name == f.name),
                "{} has no entry",
                f.name
            );
        }
    }

    #[test]
    fn switches_find_generic_entries() {
        assert_eq!(lookup("READ_ONLY:0->1").unwrap().unwrap().name, "READ_ONLY");
        assert_eq!(
            lookup("TILE_SIZE_X:1->2").unwrap().unwrap().name,
            "TILE_SIZE"
        );
        assert_eq!(
            lookup("block_size_x:32->64").unwrap().unwrap().name,
            "BLOCK_SIZE"
        );
        assert_eq!(lookup("use_padding:0->1").unwrap().unwrap().name, "PADDING");
        assert_eq!(lookup("USE_SOA:0->1").unwrap().unwrap().name, "SOA");
        assert_eq!(lookup("SORT").unwrap().unwrap().name, "SORT");
        assert_eq!(
            lookup("UM_READ_MOSTLY").unwrap().unwrap().name,
            "UM_READ_MOSTLY"
        );
        assert!(lookup("MWG:16->32").unwrap().is_none());
    }
}
