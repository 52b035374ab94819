//! Drawing a laid-out figure on a plotters backend, at scale 1 (SVG) or at a multiple for a
//! supersampled bitmap.

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{FontFamily, FontStyle, FontTransform};

use super::axis::Ticks;
use super::chart::Chart;
use super::curve::CurveStyle;
use super::figure::Figure;
use super::font::FONT_FAMILY;
use super::layout::{GLYPH_SCALE, Layout, Rect};
use super::style::{
    self, ANNOTATION_SIZE, DASH, GAP, GRID_MAJOR, GRID_MINOR, INK, LEGEND_EDGE, LEGEND_OPACITY,
    LEGEND_PADDING, LEGEND_SAMPLE, LEGEND_SIZE, LEGEND_SWATCH, LINE_WIDTH, MARKER_RADIUS,
    MARKER_RIM, Marker, REFERENCE, REFERENCE_WIDTH, TICK_LABEL_SIZE, TICK_LENGTH,
};

/// What is drawn on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Target {
    /// An SVG document at scale 1.
    Svg,
    /// A bitmap `scale` times the figure's size, averaged down afterwards.
    Bitmap { scale: u32 },
}

/// The SVG backend cannot dash lines, so dashed lines are drawn solid with this opacity, which
/// nothing else uses, and [`svg_dashes`] turns the mark into a `stroke-dasharray`.
const DASH_MARK: f64 = 0.996;

/// The bitmap renderer puts a vertically centred text's baseline about 0.13 × size higher than
/// SVG viewers do (which centre on half the x-height); bitmap text is moved down by this much.
const BASELINE_SHIFT: f64 = 0.13;

/// Replaces the dash mark of [`DASH_MARK`] by a real SVG dash pattern.
pub(crate) fn svg_dashes(svg: String) -> String {
    svg.replace(
        &format!("opacity=\"{DASH_MARK}\""),
        &format!("opacity=\"1\" stroke-dasharray=\"{},{}\"", DASH.0, DASH.1),
    )
}

/// Averages `s × s` blocks of an RGB image (a box filter): the anti-aliasing of the PNG.
pub(crate) fn downsample(big: &[u8], (bw, bh): (u32, u32), s: u32) -> Vec<u8> {
    let (bw, s) = (bw as usize, s.max(1) as usize);
    let (w, h) = (bw / s, bh as usize / s);
    let n = (s * s) as u32;
    let mut out = vec![0u8; w * h * 3];
    for y in 0..h {
        for x in 0..w {
            for ch in 0..3 {
                let mut sum = 0u32;
                for dy in 0..s {
                    let row = (y * s + dy) * bw;
                    for dx in 0..s {
                        sum += u32::from(big[(row + x * s + dx) * 3 + ch]);
                    }
                }
                out[(y * w + x) * 3 + ch] = ((sum + n / 2) / n) as u8;
            }
        }
    }
    out
}

/// Draws the figure as laid out: grid, data, frame with ticks and labels, reference-line
/// labels, legend, title. Reference lines go behind curves but in front of bars, which would
/// hide them.
pub(crate) fn draw<DB: DrawingBackend>(
    chart: Chart,
    layout: &Layout,
    root: &DrawingArea<DB, Shift>,
    target: Target,
) -> Result<(), String> {
    let p = Painter { root, target };
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    p.grid(layout, chart.categories().is_empty())?;
    let references = || -> Result<(), String> {
        for line in chart.reference_lines() {
            p.polyline(&layout.points(&line), REFERENCE, REFERENCE_WIDTH, true)?;
        }
        Ok(())
    };
    match chart {
        Chart::Curves(fig) => {
            references()?;
            p.curves(fig, layout)?;
        }
        Chart::Bars(fig) => {
            for (j, bar) in layout.bars(fig) {
                p.fill(bar, style::colour(j), 1.0)?;
            }
            references()?;
        }
    }
    p.frame_and_ticks(chart, layout)?;
    for a in &layout.annotations {
        p.text(
            &a.text,
            a.centre,
            ANNOTATION_SIZE,
            REFERENCE,
            HPos::Center,
            false,
        )?;
    }
    p.legend(chart, layout)?;
    if let Some(title) = &layout.title {
        p.text(
            chart.title(),
            title.centre,
            title.size,
            INK,
            HPos::Center,
            false,
        )?;
    }
    Ok(())
}

struct Painter<'a, DB: DrawingBackend> {
    root: &'a DrawingArea<DB, Shift>,
    target: Target,
}

