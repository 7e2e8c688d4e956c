//! The launch columns of Nsight Compute's CSV pages, read as the metrics they stand for.
//!
//! Every page ncu writes with `--csv` since 2023 (raw, details, `--metrics`, the per-kernel
//! summary) starts its rows with the launch's "Block Size" (as `(x, y, z)`) and its GPU's
//! compute capability ("CC", as `8.9`). Where a launch's own cells lack the metric such a
//! column stands for, it is added: `launch__block_size` (the product of the three extents) and
//! `device__attribute_compute_capability_major` and `_minor`. ("Grid Size" is left alone:
//! nothing here reads it, and a campaign's measurements would gain a column.) So a profile
//! whose sections left out Launch Statistics still says where its block size stands and on
//! which GPU it ran, which a block-size step's occupancy needs (recommend::step_model), without
//! `--gpu`. Older ncu versions write no such columns, and nothing is added.

use std::collections::HashSet;

use super::section_labels::metric_of;
use super::text::{Header, Record};
use super::ProfileData;

/// The metrics the launch columns stand for.
const BLOCK: &str = "launch__block_size";
const CC_MAJOR: &str = "device__attribute_compute_capability_major";
const CC_MINOR: &str = "device__attribute_compute_capability_minor";

/// Where a page's launch columns are.
pub(super) struct LaunchColumns {
    block: Option<usize>,
    cc: Option<usize>,
}

/// One launch's facts from its columns, in the order first seen.
struct Facts {
    kernel: String,
    launch: u64,
    invocations: u64,
    values: Vec<(&'static str, f64)>,
}

/// The launch facts of a page's rows, gathered while it is read.
pub(super) struct LaunchFacts {
    columns: LaunchColumns,
    launches: Vec<Facts>,
    seen: HashSet<u64>,
    /// Launch cells that are not empty and hold no block size or capability (`(-1, 1, 1)`,
    /// `n/a`), with their column: counted with the cells without a number.
    unread: Vec<(&'static str, String)>,
}

/// `(256, 1, 1)` (or `256`) as the product of its extents; `None` for anything else.
fn extent_product(cell: &str) -> Option<f64> {
    let inner = cell.trim().trim_start_matches('(').trim_end_matches(')');
    let mut product = 1.0;
    for part in inner.split(',') {
        let n: u64 = part.trim().parse().ok()?;
        product *= n as f64;
    }
    (product > 0.0).then_some(product)
}

/// `8.9` as (8, 9); `None` for anything else.
fn compute_capability(cell: &str) -> Option<(f64, f64)> {
    let (major, minor) = cell.trim().split_once('.')?;
    let major: u32 = major.parse().ok()?;
    let minor: u32 = minor.parse().ok()?;
    (major > 0).then_some((major as f64, minor as f64))
}

impl LaunchFacts {
    pub(super) fn new(header: &Header) -> Self {
        LaunchFacts {
            columns: LaunchColumns {
                block: header.position("Block Size"),
                cc: header.position("CC"),
            },
            launches: Vec::new(),
            seen: HashSet::new(),
            unread: Vec::new(),
        }
    }

    /// Notes the launch columns of `record`, the first time `launch` is seen.
    pub(super) fn note(&mut self, record: &Record, kernel: &str, launch: u64, invocations: u64) {
        if !self.seen.insert(launch) {
            return;
        }
        let cell = |c: Option<usize>| c.and_then(|c| record.fields.get(c)).map(String::as_str);
        let mut values = Vec::new();
        if let Some(text) = cell(self.columns.block) {
            match extent_product(text) {
                Some(v) => values.push((BLOCK, v)),
                None if !text.trim().is_empty() => self.unread.push(("Block Size", text.into())),
                None => {}
            }
        }
        if let Some(text) = cell(self.columns.cc) {
            match compute_capability(text) {
                Some((major, minor)) => {
                    values.push((CC_MAJOR, major));
                    values.push((CC_MINOR, minor));
                }
                None if !text.trim().is_empty() => self.unread.push(("CC", text.into())),
                None => {}
            }
        }
        self.launches.push(Facts {
            kernel: kernel.to_string(),
            launch,
            invocations,
            values,
        });
    }

    /// Adds to `data` each launch's facts whose metric its own cells lack (a details page's
    /// "Block Size" label counts as `launch__block_size`), and counts them in
    /// `data.launch_facts`; the launch cells that held none in `data.skipped_cells`.
    pub(super) fn add_missing(self, data: &mut ProfileData) {
        for (column, cell) in &self.unread {
            data.skip_cell(column, cell);
        }
        let wanted = [BLOCK, CC_MAJOR, CC_MINOR];
        let present: HashSet<(u64, &'static str)> = data
            .measurements
            .iter()
            .filter_map(|m| {
                let metric = metric_of(&m.metric).unwrap_or(&m.metric);
                let known = wanted.iter().find(|w| **w == metric)?;
                Some((m.launch, *known))
            })
            .collect();
        for f in self.launches {
            for (metric, value) in f.values {
                if !present.contains(&(f.launch, metric)) {
                    data.push_cell(
                        &f.kernel,
                        f.launch,
                        f.invocations,
                        metric,
                        &value.to_string(),
                        "",
                    );
                    data.launch_facts += 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extents_and_capabilities_parse_and_anything_else_is_left_out() {
        assert_eq!(extent_product("(256, 2, 1)"), Some(512.0));
        assert_eq!(extent_product("128"), Some(128.0));
        assert_eq!(extent_product(" (32, 128, 1) "), Some(4096.0));
        assert_eq!(extent_product(""), None);
        assert_eq!(extent_product("(0, 1, 1)"), None);
        assert_eq!(extent_product("(n/a)"), None);
        assert_eq!(compute_capability("8.9"), Some((8.0, 9.0)));
        assert_eq!(compute_capability("10.0"), Some((10.0, 0.0)));
        assert_eq!(compute_capability("0"), None);
        assert_eq!(compute_capability("sm_90"), None);
        assert_eq!(compute_capability(""), None);
    }
}
