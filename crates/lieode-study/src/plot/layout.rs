//! Placement: where the plot frame, ticks, labels, legend and annotations go, in logical pixels
//! (y downwards). Text is measured with the bundled font, tick labels are thinned until they do
//! not collide (category names are turned upright when they do not fit side by side), and the
//! legend and the reference-line labels are put where they cover no data.

use plotters::style::{FontDesc, FontFamily, FontStyle};

use super::axis::{Axis, Tick, Ticks};
use super::bars::BarFigure;
use super::chart::Chart;
use super::curve::{Curve, CurveStyle, Scale};
use super::font::FONT_FAMILY;
use super::style::{
    ANNOTATION_SIZE, AXIS_LABEL_SIZE, BAR_GROUP_WIDTH, GAP, LEGEND_INSET, LEGEND_PADDING,
    LEGEND_SIZE, MARGIN, MARKER_RADIUS, MAX_UPRIGHT_LABELS, TICK_LABEL_SIZE, TICK_LENGTH,
    TITLE_SIZE,
};

/// The bitmap renderer scales glyphs to `size` = ascent − descent (DejaVu Sans: 2384 of 2048
/// units per em), the SVG writes `font-size = size / 1.24`; drawing bitmap text at this
/// fraction of the nominal size makes both the same size, and measuring at it gives SVG widths.
pub(crate) const GLYPH_SCALE: f64 = (1901.0 + 483.0) / 2048.0 / 1.24;

/// An axis-aligned rectangle.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Rect {
    pub(crate) left: f64,
    pub(crate) top: f64,
    pub(crate) right: f64,
    pub(crate) bottom: f64,
}

impl Rect {
    pub(crate) fn new(left: f64, top: f64, right: f64, bottom: f64) -> Self {
        Self {
            left,
            top,
            right,
            bottom,
        }
    }

    fn centred((x, y): (f64, f64), w: f64, h: f64) -> Self {
        Self::new(x - 0.5 * w, y - 0.5 * h, x + 0.5 * w, y + 0.5 * h)
    }

    /// The rectangle grown by `d` on every side (shrunk for negative `d`).
    pub(crate) fn inflate(&self, d: f64) -> Self {
        Self::new(self.left - d, self.top - d, self.right + d, self.bottom + d)
    }

    fn contains(&self, (x, y): (f64, f64)) -> bool {
        (self.left..=self.right).contains(&x) && (self.top..=self.bottom).contains(&y)
    }

    fn overlaps(&self, other: &Rect) -> bool {
        self.left < other.right
            && other.left < self.right
            && self.top < other.bottom
            && other.top < self.bottom
    }

    fn within(&self, outer: &Rect) -> bool {
        self.left >= outer.left
            && self.right <= outer.right
            && self.top >= outer.top
            && self.bottom <= outer.bottom
    }

    pub(crate) fn width(&self) -> f64 {
        self.right - self.left
    }

    pub(crate) fn height(&self) -> f64 {
        self.bottom - self.top
    }
}

/// A text next to a reference line.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Annotation {
    pub(crate) text: String,
    pub(crate) centre: (f64, f64),
}

/// The legend: its box and, for each entry, the curve's index and the entry's centre line.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Legend {
    pub(crate) frame: Rect,
    pub(crate) entries: Vec<(usize, f64)>,
}

/// How the x tick labels are written: their size, and whether they are turned to read upwards
/// (category names too long to stand side by side).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct TickLabels {
    pub(crate) size: f64,
    pub(crate) upwards: bool,
}

/// A line of text and its size (shrunk from the style's when it would not fit).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Label {
    pub(crate) centre: (f64, f64),
    pub(crate) size: f64,
}

/// Everything the renderer needs besides the figure's data.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Layout {
    pub(crate) title: Option<Label>,
    pub(crate) x_label: Label,
    pub(crate) y_label: Label,
    /// The plot area; the frame is drawn just outside it.
    pub(crate) plot: Rect,
    pub(crate) x: Axis,
    pub(crate) y: Axis,
    pub(crate) x_ticks: Ticks,
    pub(crate) y_ticks: Ticks,
    /// How the x tick labels are written.
    pub(crate) x_tick_labels: TickLabels,
    /// Where the x tick labels are anchored: their centre line, or the top end of upward ones.
    pub(crate) x_tick_labels_at: f64,
    /// The right edge of the y tick labels.
    pub(crate) y_tick_labels_at: f64,
    pub(crate) legend: Option<Legend>,
    pub(crate) annotations: Vec<Annotation>,
}

