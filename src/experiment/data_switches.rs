//! The switches a dataset folder pairs its variants on: an NB/BH program's six bits, and the
//! parameter changes `switches.csv` lists for other programs; and why a folder gave no
//! speedup sample where none paired.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::data::programs_of;
use crate::dataset::features::FeatureTable;
use crate::dataset::import::SwitchRow;
use crate::dataset::samples::Switch;
use crate::dataset::table::{read_rows_with, table_path};
use crate::error::{Error, Result};
use crate::variant::Program;

/// NB/BH bits for the programs the table holds, plus the switches file for the others (with
/// the families it gives, by switch name).
pub(super) fn switches_of(
    dir: &Path,
    table: &FeatureTable,
) -> Result<(Vec<Switch>, BTreeMap<String, String>)> {
    let mut out = Vec::new();
    let mut given = BTreeMap::new();
    for p in &programs_of(table) {
        if let Ok(program) = p.parse::<Program>() {
            out.extend(Switch::bits_of(program));
        }
    }
    if let Some(path) = table_path(dir, "switches") {
        let rows: Vec<SwitchRow> = read_rows_with(&path, &["program", "param", "from", "to"])?;
        let named = parameters_named(table);
        let programs = programs_of(table);
        for (i, r) in rows.into_iter().enumerate() {
            // A row of a program the measurements do not hold pairs nothing, unseen.
            if !programs.is_empty() && !programs.contains(&r.program.trim()) {
                return Err(Error::parse(
                    &path,
                    i + 2,
                    format!(
                        "program `{}` is not in the measurements (they hold {}): a switch of \
                         another dataset, or misspelt?",
                        r.program,
                        programs.join(", ")
                    ),
                ));
            }
            // A switch of a parameter no variant has pairs nothing: beside switches that do
            // pair it would be left out unseen (a row from another dataset, a misspelling).
            if !named.is_empty() && !named.contains(r.param.trim()) {
                let example = table.rows.first().map_or("", |r| r.key.variant.as_str());
                return Err(Error::parse(
                    &path,
                    i + 2,
                    format!(
                        "parameter `{}` is in no variant of the measurements (a variant here \
                         reads `{example}`): a switch of another dataset, or misspelt?",
                        r.param
                    ),
                ));
            }
            if r.from.trim() == r.to.trim() {
                return Err(Error::parse(
                    &path,
                    i + 2,
                    format!(
                        "{}:{}->{} changes nothing (FROM and TO are the same value)",
                        r.param, r.from, r.to
                    ),
                ));
            }
            let values = values_of(table, r.param.trim());
            if let Some(absent) = [&r.from, &r.to]
                .into_iter()
                .find(|v| !values.is_empty() && !values.contains(v.trim()))
            {
                return Err(Error::parse(
                    &path,
                    i + 2,
                    format!(
                        "value `{absent}` of `{}` is in no variant of the measurements (they \
                         have {}): the switch {}:{}->{} pairs nothing",
                        r.param,
                        some_of(&values),
                        r.param,
                        r.from,
                        r.to
                    ),
                ));
            }
            let s = Switch::Param {
                param: r.param,
                from: r.from,
                to: r.to,
            };
            if !r.family.trim().is_empty() {
                given.insert(s.to_string(), r.family.clone());
            }
            if !out.contains(&s) {
                out.push(s);
            }
        }
    }
    Ok((out, given))
}

/// The parameters the variants of a feature table name (`bx` of `bx=32,by=4`); none where
/// the variants are bit strings.
fn parameters_named(table: &FeatureTable) -> BTreeSet<&str> {
    table
        .rows
        .iter()
        .flat_map(|r| r.key.variant.split(','))
        .filter_map(|kv| kv.split_once('=').map(|(k, _)| k.trim()))
        .collect()
}

/// A set's first dozen members, joined; "..." where there are more.
fn some_of(values: &BTreeSet<&str>) -> String {
    let mut shown: Vec<&str> = values.iter().take(12).copied().collect();
    if values.len() > 12 {
        shown.push("...");
    }
    shown.join(", ")
}

/// The values the variants of a feature table give parameter `param` (`32` of `bx=32`).
fn values_of<'a>(table: &'a FeatureTable, param: &str) -> BTreeSet<&'a str> {
    table
        .rows
        .iter()
        .flat_map(|r| r.key.variant.split(','))
        .filter_map(|kv| kv.split_once('='))
        .filter(|(k, _)| k.trim() == param)
        .map(|(_, v)| v.trim())
        .collect()
}

/// Says why a folder gave no speedup sample, where `pool_from` found none: no switch to pair
/// on at all (programs other than NB/BH need a switches.csv), switches naming parameters that
/// no variant has, or switches whose variants have no timed partner. Other errors pass.
pub(super) fn why_nothing_pairs(
    e: Error,
    name: &str,
    table: &FeatureTable,
    switches: &[Switch],
) -> Error {
    if !matches!(e, Error::Data(_)) {
        return e;
    }
    if switches.is_empty() {
        return Error::Data(format!(
            "{name}: no speedup samples: nothing to pair on. The program(s) {} are not NB or BH \
             (whose variants are bit strings), and the folder has no switches.csv, or one \
             without rows (program,param,from,to: which parameter changes are the \
             optimizations; `advise import` writes one)",
            programs_of(table).join(", ")
        ));
    }
    let named = parameters_named(table);
    let unknown: BTreeSet<&str> = switches
        .iter()
        .filter_map(|s| match s {
            Switch::Param { param, .. } if !named.contains(param.as_str()) => Some(param.as_str()),
            _ => None,
        })
        .collect();
    if !unknown.is_empty() {
        let example = table.rows.first().map_or("", |r| r.key.variant.as_str());
        return Error::Data(format!(
            "{name}: no speedup samples: switches.csv names parameter(s) {} that no variant has \
             (a variant here reads `{example}`)",
            unknown.into_iter().collect::<Vec<_>>().join(", ")
        ));
    }
    e
}
