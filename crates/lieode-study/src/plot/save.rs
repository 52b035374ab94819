//! Saving: the `to_svg` and `save` entry points of [`Figure`] and [`BarFigure`], which lay a
//! figure out, render it as SVG and as a supersampled PNG, and write those files next to the
//! CSV table of its data.

use std::path::{Path, PathBuf};

use plotters::prelude::*;

use super::bars::BarFigure;
use super::chart::Chart;
use super::check;
use super::figure::Figure;
use super::font::register_font;
use super::layout::Layout;
use super::render::{self, Target};
use crate::error::{Error, Result};
use crate::files::write_file;

/// The files [`Figure::save`] and [`BarFigure::save`] wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FigureFiles {
    /// The vector image, `<stem>.svg`.
    pub svg: PathBuf,
    /// The bitmap, `<stem>.png`.
    pub png: PathBuf,
    /// The plotted data, `<stem>.csv`: columns `series,x,y` for a [`Figure`],
    /// `series,category,value` for a [`BarFigure`].
    pub csv: PathBuf,
}

impl Figure {
    /// The figure as an SVG document.
    ///
    /// # Errors
    /// Those of [`Figure::validate`] and [`register_font`]; [`Error::Plot`] if the layout or
    /// drawing fails.
    pub fn to_svg(&self) -> Result<String> {
        to_svg(Chart::Curves(self))
    }

    /// Writes `<stem>.svg`, `<stem>.png` and `<stem>.csv` (see [`Figure::to_table`]) into
    /// `dir`, creating it if needed. Nothing is written if the figure is invalid.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `stem` if it is empty or contains a path separator;
    /// those of [`Figure::validate`]; [`Error::Io`] naming the folder or file that cannot be
    /// created or written; [`Error::Plot`] if drawing fails.
    pub fn save(&self, dir: &Path, stem: &str) -> Result<FigureFiles> {
        save(Chart::Curves(self), dir, stem)
    }
}

impl BarFigure {
    /// The figure as an SVG document: one `rect` element in the group's colour per bar.
    ///
    /// # Errors
    /// Those of [`BarFigure::validate`] and [`register_font`]; [`Error::Plot`] if the layout or
    /// drawing fails.
    pub fn to_svg(&self) -> Result<String> {
        to_svg(Chart::Bars(self))
    }

    /// Writes `<stem>.svg`, `<stem>.png` and `<stem>.csv` (see [`BarFigure::to_table`]) into
    /// `dir`, creating it if needed. Nothing is written if the figure is invalid.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `stem` if it is empty or contains a path separator;
    /// those of [`BarFigure::validate`]; [`Error::Io`] naming the folder or file that cannot
    /// be created or written; [`Error::Plot`] if drawing fails.
    pub fn save(&self, dir: &Path, stem: &str) -> Result<FigureFiles> {
        save(Chart::Bars(self), dir, stem)
    }
}

/// The figure as an SVG document.
fn to_svg(chart: Chart) -> Result<String> {
    chart.validate()?;
    let layout = plan(chart)?;
    svg_with(chart, &layout)
}

/// Writes `<stem>.svg`, `<stem>.png` and `<stem>.csv` into `dir`, creating it if needed.
/// Nothing is written if the stem is bad, the figure is invalid or the layout fails.
fn save(chart: Chart, dir: &Path, stem: &str) -> Result<FigureFiles> {
    check::stem(stem)?;
    let table = chart.to_table()?;
    let layout = plan(chart)?;
    let svg = svg_with(chart, &layout)?;
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
    write_png(chart, &layout, &files.png)?;
    Ok(files)
}

/// Lays out a validated figure; the font is registered first because the layout measures text.
fn plan(chart: Chart) -> Result<Layout> {
    register_font()?;
    Layout::plan(chart).map_err(|reason| chart.error(reason))
}

fn svg_with(chart: Chart, layout: &Layout) -> Result<String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, chart.size()).into_drawing_area();
        render::draw(chart, layout, &root, Target::Svg).map_err(|r| chart.error(r))?;
        root.present().map_err(|e| chart.error(e.to_string()))?;
    }
    Ok(render::svg_dashes(svg))
}

/// Writes the PNG: drawn at a multiple of the size and averaged down, which smooths lines and
/// markers (the bitmap backend does not anti-alias them).
fn write_png(chart: Chart, layout: &Layout, path: &Path) -> Result<()> {
    let (w, h) = chart.size();
    let s = supersampling(w, h);
    let (bw, bh) = (w * s, h * s);
    let mut big = vec![255u8; (bw as usize) * (bh as usize) * 3];
    {
        let root = BitMapBackend::with_buffer(&mut big, (bw, bh)).into_drawing_area();
        render::draw(chart, layout, &root, Target::Bitmap { scale: s })
            .map_err(|r| chart.error(r))?;
        root.present().map_err(|e| chart.error(e.to_string()))?;
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