/// The width of `text` at nominal size `size`.
pub(crate) fn text_width(text: &str, size: f64) -> Result<f64, String> {
    if text.is_empty() {
        return Ok(0.0);
    }
    FontDesc::new(
        FontFamily::Name(FONT_FAMILY),
        size * GLYPH_SCALE,
        FontStyle::Normal,
    )
    .box_size(text)
    .map(|(w, _)| f64::from(w))
    .map_err(|e| format!("cannot measure the text `{text}`: {e}"))
}

/// The height reserved for a line of text of nominal size `size`.
pub(crate) fn text_height(size: f64) -> f64 {
    0.95 * size
}

/// The height of a legend row.
pub(crate) fn legend_row(size: f64) -> f64 {
    1.45 * size
}

/// The plot area and ticks for a given room on the right (for an outside legend).
struct Frame {
    plot: Rect,
    x_ticks: Ticks,
    y_ticks: Ticks,
}

/// The smallest plot area accepted, in pixels.
const MIN_PLOT: (f64, f64) = (120.0, 90.0);

impl Layout {
    /// Lays out a validated figure. Category names are written side by side if they fit,
    /// else upwards, at a size that keeps neighbours apart and the longest name within
    /// [`MAX_UPRIGHT_LABELS`] of the height.
    pub(crate) fn plan(chart: Chart) -> Result<Self, String> {
        let flat = TickLabels {
            size: TICK_LABEL_SIZE,
            upwards: false,
        };
        let layout = Self::plan_with(chart, flat)?;
        let categories = chart.categories();
        if categories.is_empty() {
            return Ok(layout);
        }
        let widest = widest(categories.iter().map(String::as_str), TICK_LABEL_SIZE)?;
        let pitch = layout.plot.width() / categories.len() as f64;
        if widest + TICK_LABEL_SIZE <= pitch {
            return Ok(layout);
        }
        let height = f64::from(chart.size().1);
        let size = TICK_LABEL_SIZE
            .min(0.8 * pitch / text_height(1.0))
            .min(TICK_LABEL_SIZE * MAX_UPRIGHT_LABELS * height / widest);
        Self::plan_with(
            chart,
            TickLabels {
                size,
                upwards: true,
            },
        )
    }

