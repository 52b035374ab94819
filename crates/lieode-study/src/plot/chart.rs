//! One view of a figure of either kind, a line [`Figure`] or a [`BarFigure`]: what the layout,
//! the renderer and the saving code ask of a figure, answered for both kinds.

use super::axis::Axis;
use super::bars::BarFigure;
use super::check;
use super::curve::Curve;
use super::figure::Figure;
use super::style::{LEGEND_SAMPLE, LEGEND_SWATCH};
use crate::csv::Table;
use crate::error::{Error, Result};

/// A figure of either kind, as the layout, the renderer and the saving code see it.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Chart<'a> {
    /// Curves over a numeric x axis.
    Curves(&'a Figure),
    /// Groups of bars over named categories.
    Bars(&'a BarFigure),
}

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
        check::plot_error(self.title(), reason)
    }

    /// Checks that the figure can be drawn.
    pub(crate) fn validate(self) -> Result<()> {
        match self {
            Chart::Curves(f) => f.validate(),
            Chart::Bars(b) => b.validate(),
        }
    }

    /// The plotted data (which also validates the figure).
    pub(crate) fn to_table(self) -> Result<Table> {
        match self {
            Chart::Curves(f) => f.to_table(),
            Chart::Bars(b) => b.to_table(),
        }
    }
}
