//! The files `advise search-bench` writes beside its report: every run as CSV (`--runs-csv`)
//! and a convergence chart per space (`--charts`).

use advise::error::{Error, Result};
use advise::report::chart::{LineChart, Series};
use advise::search::bench::BenchReport;

/// Every run as CSV: `space,strategy,budget,seed,fraction,evaluations,evals_to_95`.
pub fn write_runs(report: &BenchReport, path: &std::path::Path) -> Result<()> {
    let mut w = csv::Writer::from_path(path).map_err(|e| Error::write(path, e))?;
    for r in &report.runs {
        w.serialize(r).map_err(|e| Error::write(path, e))?;
    }
    w.flush().map_err(|e| Error::io(path, e))
}

/// One convergence chart per space at the last budget listed that it ran, as SVG and PNG.
pub fn write_charts(report: &BenchReport, dir: &std::path::Path) -> Result<Vec<String>> {
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let mut names: Vec<&str> = report.curves.iter().map(|c| c.space.as_str()).collect();
    names.dedup();
    let mut written = Vec::new();
    for name in names {
        let curves: Vec<_> = report.curves.iter().filter(|c| c.space == name).collect();
        let budget = curves.first().map_or(0, |c| c.budget);
        let chart = LineChart {
            title: format!("{name}: median best-so-far over runs (budget {budget})"),
            x_label: "evaluations".into(),
            y_label: "fraction of optimum".into(),
            series: curves
                .iter()
                .map(|c| Series {
                    name: c.strategy.clone(),
                    points: c
                        .median_fraction
                        .iter()
                        .enumerate()
                        .map(|(i, &f)| ((i + 1) as f64, f))
                        .collect(),
                })
                .collect(),
            y_range: Some((0.0, 1.0)),
        };
        for ext in ["svg", "png"] {
            let path = dir.join(format!("{name}-convergence.{ext}"));
            chart.write(&path)?;
            written.push(path.display().to_string());
        }
    }
    Ok(written)
}
