//! Grouped bar charts: one value per category and group, e.g. the cost or the speed-up of each
//! method (categories) for several target errors (groups); their validation, axes and table of
//! values. Drawing and saving them are in `save.rs`.

use super::axis::Axis;
use super::check;
use super::curve::Scale;
use super::figure::Figure;
use super::style::BAR_BASE;
use crate::csv::{Cell, Table};
use crate::error::{Error, Result};

/// One series of a bar figure: a value for every category, drawn as bars of one colour, and
/// the label its legend entry shows.
#[derive(Debug, Clone, PartialEq)]
pub struct BarGroup {
    /// The legend text (e.g. `target 1e-3`), also the `series` column of the figure's CSV
    /// file. An empty label leaves the group out of the legend.
    pub label: String,
    /// The values, one per category, in the order of the categories.
    pub values: Vec<f64>,
}

impl BarGroup {
    /// A group of bars with these values. Nothing is checked here: the figure validates its
    /// groups before drawing.
    pub fn new(label: impl Into<String>, values: Vec<f64>) -> Self {
        Self {
            label: label.into(),
            values,
        }
    }
}

/// A grouped bar chart, made by [`bar_figure`] and written by [`BarFigure::save`].
///
/// The x axis holds the categories, left to right; above each category stands one bar per
/// group, side by side in group order, coloured like the curves of a [`Figure`] (the first
/// group blue, the second vermillion, …). Bars rise from 0 on a linear y axis (which then
/// starts at 0 unless there are negative values) and from the bottom of the axis on a
/// logarithmic one. Category names are written below the axis side by side if they fit, else
/// upright. The legend names the groups; a figure with a single group has none.
#[derive(Debug, Clone, PartialEq)]
pub struct BarFigure {
    title: String,
    x_label: String,
    y_label: String,
    y_scale: Scale,
    categories: Vec<String>,
    groups: Vec<BarGroup>,
    reference_line: Option<(f64, String)>,
    size: (u32, u32),
}

/// A grouped bar chart: for every group a bar per category, the category names along the
/// x axis, the y axis labelled `y_label` on `y_scale`. Pass one group for a plain bar chart
/// (one bar per category, no legend).
///
/// # Errors
/// Those of [`BarFigure::validate`].
///
/// # Examples
/// ```
/// use lieode_study::plot::{BarGroup, Scale, bar_figure};
///
/// let methods = vec!["direct_euler".to_string(), "spiral".to_string(), "rk4".to_string()];
/// let groups = [
///     BarGroup::new("target 1e-3", vec![1.0, 4.2, 2.5]),
///     BarGroup::new("target 1e-6", vec![1.0, 35.0, 12.0]),
/// ];
/// let figure = bar_figure("Speed-up", "speed-up over direct_euler", &methods, &groups, Scale::Log)?
///     .with_reference_line(1.0, "");
/// let dir = std::env::temp_dir().join("lieode-bars-doc");
/// let files = figure.save(&dir, "speed_up")?; // speed_up.svg, .png and .csv
/// assert!(files.csv.exists());
/// # std::fs::remove_dir_all(&dir).ok();
/// # Ok::<(), lieode_study::Error>(())
/// ```
pub fn bar_figure(
    title: &str,
    y_label: &str,
    categories: &[String],
    groups: &[BarGroup],
    y_scale: Scale,
) -> Result<BarFigure> {
    let fig = BarFigure {
        title: title.into(),
        x_label: String::new(),
        y_label: y_label.into(),
        y_scale,
        categories: categories.to_vec(),
        groups: groups.to_vec(),
        reference_line: None,
        size: Figure::DEFAULT_SIZE,
    };
    fig.validate()?;
    Ok(fig)
}

impl BarFigure {
    /// Sets the x-axis label (none by default: category names usually speak for themselves).
    pub fn with_x_label(mut self, label: impl Into<String>) -> Self {
        self.x_label = label.into();
        self
    }

    /// Adds a horizontal reference line at `value` across the plot, drawn dashed grey over
    /// the bars (e.g. at 1 in a figure of ratios), its label written next to it (an empty
    /// label writes none). The line is not part of the CSV file.
    pub fn with_reference_line(mut self, value: f64, label: impl Into<String>) -> Self {
        self.reference_line = Some((value, label.into()));
        self
    }

    /// Sets the size in pixels (width, height) of both the SVG and the PNG, as
    /// [`Figure::with_size`] does.
    pub fn with_size(mut self, width: u32, height: u32) -> Self {
        self.size = (width, height);
        self
    }

    /// The title.
    pub fn title(&self) -> &str {
        &self.title
    }

    /// The x-axis label; empty if there is none.
    pub fn x_label(&self) -> &str {
        &self.x_label
    }

    /// The y-axis label.
    pub fn y_label(&self) -> &str {
        &self.y_label
    }

    /// The y-axis scale.
    pub fn y_scale(&self) -> Scale {
        self.y_scale
    }