    /// Lays out a validated figure with x tick labels written as `labels` says.
    fn plan_with(chart: Chart, labels: TickLabels) -> Result<Self, String> {
        let (w, h) = (f64::from(chart.size().0), f64::from(chart.size().1));
        let (x, y) = chart.axes()?;
        let categories = chart.categories();

        let fit = |text: &str, size: f64, room: f64| -> Result<f64, String> {
            let width = text_width(text, size)?;
            Ok(if width > room {
                size * room / width
            } else {
                size
            })
        };
        let title_size = fit(chart.title(), TITLE_SIZE, w - 2.0 * MARGIN)?;
        let x_label_size = fit(chart.x_label(), AXIS_LABEL_SIZE, w - 2.0 * MARGIN)?;
        let top = if chart.title().is_empty() {
            MARGIN
        } else {
            MARGIN + text_height(title_size) + GAP
        } + 0.5 * TICK_LABEL_SIZE;
        let x_label_room = if chart.x_label().is_empty() {
            0.0
        } else {
            text_height(x_label_size) + GAP
        };
        let tick_label_room = if labels.upwards {
            widest(categories.iter().map(String::as_str), labels.size)?
        } else {
            text_height(labels.size)
        };
        let bottom = h - MARGIN - x_label_room - tick_label_room - 0.75 * GAP - TICK_LENGTH;
        // The y label is centred on the plot and must stay inside the figure.
        let middle = 0.5 * (top + bottom);
        let room = 2.0 * (middle - MARGIN).min(h - MARGIN - middle);
        let y_label_size = fit(chart.y_label(), AXIS_LABEL_SIZE, room)?;
        let geometry = Geometry {
            width: w,
            top: top.round(),
            bottom: bottom.round(),
            left_reserve: MARGIN + text_height(y_label_size) + GAP + 0.75 * GAP + TICK_LENGTH,
            categories,
        };

        let mut layout = Self {
            title: (!chart.title().is_empty()).then(|| Label {
                centre: (0.5 * w, MARGIN + 0.5 * text_height(title_size)),
                size: title_size,
            }),
            x_label: Label {
                centre: (0.0, h - MARGIN - 0.5 * text_height(x_label_size)),
                size: x_label_size,
            },
            y_label: Label {
                centre: (MARGIN + 0.5 * text_height(y_label_size), middle),
                size: y_label_size,
            },
            plot: Rect::new(0.0, 0.0, 0.0, 0.0),
            x,
            y,
            x_ticks: Ticks::default(),
            y_ticks: Ticks::default(),
            x_tick_labels: labels,
            x_tick_labels_at: 0.0,
            y_tick_labels_at: 0.0,
            legend: None,
            annotations: Vec::new(),
        };

        // First with the legend inside the plot; if every corner covers data, outside.
        layout.set_frame(geometry.frame(&x, &y, 0.0)?);
        layout.annotations = layout.place_annotations(chart)?;
        let entries = chart.legend_entries();
        if entries.is_empty() {
            return Ok(layout);
        }
        let text = entries
            .iter()
            .map(|&(_, label)| text_width(label, LEGEND_SIZE))
            .collect::<Result<Vec<f64>, String>>()?
            .into_iter()
            .fold(0.0, f64::max);
        let indices: Vec<usize> = entries.iter().map(|&(i, _)| i).collect();
        let row = legend_row(LEGEND_SIZE);
        let size = (
            2.0 * LEGEND_PADDING + chart.legend_sample() + GAP + text,
            LEGEND_PADDING + entries.len() as f64 * row,
        );
        let (best, covered) = layout.best_corner(chart, size);
        if covered > 0 {
            // Outside, if the plot keeps most of the width and the legend fits in height.
            let room = size.0 + 1.5 * GAP;
            if let Ok(frame) = geometry.frame(&x, &y, room)
                && frame.plot.width() >= 0.45 * w
                && frame.plot.top + size.1 <= h - MARGIN
            {
                layout.set_frame(frame);
                layout.annotations = layout.place_annotations(chart)?;
                let left = layout.plot.right + 1.5 * GAP;
                let top = layout.plot.top;
                layout.legend = Some(legend_at(left, top, size, &indices));
                return Ok(layout);
            }
        }
        // Inside at the best corner; a legend larger than the plot goes to its upper left.
        let p = layout.plot;
        let (left, top) = best.unwrap_or((p.left + LEGEND_INSET, p.top + LEGEND_INSET));
        layout.legend = Some(legend_at(left, top, size, &indices));
        Ok(layout)
    }

    fn set_frame(&mut self, frame: Frame) {
        let plot = frame.plot;
        self.plot = plot;
        self.x_ticks = frame.x_ticks;
        self.y_ticks = frame.y_ticks;
        self.x_label.centre.0 = 0.5 * (plot.left + plot.right);
        let labels_top = plot.bottom + TICK_LENGTH + 0.75 * GAP;
        self.x_tick_labels_at = if self.x_tick_labels.upwards {
            labels_top
        } else {
            labels_top + 0.5 * text_height(self.x_tick_labels.size)
        };
        self.y_tick_labels_at = plot.left - TICK_LENGTH - 0.75 * GAP;
    }

    /// The horizontal pixel position of an x coordinate.
    pub(crate) fn px_x(&self, coord: f64) -> f64 {
        self.plot.left + self.x.fraction(coord) * self.plot.width()
    }

    /// The vertical pixel position of a y coordinate.
    pub(crate) fn px_y(&self, coord: f64) -> f64 {
        self.plot.bottom - self.y.fraction(coord) * self.plot.height()
    }

