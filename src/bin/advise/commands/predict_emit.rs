//! How `advise predict` writes its predictions: one per line, as JSON, or (with `-o`) as CSV
//! beside the input's columns.

use serde::Serialize;

use super::output::Output;
use advise::dataset::instances::Instances;
use advise::error::{Error, Result};

#[derive(Serialize)]
struct JsonPrediction {
    row: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    fold: Option<usize>,
    predicted: f64,
}

/// Writes predictions: one per line, or JSON, or (with `-o`) CSV with the input's columns.
pub(super) fn emit(
    out: &Output,
    table: &Instances,
    rows: &[usize],
    folds: Option<&[usize]>,
    predicted: &[f64],
) -> Result<()> {
    if out.json {
        let items: Vec<JsonPrediction> = rows
            .iter()
            .enumerate()
            .map(|(i, &row)| JsonPrediction {
                row,
                fold: folds.map(|f| f[i]),
                predicted: predicted[i],
            })
            .collect();
        // An object, as every document is, with its schema_version: 2 since the bare list
        // of schema 1 (which had none) became `predictions`.
        return out.emit_json(&serde_json::json!({
            "predictions": items,
            "schema_version": 2,
        }));
    }
    if out.path.is_some() {
        return out.emit_csv(|buf| {
            let mut w = csv::Writer::from_writer(buf);
            let mut header: Vec<String> = table.attributes.iter().map(|a| a.name.clone()).collect();
            if folds.is_some() {
                header.push("fold".into());
            }
            header.push("predicted".into());
            let err = |e: csv::Error| Error::Internal(format!("cannot write CSV: {e}"));
            w.write_record(&header).map_err(err)?;
            for (i, &row) in rows.iter().enumerate() {
                let mut rec: Vec<String> = (0..table.attributes.len())
                    .map(|c| table.cell_text(row, c))
                    .collect();
                if let Some(f) = folds {
                    rec.push(f[i].to_string());
                }
                rec.push(predicted[i].to_string());
                w.write_record(&rec).map_err(err)?;
            }
            w.flush()
                .map_err(|e| Error::Internal(format!("cannot write CSV: {e}")))
        });
    }
    let mut text = String::with_capacity(predicted.len() * 20);
    for p in predicted {
        text.push_str(&p.to_string());
        text.push('\n');
    }
    out.emit(&text)
}
