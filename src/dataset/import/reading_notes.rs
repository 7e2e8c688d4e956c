//! What a reader says of a space's file beside its configurations, kept as named notes of
//! the [`TuningSpace`]: a cut-off file, repeated keys, values outside the tool's own space.

use std::collections::HashSet;

use super::space::{value_text, Config, TuningSpace};

/// The note's name under which a reader says the file was cut off and only its complete
/// entries were read (a Kernel Tuner cache of an unfinished run).
pub const CUT_OFF_NOTE: &str = "repaired";

/// The note's name under which a reader says how many entries repeated a key given before
/// (a Kernel Tuner cache: the later entry kept, as Python's json module keeps it); the note
/// begins with the count.
pub const REPEATED_KEYS_NOTE: &str = "repeated keys";

/// The note's name under which a Kernel Tuner cache's reader says how many configurations
/// have a value its `tune_params` do not list (the note begins with the count).
pub const OUTSIDE_TUNE_PARAMS_NOTE: &str = "outside tune_params";

/// The note's name under which the reading says how many configurations recorded a time
/// outside a picosecond to 30 years (old Kernel Tuner versions wrote 1e20 for a failure) and
/// were counted as failed ([`TuningSpace::fail_unusable_times`]; the note begins with the
/// count).
pub const UNUSABLE_TIMES_NOTE: &str = "unusable times";

impl TuningSpace {
    /// How many configurations give a parameter a value the file's `tune_params` do not list
    /// ([`OUTSIDE_TUNE_PARAMS_NOTE`]); 0 where no reader said so.
    pub fn outside_tune_params(&self) -> usize {
        self.note_count(OUTSIDE_TUNE_PARAMS_NOTE)
    }

    /// The count a note begins with; 0 where there is no such note.
    fn note_count(&self, name: &str) -> usize {
        self.notes
            .iter()
            .find(|(k, _)| k == name)
            .and_then(|(_, v)| v.split_whitespace().next()?.parse().ok())
            .unwrap_or(0)
    }

    /// How many configurations recorded a time outside a picosecond to 30 years and were
    /// counted as failed ([`UNUSABLE_TIMES_NOTE`]); 0 where the reading said nothing of it.
    pub fn unusable_times(&self) -> usize {
        self.note_count(UNUSABLE_TIMES_NOTE)
    }

    /// How many entries repeated a key given before and were replaced by the later one
    /// ([`REPEATED_KEYS_NOTE`]); 0 where no reader said so.
    pub fn repeated_keys(&self) -> usize {
        self.note_count(REPEATED_KEYS_NOTE)
    }

    /// Whether the file was cut off and only its complete entries were read
    /// ([`CUT_OFF_NOTE`]): a search of it finds the optimum of those entries, not of the run.
    pub fn cut_off(&self) -> bool {
        self.notes.iter().any(|(k, _)| k == CUT_OFF_NOTE)
    }
}

/// Where some entries give a parameter a value its `tune_params` list lacks, how many and the
/// first such value (the count first): Kernel Tuner's simulation mode never visits them, so a
/// search of the cache and Kernel Tuner's of the same file search different spaces. `None`
/// where every value is listed, or there is no list to check against.
pub(super) fn outside_tune_params(
    tune_params: Option<&serde_json::Value>,
    params: &[String],
    configs: &[Config],
) -> Option<String> {
    let listed = tune_params?.as_object()?;
    let lists: Vec<Option<HashSet<String>>> = params
        .iter()
        .map(|p| {
            let values = listed.get(p)?.as_array()?;
            Some(values.iter().map(value_text).collect())
        })
        .collect();
    let unlisted = |c: &Config| {
        c.values
            .iter()
            .zip(&lists)
            .zip(params)
            .find_map(|((v, list), p)| {
                list.as_ref()
                    .is_some_and(|l| !l.contains(v))
                    .then(|| format!("{p}={v}"))
            })
    };
    let mut outside = configs.iter().filter_map(unlisted);
    let first = outside.next()?;
    let n = 1 + outside.count();
    let gives = if n == 1 { "gives" } else { "give" };
    Some(format!(
        "{n} of {} configurations {gives} a parameter a value tune_params does not list (the \
         first: {first}); Kernel Tuner's simulation mode searches only the space tune_params \
         spans, so it never visits them",
        configs.len()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(values: &[&str]) -> Config {
        Config {
            values: values.iter().map(|v| v.to_string()).collect(),
            time_ms: Some(1.0),
            failure: None,
            counters: Vec::new(),
        }
    }

    /// Values a cache's `tune_params` list (numbers as JSON numbers, 32.0 as 32) pass; one it
    /// lacks is counted and the first named; no list, or a list of another shape, says nothing.
    #[test]
    fn values_outside_tune_params_are_counted() {
        let params = ["bx".to_string(), "kind".to_string()];
        let listed = serde_json::json!({"bx": [16, 32.0], "kind": ["a", "b"]});
        let inside = [config(&["16", "a"]), config(&["32", "b"])];
        assert_eq!(outside_tune_params(Some(&listed), &params, &inside), None);
        let mixed = [
            config(&["16", "a"]),
            config(&["64", "a"]),
            config(&["32", "c"]),
        ];
        let note = outside_tune_params(Some(&listed), &params, &mixed).unwrap();
        assert!(note.starts_with("2 of 3 configurations give"), "{note}");
        assert!(note.contains("(the first: bx=64)"), "{note}");
        let one = outside_tune_params(Some(&listed), &params, &mixed[1..2]).unwrap();
        assert!(one.starts_with("1 of 1 configurations gives"), "{one}");
        assert_eq!(outside_tune_params(None, &params, &mixed), None);
        let list = serde_json::json!(["bx", "kind"]);
        assert_eq!(outside_tune_params(Some(&list), &params, &mixed), None);
        // A parameter the list leaves out is not checked.
        let partial = serde_json::json!({"kind": ["a", "b", "c"]});
        assert_eq!(outside_tune_params(Some(&partial), &params, &mixed), None);
    }
}
