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
mod check;
mod curve;
mod figure;
mod font;
mod layout;
mod render;
mod save;
mod style;

pub use bars::{BarFigure, BarGroup, bar_figure};
pub use builders::{WorkAxis, convergence_figure, time_figure, work_precision_figure};
pub use curve::{Curve, CurveStyle, Scale};
pub use figure::Figure;
pub use font::{FONT_FAMILY, register_font};
pub use save::FigureFiles;
