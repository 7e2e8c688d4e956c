//! What an imported space's tables cannot hold, left out before they are written: a
//! configuration whose variant repeats an earlier one's (`32` and `32.0`, `0` and `-0.0`, or
//! an entry given twice), and counters that are not a finite number of 0 or more, or that a
//! configuration gives twice. The tables' readers refuse each of them (a second time for one
//! variant, a negative measurement, a repeated line), so a dataset written with them would
//! fail only later, in `experiment` or `train`.

use std::collections::HashSet;

use super::space::TuningSpace;

/// The note's name under which an import says which configurations it left out as repeats.
pub const REPEATED_VARIANTS_NOTE: &str = "repeated configurations";
/// The note's name under which an import says which counters it left out.
pub const COUNTERS_LEFT_OUT_NOTE: &str = "counters left out";

impl TuningSpace {
    /// Keeps the first configuration of each variant (as the tables name it) and, in each
    /// configuration, the first of each kernel's metric where it is a finite number of 0 or
    /// more; says what it left out in the notes ([`REPEATED_VARIANTS_NOTE`],
    /// [`COUNTERS_LEFT_OUT_NOTE`]). Returns how many configurations and counters it left out.
    pub fn keep_what_tables_hold(&mut self) -> (usize, usize) {
        let varying = self.varying();
        let mut seen = HashSet::new();
        let mut repeats: Vec<String> = Vec::new();
        let labels: Vec<String> = self
            .configs
            .iter()
            .map(|c| self.variant_label(c, &varying))
            .collect();
        let mut labels = labels.into_iter();
        self.configs.retain(|_| match labels.next() {
            Some(label) if !seen.insert(label.clone()) => {
                repeats.push(label);
                false
            }
            _ => true,
        });
        let mut bad: Vec<String> = Vec::new();
        let mut twice = 0usize;
        for c in &mut self.configs {
            let mut metrics = HashSet::new();
            c.counters.retain(|(kernel, metric, _, value)| {
                if !(value.is_finite() && *value >= 0.0) {
                    bad.push(format!("{metric} = {value}"));
                    return false;
                }
                let first = metrics.insert((kernel.clone(), metric.clone()));
                twice += usize::from(!first);
                first
            });
        }
        if !repeats.is_empty() {
            self.notes.push((
                REPEATED_VARIANTS_NOTE.into(),
                format!(
                    "{} entr{} left out, naming a configuration given before (the first entry \
                     kept): {}",
                    repeats.len(),
                    if repeats.len() == 1 { "y" } else { "ies" },
                    examples(&repeats)
                ),
            ));
        }
        if !bad.is_empty() || twice > 0 {
            let mut parts = Vec::new();
            if !bad.is_empty() {
                parts.push(format!(
                    "{} counter{} left out, not a finite number of 0 or more ({})",
                    bad.len(),
                    if bad.len() == 1 { "" } else { "s" },
                    examples(&bad)
                ));
            }
            if twice > 0 {
                parts.push(format!(
                    "{twice} counter{} left out, given a second time for one configuration \
                     and kernel (the first kept)",
                    if twice == 1 { "" } else { "s" }
                ));
            }
            self.notes
                .push((COUNTERS_LEFT_OUT_NOTE.into(), parts.join("; ")));
        }
        (repeats.len(), bad.len() + twice)
    }
}

/// The first three of a list, and how many more.
fn examples(items: &[String]) -> String {
    let mut text = items
        .iter()
        .take(3)
        .map(|s| format!("`{s}`"))
        .collect::<Vec<_>>()
        .join(", ");
    if items.len() > 3 {
        text.push_str(&format!(" and {} more", items.len() - 3));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::super::space::Config;
    use super::*;

    fn config(x: &str, y: &str, t: f64, counters: &[(&str, f64)]) -> Config {
        Config {
            values: vec![x.into(), y.into()],
            time_ms: Some(t),
            failure: None,
            counters: counters
                .iter()
                .map(|(m, v)| ("k".to_string(), m.to_string(), String::new(), *v))
                .collect(),
        }
    }

    #[test]
    fn repeated_variants_and_bad_counters_are_left_out_and_said() {
        let mut s = TuningSpace {
            tool: "t4",
            device: "GPU".into(),
            kernel: "k".into(),
            params: vec!["x".into(), "y".into()],
            configs: vec![
                config("16", "1", 1.26, &[("a", 1.0), ("b", -5.0), ("a", 2.0)]),
                config("32", "1", 1.0, &[("a", f64::NAN)]),
                config("16", "1", 0.01, &[]),
                config("16", "2", 2.0, &[("a", 0.0)]),
            ],
            notes: vec![],
            run_noise: None,
        };
        assert_eq!(s.keep_what_tables_hold(), (1, 3));
        assert_eq!(s.configs.len(), 3);
        assert_eq!(s.configs[0].time_ms, Some(1.26));
        assert_eq!(s.configs[0].counters.len(), 1);
        assert_eq!(s.configs[0].counters[0].3, 1.0);
        assert!(s.configs[1].counters.is_empty());
        assert_eq!(s.configs[2].counters.len(), 1);
        let note = |k: &str| s.notes.iter().find(|n| n.0 == k).map(|n| n.1.clone());
        assert_eq!(
            note(REPEATED_VARIANTS_NOTE).as_deref(),
            Some("1 entry left out, naming a configuration given before (the first entry kept): `x=16,y=1`")
        );
        let counters = note(COUNTERS_LEFT_OUT_NOTE).unwrap();
        assert!(
            counters.starts_with(
                "2 counters left out, not a finite number of 0 or more (`b = -5`, `a = NaN`)"
            ),
            "{counters}"
        );
        assert!(
            counters.ends_with(
                "1 counter left out, given a second time for one configuration and kernel (the first kept)"
            ),
            "{counters}"
        );
        // A clean space is left as it is, without notes.
        let before = s.configs.clone();
        s.notes.clear();
        assert_eq!(s.keep_what_tables_hold(), (0, 0));
        assert_eq!(s.configs, before);
        assert!(s.notes.is_empty());
    }
}
