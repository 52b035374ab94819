//! A line figure: its curves, axes and reference lines, their validation and the table of the
//! plotted points. Drawing and saving it are in `save.rs`.

use super::axis::Axis;
use super::check;
use super::curve::{Curve, CurveStyle, Scale};
use crate::csv::{Cell, Table};
use crate::error::{Error, Result};

/// A two-dimensional plot of [`Curve`]s, built with the `with_*` setters and written by
/// [`Figure::save`].
///
/// Curves get the colours and marker shapes of the house style in the order they were added.
/// Reference lines (e.g. `C·hᵖ` in a convergence plot) are drawn dashed grey behind the data
/// and labelled next to the line rather than in the legend. The axes cover all points of the
/// curves and reference lines, with some padding; the legend goes to a corner of the plot that
/// holds no data, or to the right of it when every corner does.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    title: String,
    x_label: String,
    y_label: String,
    x_scale: Scale,
    y_scale: Scale,
    curves: Vec<Curve>,
    reference_lines: Vec<Curve>,
    style: CurveStyle,
    size: (u32, u32),
}

impl Figure {
    /// The default size in pixels, width × height.
    pub const DEFAULT_SIZE: (u32, u32) = (900, 600);

    /// An empty figure with this title, linear axes, curves drawn as
    /// [`CurveStyle::LineAndMarkers`], [`Figure::DEFAULT_SIZE`]. Both axes need a label before
    /// the figure can be drawn.
    pub fn new(title: impl Into<String>) -> Self {
        Self {
            title: title.into(),
            x_label: String::new(),
            y_label: String::new(),
            x_scale: Scale::Linear,
            y_scale: Scale::Linear,
            curves: Vec::new(),
            reference_lines: Vec::new(),
            style: CurveStyle::LineAndMarkers,
            size: Self::DEFAULT_SIZE,
        }
    }

    /// Sets the title.
    pub fn with_title(mut self, title: impl Into<String>) -> Self {
        self.title = title.into();
        self
    }

    /// Sets the x-axis label: the quantity and its unit, e.g. `wall time [s]`.
    pub fn with_x_label(mut self, label: impl Into<String>) -> Self {
        self.x_label = label.into();
        self
    }

    /// Sets the y-axis label.
    pub fn with_y_label(mut self, label: impl Into<String>) -> Self {
        self.y_label = label.into();
        self
    }

    /// Sets the x-axis scale.
    pub fn with_x_scale(mut self, scale: Scale) -> Self {
        self.x_scale = scale;
        self
    }

    /// Sets the y-axis scale.
    pub fn with_y_scale(mut self, scale: Scale) -> Self {
        self.y_scale = scale;
        self
    }

    /// Adds a curve.
    pub fn with_curve(mut self, curve: Curve) -> Self {
        self.curves.push(curve);
        self
    }

    /// Adds a reference line: drawn dashed grey through its points, its label written next to
    /// it (an empty label writes none).
    pub fn with_reference_line(mut self, line: Curve) -> Self {
        self.reference_lines.push(line);
        self
    }

    /// Sets how curves without a style of their own are drawn.
    pub fn with_style(mut self, style: CurveStyle) -> Self {
        self.style = style;
        self
    }

    /// Sets the size in pixels (width, height) of both the SVG and the PNG; text sizes are
    /// fixed in pixels, so a larger figure has relatively smaller text.
    pub fn with_size(mut self, width: u32, height: u32) -> Self {
        self.size = (width, height);
        self
    }

    /// The title.
    pub fn title(&self) -> &str {
        &self.title
    }

    /// The x-axis label.
    pub fn x_label(&self) -> &str {
        &self.x_label
    }

    /// The y-axis label.
    pub fn y_label(&self) -> &str {
        &self.y_label
    }

    /// The x-axis scale.
    pub fn x_scale(&self) -> Scale {
        self.x_scale
    }