impl<DB: DrawingBackend> Painter<'_, DB> {
    /// The curves of a line figure, each a line, markers or both as its style says.
    fn curves(&self, fig: &Figure, layout: &Layout) -> Result<(), String> {
        for (i, c) in fig.curves().iter().enumerate() {
            let points = layout.points(c);
            let style = c.style.unwrap_or(fig.style());
            let colour = style::colour(i);
            match style {
                CurveStyle::Line | CurveStyle::LineAndMarkers => {
                    self.polyline(&points, colour, LINE_WIDTH, false)?;
                }
                CurveStyle::Dashed => self.polyline(&points, colour, LINE_WIDTH, true)?,
                CurveStyle::Markers => {}
            }
            // A curve on a single pixel has no line to show: it gets a marker whatever the
            // style.
            let first = points.first().copied().unwrap_or_default();
            let dot = points
                .iter()
                .all(|p| (p.0 - first.0).abs() < 0.5 && (p.1 - first.1).abs() < 0.5);
            if matches!(style, CurveStyle::LineAndMarkers | CurveStyle::Markers) || dot {
                for &at in &points {
                    self.marker(style::marker(i), at, colour)?;
                }
            }
        }
        Ok(())
    }

    fn scale(&self) -> f64 {
        match self.target {
            Target::Svg => 1.0,
            Target::Bitmap { scale } => f64::from(scale),
        }
    }

    /// A logical coordinate in backend pixels.
    fn c(&self, v: f64) -> i32 {
        (v * self.scale()).round() as i32
    }

    fn point(&self, (x, y): (f64, f64)) -> (i32, i32) {
        (self.c(x), self.c(y))
    }

    fn fill(&self, r: Rect, colour: RGBColor, opacity: f64) -> Result<(), String> {
        let corners = [self.point((r.left, r.top)), self.point((r.right, r.bottom))];
        self.root
            .draw(&Rectangle::new(corners, colour.mix(opacity).filled()))
            .map_err(|e| e.to_string())
    }

    /// A one-pixel border just outside `r`.
    fn border(&self, r: Rect, colour: RGBColor) -> Result<(), String> {
        let o = r.inflate(1.0);
        for side in [
            Rect::new(o.left, o.top, o.right, r.top),
            Rect::new(o.left, r.bottom, o.right, o.bottom),
            Rect::new(o.left, r.top, r.left, r.bottom),
            Rect::new(r.right, r.top, o.right, r.bottom),
        ] {
            self.fill(side, colour, 1.0)?;
        }
        Ok(())
    }

    /// A one-pixel line from `(x0, y0)` to `(x1, y1)`, horizontal or vertical, as a filled
    /// rectangle so that it is crisp in both outputs.
    fn rule(&self, x0: f64, y0: f64, x1: f64, y1: f64, colour: RGBColor) -> Result<(), String> {
        let r = if x0 == x1 {
            let x = (x0 - 0.5).round();
            Rect::new(x, y0.min(y1), x + 1.0, y0.max(y1))
        } else {
            let y = (y0 - 0.5).round();
            Rect::new(x0.min(x1), y, x0.max(x1), y + 1.0)
        };
        self.fill(r, colour, 1.0)
    }

    fn polyline(
        &self,
        points: &[(f64, f64)],
        colour: RGBColor,
        width: f64,
        dashed: bool,
    ) -> Result<(), String> {
        let mut pixels: Vec<(i32, i32)> = points.iter().map(|&p| self.point(p)).collect();
        // Points closer than a pixel draw nothing new: long time series shrink to the width.
        pixels.dedup();
        if pixels.len() < 2 {
            return Ok(());
        }
        let stroke = ((width * self.scale()).round() as u32).max(1);
        if !dashed && stroke > 1 && matches!(self.target, Target::Bitmap { .. }) {
            return self.round_joined(&pixels, colour, stroke);
        }
        let result = match (dashed, self.target) {
            (false, _) => self
                .root
                .draw(&PathElement::new(pixels, colour.stroke_width(stroke))),
            (true, Target::Svg) => self.root.draw(&PathElement::new(
                pixels,
                colour.mix(DASH_MARK).stroke_width(stroke),
            )),
            (true, Target::Bitmap { .. }) => self.root.draw(&DashedPathElement::new(
                pixels,
                self.c(DASH.0),
                self.c(DASH.1),
                colour.stroke_width(stroke),
            )),
        };
        result.map_err(|e| e.to_string())
    }

    /// A thick solid polyline on the bitmap as separate segments with a round join at every
    /// interior vertex: plotters' bitmap backend mitres thick polylines without a limit, which
    /// throws spikes far outside the data at sharp corners (spiky time series). The SVG backend
    /// leaves the joins to the viewer and needs none of this.
    fn round_joined(
        &self,
        pixels: &[(i32, i32)],
        colour: RGBColor,
        stroke: u32,
    ) -> Result<(), String> {
        for segment in pixels.windows(2) {
            self.root
                .draw(&PathElement::new(
                    segment.to_vec(),
                    colour.stroke_width(stroke),
                ))
                .map_err(|e| e.to_string())?;
        }
        for &p in &pixels[1..pixels.len() - 1] {
            self.root
                .draw(&Circle::new(p, stroke.div_ceil(2), colour.filled()))
                .map_err(|e| e.to_string())?;
        }
        Ok(())
    }

    /// A filled marker of about the area of a circle of radius [`MARKER_RADIUS`], on a white
    /// rim.
    fn marker(&self, shape: Marker, at: (f64, f64), colour: RGBColor) -> Result<(), String> {
        for (radius, colour) in [(MARKER_RADIUS + MARKER_RIM, WHITE), (MARKER_RADIUS, colour)] {
            let style = colour.filled();
            let result = match shape {
                Marker::Circle => {
                    let r = (radius * self.scale()).round() as u32;
                    self.root.draw(&Circle::new(self.point(at), r, style))
                }
                _ => {
                    let vertices: Vec<(i32, i32)> = outline(shape, radius)
                        .into_iter()
                        .map(|(dx, dy)| self.point((at.0 + dx, at.1 + dy)))
                        .collect();
                    self.root.draw(&Polygon::new(vertices, style))
                }
            };
            result.map_err(|e| e.to_string())?;
        }
        Ok(())
    }

    /// One line of text centred vertically on `at`, aligned horizontally by `h`, optionally
    /// turned to read upwards.
    fn text(
        &self,
        text: &str,
        at: (f64, f64),
        size: f64,
        colour: RGBColor,
        h: HPos,
        upwards: bool,
    ) -> Result<(), String> {
        if text.is_empty() {
            return Ok(());
        }
        let s = self.scale();
        let (mut x, mut y) = (at.0 * s, at.1 * s);
        let glyphs = match self.target {
            Target::Svg => size,
            Target::Bitmap { .. } => {
                let shift = BASELINE_SHIFT * size * s;
                if upwards {
                    x += shift;
                } else {
                    y += shift;
                }
                size * GLYPH_SCALE * s
            }
        };
        let mut font = FontDesc::new(FontFamily::Name(FONT_FAMILY), glyphs, FontStyle::Normal);
        if upwards {
            font = font.transform(FontTransform::Rotate270);
        }
        let style = font.color(&colour).pos(Pos::new(h, VPos::Center));
        self.root
            .draw(&Text::new(
                text,
                (x.round() as i32, y.round() as i32),
                style,
            ))
            .map_err(|e| e.to_string())
    }

    /// Grid lines at the ticks, faint ones first; vertical ones only if `vertical` (a
    /// categorical x axis has none).
    fn grid(&self, layout: &Layout, vertical: bool) -> Result<(), String> {
        let p = layout.plot;
        let lines = |t: &Ticks| -> Vec<(f64, RGBColor)> {
            let minor = t.minor.iter().map(|&c| (c, GRID_MINOR));
            minor
                .chain(t.major.iter().map(|t| (t.at, GRID_MAJOR)))
                .collect()
        };
        if vertical {
            for (c, colour) in lines(&layout.x_ticks) {
                let x = layout.px_x(c);
                self.rule(x, p.top, x, p.bottom, colour)?;
            }
        }
        for (c, colour) in lines(&layout.y_ticks) {
            let y = layout.px_y(c);
            self.rule(p.left, y, p.right, y, colour)?;
        }
        Ok(())
    }

    /// The frame around the plot, tick marks outside it, tick labels and axis labels.
    fn frame_and_ticks(&self, chart: Chart, layout: &Layout) -> Result<(), String> {
        let p = layout.plot;
        self.border(p, INK)?;
        let (l, b) = (p.left, p.bottom);
        let short = 0.6 * TICK_LENGTH;
        for &c in &layout.x_ticks.minor {
            let x = layout.px_x(c);
            self.rule(x, b + 1.0, x, b + 1.0 + short, INK)?;
        }
        for &c in &layout.y_ticks.minor {
            let y = layout.px_y(c);
            self.rule(l - 1.0 - short, y, l - 1.0, y, INK)?;
        }
        let labels = layout.x_tick_labels;
        // Upward labels end just below their tick.
        let h = if labels.upwards {
            HPos::Right
        } else {
            HPos::Center
        };
        for tick in &layout.x_ticks.major {
            let x = layout.px_x(tick.at);
            self.rule(x, b + 1.0, x, b + 1.0 + TICK_LENGTH, INK)?;
            let at = (x, layout.x_tick_labels_at);
            self.text(&tick.label, at, labels.size, INK, h, labels.upwards)?;
        }
        for tick in &layout.y_ticks.major {
            let y = layout.px_y(tick.at);
            self.rule(l - 1.0 - TICK_LENGTH, y, l - 1.0, y, INK)?;
            let at = (layout.y_tick_labels_at, y);
            self.text(&tick.label, at, TICK_LABEL_SIZE, INK, HPos::Right, false)?;
        }
        let (xl, yl) = (&layout.x_label, &layout.y_label);
        self.text(
            chart.x_label(),
            xl.centre,
            xl.size,
            INK,
            HPos::Center,
            false,
        )?;
        self.text(chart.y_label(), yl.centre, yl.size, INK, HPos::Center, true)?;
        Ok(())
    }

    /// The legend: a white, slightly transparent box with a sample and the label of each
    /// series. Samples are drawn as filled rectangles or polygons, never as paths or
    /// rectangles of the palette, so that the SVG has exactly one path per curve and one
    /// palette-coloured rectangle per bar.
    fn legend(&self, chart: Chart, layout: &Layout) -> Result<(), String> {
        let Some(legend) = &layout.legend else {
            return Ok(());
        };
        let f = legend.frame;
        self.fill(f, WHITE, LEGEND_OPACITY)?;
        self.border(f.inflate(-1.0), LEGEND_EDGE)?;
        let x0 = f.left + LEGEND_PADDING;
        let text_at = x0 + chart.legend_sample() + GAP;
        for &(i, y) in &legend.entries {
            let colour = style::colour(i);
            let label = match chart {
                Chart::Curves(fig) => {
                    let Some(c) = fig.curves().get(i) else {
                        continue;
                    };
                    self.line_sample(c.style.unwrap_or(fig.style()), i, (x0, y))?;
                    &c.label
                }
                Chart::Bars(fig) => {
                    let Some(g) = fig.groups().get(i) else {
                        continue;
                    };
                    let half = 0.5 * LEGEND_SWATCH;
                    let corners = [(x0, y - half), (x0 + LEGEND_SWATCH, y + half)];
                    self.swatch(corners, colour)?;
                    &g.label
                }
            };
            self.text(label, (text_at, y), LEGEND_SIZE, INK, HPos::Left, false)?;
        }
        Ok(())
    }

    /// The legend sample of curve `i` drawn in `style`, from `x0` on the line `y`.
    fn line_sample(&self, style: CurveStyle, i: usize, (x0, y): (f64, f64)) -> Result<(), String> {
        let colour = style::colour(i);
        let x1 = x0 + LEGEND_SAMPLE;
        let band =
            |from: f64, to: f64| Rect::new(from, y - 0.5 * LINE_WIDTH, to, y + 0.5 * LINE_WIDTH);
        match style {
            CurveStyle::Line | CurveStyle::LineAndMarkers => {
                self.fill(band(x0, x1), colour, 1.0)?;
            }
            CurveStyle::Dashed => {
                let mut from = x0;
                while from < x1 {
                    self.fill(band(from, (from + DASH.0).min(x1)), colour, 1.0)?;
                    from += DASH.0 + DASH.1;
                }
            }
            CurveStyle::Markers => {}
        }
        if matches!(style, CurveStyle::LineAndMarkers | CurveStyle::Markers) {
            self.marker(style::marker(i), (0.5 * (x0 + x1), y), colour)?;
        }
        Ok(())
    }

    /// A filled rectangle between two corners, drawn as a polygon.
    fn swatch(&self, [a, b]: [(f64, f64); 2], colour: RGBColor) -> Result<(), String> {
        let vertices = [(a.0, a.1), (b.0, a.1), (b.0, b.1), (a.0, b.1)].map(|p| self.point(p));
        self.root
            .draw(&Polygon::new(vertices.to_vec(), colour.filled()))
            .map_err(|e| e.to_string())
    }
}