    /// The categories, left to right.
    pub fn categories(&self) -> &[String] {
        &self.categories
    }

    /// The groups, in drawing (and legend) order.
    pub fn groups(&self) -> &[BarGroup] {
        &self.groups
    }

    /// The reference line's value and label, if there is one.
    pub fn reference_line(&self) -> Option<(f64, &str)> {
        self.reference_line
            .as_ref()
            .map(|(value, label)| (*value, label.as_str()))
    }

    /// The size in pixels (width, height).
    pub fn size(&self) -> (u32, u32) {
        self.size
    }

    /// The error [`Error::Plot`] for this figure.
    fn error(&self, reason: impl Into<String>) -> Error {
        check::plot_error(&self.title, reason)
    }

    /// Checks that the figure can be drawn.
    ///
    /// # Errors
    /// [`Error::Plot`] naming the problem: no categories; an empty or repeated category name;
    /// no groups; two groups with the same label; a group without exactly one value per
    /// category; a non-finite value, or a value `≤ 0` on a logarithmic axis (naming the group
    /// and the category), and the same for the reference line; an empty y-axis label; a size
    /// outside 320×240 … 4000×4000.
    pub fn validate(&self) -> Result<()> {
        if self.categories.is_empty() {
            return Err(self.error("no categories to draw"));
        }
        for (k, name) in self.categories.iter().enumerate() {
            if name.trim().is_empty() {
                return Err(self.error(format!("category {k} has no name")));
            }
            if self.categories[..k].contains(name) {
                return Err(self.error(format!("category `{name}` appears more than once")));
            }
        }
        if self.groups.is_empty() {
            return Err(self.error("no groups of bars to draw"));
        }
        let scale = self.y_scale;
        for (j, group) in self.groups.iter().enumerate() {
            let name = &group.label;
            if self.groups[..j].iter().any(|g| g.label == *name) {
                return Err(self.error(format!("two groups are labelled `{name}`")));
            }
            if group.values.len() != self.categories.len() {
                return Err(self.error(format!(
                    "group `{name}` has {} values for {} categories",
                    group.values.len(),
                    self.categories.len()
                )));
            }
            for (value, category) in group.values.iter().zip(&self.categories) {
                check::value(*value, scale, "y").map_err(|r| {
                    self.error(format!(
                        "group `{name}`, category `{category}`: the value {r}"
                    ))
                })?;
            }
        }
        if let Some((value, label)) = &self.reference_line {
            check::value(*value, scale, "y")
                .map_err(|r| self.error(format!("reference line `{label}`: the value {r}")))?;
        }
        check::axis_label("y", &self.y_label).map_err(|r| self.error(r))?;
        check::size(self.size).map_err(|r| self.error(r))
    }

    /// The plotted data as a table with columns `series,category,value`: one row per bar,
    /// group by group, each in the order of the categories.
    ///
    /// # Errors
    /// Those of [`BarFigure::validate`].
    pub fn to_table(&self) -> Result<Table> {
        self.validate()?;
        let mut table = Table::new(&["series", "category", "value"])?;
        for group in &self.groups {
            for (category, value) in self.categories.iter().zip(&group.values) {
                table.push(vec![
                    Cell::text(group.label.clone()),
                    Cell::text(category.clone()),
                    Cell::Real(*value),
                ])?;
            }
        }
        Ok(table)
    }

    /// The axes: categories `0 … n` along x; along y, the values and the reference line with
    /// some room above (and below negative values), starting at 0 on a linear axis with no
    /// negative values, and low enough on a logarithmic one that the shortest bar is at least
    /// [`BAR_BASE`] of the axis high.
    pub(crate) fn axes(&self) -> std::result::Result<(Axis, Axis), String> {
        let n = self.categories.len() as f64;
        let x = Axis {
            scale: Scale::Linear,
            lo: 0.0,
            hi: n,
        };
        let (min, max) = self
            .groups
            .iter()
            .flat_map(|g| g.values.iter().copied())
            .chain(self.reference_line.as_ref().map(|(v, _)| *v))
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
                (lo.min(v), hi.max(v))
            });
        let y = match self.y_scale {
            Scale::Linear => {
                let mut y = Axis::fit(Scale::Linear, min.min(0.0), max.max(0.0))
                    .map_err(|e| format!("y axis: {e}"))?;
                if min >= 0.0 {
                    y.lo = 0.0;
                } else if max <= 0.0 {
                    y.hi = 0.0;
                }
                y
            }
            Scale::Log => {
                let mut y = Axis::fit(Scale::Log, min, max).map_err(|e| format!("y axis: {e}"))?;
                // (c − lo) = BAR_BASE (hi − lo) for the shortest bar's top c.
                let lo = (min.log10() - BAR_BASE * y.hi) / (1.0 - BAR_BASE);
                y.lo = y.lo.min(lo);
                y
            }
        };
        Ok((x, y))
    }
}
