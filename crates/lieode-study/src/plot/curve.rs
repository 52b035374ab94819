//! Data series and axis scales.

/// One data series: the points `(x[i], y[i])`, drawn in order, and the label its legend entry
/// shows (an empty label leaves the curve out of the legend).
#[derive(Debug, Clone, PartialEq)]
pub struct Curve {
    /// The legend text, also the `series` column of the figure's CSV file.
    pub label: String,
    /// The abscissae.
    pub x: Vec<f64>,
    /// The ordinates, as many as abscissae.
    pub y: Vec<f64>,
    /// How the curve is drawn; `None` takes the figure's default ([`crate::plot::Figure::with_style`]).
    pub style: Option<CurveStyle>,
}

impl Curve {
    /// A curve through the points `(x[i], y[i])`, drawn in the figure's default style.
    /// Nothing is checked here: the figure validates its curves before drawing.
    pub fn new(label: impl Into<String>, x: Vec<f64>, y: Vec<f64>) -> Self {
        Self {
            label: label.into(),
            x,
            y,
            style: None,
        }
    }

    /// The same curve drawn in `style`.
    pub fn with_style(mut self, style: CurveStyle) -> Self {
        self.style = Some(style);
        self
    }
}

/// How a curve is drawn. Colours and marker shapes come from the house style, by the curve's
/// position in the figure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CurveStyle {
    /// A solid line through the points (time series with many points).
    Line,
    /// A solid line with a marker at every point (convergence and work–precision data).
    LineAndMarkers,
    /// Markers only.
    Markers,
    /// A dashed line.
    Dashed,
}

/// How an axis maps values to positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Scale {
    /// Position proportional to the value.
    #[default]
    Linear,
    /// Position proportional to `log₁₀` of the value (values must be positive); ticks at powers
    /// of ten, labelled like `1e-6`.
    Log,
}

impl From<crate::experiment::Series> for Curve {
    /// A method's `(x, error)` series from an experiment as a curve (label, x, y = error).
    fn from(series: crate::experiment::Series) -> Self {
        Curve::new(series.label, series.x, series.error)
    }
}
