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
        let named = parameter_values(table);
        let programs = programs_of(table);
        for (i, mut r) in rows.into_iter().enumerate() {
            // Cells are read as trimmed (` 32 ` is 32): a switch that kept the spaces would
            // pass these checks and then pair nothing.
            for cell in [&mut r.program, &mut r.param, &mut r.from, &mut r.to] {
                *cell = cell.trim().to_string();
            }
            // A row of a program the measurements do not hold pairs nothing, unseen.
            if !programs.is_empty() && !programs.contains(&r.program.as_str()) {
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
            if named.is_empty() {
                // Bit-string variants (NB, BH) pair on their six optimizations only.
                let example = table.rows.first().map_or("", |r| r.key.variant.as_str());
                return Err(Error::parse(
                    &path,
                    i + 2,
                    format!(
                        "the switch {}:{}->{} changes a parameter, but the variants here are \
                         bit strings (`{example}`) that name no parameters: their switches are \
                         their optimizations, paired without a switches.csv",
                        r.param, r.from, r.to
                    ),
                ));
            }
            let Some(values) = named.get(r.param.as_str()) else {
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
            };
            if r.from == r.to {
                return Err(Error::parse(
                    &path,
                    i + 2,
                    format!(
                        "{}:{}->{} changes nothing (FROM and TO are the same value)",
                        r.param, r.from, r.to
                    ),
                ));
            }
            if let Some(absent) = [&r.from, &r.to]
                .into_iter()
                .find(|v| !values.contains(v.as_str()))
            {
                return Err(Error::parse(
                    &path,
                    i + 2,
                    format!(
                        "value `{absent}` of `{}` is in no variant of the measurements (they \
                         have {}): the switch {}:{}->{} pairs nothing",
                        r.param,
                        some_of(values),
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

/// The parameters the variants of a feature table name, each with the values they give it
/// (`bx` and 32 of `bx=32,by=4`); none where the variants are bit strings.
fn parameter_values(table: &FeatureTable) -> BTreeMap<&str, BTreeSet<&str>> {
    let mut out: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for (k, v) in table
        .rows
        .iter()
        .flat_map(|r| r.key.variant.split(','))
        .filter_map(|kv| kv.split_once('='))
    {
        out.entry(k.trim()).or_default().insert(v.trim());
    }
    out
}

/// A set's first dozen members, joined; "..." where there are more.
fn some_of(values: &BTreeSet<&str>) -> String {
    let mut shown: Vec<&str> = values.iter().take(12).copied().collect();
    if values.len() > 12 {
        shown.push("...");
    }
    shown.join(", ")
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
    let named = parameter_values(table);
    let unknown: BTreeSet<&str> = switches
        .iter()
        .filter_map(|s| match s {
            Switch::Param { param, .. } if !named.contains_key(param.as_str()) => {
                Some(param.as_str())
            }
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

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::super::data::load_pool;

    /// A copy of a real dataset folder's tables (datasets/NAME) with `switches` as its
    /// switches.csv.
    fn copy_with(name: &str, switches: &str) -> tempfile::TempDir {
        let real = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("datasets")
            .join(name);
        let dir = tempfile::tempdir().unwrap();
        for f in ["measurements.csv.gz", "timings.csv"] {
            std::fs::copy(real.join(f), dir.path().join(f)).unwrap();
        }
        std::fs::write(dir.path().join("switches.csv"), switches).unwrap();
        dir
    }

    /// Spaces around a switch's cells are not part of its values: the row pairs as the same
    /// row without them.
    #[test]
    fn spaces_around_a_switch_s_cells_are_trimmed() {
        let samples = |row: &str| {
            let dir = copy_with(
                "ktt-pnpoly-rtx3090",
                &format!("program,param,from,to\n{row}\n"),
            );
            load_pool(dir.path()).unwrap().samples.len()
        };
        let plain = samples("Pnpoly,BLOCK_SIZE_X,32,64");
        assert!(plain > 0);
        assert_eq!(samples("Pnpoly, BLOCK_SIZE_X , 32 , 64 "), plain);
    }

    /// NB's variants are bit strings: a parameter switch for them is refused with its line,
    /// as one naming a parameter no variant has is for an imported program.
    #[test]
    fn a_parameter_switch_of_bit_string_variants_is_refused() {
        let dir = copy_with("sim-qv100-nb", "program,param,from,to\nNB,FOO,1,2\n");
        let e = load_pool(dir.path()).unwrap_err().to_string();
        assert!(e.contains("switches.csv:2: the switch FOO:1->2"), "{e}");
        assert!(e.contains("bit strings"), "{e}");
    }
}