    /// The pixel positions of a curve's points.
    pub(crate) fn points(&self, c: &Curve) -> Vec<(f64, f64)> {
        c.x.iter()
            .zip(&c.y)
            .map(|(&x, &y)| (self.px_x(self.x.coord(x)), self.px_y(self.y.coord(y))))
            .collect()
    }

    /// The bars of a bar figure in pixels, each with the index of its group, group by group.
    /// Category `k` spans `k … k + 1` along x; its bars share the middle [`BAR_GROUP_WIDTH`] of
    /// that, in group order, with a hair of white between neighbours. Bars rise from 0 on a
    /// linear axis, from the bottom of the axis on a logarithmic one.
    pub(crate) fn bars(&self, fig: &BarFigure) -> Vec<(usize, Rect)> {
        let m = fig.groups().len().max(1) as f64;
        let width = BAR_GROUP_WIDTH / m;
        let base = self.px_y(match self.y.scale {
            Scale::Linear => 0.0,
            Scale::Log => self.y.lo,
        });
        let mut out = Vec::new();
        for (j, group) in fig.groups().iter().enumerate() {
            for (k, &value) in group.values.iter().enumerate() {
                let from = k as f64 + 0.5 * (1.0 - BAR_GROUP_WIDTH) + j as f64 * width;
                let (left, right) = (self.px_x(from), self.px_x(from + width));
                let gap = if m > 1.0 && right - left >= 4.0 {
                    0.5
                } else {
                    0.0
                };
                let top = self.px_y(self.y.coord(value));
                out.push((
                    j,
                    Rect::new(left + gap, top.min(base), right - gap, top.max(base)),
                ));
            }
        }
        out
    }

    /// Pixels covered by data: every point, points every 3 px along drawn lines, and a 3 px
    /// grid over every bar.
    fn samples(&self, chart: Chart) -> Vec<(f64, f64)> {
        let mut out = Vec::new();
        let mut lines: Vec<(Vec<(f64, f64)>, bool)> = Vec::new();
        match chart {
            Chart::Curves(fig) => {
                for c in fig.curves() {
                    let joined = c.style.unwrap_or(fig.style()) != CurveStyle::Markers;
                    lines.push((self.points(c), joined));
                }
            }
            Chart::Bars(fig) => {
                for (_, r) in self.bars(fig) {
                    let (nx, ny) = ((r.width() / 3.0).ceil(), (r.height() / 3.0).ceil());
                    for i in 0..=nx as usize {
                        for j in 0..=ny as usize {
                            let (u, v) = (i as f64 / nx.max(1.0), j as f64 / ny.max(1.0));
                            out.push((r.left + u * r.width(), r.top + v * r.height()));
                        }
                    }
                }
            }
        }
        for line in chart.reference_lines() {
            lines.push((self.points(&line), true));
        }
        for (points, joined) in lines {
            out.extend_from_slice(&points);
            if joined {
                for pair in points.windows(2) {
                    let ((x0, y0), (x1, y1)) = (pair[0], pair[1]);
                    let n = ((x1 - x0).hypot(y1 - y0) / 3.0).ceil().min(2000.0) as usize;
                    for k in 1..n {
                        let t = k as f64 / n as f64;
                        out.push((x0 + t * (x1 - x0), y0 + t * (y1 - y0)));
                    }
                }
            }
        }
        out
    }

