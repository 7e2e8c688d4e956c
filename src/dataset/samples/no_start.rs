//! Why a switch has no starting row in a feature table: what the table's variants are, so
//! that the error names the fix (a parameter's spelling, a value it never takes, another
//! program) instead of asking the user to guess.

use std::collections::BTreeMap;

use super::Switch;
use crate::dataset::features::FeatureTable;

/// At most this many names or values are listed.
const LISTED: usize = 12;

/// A sentence on what the table holds instead of a starting row for `switch`.
pub fn why_no_start(table: &FeatureTable, switch: &Switch) -> String {
    match switch {
        Switch::Bit(program, _) => {
            let programs = distinct(table.rows.iter().map(|r| r.key.program.as_str()));
            format!(
                "it is an optimization of {}; the table's programs are {}",
                program.name(),
                listed(&programs)
            )
        }
        Switch::Param { param, from, .. } => {
            let params = parameters(table);
            if params.is_empty() {
                return "the table's variants are not PARAM=VALUE lists: for NB or BH give \
                        an optimization such as FTZ, with --program"
                    .into();
            }
            match params.get(param.as_str()) {
                Some(values) => format!(
                    "{param} is {} in this table, never {from}",
                    listed(&values.iter().map(String::as_str).collect::<Vec<_>>())
                ),
                None => {
                    let names: Vec<&str> = params.keys().copied().collect();
                    let near = names.iter().find(|n| n.eq_ignore_ascii_case(param));
                    match near {
                        Some(n) => format!(
                            "no parameter is named {param}; names are case-sensitive: did you \
                             mean {n}?"
                        ),
                        None => format!(
                            "no parameter is named {param}; the table's are {}",
                            listed(&names)
                        ),
                    }
                }
            }
        }
    }
}

/// Each parameter of the table's `k=v,k=v` variants with the values it takes, in name order.
fn parameters(table: &FeatureTable) -> BTreeMap<&str, Vec<String>> {
    let mut params: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for row in &table.rows {
        for kv in row.key.variant.split(',') {
            if let Some((k, v)) = kv.split_once('=') {
                let values = params.entry(k.trim()).or_default();
                let v = v.trim();
                if !values.iter().any(|x| x == v) {
                    values.push(v.to_string());
                }
            }
        }
    }
    params
}

/// The distinct texts in first-seen order.
fn distinct<'a>(texts: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    for t in texts {
        if !out.contains(&t) {
            out.push(t);
        }
    }
    out
}

/// `a, b and c`, the first `LISTED` and a count of the rest.
fn listed(items: &[&str]) -> String {
    if items.is_empty() {
        return "none".into();
    }
    let shown = &items[..items.len().min(LISTED)];
    let mut text = match shown {
        [one] => one.to_string(),
        [head @ .., last] => format!("{} and {last}", head.join(", ")),
        [] => String::new(),
    };
    if items.len() > LISTED {
        text = format!("{} and {} more", shown.join(", "), items.len() - LISTED);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::features::FeatureRow;
    use crate::dataset::measurements::RunKey;
    use crate::variant::{Optimization, Program};

    fn table(program: &str, variants: &[&str]) -> FeatureTable {
        FeatureTable {
            columns: vec![],
            rows: variants
                .iter()
                .map(|v| FeatureRow {
                    key: RunKey {
                        program: program.into(),
                        input: "n=1".into(),
                        run: 1,
                        variant: v.to_string(),
                    },
                    kernel: None,
                    time_ms: Some(1.0),
                    time_spread: None,
                    values: vec![],
                })
                .collect(),
            normalizer: None,
        }
    }

    fn param(p: &str, from: &str) -> Switch {
        Switch::Param {
            param: p.into(),
            from: from.into(),
            to: "9".into(),
        }
    }

    #[test]
    fn a_misspelt_parameter_names_the_one_meant() {
        let t = table(
            "Pnpoly",
            &["BLOCK=32,USE_METHOD=0", "BLOCK=64,USE_METHOD=1"],
        );
        let why = why_no_start(&t, &param("use_method", "0"));
        assert!(why.contains("did you mean USE_METHOD?"), "{why}");
        let why = why_no_start(&t, &param("TILE", "1"));
        assert!(
            why.contains("the table's are BLOCK and USE_METHOD"),
            "{why}"
        );
    }

    #[test]
    fn a_value_never_taken_lists_the_values() {
        let t = table(
            "Pnpoly",
            &["BLOCK=32,USE_METHOD=0", "BLOCK=64,USE_METHOD=1"],
        );
        let why = why_no_start(&t, &param("USE_METHOD", "2"));
        assert_eq!(why, "USE_METHOD is 0 and 1 in this table, never 2");
    }

    #[test]
    fn bit_strings_and_other_programs_are_said() {
        let t = table("NB", &["000000", "000001"]);
        let why = why_no_start(&t, &param("X", "0"));
        assert!(why.contains("not PARAM=VALUE lists"), "{why}");
        let why = why_no_start(&t, &Switch::Bit(Program::Bh, Optimization::Ftz));
        assert!(
            why.contains("an optimization of BH; the table's programs are NB"),
            "{why}"
        );
    }

    #[test]
    fn long_lists_are_cut() {
        let names: Vec<String> = (0..20).map(|i| format!("v{i}")).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        assert_eq!(listed(&refs[..3]), "v0, v1 and v2");
        assert!(
            listed(&refs).ends_with("v11 and 8 more"),
            "{}",
            listed(&refs)
        );
        assert_eq!(listed(&[]), "none");
    }
}
