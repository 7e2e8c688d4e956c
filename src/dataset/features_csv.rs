//! The feature table as a CSV file (`advise features -o`, read back by `advise samples` and
//! the experiments), and helpers that line up the columns of several tables.

use std::collections::{BTreeSet, HashMap};
use std::io::Write;
use std::path::Path;

use super::features::{FeatureRow, FeatureTable};
use super::measurements::{plausible_time_ms, RunKey, TIME_MS_LEAST, TIME_MS_MOST};
use super::table;
use crate::error::{Error, Result};

impl FeatureTable {
    fn has_kernels(&self) -> bool {
        self.rows.iter().any(|r| r.kernel.is_some())
    }

    /// Writes the table as CSV: key columns, `time_ms`, then one column per metric.
    pub fn write_csv(&self, out: impl Write) -> Result<()> {
        let mut w = csv::Writer::from_writer(out);
        let err = |e: csv::Error| Error::Internal(format!("cannot write CSV: {e}"));
        let mut header = vec!["program", "input", "run", "variant"];
        if self.has_kernels() {
            header.push("kernel");
        }
        header.push("time_ms");
        header.extend(self.columns.iter().map(String::as_str));
        w.write_record(&header).map_err(err)?;
        for r in &self.rows {
            let mut rec = vec![
                r.key.program.clone(),
                r.key.input.clone(),
                r.key.run.to_string(),
                r.key.variant.clone(),
            ];
            if self.has_kernels() {
                rec.push(r.kernel.clone().unwrap_or_default());
            }
            rec.push(fmt_opt(r.time_ms));
            rec.extend(r.values.iter().map(|v| fmt_opt(*v)));
            w.write_record(&rec).map_err(err)?;
        }
        w.flush()
            .map_err(|e| Error::Internal(format!("cannot write CSV: {e}")))
    }

    /// Reads a table written by `write_csv`.
    pub fn read_csv(path: &Path) -> Result<FeatureTable> {
        let (mut rdr, header) = table::with_header(path)?;
        let pos = |n: &str| header.iter().position(|h| h == n);
        let need = |n: &str| {
            pos(n)
                .ok_or_else(|| Error::parse(path, 1, format!("feature table has no `{n}` column")))
        };
        let (p, i, r, v, t) = (
            need("program")?,
            need("input")?,
            need("run")?,
            need("variant")?,
            need("time_ms")?,
        );
        let kernel = pos("kernel");
        let columns: Vec<String> = header[t + 1..].to_vec();
        let mut rows = Vec::new();
        // The line of each run (and kernel) read: a run given twice would count twice.
        let mut seen: HashMap<(RunKey, Option<String>), usize> = HashMap::new();
        for rec in rdr.records() {
            let rec = rec.map_err(|e| table::csv_error(path, e))?;
            let line = table::record_line(&rec);
            let num = |s: &str| -> Result<Option<f64>> {
                // Empty, or Weka's `?` as `predict` reads it: a missing value.
                if s.trim().is_empty() || s.trim() == "?" {
                    return Ok(None);
                }
                match s.trim().parse::<f64>() {
                    Ok(v) if v.is_finite() => Ok(Some(v)),
                    Ok(_) => Err(Error::parse(
                        path,
                        line,
                        format!("`{s}` is not a finite number (leave a missing value empty)"),
                    )),
                    Err(_) => Err(Error::parse(path, line, format!("`{s}` is not a number"))),
                }
            };
            let run = rec[r].trim().parse().map_err(|_| {
                Error::parse(path, line, format!("run `{}` is not a number", &rec[r]))
            })?;
            let key = RunKey {
                program: rec[p].to_string(),
                input: rec[i].to_string(),
                run,
                variant: rec[v].to_string(),
            };
            let kernel = kernel.map(|k| rec[k].to_string());
            if let Some(first) = seen.insert((key.clone(), kernel.clone()), line) {
                return Err(Error::parse(
                    path,
                    line,
                    format!(
                        "repeats line {first}: program {}, input {}, run {}, variant {}{} \
                         again; a run given twice would make two samples of one measurement",
                        key.program,
                        key.input,
                        key.run,
                        key.variant,
                        kernel
                            .as_deref()
                            .map_or(String::new(), |k| format!(", kernel {k}"))
                    ),
                ));
            }
            let time_ms = num(&rec[t])?;
            if let Some(bad) = time_ms.filter(|&v| !plausible_time_ms(v)) {
                return Err(Error::parse(
                    path,
                    line,
                    format!(
                        "time_ms {bad}: a kernel time must be a positive number of \
                         milliseconds from {TIME_MS_LEAST:e} to {TIME_MS_MOST:e} (leave a \
                         failed run's empty)"
                    ),
                ));
            }
            rows.push(FeatureRow {
                key,
                kernel,
                time_ms,
                time_spread: None,
                values: (t + 1..header.len())
                    .map(|c| num(&rec[c]))
                    .collect::<Result<_>>()?,
            });
        }
        Ok(FeatureTable {
            columns,
            rows,
            normalizer: None,
        })
    }
}

/// The sorted union of several column lists.
pub fn union_columns<'a>(lists: impl IntoIterator<Item = &'a [String]>) -> Vec<String> {
    lists
        .into_iter()
        .flatten()
        .cloned()
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect()
}

/// A function that re-orders rows laid out as `from` into the layout `to` (absent: `None`).
pub fn remapper(from: &[String], to: &[String]) -> impl Fn(&[Option<f64>]) -> Vec<Option<f64>> {
    let pos: Vec<Option<usize>> = to
        .iter()
        .map(|c| from.iter().position(|x| x == c))
        .collect();
    move |values| pos.iter().map(|i| i.and_then(|i| values[i])).collect()
}

/// Full-precision text for an optional number (empty when absent).
pub fn fmt_opt(v: Option<f64>) -> String {
    v.map(|x| x.to_string()).unwrap_or_default()
}
