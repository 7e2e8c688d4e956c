//! Charts of experiment results, each as SVG and PNG: the thesis's AC/EX strip chart (one
//! strip per optimization, a line at 1.0), predicted against actual speedup, and accuracy per
//! method with its 95% interval.
//!
//! Text is drawn with the font compiled into the binary (`report::font`).

use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::error::{Error, Result};
use crate::experiment::run::ExperimentResult;
use advise_ml::SplitMix64;

const SIZE: (u32, u32) = (900, 520);

fn chart_err(path: &Path, e: impl std::fmt::Display) -> Error {
    Error::write(path, format!("cannot draw the chart: {e}"))
}

/// A chart that can draw itself on any plotters backend.
trait Chart {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), String>;
}

/// Draws `chart` into `<stem>.svg` and `<stem>.png`; returns both paths.
fn both(dir: &Path, stem: &str, chart: &impl Chart) -> Result<Vec<PathBuf>> {
    super::font::register();
    let svg = dir.join(format!("{stem}.svg"));
    let png = dir.join(format!("{stem}.png"));
    {
        let root = SVGBackend::new(&svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(|e| chart_err(&svg, e))?;
        chart.draw(&root).map_err(|e| chart_err(&svg, e))?;
        root.present().map_err(|e| chart_err(&svg, e))?;
    }
    {
        let root = BitMapBackend::new(&png, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(|e| chart_err(&png, e))?;
        chart.draw(&root).map_err(|e| chart_err(&png, e))?;
        root.present().map_err(|e| chart_err(&png, e))?;
    }
    Ok(vec![svg, png])
}

fn e<T: std::fmt::Display>(err: T) -> String {
    err.to_string()
}

struct Strips {
    title: String,
    strips: Vec<(String, Vec<f64>)>,
}

impl Chart for Strips {
    /// One horizontal strip per optimization (names on the left, where long names fit), the
    /// ratio on a log x axis, a red line at 1.0.
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), String> {
        let all: Vec<f64> = self
            .strips
            .iter()
            .flat_map(|(_, v)| v.iter().copied())
            .collect();
        let (lo, hi) = bounds(&all, 1.0);
        let n = self.strips.len().max(1);
        let longest = self.strips.iter().map(|(s, _)| s.len()).max().unwrap_or(4) as u32;
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(20 + 7 * longest)
            .build_cartesian_2d((lo..hi).log_scale(), -0.5f64..(n as f64 - 0.5))
            .map_err(e)?;
        let names: Vec<String> = self.strips.iter().map(|(n, _)| n.clone()).collect();
        chart
            .configure_mesh()
            .y_labels(n)
            .y_label_formatter(&|y| {
                let i = y.round();
                if (y - i).abs() < 1e-9 && i >= 0.0 {
                    names.get(i as usize).cloned().unwrap_or_default()
                } else {
                    String::new()
                }
            })
            .x_desc("actual / predicted speedup (AC/EX)")
            .disable_y_mesh()
            .draw()
            .map_err(e)?;
        chart
            .draw_series(LineSeries::new(
                [(1.0, -0.5), (1.0, n as f64 - 0.5)],
                RED.stroke_width(2),
            ))
            .map_err(e)?;
        let mut rng = SplitMix64::new(1);
        for (i, (_, ratios)) in self.strips.iter().enumerate() {
            let points: Vec<(f64, f64)> = ratios
                .iter()
                .map(|&x| {
                    (
                        on_axis(x, (lo, hi)),
                        i as f64 + 0.3 * (rng.next_f64() - 0.5),
                    )
                })
                .collect();
            chart
                .draw_series(points.into_iter().map(|p| Cross::new(p, 3, BLUE.mix(0.6))))
                .map_err(e)?;
        }
        Ok(())
    }
}

/// The AC/EX strip chart of one method's results: one strip per optimization (with seeded
/// jitter), actual / predicted speedup on a log scale, with a line at 1.0.
pub fn strip_chart(dir: &Path, stem: &str, r: &ExperimentResult) -> Result<Vec<PathBuf>> {
    let strips = r
        .optimizations
        .iter()
        .map(|o| {
            let ratios = o
                .samples
                .iter()
                .filter_map(|s| s.predicted.filter(|p| *p > 0.0).map(|p| s.actual / p))
                .collect();
            (o.name.clone(), ratios)
        })
        .collect();
    let title = format!(
        "{} / {}: AC/EX per optimization ({})",
        r.name,
        r.method,
        data_and_size(r)
    );
    both(dir, stem, &Strips { title, strips })
}

struct Scatter {
    title: String,
    points: Vec<(f64, f64)>,
}

impl Chart for Scatter {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), String> {
        let all: Vec<f64> = self.points.iter().flat_map(|&(a, p)| [a, p]).collect();
        let (lo, hi) = bounds(&all, 1.0);
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d((lo..hi).log_scale(), (lo..hi).log_scale())
            .map_err(e)?;
        chart
            .configure_mesh()
            .x_desc("actual speedup (AC)")
            .y_desc("predicted speedup (EX)")
            .draw()
            .map_err(e)?;
        for line in [
            vec![(lo, lo), (hi, hi)],
            vec![(1.0, lo), (1.0, hi)],
            vec![(lo, 1.0), (hi, 1.0)],
        ] {
            chart
                .draw_series(LineSeries::new(line, BLACK.mix(0.4)))
                .map_err(e)?;
        }
        chart
            .draw_series(self.points.iter().map(|&(a, p)| {
                let at = (on_axis(a, (lo, hi)), on_axis(p, (lo, hi)));
                Circle::new(at, 2, BLUE.mix(0.5).filled())
            }))
            .map_err(e)?;
        Ok(())
    }
}