    /// Labels of the reference lines: beside an end of the line or a point along it, in the
    /// quadrant around it that covers the fewest data pixels and no other label, inside the
    /// plot (the ends win ties).
    fn place_annotations(&self, chart: Chart) -> Result<Vec<Annotation>, String> {
        let samples = self.samples(chart);
        let mut placed: Vec<Rect> = Vec::new();
        let mut out = Vec::new();
        let inner = self.plot.inflate(-2.0);
        for line in chart.reference_lines() {
            if line.label.is_empty() {
                continue;
            }
            let (w, h) = (
                text_width(&line.label, ANNOTATION_SIZE)?,
                text_height(ANNOTATION_SIZE),
            );
            let points = self.points(&line);
            let (Some(&first), Some(&last)) = (points.first(), points.last()) else {
                continue;
            };
            // Beside the ends first, then beside points along the line.
            let anchors = [0.0, 1.0, 0.5, 0.25, 0.75].map(|t| {
                (
                    first.0 + t * (last.0 - first.0),
                    first.1 + t * (last.1 - first.1),
                )
            });
            let mut best: Option<(usize, Rect)> = None;
            for at in anchors {
                for (dx, dy) in [(1.0, 1.0), (1.0, -1.0), (-1.0, 1.0), (-1.0, -1.0)] {
                    let centre = (at.0 + dx * (0.5 * w + 5.0), at.1 + dy * (0.5 * h + 4.0));
                    let r = Rect::centred(centre, w, h);
                    if !r.within(&inner) {
                        continue;
                    }
                    let score = count_inside(&r.inflate(MARKER_RADIUS + 2.0), &samples)
                        + 1000 * placed.iter().filter(|p| p.overlaps(&r)).count();
                    if best.is_none_or(|(s, _)| score < s) {
                        best = Some((score, r));
                    }
                }
            }
            if let Some((_, r)) = best {
                placed.push(r);
                out.push(Annotation {
                    text: line.label.clone(),
                    centre: (0.5 * (r.left + r.right), 0.5 * (r.top + r.bottom)),
                });
            }
        }
        Ok(out)
    }

    /// The inside corner for a legend of `size` covering the fewest data pixels (preferring
    /// upper right, upper left, lower left, lower right on ties), and how many it covers;
    /// `None` if the legend does not fit inside at all.
    fn best_corner(&self, chart: Chart, size: (f64, f64)) -> (Option<(f64, f64)>, usize) {
        let p = self.plot;
        let (w, h) = size;
        if w + 2.0 * LEGEND_INSET > p.width() || h + 2.0 * LEGEND_INSET > p.height() {
            return (None, usize::MAX);
        }
        let (l, r) = (p.left + LEGEND_INSET, p.right - LEGEND_INSET - w);
        let (t, b) = (p.top + LEGEND_INSET, p.bottom - LEGEND_INSET - h);
        let samples = self.samples(chart);
        let labels: Vec<Rect> = self
            .annotations
            .iter()
            .map(|a| {
                let w = text_width(&a.text, ANNOTATION_SIZE).unwrap_or(0.0);
                Rect::centred(a.centre, w, text_height(ANNOTATION_SIZE))
            })
            .collect();
        let mut best = (None, usize::MAX);
        for corner in [(r, t), (l, t), (l, b), (r, b)] {
            let rect = Rect::new(corner.0, corner.1, corner.0 + w, corner.1 + h);
            let covered = count_inside(&rect.inflate(MARKER_RADIUS + 2.0), &samples)
                + labels.iter().filter(|a| a.overlaps(&rect)).count();
            if covered < best.1 {
                best = (Some(corner), covered);
            }
        }
        best
    }
}

fn count_inside(r: &Rect, samples: &[(f64, f64)]) -> usize {
    samples.iter().filter(|&&p| r.contains(p)).count()
}

fn legend_at(left: f64, top: f64, (w, h): (f64, f64), entries: &[usize]) -> Legend {
    let row = legend_row(LEGEND_SIZE);
    let (left, top) = (left.round(), top.round());
    Legend {
        frame: Rect::new(left, top, left + w.round(), top + h.round()),
        entries: entries
            .iter()
            .enumerate()
            .map(|(k, &i)| (i, top + 0.5 * LEGEND_PADDING + (k as f64 + 0.5) * row))
            .collect(),
    }
}

/// The fixed part of the page: vertical extent of the plot, room for the y labels, the names
/// along a categorical x axis (empty for a numeric one).
struct Geometry<'a> {
    width: f64,
    top: f64,
    bottom: f64,
    /// Room left of the plot besides the y tick labels.
    left_reserve: f64,
    categories: &'a [String],
}

