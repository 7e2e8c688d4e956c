//! A table shaped like Weka's `Instances`: typed attributes (numeric, or nominal with their
//! value list), rows of optional values (nominal values are 0-based indices into the list, as in
//! Weka) and a class (target) column. It is what `advise predict` reads from ARFF or CSV before
//! the models see plain matrices.

use std::path::Path;

use super::arff;
use super::table;
use crate::error::{Error, Result};

/// The type of one attribute.
#[derive(Debug, Clone, PartialEq)]
pub enum AttrKind {
    Numeric,
    /// The declared values, in order: a row stores the index of its value in this list.
    Nominal(Vec<String>),
}

/// One column of an [`Instances`] table.
#[derive(Debug, Clone, PartialEq)]
pub struct Attribute {
    pub name: String,
    pub kind: AttrKind,
}

impl Attribute {
    pub fn numeric(name: impl Into<String>) -> Self {
        Attribute {
            name: name.into(),
            kind: AttrKind::Numeric,
        }
    }

    pub fn is_numeric(&self) -> bool {
        self.kind == AttrKind::Numeric
    }
}

/// A typed table with a class column.
#[derive(Debug, Clone)]
pub struct Instances {
    pub relation: String,
    pub attributes: Vec<Attribute>,
    /// One entry per attribute; `None` is Weka's `?`.
    pub rows: Vec<Vec<Option<f64>>>,
    /// The 1-based source line of each row, for error messages.
    pub lines: Vec<usize>,
    /// The target column. Weka's default is the last column.
    pub class_index: usize,
}

impl Instances {
    /// Reads an ARFF or CSV file (`.gz` too), choosing by the file name; the class is the last
    /// column until [`Instances::set_target`] says otherwise.
    pub fn read(path: &Path) -> Result<Instances> {
        let name = path.to_string_lossy().to_ascii_lowercase();
        let name = name.strip_suffix(".gz").unwrap_or(&name);
        let reader = table::open(path)?;
        if name.ends_with(".arff") {
            arff::read(path, reader)
        } else if name.ends_with(".csv") {
            read_csv(path, reader)
        } else {
            Err(Error::format(
                path,
                "unknown table format: name the file .arff or .csv (optionally .gz)",
            ))
        }
    }

