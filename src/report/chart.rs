//! Line charts (a few named series of (x, y) points) as SVG and PNG, drawn with plotters.
//!
//! Text needs a TrueType font for layout in both formats; `font::register` provides the one
//! compiled into the binary.

use std::path::Path;

use plotters::prelude::*;

use crate::error::{Error, Result};

/// One named line.
#[derive(Debug, Clone)]
pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64)>,
}

/// A line chart.
#[derive(Debug, Clone)]
pub struct LineChart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub series: Vec<Series>,
    /// Fixed y range; `None` fits the data.
    pub y_range: Option<(f64, f64)>,
}

impl LineChart {
    /// Writes the chart as SVG or PNG, chosen by the file's extension.
    pub fn write(&self, path: &Path) -> Result<()> {
        super::font::register();
        let png = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("png"));
        let size = (960, 600);
        let drawn = if png {
            self.draw(BitMapBackend::new(path, size).into_drawing_area())
        } else {
            self.draw(SVGBackend::new(path, size).into_drawing_area())
        };
        drawn.map_err(|e| Error::write(path, format!("cannot draw the chart: {e}")))
    }

    fn draw<DB: DrawingBackend>(
        &self,
        area: DrawingArea<DB, plotters::coord::Shift>,
    ) -> std::result::Result<(), String>
    where
        DB::ErrorType: 'static,
    {
        let err = |e: &dyn std::fmt::Display| e.to_string();
        area.fill(&WHITE).map_err(|e| err(&e))?;
        let pts = self.series.iter().flat_map(|s| s.points.iter());
        let (mut x0, mut x1, mut y0, mut y1) = (
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::INFINITY,
            f64::NEG_INFINITY,
        );
        for &(x, y) in pts {
            x0 = x0.min(x);
            x1 = x1.max(x);
            y0 = y0.min(y);
            y1 = y1.max(y);
        }
        if !x0.is_finite() {
            (x0, x1, y0, y1) = (0.0, 1.0, 0.0, 1.0);
        }
        if x1 <= x0 {
            x1 = x0 + 1.0;
        }
        let (y0, y1) = self
            .y_range
            .unwrap_or((y0, if y1 > y0 { y1 } else { y0 + 1.0 }));
        let mut chart = ChartBuilder::on(&area)
            .caption(&self.title, ("sans-serif", 24))
            .margin(16)
            .x_label_area_size(48)
            .y_label_area_size(64)
            .build_cartesian_2d(x0..x1, y0..y1)
            .map_err(|e| err(&e))?;
        chart
            .configure_mesh()
            .x_desc(&self.x_label)
            .y_desc(&self.y_label)
            .label_style(("sans-serif", 15))
            .x_label_formatter(&|x| fmt_tick(*x))
            .y_label_formatter(&|y| fmt_tick(*y))
            .axis_desc_style(("sans-serif", 17))
            .draw()
            .map_err(|e| err(&e))?;
        for (i, s) in self.series.iter().enumerate() {
            let color = Palette99::pick(i).to_rgba();
            chart
                .draw_series(LineSeries::new(
                    s.points.iter().copied(),
                    color.stroke_width(2),
                ))
                .map_err(|e| err(&e))?
                .label(s.name.clone())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(3))
                });
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::LowerRight)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .label_font(("sans-serif", 15))
            .draw()
            .map_err(|e| err(&e))?;
        area.present().map_err(|e| err(&e))?;
        Ok(())
    }
}

/// Axis numbers without needless decimals: 100, 0.5, 0.25.
fn fmt_tick(v: f64) -> String {
    let s = format!("{v:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".into()
    } else {
        s.into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_svg_and_png() {
        let dir = tempfile::tempdir().unwrap();
        let chart = LineChart {
            title: "t".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            series: vec![Series {
                name: "a".into(),
                points: vec![(0.0, 0.0), (1.0, 0.5), (2.0, 0.9)],
            }],
            y_range: Some((0.0, 1.0)),
        };
        let svg = dir.path().join("c.svg");
        let png = dir.path().join("c.png");
        chart.write(&svg).unwrap();
        chart.write(&png).unwrap();
        assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
        assert_eq!(&std::fs::read(&png).unwrap()[1..4], b"PNG");
    }

    #[test]
    fn ticks() {
        assert_eq!(fmt_tick(100.0), "100");
        assert_eq!(fmt_tick(0.25), "0.25");
        assert_eq!(fmt_tick(0.0), "0");
    }
}