    /// The y-axis scale.
    pub fn y_scale(&self) -> Scale {
        self.y_scale
    }

    /// The curves, in drawing (and legend) order.
    pub fn curves(&self) -> &[Curve] {
        &self.curves
    }

    /// The reference lines.
    pub fn reference_lines(&self) -> &[Curve] {
        &self.reference_lines
    }

    /// The style of curves without one of their own.
    pub fn style(&self) -> CurveStyle {
        self.style
    }

    /// The size in pixels (width, height).
    pub fn size(&self) -> (u32, u32) {
        self.size
    }

    /// The error [`Error::Plot`] for this figure.
    pub(crate) fn error(&self, reason: impl Into<String>) -> Error {
        check::plot_error(&self.title, reason)
    }

    /// Checks that the figure can be drawn.
    ///
    /// # Errors
    /// [`Error::Plot`] naming the problem: no curves; a curve or reference line with no points,
    /// with x and y of different lengths, with a non-finite value, or with a value `≤ 0` on a
    /// logarithmic axis (naming the curve and the index of the point); an empty axis label; a
    /// size outside 320×240 … 4000×4000.
    pub fn validate(&self) -> Result<()> {
        if self.curves.is_empty() {
            return Err(self.error("no curves to draw"));
        }
        for (kind, curves) in [
            ("curve", &self.curves),
            ("reference line", &self.reference_lines),
        ] {
            for c in curves {
                self.validate_curve(kind, c)?;
            }
        }
        for (axis, label) in [("x", &self.x_label), ("y", &self.y_label)] {
            check::axis_label(axis, label).map_err(|r| self.error(r))?;
        }
        check::size(self.size).map_err(|r| self.error(r))
    }

    fn validate_curve(&self, kind: &str, c: &Curve) -> Result<()> {
        let name = &c.label;
        if c.x.len() != c.y.len() {
            return Err(self.error(format!(
                "{kind} `{name}` has {} x values and {} y values",
                c.x.len(),
                c.y.len()
            )));
        }
        if c.x.is_empty() {
            return Err(self.error(format!("{kind} `{name}` has no points")));
        }
        for (axis, values, scale) in [("x", &c.x, self.x_scale), ("y", &c.y, self.y_scale)] {
            for (i, &v) in values.iter().enumerate() {
                check::value(v, scale, axis)
                    .map_err(|r| self.error(format!("{kind} `{name}`: {axis}[{i}] {r}")))?;
            }
        }
        Ok(())
    }

    /// The plotted data as a table with columns `series,x,y`: one row per point, the curves
    /// first, then the reference lines, each row naming its series by label.
    ///
    /// # Errors
    /// Those of [`Figure::validate`].
    pub fn to_table(&self) -> Result<Table> {
        self.validate()?;
        let mut table = Table::new(&["series", "x", "y"])?;
        for c in self.curves.iter().chain(&self.reference_lines) {
            for (x, y) in c.x.iter().zip(&c.y) {
                table.push(vec![
                    Cell::text(c.label.clone()),
                    Cell::Real(*x),
                    Cell::Real(*y),
                ])?;
            }
        }
        Ok(table)
    }

    /// The axes covering all points of the curves and reference lines, with some padding.
    pub(crate) fn axes(&self) -> std::result::Result<(Axis, Axis), String> {
        let all = || self.curves.iter().chain(&self.reference_lines);
        let range = |values: &dyn Fn(&Curve) -> &[f64]| {
            all()
                .flat_map(|c| values(c).iter().copied())
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
                    (lo.min(v), hi.max(v))
                })
        };
        let (x_min, x_max) = range(&|c| &c.x);
        let (y_min, y_max) = range(&|c| &c.y);
        let x = Axis::fit(self.x_scale, x_min, x_max).map_err(|e| format!("x axis: {e}"))?;
        let y = Axis::fit(self.y_scale, y_min, y_max).map_err(|e| format!("y axis: {e}"))?;
        Ok((x, y))
    }
}
