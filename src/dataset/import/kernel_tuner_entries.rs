//! A Kernel Tuner cache's `cache` object read one entry at a time. Each entry's fields are
//! read straight into a [`Config`] (no tree of the entry, names borrowed from the text), so a
//! cache of hundreds of thousands of entries never exists in memory as one tree: the UCI SGEMM
//! space (241,600 entries, 61 MB of JSON) took 965 MB and 1.7-2.1 s of CPU to read as a tree,
//! 369 MB and 1.2-1.4 s this way.
//!
//! The entries come out as a JSON object read into a `serde_json::Map` would give them (the
//! reader before this one): sorted by key, and of a key given twice the last. The order of a
//! space's configurations is the order its searches draw from, so it must not depend on how
//! the file was read.

use std::borrow::Cow;
use std::fmt;
use std::path::Path;

use serde::de::{DeserializeSeed, Deserializer, Error as _, MapAccess, Visitor};
use serde::Deserialize;
use serde_json::Value;

use super::kernel_tuner::{observed, time_of};
use super::space::{value_text, Config};
use crate::error::{Error, Result};

/// The failure of an entry without a `time` field, which the cache's reader makes an error.
pub(super) const UNTIMED: &str = "no `time`";

/// The configurations of a cache, with each working one's time and recorded runs.
pub(super) struct Entries {
    pub configs: Vec<Config>,
    /// `(time, runs)` of each configuration with a time, in the order of `configs`.
    pub timed: Vec<(f64, Option<Value>)>,
    /// Entries whose key an entry after them gave again (the later one is kept).
    pub repeated_keys: usize,
}

/// Reads the `cache` object's text (`raw`, from `path`, where it starts on line `first_line`)
/// entry by entry.
pub(super) fn read_entries(
    path: &Path,
    raw: &str,
    first_line: usize,
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
    let entries = read.map_err(|e| {
        // serde's position is within `raw`: the file's line is counted from where it starts.
        let line = first_line + e.line().saturating_sub(1);
        let text = e.to_string();
        let message = text
            .rsplit_once(" at line ")
            .map_or(text.as_str(), |(m, _)| m);
        Error::parse(
            path,
            line,
            format!("not a Kernel Tuner cache: `cache`: {message}"),
        )
    })?;
    let read = entries.len();
    let entries = by_name_last_kept(entries, |e| &e.0);
    let repeated_keys = read - entries.len();
    let mut configs = Vec::with_capacity(entries.len());
    let mut timed = Vec::new();
    for (_, config, runs) in entries {
        if let Some(t) = config.time_ms {
            timed.push((t, runs));
        }
        configs.push(config);
    }
    Ok(Entries {
        configs,
        timed,
        repeated_keys,
    })
}

/// `items` sorted by name, of a name given twice only the last read: what a JSON object read
/// whole (into a `serde_json::Map`) lists, for entries and for an entry's fields alike.
fn by_name_last_kept<T>(mut items: Vec<T>, name: impl Fn(&T) -> &str) -> Vec<T> {
    // Stable, so that of equal names the last read stays last.
    items.sort_by(|a, b| name(a).cmp(name(b)));
    let mut kept: Vec<T> = Vec::with_capacity(items.len());
    for item in items {
        match kept.last_mut() {
            Some(last) if name(last) == name(&item) => *last = item,
            _ => kept.push(item),
        }
    }
    kept
}

/// One entry as read: its key (borrowed from the text where it has no escapes), its
/// configuration and its recorded runs (`times`).
type Entry<'de> = (Cow<'de, str>, Config, Option<Value>);

struct EntriesSeed<'a> {
    path: &'a Path,
    params: &'a [String],
    kernel: &'a str,
    /// The first entry that is not a configuration, as this project's error (a serde error
    /// would lose the file's name).
    failure: &'a mut Option<Error>,
}

impl<'de> DeserializeSeed<'de> for EntriesSeed<'_> {
    type Value = Vec<Entry<'de>>;

    fn deserialize<D: Deserializer<'de>>(
        self,
        d: D,
    ) -> std::result::Result<Vec<Entry<'de>>, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for EntriesSeed<'_> {
    type Value = Vec<Entry<'de>>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object of cache entries")
    }

    fn visit_map<A: MapAccess<'de>>(
        self,
        mut map: A,
    ) -> std::result::Result<Vec<Entry<'de>>, A::Error> {
        let mut out = Vec::with_capacity(map.size_hint().unwrap_or(0));
        let mut texts = ValueTexts::new(self.params.len());
        while let Some(FieldName(key)) = map.next_key()? {
            let read = map.next_value_seed(FieldsSeed {
                params: self.params,
            });
            let made = match read {
                Ok(fields) => config_of(
                    self.path,
                    self.params,
                    self.kernel,
                    &key,
                    fields,
                    &mut texts,
                ),
                // The text is valid JSON in form (read whole before), so an entry fails to
                // read where it is not an object, or where a number is out of range (`1e400`,
                // which the whole read passes as text): that error goes on with its line.
                Err(e) => {
                    let text = e.to_string();
                    if !text.starts_with("invalid type") {
                        let message = text.rsplit_once(" at line ").map_or(&*text, |(m, _)| m);
                        return Err(A::Error::custom(format!("entry `{key}`: {message}")));
                    }
                    Err(Error::format(
                        self.path,
                        format!("cache entry `{key}` is not an object"),
                    ))
                }
            };
            match made {
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

/// A field's or an entry's name, borrowed from the text where it has no escapes.
struct FieldName<'de>(Cow<'de, str>);

impl<'de> Deserialize<'de> for FieldName<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        d.deserialize_str(FieldNameVisitor)
    }
}