    /// The index of a column given by name, by 1-based number, or as `first`/`last`.
    pub fn column_index(&self, spec: &str) -> Result<usize> {
        let spec = spec.trim();
        let n = self.attributes.len();
        if let Some(i) = self.attributes.iter().position(|a| a.name == spec) {
            // A column named by a number that is another column's position: either reading
            // would surprise someone, so neither is taken.
            if let Ok(k) = spec.parse::<usize>() {
                if (1..=n).contains(&k) && k - 1 != i {
                    return Err(Error::Usage(format!(
                        "column `{spec}` is ambiguous: column {} is named `{spec}`, and column \
                         {k} is `{}`; rename the column `{spec}` in the file's header",
                        i + 1,
                        self.attributes[k - 1].name
                    )));
                }
            }
            return Ok(i);
        }
        // Either case, as Weka's SingleIndex reads them.
        match spec.to_ascii_lowercase().as_str() {
            "first" if n > 0 => return Ok(0),
            "last" if n > 0 => return Ok(n - 1),
            _ => {}
        }
        match spec.parse::<usize>() {
            Ok(k) if (1..=n).contains(&k) => Ok(k - 1),
            _ => Err(Error::Usage(format!(
                "no column `{spec}` (columns: {})",
                self.attributes
                    .iter()
                    .map(|a| a.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))),
        }
    }

    /// Sets the class column (`None`: the last column, as Weka does).
    pub fn set_target(&mut self, target: Option<&str>) -> Result<()> {
        if self.attributes.is_empty() {
            return Err(Error::Data("the table has no columns".into()));
        }
        self.class_index = match target {
            Some(t) => self.column_index(t)?,
            None => self.attributes.len() - 1,
        };
        Ok(())
    }

    /// Drops the named (or 1-based numbered) columns; the class column cannot be dropped.
    pub fn remove_columns(&mut self, specs: &[String]) -> Result<()> {
        let mut drop = vec![false; self.attributes.len()];
        for s in specs.iter().filter(|s| !s.trim().is_empty()) {
            let i = self.column_index(s)?;
            if i == self.class_index {
                return Err(Error::Usage(format!(
                    "cannot ignore `{s}`: it is the target column"
                )));
            }
            drop[i] = true;
        }
        let keep: Vec<usize> = (0..drop.len()).filter(|&i| !drop[i]).collect();
        let class_name = self.attributes[self.class_index].name.clone();
        self.attributes = keep.iter().map(|&i| self.attributes[i].clone()).collect();
        for row in &mut self.rows {
            *row = keep.iter().map(|&i| row[i]).collect();
        }
        self.class_index = self
            .attributes
            .iter()
            .position(|a| a.name == class_name)
            .unwrap_or(0);
        Ok(())
    }

    /// Drops the columns among `specs` that this table has, whatever its class column; used on
    /// test files, which need not have the target or every ignored column.
    pub fn drop_present(&mut self, specs: &[String]) {
        let present: Vec<String> = specs
            .iter()
            .filter_map(|s| self.column_index(s).ok())
            .map(|i| self.attributes[i].name.clone())
            .collect();
        let keep: Vec<usize> = (0..self.attributes.len())
            .filter(|&i| !present.contains(&self.attributes[i].name))
            .collect();
        if keep.len() == self.attributes.len() {
            return;
        }
        self.attributes = keep.iter().map(|&i| self.attributes[i].clone()).collect();
        for row in &mut self.rows {
            *row = keep.iter().map(|&i| row[i]).collect();
        }
        self.class_index = self.attributes.len().saturating_sub(1);
    }

    /// The text of one cell as it would be written back (nominal label, number, or `?`).
    pub fn cell_text(&self, row: usize, col: usize) -> String {
        match (self.rows[row][col], &self.attributes[col].kind) {
            (None, _) => "?".into(),
            (Some(v), AttrKind::Numeric) => format!("{v:?}"),
            (Some(v), AttrKind::Nominal(values)) => values
                .get(v as usize)
                .cloned()
                .unwrap_or_else(|| "?".into()),
        }
    }
}

/// Reads CSV as Weka's CSVLoader does: a column is numeric when every non-missing value parses
/// as a number, otherwise nominal with its values in order of first appearance; `?` and empty
/// cells are missing.
pub fn read_csv(path: &Path, reader: impl std::io::Read) -> Result<Instances> {
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(true)
        .trim(csv::Trim::All)
        .from_reader(table::LineCap::new(reader));
    let header = rdr.headers().map_err(|e| table::csv_error(path, e))?;
    let header = table::header_names(path, header)?;
    if header.is_empty() {
        return Err(Error::format(path, "empty CSV: no header row"));
    }
    // (Weka's CSVLoader reads commas only, too.)
    table::refuse_other_separator(path, &header)?;
    // Weka's CSVLoader refuses repeated names too: a model would mix two columns under one.
    table::refuse_repeated_columns(path, &header, |a, b| a == b)?;
    if let Some(j) = header.iter().position(String::is_empty) {
        return Err(Error::parse(
            path,
            1,
            format!(
                "column {} has no name{}: name it, or remove the empty column",
                j + 1,
                if j + 1 == header.len() {
                    " (a comma at the end of the header?)"
                } else {
                    ""
                }
            ),
        ));
    }
    let mut cells: Vec<Vec<String>> = Vec::new();
    let mut lines = Vec::new();
    for rec in rdr.records() {
        let rec = rec.map_err(|e| table::csv_error(path, e))?;
        let line = table::record_line(&rec);
        if rec.len() == 1 && rec[0].is_empty() {
            continue;
        }
        if rec.len() != header.len() {
            return Err(Error::parse(
                path,
                line,
                format!(
                    "row has {} fields, the header has {}",
                    rec.len(),
                    header.len()
                ),
            ));
        }
        cells.push(rec.iter().map(str::to_string).collect());
        lines.push(line);
    }
    let missing = |s: &str| s.is_empty() || s == "?";
    let mut attributes = Vec::with_capacity(header.len());
    let mut rows = vec![Vec::with_capacity(header.len()); cells.len()];
    for (j, name) in header.iter().enumerate() {
        let numeric = cells
            .iter()
            .all(|r| missing(&r[j]) || r[j].parse::<f64>().is_ok());
        if numeric {
            for ((row, r), line) in rows.iter_mut().zip(&cells).zip(&lines) {
                let value = if missing(&r[j]) {
                    None
                } else {
                    r[j].parse::<f64>().ok()
                };
                // NaN or inf would turn every prediction that sees it into NaN.
                if value.is_some_and(|x| !x.is_finite()) {
                    return Err(Error::parse(
                        path,
                        *line,
                        format!(
                            "column {name}: `{}` is not a finite number (an empty cell or `?` \
                             marks a missing value)",
                            r[j]
                        ),
                    ));
                }
                row.push(value);
            }
            attributes.push(Attribute::numeric(name.clone()));
        } else {
            let mut values: Vec<String> = Vec::new();
            for (row, r) in rows.iter_mut().zip(&cells) {
                if missing(&r[j]) {
                    row.push(None);
                    continue;
                }
                let idx = match values.iter().position(|v| *v == r[j]) {
                    Some(i) => i,
                    None => {
                        values.push(r[j].clone());
                        values.len() - 1
                    }
                };
                row.push(Some(idx as f64));
            }
            attributes.push(Attribute {
                name: name.clone(),
                kind: AttrKind::Nominal(values),
            });
        }
    }
    let relation = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let class_index = attributes.len() - 1;
    Ok(Instances {
        relation,
        attributes,
        rows,
        lines,
        class_index,
    })
}

#[cfg(test)]
mod tests;
