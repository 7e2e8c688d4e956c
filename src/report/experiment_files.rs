//! The report folder of `advise experiment --out DIR` and `advise demo`: `results.json`,
//! `report.md`, a self-contained `index.html` (tables and inline SVG charts, nothing loaded
//! from outside), and every chart as SVG and PNG under `charts/`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::experiment::{confusion_table, methods_table, verdict};
use super::experiment_charts::{accuracy_chart, scatter_chart, strip_chart};
use super::table::html_escape;
use crate::error::{Error, Result};
use crate::experiment::data::SamplePool;
use crate::experiment::run::ExperimentResult;

const STYLE: &str =
    "body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}\
table{border-collapse:collapse;margin:0.5em 0 1.5em}th,td{border:1px solid #ccc;padding:3px 8px}\
th{background:#eee}td.num{text-align:right;font-variant-numeric:tabular-nums}\
.verdict{background:#f4f7ff;border-left:4px solid #2857b4;padding:0.5em 1em}\
figure{margin:0 0 1.5em}figure svg{max-width:100%;height:auto}";

fn write(path: &Path, text: &str) -> Result<()> {
    std::fs::write(path, text).map_err(|e| Error::io(path, e))
}

fn slug(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}

/// Charts of one experiment: the accuracy bars, and strip and scatter per model.
fn charts(dir: &Path, results: &[ExperimentResult]) -> Result<Vec<(String, PathBuf)>> {
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
    for r in results.iter().filter(|r| !r.baseline) {
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

/// Writes the whole report folder.
pub fn write_report(
    dir: &Path,
    title: &str,
    notes: &[String],
    pool: &SamplePool,
    results: &[Vec<ExperimentResult>],
    seed: u64,
    folds: &crate::experiment::record::FoldLog,
) -> Result<()> {
    let chart_dir = dir.join("charts");
    std::fs::create_dir_all(&chart_dir).map_err(|e| Error::io(&chart_dir, e))?;
    let json = crate::experiment::record::json(pool, seed, results, folds);
    let text = serde_json::to_string_pretty(&json)
        .map_err(|e| Error::Internal(format!("cannot write JSON: {e}")))?;
    write(&dir.join("results.json"), &(text + "\n"))?;

    let mut md = format!("# {title}\n\n");
    let mut html = format!(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{}</title><style>{STYLE}</style></head><body>\n<h1>{}</h1>\n",
        html_escape(title),
        html_escape(title)
    );
    for n in notes {
        let _ = writeln!(md, "- {n}");
        let _ = writeln!(html, "<p>{}</p>", html_escape(n));
    }
    // First screen: the verdict of every experiment.
    md.push_str("\n## Summary\n\n");
    html.push_str("<h2>Summary</h2>\n<ul>\n");
    for r in results.iter().filter(|r| !r.is_empty()) {
        let _ = writeln!(md, "- **{}**: {}", r[0].name, verdict(r));
        let _ = writeln!(
            html,
            "<li class=\"verdict\"><b>{}</b>: {}</li>",
            html_escape(&r[0].name),
            html_escape(&verdict(r))
        );
    }
    html.push_str("</ul>\n");
    md.push_str(
        "\nAccuracy counts a prediction right when predicted and measured speedup fall on the same \
         side of 1.0. \"acc\" weights every test sample once; \"thesis total\" is the thesis's \
         unweighted mean of the optimizations' accuracies; \"balanced\" averages the true-positive \
         and true-negative rates. Intervals: 95% bootstrap over test tuples (input, run); p: \
         McNemar's exact test against the majority rule.\n",
    );
    for r in results.iter().filter(|r| !r.is_empty()) {
        let sizes = super::experiment::sizes_text(&r[0]);
        let _ = writeln!(
            md,
            "\n## {} ({} folds; {sizes})\n\n{}\n",
            r[0].name,
            r[0].folds,
            verdict(r)
        );
        let _ = writeln!(
            html,
            "<h2>{} ({} folds; {sizes})</h2>\n<p class=\"verdict\">{}</p>",
            html_escape(&r[0].name),
            r[0].folds,
            html_escape(&verdict(r))
        );
        let t = methods_table(r);
        md.push_str(&t.to_markdown());
        html.push_str(&t.to_html());
        for m in r.iter().filter(|m| !m.baseline) {
            let _ = writeln!(md, "\n### {} / {}\n", m.name, m.method);
            let _ = writeln!(
                html,
                "<h3>{} / {}</h3>",
                html_escape(&m.name),
                html_escape(&m.method)
            );
            let t = confusion_table(m);
            md.push_str(&t.to_markdown());
            html.push_str(&t.to_html());
            if let Some(t) = super::experiment::thesis_comparison(m) {
                md.push_str("\nBeside the thesis (its data: BH/NB on a Tesla K20, nvprof):\n\n");
                md.push_str(&t.to_markdown());
                html.push_str("<p>Beside the thesis (its data: BH/NB on a Tesla K20, nvprof):</p>");
                html.push_str(&t.to_html());
            }
        }
        for (caption, svg) in charts(&chart_dir, r)? {
            let rel = svg.strip_prefix(dir).unwrap_or(&svg).display().to_string();
            let _ = writeln!(md, "\n![{caption}]({rel})");
            let inline = std::fs::read_to_string(&svg).map_err(|e| Error::io(&svg, e))?;
            let _ = writeln!(
                html,
                "<figure>{inline}<figcaption>{}</figcaption></figure>",
                html_escape(&caption)
            );
        }
    }
    html.push_str("</body></html>\n");
    write(&dir.join("report.md"), &md)?;
    write(&dir.join("index.html"), &html)
}