/// The vertices of a marker shape of about the area of a circle of radius `r`, around the
/// origin (y downwards).
fn outline(shape: Marker, r: f64) -> Vec<(f64, f64)> {
    let polygon = |n: usize, radius: f64, start: f64| -> Vec<(f64, f64)> {
        (0..n)
            .map(|k| {
                let a = start + k as f64 * std::f64::consts::TAU / n as f64;
                (radius * a.cos(), radius * a.sin())
            })
            .collect()
    };
    let up = -std::f64::consts::FRAC_PI_2;
    match shape {
        // Equal areas: square side √π r, triangle circumradius r √(4π / 3√3), diamond half
        // diagonal r √(π/2), pentagon circumradius r √(2π / (5 sin 72°)).
        Marker::Circle => polygon(24, r, 0.0),
        Marker::Square => {
            let a = 0.5 * std::f64::consts::PI.sqrt() * r;
            vec![(-a, -a), (a, -a), (a, a), (-a, a)]
        }
        Marker::TriangleUp => polygon(3, 1.555 * r, up),
        Marker::TriangleDown => polygon(3, 1.555 * r, -up),
        Marker::Diamond => polygon(4, 1.2533 * r, up),
        Marker::Pentagon => polygon(5, 1.1495 * r, up),
    }
}
