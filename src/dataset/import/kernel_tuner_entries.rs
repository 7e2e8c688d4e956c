//! A Kernel Tuner cache's `cache` object read one entry at a time. Each entry becomes a
//! [`Config`] as soon as it is read and its JSON tree is dropped, so a cache of hundreds of
//! thousands of entries never exists in memory as one tree: the UCI SGEMM space (241,600
//! entries, 61 MB of JSON) took 965 MB and 2.6 s to read as a tree.
//!
//! The entries come out as a JSON object read into a `serde_json::Map` would give them (the
//! reader before this one): sorted by key, and of a key given twice the last. The order of a
//! space's configurations is the order its searches draw from, so it must not depend on how
//! the file was read.

use std::fmt;
use std::path::Path;

use serde::de::{DeserializeSeed, Deserializer, Error as _, MapAccess, Visitor};
use serde_json::Value;

use super::kernel_tuner::{observed, time_of};
use super::space::{value_text, Config};
use crate::error::{Error, Result};

/// The configurations of a cache, with each working one's time and recorded runs.
pub(super) struct Entries {
    pub configs: Vec<Config>,
    /// `(time, runs)` of each configuration with a time, in the order of `configs`.
    pub timed: Vec<(f64, Option<Value>)>,
}

/// Reads the `cache` object's text (`raw`, from `path`) entry by entry.
pub(super) fn read_entries(
    path: &Path,
    raw: &str,
    params: &[String],
    kernel: &str,
) -> Result<Entries> {
    let mut failure = None;
    let seed = EntriesSeed {
        path,
        params,
        kernel,
        failure: &mut failure,
    };
    let mut de = serde_json::Deserializer::from_str(raw);
    let read = seed.deserialize(&mut de);
    if let Some(e) = failure {
        return Err(e);
    }
    let mut entries =
        read.map_err(|e| Error::format(path, format!("the `cache` object does not read: {e}")))?;
    // Sorted by key, stably, so that of equal keys the last read stays last.
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    let mut configs = Vec::with_capacity(entries.len());
    let mut timed = Vec::new();
    let mut rest = entries.into_iter().peekable();
    while let Some((key, config, runs)) = rest.next() {
        if rest.peek().is_some_and(|next| next.0 == key) {
            continue;
        }
        if let Some(t) = config.time_ms {
            timed.push((t, runs));
        }
        configs.push(config);
    }
    Ok(Entries { configs, timed })
}

/// One entry as read: its key, its configuration and its recorded runs (`times`).
type Entry = (String, Config, Option<Value>);

struct EntriesSeed<'a> {
    path: &'a Path,
    params: &'a [String],
    kernel: &'a str,
    /// The first entry that is not a configuration, as this project's error (a serde error
    /// would lose the file's name).
    failure: &'a mut Option<Error>,
}

impl<'de> DeserializeSeed<'de> for EntriesSeed<'_> {
    type Value = Vec<Entry>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> std::result::Result<Vec<Entry>, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for EntriesSeed<'_> {
    type Value = Vec<Entry>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object of cache entries")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<Vec<Entry>, A::Error> {
        let mut out = Vec::with_capacity(map.size_hint().unwrap_or(0));
        while let Some(key) = map.next_key::<String>()? {
            let mut entry: Value = map.next_value()?;
            match config_of(self.path, self.params, self.kernel, &key, &mut entry) {
                Ok((config, runs)) => out.push((key, config, runs)),
                Err(e) => {
                    *self.failure = Some(e);
                    return Err(A::Error::custom("a cache entry is not a configuration"));
                }
            }
        }
        Ok(out)
    }
}

/// The configuration an entry `key` records, and its recorded runs (taken out of `entry`).
fn config_of(
    path: &Path,
    params: &[String],
    kernel: &str,
    key: &str,
    entry: &mut Value,
) -> Result<(Config, Option<Value>)> {
    let obj = entry
        .as_object_mut()
        .ok_or_else(|| Error::format(path, format!("cache entry `{key}` is not an object")))?;
    let values = params
        .iter()
        .map(|p| {
            obj.get(p).map(value_text).ok_or_else(|| {
                Error::format(path, format!("cache entry `{key}` has no parameter `{p}`"))
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let (time_ms, failure) = time_of(obj.get("time"));
    let fields = obj.iter().filter(|(k, _)| !params.contains(k));
    let counters = observed(kernel, fields.map(|(k, v)| (k.as_str(), v)), time_ms);
    let runs = time_ms.and_then(|_| obj.remove("times"));
    let config = Config {
        values,
        time_ms,
        failure,
        counters,
    };
    Ok((config, runs))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params() -> Vec<String> {
        vec!["bx".to_string()]
    }

    /// Entries come out sorted by key, of a key given twice the last, with the runs of those
    /// that have a time: as a `serde_json::Map` read of the whole object gave them.
    #[test]
    fn entries_sorted_by_key_and_the_last_of_a_repeated_key_kept() {
        let raw = r#"{"64": {"bx": 64, "time": 3.0, "times": [3.0, 3.0]},
            "128": {"bx": 128, "time": "RuntimeFailedConfig"},
            "32": {"bx": 32, "time": 9.0},
            "32": {"bx": 32, "time": 2.0, "times": [1.0, 3.0]}}"#;
        let e = read_entries(Path::new("c.json"), raw, &params(), "k").unwrap();
        let order: Vec<&str> = e.configs.iter().map(|c| c.values[0].as_str()).collect();
        assert_eq!(order, ["128", "32", "64"]);
        assert_eq!(e.configs[1].time_ms, Some(2.0));
        assert_eq!(e.configs[0].failure.as_deref(), Some("RuntimeFailedConfig"));
        let runs: Vec<(f64, Option<String>)> = e
            .timed
            .iter()
            .map(|(t, r)| (*t, r.as_ref().map(Value::to_string)))
            .collect();
        assert_eq!(
            runs,
            [
                (2.0, Some("[1.0,3.0]".to_string())),
                (3.0, Some("[3.0,3.0]".to_string()))
            ]
        );
    }

    #[test]
    fn an_entry_that_is_not_a_configuration_is_named() {
        let path = Path::new("c.json");
        let err = read_entries(
            path,
            r#"{"32": {"bx": 32, "time": 1.0}, "64": [64]}"#,
            &params(),
            "k",
        )
        .err()
        .map(|e| e.to_string());
        assert!(
            err.as_deref()
                .is_some_and(|m| m.starts_with("c.json") && m.contains("`64` is not an object")),
            "{err:?}"
        );
        let err = read_entries(path, r#"{"32": {"time": 1.0}}"#, &params(), "k")
            .err()
            .map(|e| e.to_string());
        assert!(
            err.as_deref()
                .is_some_and(|m| m.contains("has no parameter `bx`")),
            "{err:?}"
        );
        let err = read_entries(path, "[1, 2]", &params(), "k")
            .err()
            .map(|e| e.to_string());
        assert!(
            err.as_deref().is_some_and(|m| m.contains("`cache` object")),
            "{err:?}"
        );
    }
}
