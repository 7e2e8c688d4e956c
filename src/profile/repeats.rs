//! Cells a profile gives twice for one kernel launch.
//!
//! nvprof prints some metrics twice: `Multiprocessor Activity` and `Executed IPC` in two metric
//! groups of its wide trace, an event and a metric of one name (`inst_executed`,
//! `local_load_transactions`) when `--events` and `--metrics` share a run. The repeat carries
//! no new information, and the measurement table refuses a key given twice
//! (`dataset::measurements`), so the first value is kept and the repeats are counted. Two
//! values of one metric for one ncu launch ID are another matter: ncu numbers the launches of
//! one session from 0, so that is two sessions' output in one file, and keeping either would
//! hide the other; it is an error. nvprof collects events and metrics in separate replay
//! passes, so a counter that varies between passes may differ there: its first value is kept.

use std::collections::HashMap;
use std::path::Path;

use super::ProfileData;
use crate::error::{Error, Result};

/// Drops the cells of `data` that repeat a launch's metric, keeping the first; returns how many
/// were dropped. Repeats of another value are an error for ncu's pages (two sessions in one
/// file), kept-first for the other formats (see the module's note).
pub(super) fn drop_repeats(path: &Path, data: &mut ProfileData) -> Result<usize> {
    let ms = &data.measurements;
    let mut first: HashMap<(u64, &str, &str), usize> = HashMap::with_capacity(ms.len());
    let mut repeat = vec![false; ms.len()];
    for (i, m) in ms.iter().enumerate() {
        let Some(&f) = first.get(&(m.launch, m.kernel.as_str(), m.metric.as_str())) else {
            first.insert((m.launch, &m.kernel, &m.metric), i);
            continue;
        };
        let kept = &ms[f];
        if kept.value != m.value && data.format.is_ncu() {
            return Err(Error::format(
                path,
                format!(
                    "launch {} of kernel `{}` gives {} twice, {} and {}{}: ncu numbers each \
                     session's launches from 0, so this looks like two profiles in one file; \
                     profile each run into its own file and parse them together (`advise parse \
                     --program P a.csv b.csv` makes them runs 1 and 2 of P)",
                    m.launch,
                    m.kernel,
                    m.metric,
                    kept.value,
                    m.value,
                    if m.unit.is_empty() {
                        String::new()
                    } else {
                        format!(" {}", m.unit)
                    }
                ),
            ));
        }
        repeat[i] = true;
    }
    let dropped = repeat.iter().filter(|&&r| r).count();
    if dropped > 0 {
        let mut flags = repeat.into_iter();
        data.measurements.retain(|_| !flags.next().unwrap_or(false));
    }
    Ok(dropped)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::Format;

    fn data(format: Format, cells: &[(u64, &str, &str)]) -> ProfileData {
        let mut d = ProfileData::empty(format);
        for &(launch, metric, value) in cells {
            d.push_cell("k", launch, 1, metric, value, "cycle");
        }
        d
    }

    /// Synthetic: a cell repeated with its value is dropped, the first kept, in order.
    #[test]
    fn a_repeat_of_the_same_value_is_dropped() {
        let mut d = data(
            Format::NvprofMetrics,
            &[(0, "a", "1"), (0, "b", "2"), (0, "a", "1"), (1, "a", "1")],
        );
        assert_eq!(drop_repeats(Path::new("p.csv"), &mut d).unwrap(), 1);
        let kept: Vec<(u64, &str)> = d
            .measurements
            .iter()
            .map(|m| (m.launch, m.metric.as_str()))
            .collect();
        assert_eq!(kept, [(0, "a"), (0, "b"), (1, "a")]);
    }

    /// Synthetic: nvprof's event and metric of one name from separate replay passes may
    /// differ; the first is kept.
    #[test]
    fn an_nvprof_repeat_of_another_value_keeps_the_first() {
        let mut d = data(Format::NvprofEvents, &[(0, "a", "1"), (0, "a", "3")]);
        assert_eq!(drop_repeats(Path::new("p.csv"), &mut d).unwrap(), 1);
        assert_eq!(d.measurements.len(), 1);
        assert_eq!(d.measurements[0].value, 1.0);
    }

    /// Synthetic: two values of one metric for one ncu launch ID are two sessions in one file.
    #[test]
    fn an_ncu_repeat_of_another_value_is_an_error() {
        let mut d = data(Format::NcuLong, &[(0, "a", "152.11"), (0, "a", "99999999")]);
        let e = drop_repeats(Path::new("p.csv"), &mut d)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("p.csv: "), "{e}");
        assert!(
            e.contains("launch 0 of kernel `k` gives a twice, 152.11 and 99999999 cycle"),
            "{e}"
        );
        assert!(e.contains("two profiles in one file"), "{e}");
    }
}
