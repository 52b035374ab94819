//! What line figures and bar figures share: the view of a figure that the layout and the
//! renderer work from, the checks common to both, and writing the SVG, PNG and CSV files.

use std::path::Path;

use plotters::prelude::*;

use super::axis::Axis;
use super::bars::BarFigure;
use super::curve::{Curve, Scale};
use super::figure::{Figure, FigureFiles};
use super::layout::Layout;
use super::render::{self, Target};
use super::style::{LEGEND_SAMPLE, LEGEND_SWATCH};
use crate::csv::Table;
use crate::error::{Error, Result};
use crate::files::write_file;

/// A figure of either kind, as the layout and the renderer see it.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Chart<'a> {
    /// Curves over a numeric x axis.
    Curves(&'a Figure),
    /// Groups of bars over named categories.
    Bars(&'a BarFigure),
}

/// The smallest and largest accepted sizes, in pixels.
const MIN_SIZE: (u32, u32) = (320, 240);
const MAX_SIZE: u32 = 4000;

impl<'a> Chart<'a> {
    pub(crate) fn title(self) -> &'a str {
        match self {
            Chart::Curves(f) => f.title(),
            Chart::Bars(b) => b.title(),
        }
    }

    /// The x-axis label; empty for a bar figure without one (no room is kept for it).
    pub(crate) fn x_label(self) -> &'a str {
        match self {
            Chart::Curves(f) => f.x_label(),
            Chart::Bars(b) => b.x_label(),
        }
    }

    pub(crate) fn y_label(self) -> &'a str {
        match self {
            Chart::Curves(f) => f.y_label(),
            Chart::Bars(b) => b.y_label(),
        }
    }

    pub(crate) fn size(self) -> (u32, u32) {
        match self {
            Chart::Curves(f) => f.size(),
            Chart::Bars(b) => b.size(),
        }
    }

    /// The names along a categorical x axis; empty for a numeric one.
    pub(crate) fn categories(self) -> &'a [String] {
        match self {
            Chart::Curves(_) => &[],
            Chart::Bars(b) => b.categories(),
        }
    }

    /// The axes, fitted to the data.
    pub(crate) fn axes(self) -> std::result::Result<(Axis, Axis), String> {
        match self {
            Chart::Curves(f) => f.axes(),
            Chart::Bars(b) => b.axes(),
        }
    }

    /// The dashed grey lines, in data coordinates (category `k` spans `k … k + 1` on a
    /// categorical axis).
    pub(crate) fn reference_lines(self) -> Vec<Curve> {
        match self {
            Chart::Curves(f) => f.reference_lines().to_vec(),
            Chart::Bars(b) => b
                .reference_line()
                .map(|(value, label)| {
                    let n = b.categories().len() as f64;
                    Curve::new(label, vec![0.0, n], vec![value, value])
                })
                .into_iter()
                .collect(),
        }
    }

    /// The legend entries: the index of the series (which gives its colour) and its label.
    /// Series without a label are left out, and so is the only group of a bar figure.
    pub(crate) fn legend_entries(self) -> Vec<(usize, &'a str)> {
        let labels: Vec<&str> = match self {
            Chart::Curves(f) => f.curves().iter().map(|c| c.label.as_str()).collect(),
            Chart::Bars(b) if b.groups().len() < 2 => Vec::new(),
            Chart::Bars(b) => b.groups().iter().map(|g| g.label.as_str()).collect(),
        };
        labels
            .into_iter()
            .enumerate()
            .filter(|(_, label)| !label.is_empty())
            .collect()
    }

    /// The width of the sample before each legend label: a line for curves, a swatch for bars.
    pub(crate) fn legend_sample(self) -> f64 {
        match self {
            Chart::Curves(_) => LEGEND_SAMPLE,
            Chart::Bars(_) => LEGEND_SWATCH,
        }
    }

    /// The error [`Error::Plot`] for this figure.
    pub(crate) fn error(self, reason: impl Into<String>) -> Error {
        plot_error(self.title(), reason)
    }

    /// Checks that the figure can be drawn.
    pub(crate) fn validate(self) -> Result<()> {
        match self {
            Chart::Curves(f) => f.validate(),
            Chart::Bars(b) => b.validate(),
        }
    }

    /// The plotted data (which also validates the figure).
    fn to_table(self) -> Result<Table> {
        match self {
            Chart::Curves(f) => f.to_table(),
            Chart::Bars(b) => b.to_table(),
        }
    }

    /// The figure as an SVG document.
    pub(crate) fn to_svg(self) -> Result<String> {
        self.validate()?;
        let layout = self.plan()?;
        self.svg_with(&layout)
    }

    /// Writes `<stem>.svg`, `<stem>.png` and `<stem>.csv` into `dir`, creating it if needed.
    /// Nothing is written if the stem is bad, the figure is invalid or the layout fails.
    pub(crate) fn save(self, dir: &Path, stem: &str) -> Result<FigureFiles> {
        check_stem(stem)?;
        let table = self.to_table()?;
        let layout = self.plan()?;
        let svg = self.svg_with(&layout)?;
        std::fs::create_dir_all(dir).map_err(|e| Error::Io {
            operation: "create the folder",
            path: dir.display().to_string(),
            message: e.to_string(),
        })?;
        let files = FigureFiles {
            svg: dir.join(format!("{stem}.svg")),
            png: dir.join(format!("{stem}.png")),
            csv: dir.join(format!("{stem}.csv")),
        };
        table.write(&files.csv)?;
        write_file(&files.svg, &svg)?;
        self.write_png(&layout, &files.png)?;
        Ok(files)
    }

    fn plan(self) -> Result<Layout> {
        super::register_font()?;
        Layout::plan(self).map_err(|reason| self.error(reason))
    }

    fn svg_with(self, layout: &Layout) -> Result<String> {
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, self.size()).into_drawing_area();
            render::draw(self, layout, &root, Target::Svg).map_err(|r| self.error(r))?;
            root.present().map_err(|e| self.error(e.to_string()))?;
        }
        Ok(render::svg_dashes(svg))
    }

    /// Writes the PNG: drawn at a multiple of the size and averaged down, which smooths
    /// lines and markers (the bitmap backend does not anti-alias them).
    fn write_png(self, layout: &Layout, path: &Path) -> Result<()> {
        let (w, h) = self.size();
        let s = supersampling(w, h);
        let (bw, bh) = (w * s, h * s);
        let mut big = vec![255u8; (bw as usize) * (bh as usize) * 3];
        {
            let root = BitMapBackend::with_buffer(&mut big, (bw, bh)).into_drawing_area();
            render::draw(self, layout, &root, Target::Bitmap { scale: s })
                .map_err(|r| self.error(r))?;
            root.present().map_err(|e| self.error(e.to_string()))?;
        }
        let small = render::downsample(&big, (bw, bh), s);
        let io = |e: &dyn std::fmt::Display| Error::Io {
            operation: "write",
            path: path.display().to_string(),
            message: e.to_string(),
        };
        let mut out = BitMapBackend::new(path, (w, h));
        out.blit_bitmap((0, 0), (w, h), &small)
            .map_err(|e| io(&e))?;
        out.present().map_err(|e| io(&e))
    }
}