/// Predicted against actual speedup, all optimizations, with the diagonal and the 1.0 lines.
pub fn scatter_chart(dir: &Path, stem: &str, r: &ExperimentResult) -> Result<Vec<PathBuf>> {
    let points = r
        .optimizations
        .iter()
        .flat_map(|o| {
            o.samples
                .iter()
                .filter_map(|s| s.predicted.map(|p| (s.actual, p)))
        })
        .filter(|(a, p)| *a > 0.0 && *p > 0.0)
        .collect();
    let title = format!(
        "{} / {}: predicted vs actual speedup ({})",
        r.name,
        r.method,
        data_and_size(r)
    );
    both(dir, stem, &Scatter { title, points })
}

/// One bar: label, accuracy %, its 95% interval, and whether it is a baseline.
type Bar = (String, f64, Option<(f64, f64)>, bool);

struct Bars {
    title: String,
    bars: Vec<Bar>,
}

impl Chart for Bars {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), String> {
        let n = self.bars.len().max(1);
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(-0.5f64..(n as f64 - 0.5), 0f64..100f64)
            .map_err(e)?;
        let names: Vec<String> = self.bars.iter().map(|b| b.0.clone()).collect();
        chart
            .configure_mesh()
            .x_labels(n)
            .x_label_formatter(&|x| names.get(x.round() as usize).cloned().unwrap_or_default())
            .y_desc("accuracy %")
            .disable_x_mesh()
            .draw()
            .map_err(e)?;
        for (i, (_, acc, ci, baseline)) in self.bars.iter().enumerate() {
            let x = i as f64;
            let color = if *baseline {
                RGBColor(160, 160, 160)
            } else {
                RGBColor(40, 90, 180)
            };
            chart
                .draw_series([Rectangle::new(
                    [(x - 0.35, 0.0), (x + 0.35, *acc)],
                    color.filled(),
                )])
                .map_err(e)?;
            if let Some((l, h)) = ci {
                chart
                    .draw_series(LineSeries::new([(x, *l), (x, *h)], BLACK.stroke_width(2)))
                    .map_err(e)?;
            }
        }
        Ok(())
    }
}

/// Sample-weighted accuracy of every method of one experiment with 95% intervals; baselines
/// in grey.
pub fn accuracy_chart(
    dir: &Path,
    stem: &str,
    results: &[ExperimentResult],
) -> Result<Vec<PathBuf>> {
    let bars = results
        .iter()
        .map(|r| {
            (
                r.method.replace("baseline:", ""),
                100.0 * r.total.accuracy.unwrap_or(0.0),
                r.total.accuracy_ci.map(|c| (100.0 * c.low, 100.0 * c.high)),
                r.baseline,
            )
        })
        .collect();
    let name = results.first().map(|r| r.name.as_str()).unwrap_or("");
    let size = results.first().map(data_and_size).unwrap_or_default();
    let title = format!("{name}: accuracy per method (95% CI; baselines grey; {size})");
    both(dir, stem, &Bars { title, bars })
}

/// "SIMULATED, n = 192" or "n = 600": what a chart's samples are and how many, in its title.
fn data_and_size(r: &ExperimentResult) -> String {
    let n = r.test_samples();
    match r.data_label() {
        "measured" => format!("n = {n}"),
        label => format!("{label}, n = {n}"),
    }
}

/// The widest log axis a chart draws: speedups and their ratios beyond a million either way
/// come only from damaged timings (a time of 1e308 ms), and an axis over hundreds of decades
/// made the plotting library loop for ever. Points outside are drawn at its edges.
const AXIS_MOST: f64 = 1e6;

/// Log-axis bounds that contain `values` and `must`, with a margin, within [`AXIS_MOST`].
fn bounds(values: &[f64], must: f64) -> (f64, f64) {
    let pos = values.iter().copied().filter(|v| *v > 0.0 && v.is_finite());
    let lo = pos.clone().fold(must, f64::min);
    let hi = pos.fold(must, f64::max);
    ((lo / 1.1).max(1.0 / AXIS_MOST), (hi * 1.1).min(AXIS_MOST))
}

/// `v` moved inside the axis `lo..hi`.
fn on_axis(v: f64, (lo, hi): (f64, f64)) -> f64 {
    if v.is_nan() {
        lo
    } else {
        v.clamp(lo, hi)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Speedups from damaged timings (1e308 ms against 0.3 ms) give an axis of twelve
    /// decades, not hundreds (over which the plotting library looped for ever), and a chart
    /// that is written, its extreme points at the axis' edges.
    #[test]
    fn extreme_speedups_stay_on_a_bounded_axis() {
        let (lo, hi) = bounds(&[1e300, 1e-320, 1.2, f64::INFINITY], 1.0);
        assert_eq!((lo, hi), (1.0 / AXIS_MOST, AXIS_MOST));
        assert_eq!(on_axis(f64::NAN, (lo, hi)), lo);
        assert_eq!(on_axis(3e307, (lo, hi)), hi);
        let dir = tempfile::tempdir().unwrap();
        let scatter = Scatter {
            title: "synthetic".into(),
            points: vec![(1e300, 1.1), (1.3, 1e-320), (0.9, 1.0)],
        };
        let files = both(dir.path(), "extreme", &scatter).unwrap();
        assert!(files.iter().all(|f| f.exists()), "{files:?}");
    }
}
