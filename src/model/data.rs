//! The matrices models see: feature columns (numeric, or nominal with a value list), rows of
//! `f64` with NaN for a missing value (as Weka stores them), and a numeric target.

use serde::{Deserialize, Serialize};

use crate::dataset::instances::{AttrKind, Instances};
use crate::error::{Error, Result};

/// One input column of a model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Feature {
    pub name: String,
    /// The labels of a nominal feature (a row holds the label's index); `None` when numeric.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub values: Option<Vec<String>>,
}

impl Feature {
    pub fn numeric(name: impl Into<String>) -> Self {
        Feature {
            name: name.into(),
            values: None,
        }
    }

    /// The number of labels of a nominal feature.
    pub fn nominal_count(&self) -> Option<usize> {
        self.values.as_ref().map(Vec::len)
    }
}

/// Training or test data: `x[row][feature]` and `y[row]` (NaN: missing or unknown).
#[derive(Debug, Clone)]
pub struct Data {
    pub features: Vec<Feature>,
    pub target: String,
    pub x: Vec<Vec<f64>>,
    pub y: Vec<f64>,
}

impl Data {
    /// All-numeric data from plain matrices.
    pub fn numeric(names: &[String], target: &str, x: Vec<Vec<f64>>, y: Vec<f64>) -> Data {
        Data {
            features: names.iter().map(|n| Feature::numeric(n.clone())).collect(),
            target: target.to_string(),
            x,
            y,
        }
    }

    /// Features are every column but the class, in file order; the class must be numeric.
    pub fn from_instances(inst: &Instances) -> Result<Data> {
        let class = &inst.attributes[inst.class_index];
        if !class.is_numeric() {
            return Err(Error::Invalid(format!(
                "target `{}` is nominal; the models predict a numeric target",
                class.name
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
    pub fn from_instances_like(
        inst: &Instances,
        source: &str,
        features: &[Feature],
        target: &str,
    ) -> Result<Data> {
        let find = |name: &str| inst.attributes.iter().position(|a| a.name == name);
        for a in &inst.attributes {
            if a.name != target && !features.iter().any(|f| f.name == a.name) {
                return Err(Error::Invalid(format!(
                    "{source}: column `{}` was not a feature of the training data \
                     (drop it with --ignore)",
                    a.name
                )));
            }
        }
        let mut x = vec![Vec::with_capacity(features.len()); inst.rows.len()];
        for f in features {
            let j = find(&f.name).ok_or_else(|| {
                Error::Invalid(format!(
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
                return Err(Error::Invalid(format!(
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

    /// Keeps the rows whose target is known, as every Weka learner does before training.
    pub fn with_known_target(&self) -> Data {
        let keep: Vec<usize> = (0..self.y.len()).filter(|&i| !self.y[i].is_nan()).collect();
        Data {
            features: self.features.clone(),
            target: self.target.clone(),
            x: keep.iter().map(|&i| self.x[i].clone()).collect(),
            y: keep.iter().map(|&i| self.y[i]).collect(),
        }
    }

    /// The rows `idx`, in that order.
    pub fn subset(&self, idx: &[usize]) -> Data {
        Data {
            features: self.features.clone(),
            target: self.target.clone(),
            x: idx.iter().map(|&i| self.x[i].clone()).collect(),
            y: idx.iter().map(|&i| self.y[i]).collect(),
        }
    }

    /// Whether feature `j` is nominal.
    pub fn is_nominal(&self, j: usize) -> bool {
        self.features[j].values.is_some()
    }
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
                        return Err(Error::Invalid(format!(
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
        (AttrKind::Numeric, Some(_)) => Err(Error::Invalid(format!(
            "{source}: column `{}` is numeric here but nominal in the training data",
            f.name
        ))),
        (AttrKind::Nominal(_), None) => Err(Error::Invalid(format!(
            "{source}: column `{}` is nominal here (a value is not a number) but numeric in \
             the training data",
            f.name
        ))),
    }
}
