//! The report folder of `advise experiment --out-dir DIR` and `advise demo`: `results.json`,
//! `report.md`, a self-contained `index.html` (tables and inline SVG charts, nothing loaded
//! from outside), and every chart as SVG and PNG under `charts/`.

use std::path::{Path, PathBuf};

use super::document::{Block, Document, Inline, Text};
use super::experiment::{confusion_table, methods_table, verdict};
use super::experiment_charts::{accuracy_chart, scatter_chart, strip_chart};
use crate::error::{Error, Result};
use crate::experiment::data::SamplePool;
use crate::experiment::run::ExperimentResult;

const STYLE: &str =
    "body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}\
table{border-collapse:collapse;margin:0.5em 0 1.5em}th,td{border:1px solid #ccc;padding:3px 8px}\
th{background:#eee}td.num{text-align:right;font-variant-numeric:tabular-nums}\
.answer{background:#f4f7ff;border-left:4px solid #2857b4;padding:0.5em 1em}\
figure{margin:0 0 1.5em}figure svg{max-width:100%;height:auto}";

fn write(path: &Path, text: &str) -> Result<()> {
    std::fs::write(path, text).map_err(|e| Error::io(path, e))
}

fn slug(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}

/// Which models get strip and scatter charts (every experiment gets its accuracy bars).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Charts {
    EveryModel,
    /// Only the model with the best accuracy (a report over many experiments stays readable).
    BestModel,
}

/// Charts of one experiment: the accuracy bars, and strip and scatter per model.
fn charts(
    dir: &Path,
    results: &[ExperimentResult],
    which: Charts,
) -> Result<Vec<(String, PathBuf)>> {
    let mut out = Vec::new();
    let Some(first) = results.first() else {
        return Ok(out);
    };
    let name = slug(&first.name);
    let files = accuracy_chart(dir, &format!("{name}_accuracy"), results)?;
    out.push((
        format!("{}: accuracy per method", first.name),
        files[0].clone(),
    ));
    let best = super::experiment::best(results, false).map(|b| b.method.clone());
    for r in results.iter().filter(|r| {
        !r.baseline && (which == Charts::EveryModel || Some(&r.method) == best.as_ref())
    }) {
        let stem = format!("{name}_{}", slug(&r.method));
        let files = strip_chart(dir, &format!("{stem}_acex"), r)?;
        out.push((
            format!("{} / {}: AC/EX strip chart", r.name, r.method),
            files[0].clone(),
        ));
        let files = scatter_chart(dir, &format!("{stem}_scatter"), r)?;
        out.push((
            format!("{} / {}: predicted vs actual", r.name, r.method),
            files[0].clone(),
        ));
    }
    Ok(out)
}

/// The report as a document; charts are written into `dir/charts` on the way.
pub fn document(
    dir: &Path,
    title: &str,
    notes: &[String],
    results: &[Vec<ExperimentResult>],
    which: Charts,
) -> Result<Document> {
    let chart_dir = dir.join("charts");
    // The report's own chart folder: charts of an earlier run must not linger beside these.
    if chart_dir.is_dir() {
        std::fs::remove_dir_all(&chart_dir).map_err(|e| Error::io(&chart_dir, e))?;
    }
    std::fs::create_dir_all(&chart_dir).map_err(|e| Error::io(&chart_dir, e))?;
    let plain = |s: String| Text(vec![Inline::Plain(s)]);
    let mut d = Document::new(title, STYLE);
    if !notes.is_empty() {
        d.push(Block::List(
            notes.iter().map(|n| plain(n.clone())).collect(),
        ));
    }
    // First screen: the verdict of every experiment.
    d.push(Block::Heading(2, "Summary".into()));
    d.push(Block::Leads(
        results
            .iter()
            .filter(|r| !r.is_empty())
            .map(|r| Text::bold(r[0].name.clone()).then(plain(format!(": {}", verdict(r)))))
            .collect(),
    ));
    d.push(Block::Paragraph(plain(format!(
        "Accuracy counts a prediction right when predicted and measured speedup fall on the same \
         side of 1.0. {}",
        super::experiment::METHODS_LEGEND.trim()
    ))));
    for r in results.iter().filter(|r| !r.is_empty()) {
        let sizes = super::experiment::sizes_text(&r[0]);
        d.push(Block::Heading(
            2,
            plain(format!("{} ({} folds; {sizes})", r[0].name, r[0].folds)),
        ));
        d.push(Block::Lead(plain(verdict(r))));
        if let Some(caveat) = super::experiment::programs_caveat(r) {
            d.push(Block::Paragraph(plain(caveat)));
        }
        d.push(Block::Table(methods_table(r)));
        for m in r.iter().filter(|m| !m.baseline) {
            d.push(Block::Heading(
                3,
                plain(format!("{} / {}", m.name, m.method)),
            ));
            d.push(Block::Table(confusion_table(m)));
            if let Some(t) = super::experiment::thesis_comparison(m) {
                d.push(Block::Paragraph(plain(
                    "Beside the thesis (its tables: BH on a Tesla K20, nvprof; PP..NN in % of samples):"
                        .into(),
                )));
                d.push(Block::Table(t));
            }
        }
        for (caption, svg) in charts(&chart_dir, r, which)? {
            let rel = svg.strip_prefix(dir).unwrap_or(&svg).display().to_string();
            let inline = std::fs::read_to_string(&svg).map_err(|e| Error::io(&svg, e))?;
            d.push(Block::Figure {
                svg: inline,
                file: Some(rel),
                caption,
            });
        }
    }
    Ok(d)
}

/// What a report folder is made of.
#[derive(Debug, Clone, Copy)]
pub struct Report<'a> {
    pub title: &'a str,
    pub notes: &'a [String],
    pub pool: &'a SamplePool,
    pub results: &'a [Vec<ExperimentResult>],
    pub seed: u64,
    pub folds: &'a crate::experiment::record::FoldLog,
    pub charts: Charts,
}

/// Writes the whole report folder: results.json, predictions.csv.gz, report.md, index.html
/// and the charts.
pub fn write_report(dir: &Path, r: &Report<'_>) -> Result<()> {
    let Report {
        title,
        notes,
        pool,
        results,
        seed,
        folds,
        charts: which,
    } = *r;
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let json = crate::experiment::record::json(
        pool,
        seed,
        results,
        folds,
        crate::experiment::record::Samples::Left,
    );
    let text = serde_json::to_string_pretty(&json)
        .map_err(|e| Error::Internal(format!("cannot write JSON: {e}")))?;
    write(&dir.join("results.json"), &(text + "\n"))?;
    let path = dir.join("predictions.csv.gz");
    let file = std::fs::File::create(&path).map_err(|e| Error::io(&path, e))?;
    let mut gz = flate2::write::GzEncoder::new(
        std::io::BufWriter::new(file),
        flate2::Compression::default(),
    );
    crate::experiment::record::write_predictions_csv(results, &mut gz)
        .map_err(std::io::Error::from)
        .and_then(|()| gz.finish())
        .and_then(|mut buf| std::io::Write::flush(&mut buf))
        .map_err(|e| Error::io(&path, e))?;
    let d = document(dir, title, notes, results, which)?;
    write(&dir.join("report.md"), &d.to_markdown())?;
    write(&dir.join("index.html"), &d.to_html())
}
