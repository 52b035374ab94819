//! The house style: one look for every figure. Sizes are in logical pixels of the SVG; the PNG
//! is drawn at a multiple of them and filtered down.

use plotters::style::RGBColor;

/// The Okabe–Ito palette (distinguishable with every common colour-vision deficiency), ordered
/// so that the first colours have the most contrast on white; the pale yellow comes last.
pub(crate) const PALETTE: [RGBColor; 8] = [
    RGBColor(0x00, 0x72, 0xB2), // blue
    RGBColor(0xD5, 0x5E, 0x00), // vermillion
    RGBColor(0x00, 0x9E, 0x73), // bluish green
    RGBColor(0xCC, 0x79, 0xA7), // reddish purple
    RGBColor(0xE6, 0x9F, 0x00), // orange
    RGBColor(0x56, 0xB4, 0xE9), // sky blue
    RGBColor(0x00, 0x00, 0x00), // black
    RGBColor(0xF0, 0xE4, 0x42), // yellow
];

/// Marker shapes, cycled independently of the colours so that curves stay distinct in
/// greyscale print.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Marker {
    Circle,
    Square,
    TriangleUp,
    Diamond,
    TriangleDown,
    Pentagon,
}

/// The marker cycle.
pub(crate) const MARKERS: [Marker; 6] = [
    Marker::Circle,
    Marker::Square,
    Marker::TriangleUp,
    Marker::Diamond,
    Marker::TriangleDown,
    Marker::Pentagon,
];

/// The colour of curve `i`.
pub(crate) fn colour(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// The marker of curve `i`.
pub(crate) fn marker(i: usize) -> Marker {
    MARKERS[i % MARKERS.len()]
}

/// Reference lines (`C·hᵖ`): dark grey, dashed, behind the data.
pub(crate) const REFERENCE: RGBColor = RGBColor(0x60, 0x60, 0x60);
/// Text, frame and tick marks.
pub(crate) const INK: RGBColor = RGBColor(0x1A, 0x1A, 0x1A);
/// Grid lines at labelled ticks.
pub(crate) const GRID_MAJOR: RGBColor = RGBColor(0xDD, 0xDD, 0xDD);
/// Grid lines at unlabelled ticks (the 2…9 of a decade).
pub(crate) const GRID_MINOR: RGBColor = RGBColor(0xEE, 0xEE, 0xEE);
/// The legend's frame.
pub(crate) const LEGEND_EDGE: RGBColor = RGBColor(0xBB, 0xBB, 0xBB);
/// Opacity of the legend's white box: data behind it (if any) stays faintly visible.
pub(crate) const LEGEND_OPACITY: f64 = 0.88;

/// Font sizes: the nominal size `s` of the text renderer (an SVG `font-size` of `s / 1.24`).
pub(crate) const TITLE_SIZE: f64 = 25.0;
pub(crate) const AXIS_LABEL_SIZE: f64 = 22.0;
pub(crate) const TICK_LABEL_SIZE: f64 = 19.0;
pub(crate) const LEGEND_SIZE: f64 = 19.0;
pub(crate) const ANNOTATION_SIZE: f64 = 18.0;

/// Stroke width of data lines.
pub(crate) const LINE_WIDTH: f64 = 2.0;
/// Stroke width of reference lines.
pub(crate) const REFERENCE_WIDTH: f64 = 1.5;
/// Dash and gap lengths of dashed lines.
pub(crate) const DASH: (f64, f64) = (8.0, 5.0);
/// Marker size: the radius of the circle; other shapes have about the same area.
pub(crate) const MARKER_RADIUS: f64 = 5.0;
/// The white rim around markers, separating them from lines they sit on.
pub(crate) const MARKER_RIM: f64 = 1.2;
/// Length of the tick marks outside the frame (unlabelled ticks get 60 %).
pub(crate) const TICK_LENGTH: f64 = 6.0;

/// Margin around the whole figure.
pub(crate) const MARGIN: f64 = 14.0;
/// Gap between neighbouring text blocks (tick labels, axis labels, title).
pub(crate) const GAP: f64 = 8.0;
/// Inner padding of the legend box.
pub(crate) const LEGEND_PADDING: f64 = 10.0;
/// Length of the line sample in a legend entry.
pub(crate) const LEGEND_SAMPLE: f64 = 34.0;
/// Side of the colour swatch in a bar figure's legend entry.
pub(crate) const LEGEND_SWATCH: f64 = 16.0;
/// Distance of an inside legend from the frame.
pub(crate) const LEGEND_INSET: f64 = 10.0;
/// Axis padding as a fraction of the data span on each side, so that markers are not cut.
pub(crate) const AXIS_PADDING: f64 = 0.05;
/// The fraction of a category's width taken by its group of bars (the rest separates groups).
pub(crate) const BAR_GROUP_WIDTH: f64 = 0.8;
/// On a logarithmic axis, the shortest bar is at least this fraction of the axis high.
pub(crate) const BAR_BASE: f64 = 0.1;
/// Upright category names are made small enough that the longest one takes at most this
/// fraction of the figure's height.
pub(crate) const MAX_UPRIGHT_LABELS: f64 = 0.35;