struct FieldNameVisitor;

impl<'de> Visitor<'de> for FieldNameVisitor {
    type Value = FieldName<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a name")
    }

    fn visit_borrowed_str<E: serde::de::Error>(
        self,
        v: &'de str,
    ) -> std::result::Result<Self::Value, E> {
        Ok(FieldName(Cow::Borrowed(v)))
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> std::result::Result<Self::Value, E> {
        Ok(FieldName(Cow::Owned(v.to_string())))
    }

    fn visit_string<E: serde::de::Error>(self, v: String) -> std::result::Result<Self::Value, E> {
        Ok(FieldName(Cow::Owned(v)))
    }
}

/// An entry's fields, read without a tree of the whole entry.
struct Fields {
    /// Each parameter's value, in the order of the parameters.
    values: Vec<Option<Value>>,
    time: Option<Value>,
    runs: Option<Value>,
    /// The other fields (an observer's counters, the tool's own times, a user's metrics), in
    /// the order they were read.
    others: Vec<(String, Value)>,
}

struct FieldsSeed<'a> {
    params: &'a [String],
}

impl<'de> DeserializeSeed<'de> for FieldsSeed<'_> {
    type Value = Fields;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> std::result::Result<Fields, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for FieldsSeed<'_> {
    type Value = Fields;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a cache entry (an object)")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<Fields, A::Error> {
        let mut f = Fields {
            values: vec![None; self.params.len()],
            time: None,
            runs: None,
            others: Vec::new(),
        };
        // Of a name given twice the last value stands, as in a JSON object read whole.
        while let Some(FieldName(key)) = map.next_key()? {
            let value: Value = map.next_value()?;
            match self.params.iter().position(|p| *p == key) {
                Some(i) => {
                    if key == "time" {
                        f.time = Some(value.clone());
                    } else if key == "times" {
                        f.runs = Some(value.clone());
                    }
                    f.values[i] = Some(value);
                }
                // Neither is a counter, so `observed` need not see them.
                None if key == "time" => f.time = Some(value),
                None if key == "times" => f.runs = Some(value),
                None => f.others.push((key.into_owned(), value)),
            }
        }
        Ok(f)
    }
}

/// Each parameter's numbers as text, remembered: a space of many configurations holds few
/// values of a parameter, and formatting a number costs more than copying its text.
struct ValueTexts {
    known: Vec<Vec<(serde_json::Number, String)>>,
}

/// Values remembered per parameter, at most (a parameter of more values formats the rest).
const REMEMBERED_VALUES: usize = 64;

impl ValueTexts {
    fn new(params: usize) -> ValueTexts {
        ValueTexts {
            known: vec![Vec::new(); params],
        }
    }

    /// [`value_text`] of parameter `i`'s value `v`.
    fn text(&mut self, i: usize, v: &Value) -> String {
        let Value::Number(n) = v else {
            return value_text(v);
        };
        let known = &mut self.known[i];
        if let Some((_, text)) = known.iter().find(|(m, _)| m == n) {
            return text.clone();
        }
        let text = value_text(v);
        if known.len() < REMEMBERED_VALUES {
            known.push((n.clone(), text.clone()));
        }
        text
    }
}

/// The configuration an entry `key` records, and its recorded runs.
fn config_of(
    path: &Path,
    params: &[String],
    kernel: &str,
    key: &str,
    fields: Fields,
    texts: &mut ValueTexts,
) -> Result<(Config, Option<Value>)> {
    let values = fields
        .values
        .iter()
        .zip(params)
        .enumerate()
        .map(|(i, (v, p))| {
            v.as_ref().map(|v| texts.text(i, v)).ok_or_else(|| {
                Error::format(path, format!("cache entry `{key}` has no parameter `{p}`"))
            })
        })
        .collect::<Result<Vec<_>>>()?;
    if !key_matches(key, &values) {
        return Err(Error::format(
            path,
            format!(
                "cache entry `{key}` holds the configuration {} ({}): Kernel Tuner keys an \
                 entry by its parameters' values, so the entry or its key is damaged",
                values.join(","),
                params.join(",")
            ),
        ));
    }
    // An entry without a time is an error the reader names after checking the file's
    // objective (a cache of another objective has no times at all).
    let (time_ms, failure) = match fields.time.as_ref() {
        None => (None, Some(UNTIMED.to_string())),
        time => {
            time_of(time).map_err(|e| Error::format(path, format!("cache entry `{key}`: {e}")))?
        }
    };
    // The other fields as a JSON object read whole lists them: the order of a configuration's
    // counters.
    let others = by_name_last_kept(fields.others, |f| &f.0);
    let counters = observed(kernel, others.iter().map(|(k, v)| (k.as_str(), v)), time_ms);
    let runs = time_ms.and(fields.runs);
    let config = Config {
        values,
        time_ms,
        failure,
        counters,
    };
    Ok((config, runs))
}

/// Whether a cache key (`"32,4,1.5"`, Kernel Tuner's values joined by commas) names the
/// values an entry holds: numbers compare as numbers (`1.0` is `1`), text without case
/// (Python's `True` is JSON's `true`).
fn key_matches(key: &str, values: &[String]) -> bool {
    let parts: Vec<&str> = key.split(',').map(str::trim).collect();
    parts.len() == values.len()
        && parts.iter().zip(values).all(|(k, v)| {
            match (k.parse::<f64>(), v.trim().parse::<f64>()) {
                (Ok(a), Ok(b)) => a == b || (a - b).abs() <= 1e-9 * a.abs().max(b.abs()),
                _ => k.eq_ignore_ascii_case(v.trim()),
            }
        })
}

#[cfg(test)]
mod tests;