impl Geometry<'_> {
    /// The plot area and ticks with `room` pixels reserved on the right: the finest ticks
    /// whose labels do not collide, the plot as wide as the last x label allows; one tick in
    /// the middle of each category on a categorical axis.
    fn frame(&self, x: &Axis, y: &Axis, room: f64) -> Result<Frame, String> {
        let height = self.bottom - self.top;
        let y_ticks = finest(y, |t| min_gap(y, t, height) >= 1.5 * TICK_LABEL_SIZE)
            .ok_or("no ticks fit on the y axis")?;
        let y_label_width = max_width(&y_ticks)?;
        let left = (self.left_reserve + y_label_width).ceil();
        let limit = self.width - MARGIN;
        let (x_ticks, right) = if self.categories.is_empty() {
            self.numeric_x_ticks(x, left, limit - room)?
        } else {
            let major = self
                .categories
                .iter()
                .enumerate()
                .map(|(k, name)| Tick {
                    at: k as f64 + 0.5,
                    label: name.clone(),
                })
                .collect();
            let minor = Vec::new();
            (Ticks { major, minor }, (limit - room).floor())
        };
        let plot = Rect::new(left, self.top, right, self.bottom);
        if plot.width() < MIN_PLOT.0 || plot.height() < MIN_PLOT.1 {
            return Err(format!(
                "the figure is too small for its labels: {:.0}×{:.0} pixels left for the plot",
                plot.width(),
                plot.height()
            ));
        }
        Ok(Frame {
            plot,
            x_ticks,
            y_ticks,
        })
    }

    /// The finest ticks of a numeric x axis whose labels do not collide, and the right edge of
    /// the plot: at most `limit`, less if the last label would stick out of the figure.
    fn numeric_x_ticks(&self, x: &Axis, left: f64, limit: f64) -> Result<(Ticks, f64), String> {
        let edge = self.width - MARGIN;
        let right_for = |t: &Ticks| -> Result<f64, String> {
            let mut right = limit;
            for tick in &t.major {
                let f = x.fraction(tick.at);
                let half = 0.5 * text_width(&tick.label, TICK_LABEL_SIZE)?;
                if f > 0.0 {
                    right = right.min(left + (edge - half - left) / f);
                }
            }
            Ok(right.floor())
        };
        let mut chosen = None;
        let mut level = 0;
        while let Some(t) = x.ticks(level) {
            let right = right_for(&t)?;
            let widths = t
                .major
                .iter()
                .map(|tick| text_width(&tick.label, TICK_LABEL_SIZE))
                .collect::<Result<Vec<f64>, String>>()?;
            let fits = t.major.windows(2).zip(widths.windows(2)).all(|(a, w)| {
                (x.fraction(a[1].at) - x.fraction(a[0].at)) * (right - left)
                    >= 0.5 * (w[0] + w[1]) + TICK_LABEL_SIZE
            });
            chosen = Some((t, right));
            if fits {
                break;
            }
            level += 1;
        }
        chosen.ok_or_else(|| "no ticks fit on the x axis".to_string())
    }
}

/// The finest ticks of `axis` accepted by `fits`, else the coarsest there are.
fn finest(axis: &Axis, fits: impl Fn(&Ticks) -> bool) -> Option<Ticks> {
    let mut last = None;
    let mut level = 0;
    while let Some(t) = axis.ticks(level) {
        if fits(&t) {
            return Some(t);
        }
        last = Some(t);
        level += 1;
    }
    last
}

/// The smallest distance in pixels between neighbouring labelled ticks on an axis `length`
/// pixels long.
fn min_gap(axis: &Axis, t: &Ticks, length: f64) -> f64 {
    t.major
        .windows(2)
        .map(|w| (axis.fraction(w[1].at) - axis.fraction(w[0].at)).abs() * length)
        .fold(f64::INFINITY, f64::min)
}

fn max_width(t: &Ticks) -> Result<f64, String> {
    widest(
        t.major.iter().map(|tick| tick.label.as_str()),
        TICK_LABEL_SIZE,
    )
}

/// The width of the widest of `texts` at nominal size `size`.
fn widest<'s>(texts: impl IntoIterator<Item = &'s str>, size: f64) -> Result<f64, String> {
    texts
        .into_iter()
        .map(|t| text_width(t, size))
        .try_fold(0.0, |m, w| w.map(|w| f64::max(m, w)))
}
