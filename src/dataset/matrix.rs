//! Dataset tables to the learning layer's matrices: an ARFF or CSV instance table becomes
//! `advise_ml::Data` (numeric and nominal columns, NaN for missing), and a test table is laid
//! out in a fitted model's columns.

use advise_ml::{Data, Feature};

use super::instances::{AttrKind, Instances};
use crate::error::{Error, Result};

/// Features are every column but the class, in file order; the class must be numeric.
pub fn data_from_instances(inst: &Instances) -> Result<Data> {
    let class = &inst.attributes[inst.class_index];
    if !class.is_numeric() {
        // The first value that made it nominal, where a row has one that is not a number.
        let first = match &class.kind {
            AttrKind::Nominal(labels) => inst.rows.iter().zip(&inst.lines).find_map(|(r, line)| {
                let label = labels.get(r[inst.class_index]? as usize)?;
                label
                    .parse::<f64>()
                    .is_err()
                    .then(|| format!(" (`{label}` on line {line} is not a number)"))
            }),
            AttrKind::Numeric => None,
        };
        return Err(Error::Data(format!(
            "target `{}` is nominal{}; the models predict a numeric target (write plain \
             decimal numbers, `?` or an empty cell where one is missing)",
            class.name,
            first.unwrap_or_default()
        )));
    }
    let features = (0..inst.attributes.len())
        .filter(|&j| j != inst.class_index)
        .map(|j| {
            let a = &inst.attributes[j];
            Feature {
                name: a.name.clone(),
                values: match &a.kind {
                    AttrKind::Numeric => None,
                    AttrKind::Nominal(v) => Some(v.clone()),
                },
            }
        })
        .collect();
    let cols: Vec<usize> = (0..inst.attributes.len())
        .filter(|&j| j != inst.class_index)
        .collect();
    let x = inst
        .rows
        .iter()
        .map(|r| cols.iter().map(|&j| r[j].unwrap_or(f64::NAN)).collect())
        .collect();
    let y = inst
        .rows
        .iter()
        .map(|r| r[inst.class_index].unwrap_or(f64::NAN))
        .collect();
    Ok(Data {
        features,
        target: class.name.clone(),
        x,
        y,
    })
}

/// Reads `inst` in the column layout of `features` (matched by name; nominal labels mapped
/// onto the training labels), so a test file need not list columns or labels in the same
/// order as the training file. The target column is optional in `inst`.
pub fn data_like(
    inst: &Instances,
    source: &str,
    features: &[Feature],
    target: &str,
) -> Result<Data> {
    let find = |name: &str| inst.attributes.iter().position(|a| a.name == name);
    for a in &inst.attributes {
        if a.name != target && !features.iter().any(|f| f.name == a.name) {
            return Err(Error::Data(format!(
                "{source}: column `{}` was not a feature of the training data \
                 (drop it with --ignore)",
                a.name
            )));
        }
    }
    let mut x = vec![Vec::with_capacity(features.len()); inst.rows.len()];
    for f in features {
        let j = find(&f.name).ok_or_else(|| {
            Error::Data(format!(
                "{source}: the model needs column `{}`, which is missing",
                f.name
            ))
        })?;
        let map = label_map(inst, j, f, source)?;
        for (row, r) in x.iter_mut().zip(&inst.rows) {
            row.push(match (r[j], &map) {
                (None, _) => f64::NAN,
                (Some(v), None) => v,
                (Some(v), Some(m)) => m[v as usize],
            });
        }
    }
    let y = match find(target) {
        Some(j) if inst.attributes[j].is_numeric() => {
            inst.rows.iter().map(|r| r[j].unwrap_or(f64::NAN)).collect()
        }
        Some(_) => {
            return Err(Error::Data(format!(
                "{source}: target `{target}` is not numeric"
            )))
        }
        None => vec![f64::NAN; inst.rows.len()],
    };
    Ok(Data {
        features: features.to_vec(),
        target: target.to_string(),
        x,
        y,
    })
}

/// For a nominal column, the index in `f`'s labels of each of `inst`'s labels.
fn label_map(inst: &Instances, j: usize, f: &Feature, source: &str) -> Result<Option<Vec<f64>>> {
    match (&inst.attributes[j].kind, &f.values) {
        (AttrKind::Numeric, None) => Ok(None),
        (AttrKind::Nominal(have), Some(want)) => {
            let mut map = Vec::with_capacity(have.len());
            for (k, label) in have.iter().enumerate() {
                let used = inst.rows.iter().position(|r| r[j] == Some(k as f64));
                match want.iter().position(|w| w == label) {
                    Some(i) => map.push(i as f64),
                    // A declared but unused label does no harm.
                    None if used.is_none() => map.push(f64::NAN),
                    None => {
                        let line = used.map(|r| inst.lines[r]).unwrap_or(0);
                        return Err(Error::Data(format!(
                            "{source}:{line}: value `{label}` of column `{}` never occurs in \
                             the training data (labels: {})",
                            f.name,
                            want.join(", ")
                        )));
                    }
                }
            }
            Ok(Some(map))
        }
        (AttrKind::Numeric, Some(_)) => Err(Error::Data(format!(
            "{source}: column `{}` is numeric here but nominal in the training data",
            f.name
        ))),
        (AttrKind::Nominal(_), None) => Err(Error::Data(format!(
            "{source}: column `{}` is nominal here (a value is not a number) but numeric in \
             the training data",
            f.name
        ))),
    }
}
