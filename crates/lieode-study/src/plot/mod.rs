//! # Figures
//!
//! Publication-quality figures of numerical experiments, drawn with `plotters` in one house
//! style (the Okabe–Ito colour-blind-safe palette, cycling marker shapes, a light grid, the
//! bundled DejaVu Sans font). Every figure is saved three times, as `<stem>.svg`, `<stem>.png`
//! and `<stem>.csv`: the CSV holds every plotted point (columns `series,x,y`, or
//! `series,category,value` for bar charts) so the data sits next to its picture and can be
//! re-plotted elsewhere.
//!
//! The builders cover the figures of the experiments:
//! - [`convergence_figure`]: error against step size `h` on log–log axes, each legend entry
//!   showing the order measured by [`lieode::order::observed_order`], with dashed reference
//!   lines `C·hᵖ`;
//! - [`work_precision_figure`]: error against work (right-hand-side evaluations or wall time);
//! - [`time_figure`]: a quantity against time `t` (error, invariant drift, step size,
//!   components);
//! - [`bar_figure`]: a grouped bar chart, one bar per category (e.g. method) and
//!   [`BarGroup`] (e.g. target error), such as costs or speed-ups relative to a baseline.
//!
//! [`Figure`] composes any other plot from [`Curve`]s.
//!
//! # Examples
//! ```
//! use lieode_study::plot::{convergence_figure, Curve};
//!
//! let hs: Vec<f64> = vec![0.1, 0.05, 0.025, 0.0125];
//! let rk4: Vec<f64> = hs.iter().map(|h| 3.0 * h.powi(4)).collect();
//! let figure = convergence_figure("Kepler problem", &[Curve::new("RK4", hs, rk4)], &[4])?;
//! assert_eq!(figure.curves()[0].label, "RK4 (order 4.00)");
//! let dir = std::env::temp_dir().join("lieode-plot-doc");
//! let files = figure.save(&dir, "convergence")?; // convergence.svg, .png and .csv
//! assert!(files.png.exists());
//! # std::fs::remove_dir_all(&dir).ok();
//! # Ok::<(), lieode_study::Error>(())
//! ```

mod axis;
mod bars;
mod builders;
mod chart;
mod curve;
mod figure;
mod layout;
mod render;
mod style;

use std::sync::OnceLock;

use crate::error::{Error, Result};

pub use bars::{BarFigure, BarGroup, bar_figure};
pub use builders::{WorkAxis, convergence_figure, time_figure, work_precision_figure};
pub use curve::{Curve, CurveStyle, Scale};
pub use figure::{Figure, FigureFiles};

/// The font family every figure's text uses: the name under which the bundled DejaVu Sans is
/// registered for bitmap rendering, and the CSS `font-family` the SVG files name (with
/// `sans-serif` as the fallback for viewers without DejaVu Sans).
pub const FONT_FAMILY: &str = "DejaVu Sans, sans-serif";

/// DejaVu Sans (licence in `assets/fonts/LICENSE-DejaVu.txt`), bundled so that PNG files render
/// the same on a machine without any system font.
static DEJAVU_SANS: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");

/// Registers the bundled font under [`FONT_FAMILY`] with the text renderer. Idempotent: the
/// first call registers, later calls return the first call's outcome. Every save calls it.
///
/// # Errors
/// [`Error::Plot`] if the font data cannot be parsed (a corrupted build).
pub fn register_font() -> Result<()> {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    let ok = *REGISTERED.get_or_init(|| {
        plotters::style::register_font(FONT_FAMILY, plotters::style::FontStyle::Normal, DEJAVU_SANS)
            .is_ok()
    });
    if ok {
        Ok(())
    } else {
        Err(Error::Plot {
            figure: "(font registration)".into(),
            reason: "the bundled DejaVu Sans font cannot be parsed".into(),
        })
    }
}