/// The error [`Error::Plot`] for the figure titled `title`.
pub(crate) fn plot_error(title: &str, reason: impl Into<String>) -> Error {
    Error::Plot {
        figure: if title.is_empty() {
            "(untitled)".into()
        } else {
            title.into()
        },
        reason: reason.into(),
    }
}

/// Why a figure of `size` pixels cannot be drawn, if it cannot.
pub(crate) fn check_size((w, h): (u32, u32)) -> std::result::Result<(), String> {
    if w < MIN_SIZE.0 || h < MIN_SIZE.1 || w > MAX_SIZE || h > MAX_SIZE {
        return Err(format!(
            "size {w}×{h} pixels is outside {}×{} … {MAX_SIZE}×{MAX_SIZE}",
            MIN_SIZE.0, MIN_SIZE.1
        ));
    }
    Ok(())
}

/// Why an axis label cannot be used, if it cannot: it is empty.
pub(crate) fn check_axis_label(axis: &str, label: &str) -> std::result::Result<(), String> {
    if label.trim().is_empty() {
        return Err(format!(
            "the {axis} axis has no label (name the quantity and its unit)"
        ));
    }
    Ok(())
}

/// Why `v` cannot be plotted on an axis of `scale`, if it cannot, as the end of a sentence
/// naming the value: `= NaN is not finite`.
pub(crate) fn check_value(v: f64, scale: Scale, axis: &str) -> std::result::Result<(), String> {
    if !v.is_finite() {
        return Err(format!("= {v} is not finite"));
    }
    if scale == Scale::Log && v <= 0.0 {
        return Err(format!(
            "= {v:e} is not positive, but the {axis} axis is logarithmic"
        ));
    }
    Ok(())
}

/// Checks that `stem` is a plain file name.
fn check_stem(stem: &str) -> Result<()> {
    if stem.is_empty() || stem.contains(['/', '\\']) || stem == "." || stem == ".." {
        return Err(Error::InvalidParameter {
            name: "stem",
            value: format!("{stem:?}"),
            expected: "a non-empty file name without separators".into(),
        });
    }
    Ok(())
}

/// The supersampling factor of the PNG: 3 × 3 samples per pixel, fewer for large figures to
/// bound the memory (≈ 27 bytes per pixel at 3).
fn supersampling(w: u32, h: u32) -> u32 {
    let pixels = u64::from(w) * u64::from(h);
    if pixels <= 2_000_000 {
        3
    } else if pixels <= 5_000_000 {
        2
    } else {
        1
    }
}
